"""nx_gpumine: subgraph isomorphism and temporal motif mining on GPUs and CPUs.

A NetworkX backend (``backend="gpumine"``) and a Python library. See the README for a tour.
"""

from __future__ import annotations

from .errors import (
    CapacityError,
    EngineUnavailableError,
    GpumineError,
    InputError,
    QueryError,
    UnsupportedGraphError,
)
from .inputs.static_graph import StaticGraph, from_arrays, from_edgelist, from_networkx

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "StaticGraph",
    "from_networkx",
    "from_edgelist",
    "from_arrays",
    "GpumineError",
    "InputError",
    "QueryError",
    "UnsupportedGraphError",
    "EngineUnavailableError",
    "CapacityError",
]
