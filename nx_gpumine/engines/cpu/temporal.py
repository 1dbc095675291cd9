"""CPU temporal engine (numba): the facade of :class:`~nx_gpumine.engines.contract.TemporalEngine`.

The walk (a chronological edge-driven DFS, Mackey et al.) is :mod:`.temporal_walk`, the 3-edge
census (counted per node pair, not enumerated) :mod:`.temporal_census`; this module builds their
arguments and splits root ranges into chunks of about equal estimated work, run with
``prange``. Counts are int64 per chunk and summed in Python with an overflow check. The count
of a plain three-edge motif (no labels, gaps, anti-edges or node conditions: one of the
census's 36) on two nodes, or of a star on a graph with a heavy node pair, is the census's
count of that motif, computed for its kind alone. Unlimited enumeration counts first and fills
exact offsets in parallel; a limited one fills a doubling buffer. Kernels release the GIL and
poll a stop flag (see :mod:`.calls`: Ctrl-C, threads).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from ...inputs.motifs import CENSUS_KEYS
from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import (
    CENSUS_TABLE,
    TemporalPlan,
    build_temporal_plan,
    census_position,
    census_window,
    checked_windows,
    encode_limit,
    split_root_edges,
    time_span,
)
from ..checks import INT64_MAX, checked_limit, checked_range, checked_sum, checked_total
from .calls import (
    COUNT,
    EXISTS,
    WalkKernels,
    chunk_counts,
    enumerate_rows,
    new_stop,
    reduce_roots,
    run_kernel,
    settle,
)
from .temporal_census import (
    PART_ALL,
    PART_LONE_FIRST,
    PART_LONE_LAST,
    PART_LONE_MIDDLE,
    PART_TRIANGLE,
    PART_TWO_NODE,
    CensusIndex,
    CensusQuery,
    census_chunks,
    reverse_runs,
    window_end,
)
from .temporal_walk import (
    AntiEdges,
    MotifTree,
    TemporalArgs,
    TemporalGraphArrays,
    TemporalPlanArrays,
    WalkIndex,
    build_walk_index,
    run_chunks,
    run_serial,
    run_tree_chunks,
)

__all__ = [
    "count",
    "count_windows",
    "count_table",
    "enumerate_matches",
    "exists",
    "census",
    "walk_index",
    "census_index",
    "INITIAL_ROWS",
    "HEAVY_PAIR",
]

#: First size (rows) of the growing output buffer of a limited enumeration.
INITIAL_ROWS = 1 << 16
#: Edges between two nodes from which a star motif's count takes the census (a walk of its
#: roots on such a pair costs up to the cube of that number).
HEAVY_PAIR = 256

_KERNELS = WalkKernels(run_chunks, run_serial)
_DUMMY_I32 = np.full(1, -1, dtype=np.int32)
_DUMMY_ALLOW = np.ones((1, 1), dtype=np.uint8)
_NO_WALK = WalkIndex(*(np.zeros(1, dtype=np.int64) for _ in range(4)))


def walk_index(graph: TemporalGraph) -> WalkIndex:
    """``(pos_out, pos_in, out_after_in, in_after_out)`` int64 per edge id (see docs/temporal.md).

    Built once in O(m) (a merge of each vertex's in- and out-list) and kept with the graph's
    derived values (key ``("cpu_walk_index",)``).
    """

    def build() -> WalkIndex:
        m = graph.m
        walk = WalkIndex(*(np.empty(m, dtype=np.int64) for _ in range(4)))
        if m:
            stop = new_stop()  # O(m): not polled, but run like every parallel kernel
            run_kernel(build_walk_index, _graph_arrays(graph), walk, stop=stop)
        return walk

    return graph.derived(("cpu_walk_index",), build)


def census_index(graph: TemporalGraph) -> CensusIndex:
    """The census's :class:`~.temporal_census.CensusIndex` of ``graph``: each node's out-edges
    sorted by (target, id) in runs of one target, each run's reverse, and each node's distinct
    neighbours.

    Built once in O(m log m) (NumPy) and kept with the graph's derived values (key
    ``("cpu_census_index",)``).
    """

    def build() -> CensusIndex:
        out_edges = graph.out_edges
        order = np.lexsort((out_edges, graph.dst[out_edges], graph.src[out_edges]))
        out_nbr = np.ascontiguousarray(out_edges[order], dtype=np.int64)
        # runs: the edges of one (source, target), consecutive in out_nbr
        tgt, own = graph.dst[out_nbr], graph.src[out_nbr]
        out_dst = np.ascontiguousarray(tgt, dtype=np.int64)
        head = np.ones(len(out_nbr), dtype=bool)
        head[1:] = (tgt[1:] != tgt[:-1]) | (own[1:] != own[:-1])
        run_ptr = np.append(np.flatnonzero(head), len(out_nbr)).astype(np.int64)
        run_rev = np.zeros((len(run_ptr) - 1, 2), dtype=np.int64)
        if len(run_rev):  # O(m log d), once per graph (not polled)
            reverse_runs(_graph_arrays(graph), out_nbr, out_dst, run_ptr, run_rev)
        # each node's distinct neighbours: the pairs {a, b}, a != b, once each, both ways
        s, d = graph.src, graph.dst
        keep = s != d
        a, b = np.minimum(s[keep], d[keep]), np.maximum(s[keep], d[keep])
        by = np.lexsort((b, a))
        a, b = a[by], b[by]
        first = np.ones(len(a), dtype=bool)
        first[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
        owner = np.concatenate([a[first], b[first]])
        other = np.concatenate([b[first], a[first]])
        by = np.lexsort((other, owner))
        ptr = np.zeros(graph.n + 1, dtype=np.int64)
        np.cumsum(np.bincount(owner, minlength=graph.n), out=ptr[1:])
        sizes = np.diff(run_ptr) + (run_rev[:, 1] - run_rev[:, 0])
        loops = graph.src[out_nbr[run_ptr[:-1]]] == graph.dst[out_nbr[run_ptr[:-1]]]
        return CensusIndex(
            out_nbr=out_nbr,
            out_dst=out_dst,
            run_ptr=run_ptr,
            run_rev=run_rev,
            nbr_ptr=ptr,
            nbr=np.ascontiguousarray(other[by], dtype=np.int64),
            heaviest=np.int64(sizes[~loops].max() if (~loops).any() else 0),
        )

    return graph.derived(("cpu_census_index",), build)


def _census_parts(key: str) -> int:
    """The census part (``PART_*``) holding a census key's motif."""
    pairs = [frozenset(e) for e in key.split()]
    if len(set(pairs)) == 1:
        return PART_TWO_NODE
    if len(set(pairs)) == 3:
        return PART_TRIANGLE
    lone = next(i for i, p in enumerate(pairs) if pairs.count(p) == 1)
    return (PART_LONE_FIRST, PART_LONE_MIDDLE, PART_LONE_LAST)[lone]


