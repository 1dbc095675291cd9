"""Engines: the same plan walked on the CPU (numba) or the GPU (CUDA C++ through CuPy).

Every engine module of one kind exposes the same functions (see ``docs/architecture.md``);
:func:`select_engine` picks one by name.
"""

from __future__ import annotations

import functools
from types import ModuleType

from ..errors import EngineUnavailableError, QueryError

__all__ = [
    "ENGINE_NAMES",
    "cuda_available",
    "select_engine",
    "resolve_engine_name",
    "is_cuda_engine",
]

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
    if not isinstance(engine, str) or engine not in ENGINE_NAMES:
        # QueryError is a ValueError: callers catching ValueError still do
        raise QueryError(f"engine must be one of {ENGINE_NAMES}, got {engine!r}")
    if engine == "auto":
        return "cuda" if cuda_available() else "cpu"
    if engine == "cuda" and not cuda_available():
        raise EngineUnavailableError(
            "engine='cuda' needs CuPy and a CUDA GPU (pip install 'nx-gpumine[cuda]'); "
            "none was found — use engine='cpu' or 'auto'"
        )
    return engine


def select_engine(engine: str, kind: str, plan: object | None = None) -> ModuleType:
    """Import the engine module for ``kind`` ("static" or "temporal").

    Parameters
    ----------
    engine : {"auto", "cpu", "cuda"}
        Engine name; ``"auto"`` picks CUDA when CuPy sees a GPU and its kernels take ``plan``.
    kind : {"static", "temporal"}
        Which problem.
    plan : StaticPlan or TemporalPlan, optional
        The plan to run; an engine module may refuse it through its optional hook
        ``unsupported(plan)`` (:class:`.contract.EngineHooks`).

    Returns
    -------
    module
        The engine module (:data:`.contract.ENGINE_MODULES`), a :class:`.contract.StaticEngine`
        or :class:`.contract.TemporalEngine`.

    Raises
    ------
    EngineUnavailableError
        ``engine="cuda"`` without a GPU, or for a plan its kernels do not take.
    """
    if kind not in ("static", "temporal"):
        raise ValueError(f"kind must be 'static' or 'temporal', got {kind!r}")
    from .contract import engine_module, optional_hook  # numpy-free import of this package

    name = resolve_engine_name(engine)
    module = engine_module(kind, name)
    check = optional_hook(module, "unsupported")
    reason = check(plan) if check is not None and plan is not None else None
    if reason:
        if engine == "auto":
            return engine_module(kind, "cpu")
        raise EngineUnavailableError(f"{reason}; use engine='cpu' or 'auto'")
    return module


def is_cuda_engine(module: ModuleType) -> bool:
    """Whether ``module`` (as :func:`select_engine` returns it) is one of the CUDA engines.

    The execution layer splits work over several GPUs (``devices=``) only for these.
    """
    return module.__name__.startswith(__name__ + ".cuda")
