"""CUDA static subgraph-matching engine (T-DFS warp stacks, shape counting, cuTS trie), via CuPy.

Interface (``docs/architecture.md``)::

    count(graph, plan, lo=0, hi=None) -> int
    enumerate_matches(graph, plan, lo=0, hi=None, limit=None) -> np.ndarray  # (n, k) int64
    exists(graph, plan, lo=0, hi=None) -> bool

It walks the plan it is given, of 3+ nodes (``engines.contract.STATIC_MIN_K``; a smaller plan
raises ValueError: execution answers 1- and 2-node plans, and chooses to count a mapping plan
through its distinct sibling). How it walks the plan (kernels in ``kernels/static_dfs.cu`` and
``kernels/static_count.cu``, design and measurements in ``docs/cuda_static.md``):

* **Shapes** (``plan.shape``; counting over the whole root range): k-cliques by the degree-
  ordered DAG and bitmaps, books (the diamond is the book of 2) and bowties by triangle edge
  support, 4-cycles by ranked wedges (:mod:`.shapes`). Nothing is enumerated.
* **T-DFS** (every other plan, and every enumeration): a persistent grid, one warp per task (a
  root edge = a union-CSR entry, levels 0/1) with its own stack; a level's candidates come from
  the shortest backward-neighbour list, cut below the largest earlier image the symmetry
  restrictions require, or from a reused raw set, and are filtered warp-cooperatively (binary
  searches in the other lists, direction/label checks, non-adjacency, node filters,
  injectivity, symmetry). Stack levels are *paged* (pages from a pool with one atomic each;
  an exhausted pool re-runs the launch with a bigger one), so no degree overflows a level.
* **Count tail**: counting stops at ``plan.tail_start`` and adds the tail's formula from
  candidate-set sizes (falling factorial, binomial, or ``|A||B| - |A & B|``).
* **Load balance** (count mode): root tasks are ordered heaviest first by an estimate
  ``deg(u) + deg(v)``; a task running longer than ``timeout_ms`` gives away the candidates of
  its first level it has not started, as *records* (a path prefix each) in a buffer, and
  finishes the branch it is in (T-DFS's split); the host relaunches over the records (each
  round splitting stragglers again) until none are left. No queue is shared while the kernel
  runs, so nothing serialises on one word.
* **cuTS trie** (``strategy="trie"``): levels 1..D (D = 2 or 3) built breadth-first as a trie
  in chunks bounded by ``trie_budget``; its leaves are the DFS tasks.
* Counts are 64-bit per warp, carried into the control block's 128-bit count before they would
  wrap (a tail formula past 64 bits is evaluated exactly there); past 2**128 - 1
  :class:`CapacityError`;
  ``exists`` stops every warp at the first match; enumeration writes rows through an atomic
  cursor and, when the buffer fills, warps stop and record where their task stopped (matches
  already written are skipped on resume); the host copies the rows out and relaunches.

The engine's modules, by role: :mod:`.static_build` (plan packing, kernel macros, sizes, the
tuning: :func:`~.static_build.current_tuning`), :mod:`.static_device` (graph upload, per-plan
and work buffers), :mod:`.static_launch` (the kernel launches and their argument structs),
:mod:`.static_stream` (the out-of-core path) and this facade (the engine contract,
``engines/contract.py``'s ``StaticEngine``, and its hooks).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import EngineUnavailableError
from ...inputs.static_graph import StaticGraph
from ..checks import checked_limit, checked_range
from ..contract import STATIC_MIN_K
from . import static_build
from ._runtime import import_cupy, oom_retry
from .static_build import (
    MAX_K,
    STRATEGIES,
    check_k,
    check_part,
    device_need,
    unsupported,
    uses_trie,
)
from .static_device import drop_work, prepare
from .static_launch import (
    count_chunks,
    count_shape,
    enumerate_chunks,
    exists_chunks,
    last_run,
    shape_parts,
    shape_reason,
)
from .static_stream import count_ooc, enumerate_ooc, exists_ooc, residency

__all__ = [
    "count",
    "enumerate_matches",
    "exists",
    "unsupported",
    "device_need",
    "whole_range_count",
    "count_part",
    "search_order",
    "last_run",
    "MAX_K",
]


def _page_log(page_log: int | None) -> int:
    return static_build.current_tuning().page_log if page_log is None else int(page_log)


def _roots(
    graph: StaticGraph, plan: Any, lo: int, hi: int | None, strategy: str
) -> tuple[int, int] | None:
    """The checked root range of a count or existence test; None when it holds no match."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
    check_k(plan)
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if plan.impossible or hi <= lo:
        last_run.clear()
        return None
    return lo, hi


