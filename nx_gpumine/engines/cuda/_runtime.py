"""Generic CUDA run-time helpers shared by the CUDA engines.

* :func:`load_module` compiles CUDA C++ shipped in ``engines/cuda/kernels`` with NVRTC through
  ``cupy.RawModule``; local ``#include "x.cuh"`` lines are inlined first so that the cache key
  (a hash of the full source plus the options) changes whenever any included file changes.
  Modules are cached per process and device; compile times are recorded.
* :func:`device_info` describes the current device.
* :func:`time_events` times a callable with CUDA events after a warm-up.
* :func:`wait_event` / :func:`request_stop`: interruptible waits (Ctrl-C within milliseconds:
  the host polls the launch's end event instead of blocking in the driver; a kernel that polls
  its control flags is told to stop from a second, non-blocking stream).
* :func:`oom_retry`: GPU out-of-memory inside an engine call frees CuPy's cached blocks and
  retries with smaller work units, else raises :class:`~nx_gpumine.CapacityError`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import threading
import time
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import CapacityError, EngineUnavailableError
from .kernel_args import KernelStruct, check_layout, layout_probe_source

__all__ = [
    "KERNEL_DIR",
    "CompiledModule",
    "load_module",
    "compile_each",
    "COMPILE_THREADS",
    "preprocess_source",
    "device_info",
    "time_events",
    "compile_log",
    "import_cupy",
    "persistent_blocks",
    "sm_count",
    "wait_event",
    "request_stop",
    "oom_retry",
    "is_out_of_memory",
    "release_memory",
    "POLL_S",
    "STOP_GRACE",
    "current_device",
    "per_device",
    "C_COUNT_HI",
    "control_count",
]

#: Longest sleep (seconds) between two looks at a running launch: the Ctrl-C latency of a wait.
POLL_S = 0.001
#: Seconds a main-thread wait polls without sleeping before it backs off (see wait_event).
SPIN_S = 0.01
#: Seconds an interrupted launch is waited for (it stops at its next flag poll) before the
#: interrupt is re-raised anyway (a kernel without flag polls then finishes in the background;
#: later work on the same stream waits for it, so its buffers are never reused too early).
STOP_GRACE = 0.5
#: Out-of-memory retries of one engine call (each with work units a quarter of the last).
OOM_RETRIES = 3
#: Statistics: how many engine calls were retried after a GPU out-of-memory error.
oom_stats: dict[str, int] = {"retries": 0, "capacity_errors": 0}
_stop_streams: dict[int, Any] = {}

#: Folder holding the ``.cu`` / ``.cuh`` sources.
KERNEL_DIR = Path(__file__).resolve().parent / "kernels"

_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$', re.MULTILINE)
_lock = threading.Lock()
_cache: dict[tuple[int, str], CompiledModule] = {}
_by_name: dict[tuple, CompiledModule] = {}
_key_locks: dict[tuple[int, str], threading.Lock] = {}
_compile_log: list[dict] = []


def import_cupy() -> Any:
    """Import CuPy or raise :class:`EngineUnavailableError` naming what is missing."""
    try:
        import cupy
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise EngineUnavailableError(
            "the CUDA engine needs CuPy (pip install 'nx-gpumine[cuda]')"
        ) from exc
    return cupy


@dataclass
class CompiledModule:
    """A compiled ``cupy.RawModule`` with its cache key and compile time."""

    module: Any
    key: str
    compile_seconds: float
    options: tuple[str, ...]

    def kernel(self, name: str) -> Any:
        """The ``cupy.RawKernel`` called ``name``."""
        return self.module.get_function(name)


def preprocess_source(filename: str, kernel_dir: Path = KERNEL_DIR) -> str:
    """Source of ``filename`` with local ``#include "..."`` lines inlined (each file once)."""
    seen: set[str] = set()

    def expand(name: str) -> str:
        if name in seen:
            return ""
        seen.add(name)
        path = kernel_dir / name
        if not path.is_file():
            raise FileNotFoundError(f"CUDA source {path} not found")
        text = path.read_text()
        text = text.replace("#pragma once", "")
        return _INCLUDE.sub(lambda m: expand(m.group(1)), text)

    return expand(filename)


