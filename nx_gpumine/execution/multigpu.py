"""Several GPUs of one host: one process, one Python thread per device, a shared task queue.

``devices=`` on the public functions (and :func:`~nx_gpumine.execution.static.run_static`,
:func:`~nx_gpumine.execution.temporal.run_temporal`, :func:`~nx_gpumine.execution.temporal.
run_census`) selects the GPUs; :func:`resolve_devices` turns it into a list of device ids
("slots", repeats allowed). Each slot is a worker thread that enters ``cupy.cuda.Device(id)``
once and takes tasks from a queue until none are left. Kernel launches, device syncs and copies
release the GIL, so one process keeps every GPU busy without shipping the graph between
processes (Dask, :mod:`~nx_gpumine.execution.distributed`, is for several hosts).

Work units are the single-process paths' own tasks:

- static patterns: root-edge ranges of one plan (:func:`~nx_gpumine.execution.tasks.
  split_root_range`, balanced by estimated cost), :data:`TASKS_PER_DEVICE` per slot, in one
  shared queue: a device that finishes early takes the next range (dynamic stealing). Counts
  whose single-device run uses a whole-range shape kernel (cliques, books, 4-cycles; see
  :func:`~nx_gpumine.engines.cuda.static.whole_range_count`) run whole on the first device:
  those kernels take milliseconds and do not split into root ranges.
- temporal motifs and the census: Everest's time partitions (:func:`~nx_gpumine.plan.
  temporal_plan.time_partitions`: major partition + minor overlap of the motif's time reach),
  :data:`PARTS_PER_DEVICE` per slot. Partition ``j`` has a home slot (contiguous blocks, in time
  order); a slot runs its own partitions first, then steals the last partition of the slot with
  the most left. A partition is searched on its own edge slice (``TemporalGraph.edge_slice``)
  with its own plan; nothing is exchanged during the search. When the slices would hold more
  than twice the edges together (no window, or one spanning most of the time line), the tasks
  are root-edge ranges on the whole graph instead, from one shared queue.

Data: every device cache of the engines is keyed by device id, so each GPU uploads the graph
(static) or the slices it runs (temporal) once and keeps them with the graph object; the slices
of the last partitioning are kept on the graph for the next call.

Results are those of one device, bit for bit: counts summed as Python integers and refused past
64 bits (:class:`~nx_gpumine.errors.CapacityError`), censuses summed per motif the same way,
matches copied to the host per task and concatenated in task order (static: root order;
temporal: the single-device lexicographic order), ``limit`` honoured across devices (``limit``
matches taken from the tasks in order, each task stopping at ``limit``; later tasks are
skipped), ``exists`` stops every device at the first task that finds one.

Workers on one device id (``devices=[0, 0]``) take turns (a lock per device id: they would
share the engines' per-plan work buffers); that runs the split and the merge of N devices on
one GPU, which is how the multi-device paths are tested without several GPUs.

Device memory budget (``max_device_bytes``, :mod:`~nx_gpumine.engines.cuda.memory`): the
call's budget is copied into every worker thread and applies to each device. Temporal tasks
whose slice exceeds it stream time partitions through that device (each worker its own copy
buffers and streams); under a budget each slice's device data are freed after its task, so a
device holds one slice at a time. The static out-of-core path (host-resident CSR) runs on one
GPU only: a static call over several distinct devices whose graph would need it raises
:class:`~nx_gpumine.errors.CapacityError` (virtual slots of one device, ``[0, 0]``, run it).

Faults: an error in one worker stops the others after their current task and is re-raised
in the caller; so is ``KeyboardInterrupt`` (Ctrl-C) in the caller, after waiting up to
:data:`STOP_GRACE` seconds for the workers (a task already on a GPU runs to its end; a
worker still busy then is waited for before the next multi-device call starts).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from ..engines import ENGINE_NAMES, cuda_available, is_cuda_engine, select_engine
from ..engines.checks import checked_total
from ..engines.contract import STATIC_MIN_K, optional_hook
from ..engines.cuda import memory
from ..errors import EngineUnavailableError, QueryError
from ..inputs.motifs import TemporalMotif
from ..inputs.static_graph import StaticGraph
from ..inputs.temporal_graph import TemporalGraph
from ..limits import check_result_rows
from ..plan.static_plan import StaticPlan
from ..plan.temporal_plan import (
    TemporalPlan,
    TimePartition,
    build_temporal_plan,
    census_window,
    split_root_edges,
    temporal_plan,
    time_partitions,
)
from .runner import call_engine, check_query, no_matches, progress_bar
from .tasks import split_root_range

__all__ = [
    "DEVICES_ENV",
    "TASKS_PER_DEVICE",
    "PARTS_PER_DEVICE",
    "STOP_GRACE",
    "device_count",
    "parse_devices",
    "resolve_devices",
    "run_static_devices",
    "run_temporal_devices",
    "run_census_devices",
    "settle",
]

#: Environment variable holding the default of ``devices=``: ``all``, a number of devices
#: (``2``) or comma-separated ids (``0,1`` or ``0,``). Applies only to calls that run on the
#: CUDA engine (an explicit ``devices=`` with the CPU engine is an error).
DEVICES_ENV = "NX_GPUMINE_DEVICES"
#: Root-edge ranges per slot (static).
TASKS_PER_DEVICE = 16
#: Time partitions per slot (temporal motifs and the census).
PARTS_PER_DEVICE = 4
#: Seconds the caller waits for busy workers after an error or Ctrl-C before re-raising.
STOP_GRACE = 0.5


# ====================================================================== devices
def device_count() -> int:
    """Number of CUDA devices CuPy sees (0 without CuPy or a GPU)."""
    if not cuda_available():
        return 0
    import cupy

    return int(cupy.cuda.runtime.getDeviceCount())


def parse_devices(devices: Any, count: int) -> list[int]:
    """Validate ``devices`` against ``count`` visible GPUs; return the device id per slot.

    Parameters
    ----------
    devices : int, sequence of int or "all"
        ``N``: the first ``N`` devices; a sequence: these ids (repeats allowed: several workers
        on one device, which take turns); ``"all"``: every visible device.
    count : int
        Number of visible devices.

    Returns
    -------
    list of int
        One device id per worker slot.

    Raises
    ------
    ValueError
        Malformed ``devices`` (not a positive count, an empty list, a negative or non-integer
        id).
    EngineUnavailableError
        More devices, or a higher id, than the GPUs visible.
    """
    if isinstance(devices, str):
        if devices != "all":
            raise ValueError(
                f"devices must be an int, a list of device ids or 'all', got {devices!r}"
            )
        if count < 1:
            raise EngineUnavailableError("devices='all': CuPy sees no CUDA device")
        return list(range(count))
    if isinstance(devices, bool):
        raise ValueError(f"devices must be an int, a list of device ids or 'all', got {devices!r}")
    if isinstance(devices, int | np.integer):
        n = int(devices)
        if n < 1:
            raise ValueError(f"devices must be >= 1 (a number of GPUs), got {n}")
        if n > count:
            raise EngineUnavailableError(f"devices={n} asks for {n} GPUs; CuPy sees {count}")
        return list(range(n))
    if not isinstance(devices, Sequence | np.ndarray):
        raise ValueError(
            f"devices must be an int, a list of device ids or 'all', got {type(devices).__name__}"
        )
    ids = list(devices)
    if not ids:
        raise ValueError("devices is an empty list")
    out = []
    for d in ids:
        if isinstance(d, bool) or not isinstance(d, int | np.integer):
            raise ValueError(f"device ids must be integers, got {d!r}")
        d = int(d)
        if d < 0:
            raise ValueError(f"device ids must be >= 0, got {d}")
        if d >= count:
            raise EngineUnavailableError(
                f"device {d} does not exist: CuPy sees {count} device(s) (ids 0..{count - 1})"
            )
        out.append(d)
    return out


def _env_devices(text: str) -> Any:
    text = text.strip()
    if text == "all":
        return "all"
    try:
        if "," in text:
            return [int(x) for x in text.split(",") if x.strip()]
        return int(text)
    except ValueError:
        raise ValueError(
            f"{DEVICES_ENV}={text!r}: use 'all', a number of devices or comma-separated ids"
        ) from None


def resolve_devices(devices: Any, engine: str) -> list[int] | None:
    """The device slots a call runs on, or None for the single-device path.

    Parameters
    ----------
    devices : None, int, sequence of int or "all"
        The ``devices=`` argument; None takes the default of :data:`DEVICES_ENV` (unset:
        the current device only, None is returned).
    engine : str
        The call's engine name.

    Returns
    -------
    list of int or None

    Raises
    ------
    ValueError
        An explicit ``devices`` with ``engine="cpu"`` or the Dask engine, or a malformed value.
    EngineUnavailableError
        An explicit ``devices`` without a visible GPU, or naming devices that do not exist.
    """
    if engine not in (*ENGINE_NAMES, "dask"):
        raise QueryError(f"engine must be one of {(*ENGINE_NAMES, 'dask')}, got {engine!r}")
    explicit = devices is not None
    if not explicit:
        env = os.environ.get(DEVICES_ENV, "").strip()
        if not env:
            return None
        devices = _env_devices(env)
    if engine == "dask":
        if explicit:
            raise ValueError(
                "devices= is for the GPUs of this host; with engine='dask' every Dask worker "
                "runs on its own GPU (start one worker per GPU instead)"
            )
        return None
    if engine == "cpu":
        if explicit:
            raise ValueError(
                "devices= names GPUs but engine='cpu' runs on the CPU: use engine='cuda' or "
                "'auto', or leave devices out"
            )
        return None
    if engine == "auto" and not cuda_available():
        if explicit:
            raise EngineUnavailableError(
                "devices= needs CUDA GPUs (CuPy and a GPU); none was found — leave devices out "
                "to run on the CPU"
            )
        return None
    return parse_devices(devices, device_count())


def _context(eng: ModuleType) -> Callable[[int], Any]:
    """Per-slot context: the CUDA device for a CUDA engine, nothing for the CPU engine (tests)."""
    if is_cuda_engine(eng):
        import cupy

        return cupy.cuda.Device
    return lambda _dev: contextlib.nullcontext()


# ====================================================================== scheduling
_LOCKS_LOCK = threading.Lock()
_DEVICE_LOCKS: dict[int, threading.Lock] = {}
#: "done" locks of workers still running when their call gave up (error or Ctrl-C).
_ABANDONED: list[threading.Lock] = []


def _device_lock(dev: int) -> threading.Lock:
    with _LOCKS_LOCK:
        lock = _DEVICE_LOCKS.get(dev)
        if lock is None:
            lock = _DEVICE_LOCKS[dev] = threading.Lock()
        return lock


def settle() -> None:
    """Wait for workers of an interrupted multi-device call that were still running a task."""
    for done in list(_ABANDONED):
        while not done.acquire(timeout=0.25):
            pass
        done.release()
        with contextlib.suppress(ValueError):
            _ABANDONED.remove(done)


class _Scheduler:
    """Task queues of one call: per-slot home queues (or one shared queue) with stealing."""

    def __init__(self, nslots: int, ntasks: int, homes: Sequence[int] | None) -> None:
        self.lock = threading.Lock()
        self.stop = False
        self.error: BaseException | None = None
        self.stolen = 0
        if homes is None:
            shared: deque = deque(range(ntasks))
            self.queues = [shared] * nslots
        else:
            self.queues = [deque() for _ in range(nslots)]
            for i, h in enumerate(homes):
                self.queues[h].append(i)

    def take(self, slot: int) -> int | None:
        with self.lock:
            if self.stop:
                return None
            own = self.queues[slot]
            if own:
                return own.popleft()
            victim = max(self.queues, key=len)
            if victim:
                self.stolen += 1
                return victim.pop()
            return None


def run_tasks(
    slots: Sequence[int],
    ntasks: int,
    work: Callable[[int], Any],
    on_result: Callable[[int, Any], bool],
    *,
    context: Callable[[int], Any],
    homes: Sequence[int] | None = None,
) -> dict:
    """Run ``work(i)`` for tasks ``0..ntasks-1`` on one thread per slot.

    Parameters
    ----------
    slots : sequence of int
        Device id of each worker thread (repeats take turns on that device).
    ntasks : int
        Number of tasks.
    work : callable
        ``work(i)`` runs task ``i`` on the calling thread's device and returns its result.
    on_result : callable
        ``on_result(i, value)`` merges a result (called under the scheduler's lock, one at a
        time); returning True stops the remaining tasks. An exception it raises stops every
        worker and is re-raised.
    context : callable
        ``context(device)`` is entered once by each worker thread (``cupy.cuda.Device``).
    homes : sequence of int, optional
        Home slot of each task: slots run their own tasks first, then steal. None: one shared
        queue in task order.

    Returns
    -------
    dict
        ``stolen`` (tasks run off their home slot) and ``stopped`` (stopped early).

    Raises
    ------
    BaseException
        The first error of a worker, or ``KeyboardInterrupt`` received while waiting.
    """
    settle()
    sched = _Scheduler(len(slots), ntasks, homes)
    dones = []
    spread = len(set(slots))

    def body(k: int, done: threading.Lock) -> None:
        dev = slots[k]
        try:
            with memory.spread_devices(spread), context(dev):
                while True:
                    i = sched.take(k)
                    if i is None:
                        break
                    with _device_lock(dev):
                        if sched.stop:
                            break
                        value = work(i)
                    with sched.lock:
                        if not sched.stop and on_result(i, value):
                            sched.stop = True
        except BaseException as exc:  # handed to the caller
            with sched.lock:
                if sched.error is None:
                    sched.error = exc
                sched.stop = True
        finally:
            done.release()

    threads = []
    for k, dev in enumerate(slots):
        done = threading.Lock()
        done.acquire()
        dones.append(done)
        # each worker runs in a copy of the caller's context: the call's device budget
        # (memory.device_budget) holds on every device
        run = contextvars.copy_context().run
        t = threading.Thread(target=run, args=(body, k, done), name=f"nx-gpumine-dev{dev}-{k}")
        t.daemon = True
        threads.append(t)
    for t in threads:
        t.start()
    try:
        for done in dones:
            while not done.acquire(timeout=0.25):
                pass
            done.release()
    except BaseException:
        with sched.lock:
            sched.stop = True
        end = time.monotonic() + STOP_GRACE
        for done in dones:
            if done.acquire(timeout=max(0.0, end - time.monotonic())):
                done.release()
            else:
                _ABANDONED.append(done)
        raise
    if sched.error is not None:
        raise sched.error
    return {"stolen": sched.stolen, "stopped": sched.stop}


class _Merge:
    """Exact merge of per-task results for one mode (count, exists, enumerate)."""

    def __init__(self, mode: str, ntasks: int, width: int, limit: int | None, bar: Any) -> None:
        self.mode, self.width, self.limit, self.bar = mode, width, limit, bar
        self.total = 0
        self.found = False
        self.blocks: list[np.ndarray | None] = [None] * ntasks
        self.done = 0  # blocks[:done] are all in
        self.got = 0  # rows in blocks[:done]
        self.rows_in = 0  # rows in every block received

    def __call__(self, i: int, value: Any) -> bool:
        if self.bar is not None:
            self.bar.update(1)
        if self.mode == "count":
            self.total += int(value)
            checked_total(self.total)
            return False
        if self.mode == "exists":
            self.found = self.found or bool(value)
            return self.found
        self.blocks[i] = np.asarray(value, dtype=np.int64).reshape(-1, self.width)
        self.rows_in += len(self.blocks[i])
        check_result_rows(self.rows_in, self.width, exact=False)  # all blocks held so far
        while self.done < len(self.blocks) and self.blocks[self.done] is not None:
            self.got += len(self.blocks[self.done])
            self.done += 1
        return self.limit is not None and self.got >= self.limit

    def result(self) -> int | bool | np.ndarray:
        if self.mode == "count":
            return self.total
        if self.mode == "exists":
            return self.found
        out = [b for b in self.blocks[: self.done] if b is not None and len(b)]
        ids = np.concatenate(out) if out else np.empty((0, self.width), np.int64)
        return ids if self.limit is None else ids[: self.limit]


def _bar(progress: bool, n: int, desc: str) -> Any:
    return progress_bar(n, desc) if progress else None


def _units(requested: int | None, per_slot: int, nslots: int) -> int:
    if requested is not None:
        if int(requested) < 1:
            raise ValueError(f"the number of tasks must be >= 1, got {requested}")
        return int(requested)
    return per_slot * nslots


#: Statistics of the last multi-device call in this process (tasks, steals, slots).
last_run: dict[str, Any] = {}


def _record(**kw: Any) -> None:
    last_run.clear()
    last_run.update(kw)


# ====================================================================== static
def run_static_devices(
    graph: StaticGraph,
    plan: StaticPlan,
    mode: str,
    devices: Sequence[int],
    *,
    engine: str = "cuda",
    limit: int | None = None,
    progress: bool = False,
    ntasks: int | None = None,
) -> int | bool | np.ndarray:
    """Execute a static plan on several devices (root-edge ranges from a shared queue).

    Parameters
    ----------
    graph, plan, mode, limit, progress
        As in :func:`nx_gpumine.execution.static.run_static`.
    devices : sequence of int
        Device id per worker slot (:func:`resolve_devices`).
    engine : str
        Engine name for :func:`~nx_gpumine.engines.select_engine`; with the CPU engine the
        slots are plain threads (used by the tests of the scheduling and merging).
    ntasks : int, optional
        Number of root-edge ranges (default :data:`TASKS_PER_DEVICE` per slot).

    Returns
    -------
    int, bool or numpy.ndarray
        Exactly what ``run_static`` returns on one device (rows in root-task order).
    """
    from .static import run_static_local, small_plan_result

    check_query(mode, limit)
    slots = list(devices)
    if plan.k < STATIC_MIN_K:  # 1- and 2-node plans: no engine, no devices
        return small_plan_result(graph, plan, mode, limit)
    if plan.impossible or (mode == "enumerate" and limit == 0):
        return no_matches(mode, plan.k)
    eng = select_engine(engine, "static", plan)
    ctx = _context(eng)
    if len(slots) == 1:
        with ctx(slots[0]), _device_lock(slots[0]):
            _record(slots=slots, tasks=1, whole=True)
            return run_static_local(graph, plan, mode, engine, limit, progress)
    whole = optional_hook(eng, "whole_range_count")
    if mode == "count" and whole is not None:
        with ctx(slots[0]), _device_lock(slots[0]), memory.spread_devices(len(set(slots))):
            if whole(graph, plan):
                _record(slots=slots[:1], tasks=1, whole=True)
                return int(eng.count(graph, plan))
    tasks = split_root_range(
        graph, _units(ntasks, TASKS_PER_DEVICE, len(slots)), root_ok=plan.root_ok
    )
    bar = _bar(progress, len(tasks), f"{plan.pattern.name or 'pattern'} ({mode})")
    merge = _Merge(mode, len(tasks), plan.k, limit, bar)

    def work(i: int) -> Any:
        return call_engine(eng, graph, plan, mode, tasks[i], limit)

    try:
        stats = run_tasks(slots, len(tasks), work, merge, context=ctx)
    finally:
        if bar is not None:
            bar.close()
    _record(slots=slots, tasks=len(tasks), whole=False, **stats)
    return merge.result()


# ====================================================================== temporal
_SLICE_KEY = ("multigpu_slices",)
_SLICE_LOCK = threading.Lock()


def _slice_table(graph: TemporalGraph, parts: Sequence[TimePartition]) -> dict:
    """The graph's cache of partition slices, reduced to those of ``parts`` (kept ones reused;
    the others are cut by the workers on first use)."""
    keys = {(p.edge_lo, p.edge_hi) for p in parts}
    with _SLICE_LOCK:
        old = graph.derived(_SLICE_KEY, dict)
        table = {k: v for k, v in old.items() if k in keys}
        graph.forget_derived(*_SLICE_KEY)  # replaced, not emptied: earlier runs keep theirs
        graph.derived(_SLICE_KEY, lambda: table)
    return table


def _slice(graph: TemporalGraph, table: dict, p: TimePartition) -> TemporalGraph:
    if p.edge_lo == 0 and p.edge_hi == graph.m:
        return graph
    key = (p.edge_lo, p.edge_hi)
    sub = table.get(key)
    if sub is None:
        sub = graph.edge_slice(p.edge_lo, p.edge_hi)
        table[key] = sub
    return sub


def _homes(nparts: int, nslots: int) -> list[int]:
    """Home slot of each partition: contiguous blocks of partitions in time order."""
    return [j * nslots // nparts for j in range(nparts)]


def _partition(
    graph: TemporalGraph, plan: TemporalPlan, nparts: int, nslots: int
) -> tuple[list[TimePartition], list[int] | None]:
    """Time partitions and their home slots, or root ranges on the whole graph (homes None:
    one shared queue).

    Slices that overlap so much that together they hold more than twice the edges (an
    unbounded or very wide time reach) would multiply the memory of the graph on the host and
    on every device; the tasks are then root-edge ranges searched on the whole graph, which
    each device uploads once.
    """
    parts = time_partitions(graph, plan, nparts)
    if sum(p.edge_hi - p.edge_lo for p in parts) <= 2 * graph.m:
        return parts, _homes(len(parts), nslots)
    bounds = split_root_edges(graph, nparts, plan.delta_on, plan.delta, 0, graph.m)
    ranges = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]
    return [TimePartition(a, b, 0, graph.m) for a, b in ranges], None


def _release_slice(eng: ModuleType, graph: TemporalGraph, sub: TemporalGraph) -> None:
    """Under a device budget, free a slice's device data after its task (one slice at a time
    per device, so the budget bounds the call; without one, slices stay cached)."""
    release = optional_hook(eng, "release")
    if sub is graph or release is None or memory.current_budget() is None:
        return
    release(sub)


def run_temporal_devices(
    graph: TemporalGraph,
    plan: TemporalPlan,
    mode: str,
    devices: Sequence[int],
    *,
    engine: str = "cuda",
    limit: int | None = None,
    progress: bool = False,
    nparts: int | None = None,
) -> int | bool | np.ndarray:
    """Execute a temporal plan on several devices, one time partition per task.

    Parameters
    ----------
    graph, plan, mode, limit, progress
        As in :func:`nx_gpumine.execution.temporal.run_temporal`.
    devices, engine
        As in :func:`run_static_devices`.
    nparts : int, optional
        Number of time partitions (default :data:`PARTS_PER_DEVICE` per slot).

    Returns
    -------
    int, bool or numpy.ndarray
        Exactly what ``run_temporal`` returns on one device (edge ids, same row order).
    """
    from .temporal import run_temporal_local

    check_query(mode, limit)
    slots = list(devices)
    if plan.impossible or (mode == "enumerate" and limit == 0):
        return no_matches(mode, plan.l)
    eng = select_engine(engine, "temporal", plan)
    ctx = _context(eng)
    if len(slots) == 1:
        with ctx(slots[0]), _device_lock(slots[0]):
            _record(slots=slots, tasks=1)
            return run_temporal_local(graph, plan, mode, engine, limit, progress)
    nunits = _units(nparts, PARTS_PER_DEVICE, len(slots))
    parts, homes = _partition(graph, plan, nunits, len(slots))
    table = _slice_table(graph, parts)
    bar = _bar(progress, len(parts), f"{plan.motif.name or 'motif'} ({mode})")
    merge = _Merge(mode, len(parts), plan.l, limit, bar)
    motif = plan.motif

    def work(i: int) -> Any:
        p = parts[i]
        sub = _slice(graph, table, p)
        sub_plan = plan if sub is graph else temporal_plan(motif, sub)
        sub_eng = select_engine(engine, "temporal", sub_plan)
        roots = (p.root_lo - p.edge_lo, p.root_hi - p.edge_lo)
        try:
            out = call_engine(sub_eng, sub, sub_plan, mode, roots, limit)
            if mode != "enumerate":
                return out
            return np.asarray(out, dtype=np.int64) + p.edge_lo
        finally:
            _release_slice(sub_eng, graph, sub)

    try:
        stats = run_tasks(slots, len(parts), work, merge, context=ctx, homes=homes)
    finally:
        if bar is not None:
            bar.close()
    _record(slots=slots, tasks=len(parts), **stats)
    return merge.result()


def run_census_devices(
    graph: TemporalGraph,
    delta: float | int | None,
    tie: str,
    devices: Sequence[int],
    *,
    engine: str = "cuda",
    progress: bool = False,
    nparts: int | None = None,
) -> np.ndarray:
    """The 36 three-edge motif counts (``CENSUS_KEYS`` order) on several devices.

    Time partitions as for any three-edge motif of window ``delta`` (the census reads no edge
    later than ``delta`` after its root); each partition's roots are counted on its slice and
    the counts summed exactly (past 64 bits: :class:`~nx_gpumine.errors.CapacityError`).
    Other parameters as :func:`run_temporal_devices`.

    Returns
    -------
    numpy.ndarray
        int64, shape (36,): equal to ``run_census``'s.
    """
    from .temporal import census_function

    delta = census_window(graph, delta, tie)
    slots = list(devices)
    fn = census_function(engine)
    ctx = _context(select_engine(engine, "temporal"))
    if len(slots) == 1:
        with ctx(slots[0]), _device_lock(slots[0]):
            return np.asarray(fn(graph, delta, tie), dtype=np.int64)
    reach = build_temporal_plan(TemporalMotif([(0, 1), (1, 2), (2, 0)], delta=delta), graph)
    nunits = _units(nparts, PARTS_PER_DEVICE, len(slots))
    parts, homes = _partition(graph, reach, nunits, len(slots))
    if not parts:
        return np.zeros(36, dtype=np.int64)
    table = _slice_table(graph, parts)
    bar = _bar(progress, len(parts), "census")
    totals = [0] * 36

    def work(i: int) -> np.ndarray:
        p = parts[i]
        sub = _slice(graph, table, p)
        lo, hi = p.root_lo - p.edge_lo, p.root_hi - p.edge_lo
        return np.asarray(fn(sub, delta, tie, lo, hi), dtype=np.int64)

    def on_result(_i: int, counts: np.ndarray) -> bool:
        if bar is not None:
            bar.update(1)
        for j, c in enumerate(counts.tolist()):
            totals[j] += int(c)
        checked_total(max(totals), "census count")
        return False

    try:
        stats = run_tasks(slots, len(parts), work, on_result, context=ctx, homes=homes)
    finally:
        if bar is not None:
            bar.close()
    _record(slots=slots, tasks=len(parts), **stats)
    return np.array(totals, dtype=np.int64)
