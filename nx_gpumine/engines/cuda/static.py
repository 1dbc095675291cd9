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
  ordered DAG and bitmaps, books (the diamond is the book of 2) by triangle edge support,
  4-cycles by ranked wedges (:mod:`.shapes`). Nothing is enumerated.
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
* Counts are 64-bit per warp, summed with an overflow check (:class:`CapacityError`);
  ``exists`` stops every warp at the first match; enumeration writes rows through an atomic
  cursor and, when the buffer fills, warps stop and record where their task stopped (matches
  already written are skipped on resume); the host copies the rows out and relaunches.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import CapacityError, EngineUnavailableError
from ...inputs.static_graph import StaticGraph
from ...limits import check_host_room, check_result_rows, memory_budget, result_bytes
from ..checks import checked_limit, checked_range, checked_total, overflow_error
from ..contract import STATIC_MIN_K
from . import hostmem, memory, shapes
from ._runtime import (
    current_device,
    import_cupy,
    load_module,
    oom_retry,
    persistent_blocks,
    request_stop,
    sm_count,
    wait_event,
)

__all__ = [
    "count",
    "enumerate_matches",
    "exists",
    "unsupported",
    "device_need",
    "whole_range_count",
    "last_run",
    "MAX_K",
]

#: Largest pattern the kernels take (per-level sets of earlier levels are 32-bit masks).
MAX_K = 32
LOGP = 10  # stack page = 1024 ints
WPB = 8  # warps per block (matches kernels/static_common.cuh)
C_COUNT, C_FLAGS, C_ROOTCUR, C_OUTCUR, C_NDUMP, C_TRIECUR = 0, 1, 2, 8, 9, 11
F_POOL, F_OVERFLOW, F_FOUND, F_OUTFULL, F_TRIEFULL = 1, 2, 4, 8, 16
SRC_ROOTS, SRC_TRIE, SRC_RECORDS = 0, 1, 2
MODES = {"count": 0, "exists": 1, "enumerate": 2}
STRATEGIES = ("auto", "dfs", "trie", "shape")
_U64 = 2**64

#: Statistics of the last call in this process (kernel time by CUDA events, launches...).
last_run: dict[str, Any] = {}


def unsupported(plan: Any) -> str | None:
    """Why the CUDA kernels cannot run ``plan`` (None when they can)."""
    if int(plan.k) > MAX_K:
        return f"the CUDA engine matches patterns of at most {MAX_K} nodes (got {plan.k})"
    return None


# ====================================================================== plan packing
def _pack_plan(plan: Any) -> np.ndarray:
    """Pack a StaticPlan into the int32 layout of ``static_common.cuh``."""
    k = int(plan.k)
    size = 10 * k + 3 * k * k + 1
    p = np.zeros(size, dtype=np.int32)
    p[0:k] = plan.node_label
    p[k : 2 * k] = plan.loop_req
    p[2 * k : 3 * k] = plan.loop_label
    p[3 * k : 4 * k] = plan.min_degree
    reuse = np.asarray(plan.reuse, dtype=np.int64)
    p[4 * k : 5 * k] = reuse
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
        r = int(reuse[i])
        if r >= 2:
            if r >= i or (bn[r] & ~bn[i]):
                raise ValueError(f"plan reuse[{i}] = {r} does not satisfy BN({r}) ⊆ BN({i})")
            store_raw[r] = 1
            skip[i] = bn[r]
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
    return p


def _uses_node_labels(plan: Any) -> bool:
    return bool((np.asarray(plan.node_label) != -1).any())


def _uses_edge_labels(plan: Any) -> bool:
    return bool(
        (np.asarray(plan.chk_out_label) != -1).any()
        or (np.asarray(plan.chk_in_label) != -1).any()
        or (np.asarray(plan.loop_label) != -1).any()
    )


def _tail_defines(plan: Any, mode: int, tail: bool) -> dict:
    """TAILT / TAILKIND of a module: the plan's count tail in count mode, else the last level."""
    k = int(plan.k)
    start = int(getattr(plan, "tail_start", -1))
    kind = int(getattr(plan, "tail_kind", 0))
    if mode != 0 or not tail or not 2 <= start < k or kind not in (1, 2, 3):
        return {"TAILT": k - 1, "TAILKIND": 1}
    return {"TAILT": start, "TAILKIND": kind}


# ====================================================================== device state
def _graph_device(graph: StaticGraph, ooc: _Ooc | None = None) -> dict:
    """Graph arrays on the current device (uploaded once per graph and device, kept with it).

    Out of core (``ooc``): the per-entry arrays live in host memory the kernels read directly
    (:mod:`.hostmem`), the per-vertex arrays and hot blocks on the current device; keyed by
    device id like the in-memory copy.
    """
    dev = current_device()
    if ooc is not None:
        key = ("cuda_static_graph_ooc", dev, ooc.placement, ooc.hot_bytes)
        if not graph.has_derived(key):  # one host copy per device at a time
            _forget_ooc(graph, dev)
        return graph.derived(key, lambda: _graph_host(graph, ooc))

    def build() -> dict:
        cp = import_cupy()
        if graph.n >= 2**31 - 1:
            raise CapacityError("the CUDA engine takes graphs of fewer than 2**31 - 1 vertices")
        arr = graph.device_arrays()
        deg = np.diff(graph.indptr)
        # owner and degree per entry are derived on the device from the device CSR (for a
        # graph built there from cuDF / CuPy columns nothing is uploaded)
        nnz = len(graph.indices)
        entry = cp.arange(nnz, dtype=cp.int64)
        owner = cp.searchsorted(arr["indptr"], entry, side="right") - 1
        dummy_i = cp.zeros(1, dtype=cp.int32)
        return {
            "indptr": arr["indptr"],
            "indices": arr["indices"],
            "dircode": arr["dircode"],
            "loop": arr["loop"],
            "owner": owner.astype(cp.int32),
            "deg": cp.diff(arr["indptr"]).astype(cp.int32),
            "nlab": arr.get("node_label", dummy_i),
            "outl": arr.get("out_label", dummy_i),
            "inl": arr.get("in_label", dummy_i),
            "looplab": arr.get("loop_label", dummy_i),
            "max_degree": int(deg.max()) if len(deg) else 0,
            "nnz": len(graph.indices),
        }

    return graph.derived(("cuda_static_graph", dev), build)


