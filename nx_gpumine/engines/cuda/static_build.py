"""Host-side building blocks of the CUDA static engine: plan packing, kernel macros, sizes.

Everything here is host arithmetic on the plan and the graph (no device memory is touched;
:func:`device_need` only asks the current device for its SM count):

* the constants the kernels share with the host (control-block words, flag bits, task
  sources: ``kernels/static_common.cuh`` and ``kernels/static_dfs.cu``);
* :class:`StaticTuning`, the switches that tune launches (:func:`current_tuning`);
* :func:`pack_plan` (the plan as the kernels' int array) and :func:`kernel_defines` (the
  module's compile-time macros);
* the strategy and size decisions: :func:`auto_trie`, :func:`device_need`, :func:`chunks`;
* :func:`resume_tasks`, the tasks an enumeration launch left when its buffer filled.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...inputs.static_graph import StaticGraph
from ...plan.candidate_sources import hoist_levels, reuse_sources
from ...plan.static_plan import size_needs
from ..contract import STATIC_MIN_K
from . import memory
from ._runtime import import_cupy, sm_count
from .tuning import TuningSlot

__all__ = [
    "MAX_K",
    "WPB",
    "StaticTuning",
    "DEFAULT_TUNING",
    "SLOT",
    "current_tuning",
    "tuned",
    "unsupported",
    "check_k",
    "pack_plan",
    "kernel_defines",
    "tail_defines",
    "auto_trie",
    "mean_list",
    "uses_trie",
    "WARP_LANES",
    "max_degree",
    "device_need",
    "chunks",
    "resume_tasks",
    "WHOLE",
    "check_part",
    "deal",
]

#: Largest pattern the kernels take (per-level sets of earlier levels are 32-bit masks).
MAX_K = 32
WPB = 8  # warps per block (matches kernels/static_common.cuh)
C_COUNT, C_FLAGS, C_ROOTCUR, C_OUTCUR, C_NDUMP, C_TRIECUR = 0, 1, 2, 8, 9, 11
F_POOL, F_OVERFLOW, F_FOUND, F_OUTFULL, F_TRIEFULL = 1, 2, 4, 8, 16
SRC_ROOTS, SRC_TRIE, SRC_RECORDS = 0, 1, 2
MODES = {"count": 0, "exists": 1, "enumerate": 2}
STRATEGIES = ("auto", "dfs", "trie", "shape")


@dataclass(frozen=True)
class StaticTuning:
    """Switches that tune the static engine's launches (defaults: :data:`DEFAULT_TUNING`).

    The values are part of the keys of what they shape (work buffers, the out-of-core graph
    copy, the shape kernels' vertex lists), so a new tuning object never meets data built under
    another. The engine reads :func:`current_tuning` at call time; tests and benchmarks swap the
    whole value (:func:`tuned`) instead of patching module constants.

    Parameters
    ----------
    page_log : int
        Stack page = ``2**page_log`` ints (the default of the ``page_log`` argument).
    hot_block_entries : int
        Granularity (union-CSR entries) of the out-of-core hot/cold split of per-entry arrays
        (:mod:`.hostmem`).
    c4_light_bound : int
        Wedge upper bound of a 4-cycle vertex handled by a warp's shared hash table (1024
        slots, at most half full); heavier vertices take a block each.
    c4_smem : int
        Dynamic shared memory (bytes) of a heavy 4-cycle block.
    pair_counter_bytes : int
        Most device memory the pair-edge blocks' counter rows may take.
    heavy_single : int
        A DFS count's warps take the head of its heavy-first root list one task at a time,
        ``heavy_single`` tasks per warp of the grid (``static_dfs.cu`` ``HEAVY_SINGLE``); the
        rest in chunks of 32. 0: every task in chunks of 32, so one warp runs the 32 heaviest
        roots in turn (a straggler splits after its timeout, but the chunk's other roots
        wait). Measured on an H200 (``benchmarks/probe_heavy_single.py``, 27 cells of the
        static peer benchmark): 64 against 0, P3 0.05-0.46x and P6 0.05-0.43x the kernel time,
        no other cell changed by more than 2% (geomean 0.65x; 4: 0.75x, 16: 0.68x).
    full_raw_reuse : bool
        Induced plans: a level agreeing with an earlier level ``r`` on every level before
        ``r`` reads ``r``'s candidates that passed all those checks, non-adjacency included
        (:func:`~nx_gpumine.plan.candidate_sources.full_reuse`), not a backward-neighbour
        intersection it filters again: STMatch's set difference, kept for the levels that
        share it (issue 33's induced queries). Taken only where the level has no neighbour
        among ``r``'s later levels (``reuse_sources(..., same_lists=True)``). Measured on an
        H200 beside STMatch on facebook: Q9 from over 30 s to 3.1 s; taken everywhere it
        would make Q1 2.5x slower, so it is not.
    hoist_sets : bool
        Induced plans: a level not adjacent to the level before it reads a set that level's
        extension built once, its candidates passing every check against the levels before
        (:func:`~nx_gpumine.plan.candidate_sources.hoist_levels`, STMatch's code motion),
        and tests the level before it alone.
    """

    page_log: int = 10
    hot_block_entries: int = 1 << 19
    c4_light_bound: int = 512
    c4_smem: int = 96 * 1024
    pair_counter_bytes: int = 2 << 30
    heavy_single: int = 64
    full_raw_reuse: bool = True
    hoist_sets: bool = True


#: The measured settings: what the engine runs with unless a caller swaps them.
DEFAULT_TUNING = StaticTuning()
#: The settings in force (:class:`~.tuning.TuningSlot`).
SLOT = TuningSlot(DEFAULT_TUNING)
#: The settings the engine's calls read now (:data:`DEFAULT_TUNING` unless swapped).
current_tuning = SLOT.current
#: ``with tuned(page_log=8): ...``: a block with some settings changed.
tuned = SLOT.tuned


def unsupported(plan: Any) -> str | None:
    """Why the CUDA kernels cannot run ``plan`` (None when they can)."""
    if int(plan.k) > MAX_K:
        return f"the CUDA engine matches patterns of at most {MAX_K} nodes (got {plan.k})"
    return None


def check_k(plan: Any) -> None:
    """Refuse a 1- or 2-node plan: execution answers those from the plan's masks."""
    if int(plan.k) < STATIC_MIN_K:
        raise ValueError(
            f"the CUDA static engine walks plans of at least {STATIC_MIN_K} nodes (got k ="
            f" {plan.k}); 1- and 2-node plans are answered by execution"
            " (nx_gpumine.execution.static.small_plan_result, through run_static)"
        )


# ====================================================================== plan packing
#: ``P_STORERAW`` values (``static_common.cuh`` ``eval_cand``): the raw set a later level
#: reuses passes the backward-neighbour checks (RAW_ADJ) or every check against an earlier
#: level (RAW_ALL).
RAW_ADJ, RAW_ALL = 1, 2


def pack_plan(plan: Any, full_raw_reuse: bool = False, hoist_sets: bool = False) -> np.ndarray:
    """Pack a StaticPlan into the int32 layout of ``static_common.cuh``.

    ``full_raw_reuse`` (induced plans; :attr:`StaticTuning.full_raw_reuse`): a level whose
    checks against every level before some level ``r >= 2`` equal ``r``'s, and that has no
    neighbour among levels ``r`` and after, reads ``r``'s candidates that passed all of them,
    non-adjacency included (:func:`~nx_gpumine.plan.candidate_sources.reuse_sources` with
    ``same_lists``), instead of the plan's reuse of a backward-neighbour intersection.

    ``hoist_sets`` (induced plans; :attr:`StaticTuning.hoist_sets`): the levels
    :func:`~nx_gpumine.plan.candidate_sources.hoist_levels` names read the set the level
    before them built (``P_HOIST``, ``P_HOISTS``).
    """
    k = int(plan.k)
    size = 13 * k + 3 * k * k + 1
    p = np.zeros(size, dtype=np.int32)
    p[0:k] = plan.node_label
    p[k : 2 * k] = plan.loop_req
    p[2 * k : 3 * k] = plan.loop_label
    p[3 * k : 4 * k] = plan.min_degree
    reuse, below = reuse_sources(plan, full_raw_reuse, same_lists=True)
    code = np.full((k, k), -1, dtype=np.int32)
    outl = np.full((k, k), -1, dtype=np.int32)
    inl = np.full((k, k), -1, dtype=np.int32)
    bn = np.zeros(k, dtype=np.int64)
    chk = np.zeros(k, dtype=np.int64)
    sym = np.zeros(k, dtype=np.int64)
    for i in range(k):
        for c in range(int(plan.chk_ptr[i]), int(plan.chk_ptr[i + 1])):
            j = int(plan.chk_level[c])
            if not 0 <= j < i:
                raise ValueError(f"plan check of level {i} against level {j} is not earlier")
            if code[i, j] != -1:
                raise ValueError(f"plan has two checks of level {i} against level {j}")
            code[i, j] = plan.chk_code[c]
            outl[i, j] = plan.chk_out_label[c]
            inl[i, j] = plan.chk_in_label[c]
            chk[i] |= 1 << j
        for c in range(int(plan.bn_ptr[i]), int(plan.bn_ptr[i + 1])):
            j = int(plan.bn_level[c])
            if code[i, j] <= 0:
                raise ValueError(f"backward neighbour {j} of level {i} has no edge check")
            bn[i] |= 1 << j
        for c in range(int(plan.sym_ptr[i]), int(plan.sym_ptr[i + 1])):
            sym[i] |= 1 << int(plan.sym_level[c])
    for i in range(1, k):
        if bn[i] == 0:
            raise ValueError(f"plan level {i} has no backward neighbour (order not connected)")
    store_raw = np.zeros(k, dtype=np.int64)
    skip = np.zeros(k, dtype=np.int64)
    for i in range(k):
        if below[i] >= 2:
            store_raw[below[i]] = RAW_ALL
            skip[i] = (1 << int(below[i])) - 1  # every level before it: checked in that set
    for i in range(k):
        r = int(reuse[i])
        if r >= 2 and below[i] < 2:
            if r >= i or (bn[r] & ~bn[i]):
                raise ValueError(f"plan reuse[{i}] = {r} does not satisfy BN({r}) ⊆ BN({i})")
            store_raw[r] = RAW_ADJ
            skip[i] = bn[r]
    p[4 * k : 5 * k] = reuse
    p[5 * k : 6 * k] = store_raw
    # bit 31 masks must fit in int32 two's complement
    p[6 * k : 7 * k] = sym.astype(np.uint32).view(np.int32)
    p[7 * k : 8 * k] = bn.astype(np.uint32).view(np.int32)
    p[8 * k : 9 * k] = chk.astype(np.uint32).view(np.int32)
    p[9 * k : 10 * k] = skip.astype(np.uint32).view(np.int32)
    p[10 * k : 10 * k + k * k] = code.ravel()
    p[10 * k + k * k : 10 * k + 2 * k * k] = outl.ravel()
    p[10 * k + 2 * k * k : 10 * k + 3 * k * k] = inl.ravel()
    p[10 * k + 3 * k * k] = 1 if plan.induced else 0
    p[10 * k + 3 * k * k + 1 : 11 * k + 3 * k * k + 1] = size_needs(plan)
    hoist = plan_hoists(plan, StaticTuning(full_raw_reuse=full_raw_reuse, hoist_sets=hoist_sets))
    hoists = np.zeros(k, dtype=np.int64)
    for i in np.flatnonzero(hoist >= 0):
        hoists[hoist[i]] |= 1 << int(i)
    p[11 * k + 3 * k * k + 1 : 12 * k + 3 * k * k + 1] = hoist
    p[12 * k + 3 * k * k + 1 :] = hoists.astype(np.uint32).view(np.int32)
    return p


def _uses_node_labels(plan: Any) -> bool:
    return bool((np.asarray(plan.node_label) != -1).any())


def _uses_edge_labels(plan: Any) -> bool:
    return bool(
        (np.asarray(plan.chk_out_label) != -1).any()
        or (np.asarray(plan.chk_in_label) != -1).any()
        or (np.asarray(plan.loop_label) != -1).any()
    )


def kernel_defines(graph: StaticGraph, plan: Any, page_log: int) -> dict[str, int]:
    """The macros of ``static_dfs.cu`` fixed by the graph and the plan (not the mode/tail)."""
    nlab = int(graph.node_label is not None and _uses_node_labels(plan))
    elab = int(graph.out_label is not None and _uses_edge_labels(plan))
    echk = int(bool(getattr(plan, "edge_checks", True)) or bool(elab) or bool(plan.induced))
    tuning = current_tuning()
    return {
        "K": int(plan.k),
        "NLAB": nlab,
        "ELAB": elab,
        "ECHK": echk,
        "LOGP": int(page_log),
        "HEAVY_SINGLE": int(tuning.heavy_single),
        "HOIST": int(bool((plan_hoists(plan, tuning) >= 0).any())),
    }


def plan_hoists(plan: Any, tuning: StaticTuning) -> np.ndarray:
    """``P_HOIST`` of ``plan`` under ``tuning``: per level, the level that builds its hoisted
    set, or -1 (int64 ``[k]``, read-only; kept per plan and switch, since every call's module
    key reads it through :func:`kernel_defines`)."""
    if not (tuning.hoist_sets and plan.induced):
        return np.full(int(plan.k), -1, dtype=np.int64)
    kept = _HOISTS.setdefault(plan, {})
    full = bool(tuning.full_raw_reuse)
    if full not in kept:
        got = hoist_levels(plan, *reuse_sources(plan, full, same_lists=True))
        got.setflags(write=False)
        kept[full] = got
    return kept[full]


#: :func:`plan_hoists` of each plan alive, per ``full_raw_reuse`` value.
_HOISTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def tail_defines(plan: Any, mode: int, tail: bool) -> dict[str, int]:
    """TAILT / TAILKIND of a module: the plan's count tail in count mode, else the last level."""
    k = int(plan.k)
    start = int(getattr(plan, "tail_start", -1))
    kind = int(getattr(plan, "tail_kind", 0))
    if mode != 0 or not tail or not 2 <= start < k or kind not in (1, 2, 3):
        return {"TAILT": k - 1, "TAILKIND": 1}
    return {"TAILT": start, "TAILKIND": kind}


#: Lanes of a warp: the DFS tests one candidate per lane, so levels whose candidate lists are
#: shorter than this leave most lanes idle, while the trie's breadth-first levels keep them busy.
WARP_LANES = 32


def mean_list(graph: StaticGraph, plan: Any) -> float:
    """Expected length of the candidate lists the DFS walks below the root edge (levels
    2..k-1): the mean neighbour's degree (``sum d^2 / sum d``) times the share of the
    vertices carrying the level's node label (1 for an unlabelled level: label-grouped graphs
    cut lists to the label's range, others filter their candidates by it). Kept per graph and
    label; ``inf`` for plans of fewer than 3 levels."""
    k = int(plan.k)
    if k < 3 or graph.n == 0:
        return float("inf")

    def stats() -> tuple[float, np.ndarray | None]:
        deg = np.diff(graph.indptr).astype(np.float64)
        total = float(deg.sum())
        nbr = float((deg * deg).sum() / total) if total else 0.0
        share = None
        if graph.node_label is not None:
            share = np.bincount(graph.node_label, minlength=len(graph.node_vocab)) / graph.n
        return nbr, share

    nbr, share = graph.derived(("list_stats",), stats)
    lengths = []
    for lab in np.asarray(plan.node_label)[2:]:
        frac = 1.0
        if lab >= 0 and share is not None:
            frac = float(share[lab]) if lab < len(share) else 0.0
        lengths.append(nbr * frac)
    return float(np.mean(lengths))


def auto_trie(plan: Any, tail: bool, graph: StaticGraph | None = None) -> bool:
    """Strategy choice for plans without a shape kernel (docs/cuda_static.md).

    The DFS alone finishes a match with the count tail, so it takes the plans whose tail
    spans 2+ levels, unless the tail spans exactly 2 levels and the candidate lists are short
    (:func:`mean_list` below :data:`WARP_LANES`: labelled plans, issue 33, where the trie was
    5-50x faster); the cuTS trie takes the other plans of 4+ nodes (measured faster there: its
    breadth-first levels give every warp the same amount of work per leaf). A tail of 3+
    levels stays with the DFS however short the lists: it counts a product of choices the trie
    would list prefix by prefix (a 30-leaf star in a 40-leaf star: C(40, 30) prefixes).
    """
    if int(plan.k) < 4:
        return False
    span = int(plan.k) - int(plan.tail_start)
    if not (tail and span >= 2):
        return True
    return span == 2 and graph is not None and mean_list(graph, plan) < WARP_LANES


def uses_trie(plan: Any, strategy: str, tail: bool, graph: StaticGraph | None = None) -> bool:
    """Whether a count of ``plan`` (no shape kernel) on ``graph`` builds the cuTS trie first."""
    return int(plan.k) >= 4 and (
        strategy == "trie" or (strategy == "auto" and auto_trie(plan, tail, graph))
    )


# ====================================================================== sizes
def max_degree(graph: StaticGraph) -> int:
    """Largest union degree of ``graph`` (kept with it)."""
    return graph.derived(
        ("max_degree",), lambda: int(np.diff(graph.indptr).max()) if graph.n else 0
    )


def device_need(
    graph: StaticGraph, plan: Any, *, page_log: int | None = None, dump_rows: int = 1 << 21,
    trie_budget: int = 1 << 26, shape: bool | None = None,
) -> dict[str, int]:  # fmt: skip
    """Estimated in-memory device need of ``plan`` on ``graph`` (bytes, by part).

    The number the engine compares with the budget (:func:`memory.static_need`; the SM count
    comes from the current device). ``shape``: count the shape kernel's rank graph (default:
    when the plan has a shape). ``page_log``: default :func:`current_tuning`'s.
    """
    if shape is None:
        shape = getattr(plan, "shape", None) is not None
    return memory.static_need(
        graph.n,
        len(graph.indices),
        k=int(plan.k),
        max_degree=max_degree(graph),
        nwarps=sm_count() * 8 * WPB,
        node_labels=graph.node_label is not None,
        edge_labels=graph.out_label is not None,
        page_log=current_tuning().page_log if page_log is None else page_log,
        dump_rows=dump_rows,
        trie_budget=trie_budget,
        shape=shape,
    )


def chunks(lo: int, hi: int, size: int) -> list[tuple[int, int]]:
    """``[lo, hi)`` cut into ranges of ``size`` root entries (the last one shorter)."""
    return [(a, min(a + size, hi)) for a in range(lo, hi, max(int(size), 1))]


# ====================================================================== enumeration resume
def resume_tasks(
    resume: np.ndarray, ctl: np.ndarray, tl_e: np.ndarray, tl_s: np.ndarray, lo: int, hi: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """Tasks left by a launch that stopped on a full buffer: (entries, skips, new range start).

    A launch's task space is the explicit list ``tl_e`` (with skips ``tl_s``) followed by the
    entry range ``[lo, hi)``. Each stopped warp recorded ``(task, skip, chunk end)``: its task
    resumes after ``skip`` already emitted matches, and the rest of its chunk was not started.
    Chunks from the shared cursor on were never taken.
    """
    ntl = len(tl_e)
    ntask = ntl + (hi - lo)
    rec = resume.reshape(-1, 3)
    rec = rec[rec[:, 0] >= 0]
    ids_parts, skip_parts = [], []
    for ti, sk, c1 in rec.tolist():
        ids = np.arange(ti, c1, dtype=np.int64)
        s = np.full(len(ids), -1, dtype=np.int64)
        s[0] = sk
        ids_parts.append(ids)
        skip_parts.append(s)
    ids = np.concatenate(ids_parts) if ids_parts else np.zeros(0, dtype=np.int64)
    sks = np.concatenate(skip_parts) if skip_parts else np.zeros(0, dtype=np.int64)
    in_list = ids < ntl
    safe = np.minimum(ids, max(ntl - 1, 0))
    ent = np.where(in_list, tl_e[safe] if ntl else 0, lo + ids - ntl)
    old_skip = np.where(in_list, tl_s[safe] if ntl else 0, 0)
    sks = np.where(sks < 0, old_skip, sks)
    cursor = min(int(ctl[C_ROOTCUR]), ntask)
    if cursor < ntl:
        ent = np.concatenate([ent, tl_e[cursor:]])
        sks = np.concatenate([sks, tl_s[cursor:]])
    else:
        lo = lo + (cursor - ntl)
    return ent.astype(np.int64), sks.astype(np.int64), lo


#: The whole count: part 0 of 1 (``count(..., part=...)``).
WHOLE = (0, 1)


def check_part(part: tuple[int, int]) -> tuple[int, int]:
    """``part = (i, n)`` checked: ``n >= 1`` parts, ``0 <= i < n``."""
    i, n = (int(x) for x in part)
    if n < 1 or not 0 <= i < n:
        raise ValueError(f"part must be (i, n) with 0 <= i < n, got {part}")
    return i, n


def deal(items: Any, part: tuple[int, int], width: int = 1) -> Any:
    """Part ``part = (i, n)`` of a heavy-first work list: its items dealt out to ``n`` parts in
    snake order (``0, 1, ..., n - 1, n - 1, ..., 1, 0, 0, 1, ...``), so the parts get about
    equal shares of the heavy items as well as of the light ones (dealt in plain turns, part
    0 would get the heavier item of every round). Items are ``width`` consecutive entries; a
    new array (a device array for a device list). The whole list for ``(0, 1)``."""
    i, n = check_part(part)
    if n == 1:
        return items
    rows = items.reshape(-1, width)
    xp = import_cupy() if not isinstance(items, np.ndarray) else np
    turn = xp.arange(len(rows)) % (2 * n)
    return rows[(turn == i) | (turn == 2 * n - 1 - i)].ravel()
