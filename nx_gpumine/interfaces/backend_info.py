"""Metadata of the NetworkX backend ``gpumine`` (the ``networkx.backend_info`` entry point).

``import networkx`` loads every installed backend's ``backend_info`` entry point, so this module
imports nothing but the standard library: no numpy, no numba, no networkx, no engine. The
backend itself (:mod:`nx_gpumine.interfaces.backend`) is loaded by NetworkX on the first
dispatched call only.

The text here is what ``help(nx.is_isomorphic)`` and the other dispatched functions' docstrings
show under "Backends" -> "gpumine".
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["BACKEND_NAME", "ENGINE_ENV", "FUNCTIONS", "NO_ENGINE", "get_info"]

BACKEND_NAME = "gpumine"
#: Environment variable giving the default engine ("auto", "cpu" or "cuda").
ENGINE_ENV = "NX_GPUMINE_ENGINE"

_ENGINE_PARAM = {
    'engine : {"auto", "cpu", "cuda"}, optional': (
        'Engine to run on; default nx.config.backends.gpumine.engine ("auto": CUDA when a GPU '
        'is found, else CPU). Configuring "cuda" where no GPU is found makes can_run refuse '
        "(NetworkX then falls back when allowed) instead of failing inside the call."
    ),
}

_FALLBACK = (
    "Refused inputs are decided by can_run before any work: NetworkX runs them itself under a\n"
    "backend priority list (or with nx.config.fallback_to_nx); with backend='gpumine' it raises\n"
    "NotImplementedError naming the reason instead."
)

_ISO = (
    "Runs on nx_gpumine's engines: colour refinement of both graphs together (node and edge\n"
    "labels, direction, self-loops and multiplicities as colours), then individualisation of one\n"
    "node pair at a time with refinement after each (a search like VF2++'s, never enumerating\n"
    "automorphisms). Serves every Graph/DiGraph/MultiGraph/MultiDiGraph pair of the same kind.\n"
)

_SUBGRAPH = (
    "Runs on nx_gpumine's subgraph-matching engines (numba CPU or CUDA): SG is the pattern, FG\n"
    "the data graph; mappings are {FG node: SG node}, as NetworkX returns them. Served for\n"
    "simple graphs with a connected SG of at most 64 nodes; multigraphs, a disconnected or\n"
    "larger SG are refused by can_run.\n"
)

_COUNTS = (
    "Counted on nx_gpumine's engines (numba CPU, or CuPy on the GPU) from sorted adjacency\n"
    "arrays; equal to NetworkX's numbers. Served for simple graphs only: multigraphs and\n"
    "weighted calls (weight=...) are refused by can_run.\n"
)

_COULD = (
    "Compares the same sorted per-node property tables as NetworkX (degree, triangles, maximal\n"
    "cliques), counted on nx_gpumine's engines (triangles on the chosen engine, maximal cliques\n"
    "by Bron-Kerbosch with pivoting on the numba module). Served for every graph pair.\n"
)

_ATTRS = (
    "Reads or edits the node attributes a converted graph (GpumineGraph) kept, so that later\n"
    "calls can label with them; a StaticGraph (fixed labels) is refused by can_run.\n"
)

FUNCTIONS: dict[str, str] = {
    "is_isomorphic": _ISO + "node_match/edge_match: None or made by categorical_node_match /\n"
    "categorical_edge_match (matched as colours), or any other callable (tested on every pair\n"
    "the search pairs, as VF2 does).\n" + _FALLBACK,
    "vf2pp_is_isomorphic": _ISO + _FALLBACK,
    "vf2pp_isomorphism": _ISO + _FALLBACK,
    "vf2pp_all_isomorphisms": _ISO + "Isomorphisms are produced lazily, one leaf of the search "
    "at a time.\n" + _FALLBACK,
    "vf2pp_subgraph_is_isomorphic": _SUBGRAPH + _FALLBACK,
    "vf2pp_subgraph_isomorphism": _SUBGRAPH + _FALLBACK,
    "vf2pp_all_subgraph_isomorphisms": _SUBGRAPH + _FALLBACK,
    "vf2pp_is_monomorphic": _SUBGRAPH + _FALLBACK,
    "vf2pp_monomorphism": _SUBGRAPH + _FALLBACK,
    "vf2pp_all_monomorphisms": _SUBGRAPH + _FALLBACK,
    "triangles": _COUNTS + _FALLBACK,
    "transitivity": _COUNTS + _FALLBACK,
    "clustering": _COUNTS + _FALLBACK,
    "average_clustering": _COUNTS + _FALLBACK,
    "square_clustering": _COUNTS + _FALLBACK,
    "could_be_isomorphic": _COULD + _FALLBACK,
    "fast_could_be_isomorphic": _COULD + _FALLBACK,
    "faster_could_be_isomorphic": _COULD + _FALLBACK,
    "set_node_attributes": _ATTRS + _FALLBACK,
    "get_node_attributes": _ATTRS + _FALLBACK,
}

#: Functions that run no engine (no ``engine`` parameter).
NO_ENGINE = frozenset({"set_node_attributes", "get_node_attributes"})


def get_info() -> dict[str, Any]:
    """Backend metadata for NetworkX (target of the ``networkx.backend_info`` entry point).

    Returns
    -------
    dict
        ``backend_name``, ``project``, ``package``, ``url``, ``short_summary``, ``functions``
        (per dispatched function: ``additional_docs`` and ``additional_parameters``, also under
        the older names ``extra_docstring`` / ``extra_parameters``) and ``default_config``
        (``engine``: ``"auto"``, or the ``NX_GPUMINE_ENGINE`` environment variable).
    """
    functions = {}
    for name, docs in FUNCTIONS.items():
        functions[name] = {
            "additional_docs": docs,
            "additional_parameters": {} if name in NO_ENGINE else dict(_ENGINE_PARAM),
            "extra_docstring": docs,
            "extra_parameters": {} if name in NO_ENGINE else dict(_ENGINE_PARAM),
        }
    return {
        "backend_name": BACKEND_NAME,
        "project": "nx-gpumine",
        "package": "nx_gpumine",
        "url": "https://pypi.org/project/nx-gpumine/",
        "short_summary": "Subgraph isomorphism and temporal motifs on GPUs (CUDA) and CPUs.",
        "functions": functions,
        "default_config": {"engine": os.environ.get(ENGINE_ENV, "auto")},
    }
