"""Out-of-core runs of the CUDA temporal engine: time partitions streamed through the GPU.

When a query's estimated device need (:func:`device_need`) exceeds the budget, the root range
is cut into time partitions sized to it (:func:`stream_plan`; ``docs/out_of_core.md``), and
:func:`stream` moves them through two pinned slots (:class:`Streamer`): partition ``i + 1`` is
staged on the host and copied while partition ``i`` computes, its lists and indexes built on
the device. Each partition runs through the launch layer (``temporal_launch``: the in-memory
answers of one range), and its device data are released after it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ...device_limits import check_budget, current_budget, resolve_budget
from ...errors import CapacityError
from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import TemporalPlan, time_reach
from ..checks import checked_total
from . import memory
from ._runtime import current_device, import_cupy, oom_retry, release_memory, sm_count
from .temporal_build import WPB, level1_list, wide_ids
from .temporal_data import compile_ahead, device_cache, drop_buffers, prepare, release
from .temporal_launch import (
    count_range,
    count_range_all_windows,
    enumerate_range,
    exists_range,
    last_run,
    window_chunks,
)

__all__ = [
    "lanes_estimate",
    "stream_plan",
    "table_stream_plan",
    "device_need",
    "SLOT_ARRAYS",
    "partition_graph",
    "Streamer",
    "stream",
    "stream_windows",
]


def lanes_estimate() -> int:
    """Threads of a DFS launch at its largest (eight blocks per SM): the tail buffers' size."""
    return sm_count() * 8 * WPB * 32


def stream_plan(
    graph: TemporalGraph, plan: TemporalPlan, lo: int, hi: int, max_device_bytes: int | None,
    what: str, kw: dict,
) -> list[tuple[int, int, int]] | None:  # fmt: skip
    """None (in memory) or the streamed time partitions ``(root_lo, root_hi, edge_hi)``.

    Streaming turns tail-warp redistribution off in ``kw`` (``tail_ms=0``) when its buffers
    would take more than 1/8 of the budget (:func:`memory.stream_tail`).
    """
    return _stream_parts(graph, [plan], lo, hi, max_device_bytes, what, kw)


def table_stream_plan(
    graph: TemporalGraph, plans: list[TemporalPlan], max_device_bytes: int | None, kw: dict
) -> list[tuple[int, int, int]] | None:
    """:func:`stream_plan` of counts of several plans over every root, walked partition by
    partition together (:func:`stream_windows`): partitions sized for the longest motif and
    reaching as far as the farthest-reaching plan."""
    return _stream_parts(graph, plans, 0, graph.m, max_device_bytes, "count", kw)


def _stream_parts(
    graph: TemporalGraph, plans: list[TemporalPlan], lo: int, hi: int,
    max_device_bytes: int | None, what: str, kw: dict,
) -> list[tuple[int, int, int]] | None:  # fmt: skip
    """The partitions of ``plans``' walks over roots ``[lo, hi)``: sized for the longest
    motif, each reaching as far as the farthest-reaching plan (None: in memory). The reach is
    worked out only where the graph does not fit: a repeated call on a resident graph returns
    before it."""
    max_device_bytes = check_budget(max_device_bytes)
    l = max(int(p.l) for p in plans)
    cache = graph.device_data(("cuda_temporal", current_device())) or {}
    built_here = _built_here(graph)
    resident = "lists" in cache or ("g" in cache and not built_here)
    if current_budget(max_device_bytes) is None and resident:
        # on the device with its indexes (or uploaded after this check said it fits), and no
        # budget set: no device query per call. A graph built on the device from a device
        # frame is checked until its indexes are built: they are most of its need
        return None
    cp = import_cupy()
    free, total = cp.cuda.runtime.memGetInfo()
    budget, explicit = resolve_budget(max_device_bytes, free, total)
    labels = graph.edge_label is not None or graph.node_label is not None
    lanes = lanes_estimate()
    need = _need(graph, l)["total"]
    what = f"temporal {what} of a {l}-edge motif ({graph.m} edges)"
    if need <= budget:
        memory.choose(what, need, budget, 0, explicit)
        return None
    if what.startswith("temporal enumeration"):  # a quarter for the output blocks
        budget = budget * 3 // 4
    tail = memory.stream_tail(budget, l=l, lanes=lanes)
    max_edges = memory.temporal_edge_budget(budget, n=graph.n, l=l, lanes=lanes,
                                            labels=labels, tail=tail)  # fmt: skip
    if not tail:
        kw["tail_ms"] = 0.0
    reaches = [time_reach(p) for p in plans]
    reach = None if None in reaches else max(reaches)
    parts = memory.stream_partitions(graph.time, reach, lo, hi, max_edges)
    if built_here:  # the partitions stream from the host mirror and need the device's memory
        graph.drop_built_arrays()
        graph.forget_device_data("cuda_temporal")
        release_memory()
    memory.choose(what, need, budget, 0, explicit)
    return parts