def _defines_to_options(defines: Mapping[str, int | str]) -> list[str]:
    opts = []
    for k, v in sorted(defines.items()):
        if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", k):
            raise ValueError(f"bad macro name {k!r}")
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"macro {k} must be an int, got {v!r}")
        opts.append(f"-D{k}={int(v)}")
    return opts


def _extra_options() -> list[str]:
    """NVRTC options from ``NX_GPUMINE_NVRTC_OPTIONS`` (profiling aids such as ``-lineinfo``;
    only ``-lineinfo`` and ``--generate-line-info`` are accepted)."""
    extra = os.environ.get("NX_GPUMINE_NVRTC_OPTIONS", "").split()
    bad = [o for o in extra if o not in ("-lineinfo", "--generate-line-info")]
    if bad:
        raise ValueError(f"NX_GPUMINE_NVRTC_OPTIONS: unsupported option(s) {bad}")
    return extra


def load_module(
    filename: str,
    defines: Mapping[str, int] | None = None,
    options: Sequence[str] = (),
    structs: tuple[KernelStruct, ...] = (),
) -> CompiledModule:
    """Compile (or fetch from cache) a kernel source file with NVRTC.

    Parameters
    ----------
    filename : str
        A file in :data:`KERNEL_DIR`.
    defines : mapping of str to int, optional
        Macros passed as ``-DNAME=value`` (only validated integers reach the compiler).
    options : sequence of str
        Further NVRTC options.
    structs : tuple of KernelStruct
        The structs the module's kernels take by value: a layout probe
        (:func:`~.kernel_args.layout_probe_source`) is compiled with the module and run once,
        right after the compile, against the host packing (:func:`~.kernel_args.check_layout`).

    Returns
    -------
    CompiledModule
    """
    cp = import_cupy()
    dev = cp.cuda.runtime.getDevice()
    options = (*options, *_extra_options())
    fast = (dev, filename, tuple(sorted((defines or {}).items())), tuple(options), structs)
    hit = _by_name.get(fast)
    if hit is not None:  # the package's sources do not change while it runs
        return hit
    src = preprocess_source(filename)
    if structs:
        src += layout_probe_source(structs)
    opts = tuple(["--std=c++17", *_defines_to_options(defines or {}), *options])
    key = hashlib.sha256((src + "\0" + "\0".join(opts)).encode()).hexdigest()
    with _lock:  # one compile per key; different modules compile at once (compile_each)
        key_lock = _key_locks.setdefault((dev, key), threading.Lock())
    with key_lock:
        hit = _cache.get((dev, key))
        if hit is not None:
            _by_name[fast] = hit
            return hit
        t = time.perf_counter()
        mod = cp.RawModule(code=src, options=opts, backend="nvrtc")
        mod.compile()  # NVRTC runs without the GIL
        dt = time.perf_counter() - t
        if structs:
            check_layout(mod, structs, defines or {})
        cm = CompiledModule(mod, key, dt, opts)
        with _lock:
            _cache[(dev, key)] = cm
            _by_name[fast] = cm
            _compile_log.append({"file": filename, "options": list(opts), "seconds": dt})
        return cm


#: Most modules :func:`compile_each` compiles at once.
COMPILE_THREADS = 8


def compile_each(jobs: Sequence[Callable[[], Any]]) -> None:
    """Run ``jobs`` (each compiling a module through :func:`load_module`) on up to
    :data:`COMPILE_THREADS` threads, on the calling thread's device: NVRTC compiles without
    the GIL, so a motif table's modules (one per motif, each 1-3 s on a cold cache) compile
    side by side instead of in turn. One job runs on the calling thread."""
    if len(jobs) < 2:
        for job in jobs:
            job()
        return
    from concurrent.futures import ThreadPoolExecutor

    dev = current_device()
    cp = import_cupy()

    def on_device(job: Callable[[], Any]) -> None:
        with cp.cuda.Device(dev):
            job()

    with ThreadPoolExecutor(min(len(jobs), COMPILE_THREADS, os.cpu_count() or 1)) as pool:
        for f in [pool.submit(on_device, job) for job in jobs]:
            f.result()