def _c(a: np.ndarray, dtype: type) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=dtype)


def _graph_arrays(graph: TemporalGraph) -> TemporalGraphArrays:
    """The graph's arrays as the kernels read them."""
    nlab, elab = graph.node_label, graph.edge_label
    return TemporalGraphArrays(
        src=graph.src,
        dst=graph.dst,
        time=graph.time,
        next_id=graph.next_id,
        out_ptr=graph.out_ptr,
        out_edges=graph.out_edges,
        in_ptr=graph.in_ptr,
        in_edges=graph.in_edges,
        node_label=_DUMMY_I32 if nlab is None else _c(nlab, np.int32),
        has_node_label=nlab is not None,
        edge_label=_DUMMY_I32 if elab is None else _c(elab, np.int32),
        has_edge_label=elab is not None,
    )


def _args(graph: TemporalGraph, plan: TemporalPlan, windows: Any = ()) -> TemporalArgs:
    """The walk's arguments (numba-friendly dtypes), checked against each other (``windows``:
    the ascending windows a count bins its matches by, :func:`count_windows`)."""
    settle()  # no compilation may overlap one still running from an interrupted call
    if plan.lim_dtype != graph.time.dtype:
        raise ValueError("plan and graph differ in time dtype: build the plan for this graph")
    tdt = graph.time.dtype
    i64 = np.int64
    p = TemporalPlanArrays(
        k=i64(plan.k),
        l=i64(plan.l),
        tie=i64(plan.tie),
        esrc=_c(plan.esrc, i64),
        edst=_c(plan.edst, i64),
        src_new=_c(plan.src_new, np.uint8),
        dst_new=_c(plan.dst_new, np.uint8),
        source=_c(plan.source, i64),
        delta_on=bool(plan.delta_on),
        delta=tdt.type(plan.delta),
        gap_on=_c(plan.gap_on, np.uint8),
        gap=_c(plan.gap, tdt),
        node_label=_c(plan.node_label, np.int32),
        edge_label=_c(plan.edge_label, np.int32),
        has_allow=plan.node_allow is not None,
        allow=_DUMMY_ALLOW if plan.node_allow is None else _c(plan.node_allow, np.uint8),
        windows=np.asarray(windows, dtype=tdt),
    )
    anti = AntiEdges(
        ptr=_c(plan.anti_ptr, i64),
        src=_c(plan.anti_src, i64),
        dst=_c(plan.anti_dst, i64),
        lo_level=_c(plan.anti_lo_level, i64),
        hi_level=_c(plan.anti_hi_level, i64),
        w_on=_c(plan.anti_w_on, np.uint8),
        w=_c(plan.anti_w, tdt),
    )
    return TemporalArgs(_graph_arrays(graph), p, anti, walk_index(graph))


