"""How the CPU engines call their numba kernels: interruptible, and safe from several threads.

This module also holds what both CPU engines share on the host: the kernels' status codes
(:data:`DONE` ...) and step mask (:data:`POLL_MASK`), and the enumeration loop
(:func:`enumerate_rows`). The jitted chunk drivers stay in each engine's module: numba's on-disk
cache (``cache=True``) misses in every new process for a kernel built by a factory or passed in
as an argument.

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
from typing import Any

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


def enumerate_rows(
    kernels: tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]],
    args: tuple,
    lo: int,
    hi: int,
    width: int,
    limit: int | None,
    *,
    stop: np.ndarray,
    bounds: Callable[[], np.ndarray] | None,
    initial_rows: int,
    count_rows: Callable[[], int],
) -> np.ndarray:
    """The rows of an engine's enumeration over roots ``[lo, hi)``: the host side both CPU
    engines share (their jitted chunk drivers stay per engine, for numba's on-disk cache).

    With ``limit`` None and ``bounds`` given, two passes run in parallel: ``count_chunks``
    counts per chunk, the exact result is allocated (:func:`~nx_gpumine.limits.check_result_rows`
    first), and ``fill_chunks`` writes each chunk's rows at its offset. Otherwise
    ``enum_serial`` fills a growing buffer in root order on one thread, until the range ends or
    ``limit`` rows are found; when the buffer fills inside a root, that root's rows are dropped,
    the buffer grows (:func:`~nx_gpumine.limits.grow_rows`) and the run resumes at that root.

    Parameters
    ----------
    kernels : tuple of callable
        ``(count_chunks, fill_chunks, enum_serial)``, called as
        ``count_chunks(bounds, args, stop) -> counts``,
        ``fill_chunks(bounds, offsets, out, args, stop) -> (ends, statuses)`` and
        ``enum_serial(args, lo, hi, out, row0, cap, cap_is_limit, stop) ->
        (count, rows_end, next_root, status)`` (statuses :data:`DONE`, :data:`FULL`,
        :data:`LIMIT`).
    args : tuple
        The engine's flat kernel arguments.
    lo, hi : int
        Checked root range, ``lo < hi``.
    width : int
        Columns per row.
    limit : int or None
        Most rows wanted (``>= 1``), or None for all.
    stop : numpy.ndarray
        The call's stop flag (:func:`new_stop`).
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
    count_chunks, fill_chunks, enum_serial = kernels
    if limit is None and bounds is not None:
        chunks = bounds()
        counts = run_kernel(count_chunks, chunks, args, stop, stop=stop)
        total = checked_sum(counts)
        check_result_rows(total, width)
        offsets = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        out = np.empty((total, width), dtype=np.int64)
        ends, status = run_kernel(fill_chunks, chunks, offsets, out, args, stop, stop=stop)
        if not (np.array_equal(ends, offsets[1:]) and (status == DONE).all()):
            raise RuntimeError("internal error: enumeration pass disagrees with the count pass")
        return out
    # serial, growing buffer (limit None: unbounded growth)
    bound = INT64_MAX if limit is None else limit
    cap = max(1, min(bound, initial_rows))
    out = np.empty((cap, width), dtype=np.int64)
    rows = 0
    e = lo
    while True:
        is_limit = cap >= bound
        _, rows, e, status = run_kernel(
            enum_serial, args, e, hi, out, rows, cap, is_limit, stop, stop=stop, parallel=False
        )
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