def whole_range_count(graph: StaticGraph, plan: Any) -> bool:
    """Whether :func:`count` over every root of ``graph`` runs a whole-range kernel that
    :func:`count_part` cannot split: the book's (the diamond's) and the bowtie's, which need
    every edge's whole triangle support.

    The other shape kernels (cliques, 4-cycles, pair-edges; :mod:`.shapes`) count the whole
    root range at once too, but in parts (their heavy-first vertex lists dealt out), so a
    caller with several devices splits them with :func:`count_part`; a book or bowtie count
    it runs in one call. Builds the device rank graph of ``graph`` on the current device when
    it is not there yet.

    False when the count would run out of core under the device budget in force (shape
    kernels need the graph in device memory); decided as :func:`count` decides it.
    """
    if plan.impossible or int(plan.k) < STATIC_MIN_K or unsupported(plan):
        return False
    if residency(graph, plan, None, "managed", "count", shape=True) is not None:
        return False
    return shape_reason(graph, plan) is None and not shape_parts(plan)


def search_order(graph: StaticGraph, plan: Any) -> str:
    """The vertex order a count of ``plan`` runs fastest in (the engine hook execution asks
    before it moves a query to the degree-ordered copy, ``execution.static.on_search_copy``).

    ``"id"`` (the graph's own ids) for the plans a count sends to the cuTS trie
    (:func:`~.static_build.uses_trie`: induced plans of 4+ nodes, among others), ``"degree"``
    for the others. The trie's work is the number of prefixes it lists level by level, which
    the order changes query by query: on pl1m (H200, STMatch's induced kit queries) degree
    order made Q1-Q3 2-7x slower and Q5-Q9 1.1-10x faster. The DFS walks lists cut above an
    id, which degree order shortens: the non-induced queries Q1, Q3, Q5-Q7, Q9 and Q11 ran
    3-33x faster (Q2 1.7x slower, Q4 even) and T-DFS's P5 on pl10m 2.1x
    (``benchmarks/results/session22_2026-11-28/call3_search_order``).
    A plan a shape kernel counts stays on the graph's ids too: the kernels rank the vertices
    by degree themselves (:func:`.shapes.rank_graph`), so a copy would be built for nothing.
    """
    if plan.shape is not None and shape_reason(graph, plan) is None:
        return "id"
    if plan.shape is None and uses_trie(plan, "auto", True, graph):
        return "id"
    return "degree"