def _built_here(graph: TemporalGraph) -> bool:
    """Whether ``graph`` was built on the current device (cuDF / CuPy columns)."""
    dev = graph.device_data("arrays") if graph.built_on_device else None
    return dev is not None and dev["src"].device.id == current_device()


def device_need(graph: TemporalGraph, plan: TemporalPlan) -> dict[str, int]:
    """Estimated in-memory device need of ``plan`` on ``graph`` (bytes, by part): the number
    the engine compares with the budget (:func:`memory.temporal_need`)."""
    return _need(graph, int(plan.l))


def _need(graph: TemporalGraph, l: int) -> dict[str, int]:
    return memory.temporal_need(
        graph.n,
        graph.m,
        l=l,
        lanes=lanes_estimate(),
        wide_ids=wide_ids(graph),
        edge_labels=graph.edge_label is not None,
        node_labels=graph.node_label is not None,
    )


#: Arrays copied per streamed partition (its contiguous edge range); the lists and indexes are
#: built from them on the device (:func:`nx_gpumine.inputs.device.temporal_index_arrays`).
SLOT_ARRAYS = ("src", "dst", "time")


def _slot_dtypes(graph: TemporalGraph) -> dict:
    d = {"src": np.int32, "dst": np.int32, "time": graph.time.dtype}
    if graph.edge_label is not None:
        d["elab"] = np.int32
    return d


class _Partition(TemporalGraph):
    """A streamed partition's host view: the list pointers are computed on first use (only the
    block split of a partition's enumeration reads them on the host)."""

    def _ptr(self, name: str) -> np.ndarray:
        ptr = self.__dict__.get(name)
        if ptr is None:
            own = self.src if name == "_out_ptr" else self.dst
            ptr = np.zeros(self.n + 1, dtype=np.int64)
            if len(own):
                np.cumsum(np.bincount(own, minlength=self.n), out=ptr[1:])
            self.__dict__[name] = ptr
        return ptr

    @property
    def n(self) -> int:
        n = self.__dict__.get("_n")
        return len(self.keys) if n is None else n

    out_ptr = property(lambda self: self._ptr("_out_ptr"),
                       lambda self, v: self.__dict__.__setitem__("_out_ptr", v))  # fmt: skip
    in_ptr = property(lambda self: self._ptr("_in_ptr"),
                      lambda self, v: self.__dict__.__setitem__("_in_ptr", v))  # fmt: skip


