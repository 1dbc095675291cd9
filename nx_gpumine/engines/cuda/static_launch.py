"""Kernel launches of the CUDA static engine and the loops around them.

Every kernel of ``kernels/static_dfs.cu`` takes two structs by value: the graph view
(:data:`.static_device.GRAPH`, packed once per graph and device) and its launch struct
(:data:`DFS_LAUNCH` or :data:`TRIE_LAUNCH`, packed here per launch by field name; the module's
layout probe checks both against the compiler once per compile). Above the launches:

* :func:`dfs_launch`: one T-DFS launch, re-run with a bigger page pool until it does not run
  dry; :func:`count_dfs` (straggler records relaunched until none are left) and
  :func:`count_trie` (cuTS trie levels in chunks, DFS from the leaves);
* :func:`count_chunks`, :func:`exists_chunks`, :func:`enumerate_chunks`: the three queries over
  a list of root ranges (one range in memory; the out-of-core path's chunks,
  :mod:`.static_stream`);
* :func:`shape_reason` / :func:`count_shape`: the whole-range shape kernels (:mod:`.shapes`);
* :data:`last_run`: statistics of the last call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...errors import CapacityError
from ...inputs.static_graph import StaticGraph
from ...limits import check_host_room, check_result_rows, memory_budget, result_bytes
from ..checks import checked_total, overflow_error
from . import shapes
from ._runtime import (
    control_count,
    current_device,
    import_cupy,
    load_module,
    request_stop,
    wait_event,
)
from .kernel_args import KernelStruct
from .static_build import (
    C_FLAGS,
    C_NDUMP,
    C_OUTCUR,
    F_FOUND,
    F_OUTFULL,
    F_OVERFLOW,
    F_POOL,
    F_TRIEFULL,
    SRC_RECORDS,
    SRC_ROOTS,
    SRC_TRIE,
    WHOLE,
    WPB,
    check_part,
    resume_tasks,
    tail_defines,
    uses_trie,
)
from .static_device import (
    GRAPH,
    Ooc,
    Prep,
    Work,
    grow_pool,
    level_bound,
    prepare,
    root_tasks,
    work,
)

__all__ = [
    "DFS_LAUNCH",
    "TRIE_LAUNCH",
    "STRUCTS",
    "last_run",
    "finish_stats",
    "module",
    "dfs_launch",
    "count_dfs",
    "count_trie",
    "count_chunks",
    "exists_chunks",
    "enumerate_chunks",
    "shape_reason",
    "count_shape",
]

#: ``static_dfs``'s launch struct (``kernels/static_common.cuh``).
DFS_LAUNCH = KernelStruct("static_common.cuh", "DfsLaunch")
#: The trie kernels' launch struct (``kernels/static_common.cuh``).
TRIE_LAUNCH = KernelStruct("static_common.cuh", "TrieLaunch")
#: The structs ``static_dfs.cu``'s kernels take, checked by its layout probe.
STRUCTS = (GRAPH, DFS_LAUNCH, TRIE_LAUNCH)

_pack_dfs = DFS_LAUNCH.packer()
_pack_trie = TRIE_LAUNCH.packer()

#: Statistics of the last call in this process (kernel time by CUDA events, launches...).
last_run: dict[str, Any] = {}


def finish_stats(prep: Prep | None, **kw: Any) -> None:
    """Publish a call's statistics in :data:`last_run` (``prep``'s, then ``kw``)."""
    last_run.clear()
    if prep is not None:
        last_run.update(prep.stats)
    last_run.update(kw)


def module(prep: Prep, mode: int) -> Any:
    """The compiled ``static_dfs.cu`` of ``prep`` for ``mode`` (compiled once per call)."""
    if mode not in prep.mods:
        defs = {**prep.defines, "MODE": mode, **tail_defines(prep.plan, mode, prep.tail)}
        cm = load_module("static_dfs.cu", defs, structs=STRUCTS)
        prep.mods[mode] = cm
        prep.stats["compile_seconds"] = prep.stats.get("compile_seconds", 0.0) + cm.compile_seconds
    return prep.mods[mode]


def _work(prep: Prep, mode: int, npages: int | None = None, dumpcap: int = 0) -> Work:
    return work(prep, mode, module(prep, mode).kernel("static_dfs"), npages, dumpcap)


def _add_time(prep: Prep, start: Any, end: Any) -> None:
    cp = import_cupy()
    prep.stats["kernel_ms"] = prep.stats.get("kernel_ms", 0.0) + float(
        cp.cuda.get_elapsed_time(start, end)
    )


# ====================================================================== the DFS
def dfs_launch(
    prep: Prep,
    mode: int,
    w: Work,
    *,
    lo: int = 0,
    hi: int = 0,
    tl_entry: Any = None,
    tl_skip: Any = None,
    trie: tuple | None = None,
    records: tuple | None = None,
    dump: Any = None,
    timeout_ns: int = 0,
    out: Any = None,
    outcap: int = 0,
    resume: Any = None,
) -> np.ndarray:
    """One DFS launch, re-run with a bigger page pool until it does not run dry.

    Tasks: root entries (``tl_entry`` then ``[lo, hi)``), trie leaves (``trie``) or dumped
    records (``records = (buffer, n)``). ``dump``: record buffer for straggler splitting.
    Returns the control block (host copy).
    """
    cp = import_cupy()
    kern = module(prep, mode).kernel("static_dfs")
    src = {"src_mode": SRC_ROOTS, "recs": None, "nrec": 0}
    src.update(trie1=None, t2par=None, t2cand=None, t3par=None, t3cand=None, nleaves=0, tdepth=0)
    if trie is not None:
        t1, t2p, t2c, t3p, t3c, nleaves, depth = trie
        src.update(src_mode=SRC_TRIE, trie1=t1, t2par=t2p, t2cand=t2c, t3par=t3p, t3cand=t3c)
        src.update(nleaves=nleaves, tdepth=depth)
    elif records is not None:
        src.update(src_mode=SRC_RECORDS, recs=records[0], nrec=records[1])
    ntl = 0 if tl_entry is None else len(tl_entry)
    while True:
        w.ctl.fill(0)
        w.pt.fill(-1)
        if resume is not None:
            resume.fill(-1)
        launch = _pack_dfs(
            plan=prep.packed,
            lo=lo,
            hi=hi,
            tl_entry=tl_entry if ntl else None,
            tl_skip=tl_skip,
            ntl=ntl,
            ctl=w.ctl,
            dump=dump,
            dumpcap=w.dumpcap if dump is not None else 0,
            timeout_ns=timeout_ns,
            pt=w.pt,
            pool=w.pool,
            maxpg=w.maxpg,
            npages=w.npages,
            out=out,
            outcap=outcap,
            resume=resume,
            **src,
        )
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        kern((w.nwarps // WPB,), (WPB * 32,), (prep.view, launch))
        end.record()
        # Ctrl-C: every warp polls its flags (STOP_BITS) and stops; results are dropped
        wait_event(end, stop=lambda: request_stop(w.ctl, C_FLAGS, F_FOUND))
        _add_time(prep, start, end)
        prep.stats["launches"] = prep.stats.get("launches", 0) + 1
        prep.stats.setdefault("launch_ms", []).append(float(cp.cuda.get_elapsed_time(start, end)))
        ctl = w.ctl.get()
        if int(ctl[C_FLAGS]) & F_POOL:  # results of this launch are void: bigger pool, re-run
            grow_pool(prep, w)
            continue
        if int(ctl[C_FLAGS]) & F_OVERFLOW:
            raise overflow_error()
        return ctl


def count_dfs(
    prep: Prep,
    lo: int,
    hi: int,
    timeout_ms: float,
    pool_pages: int | None,
    dump_capacity: int,
    part: tuple[int, int] = WHOLE,
) -> int:
    """Count root entries ``[lo, hi)`` by the DFS, relaunching over straggler records; with
    ``part = (i, n)``, only that part of the heavy-first root tasks
    (:func:`~.static_device.root_tasks`)."""
    tau = int(timeout_ms * 1e6) if timeout_ms and timeout_ms > 0 else 0
    if tau and dump_capacity < 1:
        raise ValueError("dump_capacity must be >= 1")
    tasks = root_tasks(prep, lo, hi, part)
    w = _work(prep, 0, pool_pages, dump_capacity if tau else 0)
    total = 0
    rounds = records = 0
    if len(tasks):
        ctl = dfs_launch(
            prep, 0, w, tl_entry=tasks, dump=w.dumps[0] if tau else None, timeout_ns=tau
        )
        total = control_count(ctl)
        rounds = 1
        nrec, cur = int(ctl[C_NDUMP]), 0
        while nrec:
            records += nrec
            rounds += 1
            ctl = dfs_launch(
                prep, 0, w, records=(w.dumps[cur], nrec), dump=w.dumps[1 - cur], timeout_ns=tau
            )
            total += control_count(ctl)
            checked_total(total)
            nrec, cur = int(ctl[C_NDUMP]), 1 - cur
    checked_total(total)
    finish_stats(
        prep,
        strategy="dfs",
        warps=w.nwarps,
        pages=w.npages,
        rounds=rounds,
        records=records,
        tail=(int(prep.plan.tail_start), int(prep.plan.tail_kind)) if prep.tail else None,
    )
    return total


# ====================================================================== trie (cuTS)
def _trie_launch(kern: Any, prep: Prep, w: Work, cnt: Any, **fields: Any) -> None:
    """One trie-level launch (``static_trie_roots`` / ``static_trie_expand``); the fields
    not given are zero."""
    cnt.fill(0)
    w.ctl.fill(0)
    launch = _pack_trie(plan=prep.packed, cnt=cnt, ctl=w.ctl, **{**_TRIE_ZERO, **fields})
    kern((w.nwarps // WPB,), (WPB * 32,), (prep.view, launch))


_TRIE_ZERO = dict(d=0, lo=0, hi=0, step=1, trie1=None, t2par=None, t2cand=None, nparent=0)
_TRIE_ZERO.update(opar=None, ocand=None, cap=0)


def count_trie(
    prep: Prep,
    mode: int,
    lo: int,
    hi: int,
    budget: int,
    depth: int | None,
    pool_pages: int | None,
    part: tuple[int, int] = WHOLE,
) -> int:
    """Count (``mode`` 0) or test (1) root entries ``[lo, hi)`` through the cuTS trie: levels
    1..D built breadth-first in chunks of at most ``budget`` nodes, the DFS from the leaves.

    ``part = (i, n)``: only every ``n``-th root entry from ``lo + i`` (one part of a count
    split across devices: a hub's entries are dealt out between the parts, so they hold
    about equal work, each as one trie)."""
    cp = import_cupy()
    k = prep.k
    mod = module(prep, mode)
    k_roots = mod.kernel("static_trie_roots")
    k_exp = mod.kernel("static_trie_expand")
    g = prep.g
    owner, indices = g["owner"], g["indices"]
    i, step = check_part(part)
    lo += i  # the part's entries: lo, lo + step, ... below hi
    ent = cp.arange(lo, hi, step, dtype=cp.int64)
    b2 = level_bound(prep, 2, [owner[ent], indices[ent]])
    if prep.root_ok is not None:
        b2 = b2 * prep.root_ok[ent].astype(cp.int64)
    n = len(ent)
    del ent
    budget = max(int(budget), g["max_degree"], 1)
    cum = cp.cumsum(b2)
    w = _work(prep, mode, pool_pages)
    cnt = cp.zeros(1, dtype=cp.uint64)
    total = 0
    found = False
    start = 0
    chunks = 0
    while start < n:
        base = int(cum[start - 1]) if start > 0 else 0
        stop = int(cp.searchsorted(cum, cp.asarray([base + budget], dtype=cum.dtype), "right")[0])
        stop = max(stop, start + 1)
        stop = min(stop, n)
        chunks += 1
        # level 1: surviving root entries
        t1 = cp.empty(stop - start, dtype=cp.int64)
        ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
        ev0.record()
        a, b = lo + start * step, lo + stop * step
        _trie_launch(k_roots, prep, w, cnt, lo=a, hi=b, step=step, trie1=t1, cap=stop - start)
        n1 = int(cnt.get()[0])
        cap2 = int(cum[stop - 1]) - base
        n2 = 0
        t2p = t2c = t3p = t3c = None
        if n1 and cap2:
            t2p = cp.empty(cap2, dtype=cp.int32)
            t2c = cp.empty(cap2, dtype=cp.int32)
            _trie_launch(
                k_exp, prep, w, cnt, d=2, trie1=t1, nparent=n1, opar=t2p, ocand=t2c, cap=cap2
            )
            n2 = int(cnt.get()[0])
            if int(w.ctl.get()[C_FLAGS]) & F_TRIEFULL:  # pragma: no cover - bound is exact
                raise CapacityError("trie level 2 exceeded its upper bound (engine bug)")
        ev1.record()
        ev1.synchronize()
        _add_time(prep, ev0, ev1)
        if n2 == 0:
            start = stop
            continue
        d = 2
        want3 = k >= 5 and (depth is None or depth >= 3)
        if want3:
            par = t2p[:n2]
            e = t1[par]
            b3 = level_bound(prep, 3, [owner[e], indices[e], t2c[:n2]])
            cap3 = int(b3.sum())
            del e, par
            if 0 < cap3 <= budget:
                t3p = cp.empty(cap3, dtype=cp.int32)
                t3c = cp.empty(cap3, dtype=cp.int32)
                ev0.record()
                _trie_launch(
                    k_exp, prep, w, cnt, d=3, trie1=t1, t2par=t2p, t2cand=t2c, nparent=n2,
                    opar=t3p, ocand=t3c, cap=cap3,
                )  # fmt: skip
                ev1.record()
                ev1.synchronize()
                _add_time(prep, ev0, ev1)
                if int(w.ctl.get()[C_FLAGS]) & F_TRIEFULL:  # pragma: no cover
                    raise CapacityError("trie level 3 exceeded its upper bound (engine bug)")
                d = 3
            elif cap3 == 0:
                start = stop
                continue
        nleaves = n2 if d == 2 else int(cnt.get()[0])
        if nleaves:
            ctl = dfs_launch(prep, mode, w, trie=(t1, t2p, t2c, t3p, t3c, nleaves, d))
            if mode == 1:
                if int(ctl[C_FLAGS]) & F_FOUND:
                    found = True
                    break
            else:
                total = checked_total(total + control_count(ctl))
        prep.stats["trie_depth"] = max(prep.stats.get("trie_depth", 0), d)
        start = stop
    prep.stats["trie_chunks"] = chunks
    return int(found) if mode == 1 else total


# ====================================================================== the three queries
def count_chunks(
    graph: StaticGraph,
    plan: Any,
    ranges: list[tuple[int, int]],
    *,
    strategy: str,
    tail: bool,
    timeout_ms: float,
    trie_budget: int,
    trie_depth: int | None,
    page_log: int,
    pool_pages: int | None,
    dump_capacity: int,
    ooc: Ooc | None = None,
    part: tuple[int, int] = WHOLE,
) -> int:
    """Count the root ``ranges`` in turn by the DFS or the trie (the strategy's choice for a
    plan without a shape kernel); out of core (``ooc``) over the host-resident graph.

    ``part = (i, n)``: part ``i`` of ``n`` of the count of each range: the DFS takes its share
    of its heavy-first task list (:func:`~.static_device.root_tasks`), the trie every ``n``-th
    root entry of the range (:func:`count_trie`)."""
    trie = uses_trie(plan, strategy, tail, graph)
    prep = prepare(graph, plan, page_log, tail=tail and not trie, ooc=ooc)
    total = 0
    for a, b in ranges:
        if trie:
            total += count_trie(prep, 0, a, b, trie_budget, trie_depth, pool_pages, part)
        else:
            total += count_dfs(prep, a, b, timeout_ms, pool_pages, dump_capacity, part)
        checked_total(total)
    if trie or ooc is not None:  # count_dfs published a one-range DFS count's statistics
        finish_stats(prep, strategy="trie" if trie else "dfs")
    return total


def exists_chunks(
    prep: Prep,
    ranges: list[tuple[int, int]],
    strategy: str,
    trie_budget: int,
    pool_pages: int | None,
) -> bool:
    """Whether a match is rooted in one of ``ranges`` (tried in turn; warps stop early)."""
    found = False
    for a, b in ranges:
        if strategy == "trie" and prep.k >= 4:
            found = bool(count_trie(prep, 1, a, b, trie_budget, None, pool_pages))
            finish_stats(prep, strategy="trie")
        else:
            w = _work(prep, 1, pool_pages)
            ctl = dfs_launch(prep, 1, w, lo=a, hi=b)
            finish_stats(prep, strategy="dfs", warps=w.nwarps, pages=w.npages)
            found = bool(int(ctl[C_FLAGS]) & F_FOUND)
        if found:
            break
    return found


def _host_room(nbytes: int, rows: int) -> None:
    check_host_room(nbytes, rows, " (iter_subgraph_mappings)")


def enumerate_chunks(
    prep: Prep,
    ranges: list[tuple[int, int]],
    limit: int | None,
    buffer_rows: int,
    max_buffer_rows: int,
    pool_pages: int | None,
    count_range: Callable[[int, int], int],
) -> np.ndarray:
    """The matches rooted in ``ranges`` as an ``(n, k)`` int64 array (pattern-node columns).

    ``count_range(lo, hi)`` counts a range when the rows found so far and the next block would
    pass the host memory budget (the result is checked against it before it grows further).
    """
    cp = import_cupy()
    k = prep.k
    w = _work(prep, 2, pool_pages)
    resume = cp.empty(3 * w.nwarps, dtype=cp.int64)
    pieces: list[np.ndarray] = []
    got = rounds = 0
    for lo, hi in ranges:
        if limit is not None and got >= limit:
            break
        got, rounds = _enumerate_range(
            prep, w, resume, pieces, got, rounds, (lo, hi), limit, buffer_rows, max_buffer_rows,
            count_range,
        )  # fmt: skip
    rows = np.concatenate(pieces) if pieces else np.zeros((0, k), dtype=np.int32)
    if limit is not None:
        rows = rows[:limit]
    _host_room(rows.size * 8, len(rows))
    res = np.empty((len(rows), k), dtype=np.int64)
    res[:, np.asarray(prep.plan.order, dtype=np.int64)] = rows
    finish_stats(prep, strategy="dfs", rounds=rounds, warps=w.nwarps)
    return res


def _enumerate_range(
    prep: Prep,
    w: Work,
    resume: Any,
    pieces: list,
    got: int,
    rounds: int,
    span: tuple[int, int],
    limit: int | None,
    buffer_rows: int,
    max_buffer_rows: int,
    count_range: Callable[[int, int], int],
) -> tuple[int, int]:
    """Enumerate root entries ``span`` into ``pieces`` (host); return (rows, rounds)."""
    cp = import_cupy()
    k = prep.k
    lo, hi = span
    cap = int(buffer_rows)
    tl_e = np.zeros(0, dtype=np.int64)
    tl_s = np.zeros(0, dtype=np.int64)
    checked = False
    while True:
        rounds += 1
        want = cap if limit is None else min(cap, limit - got)
        if not checked and result_bytes(got + want, k) > memory_budget():
            # the rows so far and the next block pass the budget: count the range first
            total = count_range(*span)
            check_result_rows(total if limit is None else min(total, limit), k)
            checked = True
        out = cp.empty(max(want, 1) * k, dtype=cp.int32)
        ntl = len(tl_e)
        ctl = dfs_launch(
            prep,
            2,
            w,
            lo=lo,
            hi=hi,
            tl_entry=cp.asarray(tl_e) if ntl else None,
            tl_skip=cp.asarray(tl_s) if ntl else None,
            out=out,
            outcap=want,
            resume=resume,
        )
        nrows = min(int(ctl[C_OUTCUR]), want)
        if nrows:
            # this int32 piece now; the concatenated int32 copy and int64 rows at the end
            _host_room(nrows * k * 4 + (got + nrows) * k * 12, got + nrows)
            pieces.append(out[: nrows * k].get().reshape(nrows, k))
            got += nrows
        del out
        if not int(ctl[C_FLAGS]) & F_OUTFULL:
            break
        if limit is not None and got >= limit:
            break
        tl_e, tl_s, lo = resume_tasks(resume.get(), ctl, tl_e, tl_s, lo, hi)
        cap = min(cap * 4, int(max_buffer_rows))
    return got, rounds


# ====================================================================== shapes
def shape_parts(plan: Any) -> bool:
    """Whether the shape kernel of ``plan`` counts in parts (:func:`count_shape`): every
    shape but the book and the bowtie (they need each edge's whole triangle support)."""
    return getattr(plan, "shape", None) not in ("book", "bowtie")


def shape_reason(graph: StaticGraph, plan: Any) -> str | None:
    """Why the shape kernels cannot count ``plan`` on ``graph`` (None when they can)."""
    shape = getattr(plan, "shape", None)
    if shape is None:
        return "the pattern has no shape with a dedicated counting kernel"
    if graph.directed:
        return "shape counting needs an undirected graph"
    if plan.induced and graph.derived(("has_loops",), lambda: bool(np.asarray(graph.loop).any())):
        # an induced match maps no node onto a self-loop; the shape kernels ignore loops
        return "induced shape counting needs a graph without self-loops"
    if shape == "clique":
        return shapes.clique_supported(graph, int(plan.shape_arg))
    if shape in ("book", "bowtie"):
        return shapes.clique_supported(graph, 3)
    if shape == "cycle4":
        return None
    if shape == "pair_edge":
        return shapes.clique_supported(graph, 3)
    return f"unknown shape {shape!r}"  # pragma: no cover - plan and engine disagree


def count_shape(graph: StaticGraph, plan: Any, part: tuple[int, int] = WHOLE) -> int:
    """Count ``plan`` over the whole root range by its shape kernel (:func:`shape_reason` is
    None); with ``part = (i, n)``, part ``i`` of ``n`` of that count (the parts add up to it;
    the book's and the bowtie's counts have no parts: :func:`shape_parts`)."""
    stats: dict = {}
    had = graph.has_derived(("cuda_rank_graph", current_device()))
    if plan.shape == "clique":
        distinct = shapes.count_clique(graph, int(plan.shape_arg), stats, part)
    elif plan.shape == "book":
        if part != WHOLE:
            raise ValueError("the book count has no parts (it needs whole triangle supports)")
        distinct = shapes.count_book(graph, int(plan.shape_arg), stats)
    elif plan.shape == "bowtie":
        if part != WHOLE:
            raise ValueError("the bowtie count has no parts (it needs whole triangle supports)")
        distinct = shapes.count_bowtie(graph, stats)
    elif plan.shape == "pair_edge":
        mappings = shapes.count_pair_edge(graph, int(plan.shape_arg), stats, part)
        distinct, rest = divmod(mappings, int(plan.num_automorphisms))
        if rest:  # pragma: no cover - a pair-edge pattern's automorphisms divide its mappings
            raise AssertionError("pair-edge mappings not a multiple of the automorphisms")
    else:
        distinct = shapes.count_cycle4(graph, stats, part)
    if not had:
        stats["preprocess_seconds"] = (
            stats.get("preprocess_seconds", 0.0)
            + (shapes.device_rank_graph(graph)["build_seconds"])
        )
    res = distinct if plan.distinct else distinct * int(plan.num_automorphisms)
    checked_total(res)
    finish_stats(None, **stats)
    return res
