"""CUDA temporal motif engine (Everest), through CuPy.

Interface (``docs/temporal.md``; the contract is ``engines/contract.py``'s
:class:`~nx_gpumine.engines.contract.TemporalEngine`, with the hooks ``unsupported`` and
``release``)::

    count(graph, plan, lo=0, hi=None) -> int
    enumerate_matches(graph, plan, lo=0, hi=None, limit=None) -> np.ndarray  # (n, l) edge ids
    exists(graph, plan, lo=0, hi=None) -> bool
    census(graph, delta, tie="strict", lo=0, hi=None) -> np.ndarray  # (36,) int64

How it walks the plan (kernels ``kernels/temporal_dfs.cu`` and ``kernels/temporal_census.cu``,
design and figures in ``docs/cuda_temporal.md``):

* **Motif-specific code.** The plan's structure (per level: motif nodes, which endpoint is new,
  where candidates come from; which nodes/edges carry label or numeric conditions; anti-edges)
  is packed into integer macros and compiled by NVRTC (cached per structure, time type, tie
  policy and mode); label codes and time limits are run-time arguments. Only validated
  integers reach the compiler, never user strings.
* **Chronological DFS per thread** with candidate-edge caching: entering a level finds its
  candidate range once (lower bound on edge ids, galloping window end); backtracking resumes
  from the cached position. The thread context lives in registers.
* **Load balance.** Warps take root edges 32 at a time from a global cursor. When no roots are
  left, idle lanes steal the upper half of a busy lane's cached range (intra-warp work
  stealing, ``steal``). Once a warp has run out of work, every warp still busy ``tail_ms``
  later dumps its unexplored cached ranges and exits; the host relaunches over those ranges,
  one candidate per work item (tail-warp redistribution), doubling the timeout each round.
* **Fewer roots, fewer relaunches** (count and exists on more than ``expand_roots`` roots):
  a first kernel keeps only the roots whose level-1 list holds its next edge within level 1's
  limit (from 32-bit gaps built once per graph and list), where the gap quantiles say it keeps
  at most ``root_filter_max_kept`` of them; heavy roots are split off for a second launch only
  where at least ``split_gate_roots`` roots have ``split_min`` candidates or more.
* Counts are 64-bit per thread, summed into a 128-bit count (past 2**128 - 1
  :class:`CapacityError`); ``exists`` stops every warp
  at the first match; enumeration counts first and fills an exact device buffer (root ranges
  split when the result exceeds ``max_buffer_rows``; rows copied to the host per piece), or,
  with a ``limit``, fills a ``limit``-row buffer and stops when it is full.

The engine by role: ``temporal_tuning`` (the settings, :class:`TemporalTuning`: one frozen
object, swapped with :func:`tuned`), ``temporal_build`` (macros, kernel structs, list layouts),
``temporal_data`` (device arrays, indexes, per-plan data), ``temporal_launch`` (the launches of
one range, kept and replayed), ``temporal_stream`` (out-of-core time partitions); this module
checks the arguments and picks in-memory or streamed runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device_limits import current_budget
from ...inputs.motifs import CENSUS_KEYS
from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import (
    TIE_INPUT_ORDER,
    TIE_STRICT,
    TemporalPlan,
    census_position,
    census_window,
    checked_windows,
    encode_limit,
    temporal_plan,
    time_span,
)
from ..checks import checked_limit, checked_range
from ._runtime import import_cupy, is_out_of_memory, oom_retry, release_memory
from .temporal_build import (
    GAP_NONE,
    MAX_ANTI,
    MAX_EDGES,
    MAX_NODES,
    MAX_WINDOWS,
    kernel_defines,
    level1_gaps,
    level1_list,
    list_entries,
    pair_index,
    pair_triples,
    structure_defines,
    unsupported,
    walk_arrays,
)
from .temporal_data import compile_ahead, drop_buffers, parallel_triples, prepare, release, upload
from .temporal_launch import (
    census_range,
    count_range,
    count_range_all_windows,
    count_ranges_windows,
    enumerate_range,
    exists_range,
    last_run,
    window_chunks,
)
from .temporal_stream import (
    device_need,
    partition_graph,
    stream,
    stream_plan,
    stream_windows,
    table_stream_plan,
)
from .temporal_tuning import DEFAULT_TUNING, TemporalTuning, current_tuning, set_tuning, tuned

__all__ = [
    "count",
    "count_windows",
    "count_table",
    "exists",
    "enumerate_matches",
    "census",
    "unsupported",
    "upload",
    "release",
    "device_need",
    "partition_graph",
    "structure_defines",
    "kernel_defines",
    "walk_arrays",
    "pair_index",
    "list_entries",
    "level1_list",
    "level1_gaps",
    "last_run",
    "TemporalTuning",
    "DEFAULT_TUNING",
    "current_tuning",
    "set_tuning",
    "tuned",
    "GAP_NONE",
    "MAX_EDGES",
    "MAX_NODES",
    "MAX_ANTI",
    "HOST_CENSUS_TRIPLES",
    "host_census",
]

#: Triples of edges joining the same two nodes, per edge of the graph
#: (:func:`~.temporal_build.pair_triples` / m), above which the census and the count of a
#: two-node or star census motif are the CPU engine's per-pair counts
#: (``engines/cpu/temporal_census.py``, on every host core): the GPU kernels enumerate every
#: such triple (cubic in a pair's edges: 4,000 parallel edges hold 10^10), the per-pair sweep
#: costs ``O(p log d)`` for a pair of ``p`` edges. CollegeMsg has 184 per edge.
HOST_CENSUS_TRIPLES = 1000.0

#: Edges from which a motif table's walks run one after another instead of together on a
#: stream each (:func:`count_table`). Together, one motif's walk fills the SMs another's tail
#: leaves idle, which pays while walks are short: on 10M-edge graphs the table took 0.62-0.84x
#: the sum of its single calls. Once each walk fills the device by itself the streams only
#: contend: on the kit's 100M-edge synthetic graph (H200) the 13 walks together took 9.2 s,
#: the same 13 walks one after another 5.95 s (the singles of both windows 5.5 s).
TOGETHER_MAX_EDGES = 1 << 25


def host_census(graph: TemporalGraph, *, on_device: bool = True) -> bool:
    """Whether the graph's parallel edges send its census to the CPU engine's per-pair counts
    (:data:`HOST_CENSUS_TRIPLES`; the triples counted on the current device, or on the host when
    ``on_device`` is false: a graph streamed through the GPU).

    Parameters
    ----------
    graph : TemporalGraph
        The graph.
    on_device : bool
        Count its parallel triples on the GPU (default) or on the host.

    Returns
    -------
    bool
    """
    if graph.m < 3:
        return False
    if on_device:
        triples = parallel_triples(graph)
    else:
        triples = graph.derived(
            ("pair_triples",), lambda: pair_triples(np, graph.src, graph.dst, graph.n)
        )
    return triples > HOST_CENSUS_TRIPLES * graph.m


def _walks_parallel_triples(plan: TemporalPlan) -> bool:
    """Whether the plan's motif is a census motif with two edges on one node pair (two-node or
    star): its count walks the triples of parallel edges."""
    idx = census_position(plan)
    return idx is not None and len({frozenset(e) for e in CENSUS_KEYS[idx].split()}) < 3


def _count_or_exists(
    graph: TemporalGraph, plan: TemporalPlan, lo: int, hi: int | None, mode: str, kw: dict,
    max_device_bytes: int | None,
) -> Any:  # fmt: skip
    """``count`` / ``exists`` (``mode``): the range checked, then nothing to do, a streamed run
    or an in-memory one (``kw``: the call's switches)."""
    lo, hi = checked_range(lo, hi, graph.m)
    if plan.impossible or hi <= lo:
        last_run.clear()
        return 0
    parts = stream_plan(graph, plan, lo, hi, max_device_bytes, mode, kw)
    if (
        mode == "count"
        and _walks_parallel_triples(plan)
        and host_census(graph, on_device=parts is None)
    ):
        from ..cpu import temporal as cpu_temporal  # numba: loaded only here

        total = cpu_temporal.count(graph, plan, lo, hi)
        last_run.clear()
        last_run.update(mode="count", host_census=True)
        return total
    if parts is not None:
        return stream(graph, plan, parts, mode, None, kw)
    return (count_range if mode == "count" else exists_range)(graph, plan, lo, hi, **kw)


@oom_retry(on_oom=drop_buffers, what="count")
def count(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int = 0,
    hi: int | None = None,
    *,
    steal: bool = True,
    tail_ms: float = 10.0,
    expand: bool = True,
    count_last: bool = True,
    max_device_bytes: int | None = None,
) -> int:
    """Count matches whose root edge id is in ``[lo, hi)``.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph (its arrays are uploaded once and cached on it).
    plan : TemporalPlan
        The plan built for ``graph``.
    lo, hi : int
        Root edge id range (default: all edges).
    steal : bool
        Intra-warp work stealing once the root edges are handed out.
    tail_ms : float
        Tail-warp redistribution: milliseconds after the first warp runs out of work at which
        still-busy warps dump their cached ranges for a relaunch (0 disables it).
    expand : bool
        With at most ``expand_roots`` roots (the tuning's, :class:`TemporalTuning`), list each
        root's level-1 candidates first and give the DFS one (root, candidate) pair per work
        item (more parallelism on small graphs); with more (motifs of four edges or more),
        split off the roots with ``split_min`` or more level-1 candidates that way, for a
        second launch. False: one root per work item.
    count_last : bool
        Count the last level's matches from its candidate range and the pair index instead of
        walking them, where the level has no labels, node conditions or anti-edges to check.
    max_device_bytes : int, optional
        Device memory the call may use (default: the configured budget, see :mod:`.memory`;
        None there: total device memory minus a margin). When the estimated need of the whole
        edge stream exceeds it, time partitions sized to the budget are streamed through the
        GPU, copy overlapping compute (``docs/out_of_core.md``).

    Returns
    -------
    int
        Number of edge-id tuples matching the motif.

    Raises
    ------
    CapacityError
        If the count does not fit in 64 bits.
    """
    kw = dict(steal=steal, tail_ms=tail_ms, expand=expand, count_last=count_last)
    return int(_count_or_exists(graph, plan, lo, hi, "count", kw, max_device_bytes))


@oom_retry(on_oom=drop_buffers, what="count")
def count_windows(
    graph: TemporalGraph, plan: TemporalPlan, windows: Any, *, steal: bool = True,
    tail_ms: float = 10.0, expand: bool = True, count_last: bool = True,
    max_device_bytes: int | None = None,
) -> list[int]:  # fmt: skip
    """The counts of ``plan`` within each of ``windows`` and its own count, in one walk.

    As the CPU engine's ``count_windows``: ``windows`` are ascending limits in the graph's time
    unit, none above the plan's window; entry ``j`` counts the matches whose span
    ``t_last - t_0`` is within ``windows[j]``, the last entry is :func:`count`'s. The kernel
    walks at the plan's window and bins each match by its span as it counts it (a counted last
    level: its candidates within each narrower window, from the same range; ``temporal_dfs.cu``
    ``NWIN``), up to ``MAX_WINDOWS - 1`` narrower windows a walk. A plan without a window or
    with anti-edges, a count that streams the graph or takes the CPU engine's per-pair sweeps
    is counted once per window by :func:`count` instead.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    plan : TemporalPlan
        The plan (its window is the widest).
    windows : sequence of int or float
        The narrower windows, ascending.
    steal, tail_ms, expand, count_last, max_device_bytes
        As in :func:`count`.

    Returns
    -------
    list of int
        ``len(windows) + 1`` counts.

    Raises
    ------
    ValueError
        Windows not ascending, negative, or beyond the plan's window.
    CapacityError
        A count past 64 bits.
    """
    checked = checked_windows(plan, windows, graph.time.dtype)
    lims = list(windows)
    kw = dict(steal=steal, tail_ms=tail_ms, expand=expand, count_last=count_last)
    if plan.impossible or graph.m == 0:
        last_run.clear()
        return [0] * (len(lims) + 1)
    if not _one_walk(graph, plan, kw, max_device_bytes):
        own = temporal_plan  # each window a plan of its own, counted alone
        counts = [
            count(
                graph,
                own(plan.motif.with_(delta=w), graph),
                **kw,
                max_device_bytes=max_device_bytes,
            )
            for w in lims
        ]
        return [*counts, count(graph, plan, **kw, max_device_bytes=max_device_bytes)]
    return count_range_all_windows(graph, plan, tuple(checked.tolist()), 0, graph.m, **kw)


def _one_walk(graph: TemporalGraph, plan: TemporalPlan, kw: dict, budget: int | None) -> bool:
    """Whether :func:`count_windows` counts ``plan``'s windows in one walk over the graph held
    on the device (not streamed, no anti-edge, not the per-pair sweeps)."""
    return bool(
        plan.delta_on
        and not len(plan.anti_src)  # an anti-edge's interval may end at the window
        and stream_plan(graph, plan, 0, graph.m, budget, "count", kw) is None
        and not (_walks_parallel_triples(plan) and host_census(graph))
    )


def count_table(graph: TemporalGraph, motifs: list, windows: Any) -> list[list[int]]:
    """For each motif, :func:`count_windows`'s list: its counts within each of ``windows``,
    then its own count (the hook of ``execution.temporal.run_motif_table``).

    ``motifs``: :class:`~nx_gpumine.inputs.motifs.TemporalMotif` values in the graph's time
    unit, each with the table's widest window (none or ``windows[-1]``). Each motif is one
    walk at that window binning its matches by span (:func:`count_windows`), and on graphs
    below :data:`TOGETHER_MAX_EDGES` edges the walks of the motifs that take one walk run
    together, each on a stream of its own
    (:func:`~.temporal_launch.count_ranges_windows`: one motif's walk fills the SMs another's
    tail leaves idle); motifs do not yet share their prefixes' walks on the GPU (the CPU
    engine's motif tree does). A graph past the device's memory is streamed once for the
    whole table (:func:`_streamed_together`), each partition walked by every motif.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    motifs : list of TemporalMotif
        The motifs.
    windows : sequence of int or float
        The narrower windows, ascending.

    Returns
    -------
    list of list of int
        A row of ``len(windows) + 1`` counts per motif.
    """
    lims = list(windows)
    # the plans kept with the graph (temporal_plan): the device data prepared for a plan is
    # reused by the next table or count of the same motif, as count_motifs reuses it
    plans = [temporal_plan(m, graph) for m in motifs]
    together = _streamed_together(graph, plans, lims) or _walks_together(graph, plans, lims)
    _compile_ahead(graph, [p for p in plans if id(p) not in together], lims)
    return [together.get(id(p)) or count_windows(graph, p, lims) for p in plans]


def _table_switches() -> dict:
    """The launch switches of a table's walks (:func:`count`'s defaults; a fresh dict: the
    stream planner may turn ``tail_ms`` off in it)."""
    return dict(steal=True, tail_ms=10.0, expand=True, count_last=True)


def _compile_ahead(graph: TemporalGraph, plans: list, windows: list) -> None:
    """Compile the modules of the ``plans`` that :func:`count_windows` walks in turn (a
    table past :data:`TOGETHER_MAX_EDGES` edges) side by side before the walks start."""
    if graph.m == 0:
        return
    kw = _table_switches()
    distinct = {id(p): p for p in plans if not p.impossible}
    walk = [p for p in distinct.values() if _one_walk(graph, p, kw, None)]
    if len(walk) < 2:
        return
    checked = tuple(checked_windows(walk[0], windows, graph.time.dtype).tolist())
    chunks = window_chunks(checked) if checked else [()]
    compile_ahead([prepare(graph, p, c) for p in walk for c in chunks])


def _streamed_together(graph: TemporalGraph, plans: list, windows: list) -> dict[int, list[int]]:
    """The counts of the distinct ``plans`` that bin their windows in one walk, when the graph
    is past the device's memory: the partitions are streamed once for all of them
    (:func:`~.temporal_stream.stream_windows`), not once per motif and window; by ``id`` of the
    plan. None of them where fewer than two qualify or the graph fits (the in-memory routes
    then apply). Census motifs whose counts the host's per-pair sweeps give on this graph
    (:func:`host_census`) are left to their own calls."""
    kw = _table_switches()
    distinct = {id(p): p for p in plans if not p.impossible}
    walk = [p for p in distinct.values() if p.delta_on and not len(p.anti_src)]
    if graph.m == 0 or len(walk) < 2:
        return {}
    parts = table_stream_plan(graph, walk, None, kw)
    if parts is None:
        return {}
    if any(_walks_parallel_triples(p) for p in walk) and host_census(graph, on_device=False):
        walk = [p for p in walk if not _walks_parallel_triples(p)]
        if len(walk) < 2:
            return {}
    group = tuple(checked_windows(walk[0], windows, graph.time.dtype).tolist())
    for p in walk[1:]:  # the same windows are valid for every plan of the table's window
        checked_windows(p, windows, graph.time.dtype)
    rows = stream_windows(graph, walk, group, parts, kw)
    return {id(p): row for p, row in zip(walk, rows, strict=True)}


def _walks_together(graph: TemporalGraph, plans: list, windows: list) -> dict[int, list[int]]:
    """The counts of the distinct ``plans`` that take one walk (:func:`_one_walk`, at most
    ``MAX_WINDOWS - 1`` narrower windows), their walks run together; by ``id`` of the plan.
    None of them (the table counts motif by motif) where fewer than two qualify, the graph
    has :data:`TOGETHER_MAX_EDGES` edges or more, or the device runs out of memory (each
    motif's own call then retries smaller)."""
    if graph.m == 0 or graph.m >= TOGETHER_MAX_EDGES or len(windows) > MAX_WINDOWS - 1:
        return {}
    kw = _table_switches()
    distinct = {id(p): p for p in plans if not p.impossible}
    walk = [p for p in distinct.values() if _one_walk(graph, p, kw, None)]
    if len(walk) < 2:
        return {}
    group = tuple(checked_windows(walk[0], windows, graph.time.dtype).tolist())
    for p in walk[1:]:  # the same windows are valid for every plan of the table's window
        checked_windows(p, windows, graph.time.dtype)
    try:
        rows = count_ranges_windows(graph, walk, group, **kw)
    except Exception as exc:
        if not is_out_of_memory(exc):
            raise
        for p in walk:
            drop_buffers(graph, p)
        release_memory()
        return {}
    return {id(p): row for p, row in zip(walk, rows, strict=True)}


@oom_retry(on_oom=drop_buffers, what="existence test")
def exists(
    graph: TemporalGraph, plan: TemporalPlan, lo: int = 0, hi: int | None = None, *,
    steal: bool = True, tail_ms: float = 10.0, expand: bool = True, count_last: bool = True,
    max_device_bytes: int | None = None,
) -> bool:  # fmt: skip
    """Whether some match has its root edge id in ``[lo, hi)`` (every warp stops at the first).

    Parameters are those of :func:`count` (streamed partitions stop at the first match).
    """
    kw = dict(steal=steal, tail_ms=tail_ms, expand=expand, count_last=count_last)
    return bool(_count_or_exists(graph, plan, lo, hi, "exists", kw, max_device_bytes))


@oom_retry({"max_buffer_rows": 1 << 25}, on_oom=drop_buffers, what="listing")
def enumerate_matches(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int = 0,
    hi: int | None = None,
    limit: int | None = None,
    *,
    steal: bool = True,
    tail_ms: float = 10.0,
    max_buffer_rows: int = 1 << 25,
    max_device_bytes: int | None = None,
) -> np.ndarray:
    """All matches (or ``limit`` of them) with root edge id in ``[lo, hi)``.

    Parameters
    ----------
    graph, plan, lo, hi, steal, tail_ms
        As in :func:`count`.
    limit : int, optional
        Return at most this many matches (any ``limit`` distinct matches of the range).
    max_buffer_rows : int
        Largest device output block; a root range with more matches is split (each block is
        copied to the host as it completes), and a single root with more grows the block.
        Streamed partitions (see ``max_device_bytes``) cap it by the budget.
    max_device_bytes : int, optional
        As in :func:`count`.

    Returns
    -------
    numpy.ndarray
        ``(n, l)`` int64 edge ids, column ``i`` = ``e_i``, rows in lexicographic order
        (the CPU engine's order: by root edge, then depth-first).

    Raises
    ------
    CapacityError
        The matches do not fit the free host memory (pass ``limit``).
    """
    lo, hi = checked_range(lo, hi, graph.m)
    ncol = int(plan.l)
    limit = checked_limit(limit)
    if max_buffer_rows < 1:
        raise ValueError("max_buffer_rows must be >= 1")
    if plan.impossible or hi <= lo or limit == 0:
        last_run.clear()
        return np.empty((0, ncol), dtype=np.int64)
    kw = dict(steal=steal, tail_ms=tail_ms, max_buffer_rows=max_buffer_rows)
    parts = stream_plan(graph, plan, lo, hi, max_device_bytes, "enumeration", kw)
    if parts is not None:
        budget = current_budget(max_device_bytes) or 0
        # output blocks take 1/16 of the budget (sorting them takes about three times that)
        rows_cap = max(budget // (16 * 8 * ncol), 1) if budget else max_buffer_rows
        kw["max_buffer_rows"] = min(max_buffer_rows, rows_cap)
        return stream(graph, plan, parts, "enumerate", limit, kw)
    return enumerate_range(graph, plan, lo, hi, limit, **kw)


@oom_retry(what="census")
def census(
    graph: TemporalGraph,
    delta: float | int | None,
    tie: str = "strict",
    lo: int = 0,
    hi: int | None = None,
) -> np.ndarray:
    """The counts of the 36 three-edge motifs (int64, ``CENSUS_KEYS`` order) rooted in
    ``[lo, hi)``, on the GPU (or, for a graph with many parallel edges, :func:`host_census`,
    by the CPU engine's per-pair counts): see :meth:`TemporalEngine.census
    <nx_gpumine.engines.contract.TemporalEngine.census>`."""
    import_cupy()  # a missing CuPy is named before the arguments are looked at
    delta = census_window(graph, delta, tie)
    lo, hi = checked_range(lo, hi, graph.m)
    if hi <= lo:
        return np.zeros(36, dtype=np.int64)
    if host_census(graph):
        from ..cpu import temporal as cpu_temporal  # numba: loaded only here

        counts = cpu_temporal.census(graph, delta, tie, lo, hi)
        last_run.clear()
        last_run.update(mode="census", host_census=True)
        return counts
    on, d = encode_limit(delta, graph.integer_times, time_span(graph))
    tie_code = TIE_STRICT if tie == "strict" else TIE_INPUT_ORDER
    return census_range(graph, lo, hi, tie=tie_code, window_on=on, delta=d)
