"""How the CPU engines call their numba kernels: interruptible, and safe from several threads.

This module also holds what both CPU engines share around their walks: the run modes
(:data:`COUNT` ...), statuses (:data:`DONE` ...) and step mask (:data:`POLL_MASK`) their kernels
compile in, the :class:`RootRun` tuple that tells a walk which roots to take and where its rows
go, and the host loops over root ranges (:func:`reduce_roots`, :func:`enumerate_rows`), which
drive an engine's :class:`WalkKernels`.

**Counts past 64 bits.** A walk counts in an int64 word (the hot path: plain adds, each
compared with ``2**63 - 1`` first). Before an add would wrap, the walk spills the word into
its run's wide accumulator (:attr:`RootRun.wide`: :data:`WIDE_LIMBS` limbs of 32 bits,
little-endian) and goes on from zero (:func:`wide_add`); a count-tail formula too large for
int64 is computed exactly in limbs and added there (:func:`wide_tail`). These limb helpers are
pure arithmetic kept here, out of the walk module (which stays under the package's module
length limit): numba's cache of the walk does not notice a change of them (touch the walk
module, as for the constants below). A walk reports ``OVERFLOW`` only once its wide value passes
:data:`~nx_gpumine.engines.checks.COUNT_MAX` (``2**128 - 1``). The host turns a word and its
limbs into the exact Python int (:func:`wide_count`) and sums the chunks with
:func:`~nx_gpumine.engines.checks.checked_sum` (the same ``2**128 - 1`` limit for the total).

**Why each engine keeps its own chunk drivers.** Each engine's walk module
(:mod:`.static_walk`, :mod:`.temporal_walk`) has its own ``run_chunks`` / ``run_serial``: the
same few lines of ``prange`` loop, but calling that module's walk. numba's on-disk cache
(``cache=True``) checks only the source file of the function it loads: a driver shared from
here would keep running the old walk after the walk's file changed, and a driver built by a
factory or handed the walk as an argument misses the cache in every new process. The same goes
for a jitted helper taken from another module: the settled ones both walks share
(:mod:`.walk_shared`: the binary search ``lower_bound``, ``chunk_run``) are small and rarely
changed; after changing one, touch the modules that call it.

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
the kernel directly (signals are not delivered there); such a thread can still have its calls
stopped from outside with :func:`cancel_when` (a Dask worker does, for the tasks of a cancelled
query): a watcher thread sets the stop flag once the call's test says so, and the call raises
``concurrent.futures.CancelledError``.

Between two kernels the host loops never hold the interpreter long: an enumeration's rows are
kept in blocks of at most :data:`MAX_BLOCK_BYTES` and stacked one block at a time
(:func:`stack_blocks`), so no single copy of a large result delays a Ctrl-C.

**Memory budget.** An enumeration checks the rows it will hold against the memory budget while
it runs, not after: the count pass of the two-pass enumeration runs in rounds of chunks
(:func:`count_chunks`) and stops at the first round whose running count is past
:func:`~nx_gpumine.limits.budget_rows` (naming that count, or the exact one when finishing the
count takes under :data:`EXACT_COUNT_S`); the serial enumeration never takes a block past the
budget.

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
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from typing import Any, NamedTuple

# OpenMP threads spin after a parallel region by default. The kernels run in the worker thread
# below while the caller's thread waits; on a machine with few cores the spinning team then
# starves the caller, and a small call took 10-20 ms instead of 0.5 ms (2 cores). Sleeping
# threads cost a few microseconds more per region. Set before numba loads its OpenMP layer; a
# value the user set wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402
import numpy as np  # noqa: E402

from ...limits import budget_rows, check_result_rows  # noqa: E402
from ..checks import INT64_MAX, checked_sum  # noqa: E402

__all__ = [
    "COUNT",
    "ENUMERATE",
    "EXISTS",
    "RootRun",
    "WalkKernels",
    "WIDE_LIMBS",
    "new_wide",
    "wide_count",
    "wide_add",
    "wide_formula",
    "wide_tail",
    "reduce_roots",
    "DONE",
    "FULL",
    "LIMIT",
    "STOPPED",
    "OVERFLOW",
    "PAUSED",
    "POLL_MASK",
    "run_kernel",
    "chunk_counts",
    "enumerate_rows",
    "count_chunks",
    "stack_blocks",
    "EXACT_COUNT_S",
    "MAX_BLOCK_BYTES",
    "new_stop",
    "settle",
    "threading_layer",
    "serialised",
    "running_kernels",
    "cancel_when",
    "CANCEL_POLL",
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
#: The count passes ``2**128 - 1`` (the count returned is -1; static engine).
OVERFLOW = 4
#: Pausable enumeration: the buffer is full, go on from the root returned and the resume state
#: (static engine).
PAUSED = 5
#: DFS steps between two looks at the stop flag (a power of two, minus one).
POLL_MASK = 255
#: 32-bit limbs of a run's wide accumulator (:attr:`RootRun.wide`): 160 bits, so a value past
#: ``2**128 - 1`` is seen (a limb above index 3 is non-zero) before it could wrap.
WIDE_LIMBS = 5


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
    #: int64 ``[WIDE_LIMBS]``: the run's wide accumulator (:func:`new_wide`, zeroed), where
    #: the walk spills its int64 count before it would wrap (see the module docstring); the
    #: run's count is the count it returns plus this value (:func:`wide_count`). The temporal
    #: walk never spills (it leaves it zero).
    wide: np.ndarray


class WalkKernels(NamedTuple):
    """An engine's jitted entry points over root ranges (see the module docstring for why each
    engine has its own)."""

    #: ``run_chunks(bounds, *args, mode, out, offsets, stop)``: the walk of every chunk
    #: ``[bounds[c], bounds[c + 1])`` in parallel, rows at ``out[offsets[c]:offsets[c + 1]]``;
    #: returns int64 ``(3 + WIDE_LIMBS, chunks)``: count (the int64 word, -1 on overflow), rows
    #: end and status per chunk, then the chunk's wide limbs (rows ``3 ..``; each chunk runs
    #: with its own zeroed :attr:`RootRun.wide`).
    chunks: Callable[..., np.ndarray]
    #: ``run_serial(*args, run)``: one :class:`RootRun` on this thread; returns
    #: ``(count, rows_end, next_root, status)`` (and leaves the spilled part in ``run.wide``).
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


def new_wide() -> np.ndarray:
    """A fresh wide accumulator (``int64[WIDE_LIMBS]``, zero) for one :class:`RootRun`."""
    return np.zeros(WIDE_LIMBS, dtype=np.int64)


def wide_count(count: int, limbs: np.ndarray) -> int:
    """The exact count of a run: its int64 word ``count`` plus the value of its wide limbs
    (``WIDE_LIMBS`` 32-bit limbs, little-endian); -1 (an overflow) stays -1.

    Parameters
    ----------
    count : int
        The count a walk returned (-1: it passed ``2**128 - 1``).
    limbs : numpy.ndarray
        The run's :attr:`RootRun.wide` (or a chunk's rows ``3 ..`` of ``run_chunks``).

    Returns
    -------
    int
        A Python int, or -1.
    """
    count = int(count)
    if count < 0:
        return -1
    for i, limb in enumerate(np.asarray(limbs).tolist()):
        count += int(limb) << (32 * i)
    return count


def chunk_counts(res: np.ndarray) -> list[int] | np.ndarray:
    """The exact count of each chunk of a ``run_chunks`` result (its int64 words as they are
    when no chunk spilled, else Python ints; -1 marks an overflowed chunk)."""
    if not res[3:].any():
        return res[0]
    return [wide_count(res[0, c], res[3:, c]) for c in range(res.shape[1])]


# The limb arithmetic of the static walk's wide accumulator (called off its hot path only).
# numba compiles them into the walk's cached code, and its on-disk cache checks only the walk's
# own source file: touch static_walk.py, or clear its cache, after changing them.
#: One 32-bit limb of a wide accumulator.
_LIMB_MASK = np.int64(0xFFFFFFFF)
#: Factors and divisors of the limb products stay below this, so ``limb * factor + carry``
#: fits int64 (a tail's candidates are vertices, whose ids are int32).
_FACTOR_LIMIT = np.int64(1 << 31)


@numba.njit(cache=True)
def _wide_fits(wide):
    """The wide value is at most ``2**128 - 1`` (its limbs above index 3 are zero)."""
    for i in range(4, WIDE_LIMBS):
        if wide[i] != 0:
            return False
    return True


@numba.njit(cache=True)
def wide_add(wide, x):
    """Add ``x`` (``0 <= x < 2**63``) to the limbs of ``wide``; whether the sum still fits
    ``2**128 - 1``."""
    c = np.int64(x)
    for i in range(WIDE_LIMBS):
        if c == 0:
            break
        s = wide[i] + (c & _LIMB_MASK)
        wide[i] = s & _LIMB_MASK
        c = (c >> 32) + (s >> 32)
    return c == 0 and _wide_fits(wide)


@numba.njit(cache=True)
def _wide_add_limbs(wide, a):
    """Add the limbs ``a`` to those of ``wide``; whether the sum still fits ``2**128 - 1``."""
    c = np.int64(0)
    for i in range(WIDE_LIMBS):
        s = wide[i] + a[i] + c
        wide[i] = s & _LIMB_MASK
        c = s >> 32
    return c == 0 and _wide_fits(wide)


@numba.njit(cache=True)
def wide_mul(a, m):
    """Multiply the limbs ``a`` by ``0 <= m < 2**31`` in place; False when the product does not
    fit the limbs."""
    if m < 0 or m >= _FACTOR_LIMIT:
        return False
    c = np.int64(0)
    for i in range(WIDE_LIMBS):
        p = a[i] * m + c  # < 2**63: a[i] < 2**32, m < 2**31, c < 2**31
        a[i] = p & _LIMB_MASK
        c = p >> 32
    return c == 0


@numba.njit(cache=True)
def wide_div(a, d):
    """Divide the limbs ``a`` by ``0 < d < 2**31`` in place (long division from the top limb);
    returns the remainder."""
    r = np.int64(0)
    for i in range(WIDE_LIMBS - 1, -1, -1):
        cur = (r << 32) | a[i]  # < 2**63: r < d < 2**31
        a[i] = cur // d
        r = cur % d
    return r


@numba.njit(cache=True)
def wide_formula(n, t, kind, a):
    """Write into the limbs ``a`` the tail formula ``kind`` (1: the falling factorial
    ``n (n-1) ... (n-t+1)``, 2: the binomial ``C(n, t)``) for ``0 <= n < 2**31``; False when it
    passes ``2**128 - 1`` (``a`` is then meaningless)."""
    for i in range(WIDE_LIMBS):
        a[i] = 0
    if t < 0 or n < t:
        return True  # 0
    a[0] = 1
    if kind == 2:
        if t > n - t:
            t = n - t
        # C(n, i+1) = C(n, i) (n-i) / (i+1), exact; C(n, i+1) <= C(n, t) for i+1 <= t <= n/2,
        # so an intermediate past 2**128 - 1 (or a product past the limbs: C(n, i+1) (i+1)
        # >= 2**160) means the result is too
        for i in range(t):
            if not wide_mul(a, np.int64(n - i)):
                return False
            wide_div(a, np.int64(i + 1))
            if not _wide_fits(a):
                return False
        return True
    # every factor is >= 1: the partial products only grow
    for i in range(t):
        if not wide_mul(a, np.int64(n - i)) or not _wide_fits(a):
            return False
    return True


@numba.njit(cache=True)
def wide_tail(wide, n, t, kind):
    """Add the tail formula ``kind`` of ``(n, t)`` (:func:`wide_formula`) to ``wide``; whether
    the sum still fits ``2**128 - 1``."""
    a = np.zeros(WIDE_LIMBS, np.int64)
    if not wide_formula(n, t, kind, a):
        return False
    return _wide_add_limbs(wide, a)


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
    concurrent.futures.CancelledError
        The call runs under :func:`cancel_when` and was cancelled (before or while the kernel
        ran).
    """

    settle()
    cancelled = getattr(_SCOPE, "cancelled", None)
    if cancelled is None:
        return _run_kernel(kernel, args, stop, parallel)
    if _asks_to_stop(cancelled):
        raise CancelledError("the engine call was cancelled")
    key = _watch(stop, cancelled)
    try:
        value = _run_kernel(kernel, args, stop, parallel)
    finally:
        _unwatch(key)
    if stop[0] and _asks_to_stop(cancelled):  # stopped by the watcher: no answer
        raise CancelledError("the engine call was cancelled")
    return value