def _chunking(
    graph: TemporalGraph, delta_on: bool, delta: object, lo: int, hi: int
) -> Callable[[], np.ndarray]:
    """The chunks of ``[lo, hi)`` for numba's threads, of about equal estimated work."""
    nchunks = numba.get_num_threads() * 16
    return lambda: split_root_edges(graph, nchunks, delta_on, delta, lo, hi)


def _reduce(graph: TemporalGraph, plan: TemporalPlan, lo: int, hi: int | None, mode: int) -> int:
    """:func:`~.calls.reduce_roots` over the root edge ids ``[lo, hi)`` (0 for an impossible
    plan or an empty range)."""
    lo, hi = checked_range(lo, hi, graph.m)
    if plan.impossible or hi <= lo:
        return 0
    bounds = _chunking(graph, plan.delta_on, plan.delta, lo, hi)
    return reduce_roots(_KERNELS, _args(graph, plan), lo, hi, plan.l, mode, bounds)


def _census_route(graph: TemporalGraph, plan: TemporalPlan) -> tuple[int | None, int]:
    """``(census position, census parts)`` of a plan :func:`count` counts by the census's
    sweeps; parts 0 for a plan it walks (see there)."""
    idx = census_position(plan)
    parts = 0 if idx is None else _census_parts(CENSUS_KEYS[idx])
    if (
        parts == 0
        or parts == PART_TRIANGLE
        or (parts != PART_TWO_NODE and census_index(graph).heaviest < HEAVY_PAIR)
    ):
        return idx, 0
    return idx, parts


def count(graph: TemporalGraph, plan: TemporalPlan, lo: int = 0, hi: int | None = None) -> int:
    """Number of edge-id tuples matching the motif with the root edge id in ``[lo, hi)``
    (:class:`~nx_gpumine.engines.contract.TemporalEngine`; ``CapacityError`` past 64 bits).

    A plain two-node three-edge motif (``plan.temporal_plan.census_position``), and a plain
    three-edge star on a graph with :data:`HEAVY_PAIR` or more edges between two nodes, is
    counted by the census (per node pair, not enumerated; the same number). Triangles, and
    stars without such a pair, are walked: one motif's walk is faster there than the census's
    sweeps."""
    idx, parts = _census_route(graph, plan)
    if not parts:
        return _reduce(graph, plan, lo, hi, COUNT)
    settle()
    if plan.lim_dtype != graph.time.dtype:
        raise ValueError("plan and graph differ in time dtype: build the plan for this graph")
    lo, hi = checked_range(lo, hi, graph.m)
    return int(_census(graph, plan.tie, plan.delta_on, plan.delta, lo, hi, parts)[idx])


