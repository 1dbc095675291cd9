"""Several GPUs of one host: one process, one Python thread per device, a shared task queue.

``devices=`` on the public functions selects the GPUs; :func:`resolve_devices` turns it into a
list of device ids ("slots", repeats allowed). :func:`run_job` runs any job
(:class:`~nx_gpumine.execution.jobs.base.Job`) on them: each slot is a worker thread that
enters ``cupy.cuda.Device(id)`` once and takes tasks from a queue until none are left. Kernel
launches, device syncs and copies release the GIL, so one process keeps every GPU busy without
shipping the graph between processes (Dask, :mod:`~nx_gpumine.execution.executors.dask`, is
for several hosts).

Placement (:func:`placement`): a call that one device finishes quickly stays on the first
device (splitting would cost more than it saves); a heavy one splits. A query not timed yet is
placed by the plan's estimate of its work (:meth:`Job.estimated_work`: degree statistics,
window sizes; split from the job's :attr:`Job.heavy_work`); after that by the times of its
earlier multi-device calls on the graph (kept under :meth:`Job.cost_key`, the split's per set
of devices; a run is kept once every device it used had run the query, a first run compiling
and uploading): the faster of one device and the split once both are timed. ``last_run``
records the decision, its source, the per-device busy times and tasks; ``progress=True``
prints it.

Work units of a split: a count whose engine deals its own work out (``count_part``, the CUDA
static engine: its heavy-first task or vertex lists dealt out in snake order) runs
:data:`COUNT_PARTS_PER_DEVICE` parts per slot (each one count, with its launch and straggler
rounds, as on one device; the parts are about equal by construction). Other static jobs
(enumeration, existence) run :data:`TASKS_PER_DEVICE` root-edge ranges per slot in one shared
queue: a device that finishes early takes the next task (dynamic stealing). Jobs whose tasks
may read their own edge slices (temporal motifs, the census) run on a whole copy of the graph
per device, :data:`RANGES_PER_DEVICE` root ranges per slot balanced by window sizes; under a
device budget they are Everest's time partitions instead, :data:`PARTS_PER_DEVICE` per slot,
each on its own slice: task ``j`` has a home slot (contiguous blocks, in time order); a slot
runs its own tasks first, then steals the last task of the slot with the most left. A job
that would rather run whole (:meth:`Job.prefers_whole`: a count by the book kernel, which
needs every edge's whole triangle support, see
:func:`~nx_gpumine.engines.cuda.static.whole_range_count`) runs on the first device.

Data: every device cache of the engines is keyed by device id, so each GPU uploads the graph,
or the slices it runs, once and keeps them with the graph object (freed with it); the slices
of the last call are kept on the graph (under :data:`SLICE_CACHE_KEY`) for the next one.

Results are those of one device, bit for bit: the job's results go through the one
:class:`~nx_gpumine.execution.merge.Merge` (counts refused past 64 bits, matches in task order,
``limit`` honoured across devices: each task stops at ``limit``, later tasks are skipped once
the tasks before hold ``limit`` rows; ``exists`` stops every device at the first task that
finds one). :data:`last_run` records the slots, tasks and steals of the last call.

Workers on one device id (``devices=[0, 0]``) take turns (a lock per device id: they would
share the engines' per-plan work buffers); that runs the split and the merge of N devices on
one GPU, which is how the multi-device paths are tested without several GPUs (with the CPU
engine, slots are plain threads).

Device memory budget (``max_device_bytes``, :mod:`~nx_gpumine.device_limits`): the
call's budget is copied into every worker thread and applies to each device. Temporal tasks
whose slice exceeds it stream time partitions through that device (each worker its own copy
buffers and streams); under a budget each slice's device data are freed after its task, so a
device holds one slice at a time. The static out-of-core path (host-resident CSR) runs on one
GPU only: a static call over several distinct devices whose graph would need it raises
:class:`~nx_gpumine.errors.CapacityError` (virtual slots of one device, ``[0, 0]``, run it).

Faults: an error in one worker stops the others after their current task and is re-raised
in the caller; so is ``KeyboardInterrupt`` (Ctrl-C) in the caller, after waiting up to
:data:`STOP_GRACE` seconds for the workers (a task already on a GPU runs to its end; a
worker still busy then is waited for (:func:`settle`) before the next call starts).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from ...device_limits import current_budget, spread_devices
from ...engines import ENGINE_NAMES, cuda_available, is_cuda_engine
from ...engines.contract import optional_hook
from ...errors import EngineUnavailableError, QueryError
from ..jobs.base import Job, cut_input
from ..merge import Merge, progress_bar
from . import local

__all__ = [
    "DEVICES_ENV",
    "TASKS_PER_DEVICE",
    "PARTS_PER_DEVICE",
    "STOP_GRACE",
    "SLICE_CACHE_KEY",
    "TIMES_KEY",
    "SPLIT_MIN_SECONDS",
    "SPLIT_CLEAR_SECONDS",
    "COUNT_PARTS_PER_DEVICE",
    "PROGRESS_PARTS",
    "RANGES_PER_DEVICE",
    "placement",
    "device_count",
    "parse_devices",
    "resolve_devices",
    "device_context",
    "run_tasks",
    "run_job",
    "settle",
    "last_run",
]

#: Environment variable holding the default of ``devices=``: ``all``, a number of devices
#: (``2``) or comma-separated ids (``0,1`` or ``0,``). Applies only to calls that run on the
#: CUDA engine (an explicit ``devices=`` with the CPU engine is an error).
DEVICES_ENV = "NX_GPUMINE_DEVICES"
#: Tasks per slot for jobs whose tasks read the whole graph (static root-edge ranges).
TASKS_PER_DEVICE = 16
#: Tasks per slot for jobs whose tasks read their own slices (temporal motifs, the census).
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


def device_context(eng: ModuleType | None) -> Callable[[int], Any]:
    """Per-slot context: the CUDA device for a CUDA engine, nothing for the CPU engine (tests)."""
    if eng is not None and is_cuda_engine(eng):
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
        ``stolen`` (tasks run off their home slot), ``stopped`` (stopped early),
        ``busy_seconds`` and ``ran`` (per slot: seconds spent in ``work``, tasks run).

    Raises
    ------
    BaseException
        The first error of a worker, or ``KeyboardInterrupt`` received while waiting.
    """
    settle()
    sched = _Scheduler(len(slots), ntasks, homes)
    dones = []
    spread = len(set(slots))
    busy = [0.0] * len(slots)
    ran = [0] * len(slots)

    def body(k: int, done: threading.Lock) -> None:
        dev = slots[k]
        try:
            with spread_devices(spread), context(dev):
                while True:
                    i = sched.take(k)
                    if i is None:
                        break
                    with _device_lock(dev):
                        if sched.stop:
                            break
                        start = time.perf_counter()
                        value = work(i)
                        busy[k] += time.perf_counter() - start
                        ran[k] += 1
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
        # (device_limits.device_budget) holds on every device
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
    return {"stolen": sched.stolen, "stopped": sched.stop, "busy_seconds": busy, "ran": ran}


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


