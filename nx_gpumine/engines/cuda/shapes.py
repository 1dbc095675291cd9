"""Counting whole-pattern shapes on the GPU without enumerating (kernels/static_count.cu).

The plan names the shape (``StaticPlan.shape``: ``"clique"``, ``"book"``, ``"cycle4"``,
``"pair_edge"``); these functions return the number of **distinct** occurrences in an
undirected graph (``count_pair_edge`` returns mappings: see there):

* **k-cliques** (G2Miner's orientation + bitmaps): each vertex ``u`` of the degree-ordered DAG
  takes its out-neighbourhood ``S = N+(u)`` into shared memory, builds the DAG adjacency among
  ``S`` as bitmap rows, and counts the chains of ``k - 2`` further vertices by AND + popcount.
  Every clique is counted once, at its lowest-rank vertex.
* **books** (an edge with ``t`` nodes joined to both ends; ``t = 2`` is the diamond): the
  triangle pass above also adds 1 to the *support* of each triangle's three edges; the count is
  ``sum over edges of C(support, t)``.
* **bowties** (two triangles sharing one node): from the same supports, the pairs of
  triangles at each node ``v`` that share no edge, ``C(t_v, 2) - sum over edges vx of
  C(support, 2)`` with ``t_v`` the triangles at ``v`` (:func:`bowtie_from_support`).
* **pair-edge shapes** (two non-adjacent poles joined to ``t >= 3`` nodes with one edge among
  them; ``t = 3`` is T-DFS's P4): *apex lists* (each edge's triangle apexes, filled by the
  triangle pass) are built once per graph; at each pole ``a`` a block counts
  ``cnt[b] = |N(a) & N(b)|`` for every ``b`` below ``a`` by its wedges, then walks the triangles
  ``(a, x, y)`` and each apex ``b < a`` of ``(x, y)``, adding ``(cnt[b] - 2)_(t - 2)``: the pole
  pairs, edges and further common neighbours, counted without enumerating them.
* **4-cycles** (ranked wedges, Chiba-Nishizeki): each cycle is counted once at its highest-rank
  vertex ``a``: for ``b`` in ``N-(a)`` and ``c`` in ``N(b)`` below ``a``, ``cnt[c] += 1``; the
  cycles at ``a`` are ``sum C(cnt[c], 2)``. Light vertices use a warp-level hash table in shared
  memory, heavy ones a block each sweeping the ``c`` range in chunks of shared-memory counters.

All of them work on the *rank graph* (:func:`rank_graph`), built once per graph on the device
and kept with it (its build time is reported apart, as G2Miner reports its orientation apart).

**Parts** (several GPUs): every kernel but the book's walks a list of vertices (or of the
triangle pass's row batches), heaviest first; ``part=(i, n)`` walks the ``i``-th of ``n``
parts of it, its entries dealt out in snake order (:func:`share`), so the parts hold about
equal work and their counts add up to the whole count. The book's and the bowtie's counts
need each edge's whole triangle support, so they have no parts.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...inputs.static_graph import StaticGraph
from ..checks import overflow_error
from . import static_build
from ._runtime import control_count, current_device, import_cupy, load_module, sm_count, wait_event
from .static_build import C_FLAGS, F_OVERFLOW, WHOLE, deal

__all__ = [
    "rank_graph",
    "device_rank_graph",
    "clique_supported",
    "count_clique",
    "count_book",
    "count_bowtie",
    "bowtie_from_support",
    "triangle_pair_sums",
    "triangle_support",
    "count_cycle4",
    "count_pair_edge",
    "share",
    "MAX_CLIQUE",
    "MAX_ROWS",
]

#: Largest clique the kernel takes (chains are unrolled at compile time).
MAX_CLIQUE = 10
#: Largest DAG out-degree whose bitmap fits a warp's shared memory (rows of 16 words).
MAX_ROWS = 512
# The launch switches (the 4-cycle light/heavy bound and shared memory, the pair-edge counter
# memory) are static_build.current_tuning()'s, read per call.


def rank_graph(xp: Any, indptr: Any, indices: Any) -> dict:
    """The rank graph of an undirected CSR graph, with array module ``xp`` (NumPy or CuPy).

    Vertices are renumbered by ``(degree, id)`` ascending; every neighbour list is sorted by
    rank. Returns ``rank`` (old id -> rank), ``rptr`` (int64, n+1), ``radj`` (int32),
    ``rsplit`` (int64: first position of each list holding a higher rank), ``outdeg`` and
    ``max_out`` (largest ``|N+(r)|``).
    """
    n = len(indptr) - 1
    deg = xp.diff(indptr).astype(xp.int64)
    order = xp.argsort(deg * max(n, 1) + xp.arange(n, dtype=xp.int64), kind="stable")
    rank = xp.empty(n, dtype=xp.int64)
    rank[order] = xp.arange(n, dtype=xp.int64)
    nnz = len(indices)
    owner = xp.searchsorted(indptr, xp.arange(nnz, dtype=xp.int64), side="right") - 1
    ru = rank[owner]
    rv = rank[indices.astype(xp.int64)]
    keys = xp.sort(ru * n + rv)
    radj = (keys % n).astype(xp.int32) if n else xp.zeros(0, dtype=xp.int32)
    rdeg = deg[order]
    rptr = xp.zeros(n + 1, dtype=xp.int64)
    rptr[1:] = xp.cumsum(rdeg)
    r = xp.arange(n, dtype=xp.int64)
    rsplit = xp.searchsorted(keys, r * n + r).astype(xp.int64)
    outdeg = rptr[1:] - rsplit
    max_out = int(outdeg.max()) if n else 0
    return {
        "rank": rank,
        "rptr": rptr,
        "radj": radj,
        "rsplit": rsplit,
        "outdeg": outdeg,
        "max_out": max_out,
        "n": n,
        "nnz": int(len(radj)),
    }


def device_rank_graph(graph: StaticGraph) -> dict:
    """:func:`rank_graph` on the current device, built once per graph and device
    (``build_seconds`` recorded)."""

    def build() -> dict:
        cp = import_cupy()
        if graph.directed:
            raise ValueError("shape counting needs an undirected graph")
        t = time.perf_counter()
        arr = graph.device_arrays()
        rg = rank_graph(cp, arr["indptr"], arr["indices"])
        cp.cuda.Device().synchronize()
        rg["build_seconds"] = time.perf_counter() - t
        rg["lists"] = {}
        return rg

    return graph.derived(("cuda_rank_graph", current_device()), build)


def _words(max_out: int) -> int:
    w = 1
    while 32 * w < max_out:
        w *= 2
    return w


def clique_supported(graph: StaticGraph, k: int) -> str | None:
    """Why the clique kernel cannot count ``k``-cliques in ``graph`` (None when it can)."""
    if graph.directed:
        return "clique counting needs an undirected graph"
    if not 3 <= k <= MAX_CLIQUE:
        return f"the clique kernel counts 3..{MAX_CLIQUE}-cliques"
    rg = device_rank_graph(graph)
    if rg["max_out"] > MAX_ROWS:
        return (
            f"the degree-ordered DAG has out-degree {rg['max_out']} > {MAX_ROWS} (bitmap rows "
            "would not fit in shared memory)"
        )
    return None


def _verts(rg: dict, key: tuple, mask: Any, weight: Any) -> Any:
    """Vertices where ``mask`` holds, heaviest ``weight`` first (cached per key)."""
    hit = rg["lists"].get(key)
    if hit is None:
        cp = import_cupy()
        idx = cp.flatnonzero(mask)
        idx = idx[cp.argsort(-weight[idx], kind="stable")]
        hit = idx.astype(cp.int32)
        rg["lists"][key] = hit
    return hit


def share(rg: dict, key: tuple, items: Any, part: tuple[int, int], width: int = 1) -> Any:
    """Part ``part = (i, n)`` of a heavy-first work list (:func:`~.static_build.deal`: items
    of ``width`` entries dealt out in snake order), cached per key and part; the whole list
    for ``(0, 1)``."""
    if part == WHOLE:
        return items
    hit = rg["lists"].get((key, *part))
    if hit is None:
        hit = rg["lists"][(key, *part)] = deal(items, part, width)
    return hit


def _rows_per_task(rg: dict, verts: Any) -> int:
    """Rows of ``S`` per triangle task: 32, or 8 when 32-row tasks are too few to keep every
    resident warp busy (small graphs: the longest task would be the kernel's critical path)."""
    hit = rg["lists"].get("rows_per_task")
    if hit is None:
        tasks32 = int(((rg["outdeg"][verts] + 31) // 32).sum()) if len(verts) else 0
        hit = 8 if tasks32 < 4 * sm_count() * 32 else 32
        rg["lists"]["rows_per_task"] = hit
    return hit


def _row_batches(rg: dict, verts: Any, rb: int) -> Any:
    """Tasks ``(u, first row)`` covering each vertex's rows in batches of ``rb`` (int32 pairs)."""
    hit = rg["lists"].get(("row_batches", rb))
    if hit is None:
        cp = import_cupy()
        nb = (rg["outdeg"][verts] + rb - 1) // rb
        end = cp.cumsum(nb)
        total = int(end[-1]) if len(end) else 0
        t = cp.arange(total, dtype=cp.int64)
        owner = cp.searchsorted(end, t, side="right")
        first = (t - (end[owner] - nb[owner])) * rb
        hit = cp.stack([verts[owner].astype(cp.int64), first], axis=1).astype(cp.int32).ravel()
        rg["lists"][("row_batches", rb)] = hit
    return hit


def _ctl() -> Any:
    cp = import_cupy()
    return cp.zeros(16, dtype=cp.uint64)


def _check(ctl_host: np.ndarray) -> int:
    if int(ctl_host[C_FLAGS]) & F_OVERFLOW:
        raise overflow_error()
    return control_count(ctl_host)


def _timed(stats: dict, launch: Any) -> None:
    cp = import_cupy()
    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
    ev0.record()
    launch()
    ev1.record()
    wait_event(ev1)  # Ctrl-C is seen within milliseconds (the kernel finishes on its own)
    stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + float(cp.cuda.get_elapsed_time(ev0, ev1))
    stats["launches"] = stats.get("launches", 0) + 1


def _persistent(per_sm: int) -> int:
    return sm_count() * per_sm


def _triangle_pass(
    graph: StaticGraph,
    k: int,
    stats: dict,
    sup: Any = None,
    apex: tuple | None = None,
    part: tuple[int, int] = WHOLE,
) -> int:
    rg = device_rank_graph(graph)
    w = _words(max(rg["max_out"], 1))
    cwpb = max(1, min(8, 48 * 1024 // (128 * w * w + 128 * w)))
    od = rg["outdeg"]
    verts = _verts(rg, ("clique", k), od >= k - 1, od)
    rb = _rows_per_task(rg, verts) if k == 3 else 32
    mod = load_module("static_count.cu", {"KC": k, "W": w, "CWPB": cwpb, "TRB": rb})
    stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + mod.compile_seconds
    kern = mod.kernel("clique_count")
    if k == 3:
        verts = share(rg, ("row_batches", rb), _row_batches(rg, verts, rb), part, 2)
    else:
        verts = share(rg, ("clique", k), verts, part)
    ctl = _ctl()
    nverts = len(verts) // 2 if k == 3 else len(verts)
    if nverts:
        regs = max(int(kern.num_regs), 1)
        per_sm = max(1, min(32 // cwpb, 65536 // (regs * 32 * cwpb)))
        grid = min(_persistent(per_sm), nverts)
        args = (
            rg["rptr"],
            rg["rsplit"],
            rg["radj"],
            verts,
            np.int64(nverts),
            ctl,
            sup if sup is not None else np.uint64(0),
            apex[0] if apex is not None else np.uint64(0),
            apex[1] if apex is not None else np.uint64(0),
        )
        _timed(stats, lambda: kern((grid,), (32 * cwpb,), args))
    stats.update(
        strategy="clique" if sup is None else "book", words=w, warps_per_block=cwpb, rows=rb
    )
    return _check(ctl.get())


def count_clique(graph: StaticGraph, k: int, stats: dict, part: tuple[int, int] = WHOLE) -> int:
    """Distinct ``k``-cliques of an undirected graph (``clique_supported`` must hold); of
    ``part`` only (see the module docstring)."""
    reason = clique_supported(graph, k)
    if reason:
        raise ValueError(reason)
    return _triangle_pass(graph, k, stats, part=part)


def triangle_support(graph: StaticGraph, stats: dict) -> tuple[int, Any]:
    """The triangles of an undirected graph and each edge's *support* (its triangles): int32
    per rank-graph position, set at each edge's position in its lower-rank end's ``N+`` list,
    zero elsewhere (``clique_supported(graph, 3)`` must hold)."""
    cp = import_cupy()
    reason = clique_supported(graph, 3)
    if reason:
        raise ValueError(reason)
    rg = device_rank_graph(graph)
    sup = cp.zeros(max(rg["nnz"], 1), dtype=cp.int32)
    return _triangle_pass(graph, 3, stats, sup=sup), sup


def count_book(graph: StaticGraph, t: int, stats: dict) -> int:
    """Distinct books with ``t`` pages (an edge plus ``t`` common neighbours of its ends)."""
    rg = device_rank_graph(graph)
    _, sup = triangle_support(graph, stats)
    mod = load_module("static_count.cu", {"TBOOK": int(t)})
    stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + mod.compile_seconds
    kern = mod.kernel("book_sum")
    ctl = _ctl()
    grid = max(1, min(4096, -(-rg["nnz"] // 256)))
    _timed(stats, lambda: kern((grid,), (256,), (sup, np.int64(rg["nnz"]), ctl)))
    stats["strategy"] = "book"
    return _check(ctl.get())


def triangle_pair_sums(xp: Any, rg: dict, sup: Any) -> tuple[int, int]:
    """``(tri_pairs, books2)``: ``sum over v of C(t_v, 2)`` and ``sum over edges e of
    C(s_e, 2)``, the census blocks (:data:`~nx_gpumine.plan.graphlets.CENSUS_BLOCKS`) of a
    graph's rank graph ``rg`` and edge supports ``sup`` (:func:`triangle_support`'s layout:
    each edge's support at its position in its lower-rank end's ``N+`` list, zero elsewhere),
    with array module ``xp`` (NumPy or CuPy); ``t_v = (sum over edges vx of s_vx) / 2`` are
    the triangles at ``v``. Exact: per-node sums in int64 (a node with ``2^31`` triangles or
    more is summed with Python integers), the totals in two 32-bit halves.
    """
    n = int(rg["n"])
    pos = xp.flatnonzero(sup)
    if n == 0 or len(pos) == 0:
        return 0, 0
    s = sup[pos].astype(xp.int64)
    low = xp.searchsorted(rg["rptr"], pos, side="right") - 1  # the position's list: its rank
    ends = xp.concatenate([low, rg["radj"][pos].astype(xp.int64)])
    both = xp.concatenate([s, s])
    order = xp.argsort(ends, kind="stable")
    ends, both = ends[order], both[order]
    bounds = xp.searchsorted(ends, xp.arange(n + 1, dtype=xp.int64))
    zero = xp.zeros(1, dtype=xp.int64)
    sums = xp.concatenate([zero, xp.cumsum(both)])
    pairs = xp.concatenate([zero, xp.cumsum(both * (both - 1) // 2)])
    tri = (sums[bounds[1:]] - sums[bounds[:-1]]) // 2  # each triangle at v: two edges at v
    q = pairs[bounds[1:]] - pairs[bounds[:-1]]  # each edge's C(s, 2) at both its ends
    huge = tri >= (1 << 31)  # C(tri, 2) would pass 2^62
    extra = 0
    if bool(huge.any()):
        extra = sum(t * (t - 1) // 2 for t in tri[huge].tolist())
        tri = xp.where(huge, 0, tri)

    def total(a: Any) -> int:
        return int((a >> 32).sum()) * (1 << 32) + int((a & 0xFFFFFFFF).sum())

    return total(tri * (tri - 1) // 2) + extra, total(q) // 2


def bowtie_from_support(xp: Any, rg: dict, sup: Any) -> int:
    """Distinct bowties of a graph from its rank graph ``rg`` and edge supports ``sup``, with
    array module ``xp`` (:func:`triangle_pair_sums`' arguments).

    Two triangles at ``v`` share either the node ``v`` alone (a bowtie centred at ``v``) or an
    edge ``vx`` as well; no bowtie has two centres. So the bowties are ``sum over v of
    C(t_v, 2) - sum over edges vx of C(s_vx, 2)`` = ``tri_pairs - 2 books2``, the census
    blocks' formula (:data:`~nx_gpumine.plan.graphlets.CENSUS_BLOCKS`).
    """
    tri_pairs, books2 = triangle_pair_sums(xp, rg, sup)
    return tri_pairs - 2 * books2


def count_bowtie(graph: StaticGraph, stats: dict) -> int:
    """Distinct bowties (two triangles sharing one node) of an undirected graph, from the
    triangle pass's edge supports (:func:`bowtie_from_support`)."""
    cp = import_cupy()
    rg = device_rank_graph(graph)
    _, sup = triangle_support(graph, stats)
    got: list = []
    _timed(stats, lambda: got.append(bowtie_from_support(cp, rg, sup)))
    stats["strategy"] = "bowtie"
    return got[0]


def count_cycle4(graph: StaticGraph, stats: dict, part: tuple[int, int] = WHOLE) -> int:
    """Distinct 4-cycles of an undirected graph (of ``part`` only: see the module docstring)."""
    cp = import_cupy()
    if graph.directed:
        raise ValueError("4-cycle counting needs an undirected graph")
    rg = device_rank_graph(graph)
    n = rg["n"]
    if n == 0:
        return 0
    if "c4_ub" not in rg:
        deg = (rg["rptr"][1:] - rg["rptr"][:-1]).astype(cp.int64)
        wdeg = cp.zeros(rg["nnz"] + 1, dtype=cp.int64)
        wdeg[1:] = cp.cumsum(deg[rg["radj"]])
        rg["c4_ub"] = wdeg[rg["rsplit"]] - wdeg[rg["rptr"][:-1]]
        rg["c4_low"] = rg["rsplit"] - rg["rptr"][:-1]
    ub, low = rg["c4_ub"], rg["c4_low"]
    tuning = static_build.current_tuning()
    bound, smem = tuning.c4_light_bound, tuning.c4_smem
    light = _verts(rg, ("c4_light", bound), (low >= 2) & (ub <= bound), ub)
    heavy = _verts(rg, ("c4_heavy", bound), (low >= 2) & (ub > bound), ub)
    light = share(rg, ("c4_light", bound), light, part)
    heavy = share(rg, ("c4_heavy", bound), heavy, part)
    maxdeg = int(cp.max(rg["rptr"][1:] - rg["rptr"][:-1]))
    pack16 = int(maxdeg < 65535)
    mod = load_module("static_count.cu", {"PACK16": pack16})
    stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + mod.compile_seconds
    total = 0
    if len(light):
        kern = mod.kernel("c4_light")
        ctl = _ctl()
        grid = min(_persistent(8), len(light))
        args = (rg["rptr"], rg["rsplit"], rg["radj"], light, np.int64(len(light)), ctl)
        _timed(stats, lambda: kern((grid,), (128,), args))
        total += _check(ctl.get())
    if len(heavy):
        kern = mod.kernel("c4_heavy")
        kern.max_dynamic_shared_size_bytes = smem
        chunk = (smem // 4) * (2 if pack16 else 1)
        ctl = _ctl()
        grid = min(_persistent(2), len(heavy))
        args = (
            rg["rptr"],
            rg["rsplit"],
            rg["radj"],
            heavy,
            np.int64(len(heavy)),
            np.int32(chunk),
            ctl,
        )
        _timed(stats, lambda: kern((grid,), (1024,), args, shared_mem=smem))
        total += _check(ctl.get())
    if total >= 2**64:
        raise overflow_error()
    stats.update(strategy="cycle4", light=int(len(light)), heavy=int(len(heavy)))
    return total


def apex_lists(graph: StaticGraph, stats: dict) -> tuple:
    """``(tptr, tl)``: each forward rank-graph edge's triangle apexes (built once per graph).

    ``tl[tptr[p] : tptr[p + 1]]`` are the third vertices of the triangles on the edge at radj
    position ``p`` (a position in its lower-rank end's ``N+`` list); ``3 * triangles`` entries.
    Its build time (two triangle passes) is added to ``stats["preprocess_seconds"]`` the first
    time, as the rank graph's is.
    """
    cp = import_cupy()
    rg = device_rank_graph(graph)
    hit = rg["lists"].get("apex")
    if hit is None:
        t = time.perf_counter()
        sup = cp.zeros(max(rg["nnz"], 1), dtype=cp.int32)
        sub: dict = {}
        _triangle_pass(graph, 3, sub, sup=sup)
        tptr = cp.zeros(len(sup) + 1, dtype=cp.int64)
        cp.cumsum(sup, out=tptr[1:])
        tl = cp.empty(max(int(tptr[-1]), 1), dtype=cp.int32)
        sup.fill(0)
        _triangle_pass(graph, 3, sub, sup=sup, apex=(tptr, tl))
        cp.cuda.Device().synchronize()
        hit = (tptr, tl)
        rg["lists"]["apex"] = hit
        stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + sub.get(
            "compile_seconds", 0.0
        )
        stats["preprocess_seconds"] = stats.get("preprocess_seconds", 0.0) + (
            time.perf_counter() - t
        )
    return hit


def count_pair_edge(graph: StaticGraph, t: int, stats: dict, part: tuple[int, int] = WHOLE) -> int:
    """**Mappings** of the pair-edge shape with ``t >= 3`` common neighbours of its poles.

    The shape: poles ``a``, ``b`` (not adjacent in the pattern), each joined to ``t`` further
    nodes, exactly one edge among those. Per unordered host pair ``{a, b}`` with
    ``c = |N(a) & N(b)|`` and ``e`` edges inside ``N(a) & N(b)`` the mappings are
    ``4 e (c - 2)_(t - 2)`` (poles ordered, the edge's ends ordered, the other nodes a falling
    factorial), so this returns ``4 U`` with ``U`` the kernel's sum; divide by the pattern's
    automorphisms for distinct occurrences (each pole pair's term is a multiple of them, so
    the sum of ``part`` is too).
    """
    cp = import_cupy()
    if graph.directed:
        raise ValueError("pair-edge counting needs an undirected graph")
    if t < 3:
        raise ValueError("pair-edge counting needs t >= 3 (t = 2 is the diamond: a book)")
    rg = device_rank_graph(graph)
    n = rg["n"]
    tptr, tl = apex_lists(graph, stats)
    if "pair_work" not in rg:
        deg = (rg["rptr"][1:] - rg["rptr"][:-1]).astype(cp.int64)
        wdeg = cp.zeros(rg["nnz"] + 1, dtype=cp.int64)
        wdeg[1:] = cp.cumsum(deg[rg["radj"]])
        rg["pair_work"] = wdeg[rg["rptr"][1:]] - wdeg[rg["rptr"][:-1]]  # wedges at each pole
    deg = rg["rptr"][1:] - rg["rptr"][:-1]
    verts = _verts(rg, ("pair_edge", t), deg >= t, rg["pair_work"])
    verts = share(rg, ("pair_edge", t), verts, part)
    mod = load_module("static_count.cu", {"TPAIR": int(t)})
    stats["compile_seconds"] = stats.get("compile_seconds", 0.0) + mod.compile_seconds
    ctl = _ctl()
    if len(verts) and n:
        kern = mod.kernel("pair_edge")
        free = int(cp.cuda.Device().mem_info[0])
        counter_bytes = min(static_build.current_tuning().pair_counter_bytes, free // 4)
        rows = max(1, min(_persistent(4), len(verts), counter_bytes // (4 * n)))
        cnt = cp.zeros(rows * n, dtype=cp.int32)
        args = (
            rg["rptr"],
            rg["rsplit"],
            rg["radj"],
            tptr,
            tl,
            verts,
            np.int64(len(verts)),
            np.int64(n),
            cnt,
            ctl,
        )
        _timed(stats, lambda: kern((rows,), (256,), args))
        stats["counter_bytes"] = int(cnt.nbytes)
        del cnt
    stats["strategy"] = "pair_edge"
    u = _check(ctl.get())
    return 4 * u
