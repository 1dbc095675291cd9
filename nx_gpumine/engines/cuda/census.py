"""The subgraph census's building blocks on the GPU (:data:`~nx_gpumine.plan.graphlets.
CENSUS_BLOCKS`), from the rank graph of :mod:`.shapes`.

One triangle pass that also adds each triangle to its three edges' support (``t_e``; the book
kernels' pass) gives ``triangles``, ``books2 = sum C(t_e, 2)`` and, with ``t_v`` gathered from
the supports (``sum over edges at v of t_e = 2 t_v``), ``tailed = sum t_v (d_v - 2)``; without
the support blocks the plain triangle kernel counts ``triangles``. The sums are grid-stride
kernels (``kernels/census.cu``: per-warp sums added to one word; ``sum C(t_e, 2)`` and the
``t_v`` gathered in one pass over the supports) in 64 bits with checked adds and products;
where one wraps, the host sums exactly instead (:mod:`nx_gpumine.engines.degree_sums`, Python
integers). Each launch is timed with device events into ``stats["kernel_ms"]`` (as the static
engine's ``last_run`` times its kernels).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

from ...inputs.static_graph import StaticGraph
from ...plan.graphlets import WALK_BLOCKS
from ..degree_sums import (
    TRIANGLE_SUMS,
    kept_spider_sums,
    kept_star_sum,
    path_sum,
    star_sum,
    triangle_sums,
)
from ._runtime import control_count, import_cupy, load_module, sm_count
from .shapes import (
    clique_supported,
    count_clique,
    device_rank_graph,
    triangle_pair_sums,
    triangle_support,
)
from .static_build import C_FLAGS

__all__ = ["census_blocks", "device_cycle_rows"]

#: census.cu's overflow flag bit.
F_OVERFLOW_CENSUS = 2

#: The 5-node census's blocks computed on the host, from each CSR entry's triangles (with the
#: 4-cycles, 4-cliques and triangle blocks when they are asked too):
#: :func:`~nx_gpumine.engines.degree_sums.triangle_sums` and
#: :mod:`nx_gpumine.engines.cpu.census_walks` (numba, all host cores).
_HOST_BLOCKS = (WALK_BLOCKS | TRIANGLE_SUMS) - {
    "cycles4", "cliques4", "triangles", "books2", "tailed", "tri_pairs"
}  # fmt: skip

#: Run the 2-path walk of the 5-node census on the GPU (``census.cu``'s ``census_walk2``, a block
#: per node) instead of on the host (numba). On an H200 it gave the host walk's blocks in 7 ms
#: (facebook), 0.20 s (pl1m) and 4.1 s (pl10m); the host's 13 cores took 2.2 s on pl1m
#: (``benchmarks/probe_census_walk.py``). False walks on the host.
DEVICE_WALK = True

#: Most bytes of the device walk's scratch rows (two int32 words per node per block).
WALK_SCRATCH_BYTES = 4 << 30


def device_cycle_rows(
    graph: StaticGraph, t: np.ndarray, edge_terms: bool, trace5: bool, stats: dict
) -> tuple[np.ndarray, ...]:
    """The per-node rows of the 5-node census's 2-path walk on the GPU
    (:func:`nx_gpumine.engines.cpu.census_walks.walk_blocks`' ``cycle_rows``): ``c4, k23,
    house, tdeg, (A^5)_vv`` as int64 NumPy arrays, ``t`` each CSR entry's triangles. Device
    time and compile time into ``stats``."""
    cp = import_cupy()
    mod = load_module("census.cu")
    stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + mod.compile_seconds
    n = int(graph.n)
    blocks = max(1, min(n, 2 * sm_count(), WALK_SCRATCH_BYTES // max(1, 8 * n)))
    indptr = cp.asarray(np.asarray(graph.indptr, dtype=np.int64))
    indices = cp.asarray(np.asarray(graph.indices, dtype=np.int32))
    scratch = cp.zeros(blocks * n, dtype=cp.int32)
    touched = cp.empty(blocks * n, dtype=cp.int32)
    out = cp.zeros(5 * n, dtype=cp.int64)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    mod.kernel("census_walk2")(
        (blocks,), (256,),
        (indptr, indices, cp.asarray(np.asarray(t, dtype=np.int64)), np.int64(n),
         np.int32(edge_terms), np.int32(trace5), scratch, touched, out),
    )  # fmt: skip
    end.record()
    rows = out.get().reshape(5, n)  # waits for the kernel
    stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + float(cp.cuda.get_elapsed_time(start, end))
    return tuple(np.ascontiguousarray(r) for r in rows)


def _launch_sum(stats: dict, name: str, size: int, *args: Any) -> int | None:
    """Run the sum kernel ``name`` of ``kernels/census.cu`` over ``size`` items between device
    events (its time into ``stats``); its value, or None where it passed 64 bits."""
    cp = import_cupy()
    mod = load_module("census.cu")
    stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + mod.compile_seconds
    ctl = cp.zeros(16, dtype=cp.uint64)
    grid = max(1, min(-(-size // 256), 8 * sm_count()))
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    mod.kernel(name)((grid,), (256,), (*args, ctl))
    end.record()
    words = ctl.get()  # waits for the kernel
    stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + float(cp.cuda.get_elapsed_time(start, end))
    return None if int(words[C_FLAGS]) & F_OVERFLOW_CENSUS else control_count(words)


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
    """The census blocks ``names`` (:class:`~nx_gpumine.engines.contract.CensusEngine`) the GPU
    computes for an undirected ``graph``: all but ``cycles4`` and ``cliques4`` (left to the
    shape kernels) unless the 5-node census's other blocks are asked with them (the 2-path walk
    on the GPU, :func:`device_cycle_rows`; the link walk and the sums over them a host step:
    :mod:`nx_gpumine.engines.cpu.census_walks`), and without the triangle blocks where the
    triangle kernel cannot run (a degree-ordered out-degree past its bitmap rows). Directed
    graphs get none. Device time and compile time are added to ``stats`` (``kernel_ms``,
    ``compile_seconds``). The star sums are kept with the graph
    (:func:`~nx_gpumine.engines.degree_sums.kept_star_sum`: a later census or star count of the
    graph reads them without a launch).
    """
    names = set(names)
    if graph.directed or graph.n == 0:
        return {}
    cp = import_cupy()
    rg = device_rank_graph(graph)
    rptr, nv, nnz = rg["rptr"], np.int64(rg["n"]), np.int64(rg["nnz"])
    out: dict[str, int] = {}

    def stars(s: int) -> int:  # on a miss of the graph's kept sum (degree_sums.kept_star_sum)
        value = _launch_sum(stats, "census_stars", rg["n"], rptr, nv, np.int32(s))
        return star_sum(graph.degree, s) if value is None else value  # past 64 bits: the host

    for s in (2, 3, 4):
        if f"stars{s}" in names:
            out[f"stars{s}"] = kept_star_sum(graph, s, lambda s=s: stars(s))
    if {"spiders", "arms"} & names:  # degree sums: on the host, kept with the graph
        out["spiders"], out["arms"] = kept_spider_sums(graph)
    if "paths3" in names:
        twice = _launch_sum(
            stats, "census_paths", rg["nnz"], rptr, _rank_owner(rg), rg["radj"], nnz
        )  # fmt: skip  (every edge in both ends' lists)
        out["paths3"] = path_sum(graph.indptr, graph.indices) if twice is None else twice // 2
    support = {"books2", "tailed", "tri_pairs"} & names
    if ({"triangles"} | support) & names and clique_supported(graph, 3) is None:
        sub: dict = {}
        if support:
            out["triangles"], sup = triangle_support(graph, sub)
            tv2 = cp.zeros(rg["n"], dtype=cp.uint64) if "tailed" in names else None
            # sum C(t_e, 2), and 2 t_v gathered in the same pass
            books = _launch_sum(stats, "census_support", rg["nnz"], sup, _rank_owner(rg),
                                rg["radj"], nnz, np.uint64(0) if tv2 is None else tv2)  # fmt: skip
            if books is None:  # past 64 bits: Python integers on the host
                t = sup[: rg["nnz"]].get().astype(object)
                books = int((t * (t - 1) // 2).sum())
            out["books2"] = books
            if "tri_pairs" in names:  # sum C(t_v, 2): the bowtie shape's sums
                out["tri_pairs"] = triangle_pair_sums(cp, rg, sup)[0]
            if tv2 is not None:
                tailed = _launch_sum(stats, "census_tailed", rg["n"], tv2, rptr, nv)
                if tailed is None:  # past 64 bits: Python integers, both in rank order
                    t_v = (tv2 // 2).get().astype(object)
                    tailed = int(np.dot(t_v, cp.diff(rptr).get().astype(object) - 2))
                out["tailed"] = tailed
        else:
            out["triangles"] = count_clique(graph, 3, sub)
        stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + sub.get("kernel_ms", 0.0)
        stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + sub.get(
            "compile_seconds", 0.0
        )
    if names & _HOST_BLOCKS:  # the 5-node census's other blocks: the walks and their sums
        from ..cpu.census_walks import walk_blocks
        from ..cpu.orbit_counts import edge_triangle_counts

        t = edge_triangle_counts(graph.indptr, graph.indices, check=False)
        out.update(
            triangle_sums(graph.indptr, graph.indices, t, (names & TRIANGLE_SUMS) - set(out))
        )

        def rows(edge_terms: bool, trace5: bool) -> tuple[np.ndarray, ...]:
            return device_cycle_rows(graph, t, edge_terms, trace5, stats)

        walked = walk_blocks(graph.indptr, graph.indices, t, names & WALK_BLOCKS,
                             rows if DEVICE_WALK else None)  # fmt: skip
        out.update(walked)
    return {k: v for k, v in out.items() if k in names}