# ====================================================================== running a job
#: Key of the graph's cache of task slices (``graph.derived``): the last call's, reused.
SLICE_CACHE_KEY = ("multigpu_slices",)
_SLICE_LOCK = threading.Lock()


def _slice_table(graph: Any, keys: Sequence[tuple[int, int] | None]) -> dict:
    """The graph's cache of task slices, reduced to ``keys`` (kept ones reused; the others
    are cut by the workers on first use)."""
    wanted = {k for k in keys if k is not None}
    with _SLICE_LOCK:
        old = graph.derived(SLICE_CACHE_KEY, dict)
        table = {k: v for k, v in old.items() if k in wanted}
        graph.forget_derived(*SLICE_CACHE_KEY)  # replaced, not emptied: earlier runs keep theirs
        graph.derived(SLICE_CACHE_KEY, lambda: table)
    return table


def _release_slice(eng: ModuleType, sub: Any) -> None:
    """Under a device budget, free a slice's device data after its task (one slice at a time
    per device, so the budget bounds the call; without one, slices stay cached)."""
    release = optional_hook(eng, "release")
    if release is not None and current_budget() is not None:
        release(sub)


#: Key of the graph's table of measured times (:func:`placement`).
TIMES_KEY = ("multigpu_seconds",)
#: A query measured below this on one device stays on one device: splitting it would save
#: less than the split costs (a worker thread and a launch per device).
SPLIT_MIN_SECONDS = 0.004
#: A query whose split run took this long or more goes on splitting without being timed on
#: one device (a quicker one is timed there once, to compare).
SPLIT_CLEAR_SECONDS = 0.02
#: Parts per device slot of a count the engine deals out itself (``count_part``); with a
#: progress bar, :data:`PROGRESS_PARTS` (the bar's steps).
COUNT_PARTS_PER_DEVICE = 1
PROGRESS_PARTS = 8
#: Root ranges per device slot of a temporal job on whole-graph copies (no slices).
RANGES_PER_DEVICE = 2


def _times(job: Job) -> dict:
    return job.graph.derived(TIMES_KEY, dict)


#: Entries of a graph's table of measured times past which those of freed plans are dropped.
TIMES_PRUNE = 256


