"""Device data of the CUDA static engine: the graph on the device, per-plan and work buffers.

* :func:`graph_device`: the graph's arrays on the current device (uploaded once per graph and
  device and kept with the graph), or, out of core, its per-entry arrays in host memory that
  the kernels read directly (:mod:`.hostmem`); with them the packed :data:`GRAPH` view that
  every kernel of the family takes by value (its pointers do not change, so it is packed once).
* :func:`plan_data`: per (plan, device): the packed plan, the root mask, the root task lists
  and the work buffers, freed with the plan.
* :class:`Prep` / :func:`prepare`: one call's view of both, with its module macros;
  :func:`work` / :func:`grow_pool`: the DFS stacks' page tables and page pool.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import CapacityError, EngineUnavailableError
from ...inputs.label_groups import label_starts
from ...inputs.static_graph import StaticGraph
from . import hostmem
from ._runtime import current_device, import_cupy, per_device, persistent_blocks
from .kernel_args import KernelStruct
from .static_build import (
    WPB,
    check_part,
    current_tuning,
    deal,
    kernel_defines,
    pack_plan,
    unsupported,
)

__all__ = [
    "GRAPH",
    "Ooc",
    "graph_device",
    "forget_ooc",
    "resident",
    "PLAN_DATA",
    "plan_data",
    "Prep",
    "prepare",
    "Work",
    "work",
    "grow_pool",
    "drop_work",
    "root_tasks",
    "level_bound",
]

#: The graph view every kernel of the family takes by value (``kernels/static_common.cuh``).
GRAPH = KernelStruct("static_common.cuh", "Graph")


@dataclass(frozen=True)
class Ooc:
    """Out-of-core settings of one call (:func:`memory.static_ooc_settings`), with the hot-block
    granularity of the tuning in force (part of the host copy's key)."""

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
    block_entries: int


def _pack_view(g: dict, n: int) -> None:
    """``g["view"]``: the packed :data:`GRAPH` of the arrays in ``g``, without a root mask
    (a plan's mask is set per call: :func:`prepare`)."""
    g["view"] = GRAPH.pack(
        indptr=g["indptr"],
        indices=g["indices"],
        dircode=g["dircode"],
        owner=g["owner"],
        deg=g["deg"],
        loop=g["loop"],
        nlab=g["nlab"],
        outl=g["outl"],
        inl=g["inl"],
        looplab=g["looplab"],
        root_ok=None,
        lstart=g["lstart"],
        n=n,
    )


def _label_starts(graph: StaticGraph) -> Any:
    """The label ranges of a label-grouped graph on the device (:func:`label_starts`), or
    None (the kernels then cut no list by label)."""
    starts = label_starts(graph)
    return None if starts is None else import_cupy().asarray(starts)


def graph_device(graph: StaticGraph, ooc: Ooc | None = None) -> dict:
    """Graph arrays on the current device (uploaded once per graph and device, kept with it).

    Out of core (``ooc``): the per-entry arrays live in host memory the kernels read directly
    (:mod:`.hostmem`), the per-vertex arrays and hot blocks on the current device; keyed by
    device id like the in-memory copy.
    """
    dev = current_device()
    if ooc is not None:
        key = ("cuda_static_graph_ooc", dev, ooc.placement, ooc.hot_bytes, ooc.block_entries)
        if not graph.has_derived(key):  # one host copy per device at a time
            forget_ooc(graph, dev)
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
        g = {
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
            "lstart": _label_starts(graph),
            "max_degree": int(deg.max()) if len(deg) else 0,
            "nnz": len(graph.indices),
        }
        _pack_view(g, graph.n)
        return g

    return graph.derived(("cuda_static_graph", dev), build)


def forget_ooc(graph: StaticGraph, dev: int) -> None:
    """Drop device ``dev``'s out-of-core graph copies (other devices' copies stay)."""
    graph.forget_derived("cuda_static_graph_ooc", dev)


def _entry_bytes(graph: StaticGraph) -> int:
    return 9 + (8 if graph.out_label is not None else 0)


def _graph_host(graph: StaticGraph, ooc: Ooc) -> dict:
    """The out-of-core graph: per-entry arrays in host memory, hot blocks on the device."""
    cp = import_cupy()
    if graph.n >= 2**31 - 1:
        raise CapacityError("the CUDA engine takes graphs of fewer than 2**31 - 1 vertices")
    deg = np.diff(graph.indptr)
    owner = np.repeat(np.arange(graph.n, dtype=np.int32), deg)
    hot = None
    block = ooc.block_entries
    if ooc.placement == "managed":
        hot = hostmem.hot_blocks(graph.indptr, ooc.hot_bytes // _entry_bytes(graph), block)
    on_device = 0

    def put(a: np.ndarray) -> Any:
        nonlocal on_device
        arr, b = hostmem.host_array(a, ooc.placement, hot, block)
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
        "lstart": _label_starts(graph),
        "max_degree": int(deg.max()) if len(deg) else 0,
        "nnz": len(graph.indices),
        "hot": hot,
    }
    g["hot_device_bytes"] = on_device
    _pack_view(g, graph.n)
    return g


def resident(graph: StaticGraph) -> bool:
    """Whether the in-memory device graph is built on the current device (or the graph was
    built there from cuDF / CuPy columns: its CSR is on the device already)."""
    dev = current_device()
    if graph.has_derived(("cuda_static_graph", dev)):
        return True
    return graph.built_on_device and graph.has_device_data(("arrays", dev))


# ====================================================================== per-plan data
#: Per-plan device data (packed plan, root mask, root task lists, work buffers), freed with
#: the plan, one entry per device id. A plan belongs to the graph it was built for; the entry
#: remembers that graph.
PLAN_DATA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PLAN_LOCK = threading.Lock()


def plan_data(graph: StaticGraph, plan: Any, ooc: Ooc | None = None) -> dict:
    """The plan's device data on the current device (``packed``, ``root_ok``, ``tasks``,
    ``work``); out of core, the root mask lives in host memory and the work buffers apart."""
    dev = current_device()
    entries = per_device(PLAN_DATA, _PLAN_LOCK, plan)
    d = entries.get(dev)
    if d is None or d["graph"]() is not graph:
        d = {"graph": weakref.ref(graph), "tasks": {}, "work": {}}
        entries[dev] = d
    tuning = current_tuning()
    switches = (bool(tuning.full_raw_reuse), bool(tuning.hoist_sets))
    if d.get("packed_as") != switches:  # the packing the tuning in force asks for
        cp = import_cupy()
        d["packed"] = cp.asarray(pack_plan(plan, *switches))
        d["packed_as"] = switches
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
        g = graph_device(graph, ooc)
        d[key] = None
        if plan.root_ok is not None:
            d[key], on_device = hostmem.host_array(
                np.asarray(plan.root_ok, dtype=np.uint8), ooc.placement, g["hot"],
                ooc.block_entries,
            )  # fmt: skip
            g["hot_device_bytes"] += on_device
    return {**d, "root_ok": d[key], "work": d.setdefault("work_ooc", {}), "tasks": {}}


def drop_work(graph: StaticGraph, plan: Any, *args: Any, **kw: Any) -> None:
    """Forget the plan's cached work buffers (after a GPU out-of-memory error)."""
    d = (PLAN_DATA.get(plan) or {}).get(current_device())
    if d is not None:
        d["work"].clear()
        d["tasks"].clear()


@dataclass
class Prep:
    """One call's device data: the graph (``g``) and plan data, the packed graph view with the
    plan's root mask (``view``), the module macros, compiled modules and statistics."""

    graph: StaticGraph
    plan: Any
    g: dict
    k: int
    packed: Any
    root_ok: Any
    defines: dict
    data: dict
    tail: bool
    view: np.ndarray
    mods: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    ooc: Ooc | None = None


def prepare(
    graph: StaticGraph, plan: Any, page_log: int, tail: bool = True, ooc: Ooc | None = None
) -> Prep:
    """The device data of one call (uploads what is not on the device yet)."""
    reason = unsupported(plan)
    if reason:
        raise EngineUnavailableError(reason + "; use engine='cpu'")
    if not 0 <= int(page_log) <= 20:
        raise ValueError(f"page_log must be in [0, 20], got {page_log}")
    g = graph_device(graph, ooc)
    data = plan_data(graph, plan, ooc)
    defines = kernel_defines(graph, plan, page_log)
    view = g["view"].copy()
    root_ok = data["root_ok"]
    view["root_ok"] = 0 if root_ok is None else int(root_ok.data.ptr)
    return Prep(
        graph, plan, g, int(plan.k), data["packed"], root_ok, defines, data, tail, view, ooc=ooc
    )


# ====================================================================== work buffers
@dataclass
class Work:
    """Device work buffers of one (plan, mode, page size), reused across calls."""

    nwarps: int
    maxpg: int
    npages: int
    pt: Any
    pool: Any
    ctl: Any
    dumps: list = field(default_factory=list)  # two record buffers (ping-pong)
    dumpcap: int = 0


def work(prep: Prep, mode: int, kernel: Any, npages: int | None = None, dumpcap: int = 0) -> Work:
    """The plan's work buffers for ``mode`` (allocated once; grown on demand).

    ``kernel``: the mode's compiled ``static_dfs`` (its registers bound the resident warps).
    """
    ooc = prep.ooc
    key = (mode, prep.defines["LOGP"], npages, ooc)
    w = prep.data["work"].get(key)
    if w is None and ooc is not None:  # buffers of another budget go first
        for old in [k for k in prep.data["work"] if k[3] != ooc]:
            del prep.data["work"][old]
    if w is None:
        cp = import_cupy()
        nwarps = persistent_blocks(kernel, WPB * 32) * WPB
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
        w = Work(
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


def grow_pool(prep: Prep, w: Work) -> None:
    """A bigger page pool after a launch ran it dry (out of core: fewer warps at the cap)."""
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


# ====================================================================== task lists
def root_tasks(prep: Prep, lo: int, hi: int, part: tuple[int, int] = (0, 1)) -> Any:
    """Root entries of ``[lo, hi)`` that pass the root mask, heaviest first (int64, device).

    The estimate ``deg(u) + deg(v)`` orders the tasks so that the long ones start first and the
    end of the launch is made of short ones; the full range's list is kept with the plan.
    ``part = (i, n)``: the ``i``-th of ``n`` parts of that list, its tasks dealt out in snake
    order (:func:`~.static_build.deal`: about ``1/n`` of the work each; kept too).
    """
    i, n = check_part(part)
    if n != 1:
        key = (lo, hi, i, n)
        hit = prep.data["tasks"].get(key)
        if hit is None:
            hit = deal(root_tasks(prep, lo, hi), part)
            if lo == 0 and hi == prep.g["nnz"]:
                prep.data["tasks"][key] = hit
        return hit
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


def level_bound(prep: Prep, level: int, verts: list) -> Any:
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
