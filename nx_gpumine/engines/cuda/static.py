"""CUDA static subgraph-matching engine (T-DFS warp stacks + cuTS trie), through CuPy.

Interface (``docs/architecture.md``)::

    count(graph, plan, lo=0, hi=None) -> int
    enumerate_matches(graph, plan, lo=0, hi=None, limit=None) -> np.ndarray  # (n, k) int64
    exists(graph, plan, lo=0, hi=None) -> bool

How it walks the plan (kernels in ``kernels/static_dfs.cu``, design in ``docs/cuda_static.md``):

* **T-DFS**: a persistent grid, one warp per task (a root edge = a union-CSR entry, levels 0/1)
  with its own stack; candidates of a level are computed by warp-cooperative intersections
  (each lane binary-searches one element of the shortest list, or of a reused raw set, in the
  other lists) with direction/label checks, non-adjacency (induced), node filters,
  injectivity and symmetry restrictions folded in. Stack levels are *paged*: pages of
  ``2**LOGP`` ints come from a device pool with one atomic each, so no degree can overflow a
  level; when the pool runs dry the launch is flagged and re-run with a bigger pool.
  A task running longer than ``timeout_ms`` pushes its unstarted level-2 branches and the rest
  of its root chunk to a lock-free circular queue that idle warps drain before taking new
  roots (queue full: the warp keeps working locally; nothing is dropped).
* **cuTS trie** (``strategy="trie"``): levels 1..D (D = 2 or 3) are built breadth-first as a
  trie (parent index + candidate arrays, one atomic per batch write), in chunks of root edges
  sized from exact upper bounds so memory stays within ``trie_budget``; its leaves are then
  the DFS tasks (BFS-DFS hybrid).
* counts are accumulated per warp in 64 bits and reduced with an overflow check
  (:class:`~nx_gpumine.errors.CapacityError`); ``exists`` stops every warp at the first match;
  enumeration writes rows to a device buffer through an atomic cursor and, when it fills,
  warps stop cleanly and record where their task stopped (matches already written are skipped
  on resume); the host copies the rows out and relaunches the unfinished tasks, growing the
  buffer, until done or ``limit`` rows are collected.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import CapacityError, EngineUnavailableError
from ...inputs.static_graph import StaticGraph
from ._runtime import import_cupy, load_module, persistent_blocks

__all__ = ["count", "enumerate_matches", "exists", "unsupported", "last_run", "MAX_K"]

#: Largest pattern the kernels take (per-level sets of earlier levels are 32-bit masks).
MAX_K = 32
LOGP = 10  # stack page = 1024 ints
WPB = 8  # warps per block (matches kernels/static_common.cuh)
ROOT_CHUNK = 32
C_COUNT, C_FLAGS, C_ROOTCUR, C_OUTCUR, C_NSPLIT, C_NDEQ, C_TRIECUR = 0, 1, 2, 8, 9, 10, 11
F_POOL, F_OVERFLOW, F_FOUND, F_OUTFULL, F_TRIEFULL = 1, 2, 4, 8, 16
MODES = {"count": 0, "exists": 1, "enumerate": 2}

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


# ====================================================================== device state
def _graph_device(graph: StaticGraph) -> dict:
    """Graph arrays on the device (uploaded once per graph, cached on it)."""
    cache = graph._device_cache.setdefault("cuda_static", {})
    if "g" not in cache:
        cp = import_cupy()
        if graph.n >= 2**31 - 1:
            raise CapacityError("the CUDA engine takes graphs of fewer than 2**31 - 1 vertices")
        arr = graph.device_arrays()
        deg = np.diff(graph.indptr)
        owner = np.repeat(np.arange(graph.n, dtype=np.int32), deg)
        dummy_i = cp.zeros(1, dtype=cp.int32)
        g = {
            "indptr": arr["indptr"],
            "indices": arr["indices"],
            "dircode": arr["dircode"],
            "loop": arr["loop"],
            "owner": cp.asarray(owner),
            "deg": cp.asarray(deg.astype(np.int32)),
            "nlab": arr.get("node_label", dummy_i),
            "outl": arr.get("out_label", dummy_i),
            "inl": arr.get("in_label", dummy_i),
            "looplab": arr.get("loop_label", dummy_i),
            "max_degree": int(deg.max()) if len(deg) else 0,
            "nnz": len(graph.indices),
        }
        cache["g"] = g
    return cache["g"]


def _root_mask_device(graph: StaticGraph, plan: Any) -> Any:
    """The plan's root mask on the device, cached on the plan object."""
    cp = import_cupy()
    key = ("cuda_root_ok", id(graph))
    store = getattr(plan, "__dict__", {})
    hit = store.get("_cuda_cache", {}).get(key)
    if hit is not None:
        return hit
    if plan.root_ok is None:
        return None
    dev = cp.asarray(np.ascontiguousarray(plan.root_ok, dtype=np.uint8))
    try:
        cache = store.setdefault("_cuda_cache", {})
        cache[key] = dev
    except Exception:  # pragma: no cover - frozen object without __dict__
        pass
    return dev