def partition_graph(graph: TemporalGraph, lo: int, hi: int) -> TemporalGraph:
    """The graph of edge ids ``[lo, hi)`` as the streamed engine needs it on the host: views
    of the edge columns (no copy; list pointers computed on first use). Its lists and next-id
    array are left empty: the engine builds them on the device (:meth:`Streamer.attach`).
    Vertex ids stay global, edge ids are shifted by ``-lo`` (as
    :meth:`TemporalGraph.edge_slice`).
    """
    empty = np.zeros(0, dtype=np.int64)
    sub = _Partition(
        src=graph.src[lo:hi],
        dst=graph.dst[lo:hi],
        time=graph.time[lo:hi],
        rows=graph.rows[lo:hi],
        next_id=empty,
        out_ptr=None,
        out_edges=empty,
        in_ptr=None,
        in_edges=empty,
        keys=graph.keys,
        edge_label=None if graph.edge_label is None else graph.edge_label[lo:hi],
    )
    sub.__dict__["_n"] = graph.n
    sub.share_vertex_data(graph)
    return sub


class Streamer:
    """Two copy slots (pinned host + device) and the streams moving partitions through them.

    A partition is a contiguous edge range, so staging it is a copy of its ``src``, ``dst``,
    ``time`` (and edge label) columns into a pinned slot; the copy stream sends them while the
    previous partition computes, and the compute stream builds the partition's lists, next-id
    array, walk index and list entries on the device.
    """

    def __init__(self, graph: TemporalGraph, cap: int) -> None:
        cp = import_cupy()
        self.graph = graph
        self.dtypes = _slot_dtypes(graph)
        self.sizes = dict.fromkeys(self.dtypes, cap)
        self.host = [self._pinned() for _ in range(2)]
        self.dev = [{k: cp.empty(max(self.sizes[k], 1), dt) for k, dt in self.dtypes.items()}
                    for _ in range(2)]  # fmt: skip
        self.copy = cp.cuda.Stream(non_blocking=True)
        self.compute = cp.cuda.Stream(non_blocking=True)
        self.events = [cp.cuda.Event(), cp.cuda.Event()]
        self.starts = [cp.cuda.Event(), cp.cuda.Event()]
        self.dummy = cp.zeros(1, dtype=cp.int32)
        self.nlab = (
            self.dummy if graph.node_label is None else cp.asarray(graph.node_label, cp.int32)
        )
        self.copy_ms = 0.0
        self.stage_ms = 0.0  # host time staging (worker thread, overlapped)
        self.build_ms = 0.0  # host time issuing the device build of the lists

    def _pinned(self) -> dict:
        cp = import_cupy()
        out = {}
        for k, dt in self.dtypes.items():
            size = max(self.sizes[k], 1)
            mem = cp.cuda.alloc_pinned_memory(size * np.dtype(dt).itemsize)
            out[k] = np.frombuffer(mem, dtype=dt, count=size)
        return out

    def stage(self, slot: int, part: tuple[int, int, int]) -> TemporalGraph:
        """Copy partition ``part``'s edge columns into pinned slot ``slot`` (any thread)."""
        t0 = time.perf_counter()
        r0, _, e1 = part
        sub = partition_graph(self.graph, r0, e1)
        h = self.host[slot]
        for k in SLOT_ARRAYS:
            h[k][: sub.m] = getattr(sub, k)
        if "elab" in h:
            h["elab"][: sub.m] = sub.edge_label
        self.stage_ms += 1e3 * (time.perf_counter() - t0)
        return sub

    def send(self, slot: int, sub: TemporalGraph) -> None:
        """Copy slot ``slot`` to the device on the copy stream; its event marks the end."""
        h, d = self.host[slot], self.dev[slot]
        self.starts[slot].record(self.copy)
        if sub.m:
            for k in self.dtypes:
                d[k][: sub.m].set(h[k][: sub.m], stream=self.copy)
        self.events[slot].record(self.copy)

    def attach(self, slot: int, sub: TemporalGraph) -> None:
        """Make the engine read ``sub`` from slot ``slot``: the compute stream waits for the
        copy, then builds the partition's lists and next-id array there (global vertex ids)."""
        from ...inputs.device import temporal_index_arrays

        cp = import_cupy()
        t0 = time.perf_counter()
        self.compute.wait_event(self.events[slot])
        d = self.dev[slot]
        g = {k: d[k][: sub.m] for k in SLOT_ARRAYS}
        with self.compute:
            g.update(temporal_index_arrays(cp, g["src"], g["dst"], g["time"], sub.n, cp.int32))
        g["nlab"] = self.nlab
        g["elab"] = d["elab"][: sub.m] if "elab" in d else self.dummy
        device_cache(sub)["g"] = g  # this device's entry (the slots live on it)
        self.build_ms += 1e3 * (time.perf_counter() - t0)


