"""How the CPU engines call their numba kernels: interruptible, and safe from several threads.

This module also holds what both CPU engines share around their walks: the run modes
(:data:`COUNT` ...), statuses (:data:`DONE` ...) and step mask (:data:`POLL_MASK`) their kernels
compile in, the :class:`RootRun` tuple that tells a walk which roots to take and where its rows
go, and the host loops over root ranges (:func:`reduce_roots`, :func:`enumerate_rows`), which
drive an engine's :class:`WalkKernels`.

**Why each engine keeps its own chunk drivers.** Each engine's walk module
(:mod:`.static_walk`, :mod:`.temporal_walk`) has its own ``run_chunks`` / ``run_serial``: the
same few lines of ``prange`` loop, but calling that module's walk. numba's on-disk cache
(``cache=True``) checks only the source file of the function it loads: a driver shared from
here would keep running the old walk after the walk's file changed, and a driver built by a
factory or handed the walk as an argument misses the cache in every new process. The same goes
for the jitted helpers each walk module keeps to itself (the binary search
``_lower_bound`` / ``_lower_id``).

**Interrupts.** A numba kernel holds the thread that called it until it returns, and Python runs
signal handlers (Ctrl-C's ``KeyboardInterrupt``) only in the main thread between bytecodes. So a
call made from the main thread runs the kernel in a worker thread (kernels are compiled with
``nogil=True``) while the main thread waits on it; on ``KeyboardInterrupt`` (or any other
exception raised by a signal handler) the main thread sets the call's stop flag, which every
kernel polls (the static DFS every ``POLL_MASK + 1`` steps, the temporal DFS likewise, the
census once per root edge), waits up to ``STOP_GRACE`` seconds for the worker and re-raises.
The kernel's partial result is dropped; the process stays usable. A worker that could not stop
in time (numba was still compiling the kernel) is remembered, and the next engine call first
waits for it (:func:`settle`), so two compilations never overlap. Calls from other threads run
the kernel directly (signals are not delivered there anyway).

The worker is one long-lived thread per process, not a thread per call: numba's OpenMP and TBB
layers keep a thread team per calling thread, and starting a new one for every call cost about
a millisecond per kernel (7 ms for a small ``count_motifs``). The worker runs each kernel with
the caller's ``numba.get_num_threads()``.

**Threads.** numba's ``workqueue`` threading layer aborts the process when two threads run
parallel regions at once; ``tbb`` and ``omp`` do not. Parallel kernels therefore run under a
process-wide lock unless the layer in use is ``tbb`` or ``omp`` (until numba has picked its layer,
at the first parallel call, the lock is taken too). Serial kernels never take it.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

# OpenMP threads spin after a parallel region by default. The kernels run in the worker thread
# below while the caller's thread waits; on a machine with few cores the spinning team then
# starves the caller, and a small call took 10-20 ms instead of 0.5 ms (2 cores). Sleeping
# threads cost a few microseconds more per region. Set before numba loads its OpenMP layer; a
# value the user set wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402
import numpy as np  # noqa: E402

from ...limits import check_result_rows, grow_rows  # noqa: E402
from ..checks import INT64_MAX, checked_sum  # noqa: E402

__all__ = [
    "COUNT",
    "ENUMERATE",
    "EXISTS",
    "RootRun",
    "WalkKernels",
    "reduce_roots",
    "DONE",
    "FULL",
    "LIMIT",
    "STOPPED",
    "OVERFLOW",
    "PAUSED",
    "POLL_MASK",
    "run_kernel",
    "enumerate_rows",
    "new_stop",
    "settle",
    "threading_layer",
    "serialised",
    "running_kernels",
    "STOP_GRACE",
]

# Run modes of a walk (:attr:`RootRun.mode`), the same in both engines; plain ints (see below).
#: Count the matches.
COUNT = 0
#: Write the matches as rows.
ENUMERATE = 1
#: Stop at the first match (count 1), and make the other chunks stop too.
EXISTS = 2

# Statuses a CPU kernel's DFS over a root range returns (``(count, rows_end, next_root, status)``),
# the same in both engines. Plain ints: numba freezes a module-level int global into the code it
# compiles (also when imported), so the kernels read them as constants. numba's on-disk cache
# does not notice a change here (it checks only the kernel's own source file): touch the engine
# modules, or clear their cache, after changing a value.
#: The range was finished.
DONE = 0
#: Output buffer full: rows kept up to the start of the root returned (the host re-runs it).
FULL = 1
#: The row limit was reached.
LIMIT = 2
#: Another chunk found a match (exists), or the caller asked to stop.
STOPPED = 3
#: The count does not fit in 64 bits (the count returned is -1; static engine).
OVERFLOW = 4
#: Pausable enumeration: the buffer is full, go on from the root returned and the resume state
#: (static engine).
PAUSED = 5
#: DFS steps between two looks at the stop flag (a power of two, minus one).
POLL_MASK = 255


class RootRun(NamedTuple):
    """One walk over the roots ``[lo, hi)``: the ``run`` argument of both engines' kernels.

    Built on the host for a serial call, inside the chunk drivers for a parallel one (the same
    numba type either way: numba types the fields, ints as int64). numba's on-disk cache keys a
    kernel by its argument types but does not notice a change of this declaration: touch the
    walk modules, or clear their cache, after changing it.
    """

    #: First root (static: union-CSR entry; temporal: edge id).
    lo: int
    #: One past the last root.
    hi: int
    #: :data:`COUNT`, :data:`ENUMERATE` or :data:`EXISTS`.
    mode: int
    #: ``(rows, width)`` int64 rows of an enumeration (``(0, width)`` otherwise).
    out: np.ndarray
    #: First row this run writes.
    row0: int
    #: One past the last row this run may write.
    cap: int
    #: Whether ``cap`` is the caller's limit (:data:`LIMIT`) rather than a full buffer
    #: (:data:`FULL`, the host grows it and re-runs the root).
    cap_is_limit: bool
    #: The call's stop flag (:func:`new_stop`).
    stop: np.ndarray


class WalkKernels(NamedTuple):
    """An engine's jitted entry points over root ranges (see the module docstring for why each
    engine has its own)."""

    #: ``run_chunks(bounds, *args, mode, out, offsets, stop)``: the walk of every chunk
    #: ``[bounds[c], bounds[c + 1])`` in parallel, rows at ``out[offsets[c]:offsets[c + 1]]``;
    #: returns int64 ``(3, chunks)``: count, rows end and status per chunk.
    chunks: Callable[..., np.ndarray]
    #: ``run_serial(*args, run)``: one :class:`RootRun` on this thread; returns
    #: ``(count, rows_end, next_root, status)``.
    serial: Callable[..., tuple]


#: Seconds the main thread waits for a stopped kernel before re-raising anyway (a kernel still
#: being compiled cannot stop; it finishes in the background and its result is dropped).
STOP_GRACE = 0.5
#: numba threading layers that allow parallel regions from several threads at once.
THREAD_SAFE_LAYERS = ("tbb", "omp")

_PARALLEL_LOCK = threading.Lock()
#: "done" locks of interrupted workers that were still running when their caller gave up.
_ABANDONED: list[threading.Lock] = []


def settle() -> None:
    """Wait for interrupted kernels still running (compiling) in the background.

    Engines call this before anything that may compile numba code; the wait itself can be
    interrupted again.
    """
    for done in list(_ABANDONED):
        while not done.acquire(timeout=0.25):
            pass
        done.release()
        with contextlib.suppress(ValueError):  # another thread settled it too
            _ABANDONED.remove(done)


def threading_layer() -> str | None:
    """The numba threading layer in use, or None before the first parallel region ran."""
    try:
        return str(numba.threading_layer())
    except ValueError:
        return None


def serialised() -> bool:
    """Whether parallel kernels run one at a time (layer not known to be thread-safe)."""
    return threading_layer() not in THREAD_SAFE_LAYERS


def new_stop() -> np.ndarray:
    """A fresh stop flag (``int64[1]``, 0 = run on) for one engine call."""
    return np.zeros(1, dtype=np.int64)


def run_kernel(
    kernel: Callable[..., Any], *args: Any, stop: np.ndarray, parallel: bool = True
) -> Any:
    """Call ``kernel(*args)`` interruptibly (see the module docstring).

    Parameters
    ----------
    kernel : callable
        A numba dispatcher compiled with ``nogil=True`` that polls ``stop``.
    *args
        Its arguments (``stop`` among them where the kernel takes it).
    stop : numpy.ndarray
        The call's stop flag; set to 1 on an interrupt.
    parallel : bool
        The kernel has ``prange`` regions (serialised under a thread-unsafe layer).

    Returns
    -------
    object
        What the kernel returns.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C (SIGINT) arrived while the kernel ran in a main-thread call.
    """

    settle()

    def call() -> Any:
        if parallel and serialised():
            with _PARALLEL_LOCK:
                return kernel(*args)
        return kernel(*args)

    if threading.current_thread() is not threading.main_thread():
        return call()
    box: dict[str, Any] = {}
    # released by the worker when the kernel has returned; waited on with timeouts (a plain
    # lock survives an interrupted acquire, unlike Thread.join in some CPython versions)
    done = threading.Lock()
    done.acquire()
    nthreads = numba.get_num_threads()

    def job() -> None:
        _RUNNING[0] += 1
        try:
            if numba.get_num_threads() != nthreads:
                numba.set_num_threads(nthreads)
            box["value"] = call()
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc
        finally:
            _RUNNING[0] -= 1
            done.release()

    _worker_queue().put(job)
    try:
        while not done.acquire(timeout=0.25):
            pass
    except BaseException:
        stop[0] = 1
        if done.acquire(timeout=STOP_GRACE):
            done.release()
        else:
            _ABANDONED.append(done)
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


def reduce_roots(
    kernels: WalkKernels,
    args: tuple,
    lo: int,
    hi: int,
    width: int,
    mode: int,
    bounds: Callable[[], np.ndarray] | None,
) -> int:
    """Run an engine's walk over roots ``[lo, hi)`` and reduce it: with ``mode``
    :data:`COUNT` the number of matches (``CapacityError`` past 64 bits), with :data:`EXISTS`
    1 if it finds one (the first found stops every chunk), else 0.

    ``kernels`` are the engine's, ``args`` its kernel arguments before the run (a named tuple
    of its named tuples), ``lo < hi`` a checked root range and ``width`` the columns of a match
    row (the empty row buffer the kernels are typed for). ``bounds`` returns the chunk bounds
    of ``[lo, hi)`` for a parallel run; None: one serial run.
    """
    stop = new_stop()
    no_rows = np.empty((0, width), dtype=np.int64)
    if bounds is None:
        run = RootRun(lo, hi, mode, no_rows, 0, 0, False, stop)
        parts = np.array([run_kernel(kernels.serial, *args, run, stop=stop, parallel=False)[0]])
    else:
        chunks = bounds()
        offsets = np.zeros(len(chunks), dtype=np.int64)  # no rows: every chunk writes none
        res = run_kernel(kernels.chunks, chunks, *args, mode, no_rows, offsets, stop, stop=stop)
        parts = res[0]
    # a chunk's -1 is an overflowing count; with EXISTS that means a match too
    return int(parts.any()) if mode == EXISTS else checked_sum(parts)


def enumerate_rows(
    kernels: WalkKernels,
    args: tuple,
    lo: int,
    hi: int,
    width: int,
    limit: int | None,
    *,
    bounds: Callable[[], np.ndarray] | None,
    initial_rows: int,
    count_rows: Callable[[], int],
) -> np.ndarray:
    """The rows of an engine's enumeration over roots ``[lo, hi)``.

    With ``limit`` None and ``bounds`` given, two passes run in parallel: the chunks are
    counted, the exact result is allocated (:func:`~nx_gpumine.limits.check_result_rows`
    first), and each chunk writes its rows at its offset. Otherwise one serial run fills a
    growing buffer in root order, until the range ends or ``limit`` rows are found; when the
    buffer fills inside a root, that root's rows are dropped, the buffer grows
    (:func:`~nx_gpumine.limits.grow_rows`) and the run resumes at that root.

    Parameters
    ----------
    kernels, args, lo, hi
        As in :func:`reduce_roots`.
    width : int
        Columns per row.
    limit : int or None
        Most rows wanted (``>= 1``), or None for all.
    bounds : callable or None
        Returns the chunk bounds of ``[lo, hi)`` for the parallel two-pass run; None: always
        the serial growing buffer.
    initial_rows : int
        First size (rows) of the growing buffer.
    count_rows : callable
        Counts the matches of ``[lo, hi)`` (asked only when a grown buffer would pass the
        memory budget).

    Returns
    -------
    numpy.ndarray
        ``(n, width)`` int64 rows in root order (then DFS order).

    Raises
    ------
    CapacityError
        The count overflows 64 bits, or the rows do not fit the memory budget.
    RuntimeError
        The fill pass disagrees with the count pass (an engine bug).
    """
    stop = new_stop()
    if limit is None and bounds is not None:
        chunks = bounds()
        no_rows = np.empty((0, width), dtype=np.int64)
        offsets = np.zeros(len(chunks), dtype=np.int64)
        counts = run_kernel(kernels.chunks, chunks, *args, COUNT, no_rows, offsets, stop, stop=stop)
        total = checked_sum(counts[0])
        check_result_rows(total, width)
        np.cumsum(counts[0], out=offsets[1:])
        out = np.empty((total, width), dtype=np.int64)
        res = run_kernel(kernels.chunks, chunks, *args, ENUMERATE, out, offsets, stop, stop=stop)
        if not (np.array_equal(res[1], offsets[1:]) and (res[2] == DONE).all()):
            raise RuntimeError("internal error: enumeration pass disagrees with the count pass")
        return out
    # serial, growing buffer (limit None: unbounded growth)
    bound = INT64_MAX if limit is None else limit
    cap = max(1, min(bound, initial_rows))
    out = np.empty((cap, width), dtype=np.int64)
    rows = 0
    e = lo
    while True:
        run = RootRun(e, hi, ENUMERATE, out, rows, cap, cap >= bound, stop)
        _, rows, e, status = run_kernel(kernels.serial, *args, run, stop=stop, parallel=False)
        if status == DONE or status == LIMIT:
            return out[:rows].copy() if rows < len(out) else out
        # buffer full inside root e: grow and resume from e (rows of e were dropped)
        cap = grow_rows(cap, width, limit, count_rows)
        bigger = np.empty((cap, width), dtype=np.int64)
        bigger[:rows] = out[:rows]
        out = bigger


#: Kernels running in the worker thread now (0 once an interrupted kernel has stopped).
_RUNNING = [0]
_WORKER: dict[str, Any] = {"pid": None, "queue": None}


def running_kernels() -> int:
    """Kernels running in this process's worker thread now (interrupt tests check for 0)."""
    return _RUNNING[0]


_WORKER_LOCK = threading.Lock()


def _worker_queue() -> queue.SimpleQueue:
    """The job queue of this process's kernel worker thread (started on first use, and again
    in a forked child, which inherits no threads)."""
    with _WORKER_LOCK:
        if _WORKER["pid"] != os.getpid():
            jobs: queue.SimpleQueue = queue.SimpleQueue()

            def serve() -> None:
                while True:
                    jobs.get()()

            threading.Thread(target=serve, name="nx-gpumine-kernel", daemon=True).start()
            _WORKER.update(pid=os.getpid(), queue=jobs)
        return _WORKER["queue"]