@oom_retry({"dump_capacity": 1 << 21, "trie_budget": 1 << 26}, on_oom=drop_work, what="count")
def count(
    graph: StaticGraph,
    plan: Any,
    lo: int = 0,
    hi: int | None = None,
    *,
    strategy: str = "auto",
    timeout_ms: float = 5.0,
    trie_budget: int = 1 << 26,
    trie_depth: int | None = None,
    page_log: int | None = None,
    pool_pages: int | None = None,
    dump_capacity: int = 1 << 21,
    tail: bool = True,
    max_device_bytes: int | None = None,
    placement: str = "pinned",
    part: tuple[int, int] = (0, 1),
) -> int:
    """Count the matches the plan admits among root entries ``[lo, hi)``.

    Parameters
    ----------
    graph : StaticGraph
        Data graph (its arrays are uploaded once and kept with it).
    plan : StaticPlan
        Matching plan of 3+ nodes (mappings or, with symmetry restrictions, distinct
        subgraphs), walked as it is: counting a mapping plan as distinct occurrences times
        ``|Aut(P)|`` is execution's choice (``plan.static_plan.distinct_sibling``); a shape
        kernel counts a mapping plan's distinct occurrences times ``|Aut(P)|`` itself.
    lo, hi : int
        Root task range of union-CSR entries (default: all).
    strategy : {"auto", "dfs", "trie", "shape"}
        ``"shape"``: the plan's shape kernel (cliques, books, bowties, 4-cycles; whole range
        only);
        ``"dfs"``: T-DFS warp stacks from root edges with the count tail; ``"trie"``: cuTS
        trie for the first BFS levels, then DFS from its leaves (patterns of 4+ nodes).
        ``"auto"`` picks the shape kernel when the plan has a shape the graph allows, else
        ``"dfs"`` for plans whose count tail spans 2+ levels (and 3-node plans), else
        ``"trie"`` (see ``docs/cuda_static.md``, "Strategy choice").
    timeout_ms : float
        Straggler timeout of the DFS: a task running longer dumps its unexplored work for the
        next launch; 0 disables splitting.
    trie_budget : int
        Largest trie level (in nodes) built at once; root edges are chunked to stay below it.
    trie_depth : int, optional
        Deepest trie level (2 or 3); default 3 when it fits and k >= 5.
    page_log, pool_pages, dump_capacity : int
        Tuning (defaults are right for normal use; tests use them to force the rare paths):
        ``page_log`` (stack page = ``2**page_log`` ints; default: the current tuning's),
        ``pool_pages`` (initial page pool; it grows 4x on exhaustion and the launch is re-run),
        ``dump_capacity`` (records a launch may write when splitting stragglers; a full buffer
        makes warps keep their work).
    tail : bool
        Finish matches with the plan's count tail (default); ``False`` walks every level.
    max_device_bytes : int, optional
        Device memory the call may use for graph data and working memory (default: the
        configured budget, see :mod:`nx_gpumine.device_limits`; None there: total device memory
        minus a margin). When
        the estimated in-memory need exceeds it, the graph's per-entry arrays stay in host
        memory read by the kernels and root ranges are processed in chunks
        (``docs/out_of_core.md``); shape kernels then give way to the DFS / trie.
    placement : {"pinned", "managed"}
        Out-of-core host memory: pinned zero-copy memory (default), or managed memory with the
        hottest entry blocks cached on the device (its first GPU run of 2026-11-25 hit an
        illegal address: see docs/out_of_core.md).
    part : (int, int)
        ``(i, n)``: part ``i`` of ``n`` of the count, the kernel's heavy-first work list
        dealt out in snake order (:func:`count_part`); default the whole count.

    Returns
    -------
    int
        Number of matches (past 2**128 - 1 raises :class:`CapacityError`).

    Raises
    ------
    ValueError
        A plan of fewer than 3 nodes (execution answers those), a bad strategy or range.
    """
    part = check_part(part)
    span = _roots(graph, plan, lo, hi, strategy)
    if span is None:
        return 0
    lo, hi = span
    page_log = _page_log(page_log)
    full = lo == 0 and hi == len(graph.indices)
    ooc = residency(
        graph,
        plan,
        max_device_bytes,
        placement,
        "count",
        page_log=page_log,
        dump_rows=dump_capacity,
        trie_budget=trie_budget,
        shape=full and strategy in ("auto", "shape"),
    )
    settings = dict(strategy=strategy, tail=tail, timeout_ms=timeout_ms, trie_depth=trie_depth)
    settings.update(page_log=page_log, pool_pages=pool_pages, dump_capacity=dump_capacity)
    settings.update(part=part)
    if ooc is not None:
        if strategy == "shape":
            raise EngineUnavailableError(
                "shape kernels run with the graph in device memory; this graph exceeds the"
                " device memory budget (use strategy='auto', 'dfs' or 'trie')"
            )
        return count_ooc(graph, plan, ooc, lo, hi, **settings)
    if strategy in ("auto", "shape") and full:
        reason = shape_reason(graph, plan)
        if reason is None:
            if part[1] > 1 and not shape_parts(plan):  # book, bowtie: part 0 counts it whole
                return count_shape(graph, plan) if part[0] == 0 else 0
            return count_shape(graph, plan, part)
        if strategy == "shape":
            raise EngineUnavailableError(reason)
    elif strategy == "shape":
        raise EngineUnavailableError("shape counting covers the whole root range of a plan")
    return count_chunks(graph, plan, [(lo, hi)], trie_budget=trie_budget, **settings)


def count_part(graph: StaticGraph, plan: Any, part: int, parts: int) -> int:
    """Part ``part`` of ``parts`` of the count of ``plan`` over every root (the parts' counts
    add up to :func:`count`'s); for several devices, one part each.

    Each kernel deals its heavy-first work list out in snake order
    (:func:`~.static_build.deal`): the T-DFS its root tasks, the clique, 4-cycle and pair-edge
    kernels their vertex lists (:mod:`.shapes`); the trie takes every ``parts``-th root entry
    (a hub's entries spread over the parts). So the parts hold about
    equal work without a shared queue, and each runs as one count (one launch and its
    straggler rounds), as on one device. A book or bowtie count has no
    parts (:func:`whole_range_count`): part 0 counts it whole, the others are 0.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    plan : StaticPlan
        A plan of 3+ nodes.
    part, parts : int
        Which part, of how many (``0 <= part < parts``).

    Returns
    -------
    int
    """
    return count(graph, plan, part=check_part((part, parts)))