def count_windows(graph: TemporalGraph, plan: TemporalPlan, windows: Any) -> list[int]:
    """The counts of ``plan`` within each of ``windows`` and its own count, in one walk.

    ``windows``: ascending limits in the graph's time unit, none above the plan's own window
    (when it has one). Entry ``j`` of the result counts the matches whose span ``t_last - t_0``
    is within ``windows[j]`` (the window rule of every engine, :func:`~.temporal_walk._past`);
    the last entry is the plan's whole count. The walk is the plan's own (its window bounds the
    search); each match is binned by its span as it is counted (one pass for every window).
    A motif whose count takes the census's per-pair sweeps (see :func:`count`), or with
    anti-edges (whose intervals may end at the window), is counted once per window by
    :func:`count` instead.

    Raises
    ------
    ValueError
        Windows not ascending, negative, or beyond the plan's window.
    CapacityError
        A count past 64 bits.
    """
    checked_windows(plan, windows, graph.time.dtype)
    lims = list(windows)
    if _census_route(graph, plan)[1] or len(plan.anti_src):
        # the census sweeps take one window at a time; an anti-edge's interval can end at the
        # window, so a match of a narrower window may be refused in a wider one
        counts = [count(graph, _with_window(plan, w, graph)) for w in lims]
        return [*counts, count(graph, plan)]
    if plan.impossible or graph.m == 0:
        return [0] * (len(lims) + 1)
    chunks = _chunking(graph, plan.delta_on, plan.delta, 0, graph.m)()
    nch = len(chunks) - 1
    bins = np.zeros((nch, max(len(lims), 1)), dtype=np.int64)
    offsets = np.arange(nch + 1, dtype=np.int64)  # chunk c bins into row c
    stop = new_stop()
    args = _args(graph, plan, lims)
    res = run_kernel(_KERNELS.chunks, chunks, *args, COUNT, bins, offsets, stop, stop=stop)
    return _within(bins[:, : len(lims)], checked_sum(chunk_counts(res)))


def _within(bins: np.ndarray, total: int) -> list[int]:
    """The counts within each window from per-chunk bins (rows: chunks, columns: windows,
    ascending; exact Python sums), then ``total``."""
    per_bin = [sum(int(x) for x in bins[:, j].tolist()) for j in range(bins.shape[1])]
    return [*np.cumsum(per_bin, dtype=object).tolist(), total] if per_bin else [total]


def count_table(graph: TemporalGraph, motifs: list, windows: Any) -> list[list[int]]:
    """For each motif, :func:`count_windows`'s list (its counts within each of ``windows``,
    then its own count), the plain motifs walked together on their shared prefixes.

    ``motifs``: :class:`~nx_gpumine.inputs.motifs.TemporalMotif` values in the graph's time
    unit, each with the table's widest window (none or ``windows[-1]``). Plain motifs (no
    labels, node conditions or anti-edges) of one tie policy, renumbered so that nodes count
    up in order of appearance, are merged into a :class:`~.temporal_walk.MotifTree` and walked
    once (:func:`~.temporal_walk.run_tree_chunks`): a prefix common to several motifs (M1's
    three edges begin eight of M1..M13) is matched once for all. Others are counted one by one
    (:func:`count_windows`).
    """
    lims = list(windows)
    rows: list = [None] * len(motifs)
    groups: dict = {}
    for i, motif in enumerate(motifs):
        if _plain(motif):  # one tree per tie policy and window
            groups.setdefault((motif.tie, motif.delta), []).append(i)
        else:
            rows[i] = count_windows(graph, build_temporal_plan(motif, graph), lims)
    for members in groups.values():
        plans = [build_temporal_plan(_canonical(motifs[i]), graph) for i in members]
        for i, got in zip(members, _tree_counts(graph, plans, lims), strict=True):
            rows[i] = got
    return rows


