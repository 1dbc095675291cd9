"""CPU temporal engine (numba): the facade of :class:`~nx_gpumine.engines.contract.TemporalEngine`.

The walk (a chronological edge-driven DFS, Mackey et al.) and the 3-edge census are
:mod:`.temporal_walk`; this module builds their arguments and splits root ranges into chunks of
about equal estimated work, run with ``prange``. Counts are int64 per chunk and summed in
Python with an overflow check. Unlimited enumeration counts first and fills exact offsets in
parallel; a limited one fills a doubling buffer. Kernels release the GIL and poll a stop flag
(see :mod:`.calls`: Ctrl-C, threads).
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import (
    CENSUS_TABLE,
    TemporalPlan,
    census_window,
    encode_limit,
    split_root_edges,
    time_span,
)
from ..checks import checked_limit, checked_range, checked_sum
from .calls import (
    COUNT,
    EXISTS,
    WalkKernels,
    enumerate_rows,
    new_stop,
    reduce_roots,
    run_kernel,
    settle,
)
from .temporal_walk import (
    AntiEdges,
    CensusQuery,
    TemporalArgs,
    TemporalGraphArrays,
    TemporalPlanArrays,
    WalkIndex,
    build_walk_index,
    census_chunks,
    run_chunks,
    run_serial,
)

__all__ = ["count", "enumerate_matches", "exists", "census", "walk_index", "INITIAL_ROWS"]

#: First size (rows) of the growing output buffer of a limited enumeration.
INITIAL_ROWS = 1 << 16

_KERNELS = WalkKernels(run_chunks, run_serial)
_DUMMY_I32 = np.full(1, -1, dtype=np.int32)
_DUMMY_ALLOW = np.ones((1, 1), dtype=np.uint8)


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


def _args(graph: TemporalGraph, plan: TemporalPlan) -> TemporalArgs:
    """The walk's arguments (numba-friendly dtypes), checked against each other."""
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


def count(graph: TemporalGraph, plan: TemporalPlan, lo: int = 0, hi: int | None = None) -> int:
    """Number of edge-id tuples matching the motif with the root edge id in ``[lo, hi)``
    (:class:`~nx_gpumine.engines.contract.TemporalEngine`; ``CapacityError`` past 64 bits)."""
    return _reduce(graph, plan, lo, hi, COUNT)


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
    if hi <= lo:
        return np.zeros(36, dtype=np.int64)
    on, d = encode_limit(delta, graph.integer_times, time_span(graph))
    query = CensusQuery(0 if tie == "strict" else 1, on, graph.time.dtype.type(d), CENSUS_TABLE)
    bounds = _chunking(graph, on, query.delta, lo, hi)()
    stop = new_stop()
    counts = run_kernel(census_chunks, bounds, _graph_arrays(graph), query, stop, stop=stop)
    # each motif's count must fit 64 bits; the 36 together need not
    return np.array([checked_sum(counts[:, j]) for j in range(36)], dtype=np.int64)
