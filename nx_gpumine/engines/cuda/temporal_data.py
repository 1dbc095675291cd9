"""Device data of the CUDA temporal engine: per graph and device, per plan and device.

* Per graph and device, cached on the graph (``graph.device_data(("cuda_temporal", dev))``,
  dropped by :func:`release`): its arrays (:func:`graph_arrays`), the walk index
  (:func:`walk_device`), the lists as entries (:func:`lists_device`), the root filter's gaps
  (:func:`level1_gaps_device`), the split gate (:func:`split_gate`), and the packed graph views
  the kernels take (:func:`graph_view`).
* Per plan and device (:class:`Prep`, in :data:`PLAN_DATA`, keyed weakly by the plan): the
  compiled module, label codes, limits and node conditions, work buffers, events and the
  launches kept for replay (``temporal_launch``).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import TemporalPlan
from ._runtime import compile_each, current_device, import_cupy, load_module
from .temporal_build import (
    CTL_WORDS,
    GRAPH_VIEW,
    LAUNCH,
    gap_quantiles,
    kernel_defines,
    level1_gaps,
    list_entries,
    pair_index,
    pair_triples,
    walk_arrays,
    wide_ids,
)
from .temporal_tuning import current_tuning

__all__ = [
    "device_cache",
    "graph_arrays",
    "walk_device",
    "lists_device",
    "level1_gaps_device",
    "split_gate",
    "parallel_triples",
    "GraphView",
    "graph_view",
    "upload",
    "release",
    "Prep",
    "PLAN_DATA",
    "prepare",
    "kernel",
    "compile_ahead",
    "buffer",
    "zero",
    "prefix_buffer",
    "drop_buffers",
    "events",
    "ctl_host",
]


# ====================================================================== per graph
def device_cache(graph: TemporalGraph) -> dict:
    """The graph's cache of device data for the current device (keyed by device id)."""
    return graph.device_data(("cuda_temporal", current_device()), dict)


def graph_arrays(graph: TemporalGraph) -> dict:
    """The graph's arrays on the current device (once per graph and device; ids 32-bit when
    they fit)."""
    cache = device_cache(graph)
    if "g" not in cache:
        cp = import_cupy()
        idx = np.int64 if wide_ids(graph) else np.int32
        dummy = cp.zeros(1, dtype=cp.int32)
        dev = graph.device_data("arrays") if graph.built_on_device else None
        if dev is not None and dev["src"].device.id != cp.cuda.runtime.getDevice():
            dev = None  # built on another GPU: upload the host mirror here

        def put(name: str, dtype: Any) -> Any:
            """The array on the device: as built there (cuDF / CuPy input), else uploaded."""
            if dev is not None:
                return dev[name].astype(dtype, copy=False)
            return cp.asarray(getattr(graph, name).astype(dtype, copy=False))

        cache["g"] = {
            "src": put("src", np.int32),
            "dst": put("dst", np.int32),
            "time": put("time", graph.time.dtype),
            "next_id": put("next_id", idx),
            "out_ptr": put("out_ptr", idx),
            "out_edges": put("out_edges", idx),
            "in_ptr": put("in_ptr", idx),
            "in_edges": put("in_edges", idx),
            "nlab": dummy if graph.node_label is None else cp.asarray(graph.node_label, cp.int32),
            "elab": dummy if graph.edge_label is None else cp.asarray(graph.edge_label, cp.int32),
        }
    return cache["g"]


def walk_device(graph: TemporalGraph) -> tuple:
    """The walk index (:func:`~.temporal_build.walk_arrays`) on the device (built there once per
    graph, cached)."""
    cache = device_cache(graph)
    if "walk" not in cache:
        cp = import_cupy()
        g = graph_arrays(graph)
        cache["walk"] = walk_arrays(cp, g["src"], g["dst"], g["out_edges"], g["in_edges"])
    return cache["walk"]


def lists_device(graph: TemporalGraph) -> tuple:
    """``(out_l, in_l, pair_l)``: the entries (:func:`~.temporal_build.list_entries`) of the
    out-lists, the in-lists and the pair index (:func:`~.temporal_build.pair_index`) on the
    current device, built there once per graph and device and cached, so that a walk along a
    list reads one entry per candidate (its id, other endpoint and time in one sector).
    """
    cache = device_cache(graph)
    if "lists" not in cache:
        cp = import_cupy()
        g = graph_arrays(graph)
        out_e, in_e = g["out_edges"], g["in_edges"]
        pair_ids, pair_dst = pair_index(cp, g["src"], g["dst"], graph.n, out_e.dtype)
        cache["lists"] = (
            list_entries(cp, out_e, g["dst"][out_e], g["time"][out_e]),
            list_entries(cp, in_e, g["src"][in_e], g["time"][in_e]),
            list_entries(cp, pair_ids, pair_dst, g["time"][pair_ids]),
        )
    return cache["lists"]