def _plain(motif: Any) -> bool:
    return not (motif.node_labels or motif.edge_labels or motif.node_where or motif.anti_edges)


def _canonical(motif: Any) -> Any:
    """``motif`` with its nodes numbered in order of first appearance (the same matches)."""
    order: dict = {}
    for a, b in motif.edges:
        order.setdefault(a, len(order))
        order.setdefault(b, len(order))
    return motif.with_(edges=[(order[a], order[b]) for a, b in motif.edges])


def _tree_counts(graph: TemporalGraph, plans: list, lims: list) -> list[list[int]]:
    """:func:`count_table`'s rows of plain plans of one tie and window, walked as one tree."""
    live = [i for i, p in enumerate(plans) if not p.impossible]
    rows = [[0] * (len(lims) + 1) for _ in plans]
    if not live or graph.m == 0:
        return rows
    tree = _motif_tree(graph, [plans[i] for i in live], lims)
    chunks = _chunking(graph, bool(tree.delta_on), tree.delta, 0, graph.m)()
    nch, nm = len(chunks) - 1, len(live)
    out = np.zeros((nch * nm, len(lims) + 1), dtype=np.int64)
    stop = new_stop()
    g = _graph_arrays(graph)
    run_kernel(run_tree_chunks, chunks, g, tree, walk_index(graph), out, nm, stop, stop=stop)
    sums = out.reshape(nch, nm, len(lims) + 1)
    for j, i in enumerate(live):
        total = sum(int(x) for x in sums[:, j, -1].tolist())
        rows[i] = _within(sums[:, j, :-1], total)
    return rows


def _motif_tree(graph: TemporalGraph, plans: list, lims: list) -> MotifTree:
    """The trie of ``plans`` (renumbered plain motifs of one tie and window) on their levels'
    fields: two motifs share a node while their edges so far agree in every field."""
    fields = ("esrc", "edst", "src_new", "dst_new", "source", "gap_on", "gap")
    key_of: dict = {}
    nodes: list = []  # (parent, level fields)
    ends: list[list[int]] = []
    for mi, plan in enumerate(plans):
        parent = -1
        for lev in range(int(plan.l)):
            key = (parent, *(np.asarray(getattr(plan, f))[lev].item() for f in fields))
            node = key_of.get(key)
            if node is None:
                node = key_of[key] = len(nodes)
                nodes.append(key)
                ends.append([])
            parent = node
        ends[parent].append(mi)
    n = len(nodes)
    if [j for j, key in enumerate(nodes) if key[0] == -1] != [0]:  # pragma: no cover
        raise AssertionError("renumbered plain motifs share their root edge (0, 1)")
    tdt = graph.time.dtype
    col = {f: [key[1 + i] for key in nodes] for i, f in enumerate(fields)}
    kids: list[list[int]] = [[] for _ in range(n)]
    for j, key in enumerate(nodes):
        if key[0] >= 0:
            kids[key[0]].append(j)
    i64 = np.int64
    return MotifTree(
        esrc=np.array(col["esrc"], i64),
        edst=np.array(col["edst"], i64),
        src_new=np.array(col["src_new"], np.uint8),
        dst_new=np.array(col["dst_new"], np.uint8),
        source=np.array(col["source"], i64),
        gap_on=np.array(col["gap_on"], np.uint8),
        gap=np.array(col["gap"], tdt),
        child_ptr=np.cumsum([0] + [len(c) for c in kids]).astype(i64),
        child=np.array([c for cs in kids for c in cs], i64),
        end_ptr=np.cumsum([0] + [len(e) for e in ends]).astype(i64),
        motif=np.array([m for es in ends for m in es], i64),
        k=i64(max(int(p.k) for p in plans)),
        l=i64(max(int(p.l) for p in plans)),
        tie=i64(plans[0].tie),
        delta_on=bool(plans[0].delta_on),
        delta=tdt.type(plans[0].delta),
        windows=np.asarray(lims, dtype=tdt),
    )