def _timing(job: Job) -> dict | None:
    """The measured times of ``job``'s query on its graph (None: none kept): ``one`` (seconds
    on one device), ``split`` (seconds per device set, a sorted tuple of slots) and ``warm``
    (the devices that ran it: compiled and uploaded). An entry holds its plan weakly (a plan
    built per call, not kept with the graph, leaves a dead entry, dropped once the table
    passes :data:`TIMES_PRUNE` entries)."""
    key = job.cost_key()
    if key is None:
        return None
    table = _times(job)
    entry = table.get(key)
    if entry is None or entry["plan"]() is not job.plan:  # another plan under a reused id
        if len(table) >= TIMES_PRUNE:
            for k in [k for k, e in table.items() if e["plan"]() is None]:
                del table[k]
        entry = {"plan": _plan_ref(job.plan), "one": None, "split": {}, "warm": set(), "runs": {}}
        table[key] = entry
    return entry


def _plan_ref(plan: Any) -> Callable[[], Any]:
    """A weak reference to ``plan`` (a strong one for a value that takes none: None)."""
    try:
        return weakref.ref(plan)
    except TypeError:
        return lambda: plan


def placement(job: Job, slots: Sequence[int]) -> dict[str, Any]:
    """Whether a call of ``job`` over the device ``slots`` splits, and why.

    The times measured by earlier multi-device calls of the query on this graph decide
    (:meth:`Job.cost_key`; a run is kept once every device it used had run the query before,
    the first compiling and uploading): with the one-device time and the split's on these
    devices both known, the faster placement; with the split's only, a split of
    :data:`SPLIT_CLEAR_SECONDS` or more goes on splitting and a quicker one is tried on one
    device; with the one-device time only, split from :data:`SPLIT_MIN_SECONDS` on. A query
    not timed yet splits when the plan's estimate of its work (:meth:`Job.estimated_work`:
    degree statistics, window sizes) reaches the job's :attr:`Job.heavy_work`. So a quick
    query stays on one device from the start, a heavy one splits, and those between are
    settled by their own times within four calls.

    Returns
    -------
    dict
        ``split`` (bool), ``source`` (``"measured"`` or ``"estimate"``), ``seconds`` (the
        one-device and the split times, each None where not measured; None for an estimate)
        and ``work`` (the estimate, or None).
    """
    entry = _timing(job)
    if entry is not None:
        one, split = entry["one"], entry["split"].get(tuple(sorted(slots)))
        if one is not None or split is not None:
            if one is not None and split is not None:
                go = split < one
            elif split is not None:
                go = split >= SPLIT_CLEAR_SECONDS
            else:
                go = one >= SPLIT_MIN_SECONDS
            return dict(split=go, source="measured", seconds=(one, split), work=None)
    work = job.estimated_work()
    return dict(
        split=work is None or work >= job.heavy_work, source="estimate", seconds=None, work=work
    )


#: Runs per placement whose least time is kept: one slow run (a pause of the host, another
#: process on the GPU) does not flip the placement, and a lasting change shows within as many.
TIME_SAMPLES = 5


def _keep_time(job: Job, slots: Sequence[int], seconds: float) -> None:
    """Keep the time of a run on ``slots`` (one slot: the one-device time; several: the split
    time of that device set) if every device of it had run the query before: the least of
    its last :data:`TIME_SAMPLES` runs."""
    entry = _timing(job)
    if entry is None:
        return
    devs = set(slots)
    if devs <= entry["warm"]:
        where = "one" if len(slots) == 1 else tuple(sorted(slots))
        runs = entry.setdefault("runs", {}).setdefault(where, deque(maxlen=TIME_SAMPLES))
        runs.append(seconds)
        if where == "one":
            entry["one"] = min(runs)
        else:
            entry["split"][where] = min(runs)
    entry["warm"] |= devs


def _needs_slices(job: Job) -> bool:
    """Whether a job that may read edge slices should (a device budget is in force: each
    device then holds its own time partitions, streamed under the budget); else every device
    keeps a whole copy of the graph, uploaded once, and its tasks are root ranges on it."""
    return job.reads_slices and current_budget() is not None


def _show(progress: bool, job: Job, text: str) -> None:
    """With ``progress=True``: one line saying where the call runs (above the bars)."""
    if not progress:
        return
    line = f"nx_gpumine: {job.desc}: {text}"
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional
        print(line, file=sys.stderr)
        return
    write = getattr(tqdm, "write", None)
    if write is None:
        print(line, file=sys.stderr)
    else:
        write(line, file=sys.stderr)


