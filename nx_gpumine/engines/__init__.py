"""Engines: the same plan walked on the CPU (numba) or the GPU (CUDA C++ through CuPy).

Every engine module of one kind exposes the same functions (see ``docs/architecture.md``);
:func:`select_engine` picks one by name.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

from ..errors import EngineUnavailableError

__all__ = ["ENGINE_NAMES", "cuda_available", "select_engine", "resolve_engine_name"]

ENGINE_NAMES = ("auto", "cpu", "cuda")


@functools.cache
def cuda_available() -> bool:
    """True if CuPy imports and sees at least one CUDA device."""
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def resolve_engine_name(engine: str) -> str:
    """Turn ``"auto"`` into ``"cuda"`` (GPU present) or ``"cpu"``; validate other names."""
    if engine not in ENGINE_NAMES:
        raise ValueError(f"engine must be one of {ENGINE_NAMES}, got {engine!r}")
    if engine == "auto":
        return "cuda" if cuda_available() else "cpu"
    if engine == "cuda" and not cuda_available():
        raise EngineUnavailableError(
            "engine='cuda' needs CuPy and a CUDA GPU (pip install 'nx-gpumine[cuda]'); "
            "none was found — use engine='cpu' or 'auto'"
        )
    return engine


def select_engine(engine: str, kind: str) -> ModuleType:
    """Import the engine module for ``kind`` ("static" or "temporal").

    Parameters
    ----------
    engine : {"auto", "cpu", "cuda"}
        Engine name; ``"auto"`` picks CUDA when CuPy sees a GPU.
    kind : {"static", "temporal"}
        Which problem.

    Returns
    -------
    module
        The engine module (``nx_gpumine.engines.<engine>.<kind>``).
    """
    if kind not in ("static", "temporal"):
        raise ValueError(f"kind must be 'static' or 'temporal', got {kind!r}")
    name = resolve_engine_name(engine)
    return importlib.import_module(f"nx_gpumine.engines.{name}.{kind}")
