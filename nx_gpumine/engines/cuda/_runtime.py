"""Generic CUDA run-time helpers shared by the CUDA engines.

* :func:`load_module` compiles CUDA C++ shipped in ``engines/cuda/kernels`` with NVRTC through
  ``cupy.RawModule``; local ``#include "x.cuh"`` lines are inlined first so that the cache key
  (a hash of the full source plus the options) changes whenever any included file changes.
  Modules are cached per process and device; compile times are recorded.
* :func:`device_info` describes the current device.
* :func:`time_events` times a callable with CUDA events after a warm-up.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import EngineUnavailableError

__all__ = [
    "KERNEL_DIR",
    "CompiledModule",
    "load_module",
    "preprocess_source",
    "device_info",
    "time_events",
    "compile_log",
    "import_cupy",
    "persistent_blocks",
    "sm_count",
    "current_device",
]

#: Folder holding the ``.cu`` / ``.cuh`` sources.
KERNEL_DIR = Path(__file__).resolve().parent / "kernels"

_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$', re.MULTILINE)
_lock = threading.Lock()
_cache: dict[tuple[int, str], CompiledModule] = {}
_by_name: dict[tuple, CompiledModule] = {}
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


def load_module(
    filename: str,
    defines: Mapping[str, int] | None = None,
    options: Sequence[str] = (),
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

    Returns
    -------
    CompiledModule
    """
    cp = import_cupy()
    dev = cp.cuda.runtime.getDevice()
    fast = (dev, filename, tuple(sorted((defines or {}).items())), tuple(options))
    hit = _by_name.get(fast)
    if hit is not None:  # the package's sources do not change while it runs
        return hit
    src = preprocess_source(filename)
    opts = tuple(["--std=c++17", *_defines_to_options(defines or {}), *options])
    key = hashlib.sha256((src + "\0" + "\0".join(opts)).encode()).hexdigest()
    with _lock:
        hit = _cache.get((dev, key))
        if hit is not None:
            _by_name[fast] = hit
            return hit
        t = time.perf_counter()
        mod = cp.RawModule(code=src, options=opts, backend="nvrtc")
        mod.compile()
        dt = time.perf_counter() - t
        cm = CompiledModule(mod, key, dt, opts)
        _cache[(dev, key)] = cm
        _by_name[fast] = cm
        _compile_log.append({"file": filename, "options": list(opts), "seconds": dt})
        return cm


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