def persistent_blocks(kernel: Any, threads_per_block: int, max_per_sm: int = 8) -> int:
    """Blocks of a persistent grid: as many as fit on every SM at once (by register use).

    Parameters
    ----------
    kernel : cupy.RawKernel
        The compiled kernel (its register count bounds the blocks per SM).
    threads_per_block : int
        Block size.
    max_per_sm : int
        Upper bound on resident blocks per SM.

    Returns
    -------
    int
        SM count times the blocks that fit per SM (at least one per SM).
    """
    sms = sm_count()
    regs = max(int(kernel.num_regs), 1)
    by_regs = 65536 // (regs * threads_per_block)
    per_sm = max(1, min(max_per_sm, by_regs, 2048 // threads_per_block))
    return int(sms * per_sm)


_sm_counts: dict[int, int] = {}


def current_device() -> int:
    """Id of the calling thread's current CUDA device (device caches are keyed by it)."""
    return int(import_cupy().cuda.runtime.getDevice())


def per_device(table: MutableMapping, lock: threading.Lock, key: Any) -> dict:
    """``table[key]``, a dict of per-device entries (keyed by device id), created under
    ``lock`` on first use: the engines' per-plan device caches (a weak-key table frees a plan's
    entries with the plan)."""
    with lock:
        entries = table.get(key)
        if entries is None:
            entries = table[key] = {}
    return entries


def sm_count() -> int:
    """Multiprocessors of the current device (queried once per device)."""
    cp = import_cupy()
    dev = cp.cuda.runtime.getDevice()
    n = _sm_counts.get(dev)
    if n is None:
        n = int(cp.cuda.Device(dev).attributes["MultiProcessorCount"])
        _sm_counts[dev] = n
    return n


def compile_log() -> list[dict]:
    """Every compile this process did: file, options, seconds (CuPy's disk cache may hit)."""
    return list(_compile_log)


def device_info() -> dict:
    """Name, compute capability, SM count, memory and driver/runtime versions of the device."""
    cp = import_cupy()
    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    name = props["name"]
    if isinstance(name, bytes):
        name = name.decode()
    free, total = cp.cuda.runtime.memGetInfo()
    return {
        "name": name,
        "id": dev.id,
        "compute_capability": f"{props['major']}.{props['minor']}",
        "sm_count": int(props["multiProcessorCount"]),
        "total_memory": int(total),
        "free_memory": int(free),
        "l2_bytes": int(props.get("l2CacheSize", 0)),
        "driver_version": int(cp.cuda.runtime.driverGetVersion()),
        "runtime_version": int(cp.cuda.runtime.runtimeGetVersion()),
        "cupy_version": cp.__version__,
    }


def time_events(fn: Callable[[], Any], *, warmup: int = 1, repeat: int = 5) -> dict:
    """Time ``fn`` with CUDA events on the current stream after ``warmup`` calls.

    Returns
    -------
    dict
        ``times_ms`` (each repeat), ``median_ms``, ``min_ms`` and the last return value.
    """
    cp = import_cupy()
    result = None
    for _ in range(warmup):
        result = fn()
    cp.cuda.Stream.null.synchronize()
    times = []
    for _ in range(repeat):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        result = fn()
        end.record()
        end.synchronize()
        times.append(float(cp.cuda.get_elapsed_time(start, end)))
    s = sorted(times)
    return {
        "times_ms": times,
        "median_ms": s[len(s) // 2],
        "min_ms": s[0],
        "result": result,
    }


# ====================================================================== interrupts
def wait_event(event: Any, *, stop: Callable[[], None] | None = None) -> None:
    """Wait until ``event`` (recorded after a launch) has completed, interruptibly.

    In the main thread the event is polled -- without sleeping for the first
    :data:`SPIN_S` seconds (as CUDA's own spinning synchronisation does; a sleep would add its
    wake-up latency to every short call), then with sleeps growing from 50 us to
    :data:`POLL_S` -- so Python runs signal handlers (Ctrl-C's ``KeyboardInterrupt``) within
    milliseconds instead of after the kernel. On such an exception ``stop()`` asks the running
    kernel to stop (see :func:`request_stop`), the launch is waited for up to
    :data:`STOP_GRACE` seconds, and the exception propagates. Other threads block in
    ``event.synchronize()`` (signals are only delivered to the main thread).
    """
    if threading.current_thread() is not threading.main_thread():
        event.synchronize()
        return
    try:
        if event.done:
            return
        spin_end = time.perf_counter() + SPIN_S
        while time.perf_counter() < spin_end:
            if event.done:
                return
        delay = 5e-5
        while not event.done:
            time.sleep(delay)
            delay = min(2 * delay, POLL_S)
    except BaseException:
        if stop is not None:
            with contextlib.suppress(Exception):
                stop()
        deadline = time.monotonic() + STOP_GRACE
        with contextlib.suppress(Exception):
            while not event.done and time.monotonic() < deadline:
                time.sleep(POLL_S)
        raise


def request_stop(ctl: Any, word: int, bits: int) -> None:
    """Write ``bits`` into ``ctl[word]`` (device ``uint64`` control block) while kernels run.

    The copy goes through a non-blocking stream, so it does not wait for the kernels on the
    default stream; kernels that poll this word (the static and temporal DFS kernels read
    their flags every few hundred steps) then stop. The word's other bits are overwritten:
    only for a launch whose results are dropped.
    """
    cp = import_cupy()
    dev = int(cp.cuda.Device().id)
    stream = _stop_streams.get(dev)
    if stream is None:  # one non-blocking stream per device
        stream = _stop_streams[dev] = cp.cuda.Stream(non_blocking=True)
    ctl[word : word + 1].set(np.array([bits], dtype=np.uint64), stream=stream)
    stream.synchronize()


# ====================================================================== control blocks
#: The control block's count words (kernels/device_common.cuh, both kernel families): the low
#: and high 64 bits of a 128-bit count.
C_COUNT_LO, C_COUNT_HI = 0, 15


def control_count(ctl: Any) -> int:
    """The 128-bit count of a control block copied to the host (``uint64`` words).

    Parameters
    ----------
    ctl : numpy.ndarray
        The control block's words (``C_WORDS`` of them).

    Returns
    -------
    int
        ``ctl[C_COUNT_HI] * 2**64 + ctl[C_COUNT]``, exact.
    """
    return (int(ctl[C_COUNT_HI]) << 64) | int(ctl[C_COUNT_LO])


# ====================================================================== out of memory
def is_out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it was raised from) is a GPU out-of-memory error."""
    seen = 0
    while exc is not None and seen < 8:
        name = type(exc).__name__
        if name == "OutOfMemoryError" or "cudaErrorMemoryAllocation" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def release_memory() -> None:
    """Free CuPy's cached device and pinned blocks (after an out-of-memory error)."""
    with contextlib.suppress(Exception):
        cp = import_cupy()
        cp.get_default_memory_pool().free_all_blocks()
        cp.get_default_pinned_memory_pool().free_all_blocks()


def oom_retry(
    shrink: Mapping[str, int] | None = None,
    *,
    on_oom: Callable[..., None] | None = None,
    what: str = "query",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate an engine entry point: GPU out-of-memory -> retry smaller, else CapacityError.

    Parameters
    ----------
    shrink : mapping of str to int, optional
        Keyword arguments that size the call's work units (output blocks, buffers) with their
        defaults; each retry passes a quarter of the last value (at least 1).
    on_oom : callable, optional
        Called with the call's arguments after an out-of-memory error, to drop buffers the
        engine caches for that call (then CuPy's cached blocks are freed).
    what : str
        What the call computes, for the error message.

    Returns
    -------
    callable
        The decorator. A call fails with :class:`CapacityError` (naming the GPU memory and
        suggesting ``engine="cpu"``) after :data:`OOM_RETRIES` retries, or at once when there is
        nothing to shrink and freeing cached memory did not help.
    """

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kw: Any) -> Any:
            tries = 0
            while True:
                try:
                    return fn(*args, **kw)
                except Exception as exc:
                    if not is_out_of_memory(exc):
                        raise
                    tries += 1
                    if on_oom is not None:
                        with contextlib.suppress(Exception):
                            on_oom(*args, **kw)
                    release_memory()
                    can_shrink = bool(shrink) and any(
                        int(kw.get(name, default)) > 1 for name, default in shrink.items()
                    )
                    if tries > OOM_RETRIES or (tries > 1 and not can_shrink):
                        oom_stats["capacity_errors"] += 1
                        raise CapacityError(
                            f"the GPU ran out of memory for this {what}, also after freeing "
                            f"cached memory and {tries - 1} retries with smaller work units; "
                            "use engine='cpu', a smaller graph, or a limit"
                        ) from exc
                    oom_stats["retries"] += 1
                    if tries > 1:
                        for name, default in (shrink or {}).items():
                            kw[name] = max(1, int(kw.get(name, default)) // 4)

        return wrapper

    return deco