def level1_gaps_device(graph: TemporalGraph, kind: str) -> tuple:
    """``(gaps, quantiles)``: :func:`~.temporal_build.level1_gaps` on the current device and
    its :func:`~.temporal_build.gap_quantiles`, for the last list kind asked (cached per graph;
    the memory estimate counts one such array)."""
    cache = device_cache(graph)
    hit = cache.get("gap1")
    if hit is None or hit[0] != kind:
        cache.pop("gap1", None)
        cp = import_cupy()
        gaps = level1_gaps(cp, kind, graph_arrays(graph), walk_device(graph))
        cache["gap1"] = (kind, gaps, gap_quantiles(cp, gaps))
    return cache["gap1"][1:]


def split_gate(graph: TemporalGraph, kind: str, nth: int, roots: int) -> float:
    """The ``roots``-th smallest gap from an edge to the ``nth`` next edge of list ``kind``
    (:func:`~.temporal_build.level1_gaps`; ``inf`` when fewer edges have one): splitting runs
    only for level-1 limits at or above it (cached per graph, list kind, ``nth`` and
    ``roots``)."""
    cache = device_cache(graph).setdefault("split_gate", {})
    key = (kind, nth, roots)
    if key not in cache:
        cp = import_cupy()
        gaps = level1_gaps(cp, kind, graph_arrays(graph), walk_device(graph), nth)
        gaps = gaps.astype(cp.float64)  # GAP_NONE / inf where no nth edge: never below a limit
        kth = float(cp.partition(gaps, roots - 1)[roots - 1]) if len(gaps) >= roots else None
        cache[key] = float("inf") if kth is None else kth
    return cache[key]


def parallel_triples(graph: TemporalGraph) -> float:
    """:func:`~.temporal_build.pair_triples` of the graph, on the current device (once per graph
    and device, cached)."""
    cache = device_cache(graph)
    if "parallel_triples" not in cache:
        g = graph_arrays(graph)
        cache["parallel_triples"] = pair_triples(import_cupy(), g["src"], g["dst"], graph.n)
    return cache["parallel_triples"]


@dataclass(frozen=True)
class GraphView:
    """A packed ``TGraph`` (``kernels/temporal_common.cuh``) and the device arrays its pointers
    address, kept alive with it (a packed view holds bare addresses)."""

    value: np.ndarray
    arrays: tuple


def graph_view(graph: TemporalGraph, *, indexes: bool) -> GraphView:
    """The graph's view as the kernels take it, packed once per graph and device (the pointers
    do not change; cached with the arrays they address, and dropped with them).

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    indexes : bool
        With the walk index and the lists as entries (the DFS kernels; built here if needed);
        without, those pointers are null (the census reads the id lists only). ``allow`` (the
        plan's node conditions) is null: the DFS kernels' per-plan copy sets it
        (:func:`~.temporal_launch.plan_view`).
    """
    cache = device_cache(graph)
    key = "view" if indexes else "view_census"
    if key not in cache:
        g = graph_arrays(graph)
        walk = walk_device(graph) if indexes else (None,) * 4
        lists = lists_device(graph) if indexes else (None,) * 3
        fields = {name: g.get(name) for name in GRAPH_VIEW.names if name in g}
        fields.update(zip(("pos_out", "pos_in", "out_after_in", "in_after_out"), walk, strict=True))
        fields.update(zip(("out_l", "in_l", "pair_l"), lists, strict=True))
        arrays = tuple(v for v in fields.values() if v is not None)
        types = {"IDX64": int(wide_ids(graph)), "TFLOAT": int(not graph.integer_times)}
        value = GRAPH_VIEW.pack(types, **fields, allow=None, n=graph.n, m=graph.m)
        cache[key] = GraphView(value, arrays)
    return cache[key]


def upload(graph: TemporalGraph) -> None:
    """Put ``graph`` on the device and build its walk, pair and list indexes now (otherwise done
    on first use). All are cached on the graph; benchmarks call this to time them apart.
    """
    walk_device(graph)
    lists_device(graph)


