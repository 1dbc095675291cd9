"""The subgraph census's building blocks on the GPU (:data:`~nx_gpumine.plan.graphlets.
CENSUS_BLOCKS`), from the rank graph of :mod:`.shapes`.

One triangle pass that also adds each triangle to its three edges' support (``t_e``; the book
kernels' pass) gives ``triangles``, ``books2 = sum C(t_e, 2)`` and, with ``t_v`` gathered from
the supports (``sum over edges at v of t_e = 2 t_v``), ``tailed = sum t_v (d_v - 2)``; the
degree sums ``stars<s>`` and ``paths3`` are reductions over the rank graph. All in int64 on the
device where a bound shows they cannot pass 2**62, else exactly on the host
(:mod:`nx_gpumine.engines.degree_sums`). Device time (events around the whole computation) is
added to ``stats["kernel_ms"]``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

from ...inputs.static_graph import StaticGraph
from ..degree_sums import path_sum, star_sum
from ._runtime import import_cupy
from .shapes import clique_supported, count_clique, device_rank_graph, triangle_support

__all__ = ["census_blocks"]

_INT_LIMIT = 2.0**62


def _rank_owner(rg: dict) -> Any:
    """Each rank-graph position's list (its lower... or higher-rank end), cached."""
    hit = rg["lists"].get("owner")
    if hit is None:
        cp = import_cupy()
        pos = cp.arange(rg["nnz"], dtype=cp.int64)
        hit = (cp.searchsorted(rg["rptr"], pos, side="right") - 1).astype(cp.int32)
        rg["lists"]["owner"] = hit
    return hit


def _exact_sum(values: Any, bound: float) -> int | None:
    """``values.sum()`` as an int when ``bound`` (an upper bound of it) shows int64 holds it."""
    if bound >= _INT_LIMIT:
        return None
    return int(values.sum())


def census_blocks(graph: StaticGraph, names: Collection[str], stats: dict) -> dict[str, int]:
    """The census blocks ``names`` of an undirected graph that this engine computes.

    Parameters
    ----------
    graph : StaticGraph
        Undirected data graph (directed graphs get no blocks).
    names : collection of str
        Blocks wanted (:data:`~nx_gpumine.plan.graphlets.CENSUS_BLOCKS`).
    stats : dict
        Gets ``kernel_ms`` (device time) and ``compile_seconds`` added.

    Returns
    -------
    dict
        ``{block: exact int}`` for each wanted block; the triangle blocks are left out where
        the triangle kernel cannot run (a degree-ordered out-degree past its bitmap rows).
    """
    if graph.directed or graph.n == 0:
        return {}
    cp = import_cupy()
    rg = device_rank_graph(graph)
    out: dict[str, int] = {}
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    deg = (rg["rptr"][1:] - rg["rptr"][:-1]).astype(cp.int64)
    dmax = float(graph.max_degree)
    n = float(graph.n)
    for s in (2, 3, 4):
        if f"stars{s}" in names:
            term = deg * (deg - 1) // 2
            if s >= 3:
                term = term * (deg - 2) // 3
            if s == 4:
                term = term * (deg - 3) // 4
            value = _exact_sum(term, n * dmax**s) if dmax**s < _INT_LIMIT else None
            out[f"stars{s}"] = star_sum(graph.degree, s) if value is None else value
    if "paths3" in names:
        owner = _rank_owner(rg)
        prod = (deg[owner] - 1) * (deg[rg["radj"]] - 1)
        value = _exact_sum(prod, len(graph.indices) * dmax**2)
        # every edge sits in both of its ends' lists
        out["paths3"] = path_sum(graph.indptr, graph.indices) if value is None else value // 2
    want_support = {"books2", "tailed"} & set(names)
    if ({"triangles"} | want_support) & set(names) and clique_supported(graph, 3) is None:
        sub: dict = {}
        if want_support:
            out["triangles"], sup = triangle_support(graph, sub)
            sup64 = sup[: rg["nnz"]].astype(cp.int64)
            out["books2"] = int((sup64 * (sup64 - 1) // 2).sum())  # < nnz * dmax**2 / 2
            if "tailed" in names:
                tv2 = cp.zeros(rg["n"], dtype=cp.int64)  # 2 t_v: the supports at v
                cp.add.at(tv2, _rank_owner(rg), sup64)
                cp.add.at(tv2, rg["radj"], sup64)
                value = _exact_sum(tv2 // 2 * (deg - 2), float(out["triangles"]) * 3 * dmax)
                if value is None:  # past int64: Python integers on the host
                    t_v, d = (tv2 // 2).get(), deg.get()
                    value = int(np.dot(t_v.astype(object), (d - 2).astype(object)))
                out["tailed"] = value
        else:
            out["triangles"] = count_clique(graph, 3, sub)
        stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + sub.get(
            "compile_seconds", 0.0
        )
    end.record()
    end.synchronize()
    stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + float(cp.cuda.get_elapsed_time(start, end))
    return {k: v for k, v in out.items() if k in names}