def _run_kernel(kernel: Callable[..., Any], args: tuple, stop: np.ndarray, parallel: bool) -> Any:
    """:func:`run_kernel` once :func:`settle` has run: in the worker thread for a main-thread
    call, directly otherwise."""

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
    :data:`COUNT` the exact number of matches, a Python int (``CapacityError`` past
    ``2**128 - 1``, :func:`~nx_gpumine.engines.checks.checked_sum`), with :data:`EXISTS` 1 if
    it finds one (the first found stops every chunk), else 0.

    ``kernels`` are the engine's, ``args`` its kernel arguments before the run (a named tuple
    of its named tuples), ``lo < hi`` a checked root range and ``width`` the columns of a match
    row (the empty row buffer the kernels are typed for). ``bounds`` returns the chunk bounds
    of ``[lo, hi)`` for a parallel run; None: one serial run.
    """
    stop = new_stop()
    no_rows = np.empty((0, width), dtype=np.int64)
    if bounds is None:
        run = RootRun(lo, hi, mode, no_rows, 0, 0, False, stop, new_wide())
        word = run_kernel(kernels.serial, *args, run, stop=stop, parallel=False)[0]
        if mode == EXISTS:
            return int(word != 0)
        return checked_sum([wide_count(word, run.wide)])
    chunks = bounds()
    offsets = np.zeros(len(chunks), dtype=np.int64)  # no rows: every chunk writes none
    res = run_kernel(kernels.chunks, chunks, *args, mode, no_rows, offsets, stop, stop=stop)
    # a chunk's -1 is an overflowing count (checked_sum raises)
    return int(res[0].any()) if mode == EXISTS else checked_sum(chunk_counts(res))


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
    counted, the exact result is allocated, and each chunk writes its rows at its offset. The
    count pass runs in rounds of chunks (one chunk per thread, then twice as many each round,
    :func:`count_chunks`) and the count so far is checked against the memory budget after each
    round, so a result far past the budget is refused after a fraction of the count, not after
    all of it. Otherwise one serial run fills blocks of rows in root order (each block twice
    the last, up to :data:`MAX_BLOCK_BYTES`), until the range ends or ``limit`` rows are found;
    when a block fills inside a root, that root's rows are dropped from it and the next block
    starts at that root. The rows held are checked against the budget as they grow. No step
    copies more than one block at a time (a Ctrl-C is seen between two), the last one
    included (:func:`stack_blocks`).

    A result past the budget raises :class:`~nx_gpumine.CapacityError` at once with the number
    of matches found so far (a lower bound), or, when counting the rest is cheap (the time
    spent so far extrapolated stays under :data:`EXACT_COUNT_S`), with the exact number.

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
        the serial blocks.
    initial_rows : int
        Rows of the first block.
    count_rows : callable
        Counts the matches of ``[lo, hi)`` (asked only when the rows pass the memory budget
        and counting looks cheap, for the exact number in the message).

    Returns
    -------
    numpy.ndarray
        ``(n, width)`` int64 rows in root order (then DFS order).

    Raises
    ------
    CapacityError
        The rows do not fit the memory budget (a count past ``2**128 - 1`` too).
    RuntimeError
        The fill pass disagrees with the count pass (an engine bug).
    """
    stop = new_stop()
    if limit is None and bounds is not None:
        return _two_pass(kernels, args, bounds(), width, stop)
    # the serial blocks
    bound = INT64_MAX if limit is None else int(limit)
    room = budget_rows(width)
    most = max(1, MAX_BLOCK_BYTES // (8 * max(width, 1)))
    cap = max(1, min(bound, initial_rows, most))
    blocks: list[np.ndarray] = []
    held = 0
    e = lo
    start = time.monotonic()
    while True:
        want = min(cap, bound - held)
        squeezed = want > room - held  # the budget, not the block size, bounds this block
        if squeezed:
            want = room - held
        if want <= 0:  # held >= room and there are more rows
            _over_budget(held + 1, width, limit, count_rows, (e - lo) / max(hi - lo, 1), start)
        out = np.empty((want, width), dtype=np.int64)
        run = RootRun(e, hi, ENUMERATE, out, 0, want, held + want >= bound, stop, new_wide())
        _, rows, e, status = run_kernel(kernels.serial, *args, run, stop=stop, parallel=False)
        if rows:
            blocks.append(out if rows == want else out[:rows])
            held += rows
        if status == DONE or status == LIMIT:
            return stack_blocks(blocks, held, width)
        # the block filled inside root e: the next one starts at e (its rows were dropped)
        if squeezed:  # root e has more rows than the room left: more than room in all
            _over_budget(room + 1, width, limit, count_rows, (e - lo) / max(hi - lo, 1), start)
        cap = 2 * cap if rows == 0 else min(2 * cap, max(most, cap))


def _two_pass(
    kernels: WalkKernels, args: tuple, chunks: np.ndarray, width: int, stop: np.ndarray
) -> np.ndarray:
    """The parallel two-pass enumeration of :func:`enumerate_rows` over the chunks
    ``[chunks[c], chunks[c + 1])``: counted, then filled at exact offsets."""
    counts = count_chunks(kernels, args, chunks, width, stop)
    total = checked_sum(counts)
    check_result_rows(total, width)  # past the budget long before a count passes int64
    offsets = np.zeros(len(chunks), dtype=np.int64)
    np.cumsum(np.asarray(counts, dtype=np.int64), out=offsets[1:])
    out = np.empty((total, width), dtype=np.int64)
    res = run_kernel(kernels.chunks, chunks, *args, ENUMERATE, out, offsets, stop, stop=stop)
    if not (np.array_equal(res[1], offsets[1:]) and (res[2] == DONE).all()):
        raise RuntimeError("internal error: enumeration pass disagrees with the count pass")
    return out


#: Seconds a listing past the memory budget may spend in all (so far and still to come) for
#: its :class:`~nx_gpumine.CapacityError` to name the exact number of matches; past that it
#: names the number found so far, at once.
EXACT_COUNT_S = 0.5
#: Bytes of one block of rows of the serial enumeration at most (a root with more matches
#: gets a bigger one); what one copy step moves, so what delays a Ctrl-C.
MAX_BLOCK_BYTES = 32 << 20


def count_chunks(
    kernels: WalkKernels, args: tuple, chunks: np.ndarray, width: int, stop: np.ndarray
) -> np.ndarray:
    """Per-chunk match counts of the chunks ``[chunks[c], chunks[c + 1])``, checked against
    the memory budget as they come.

    The chunks are counted in rounds: one chunk per numba thread first, then twice as many
    each round, or all the rest at once when the count so far, extrapolated over every chunk
    (they are balanced by estimated work), stays under a quarter of the rows the budget holds
    (:func:`~nx_gpumine.limits.budget_rows`): a result well within the budget costs two
    launches. After each round the count so far is compared with the rows the budget holds;
    once past it, the next rounds run only while the time spent, extrapolated over them, stays
    under :data:`EXACT_COUNT_S` (then the error names the exact count), else
    :class:`~nx_gpumine.CapacityError` names the count so far.

    Parameters
    ----------
    kernels, args
        As in :func:`reduce_roots`.
    chunks : numpy.ndarray
        int64 chunk bounds (balanced by estimated work).
    width : int
        Columns per row.
    stop : numpy.ndarray
        The call's stop flag.

    Returns
    -------
    list of int
        The exact count per chunk (Python ints, :func:`wide_count`).

    Raises
    ------
    CapacityError
        The rows do not fit the memory budget, or a count passes ``2**128 - 1``.
    """
    nch = len(chunks) - 1
    counts: list[int] = []
    no_rows = np.empty((0, width), dtype=np.int64)
    room = budget_rows(width)
    start = time.monotonic()
    done, step, held = 0, max(1, numba.get_num_threads()), 0
    while done < nch:
        end = min(nch, done + step)
        if held > room:  # past the budget: go on only while that stays cheap
            spent = time.monotonic() - start
            if spent + spent * (end - done) / done > EXACT_COUNT_S:
                check_result_rows(held, width, exact=False)
        offsets = np.zeros(end - done, dtype=np.int64)
        part = chunks[done : end + 1]
        res = run_kernel(kernels.chunks, part, *args, COUNT, no_rows, offsets, stop, stop=stop)
        counts.extend(int(c) for c in chunk_counts(res))
        held = checked_sum(counts)
        done, step = end, 2 * step
        if held * nch <= end * room // 4:  # far from the budget at this rate: the rest at once
            step = nch
    return counts


def _over_budget(
    at_least: int,
    width: int,
    limit: int | None,
    count_rows: Callable[[], int],
    fraction: float,
    start: float,
) -> None:
    """Raise the :class:`~nx_gpumine.CapacityError` of a serial enumeration whose rows do not
    fit the budget (``at_least`` rows, more than it holds, known from ``fraction`` of the roots
    walked since ``start``): with the exact count when counting them all looks cheap, else at
    once with ``at_least``."""
    spent = time.monotonic() - start
    if fraction > 0 and spent / fraction <= EXACT_COUNT_S:
        total = int(count_rows())
        want = total if limit is None else min(total, int(limit))
        check_result_rows(want, width)
    check_result_rows(at_least, width, exact=False)
    raise AssertionError("unreachable: more rows than the budget holds")  # pragma: no cover


def stack_blocks(blocks: list[np.ndarray], rows: int, width: int) -> np.ndarray:
    """``blocks`` (emptied) stacked into one ``(rows, width)`` int64 array.

    A single block comes back as it is; several are copied one at a time (each released once
    copied), so the copy can be interrupted between two and the peak is the result plus one
    block's worth of what is left.
    """
    if len(blocks) == 1 and blocks[0].base is None:  # a whole block, not a view of a bigger one
        return blocks.pop()
    out = np.empty((rows, width), dtype=np.int64)
    pos = 0
    blocks.reverse()
    while blocks:
        block = blocks.pop()
        out[pos : pos + len(block)] = block
        pos += len(block)
    return out


#: Seconds between two looks of the watcher thread at the cancellation tests of running calls
#: (:func:`cancel_when`).
CANCEL_POLL = 0.05
_SCOPE = threading.local()


@contextlib.contextmanager
def cancel_when(cancelled: Callable[[], bool]) -> Iterator[None]:
    """Within this block, this thread's kernels stop once ``cancelled()`` returns True.

    For engine calls made from a thread that no signal reaches (a Dask worker's task thread):
    while a kernel runs, a watcher thread calls ``cancelled()`` every :data:`CANCEL_POLL`
    seconds and sets the kernel's stop flag when it returns True; the kernel stops at its next
    poll and the call raises :class:`concurrent.futures.CancelledError` (its partial result is
    dropped). A call made once ``cancelled()`` is True raises at once. Blocks nest (the inner
    test applies).

    Parameters
    ----------
    cancelled : callable
        ``cancelled()`` -> bool, cheap and safe to call from another thread; an exception it
        raises counts as False.
    """
    prev = getattr(_SCOPE, "cancelled", None)
    _SCOPE.cancelled = cancelled
    try:
        yield
    finally:
        _SCOPE.cancelled = prev


_WATCH = threading.Condition()
_WATCHED: dict[int, tuple[np.ndarray, Callable[[], bool]]] = {}
_WATCHER: dict[str, Any] = {"pid": None}


def _watch(stop: np.ndarray, cancelled: Callable[[], bool]) -> int:
    """Have the watcher set ``stop`` once ``cancelled()``; returns the key for :func:`_unwatch`."""
    with _WATCH:
        if _WATCHER["pid"] != os.getpid():  # first use, or a forked child (no threads)
            threading.Thread(target=_watch_loop, name="nx-gpumine-cancel", daemon=True).start()
            _WATCHER["pid"] = os.getpid()
        key = id(stop) ^ (threading.get_ident() << 1)
        while key in _WATCHED:
            key += 1
        _WATCHED[key] = (stop, cancelled)
        _WATCH.notify()
    return key


def _unwatch(key: int) -> None:
    with _WATCH:
        _WATCHED.pop(key, None)


def _watch_loop() -> None:
    while True:
        with _WATCH:
            while not _WATCHED:
                _WATCH.wait()
            watched = list(_WATCHED.values())
        for stop, cancelled in watched:
            if _asks_to_stop(cancelled):
                stop[0] = 1
        time.sleep(CANCEL_POLL)


def _asks_to_stop(cancelled: Callable[[], bool]) -> bool:
    """``cancelled()``, an exception counting as False."""
    try:
        return bool(cancelled())
    except Exception:
        return False


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
