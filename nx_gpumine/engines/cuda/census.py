"""The subgraph census's building blocks on the GPU (:data:`~nx_gpumine.plan.graphlets.
CENSUS_BLOCKS`), from the rank graph of :mod:`.shapes`.

One triangle pass that also adds each triangle to its three edges' support (``t_e``; the book
kernels' pass) gives ``triangles``, ``books2 = sum C(t_e, 2)`` and, with ``t_v`` gathered from
the supports (``sum over edges at v of t_e = 2 t_v``), ``tailed = sum t_v (d_v - 2)``; without
the support blocks the plain triangle kernel counts ``triangles``. The degree sums ``stars<s>``
and ``paths3`` are one fused reduction each over the rank graph. Sums run in int64 on the
device where a bound shows they stay below 2**62, else exactly on the host
(:mod:`nx_gpumine.engines.degree_sums`). Each launch is timed with device events into
``stats["kernel_ms"]`` (as the static engine's ``last_run`` times its kernels).
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

import numpy as np

from ...inputs.static_graph import StaticGraph
from ..degree_sums import path_sum, star_sum
from ._runtime import import_cupy
from .shapes import clique_supported, count_clique, device_rank_graph, triangle_support

__all__ = ["census_blocks"]

_INT_LIMIT = 2.0**62

# C(d, s) of a degree d = hi - lo, exact in int64 for the degrees the bound admits
_CHOOSE = {
    2: "d * (d - 1) / 2",
    3: "d * (d - 1) / 2 * (d - 2) / 3",
    4: "d * (d - 1) / 2 * (d - 2) / 3 * (d - 3) / 4",
}


@functools.cache
def _kernels() -> dict:
    """The fused reductions (compiled by CuPy on first use, cached)."""
    cp = import_cupy()
    out = {
        f"stars{s}": cp.ReductionKernel(
            "int64 hi, int64 lo",
            "int64 y",
            f"nxg_choose{s}(hi - lo)",
            "a + b",
            "y = a",
            "0",
            f"nxg_census_stars{s}",
            preamble=f"__device__ long long nxg_choose{s}(long long d) "
            f"{{ return d >= {s} ? {expr} : 0LL; }}",
        )
        for s, expr in _CHOOSE.items()
    }
    out["paths3"] = cp.ReductionKernel(
        "int32 o, int32 q, raw int64 rptr",
        "int64 y",
        "(rptr[o + 1] - rptr[o] - 1) * (rptr[q + 1] - rptr[q] - 1)",
        "a + b",
        "y = a",
        "0",
        "nxg_census_paths3",
    )
    out["books2"] = cp.ReductionKernel(
        "int32 t", "int64 y", "(long long)t * (t - 1) / 2", "a + b", "y = a", "0",
        "nxg_census_books2",
    )  # fmt: skip
    out["tailed"] = cp.ReductionKernel(
        "int64 t2, int64 hi, int64 lo", "int64 y", "t2 / 2 * (hi - lo - 2)", "a + b", "y = a",
        "0", "nxg_census_tailed",
    )  # fmt: skip
    return out


def _timed_sum(stats: dict, kernel: Any, *args: Any) -> int:
    """Run a reduction between device events; its value as an int, its time into stats."""
    cp = import_cupy()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    value = kernel(*args)
    end.record()
    out = int(value)  # waits for the reduction
    stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + float(cp.cuda.get_elapsed_time(start, end))
    return out


def _rank_owner(rg: dict) -> Any:
    """Each rank-graph position's vertex (the list it sits in), cached with the rank graph."""
    hit = rg["lists"].get("owner")
    if hit is None:
        cp = import_cupy()
        pos = cp.arange(rg["nnz"], dtype=cp.int64)
        hit = (cp.searchsorted(rg["rptr"], pos, side="right") - 1).astype(cp.int32)
        rg["lists"]["owner"] = hit
    return hit


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
        ``{block: exact int}`` for each wanted block it computes (``cycles4`` and ``cliques4``
        are left to the shape kernels; the triangle blocks are left out where the triangle
        kernel cannot run: a degree-ordered out-degree past its bitmap rows).
    """
    names = set(names)
    if graph.directed or graph.n == 0:
        return {}
    cp = import_cupy()
    rg = device_rank_graph(graph)
    kern = _kernels()
    hi, lo = rg["rptr"][1:], rg["rptr"][:-1]
    dmax = float(graph.max_degree)
    n = float(graph.n)
    out: dict[str, int] = {}
    for s in (2, 3, 4):
        if f"stars{s}" in names:
            if n * dmax**s < _INT_LIMIT:
                out[f"stars{s}"] = _timed_sum(stats, kern[f"stars{s}"], hi, lo)
            else:  # past int64: Python integers on the host
                out[f"stars{s}"] = star_sum(graph.degree, s)
    if "paths3" in names:
        if len(graph.indices) * dmax**2 < _INT_LIMIT:  # every edge in both ends' lists
            twice = _timed_sum(stats, kern["paths3"], _rank_owner(rg), rg["radj"], rg["rptr"])
            out["paths3"] = twice // 2
        else:
            out["paths3"] = path_sum(graph.indptr, graph.indices)
    support = {"books2", "tailed"} & names
    if ({"triangles"} | support) & names and clique_supported(graph, 3) is None:
        sub: dict = {}
        if support:
            out["triangles"], sup = triangle_support(graph, sub)
            sup = sup[: rg["nnz"]]
            out["books2"] = _timed_sum(stats, kern["books2"], sup)  # < nnz dmax**2 / 2
            if "tailed" in names:
                start, end = cp.cuda.Event(), cp.cuda.Event()
                start.record()
                tv2 = cp.zeros(rg["n"], dtype=cp.int64)  # 2 t_v: the supports at v
                sup64 = sup.astype(cp.int64)
                cp.add.at(tv2, _rank_owner(rg), sup64)
                cp.add.at(tv2, rg["radj"], sup64)
                end.record()
                end.synchronize()
                stats["kernel_ms"] += float(cp.cuda.get_elapsed_time(start, end))
                if 3.0 * out["triangles"] * dmax < _INT_LIMIT:
                    out["tailed"] = _timed_sum(stats, kern["tailed"], tv2, hi, lo)
                else:  # past int64: Python integers on the host
                    t_v, d = (tv2 // 2).get(), (hi - lo).get()  # both in rank order
                    out["tailed"] = int(np.dot(t_v.astype(object), (d - 2).astype(object)))
        else:
            out["triangles"] = count_clique(graph, 3, sub)
        stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + sub.get("kernel_ms", 0.0)
        stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + sub.get(
            "compile_seconds", 0.0
        )
    return {k: v for k, v in out.items() if k in names}