def _forget_ooc(graph: StaticGraph, dev: int) -> None:
    """Drop device ``dev``'s out-of-core graph copies (other devices' copies stay)."""
    graph.forget_derived("cuda_static_graph_ooc", dev)


@dataclass(frozen=True)
class _Ooc:
    """Out-of-core settings of one call (:func:`memory.static_ooc_settings`)."""

    placement: str
    budget: int
    nwarps: int
    pool_pages: int
    pool_cap: int
    dump_rows: int
    chunk: int
    trie_budget: int
    hot_bytes: int
    out_bytes: int


def _entry_bytes(graph: StaticGraph) -> int:
    return 9 + (8 if graph.out_label is not None else 0)


def _graph_host(graph: StaticGraph, ooc: _Ooc) -> dict:
    """The out-of-core graph: per-entry arrays in host memory, hot blocks on the device."""
    cp = import_cupy()
    if graph.n >= 2**31 - 1:
        raise CapacityError("the CUDA engine takes graphs of fewer than 2**31 - 1 vertices")
    deg = np.diff(graph.indptr)
    owner = np.repeat(np.arange(graph.n, dtype=np.int32), deg)
    hot = None
    if ooc.placement == "managed":
        hot = hostmem.hot_blocks(graph.indptr, ooc.hot_bytes // _entry_bytes(graph))
    on_device = 0

    def put(a: np.ndarray) -> Any:
        nonlocal on_device
        arr, b = hostmem.host_array(a, ooc.placement, hot)
        on_device += b
        return arr

    dummy_i = cp.zeros(1, dtype=cp.int32)
    g = {
        "indptr": cp.asarray(graph.indptr),
        "indices": put(graph.indices),
        "dircode": put(graph.dircode),
        "loop": cp.asarray(graph.loop),
        "owner": put(owner),
        "deg": cp.asarray(deg.astype(np.int32)),
        "nlab": dummy_i if graph.node_label is None else cp.asarray(graph.node_label),
        "outl": dummy_i if graph.out_label is None else put(graph.out_label),
        "inl": dummy_i if graph.in_label is None else put(graph.in_label),
        "looplab": dummy_i if graph.loop_label is None else cp.asarray(graph.loop_label),
        "max_degree": int(deg.max()) if len(deg) else 0,
        "nnz": len(graph.indices),
        "hot": hot,
    }
    g["hot_device_bytes"] = on_device
    return g


#: Per-plan device data (packed plan, root mask, root task lists, work buffers), freed with
#: the plan, one entry per device id. A plan belongs to the graph it was built for; the entry
#: remembers that graph.
_PLAN_DATA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PLAN_LOCK = threading.Lock()


def _plan_data(graph: StaticGraph, plan: Any, ooc: _Ooc | None = None) -> dict:
    dev = current_device()
    with _PLAN_LOCK:
        per_device = _PLAN_DATA.get(plan)
        if per_device is None:
            per_device = _PLAN_DATA[plan] = {}
    d = per_device.get(dev)
    if d is None or d["graph"]() is not graph:
        cp = import_cupy()
        d = {
            "graph": weakref.ref(graph),
            "packed": cp.asarray(_pack_plan(plan)),
            "tasks": {},
            "work": {},
        }
        per_device[dev] = d
    if ooc is None:
        if "root_ok" not in d:  # uploaded on the first in-memory use
            root = None
            if plan.root_ok is not None:
                cp = import_cupy()
                root = cp.asarray(np.ascontiguousarray(plan.root_ok, dtype=np.uint8))
            d["root_ok"] = root
        return d
    # out of core: the root mask lives in host memory like the other per-entry arrays
    key = ("root_ok_ooc", ooc.placement)
    if key not in d:
        g = _graph_device(graph, ooc)
        d[key] = None
        if plan.root_ok is not None:
            d[key], on_device = hostmem.host_array(
                np.asarray(plan.root_ok, dtype=np.uint8), ooc.placement, g["hot"]
            )
            g["hot_device_bytes"] += on_device
    return {**d, "root_ok": d[key], "work": d.setdefault("work_ooc", {}), "tasks": {}}


@dataclass
class _Prep:
    graph: StaticGraph
    plan: Any
    g: dict
    k: int
    packed: Any
    root_ok: Any
    defines: dict
    data: dict
    tail: bool
    mods: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    ooc: _Ooc | None = None


def _prepare(
    graph: StaticGraph, plan: Any, page_log: int = LOGP, tail: bool = True, ooc: _Ooc | None = None
) -> _Prep:
    k = int(plan.k)
    reason = unsupported(plan)
    if reason:
        raise EngineUnavailableError(reason + "; use engine='cpu'")
    if not 0 <= int(page_log) <= 20:
        raise ValueError(f"page_log must be in [0, 20], got {page_log}")
    g = _graph_device(graph, ooc)
    data = _plan_data(graph, plan, ooc)
    nlab = int(graph.node_label is not None and _uses_node_labels(plan))
    elab = int(graph.out_label is not None and _uses_edge_labels(plan))
    echk = int(bool(getattr(plan, "edge_checks", True)) or bool(elab) or bool(plan.induced))
    defines = {"K": k, "NLAB": nlab, "ELAB": elab, "ECHK": echk, "LOGP": int(page_log)}
    return _Prep(graph, plan, g, k, data["packed"], data["root_ok"], defines, data, tail, ooc=ooc)


def _module(prep: _Prep, mode: int) -> Any:
    if mode not in prep.mods:
        defs = {**prep.defines, "MODE": mode, **_tail_defines(prep.plan, mode, prep.tail)}
        cm = load_module("static_dfs.cu", defs)
        prep.mods[mode] = cm
        prep.stats["compile_seconds"] = prep.stats.get("compile_seconds", 0.0) + cm.compile_seconds
    return prep.mods[mode]


def _null() -> np.uint64:
    return np.uint64(0)


def _graph_args(prep: _Prep, with_root: bool = True) -> list:
    g = prep.g
    args = [
        g["indptr"],
        g["indices"],
        g["dircode"],
        g["owner"],
        g["deg"],
        g["loop"],
        g["nlab"],
        g["outl"],
        g["inl"],
        g["looplab"],
    ]
    if with_root:
        args.append(prep.root_ok if prep.root_ok is not None else _null())
    args.append(np.int32(prep.graph.n))
    return args


@dataclass
class _Work:
    """Device work buffers of one (plan, mode, page size), reused across calls."""

    nwarps: int
    maxpg: int
    npages: int
    pt: Any
    pool: Any
    ctl: Any
    dumps: list = field(default_factory=list)  # two record buffers (ping-pong)
    dumpcap: int = 0


def _work(prep: _Prep, mode: int, npages: int | None = None, dumpcap: int = 0) -> _Work:
    """The plan's work buffers for ``mode`` (allocated once; grown on demand)."""
    ooc = prep.ooc
    key = (mode, prep.defines["LOGP"], npages, ooc)
    w = prep.data["work"].get(key)
    if w is None and ooc is not None:  # buffers of another budget go first
        for old in [k for k in prep.data["work"] if k[3] != ooc]:
            del prep.data["work"][old]
    if w is None:
        cp = import_cupy()
        nwarps = persistent_blocks(_module(prep, mode).kernel("static_dfs"), WPB * 32) * WPB
        if ooc is not None:  # the stacks' share of the budget bounds the warps launched
            nwarps = min(nwarps, ooc.nwarps)
            npages = ooc.pool_pages if npages is None else min(npages, ooc.pool_pages)
        page = 1 << prep.defines["LOGP"]
        maxlen = max(prep.g["max_degree"], 1)
        maxpg = -(-maxlen // page)
        nslot = 2 * prep.k
        n = npages
        if n is None:
            n = max(nwarps * max(prep.k - 2, 1) * 2, 1024)
        n = min(n, nwarps * nslot * maxpg)  # never more than every table entry
        w = _Work(
            nwarps,
            maxpg,
            n,
            cp.empty(nwarps * nslot * maxpg, dtype=cp.int32),
            cp.empty(n * page, dtype=cp.int32),
            cp.zeros(16, dtype=cp.uint64),
        )
        prep.data["work"][key] = w
    if dumpcap > w.dumpcap:
        cp = import_cupy()
        w.dumps = [cp.empty(dumpcap * (prep.k + 1), dtype=cp.int32) for _ in range(2)]
        w.dumpcap = dumpcap
    return w


def _grow_pool(prep: _Prep, w: _Work) -> None:
    cp = import_cupy()
    nslot = 2 * prep.k
    limit = w.nwarps * nslot * w.maxpg
    if w.npages >= limit:  # pragma: no cover - every table entry already has a page
        raise CapacityError("stack page pool cannot grow further")
    new = min(w.npages * 4, limit)
    ooc = prep.ooc
    if ooc is not None:
        cap = ooc.pool_cap
        if w.npages >= cap:
            if w.nwarps <= WPB:  # pragma: no cover - one block's longest stacks fit the cap
                raise CapacityError(
                    f"the out-of-core DFS stacks ran out of their {w.npages} pages of the"
                    f" {ooc.budget}-byte device budget: raise max_device_bytes"
                )
            w.nwarps = max(w.nwarps // 2 // WPB * WPB, WPB)  # fewer warps, fewer pages held
            prep.stats["ooc_warp_halvings"] = prep.stats.get("ooc_warp_halvings", 0) + 1
            return
        new = min(new, cap)
    w.pool = None
    try:
        w.pool = cp.empty(new << prep.defines["LOGP"], dtype=cp.int32)
    except cp.cuda.memory.OutOfMemoryError as exc:
        raise CapacityError(
            f"stack page pool of {new} pages ({4 * new << prep.defines['LOGP']} bytes) does not"
            " fit on the GPU"
        ) from exc
    w.npages = new
    prep.stats["pool_retries"] = prep.stats.get("pool_retries", 0) + 1


def _dfs_launch(
    prep: _Prep,
    mode: int,
    w: _Work,
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
    """
    cp = import_cupy()
    kern = _module(prep, mode).kernel("static_dfs")
    grid = w.nwarps // WPB
    ntl = 0 if tl_entry is None else len(tl_entry)
    trie_args = [_null(), _null(), _null(), _null(), _null(), np.int64(0), np.int32(0)]
    rec_args = [_null(), np.int64(0)]
    src_mode = SRC_ROOTS
    if trie is not None:
        src_mode = SRC_TRIE
        t1, t2p, t2c, t3p, t3c, nleaves, depth = trie
        trie_args = [
            t1,
            t2p,
            t2c,
            t3p if t3p is not None else _null(),
            t3c if t3c is not None else _null(),
            np.int64(nleaves),
            np.int32(depth),
        ]
    elif records is not None:
        src_mode = SRC_RECORDS
        rec_args = [records[0], np.int64(records[1])]
    while True:
        w.ctl.fill(0)
        w.pt.fill(-1)
        if resume is not None:
            resume.fill(-1)
        args = [
            *_graph_args(prep),
            prep.packed,
            np.int32(src_mode),
            np.int64(lo),
            np.int64(hi),
            tl_entry if ntl else _null(),
            tl_skip if tl_skip is not None else _null(),
            np.int64(ntl),
            *trie_args,
            *rec_args,
            w.ctl,
            dump if dump is not None else _null(),
            np.int64(w.dumpcap if dump is not None else 0),
            np.int64(timeout_ns),
            w.pt,
            w.pool,
            np.int32(w.maxpg),
            np.int64(w.npages),
            out if out is not None else _null(),
            np.int64(outcap),
            resume if resume is not None else _null(),
        ]
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        kern((min(grid, w.nwarps // WPB),), (WPB * 32,), tuple(args))
        end.record()
        # Ctrl-C: every warp polls its flags (STOP_BITS) and stops; results are dropped
        wait_event(end, stop=lambda: request_stop(w.ctl, C_FLAGS, F_FOUND))
        prep.stats["kernel_ms"] = prep.stats.get("kernel_ms", 0.0) + float(
            cp.cuda.get_elapsed_time(start, end)
        )
        prep.stats["launches"] = prep.stats.get("launches", 0) + 1
        ctl = w.ctl.get()
        if int(ctl[C_FLAGS]) & F_POOL:  # results of this launch are void: bigger pool, re-run
            _grow_pool(prep, w)
            continue
        if int(ctl[C_FLAGS]) & F_OVERFLOW:
            raise overflow_error()
        return ctl


# ====================================================================== helpers
def _drop_work(graph: StaticGraph, plan: Any, *args: Any, **kw: Any) -> None:
    """Forget the plan's cached work buffers (after a GPU out-of-memory error)."""
    d = (_PLAN_DATA.get(plan) or {}).get(current_device())
    if d is not None:
        d["work"].clear()
        d["tasks"].clear()


def _check_k(plan: Any) -> None:
    """Refuse a 1- or 2-node plan: execution answers those from the plan's masks."""
    if int(plan.k) < STATIC_MIN_K:
        raise ValueError(
            f"the CUDA static engine walks plans of at least {STATIC_MIN_K} nodes (got k ="
            f" {plan.k}); 1- and 2-node plans are answered by execution"
            " (nx_gpumine.execution.static.small_plan_result, through run_static)"
        )


def _finish_stats(prep: _Prep | None, **kw: Any) -> None:
    last_run.clear()
    if prep is not None:
        last_run.update(prep.stats)
    last_run.update(kw)


def _root_tasks(prep: _Prep, lo: int, hi: int) -> Any:
    """Root entries of ``[lo, hi)`` that pass the root mask, heaviest first (int64, device).

    The estimate ``deg(u) + deg(v)`` orders the tasks so that the long ones start first and the
    end of the launch is made of short ones; the full range's list is kept with the plan.
    """
    key = (lo, hi)
    hit = prep.data["tasks"].get(key)
    if hit is not None:
        return hit
    cp = import_cupy()
    g = prep.g
    ent = cp.arange(lo, hi, dtype=cp.int64)
    if prep.root_ok is not None:
        ent = ent[prep.root_ok[lo:hi].astype(cp.bool_)]
    cost = g["deg"][g["owner"][ent]].astype(cp.int64) + g["deg"][g["indices"][ent]]
    ent = ent[cp.argsort(-cost, kind="stable")]
    if lo == 0 and hi == g["nnz"]:
        prep.data["tasks"][key] = ent
    return ent


# ====================================================================== trie (cuTS)
def _level_bound(prep: _Prep, level: int, verts: list) -> Any:
    """Upper bound on the candidates of ``level`` per prefix: min degree over BN(level)."""
    cp = import_cupy()
    bns = [
        int(prep.plan.bn_level[c])
        for c in range(int(prep.plan.bn_ptr[level]), int(prep.plan.bn_ptr[level + 1]))
    ]
    deg = prep.g["deg"]
    b = None
    for j in bns:
        d = deg[verts[j]].astype(cp.int64)
        b = d if b is None else cp.minimum(b, d)
    return b


def _count_trie(
    prep: _Prep,
    mode: int,
    lo: int,
    hi: int,
    budget: int,
    depth: int | None,
    pool_pages: int | None,
) -> int:
    cp = import_cupy()
    k = prep.k
    mod = _module(prep, mode)
    k_roots = mod.kernel("static_trie_roots")
    k_exp = mod.kernel("static_trie_expand")
    g = prep.g
    owner, indices = g["owner"], g["indices"]
    ent = cp.arange(lo, hi, dtype=cp.int64)
    b2 = _level_bound(prep, 2, [owner[ent], indices[ent]])
    if prep.root_ok is not None:
        b2 = b2 * prep.root_ok[lo:hi].astype(cp.int64)
    del ent
    budget = max(int(budget), g["max_degree"], 1)
    cum = cp.cumsum(b2)
    w = _work(prep, mode, pool_pages)
    grid = w.nwarps // WPB
    cnt = cp.zeros(1, dtype=cp.uint64)
    total = 0
    found = False
    start = 0
    n = hi - lo
    chunks = 0
    while start < n:
        base = int(cum[start - 1]) if start > 0 else 0
        stop = int(cp.searchsorted(cum, cp.asarray([base + budget], dtype=cum.dtype), "right")[0])
        stop = max(stop, start + 1)
        stop = min(stop, n)
        a, b = lo + start, lo + stop
        chunks += 1
        # level 1: surviving root entries
        t1 = cp.empty(b - a, dtype=cp.int64)
        cnt.fill(0)
        w.ctl.fill(0)
        ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
        ev0.record()
        k_roots(
            (grid,),
            (WPB * 32,),
            (
                *_graph_args(prep),
                prep.packed,
                np.int64(a),
                np.int64(b),
                cnt,
                t1,
                np.int64(b - a),
                w.ctl,
            ),
        )
        n1 = int(cnt.get()[0])
        cap2 = int(cum[stop - 1]) - base
        n2 = 0
        t2p = t2c = t3p = t3c = None
        if n1 and cap2:
            t2p = cp.empty(cap2, dtype=cp.int32)
            t2c = cp.empty(cap2, dtype=cp.int32)
            cnt.fill(0)
            w.ctl.fill(0)
            k_exp(
                (grid,),
                (WPB * 32,),
                (
                    *_graph_args(prep, with_root=False),
                    prep.packed,
                    np.int32(2),
                    t1,
                    _null(),
                    _null(),
                    np.int64(n1),
                    cnt,
                    t2p,
                    t2c,
                    np.int64(cap2),
                    w.ctl,
                ),
            )
            n2 = int(cnt.get()[0])
            if int(w.ctl.get()[C_FLAGS]) & F_TRIEFULL:  # pragma: no cover - bound is exact
                raise CapacityError("trie level 2 exceeded its upper bound (engine bug)")
        ev1.record()
        ev1.synchronize()
        prep.stats["kernel_ms"] = prep.stats.get("kernel_ms", 0.0) + float(
            cp.cuda.get_elapsed_time(ev0, ev1)
        )
        if n2 == 0:
            start = stop
            continue
        d = 2
        want3 = k >= 5 and (depth is None or depth >= 3)
        if want3:
            par = t2p[:n2]
            e = t1[par]
            b3 = _level_bound(prep, 3, [owner[e], indices[e], t2c[:n2]])
            cap3 = int(b3.sum())
            del e, par
            if 0 < cap3 <= budget:
                t3p = cp.empty(cap3, dtype=cp.int32)
                t3c = cp.empty(cap3, dtype=cp.int32)
                cnt.fill(0)
                w.ctl.fill(0)
                ev0.record()
                k_exp(
                    (grid,),
                    (WPB * 32,),
                    (
                        *_graph_args(prep, with_root=False),
                        prep.packed,
                        np.int32(3),
                        t1,
                        t2p,
                        t2c,
                        np.int64(n2),
                        cnt,
                        t3p,
                        t3c,
                        np.int64(cap3),
                        w.ctl,
                    ),
                )
                ev1.record()
                ev1.synchronize()
                prep.stats["kernel_ms"] += float(cp.cuda.get_elapsed_time(ev0, ev1))
                if int(w.ctl.get()[C_FLAGS]) & F_TRIEFULL:  # pragma: no cover
                    raise CapacityError("trie level 3 exceeded its upper bound (engine bug)")
                d = 3
            elif cap3 == 0:
                start = stop
                continue
        nleaves = n2 if d == 2 else int(cnt.get()[0])
        if nleaves:
            ctl = _dfs_launch(prep, mode, w, trie=(t1, t2p, t2c, t3p, t3c, nleaves, d))
            if mode == 1:
                if int(ctl[C_FLAGS]) & F_FOUND:
                    found = True
                    break
            else:
                c = int(ctl[C_COUNT])
                if total + c >= 2**64:
                    raise overflow_error()
                total += c
        prep.stats["trie_depth"] = max(prep.stats.get("trie_depth", 0), d)
        start = stop
    prep.stats["trie_chunks"] = chunks
    return int(found) if mode == 1 else total


def _shape_reason(graph: StaticGraph, plan: Any) -> str | None:
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
    if shape == "book":
        return shapes.clique_supported(graph, 3)
    if shape == "cycle4":
        return None
    if shape == "pair_edge":
        return shapes.clique_supported(graph, 3)
    return f"unknown shape {shape!r}"  # pragma: no cover - plan and engine disagree


def _count_shape(graph: StaticGraph, plan: Any) -> int:
    stats: dict = {}
    had = graph.has_derived(("cuda_rank_graph", current_device()))
    if plan.shape == "clique":
        distinct = shapes.count_clique(graph, int(plan.shape_arg), stats)
    elif plan.shape == "book":
        distinct = shapes.count_book(graph, int(plan.shape_arg), stats)
    elif plan.shape == "pair_edge":
        mappings = shapes.count_pair_edge(graph, int(plan.shape_arg), stats)
        distinct, rest = divmod(mappings, int(plan.num_automorphisms))
        if rest:  # pragma: no cover - a pair-edge pattern's automorphisms divide its mappings
            raise AssertionError("pair-edge mappings not a multiple of the automorphisms")
    else:
        distinct = shapes.count_cycle4(graph, stats)
    if not had:
        stats["preprocess_seconds"] = (
            stats.get("preprocess_seconds", 0.0)
            + (shapes.device_rank_graph(graph)["build_seconds"])
        )
    res = distinct if plan.distinct else distinct * int(plan.num_automorphisms)
    checked_total(res)
    _finish_stats(None, **stats)
    return res


def whole_range_count(graph: StaticGraph, plan: Any) -> bool:
    """Whether :func:`count` over every root of ``graph`` runs a whole-range kernel.

    The shape kernels (cliques, books, 4-cycles, pair-edges; :mod:`.shapes`) count the whole
    root range at once and are not used for sub-ranges, so a caller that would split the roots
    into tasks (several devices) runs such a count in one call instead. Builds the device rank
    graph of ``graph`` on the current device when it is not there yet.

    False when the count would run out of core under the device budget in force (shape
    kernels need the graph in device memory); decided as :func:`count` decides it.
    """
    if plan.impossible or int(plan.k) < STATIC_MIN_K or unsupported(plan):
        return False
    if _residency(graph, plan, None, "managed", "count", shape=True) is not None:
        return False
    return _shape_reason(graph, plan) is None


def _auto_trie(plan: Any, tail: bool) -> bool:
    """Strategy choice for plans without a shape kernel (docs/cuda_static.md).

    The DFS alone finishes a match with the count tail, so it takes every plan whose tail
    spans 2+ levels; the cuTS trie takes the other plans of 4+ nodes (measured faster there:
    its breadth-first levels give every warp the same amount of work per leaf).
    """
    return int(plan.k) >= 4 and not (tail and int(plan.k) - int(plan.tail_start) >= 2)


def _count_dfs(
    prep: _Prep, lo: int, hi: int, timeout_ms: float, pool_pages: int | None, dump_capacity: int
) -> int:
    tau = int(timeout_ms * 1e6) if timeout_ms and timeout_ms > 0 else 0
    if tau and dump_capacity < 1:
        raise ValueError("dump_capacity must be >= 1")
    tasks = _root_tasks(prep, lo, hi)
    w = _work(prep, 0, pool_pages, dump_capacity if tau else 0)
    total = 0
    rounds = records = 0
    if len(tasks):
        ctl = _dfs_launch(
            prep, 0, w, tl_entry=tasks, dump=w.dumps[0] if tau else None, timeout_ns=tau
        )
        total = int(ctl[C_COUNT])
        rounds = 1
        nrec, cur = int(ctl[C_NDUMP]), 0
        while nrec:
            records += nrec
            rounds += 1
            ctl = _dfs_launch(
                prep, 0, w, records=(w.dumps[cur], nrec), dump=w.dumps[1 - cur], timeout_ns=tau
            )
            total += int(ctl[C_COUNT])
            checked_total(total)
            nrec, cur = int(ctl[C_NDUMP]), 1 - cur
    checked_total(total)
    _finish_stats(
        prep,
        strategy="dfs",
        warps=w.nwarps,
        pages=w.npages,
        rounds=rounds,
        records=records,
        tail=(int(prep.plan.tail_start), int(prep.plan.tail_kind)) if prep.tail else None,
    )
    return total


# ====================================================================== residency
def _max_degree(graph: StaticGraph) -> int:
    return graph.derived(
        ("max_degree",), lambda: int(np.diff(graph.indptr).max()) if graph.n else 0
    )


def _residency(
    graph: StaticGraph,
    plan: Any,
    max_device_bytes: int | None,
    placement: str,
    what: str,
    *,
    page_log: int = LOGP,
    dump_rows: int = 1 << 21,
    trie_budget: int = 1 << 26,
    shape: bool = False,
) -> _Ooc | None:
    """None (in memory) or the out-of-core settings of this call (``docs/out_of_core.md``).

    ``shape``: the call may run a shape kernel (a count over the whole root range).
    """
    if placement not in hostmem.PLACEMENTS:
        raise ValueError(f"placement must be one of {hostmem.PLACEMENTS}, got {placement!r}")
    max_device_bytes = memory.check_budget(max_device_bytes)
    cp = import_cupy()
    free, total = cp.cuda.runtime.memGetInfo()
    budget, explicit = memory.resolve_budget(max_device_bytes, free, total)
    if not explicit and _resident(graph):
        return None  # already on the device
    nnz = len(graph.indices)
    maxdeg = _max_degree(graph)
    nwarps = sm_count() * 8 * WPB
    k = int(plan.k)
    need = device_need(
        graph,
        plan,
        page_log=page_log,
        dump_rows=dump_rows,
        trie_budget=trie_budget,
        shape=shape and getattr(plan, "shape", None) is not None,
    )
    what = f"static {what} of a {k}-node pattern ({graph.n} vertices, {nnz} entries)"
    if need["total"] <= budget:
        memory.choose(what, need["total"], budget, 0, explicit)
        return None
    spread = memory.device_spread()
    if spread > 1:
        raise CapacityError(
            f"{what} needs about {need['total']} bytes of device memory, over the"
            f" {budget}-byte budget of device {current_device()}, and the out-of-core static"
            f" path runs on one GPU only (each of the {spread} GPUs of devices= would need its"
            " own host-resident copy of the graph): leave devices= out or pass one device to"
            " run it out of core, or raise max_device_bytes (docs/out_of_core.md)"
        )
    st = memory.static_ooc_settings(
        budget,
        vertex_bytes=need["vertex"],
        k=k,
        max_degree=maxdeg,
        nwarps=nwarps,
        hot_cache=placement == "managed",
        page_log=page_log,
        dump_rows=dump_rows,
        trie_budget=trie_budget,
    )
    memory.choose(what, need["total"], budget, st.pop("minimum"), explicit)
    return _Ooc(placement=placement, budget=budget, **st)


def _resident(graph: StaticGraph) -> bool:
    """Whether the in-memory device graph is built on the current device (or the graph was
    built there from cuDF / CuPy columns: its CSR is on the device already)."""
    dev = current_device()
    if graph.has_derived(("cuda_static_graph", dev)):
        return True
    return graph.built_on_device and graph.has_device_data(("arrays", dev))


def device_need(
    graph: StaticGraph, plan: Any, *, page_log: int = LOGP, dump_rows: int = 1 << 21,
    trie_budget: int = 1 << 26, shape: bool | None = None,
) -> dict[str, int]:  # fmt: skip
    """Estimated in-memory device need of ``plan`` on ``graph`` (bytes, by part).

    The number the engine compares with the budget (:func:`memory.static_need`; the SM count
    comes from the current device). ``shape``: count the shape kernel's rank graph (default:
    when the plan has a shape).
    """
    if shape is None:
        shape = getattr(plan, "shape", None) is not None
    return memory.static_need(
        graph.n,
        len(graph.indices),
        k=int(plan.k),
        max_degree=_max_degree(graph),
        nwarps=sm_count() * 8 * WPB,
        node_labels=graph.node_label is not None,
        edge_labels=graph.out_label is not None,
        page_log=page_log,
        dump_rows=dump_rows,
        trie_budget=trie_budget,
        shape=shape,
    )


def _ooc_stats(ooc: _Ooc, graph: StaticGraph, chunks: int) -> None:
    g = _graph_device(graph, ooc)
    last_run.update(
        out_of_core=True,
        placement=ooc.placement,
        budget=ooc.budget,
        chunks=chunks,
        ooc_warps=ooc.nwarps,
        hot_device_bytes=g["hot_device_bytes"],
    )


def _chunks(lo: int, hi: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, hi)) for a in range(lo, hi, max(int(size), 1))]


def _host_room(nbytes: int, rows: int) -> None:
    check_host_room(nbytes, rows, " (iter_subgraph_mappings)")


# ====================================================================== public API
_TUNING_DOC = """
    Tuning (defaults are right for normal use; tests use them to force the rare paths):
    ``page_log`` (stack page = ``2**page_log`` ints, default 10), ``pool_pages`` (initial page
    pool; it grows 4x on exhaustion and the launch is re-run), ``dump_capacity`` (records a
    launch may write when splitting stragglers; a full buffer makes warps keep their work)."""


@oom_retry({"dump_capacity": 1 << 21, "trie_budget": 1 << 26}, on_oom=_drop_work, what="count")
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
    page_log: int = LOGP,
    pool_pages: int | None = None,
    dump_capacity: int = 1 << 21,
    tail: bool = True,
    max_device_bytes: int | None = None,
    placement: str = "pinned",
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
        ``"shape"``: the plan's shape kernel (cliques, books, 4-cycles; whole range only);
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
        Tuning, see the module notes.
    tail : bool
        Finish matches with the plan's count tail (default); ``False`` walks every level.
    max_device_bytes : int, optional
        Device memory the call may use for graph data and working memory (default: the
        configured budget, see :mod:`.memory`; None there: total device memory minus a margin). When
        the estimated in-memory need exceeds it, the graph's per-entry arrays stay in host
        memory read by the kernels and root ranges are processed in chunks
        (``docs/out_of_core.md``); shape kernels then give way to the DFS / trie.
    placement : {"pinned", "managed"}
        Out-of-core host memory: pinned zero-copy memory (default), or managed memory with the
        hottest entry blocks cached on the device (its first GPU run of 2026-11-25 hit an
        illegal address: see docs/out_of_core.md).

    Returns
    -------
    int
        Number of matches (overflow past 2**63 - 1 raises :class:`CapacityError`).

    Raises
    ------
    ValueError
        A plan of fewer than 3 nodes (execution answers those), a bad strategy or range.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
    _check_k(plan)
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if plan.impossible or hi <= lo:
        last_run.clear()
        return 0
    full = lo == 0 and hi == len(graph.indices)
    ooc = _residency(
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
    if ooc is not None:
        if strategy == "shape":
            raise EngineUnavailableError(
                "shape kernels run with the graph in device memory; this graph exceeds the"
                " device memory budget (use strategy='auto', 'dfs' or 'trie')"
            )
        return _count_ooc(
            graph, plan, ooc, lo, hi, strategy, tail, timeout_ms, trie_depth, page_log,
            pool_pages, dump_capacity,
        )  # fmt: skip
    if strategy in ("auto", "shape") and full:
        reason = _shape_reason(graph, plan)
        if reason is None:
            return _count_shape(graph, plan)
        if strategy == "shape":
            raise EngineUnavailableError(reason)
    elif strategy == "shape":
        raise EngineUnavailableError("shape counting covers the whole root range of a plan")
    if strategy == "trie" or (strategy == "auto" and _auto_trie(plan, tail)):
        if plan.k >= 4:
            prep = _prepare(graph, plan, page_log, tail=False)
            res = _count_trie(prep, 0, lo, hi, trie_budget, trie_depth, pool_pages)
            checked_total(res)
            _finish_stats(prep, strategy="trie")
            return res
    prep = _prepare(graph, plan, page_log, tail=tail)
    return _count_dfs(prep, lo, hi, timeout_ms, pool_pages, dump_capacity)


def _count_ooc(
    graph: StaticGraph,
    plan: Any,
    ooc: _Ooc,
    lo: int,
    hi: int,
    strategy: str,
    tail: bool,
    timeout_ms: float,
    trie_depth: int | None,
    page_log: int,
    pool_pages: int | None,
    dump_capacity: int,
) -> int:
    """Out-of-core count: root entry chunks in turn over the host-resident graph."""
    trie = plan.k >= 4 and (strategy == "trie" or (strategy == "auto" and _auto_trie(plan, tail)))
    prep = _prepare(graph, plan, page_log, tail=tail and not trie, ooc=ooc)
    total = 0
    chunks = _chunks(lo, hi, ooc.chunk)
    for a, b in chunks:
        if trie:
            total += _count_trie(prep, 0, a, b, ooc.trie_budget, trie_depth, pool_pages)
        else:
            total += _count_dfs(
                prep, a, b, timeout_ms, pool_pages, max(min(dump_capacity, ooc.dump_rows), 1)
            )
        checked_total(total)
    _finish_stats(prep, strategy="trie" if trie else "dfs")
    _ooc_stats(ooc, graph, len(chunks))
    return total


@oom_retry(on_oom=_drop_work, what="existence test")
def exists(
    graph: StaticGraph,
    plan: Any,
    lo: int = 0,
    hi: int | None = None,
    *,
    strategy: str = "auto",
    trie_budget: int = 1 << 26,
    page_log: int = LOGP,
    pool_pages: int | None = None,
    max_device_bytes: int | None = None,
    placement: str = "pinned",
) -> bool:
    """True if at least one match exists among root entries ``[lo, hi)`` (warps stop early).

    Parameters are those of :func:`count` (``strategy="trie"`` builds the trie first;
    every other value walks the DFS; out of core, root chunks are tried in turn).

    Returns
    -------
    bool
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
    _check_k(plan)
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if plan.impossible or hi <= lo:
        last_run.clear()
        return False
    ooc = _residency(
        graph, plan, max_device_bytes, placement, "exists", page_log=page_log,
        trie_budget=trie_budget,
    )  # fmt: skip
    prep = _prepare(graph, plan, page_log, ooc=ooc)
    chunks = [(lo, hi)] if ooc is None else _chunks(lo, hi, ooc.chunk)
    found = False
    for a, b in chunks:
        if strategy == "trie" and plan.k >= 4:
            tb = trie_budget if ooc is None else ooc.trie_budget
            found = bool(_count_trie(prep, 1, a, b, tb, None, pool_pages))
            _finish_stats(prep, strategy="trie")
        else:
            w = _work(prep, 1, pool_pages)
            ctl = _dfs_launch(prep, 1, w, lo=a, hi=b)
            _finish_stats(prep, strategy="dfs", warps=w.nwarps, pages=w.npages)
            found = bool(int(ctl[C_FLAGS]) & F_FOUND)
        if found:
            break
    if ooc is not None:
        _ooc_stats(ooc, graph, len(chunks))
    return found


@oom_retry({"buffer_rows": 1 << 20, "max_buffer_rows": 1 << 26}, on_oom=_drop_work, what="listing")
def enumerate_matches(
    graph: StaticGraph,
    plan: Any,
    lo: int = 0,
    hi: int | None = None,
    limit: int | None = None,
    *,
    buffer_rows: int = 1 << 20,
    max_buffer_rows: int = 1 << 26,
    page_log: int = LOGP,
    pool_pages: int | None = None,
    max_device_bytes: int | None = None,
    placement: str = "pinned",
) -> np.ndarray:
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
    _check_k(plan)
    k = int(plan.k)
    lo, hi = checked_range(lo, hi, len(graph.indices))
    limit = checked_limit(limit)
    if buffer_rows < 1 or max_buffer_rows < buffer_rows:
        raise ValueError("need 1 <= buffer_rows <= max_buffer_rows")
    cp = import_cupy()
    order = np.asarray(plan.order, dtype=np.int64)
    empty = np.zeros((0, k), dtype=np.int64)
    if plan.impossible or hi <= lo or limit == 0:
        return empty
    ooc = _residency(graph, plan, max_device_bytes, placement, "enumeration", page_log=page_log)
    prep = _prepare(graph, plan, page_log, ooc=ooc)
    if ooc is not None:
        most = max(ooc.out_bytes // (4 * k), 1)
        buffer_rows, max_buffer_rows = min(buffer_rows, most), min(max_buffer_rows, most)
    mode = 2
    w = _work(prep, mode, pool_pages)
    nwarps = w.nwarps
    resume = cp.empty(3 * nwarps, dtype=cp.int64)
    pieces: list[np.ndarray] = []
    got = 0
    rounds = 0
    chunks = [(lo, hi)] if ooc is None else _chunks(lo, hi, ooc.chunk)
    for lo, hi in chunks:
        if limit is not None and got >= limit:
            break
        got, rounds = _enumerate_range(
            prep, w, resume, pieces, got, rounds, lo, hi, limit, buffer_rows, max_buffer_rows
        )
    rows = np.concatenate(pieces) if pieces else np.zeros((0, k), dtype=np.int32)
    if limit is not None:
        rows = rows[:limit]
    _host_room(rows.size * 8, len(rows))
    res = np.empty((len(rows), k), dtype=np.int64)
    res[:, order] = rows
    _finish_stats(prep, strategy="dfs", rounds=rounds, warps=nwarps)
    if ooc is not None:
        _ooc_stats(ooc, graph, len(chunks))
    return res


def _enumerate_range(
    prep: _Prep,
    w: _Work,
    resume: Any,
    pieces: list,
    got: int,
    rounds: int,
    lo: int,
    hi: int,
    limit: int | None,
    buffer_rows: int,
    max_buffer_rows: int,
) -> tuple[int, int]:
    """Enumerate root entries ``[lo, hi)`` into ``pieces`` (host); return (rows, rounds)."""
    cp = import_cupy()
    k = prep.k
    mode = 2
    cap = int(buffer_rows)
    tl_e = np.zeros(0, dtype=np.int64)
    tl_s = np.zeros(0, dtype=np.int64)
    lo0 = lo
    checked = False
    while True:
        rounds += 1
        want = cap if limit is None else min(cap, limit - got)
        if not checked and result_bytes(got + want, k) > memory_budget():
            # the rows so far and the next block pass the budget: count the range first
            total = count(prep.graph, prep.plan, lo0, hi)
            check_result_rows(total if limit is None else min(total, limit), k)
            checked = True
        out = cp.empty(max(want, 1) * k, dtype=cp.int32)
        ntl = len(tl_e)
        ctl = _dfs_launch(
            prep,
            mode,
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
        tl_e, tl_s, lo = _resume_tasks(resume.get(), ctl, tl_e, tl_s, lo, hi)
        cap = min(cap * 4, int(max_buffer_rows))
    return got, rounds


def _resume_tasks(
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