def _partition_calls() -> dict:
    """The launch layer's answers for one partition, each retried on a GPU out-of-memory error
    with the partition's own buffers dropped (and enumeration's blocks shrunk), as a call of
    the engine's own would be."""
    listing = oom_retry({"max_buffer_rows": 1 << 25}, on_oom=drop_buffers, what="listing")
    return {
        "count": oom_retry(on_oom=drop_buffers, what="count")(count_range),
        "exists": oom_retry(on_oom=drop_buffers, what="existence test")(exists_range),
        "enumerate": listing(enumerate_range),
    }


def _streamed(graph: TemporalGraph, parts: list[tuple[int, int, int]], stats: dict) -> Iterator:
    """Yield each streamed partition, attached on the device, with its root range ``(r0, r1)``
    (the caller computes on ``stats["stream"]``, the compute stream): partition ``i + 1`` is
    staged on the host and copied (pinned buffers, copy stream) while partition ``i``
    computes. Each partition's device data go back to the pool once the caller is done with
    it. ``stats`` gains ``partitions``, ``partition_edges``, ``copy_ms`` and
    ``stage_wait_ms``."""
    cap = max(e1 - r0 for r0, _, e1 in parts)
    if cap >= 2**31 - 1:
        raise CapacityError("a streamed partition must hold fewer than 2**31 - 1 edges")
    st = Streamer(graph, cap)
    stats.update(partitions=len(parts), partition_edges=cap, copy_ms=0.0, stage_wait_ms=0.0)
    stats["stream"] = st.compute
    with ThreadPoolExecutor(1) as pool:
        sub0 = st.stage(0, parts[0])
        st.send(0, sub0)
        nxt = pool.submit(st.stage, 1, parts[1]) if len(parts) > 1 else None
        cur = sub0
        try:
            for i, (r0, r1, _) in enumerate(parts):
                slot = i % 2
                if nxt is not None:  # partition i + 1: copy now, it overlaps compute i
                    w0 = time.perf_counter()
                    sub_next = nxt.result()
                    stats["stage_wait_ms"] += 1e3 * (time.perf_counter() - w0)
                    st.send(1 - slot, sub_next)
                st.events[slot].synchronize()  # copy i done: its pinned slot may be refilled
                stats["copy_ms"] += import_cupy().cuda.get_elapsed_time(
                    st.starts[slot], st.events[slot]
                )
                nxt = None
                if i + 2 < len(parts):
                    nxt = pool.submit(st.stage, slot, parts[i + 2])
                st.attach(slot, cur)
                p0 = time.perf_counter()
                try:
                    yield cur, r0, r1
                finally:
                    # walk, pair and list indexes go back to the pool; so do the plans' work
                    # buffers and kept launches (the entry holds its plan and the slot arrays)
                    release(cur)
                memory.logger.info(
                    "nx_gpumine: out-of-core partition %d of %d (%d root edges) walked in %.1f s",
                    i + 1, len(parts), r1 - r0, time.perf_counter() - p0,
                )  # fmt: skip
                if i + 1 < len(parts):
                    cur = sub_next
        finally:  # also when the caller stops early: the staging thread finishes first
            if nxt is not None:
                nxt.result()
            stats["stage_ms"] = st.stage_ms
            stats["build_issue_ms"] = st.build_ms