@dataclass
class _Prep:
    graph: StaticGraph
    plan: Any
    g: dict
    k: int
    packed: Any
    root_ok: Any
    defines: dict
    mods: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)


def _prepare(graph: StaticGraph, plan: Any, page_log: int = LOGP) -> _Prep:
    cp = import_cupy()
    k = int(plan.k)
    reason = unsupported(plan)
    if reason:
        raise EngineUnavailableError(reason + "; use engine='cpu'")
    g = _graph_device(graph)
    packed = cp.asarray(_pack_plan(plan))
    nlab = int(graph.node_label is not None and _uses_node_labels(plan))
    elab = int(graph.out_label is not None and _uses_edge_labels(plan))
    echk = int(bool(getattr(plan, "edge_checks", True)) or bool(elab) or bool(plan.induced))
    if not 0 <= int(page_log) <= 20:
        raise ValueError(f"page_log must be in [0, 20], got {page_log}")
    defines = {"K": k, "NLAB": nlab, "ELAB": elab, "ECHK": echk, "LOGP": int(page_log)}
    return _Prep(graph, plan, g, k, packed, _root_mask_device(graph, plan), defines)


def _module(prep: _Prep, mode: int) -> Any:
    if mode not in prep.mods:
        cm = load_module("static_dfs.cu", {**prep.defines, "MODE": mode})
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


def _grid(prep: _Prep, kern: Any) -> int:
    return persistent_blocks(kern, WPB * 32)


@dataclass
class _Work:
    """Device work buffers reused across launches of one call."""

    nwarps: int
    maxpg: int
    npages: int
    pt: Any
    pool: Any
    ctl: Any
    queue: Any
    qseq: Any
    qcap: int


