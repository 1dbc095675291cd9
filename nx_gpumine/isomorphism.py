"""Drop-in replacements for NetworkX's matcher classes, at the path the docs use.

NetworkX does not dispatch its matcher classes to backends, so nx_gpumine ships subclasses
with the same constructors and methods, running on its engines::

    from nx_gpumine.isomorphism import GraphMatcher  # was: networkx.algorithms.isomorphism

- :class:`GraphMatcher`, :class:`DiGraphMatcher`: subgraph isomorphism / monomorphism
  (:mod:`nx_gpumine.interfaces.isomorphism`).
- :class:`TimeRespectingGraphMatcher`, :class:`TimeRespectingDiGraphMatcher`: NetworkX's
  time-respecting matchers (:mod:`nx_gpumine.interfaces.temporal_isomorphism`).

Calls the engines cannot serve exactly are answered by NetworkX's own matcher.
"""

from __future__ import annotations

from .interfaces.isomorphism import DiGraphMatcher, GraphMatcher
from .interfaces.temporal_isomorphism import (
    TimeRespectingDiGraphMatcher,
    TimeRespectingGraphMatcher,
)

__all__ = [
    "GraphMatcher",
    "DiGraphMatcher",
    "TimeRespectingGraphMatcher",
    "TimeRespectingDiGraphMatcher",
]
