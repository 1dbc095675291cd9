"""Drop-in ``TimeRespectingGraphMatcher`` / ``TimeRespectingDiGraphMatcher``.

Same constructor ``(G1, G2, temporal_attribute_name, delta)`` and methods as
:mod:`networkx.algorithms.isomorphism.temporalisomorphvf2`, same results.

NetworkX's time-respecting matchers are VF2 with a *semantic* check run each time a node pair is
added: the dates of the edges between the new G1 node and the already-mapped ones (and of its
mapped neighbours) must span at most ``delta``, and (directed) incoming edges of a node must not
come after its outgoing ones. That check depends on which nodes were mapped before, i.e. on the
order in which VF2 adds nodes. Along any search path that completes, VF2's next G2 node depends
on G2 alone (``candidate_pairs_iter``: the first G2 node, in G2's node order, of the out-, else
in-, else any terminal set; a G1 terminal set is non-empty whenever the G2 one is, since the
mapping completes). So the engines enumerate the structural matches (static plan, induced or
not) and every match is *replayed* through NetworkX's own ``semantic_feasibility`` in that
order: the accepted set is exactly NetworkX's, whatever the time type (numbers, datetimes).

NetworkX answers directly (fallback) where the static engine cannot run (multigraphs, empty or
disconnected G2 — see :class:`nx_gpumine.interfaces.isomorphism.GraphMatcher`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import networkx as nx
from networkx.algorithms.isomorphism import temporalisomorphvf2 as _nxt

from .isomorphism import DiGraphMatcher as _StaticDiGM
from .isomorphism import GraphMatcher as _StaticGM

__all__ = ["TimeRespectingGraphMatcher", "TimeRespectingDiGraphMatcher", "vf2_g2_order"]


def vf2_g2_order(G2: nx.Graph) -> list:
    """The order in which NetworkX's VF2 adds the nodes of ``G2`` along a completing path."""
    key = {n: i for i, n in enumerate(G2)}
    core: set = set()
    seq: list = []
    directed = G2.is_directed()
    while len(core) < len(G2):
        if directed:
            t = {s for c in core for s in G2.successors(c)} - core
            if not t:
                t = {p for c in core for p in G2.predecessors(c)} - core
        else:
            t = {s for c in core for s in G2[c]} - core
        if not t:
            t = set(G2) - core
        n = min(t, key=key.__getitem__)
        seq.append(n)
        core.add(n)
    return seq


class _TemporalMixin:
    """Engine enumeration + replay of NetworkX's semantic checks (see module docstring)."""

    _static_cls: type = _StaticGM
    _nx_cls: type = _nxt.TimeRespectingGraphMatcher

    def _tr_setup(self) -> None:
        self._tr_static = self._static_cls(self.G1, self.G2)
        self._tr_order = vf2_g2_order(self.G2)

    @property
    def uses_engine(self) -> bool:
        """Whether matches come from nx_gpumine's engines (else NetworkX's VF2 alone)."""
        return self._tr_static.uses_engine

    @property
    def fallback_reason(self) -> str | None:
        """Why NetworkX answers, or None."""
        return self._tr_static.fallback_reason

    def _tr_accept(self, mapping: dict) -> bool:
        inv = {v: k for k, v in mapping.items()}
        saved = self.core_1
        core: dict = {}
        self.core_1 = core
        try:
            for n2 in self._tr_order:
                n1 = inv[n2]
                if not self._nx_cls.semantic_feasibility(self, n1, n2):
                    return False
                core[n1] = n2
            return True
        finally:
            self.core_1 = saved

    def _tr_filter(self, it: Iterator[dict]) -> Iterator[dict]:
        for mapping in it:
            if self._tr_accept(mapping):
                yield mapping

    def _tr_first(self, it: Iterator[dict]) -> bool:
        for mapping in self._tr_filter(it):
            self.mapping = dict(mapping)
            return True
        return False

    def subgraph_isomorphisms_iter(self) -> Iterator[dict]:
        """Time-respecting induced subgraph isomorphisms ``{G1 node: G2 node}``."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_isomorphisms_iter(self)
        return self._tr_filter(self._tr_static.subgraph_isomorphisms_iter())

    def subgraph_monomorphisms_iter(self) -> Iterator[dict]:
        """Time-respecting subgraph monomorphisms ``{G1 node: G2 node}``."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_monomorphisms_iter(self)
        return self._tr_filter(self._tr_static.subgraph_monomorphisms_iter())

    def isomorphisms_iter(self) -> Iterator[dict]:
        """Time-respecting isomorphisms G1 -> G2."""
        if not self.uses_engine:
            return self._nx_cls.isomorphisms_iter(self)
        if len(self.G1) != len(self.G2):
            return iter(())
        return self._tr_filter(self._tr_static.isomorphisms_iter())

    def subgraph_is_isomorphic(self) -> bool:
        """True if a time-respecting induced subgraph of G1 is isomorphic to G2."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_is_isomorphic(self)
        return self._tr_first(self._tr_static.subgraph_isomorphisms_iter())

    def subgraph_is_monomorphic(self) -> bool:
        """True if a time-respecting subgraph of G1 is monomorphic to G2."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_is_monomorphic(self)
        return self._tr_first(self._tr_static.subgraph_monomorphisms_iter())

    def is_isomorphic(self) -> bool:
        """True if G1 and G2 are time-respecting isomorphic."""
        if not self.uses_engine:
            return self._nx_cls.is_isomorphic(self)
        if len(self.G1) != len(self.G2):
            return False
        if sorted(d for _, d in self.G1.degree()) != sorted(d for _, d in self.G2.degree()):
            return False
        return self._tr_first(self.isomorphisms_iter())


class TimeRespectingGraphMatcher(_TemporalMixin, _nxt.TimeRespectingGraphMatcher):
    """Drop-in for NetworkX's ``TimeRespectingGraphMatcher`` (undirected).

    Parameters
    ----------
    G1, G2 : networkx.Graph
        Search for time-respecting subgraphs of ``G1`` matching ``G2``.
    temporal_attribute_name : str
        Edge attribute holding the date/time.
    delta : number or timedelta
        Time threshold, as in NetworkX.
    """

    _static_cls = _StaticGM
    _nx_cls = _nxt.TimeRespectingGraphMatcher

    def __init__(self, G1: nx.Graph, G2: nx.Graph, temporal_attribute_name: str, delta: Any):
        super().__init__(G1, G2, temporal_attribute_name, delta)
        self._tr_setup()


class TimeRespectingDiGraphMatcher(_TemporalMixin, _nxt.TimeRespectingDiGraphMatcher):
    """Drop-in for NetworkX's ``TimeRespectingDiGraphMatcher`` (directed).

    Parameters
    ----------
    G1, G2 : networkx.DiGraph
        Search for time-respecting subgraphs of ``G1`` matching ``G2``.
    temporal_attribute_name : str
        Edge attribute holding the date/time.
    delta : number or timedelta
        Time threshold, as in NetworkX.
    """

    _static_cls = _StaticDiGM
    _nx_cls = _nxt.TimeRespectingDiGraphMatcher

    def __init__(self, G1: nx.DiGraph, G2: nx.DiGraph, temporal_attribute_name: str, delta: Any):
        super().__init__(G1, G2, temporal_attribute_name, delta)
        self._tr_setup()