def _alloc_work(prep: _Prep, nwarps: int, qcap: int, npages: int | None = None) -> _Work:
    cp = import_cupy()
    page = 1 << prep.defines["LOGP"]
    maxlen = max(prep.g["max_degree"], 1)
    maxpg = -(-maxlen // page)
    nslot = 2 * prep.k
    if npages is None:
        npages = max(nwarps * max(prep.k - 2, 1) * 2, 1024)
    npages = min(npages, nwarps * nslot * maxpg)  # never more than every table entry
    pt = cp.empty(nwarps * nslot * maxpg, dtype=cp.int32)
    pool = cp.empty(npages * page, dtype=cp.int32)
    ctl = cp.zeros(16, dtype=cp.uint64)
    queue = cp.empty(3 * qcap, dtype=cp.int32)
    qseq = cp.empty(qcap, dtype=cp.uint64)
    return _Work(nwarps, maxpg, npages, pt, pool, ctl, queue, qseq, qcap)


def _grow_pool(prep: _Prep, w: _Work) -> None:
    cp = import_cupy()
    nslot = 2 * prep.k
    limit = w.nwarps * nslot * w.maxpg
    if w.npages >= limit:  # pragma: no cover - every table entry already has a page
        raise CapacityError("stack page pool cannot grow further")
    new = min(w.npages * 4, limit)
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
    timeout_ns: int = 0,
    out: Any = None,
    outcap: int = 0,
    resume: Any = None,
) -> np.ndarray:
    """One DFS launch, re-run with a bigger page pool until it does not run dry."""
    cp = import_cupy()
    kern = _module(prep, mode).kernel("static_dfs")
    grid = w.nwarps // WPB
    if trie is None:
        src_mode = 0
        ntl = 0 if tl_entry is None else len(tl_entry)
        trie_args = [_null(), _null(), _null(), _null(), _null(), np.int64(0), np.int32(0)]
    else:
        src_mode = 1
        ntl = 0
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
    while True:
        w.ctl.fill(0)
        w.pt.fill(-1)
        if timeout_ns > 0:
            w.qseq[...] = cp.arange(w.qcap, dtype=cp.uint64)  # slot i: free for position i
        if resume is not None:
            resume.fill(-1)
        args = [
            *_graph_args(prep),
            prep.packed,
            np.int32(src_mode),
            np.int64(lo),
            np.int64(hi),
            tl_entry if ntl else _null(),
            tl_skip if ntl else _null(),
            np.int64(ntl),
            *trie_args,
            w.ctl,
            w.queue,
            w.qseq,
            np.int64(w.qcap),
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
        kern((grid,), (WPB * 32,), tuple(args))
        end.record()
        end.synchronize()
        prep.stats["kernel_ms"] = prep.stats.get("kernel_ms", 0.0) + float(
            cp.cuda.get_elapsed_time(start, end)
        )
        prep.stats["launches"] = prep.stats.get("launches", 0) + 1
        ctl = w.ctl.get()
        if int(ctl[C_FLAGS]) & F_POOL:  # results of this launch are void: bigger pool, re-run
            _grow_pool(prep, w)
            continue
        prep.stats["splits"] = prep.stats.get("splits", 0) + int(ctl[C_NSPLIT])
        prep.stats["dequeued"] = prep.stats.get("dequeued", 0) + int(ctl[C_NDEQ])
        if int(ctl[C_FLAGS]) & F_OVERFLOW:
            raise CapacityError("match count overflows 64 bits")
        return ctl


# ====================================================================== helpers
def _range(graph: StaticGraph, lo: int, hi: int | None) -> tuple[int, int]:
    nnz = len(graph.indices)
    hi = nnz if hi is None else int(hi)
    lo = int(lo)
    if not 0 <= lo <= hi <= nnz:
        raise ValueError(f"task range [{lo}, {hi}) outside [0, {nnz}]")
    return lo, hi


def _small_k_count(graph: StaticGraph, plan: Any, lo: int, hi: int) -> int:
    if plan.k == 1:
        from ...plan.static_plan import node_mask

        return int(node_mask(graph, plan, 0).sum())
    return int(np.asarray(plan.root_ok[lo:hi], dtype=np.int64).sum())


def _finish_stats(prep: _Prep, **kw: Any) -> None:
    last_run.clear()
    last_run.update(prep.stats)
    last_run.update(kw)


def _nwarps(prep: _Prep, mode: int) -> int:
    return _grid(prep, _module(prep, mode).kernel("static_dfs")) * WPB


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
    nwarps = _nwarps(prep, mode)
    w = _alloc_work(prep, nwarps, 1, pool_pages)
    grid = nwarps // WPB
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
                    raise CapacityError("match count overflows 64 bits")
                total += c
        prep.stats["trie_depth"] = max(prep.stats.get("trie_depth", 0), d)
        start = stop
    prep.stats["trie_chunks"] = chunks
    return int(found) if mode == 1 else total


def _symmetric_plan(graph: StaticGraph, plan: Any) -> Any:
    """The distinct-occurrence plan of a mapping plan's pattern (cached on the plan), or None."""
    if getattr(plan, "distinct", True) or int(getattr(plan, "num_automorphisms", 1)) <= 1:
        return None
    if len(plan.sym_level) or getattr(plan, "pattern", None) is None or plan.k < 3:
        return None
    store = plan.__dict__.setdefault("_cuda_cache", {})
    key = ("symmetric_plan", id(graph))
    if key not in store:
        from ...plan.static_plan import build_static_plan

        store[key] = build_static_plan(plan.pattern, graph, induced=plan.induced, distinct=True)
    return store[key]


# ====================================================================== public API
_TUNING_DOC = """
    Tuning (defaults are right for normal use; tests use them to force the rare paths):
    ``page_log`` (stack page = ``2**page_log`` ints, default 10), ``pool_pages`` (initial page
    pool; it grows 4x on exhaustion and the launch is re-run), ``queue_capacity`` (tasks in the
    circular split queue)."""


def count(
    graph: StaticGraph,
    plan: Any,
    lo: int = 0,
    hi: int | None = None,
    *,
    strategy: str = "auto",
    timeout_ms: float = 10.0,
    trie_budget: int = 1 << 26,
    trie_depth: int | None = None,
    page_log: int = LOGP,
    pool_pages: int | None = None,
    queue_capacity: int = 1 << 20,
    symmetry: bool | None = None,
) -> int:
    """Count the matches the plan admits among root entries ``[lo, hi)``.

    Parameters
    ----------
    graph : StaticGraph
        Data graph (its arrays are uploaded once and cached).
    plan : StaticPlan
        Matching plan (mappings or, with symmetry restrictions, distinct subgraphs).
    lo, hi : int
        Root task range of union-CSR entries (default: all).
    strategy : {"auto", "dfs", "trie"}
        ``"dfs"``: T-DFS warp stacks from root edges; ``"trie"``: cuTS trie for the first BFS
        levels, then DFS from its leaves (patterns of 4+ nodes). ``"auto"`` picks ``"trie"``
        for 4+ nodes and ``"dfs"`` for 3 (measured fastest on the benchmark graphs,
        docs/cuda_static.md).
    timeout_ms : float
        T-DFS straggler timeout; 0 disables splitting.
    trie_budget : int
        Largest trie level (in nodes) built at once; root edges are chunked to stay below it.
    trie_depth : int, optional
        Deepest trie level (2 or 3); default 3 when it fits and k >= 5.
    page_log, pool_pages, queue_capacity : int
        Tuning, see the module notes.
    symmetry : bool, optional
        For a mapping plan (no symmetry restrictions) over the whole root range, count the
        distinct occurrences with T-DFS's automorphism-based symmetry breaking and multiply by
        ``|Aut(P)|`` (exact: every occurrence is the image of exactly ``|Aut(P)|`` mappings).
        ``None`` (default) does so whenever ``|Aut(P)| > 1``; ``False`` walks every mapping.
        Sub-ranges are always counted directly (their per-range counts differ).

    Returns
    -------
    int
        Number of matches (64-bit; overflow raises :class:`CapacityError`).
    """
    opts = dict(
        strategy=strategy,
        timeout_ms=timeout_ms,
        trie_budget=trie_budget,
        trie_depth=trie_depth,
        page_log=page_log,
        pool_pages=pool_pages,
        queue_capacity=queue_capacity,
        symmetry=symmetry,
    )
    return _count_or_exists(graph, plan, lo, hi, 0, **opts)


def exists(
    graph: StaticGraph,
    plan: Any,
    lo: int = 0,
    hi: int | None = None,
    *,
    strategy: str = "auto",
    timeout_ms: float = 10.0,
    trie_budget: int = 1 << 26,
    page_log: int = LOGP,
    pool_pages: int | None = None,
    queue_capacity: int = 1 << 20,
) -> bool:
    """True if at least one match exists among root entries ``[lo, hi)`` (warps stop early).

    Parameters are those of :func:`count`.

    Returns
    -------
    bool
    """
    opts = dict(
        strategy=strategy,
        timeout_ms=timeout_ms,
        trie_budget=trie_budget,
        trie_depth=None,
        page_log=page_log,
        pool_pages=pool_pages,
        queue_capacity=queue_capacity,
    )
    return bool(_count_or_exists(graph, plan, lo, hi, 1, **opts))


def _count_or_exists(
    graph: StaticGraph,
    plan: Any,
    lo: int,
    hi: int | None,
    mode: int,
    *,
    strategy: str,
    timeout_ms: float,
    trie_budget: int,
    trie_depth: int | None,
    page_log: int,
    pool_pages: int | None,
    queue_capacity: int,
    symmetry: bool | None = None,
) -> int:
    if strategy not in ("auto", "dfs", "trie"):
        raise ValueError(f"strategy must be 'auto', 'dfs' or 'trie', got {strategy!r}")
    lo, hi = _range(graph, lo, hi)
    if plan.impossible or hi <= lo:
        last_run.clear()
        return 0
    if plan.k <= 2:
        last_run.clear()
        c = _small_k_count(graph, plan, lo, hi)
        return int(c > 0) if mode == 1 else c
    nnz = len(graph.indices)
    sym_plan = _symmetric_plan(graph, plan) if symmetry is not False else None
    if sym_plan is not None and lo == 0 and hi == nnz and mode == 0:
        res = _count_or_exists(
            graph,
            sym_plan,
            lo,
            hi,
            mode,
            strategy=strategy,
            timeout_ms=timeout_ms,
            trie_budget=trie_budget,
            trie_depth=trie_depth,
            page_log=page_log,
            pool_pages=pool_pages,
            queue_capacity=queue_capacity,
            symmetry=False,
        )
        aut = int(plan.num_automorphisms)
        if res * aut >= 2**64:
            raise CapacityError(f"match count {res} x {aut} overflows 64 bits")
        last_run["symmetry"] = aut
        return res * aut
    prep = _prepare(graph, plan, page_log)
    if strategy in ("trie", "auto") and prep.k >= 4:
        res = _count_trie(prep, mode, lo, hi, trie_budget, trie_depth, pool_pages)
        _finish_stats(prep, strategy="trie")
        return res
    nwarps = _nwarps(prep, mode)
    tau = int(timeout_ms * 1e6) if timeout_ms and timeout_ms > 0 else 0
    if tau and queue_capacity < 1:
        raise ValueError("queue_capacity must be >= 1")
    w = _alloc_work(prep, nwarps, int(queue_capacity) if tau else 1, pool_pages)
    ctl = _dfs_launch(prep, mode, w, lo=lo, hi=hi, timeout_ns=tau)
    _finish_stats(prep, strategy="dfs", warps=nwarps, pages=w.npages)
    if mode == 1:
        return int(bool(int(ctl[C_FLAGS]) & F_FOUND))
    return int(ctl[C_COUNT])


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

    Returns
    -------
    numpy.ndarray
        int64 ``(n, k)``.
    """
    cp = import_cupy()
    k = int(plan.k)
    lo, hi = _range(graph, lo, hi)
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    if buffer_rows < 1 or max_buffer_rows < buffer_rows:
        raise ValueError("need 1 <= buffer_rows <= max_buffer_rows")
    order = np.asarray(plan.order, dtype=np.int64)
    empty = np.zeros((0, k), dtype=np.int64)
    if plan.impossible or hi <= lo or limit == 0:
        return empty
    if k <= 2:
        if k == 1:
            from ...plan.static_plan import node_mask

            rows = np.flatnonzero(node_mask(graph, plan, 0)).reshape(-1, 1)
        else:
            e = lo + np.flatnonzero(np.asarray(plan.root_ok[lo:hi]))
            owner = np.searchsorted(graph.indptr, e, side="right") - 1
            rows = np.stack([owner, graph.indices[e].astype(np.int64)], axis=1)
        if limit is not None:
            rows = rows[:limit]
        out = np.empty((len(rows), k), dtype=np.int64)
        out[:, order] = rows
        return out
    prep = _prepare(graph, plan, page_log)
    mode = 2
    nwarps = _nwarps(prep, mode)
    w = _alloc_work(prep, nwarps, 1, pool_pages)
    resume = cp.empty(3 * nwarps, dtype=cp.int64)
    pieces: list[np.ndarray] = []
    got = 0
    cap = int(buffer_rows)
    tl_e = np.zeros(0, dtype=np.int64)
    tl_s = np.zeros(0, dtype=np.int64)
    rounds = 0
    while True:
        rounds += 1
        want = cap if limit is None else min(cap, limit - got)
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
            pieces.append(out[: nrows * k].get().reshape(nrows, k))
            got += nrows
        del out
        if not int(ctl[C_FLAGS]) & F_OUTFULL:
            break
        if limit is not None and got >= limit:
            break
        tl_e, tl_s, lo = _resume_tasks(resume.get(), ctl, tl_e, tl_s, lo, hi)
        cap = min(cap * 4, int(max_buffer_rows))
    rows = np.concatenate(pieces) if pieces else np.zeros((0, k), dtype=np.int32)
    if limit is not None:
        rows = rows[:limit]
    res = np.empty((len(rows), k), dtype=np.int64)
    res[:, order] = rows
    _finish_stats(prep, strategy="dfs", rounds=rounds, warps=nwarps)
    return res


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