def _with_window(plan: TemporalPlan, window: Any, graph: TemporalGraph) -> TemporalPlan:
    """``plan``'s motif with window ``window`` (in the graph's unit), planned for ``graph``."""
    return build_temporal_plan(plan.motif.with_(delta=window), graph)


def exists(graph: TemporalGraph, plan: TemporalPlan, lo: int = 0, hi: int | None = None) -> bool:
    """Whether a match has its root edge id in ``[lo, hi)``, stopping at the first: see
    :class:`~nx_gpumine.engines.contract.TemporalEngine`."""
    return bool(_reduce(graph, plan, lo, hi, EXISTS))


def enumerate_matches(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int = 0,
    hi: int | None = None,
    limit: int | None = None,
) -> np.ndarray:
    """The matches (or the first ``limit``) rooted in ``[lo, hi)``, see
    :class:`~nx_gpumine.engines.contract.TemporalEngine`: ``(n, l)`` int64 edge ids, column
    ``i`` = ``e_i``, in root order, then DFS order (see :func:`~.calls.enumerate_rows`)."""
    lo, hi = checked_range(lo, hi, graph.m)
    ncol = plan.l
    limit = checked_limit(limit)
    if plan.impossible or hi <= lo or limit == 0:
        return np.empty((0, ncol), dtype=np.int64)
    args = _args(graph, plan)
    return enumerate_rows(
        _KERNELS, args, lo, hi, ncol, limit,
        bounds=_chunking(graph, plan.delta_on, plan.delta, lo, hi),
        initial_rows=INITIAL_ROWS,
        count_rows=lambda: count(graph, plan, lo, hi),
    )  # fmt: skip


def census(
    graph: TemporalGraph,
    delta: float | int | None,
    tie: str = "strict",
    lo: int = 0,
    hi: int | None = None,
) -> np.ndarray:
    """The counts of the 36 three-edge motifs (int64, ``CENSUS_KEYS`` order) rooted in
    ``[lo, hi)``: see :meth:`TemporalEngine.census
    <nx_gpumine.engines.contract.TemporalEngine.census>`."""
    settle()
    delta = census_window(graph, delta, tie)
    lo, hi = checked_range(lo, hi, graph.m)
    on, d = encode_limit(delta, graph.integer_times, time_span(graph))
    return _census(graph, 0 if tie == "strict" else 1, on, d, lo, hi, PART_ALL)


def _census(
    graph: TemporalGraph, tie: int, on: bool, d: object, lo: int, hi: int, parts: int
) -> np.ndarray:
    """The census (:func:`census`) of roots ``[lo, hi)``, tie rule ``tie`` (0 strict, 1 input
    order), window ``d`` where ``on``, counting the kinds of triples in ``parts`` only (the
    other counts are 0)."""
    if hi <= lo:
        return np.zeros(36, dtype=np.int64)
    query = CensusQuery(tie, bool(on), graph.time.dtype.type(d), CENSUS_TABLE, parts)
    reach = int(window_end(graph.time, np.int64(hi - 1), query.delta_on, query.delta))
    nchunks = numba.get_num_threads() * 16
    roots = split_root_edges(graph, nchunks, query.delta_on, query.delta, lo, hi)
    index = census_index(graph)
    # the runs in chunks of about equal edge counts
    cuts = np.linspace(0, len(index.out_nbr), nchunks + 1).astype(np.int64)
    pairs = np.unique(np.searchsorted(index.run_ptr, cuts))
    stop = new_stop()
    walk = walk_index(graph) if parts & PART_TRIANGLE else _NO_WALK
    counts = run_kernel(
        census_chunks, roots, pairs, _graph_arrays(graph), index, walk, query, lo, hi, reach,
        stop, stop=stop,
    )  # fmt: skip
    # each motif's count must fit 64 bits (a chunk's -1: its own count overflowed); the 36
    # together need not
    return np.array(
        [checked_total(checked_sum(counts[:, j]), "census count", INT64_MAX) for j in range(36)],
        dtype=np.int64,
    )
