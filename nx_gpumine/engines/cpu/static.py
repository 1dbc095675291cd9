"""CPU static engine (numba): the facade of :class:`~nx_gpumine.engines.contract.StaticEngine`.

The walk itself (a depth-first backtracking over a :class:`StaticPlan`, with its count tail)
is :mod:`.static_walk`; this module builds its arguments and splits root ranges. Work is split
into chunks of root entries balanced by degree and run with ``prange`` (ranges under
:data:`SERIAL_ENTRIES` entries on one thread). Each chunk counts in an int64 word that spills
into 32-bit limbs before it would wrap (:mod:`.static_walk`); the host sums the chunks as
Python ints, exact up to ``2**128 - 1`` (``CapacityError`` past it). Kernels release the GIL
and poll a stop flag; :mod:`.calls` runs them so Ctrl-C interrupts a call within a second and
several threads may call at once.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator

import numba
import numpy as np

from ...inputs.label_groups import label_starts
from ...inputs.static_graph import StaticGraph
from ...plan.candidate_sources import hoist_levels, reuse_sources
from ...plan.graphlets import block_formula, graphlet_of
from ...plan.root_split import static_root_bounds
from ...plan.static_plan import (
    TAIL_CHOOSE,
    TAIL_FALLING,
    StaticPlan,
    root_mask,
    size_needs,
)
from ..checks import checked_limit, checked_range, checked_total
from ..degree_sums import TRIANGLE_SUMS
from .calls import (
    COUNT,
    ENUMERATE,
    EXISTS,
    PAUSED,
    RootRun,
    WalkKernels,
    enumerate_rows,
    new_stop,
    new_wide,
    reduce_roots,
    run_kernel,
    settle,
)
from .census import kept_census_blocks
from .static_arrays import StaticArgs, StaticGraphArrays, StaticPlanArrays
from .static_walk import (
    new_walk_state,
    run_chunks,
    run_pausable,
    run_serial,
)

__all__ = ["count", "enumerate_matches", "exists", "iter_matches", "whole_range_count"]

#: The census blocks :func:`~.census.census_blocks` computes from the degrees and one pass over
#: each edge's triangles: a whole-graph count of a non-induced census graphlet whose
#: :func:`~nx_gpumine.plan.graphlets.block_formula` takes only these is a sum of them, not a
#: walk (:func:`count`; the walk lists every match: the bowtie on
#: ``powerlaw_cluster_graph(40000, 5, 0.3)`` took 2.37 s, its formula 0.029 s, on 2 cores;
#: ``benchmarks/bench_cpu_routes.py --parts formula``).
TRIANGLE_BLOCKS = TRIANGLE_SUMS | {"stars2", "stars3", "stars4", "paths3", "spiders", "arms"}

#: Largest vertex count for which a chunk keeps a byte array of marks (one byte per vertex).
MARK_LIMIT = 1 << 26
#: Root ranges shorter than this run on one thread (waking the thread pool costs more).
SERIAL_ENTRIES = 4096
#: First size (rows) of the growing output buffer of a limited enumeration.
INITIAL_ROWS = 1 << 16
#: Largest block (rows) :func:`iter_matches` yields.
BLOCK_ROWS = 1 << 14

_KERNELS = WalkKernels(run_chunks, run_serial)
#: The plan's arrays the kernels take as they are, as int32 (the fields of the same names).
_PLAN_INT32 = (
    "order", "node_label", "loop_label", "min_degree", "bn_ptr", "bn_level",
    "sym_ptr", "sym_level", "chk_ptr", "chk_level", "chk_code", "chk_out_label", "chk_in_label",
)  # fmt: skip
_DUMMY_I32 = np.full(1, -1, dtype=np.int32)


def _i32(a: np.ndarray | None) -> np.ndarray:
    """A label array as the kernels read it (absent: one -1)."""
    return _DUMMY_I32 if a is None else np.ascontiguousarray(a, dtype=np.int32)


def _args(graph: StaticGraph, plan: StaticPlan) -> StaticArgs:
    """The kernels' arguments (numba-friendly dtypes), checked against each other: the graph's
    kept with the graph, the plan's with the plan (a call on one root, as the estimate makes
    by the hundred, would otherwise rebuild both: 0.3 of its 0.5 ms), the root mask per call
    where the plan has none."""
    settle()  # no compilation may overlap one still running from an interrupted call
    if plan.k < 2:
        raise ValueError("engines need plans with k >= 2 (1-node patterns are answered on host)")
    if plan.directed != graph.directed:
        raise ValueError("plan and graph differ in directedness")
    root_ok = plan.root_ok if plan.root_ok is not None else root_mask(graph, plan)
    g = graph.derived(("cpu_static_arrays",), lambda: _graph_arrays(graph))
    mark_limit = np.int64(MARK_LIMIT)
    p = StaticPlanArrays(root_ok=_c(root_ok, np.uint8), mark_limit=mark_limit, **_plan_fields(plan))
    return StaticArgs(g, p)


def _c(a: np.ndarray, dt: type = np.int32) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=dt)


def _graph_arrays(graph: StaticGraph) -> StaticGraphArrays:
    return StaticGraphArrays(
        indptr=_c(graph.indptr, np.int64),
        indices=_c(graph.indices),
        dircode=_c(graph.dircode, np.uint8),
        loop=_c(graph.loop, np.uint8),
        node_label=_i32(graph.node_label),
        out_label=_i32(graph.out_label),
        in_label=_i32(graph.in_label),
        loop_label=_i32(graph.loop_label),
        max_degree=np.int64(max(graph.max_degree, 1)),
        label_start=_i32(label_starts(graph)),
    )


def _plan_fields(plan: StaticPlan) -> dict:
    """The fields of :class:`StaticPlanArrays` but ``root_ok`` and ``mark_limit``, once per
    plan alive."""
    fields = _PLAN_FIELDS.get(plan)
    if fields is not None:
        return fields
    tail_start, tail_kind, tail_indep = _tail(plan)
    reuse, reuse_below = reuse_sources(plan, full=True)
    lv = np.repeat(np.arange(plan.k), np.diff(plan.chk_ptr))
    if len(lv) > 1 and ((np.diff(plan.chk_level) <= 0) & (np.diff(lv) == 0)).any():
        raise ValueError(
            "the plan's checks of a level must be in level order (the walk skips a prefix)"
        )
    fields = dict(
        k=np.int64(plan.k),
        induced=bool(plan.induced),
        edge_checks=bool(plan.edge_checks),
        loop_req=_c(plan.loop_req, np.int8),
        tail_start=tail_start,
        tail_kind=tail_kind,
        tail_indep=tail_indep,
        size_need=_c(size_needs(plan), np.int64),
        reuse=_c(reuse),
        reuse_below=_c(reuse_below),
        hoist=_c(hoist_levels(plan, reuse, reuse_below), np.int64),
        **{name: _c(getattr(plan, name)) for name in _PLAN_INT32},
    )
    _PLAN_FIELDS[plan] = fields
    return fields


#: :func:`_plan_fields` of each plan alive (plans are immutable).
_PLAN_FIELDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tail(plan: StaticPlan) -> tuple:
    """``(tail_start, tail_kind, tail_indep)`` of the walk's count tail (see
    :class:`~.static_arrays.StaticPlanArrays`)."""
    k = plan.k
    start, kind = int(plan.indep_tail_start), int(plan.indep_tail_kind)
    indep = plan.induced and 2 <= start <= k - 2 and kind in (TAIL_FALLING, TAIL_CHOOSE)
    if not indep:
        start, kind = int(plan.tail_start), int(plan.tail_kind)
    if not (2 <= start <= k - 2 and kind in (TAIL_FALLING, TAIL_CHOOSE)):
        start, kind = k, 0  # only the last level (the leaf shortcut), or none
    return np.int64(start), np.int64(kind), bool(indep)


def _chunking(
    graph: StaticGraph, plan: StaticPlan, lo: int, hi: int
) -> Callable[[], np.ndarray] | None:
    """The chunks of ``[lo, hi)`` for numba's threads (the balanced split of
    :mod:`nx_gpumine.plan.root_split`), or None: a range this short runs on one thread.

    Kept with the graph per plan mask and range (an O(entries) estimate otherwise paid by
    every call; plans and their read-only masks are kept with the graph too); the mask is
    held in the cached value, so its id cannot name another mask while the entry exists.
    """
    if hi - lo < SERIAL_ENTRIES:
        return None
    nchunks = numba.get_num_threads() * 16
    root_ok = plan.root_ok
    if root_ok is None:  # a mask built per call: nothing to key a cache on
        return lambda: static_root_bounds(graph, nchunks, root_mask(graph, plan), lo, hi)
    key = ("cpu_root_bounds", id(root_ok), nchunks, lo, hi)
    return lambda: graph.derived(
        key, lambda: (root_ok, static_root_bounds(graph, nchunks, root_ok, lo, hi))
    )[1]


def _reduce(graph: StaticGraph, plan: StaticPlan, lo: int, hi: int | None, mode: int) -> int:
    """:func:`~.calls.reduce_roots` over the union-CSR entries ``[lo, hi)`` (0 for an
    impossible plan or an empty range)."""
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if plan.impossible or hi <= lo:
        return 0
    args = _args(graph, plan)
    return reduce_roots(_KERNELS, args, lo, hi, plan.k, mode, _chunking(graph, plan, lo, hi))


def count(graph: StaticGraph, plan: StaticPlan, lo: int = 0, hi: int | None = None) -> int:
    """Number of matches (mappings, or distinct subgraphs for a ``distinct`` plan) whose root edge
    is a union-CSR entry in ``[lo, hi)``, an exact Python int (``CapacityError`` past
    ``2**128 - 1``): see :class:`~nx_gpumine.engines.contract.StaticEngine`
    (``KeyboardInterrupt`` on Ctrl-C: :mod:`.calls`).

    Over every root, a plan :func:`whole_range_count` takes is counted by its census block
    formula (sums of degrees and of each edge's triangles, :data:`TRIANGLE_BLOCKS`)."""
    formula = _block_formula(graph, plan)
    if formula is not None and checked_range(lo, hi, len(graph.indices)) == (
        0,
        len(graph.indices),
    ):
        blocks = kept_census_blocks(graph, {name for _, name in formula})
        distinct = sum(c * int(blocks[name]) for c, name in formula)
        return checked_total(distinct * (1 if plan.distinct else plan.num_automorphisms))
    return _reduce(graph, plan, lo, hi, COUNT)


def whole_range_count(graph: StaticGraph, plan: StaticPlan) -> bool:
    """Whether :func:`count` over every root is a sum of census blocks (:data:`TRIANGLE_BLOCKS`)
    rather than a walk, so callers count it whole (no root ranges): a non-induced 5-node
    census graphlet (:func:`~nx_gpumine.plan.graphlets.graphlet_of`: unlabelled, loop-free;
    the bowtie, the spider, triangles with tails, the diamond with a tail) on an
    undirected graph."""
    return _block_formula(graph, plan) is not None


def _block_formula(graph: StaticGraph, plan: StaticPlan) -> tuple | None:
    # 5 nodes: the 3- and 4-node graphlets of these blocks (triangle, paths, tailed triangle,
    # diamond) end in count tails that already sum what the walk would list
    if graph.directed or plan.induced or plan.impossible or plan.k != 5:
        return None
    if plan not in _FORMULAS:  # once per plan alive: naming the graphlet takes 0.15 ms
        graphlet = graphlet_of(plan.pattern)
        formula = None if graphlet is None else block_formula(graphlet)
        if formula is not None and any(name not in TRIANGLE_BLOCKS for _, name in formula):
            formula = None
        _FORMULAS[plan] = formula
    return _FORMULAS[plan]


#: :func:`_block_formula` of each plan alive that got past its first tests.
_FORMULAS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def exists(graph: StaticGraph, plan: StaticPlan, lo: int = 0, hi: int | None = None) -> bool:
    """Whether a match has its root edge in ``[lo, hi)``, stopping at the first: see
    :class:`~nx_gpumine.engines.contract.StaticEngine`."""
    return bool(_reduce(graph, plan, lo, hi, EXISTS))


def enumerate_matches(
    graph: StaticGraph,
    plan: StaticPlan,
    lo: int = 0,
    hi: int | None = None,
    limit: int | None = None,
) -> np.ndarray:
    """The matches (or the first ``limit``) rooted in ``[lo, hi)``, see
    :class:`~nx_gpumine.engines.contract.StaticEngine`: ``(n, k)`` int64 vertex ids, column
    ``a`` the image of pattern node ``a``, in root order (see :func:`~.calls.enumerate_rows`)."""
    lo, hi = checked_range(lo, hi, len(graph.indices))
    k = plan.k
    limit = checked_limit(limit)
    if plan.impossible or hi <= lo or limit == 0:
        return np.empty((0, k), dtype=np.int64)
    args = _args(graph, plan)
    return enumerate_rows(
        _KERNELS, args, lo, hi, k, limit,
        bounds=_chunking(graph, plan, lo, hi),
        initial_rows=INITIAL_ROWS,
        count_rows=lambda: count(graph, plan, lo, hi),
    )  # fmt: skip


def iter_matches(
    graph: StaticGraph,
    plan: StaticPlan,
    lo: int = 0,
    hi: int | None = None,
    block_rows: int = BLOCK_ROWS,
) -> Iterator[np.ndarray]:
    """Lazily yield the matches with root edge in ``[lo, hi)`` in blocks of at most
    ``block_rows`` rows (``(n, k)`` int64, columns in pattern-node order).

    The DFS pauses when a block is full and goes on from where it stopped at the next
    ``next()``, inside a root entry if need be: memory stays ``O(block_rows)`` however many
    matches one root edge has (a star in a star), and the first block comes after the first
    ``block_rows`` matches are found. Blocks start small (64 rows) and double up to
    ``block_rows``.
    """
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if block_rows < 1:
        raise ValueError(f"block_rows must be >= 1, got {block_rows}")
    if plan.impossible or hi <= lo:
        return
    args = _args(graph, plan)
    k = plan.k
    state = new_walk_state(args.plan.k, args.graph.max_degree, True)
    cap = min(64, block_rows)
    e = lo
    while e < hi:
        stop = new_stop()
        out = np.empty((cap, k), dtype=np.int64)
        run = RootRun(e, hi, ENUMERATE, out, 0, cap, False, stop, new_wide())
        _, rows, e, status = run_kernel(run_pausable, *args, run, state, stop=stop, parallel=False)
        if rows:
            yield out[:rows] if rows < cap else out
        if status != PAUSED:
            return
        cap = min(2 * cap, block_rows)
