"""nx_gpumine: subgraph isomorphism and temporal motif mining on GPUs and CPUs.

A NetworkX backend (``backend="gpumine"``) and a Python library. See the README for a tour.
Public names are imported lazily, so ``import nx_gpumine`` stays cheap (no numba compile,
no CuPy import) until a function is used.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # errors
    "GpumineError": "nx_gpumine.errors",
    "InputError": "nx_gpumine.errors",
    "QueryError": "nx_gpumine.errors",
    "UnsupportedGraphError": "nx_gpumine.errors",
    "EngineUnavailableError": "nx_gpumine.errors",
    "CapacityError": "nx_gpumine.errors",
    "WorkLimitError": "nx_gpumine.errors",
    # static inputs
    "StaticGraph": "nx_gpumine.inputs.static_graph",
    "from_networkx": "nx_gpumine.inputs.static_graph",
    "from_edgelist": "nx_gpumine.inputs.static_graph",
    "from_arrays": "nx_gpumine.inputs.static_graph",
    "Pattern": "nx_gpumine.inputs.patterns",
    # static functions
    "count_subgraphs": "nx_gpumine.interfaces.functions",
    "find_subgraphs": "nx_gpumine.interfaces.functions",
    "has_subgraph": "nx_gpumine.interfaces.functions",
    "iter_subgraph_mappings": "nx_gpumine.interfaces.functions",
    "estimate": "nx_gpumine.interfaces.functions",
    "subgraph_census": "nx_gpumine.interfaces.census_functions",
    "census_patterns": "nx_gpumine.interfaces.census_functions",
    "graphlet_orbits": "nx_gpumine.interfaces.census_functions",
    "frequent_subgraphs": "nx_gpumine.interfaces.fsm_functions",
    # temporal inputs and functions
    "TemporalGraph": "nx_gpumine.inputs.temporal_graph",
    "TemporalMotif": "nx_gpumine.inputs.motifs",
    "count_motifs": "nx_gpumine.interfaces.temporal_functions",
    "motif_counts": "nx_gpumine.interfaces.temporal_functions",
    "find_motifs": "nx_gpumine.interfaces.temporal_functions",
    "has_motif": "nx_gpumine.interfaces.temporal_functions",
    "motif_census": "nx_gpumine.interfaces.temporal_functions",
    # engines
    "cuda_available": "nx_gpumine.engines",
    "set_max_device_bytes": "nx_gpumine.device_limits",
    "device_budget": "nx_gpumine.device_limits",
    # limits
    "memory_budget": "nx_gpumine.limits",
    "set_memory_budget": "nx_gpumine.limits",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'nx_gpumine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