def release(graph: TemporalGraph) -> None:
    """Free the current device's data of ``graph``: its arrays, walk, pair and list indexes,
    and the plan data (work buffers, kept launches) of plans run on it there.
    Rebuilt on next use; other devices' data stay. The multi-device scheduler calls this after
    each time-partition slice when a device budget is in force (``docs/out_of_core.md``).
    """
    dev = current_device()
    graph.forget_device_data("cuda_temporal", dev)
    with PLAN_LOCK:
        for per_device in list(PLAN_DATA.values()):
            for key in _device_keys(per_device, dev):
                owner = per_device[key][0]()
                if owner is None or owner is graph:
                    del per_device[key]


def _device_keys(per_device: dict, dev: int) -> list:
    """The keys of a plan's data on device ``dev``: ``dev``, and ``(dev, windows)`` for its
    walks that bin several windows (:func:`prepare`)."""
    return [k for k in per_device if k == dev or (isinstance(k, tuple) and k[0] == dev)]


# ====================================================================== per plan
@dataclass
class Prep:
    """A plan's device data on one device, cached in :data:`PLAN_DATA`.

    It refers to its graph and plan weakly: the cache is keyed weakly by the plan, and a strong
    reference from a cached value back to its key would keep the plan, its graph and all their
    device arrays alive for the rest of the process.
    """

    graph_ref: weakref.ref
    plan_ref: weakref.ref
    defines: dict
    plab: Any
    tlim: Any
    allow: Any
    module: Any = None
    built: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    buffers: dict = field(default_factory=dict)
    #: ``(grid size, packed graph view with the plan's allow, the graph's view)``: fixed per
    #: graph and plan (``temporal_launch.plan_view``)
    launch: tuple | None = None
    #: ``LAUNCH``'s dtype under the plan's macros (its ``idx_t`` / ``tm_t``)
    launch_pack: Any = None

    @property
    def graph(self) -> TemporalGraph:
        return _alive(self.graph_ref, "graph")

    @property
    def plan(self) -> TemporalPlan:
        return _alive(self.plan_ref, "plan")


def _alive(ref: weakref.ref, what: str) -> Any:
    """The object ``ref`` refers to; RuntimeError naming ``what`` when it was freed."""
    obj = ref()
    if obj is None:  # pragma: no cover - callers hold the graph and plan while they run
        raise RuntimeError(f"the {what} of this prepared plan was freed")
    return obj


#: Per-plan device data (compiled module, label codes, limits, work buffers), freed with the
#: plan, one entry per device id: ``(weak reference to the graph, Prep)``.
PLAN_DATA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
PLAN_LOCK = threading.Lock()


def prepare(graph: TemporalGraph, plan: TemporalPlan, windows: tuple = ()) -> Prep:
    """The plan's device data on the current device (made on the plan's first run there, with
    the current tuning's compiled-in settings; its statistics reset per call).

    ``windows``: narrower windows (ascending, in the graph's time type) to count in the same
    walk, each match binned by its span (``temporal_dfs.cu`` ``NWIN``; a module of its own)."""
    dev = current_device()
    with PLAN_LOCK:
        per_device = PLAN_DATA.get(plan)
        if per_device is None:
            per_device = PLAN_DATA[plan] = {}
    key = (dev, windows) if windows else dev
    hit = per_device.get(key)
    if hit is not None and hit[0]() is graph:
        prep = hit[1]
        prep.stats = {}
        return prep
    cp = import_cupy()
    if plan.lim_dtype != graph.time.dtype:
        raise ValueError("plan and graph differ in time dtype: build the plan for this graph")
    defines = kernel_defines(plan, graph)
    tdt = graph.time.dtype
    plab = np.concatenate([plan.node_label, plan.edge_label]).astype(np.int32)
    tlim = np.concatenate([[plan.delta], plan.gap, plan.anti_w]).astype(tdt)
    if windows:  # after the plan's limits (temporal_dfs.cu WIN0), in the time type
        tlim = np.concatenate([tlim, np.asarray(windows, dtype=tdt)])
        defines = {**defines, "NWIN": len(windows) + 1}
    allow = cp.zeros(1, dtype=cp.uint8)
    if defines["ALLOW"]:
        allow = cp.asarray(np.ascontiguousarray(plan.node_allow, dtype=np.uint8).ravel())
    graph_ref = weakref.ref(graph)
    prep = Prep(graph_ref, weakref.ref(plan), defines, cp.asarray(plab), cp.asarray(tlim), allow)
    prep.launch_pack = LAUNCH.packer(defines)
    per_device[key] = (graph_ref, prep)
    return prep


