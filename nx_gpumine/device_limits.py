"""Device memory budget policy: how many device bytes the CUDA engines may use.

Beside :mod:`.limits` (the host memory a result may take): a *budget* caps what the CUDA
engines may keep on a device (``max_device_bytes``):

* an explicit argument of the engine functions (or of the public functions, which set it for
  the duration of the call through :func:`device_budget`);
* else the configured default :data:`CONFIG` ``["max_device_bytes"]`` (initially from the
  environment variable ``NX_GPUMINE_MAX_DEVICE_BYTES``; set with :func:`set_max_device_bytes`);
* else ``None``: the device's total memory minus :data:`CONFIG` ``["safety_margin"]`` (a
  fraction of the total memory, at least 256 MiB; :func:`resolve_budget`).

The engines measure their need and the device (``engines/cuda/memory.py``) and compare it with
the budget resolved here. Pure Python: no CuPy import (the device's memory is passed in).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator
from typing import Any

__all__ = [
    "CONFIG",
    "ENV",
    "MIN_MARGIN",
    "check_budget",
    "current_budget",
    "device_budget",
    "device_spread",
    "resolve_budget",
    "set_max_device_bytes",
    "spread_devices",
]

#: Environment variable giving the default budget in bytes.
ENV = "NX_GPUMINE_MAX_DEVICE_BYTES"
#: Smallest safety margin (bytes) kept free when no budget is set.
MIN_MARGIN = 256 << 20


def check_budget(value: Any, name: str = "max_device_bytes") -> int | None:
    """Validate a budget: ``None`` or a positive integer number of bytes.

    Parameters
    ----------
    value : int or None
        The budget.
    name : str
        Name used in the error message.

    Returns
    -------
    int or None

    Raises
    ------
    TypeError
        Not an integer (bool and float are refused).
    ValueError
        Not positive.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an int number of bytes or None, got {value!r}")
    value = int(value.__index__())
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return value


def _env_default() -> int | None:
    raw = os.environ.get(ENV)
    if raw is None or raw.strip() == "":
        return None
    try:
        return check_budget(int(raw.strip()), ENV)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{ENV} must be a positive integer number of bytes, got {raw!r}") from exc


#: Configured defaults: ``max_device_bytes`` (None: total device memory minus the margin) and
#: ``safety_margin`` (fraction of the device's total memory kept free when no budget is set).
CONFIG: dict[str, Any] = {"max_device_bytes": None, "safety_margin": 0.05}
with contextlib.suppress(ValueError):  # a bad variable is reported when the budget is read
    CONFIG["max_device_bytes"] = _env_default()

_CALL_BUDGET: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "nx_gpumine_max_device_bytes", default=None
)


def set_max_device_bytes(value: int | None) -> None:
    """Set the default device memory budget of the CUDA engines (None: device memory - margin).

    Parameters
    ----------
    value : int or None
        Bytes.
    """
    CONFIG["max_device_bytes"] = check_budget(value)


@contextlib.contextmanager
def device_budget(value: int | None) -> Iterator[None]:
    """Within the block, CUDA engine calls without their own budget use ``value`` bytes.

    Parameters
    ----------
    value : int or None
        Bytes; ``None`` leaves the budget in force: an enclosing block's, else the configured
        default. (Each public function runs its engine call in such a block with its own
        ``max_device_bytes``, so ``with device_budget(b): ng.count_motifs(...)`` caps it at
        ``b``.)
    """
    value = check_budget(value)
    token = _CALL_BUDGET.set(_CALL_BUDGET.get() if value is None else value)
    try:
        yield
    finally:
        _CALL_BUDGET.reset(token)


#: Distinct GPUs the current call is spread over (``devices=``; execution.executors.devices).
_SPREAD: contextvars.ContextVar[int] = contextvars.ContextVar("nx_gpumine_devices", default=1)


@contextlib.contextmanager
def spread_devices(n: int) -> Iterator[None]:
    """Within the block, engine calls are tasks of one call spread over ``n`` distinct GPUs.

    Set by the multi-device scheduler (and copied into its worker threads together with the
    call's budget). The budget applies to each device; the static out-of-core path refuses to
    run when ``n > 1`` (``docs/out_of_core.md``).

    Parameters
    ----------
    n : int
        Distinct device ids of the call.
    """
    token = _SPREAD.set(max(int(n), 1))
    try:
        yield
    finally:
        _SPREAD.reset(token)


def device_spread() -> int:
    """Distinct GPUs the current call is spread over (1 outside a multi-device call)."""
    return _SPREAD.get()


def current_budget(explicit: int | None = None) -> int | None:
    """The budget in force: ``explicit``, else the call's, else the configured default.

    ``None`` means "total device memory minus the margin" (:func:`resolve_budget`).
    """
    for v in (explicit, _CALL_BUDGET.get(), CONFIG["max_device_bytes"]):
        if v is not None:
            return check_budget(v)
    if os.environ.get(ENV):
        return _env_default()
    return None


def resolve_budget(explicit: int | None, free: int, total: int) -> tuple[int, bool]:
    """Bytes the engine may use, and whether they were set by the user.

    Parameters
    ----------
    explicit : int or None
        Budget argument of the call.
    free, total : int
        Free and total device memory (``cupy.cuda.runtime.memGetInfo()``).

    Returns
    -------
    (int, bool)
        The budget, and True when it came from an argument or the configuration (False: the
        device's capacity, its total memory minus ``max(safety_margin * total, 256 MiB)``).

    Notes
    -----
    Without a budget the choice is made against the device's capacity, not its momentary free
    memory: memory that other processes (or this process's memory pool) hold now says nothing
    about whether the graph fits, and a query on a busy GPU must not be pushed out of core (or
    refused) by it. A launch that then runs out of memory is retried with smaller work units
    (``_runtime.oom_retry``). ``free`` is kept in the signature for the callers' statistics.
    """
    b = current_budget(explicit)
    if b is not None:
        return b, True
    margin = max(int(float(CONFIG["safety_margin"]) * total), MIN_MARGIN)
    return max(int(total) - margin, 0), False