def _timed_stream(stats: dict, mode: str, t0: Any) -> None:
    """``last_run`` of a streamed run (``t0``: a CUDA event recorded before it)."""
    cp = import_cupy()
    t1 = cp.cuda.Event()
    t1.record()
    t1.synchronize()
    stats.pop("stream", None)
    last_run.clear()
    last_run.update(stats, out_of_core=True, mode=mode, stream_ms=cp.cuda.get_elapsed_time(t0, t1))


def stream(
    graph: TemporalGraph,
    plan: TemporalPlan,
    parts: list[tuple[int, int, int]],
    mode: str,
    limit: int | None,
    kw: dict,
) -> Any:
    """Run ``mode`` over the streamed partitions (:func:`_streamed`)."""
    cp = import_cupy()
    calls = _partition_calls()
    total, found, got = 0, False, 0
    blocks: list[np.ndarray] = []
    stats: dict = {"kernel_ms": 0.0}
    t0 = cp.cuda.Event()
    t0.record()
    with contextlib.closing(_streamed(graph, parts, stats)) as partitions:
        for cur, r0, r1 in partitions:
            # the plan depends on labels, vocabularies and time type only: the same here
            with stats["stream"]:
                if mode == "count":
                    total = checked_total(total + calls["count"](cur, plan, 0, r1 - r0, **kw))
                elif mode == "exists":
                    found = calls["exists"](cur, plan, 0, r1 - r0, **kw)
                else:
                    left = None if limit is None else limit - got
                    block = calls["enumerate"](cur, plan, 0, r1 - r0, left, **kw)
                    blocks.append(block + r0)
                    got += len(block)
            stats["kernel_ms"] += float(last_run.get("kernel_ms", 0.0))
            if found or (limit is not None and got >= limit):
                break
    _timed_stream(stats, mode, t0)
    if mode == "count":
        return total
    if mode == "exists":
        return found
    rows = np.concatenate(blocks) if blocks else np.empty((0, plan.l), np.int64)
    return rows if limit is None else rows[:limit]


def stream_windows(
    graph: TemporalGraph, plans: list[TemporalPlan], windows: tuple,
    parts: list[tuple[int, int, int]], kw: dict,
) -> list[list[int]]:  # fmt: skip
    """Each plan's counts within each of the narrower ``windows`` (checked, in the graph's time
    type) and its own count (:func:`~.temporal_launch.count_range_all_windows`), over the
    streamed partitions (:func:`table_stream_plan`): each partition is copied and indexed once
    for all the plans, so a motif table past the device's memory streams the graph once, not
    once per motif and window."""
    cp = import_cupy()
    call = oom_retry(on_oom=drop_buffers, what="count")(count_range_all_windows)
    rows = [[0] * (len(windows) + 1) for _ in plans]
    stats: dict = {"kernel_ms": 0.0, "plans": len(plans)}
    t0 = cp.cuda.Event()
    t0.record()
    order: list[int] | None = None
    with contextlib.closing(_streamed(graph, parts, stats)) as partitions:
        for cur, r0, r1 in partitions:
            with stats["stream"]:
                chunks = window_chunks(windows) or [()]  # no narrower window: one walk each
                preps = [prepare(cur, p, c) for p in plans for c in chunks]
                compile_ahead(preps)  # the first partition's: the modules of every plan at once
                if order is None:  # grouped by level-1 list kind: the root filter's gap
                    # array is kept for one kind at a time (count_ranges_windows)
                    kinds = [str(level1_list(preps[i * len(chunks)].defines))
                             for i in range(len(plans))]  # fmt: skip
                    order = sorted(range(len(plans)), key=kinds.__getitem__)
                for i in order:
                    got = call(cur, plans[i], windows, 0, r1 - r0, **kw)
                    rows[i] = [checked_total(a + b) for a, b in zip(rows[i], got, strict=True)]
                    stats["kernel_ms"] += float(last_run.get("kernel_ms", 0.0))
                    # its work buffers go back to the pool before the next plan's walk: the
                    # partition was sized for one plan's
                    drop_buffers(cur, plans[i])
    _timed_stream(stats, "count", t0)
    return rows