def _describe(place: dict, slots: Sequence[int]) -> str:
    if place["source"] == "measured":
        times = zip(("on one device", "split"), place["seconds"], strict=True)
        why = "measured " + ", ".join(f"{t * 1e3:.3g} ms {w}" for w, t in times if t is not None)
    elif place["work"] is None:
        why = "no estimate"
    else:
        why = f"estimated work {place['work']:.3g}"
    where = f"split over devices {sorted(set(slots))}" if place["split"] else f"device {slots[0]}"
    return f"{where} ({why})"


def run_job(
    job: Job,
    eng: ModuleType | None,
    devices: Sequence[int],
    *,
    progress: bool = False,
    ntasks: int | None = None,
) -> Any:
    """Run ``job`` on several devices of this host (one worker thread per slot).

    ``job``, ``eng``, ``progress``: as in :func:`~.local.run_job` (with the CPU engine the
    slots are plain threads: the tests of the scheduling and merging). ``devices``: the device
    id per worker slot (:func:`resolve_devices`). ``ntasks``: number of tasks (forces the split;
    default: :func:`placement` decides, and a split has :data:`COUNT_PARTS_PER_DEVICE` parts
    per slot for a count the engine deals out itself, else :data:`TASKS_PER_DEVICE` root
    ranges per slot, or for jobs on edge slices :data:`PARTS_PER_DEVICE` partitions per slot
    under a device budget and :data:`RANGES_PER_DEVICE` root ranges without one). Returns
    exactly what the job gives on one device (rows in task order).
    """
    slots = list(devices)
    answer = job.answer()
    if answer is not None:
        return answer
    settle()  # an interrupted call's workers may still hold a device lock
    ctx = device_context(eng)
    start = time.perf_counter()
    if len(slots) == 1:
        with ctx(slots[0]), _device_lock(slots[0]):
            _record(slots=slots, tasks=1, whole=True, placement="one slot")
            return local.run_job(job, eng, progress)
    place = placement(job, slots) if ntasks is None else None
    if place is not None and not place["split"]:  # as a one-device call, on the first slot
        _show(progress, job, _describe(place, slots))
        with ctx(slots[0]), _device_lock(slots[0]):
            result = local.run_job(job, eng, progress)
        seconds = time.perf_counter() - start
        _keep_time(job, slots[:1], seconds)
        _record(
            slots=slots[:1], tasks=1, whole=True, placement=place["source"], estimate=place,
            seconds=seconds, busy_seconds=[seconds],
        )  # fmt: skip
        return result
    with ctx(slots[0]), _device_lock(slots[0]), spread_devices(len(set(slots))):
        if job.prefers_whole(eng):
            _record(slots=slots[:1], tasks=1, whole=True, placement="whole-range kernel")
            _show(progress, job, f"device {slots[0]} (a whole-range kernel)")
            return job.whole(eng)
    if place is not None:
        _show(progress, job, _describe(place, slots))
    parts = len(slots) * (PROGRESS_PARTS if progress else COUNT_PARTS_PER_DEVICE)
    tasks = job.device_tasks(eng, ntasks or parts)
    sliced = _needs_slices(job)
    if tasks is None:
        per_slot = TASKS_PER_DEVICE
        if job.reads_slices:
            per_slot = PARTS_PER_DEVICE if sliced else RANGES_PER_DEVICE
        tasks = job.tasks(_units(ntasks, per_slot, len(slots)), sliced=sliced)
    keys = [job.input_key(task) for task in tasks]
    graph = job.graph
    if job.reads_slices and not sliced:
        graph.forget_derived(*SLICE_CACHE_KEY)  # an earlier call's slices: not needed now
    table: dict = _slice_table(graph, keys) if sliced else {}
    homes = None
    if any(key is not None for key in keys):  # slices: neighbours in time share a device
        homes = [j * len(slots) // len(tasks) for j in range(len(tasks))]
    bar = progress_bar(job.task_weights(tasks), job.desc) if progress else None
    merge = Merge(job.mode, len(tasks), job.width, job.limit, bar)

    def work(i: int) -> Any:
        key = keys[i]
        if key is None:
            return job.run_task(eng, graph, tasks[i], job.limit)
        sub = table.get(key)
        if sub is None:
            sub = table[key] = cut_input(graph, key)
        try:
            return job.run_task(eng, sub, tasks[i], job.limit)
        finally:
            _release_slice(eng, sub)

    try:
        stats = run_tasks(slots, len(tasks), work, merge.add, context=ctx, homes=homes)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    if not stats["stopped"]:
        _keep_time(job, slots, seconds)
    _record(
        slots=slots, tasks=len(tasks), whole=False,
        placement="forced" if place is None else place["source"], estimate=place,
        seconds=seconds, **stats,
    )  # fmt: skip
    return merge.result()