@oom_retry(on_oom=drop_work, what="existence test")
def exists(
    graph: StaticGraph, plan: Any, lo: int = 0, hi: int | None = None, *, strategy: str = "auto",
    trie_budget: int = 1 << 26, page_log: int | None = None, pool_pages: int | None = None,
    max_device_bytes: int | None = None, placement: str = "pinned",
) -> bool:  # fmt: skip
    """True if at least one match exists among root entries ``[lo, hi)`` (warps stop early).

    Parameters are those of :func:`count` (``strategy="trie"`` builds the trie first;
    every other value walks the DFS; out of core, root chunks are tried in turn).

    Returns
    -------
    bool
    """
    span = _roots(graph, plan, lo, hi, strategy)
    if span is None:
        return False
    lo, hi = span
    page_log = _page_log(page_log)
    ooc = residency(
        graph, plan, max_device_bytes, placement, "exists", page_log=page_log,
        trie_budget=trie_budget,
    )  # fmt: skip
    if ooc is not None:
        return exists_ooc(
            graph, plan, ooc, lo, hi, strategy=strategy, page_log=page_log, pool_pages=pool_pages
        )
    prep = prepare(graph, plan, page_log)
    return exists_chunks(prep, [(lo, hi)], strategy, trie_budget, pool_pages)


@oom_retry({"buffer_rows": 1 << 20, "max_buffer_rows": 1 << 26}, on_oom=drop_work, what="listing")
def enumerate_matches(
    graph: StaticGraph, plan: Any, lo: int = 0, hi: int | None = None, limit: int | None = None,
    *, buffer_rows: int = 1 << 20, max_buffer_rows: int = 1 << 26, page_log: int | None = None,
    pool_pages: int | None = None, max_device_bytes: int | None = None, placement: str = "pinned",
) -> np.ndarray:  # fmt: skip
    """All matches among root entries ``[lo, hi)`` as an ``(n, k)`` int64 array.

    Columns are in pattern-node order (column ``a`` = image of pattern node ``a``); row order
    is unspecified. Rows are written on the device through an atomic cursor; when the buffer
    fills, warps stop cleanly and record where their task stopped, the host copies the rows
    out (spill) and relaunches the unfinished tasks with a buffer up to ``max_buffer_rows``.

    Parameters
    ----------
    graph, plan, lo, hi
        As in :func:`count`.
    limit : int, optional
        Stop after this many rows (exactly ``min(limit, total)`` rows are returned).
    buffer_rows, max_buffer_rows : int
        Initial and largest device output buffer (rows).
    page_log, pool_pages : int
        Tuning, see :func:`count`.
    max_device_bytes, placement
        Device memory budget and out-of-core placement, see :func:`count` (out of core the
        output buffer is capped by the budget and root chunks run in turn).

    Returns
    -------
    numpy.ndarray
        int64 ``(n, k)``.

    Raises
    ------
    CapacityError
        The rows found do not fit the free host memory (pass ``limit``).
    ValueError
        A plan of fewer than 3 nodes (execution answers those), a negative ``limit``, a bad
        range or buffer size.
    """
    check_k(plan)
    k = int(plan.k)
    lo, hi = checked_range(lo, hi, len(graph.indices))
    limit = checked_limit(limit)
    if buffer_rows < 1 or max_buffer_rows < buffer_rows:
        raise ValueError("need 1 <= buffer_rows <= max_buffer_rows")
    import_cupy()
    if plan.impossible or hi <= lo or limit == 0:
        return np.zeros((0, k), dtype=np.int64)
    page_log = _page_log(page_log)
    ooc = residency(graph, plan, max_device_bytes, placement, "enumeration", page_log=page_log)
    if ooc is not None:
        return enumerate_ooc(
            graph, plan, ooc, lo, hi, limit=limit, buffer_rows=buffer_rows,
            max_buffer_rows=max_buffer_rows, page_log=page_log, pool_pages=pool_pages,
        )  # fmt: skip
    prep = prepare(graph, plan, page_log)

    def count_range(a: int, b: int) -> int:
        return count(graph, plan, a, b)

    return enumerate_chunks(
        prep, [(lo, hi)], limit, buffer_rows, max_buffer_rows, pool_pages, count_range
    )