def kernel(prep: Prep, name: str = "temporal_dfs") -> Any:
    """A kernel of the module specialised for the plan's structure (compiled once; where the
    build for ``MIN_BLOCKS`` spills more than the tuning's ``spill_max`` bytes a thread, built
    again for one block per SM fewer)."""
    if prep.module is None:
        structs = (GRAPH_VIEW, LAUNCH)
        module = load_module("temporal_dfs.cu", prep.defines, structs=structs)
        seconds = module.compile_seconds
        blocks = prep.defines.get("MIN_BLOCKS", 1)
        spill_max = current_tuning().spill_max
        if blocks > 1 and module.kernel("temporal_dfs").local_size_bytes > spill_max:
            # the register cap spills too much for this shape: one block per SM fewer
            prep.defines = {**prep.defines, "MIN_BLOCKS": blocks - 1}
            module = load_module("temporal_dfs.cu", prep.defines, structs=structs)
            seconds += module.compile_seconds
        prep.module = module
        prep.stats["compile_seconds"] = seconds
        k = module.kernel("temporal_dfs")
        prep.built = {  # what the DFS kernel was built as (the probes report it)
            "min_blocks": prep.defines.get("MIN_BLOCKS", 1),
            "registers": int(k.num_regs),
            "local_bytes": int(k.local_size_bytes),
        }
    if name == "temporal_dfs":
        prep.stats.update(prep.built)
    return prep.module.kernel(name)


def compile_ahead(preps: list[Prep]) -> None:
    """Compile the DFS modules of ``preps`` not compiled yet side by side
    (:func:`~._runtime.compile_each`): a table's motifs each have a module of their own, which
    :func:`kernel` would otherwise compile one after another as each walk starts."""
    compile_each([lambda p=p: kernel(p) for p in preps if p.module is None])


def buffer(prep: Prep, name: str, size: int, dtype: Any) -> Any:
    """A device work buffer of at least ``size`` elements, kept with the plan."""
    buf = prep.buffers.get(name)
    if buf is None or len(buf) < size:
        cp = import_cupy()
        buf = cp.empty(max(size, 1), dtype=dtype)
        prep.buffers[name] = buf
    return buf


def zero(a: Any) -> None:
    """Zero the contiguous device array ``a`` on the current stream (a memset, without CuPy's
    kernel launch machinery: this runs on every call)."""
    cp = import_cupy()
    cp.cuda.runtime.memsetAsync(a.data.ptr, 0, a.nbytes, cp.cuda.get_current_stream().ptr)


def prefix_buffer(prep: Prep, name: str, n: int) -> Any:
    """``n + 1`` int64 prefix sums kept with the plan, whose first entry is 0 (set when the
    buffer is made; the scans write only the rest)."""
    cp = import_cupy()
    buf = buffer(prep, name, n + 1, cp.int64)
    if prep.buffers.get(name + ":zeroed") is not buf:
        buf[:1] = 0
        prep.buffers[name + ":zeroed"] = buf
    return buf[: n + 1]


def drop_buffers(graph: TemporalGraph, plan: TemporalPlan, *args: Any, **kw: Any) -> None:
    """Forget the plan's cached work buffers (after a GPU out-of-memory error; the signature
    of ``oom_retry``'s ``on_oom``)."""
    per_device = PLAN_DATA.get(plan) or {}
    for key in _device_keys(per_device, current_device()):
        per_device[key][1].buffers.clear()


def events(prep: Prep) -> tuple:
    """``(start, end, filtered, copied)`` CUDA events, kept with the plan."""
    evs = prep.buffers.get("events")
    if evs is None:
        cp = import_cupy()
        evs = prep.buffers["events"] = tuple(cp.cuda.Event() for _ in range(4))
    return evs


def ctl_host(prep: Prep) -> np.ndarray:
    """A pinned host copy of the control block, kept with the plan: the copy is enqueued after
    the last launch, so the host reads the words without a synchronous copy of its own."""
    host = prep.buffers.get("ctl_host")
    if host is None:
        cp = import_cupy()
        mem = cp.cuda.alloc_pinned_memory(CTL_WORDS * 8)
        host = prep.buffers["ctl_host"] = np.frombuffer(mem, np.uint64, CTL_WORDS)
    return host
