"""What running a static plan and a temporal plan have in common: routing, the task loop, merging.

:mod:`.static` and :mod:`.temporal` supply only what differs (the engine kind, the result
width ``plan.k`` / ``plan.l``, how root ranges are split, their Dask and multi-device
functions):

- :func:`dispatch` routes a call: ``client`` / ``engine="dask"`` to Dask; ``devices=`` (or the
  ``NX_GPUMINE_DEVICES`` default) with a CUDA engine to the multi-device path; anything else to
  this process, once the workers of an interrupted multi-device call are done
  (:func:`~nx_gpumine.execution.multigpu.settle`).
- :func:`run_local` runs a plan in this process on one engine: the whole root range in one engine
  call, or, with a progress bar, :data:`PROGRESS_TASKS` root ranges one after the other.
- :func:`run_in_order` is that task loop with its exact merge (counts summed and refused past
  64 bits, ``exists`` stopping at the first task that finds one, matches concatenated in task
  order up to ``limit``), also used for the time partitions of
  :func:`~nx_gpumine.execution.temporal.run_temporal_partitioned`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from ..engines.checks import checked_limit, checked_total
from ..limits import check_result_rows

__all__ = [
    "MODES",
    "PROGRESS_TASKS",
    "check_query",
    "no_matches",
    "progress_bar",
    "call_engine",
    "run_in_order",
    "run_local",
    "dispatch",
]

#: What a query computes.
MODES = ("count", "enumerate", "exists")
#: Root-range tasks of a one-process call with ``progress=True`` (the steps of its bar).
PROGRESS_TASKS = 256


def check_query(mode: str, limit: int | None) -> None:
    """Refuse an unknown ``mode`` or a negative ``limit`` (ValueError)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    checked_limit(limit)


def no_matches(mode: str, width: int) -> int | bool | np.ndarray:
    """The answer of ``mode`` with no match: 0, False, or an empty ``(0, width)`` int64 array."""
    return {"count": 0, "exists": False}.get(mode, np.empty((0, width), np.int64))


def progress_bar(total: int, desc: str) -> Any:
    """A tqdm bar of ``total`` tasks, or None when tqdm (optional) is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional
        return None
    return tqdm(total=total, desc=desc, unit="task")


def call_engine(
    eng: ModuleType,
    graph: Any,
    plan: Any,
    mode: str,
    roots: Sequence[int] = (),
    limit: int | None = None,
) -> int | bool | np.ndarray:
    """One engine call: ``eng.count``, ``eng.exists`` or ``eng.enumerate_matches`` on ``roots``.

    ``roots`` is ``(lo, hi)``, or empty for the engine's whole root range; ``limit`` is passed to
    ``enumerate_matches`` only.
    """
    if mode == "count":
        return int(eng.count(graph, plan, *roots))
    if mode == "exists":
        return bool(eng.exists(graph, plan, *roots))
    return eng.enumerate_matches(graph, plan, *roots, limit=limit)


def run_in_order(
    tasks: Iterable[Any],
    run_one: Callable[[Any, int | None], Any],
    mode: str,
    *,
    width: int,
    limit: int | None = None,
    bar: Any = None,
) -> int | bool | np.ndarray:
    """Run ``mode`` task by task and merge the results exactly.

    Parameters
    ----------
    tasks : iterable
        The tasks, in result order (root ranges, time partitions...).
    run_one : callable
        ``run_one(task, left)`` returns the task's count, existence flag, or ``(n, width)``
        matches; ``left`` is the number of matches still wanted (None: no limit; enumeration
        only, else None).
    mode : {"count", "enumerate", "exists"}
        What to compute.
    width : int
        Columns of a match row.
    limit : int, optional
        For ``"enumerate"``: stop once this many matches are in (later tasks do not run).
    bar : tqdm bar, optional
        Advanced by one per task done.

    Returns
    -------
    int, bool or numpy.ndarray
        The summed count, whether some task found a match (stops at the first), or the
        matches of the tasks concatenated in task order.

    Raises
    ------
    CapacityError
        A count past 64 bits, or matches past the memory budget
        (:func:`~nx_gpumine.limits.check_result_rows`).
    """
    if mode == "count":
        total = 0
        for task in tasks:
            total += int(run_one(task, None))
            checked_total(total)
            if bar is not None:
                bar.update(1)
        return total
    if mode == "exists":
        for task in tasks:
            if bar is not None:
                bar.update(1)
            if run_one(task, None):
                return True
        return False
    blocks = []
    got = 0
    for task in tasks:
        left = None if limit is None else limit - got
        if left == 0:
            break
        block = run_one(task, left)
        blocks.append(block)
        got += len(block)
        check_result_rows(got, width, exact=False)
        if bar is not None:
            bar.update(1)
    if not blocks:
        return np.empty((0, width), np.int64)
    return np.concatenate(blocks, axis=0)


def run_local(
    eng: ModuleType,
    graph: Any,
    plan: Any,
    mode: str,
    *,
    width: int,
    limit: int | None,
    progress: bool,
    split: Callable[[int], list[tuple[int, int]]],
    desc: str,
) -> int | bool | np.ndarray:
    """Run ``plan`` on engine ``eng`` in this process (current device or the CPU).

    Parameters
    ----------
    eng : module
        The engine module (:func:`~nx_gpumine.engines.select_engine`).
    graph, plan
        The data graph and the plan built for it.
    mode : {"count", "enumerate", "exists"}
        What to compute.
    width : int
        Columns of a match row (``plan.k`` or ``plan.l``).
    limit : int, optional
        For ``"enumerate"``: stop after this many matches.
    progress : bool
        Run :data:`PROGRESS_TASKS` root ranges one after the other under a tqdm bar (when
        tqdm is installed) instead of one engine call over every root.
    split : callable
        ``split(ntasks)``: the plan's root range split into at most ``ntasks`` ranges.
    desc : str
        The bar's label.

    Returns
    -------
    int, bool or numpy.ndarray
        As the engine's ``count``, ``exists``, ``enumerate_matches``.
    """
    if plan.impossible:
        return no_matches(mode, width)
    bar = None
    if progress:
        tasks = split(PROGRESS_TASKS)
        bar = progress_bar(len(tasks), desc)
    if bar is None:
        return call_engine(eng, graph, plan, mode, limit=limit)
    try:
        return run_in_order(
            tasks,
            lambda roots, left: call_engine(eng, graph, plan, mode, roots, left),
            mode,
            width=width,
            limit=limit,
            bar=bar,
        )
    finally:
        bar.close()


def dispatch(
    engine: str,
    client: Any,
    devices: Any,
    *,
    on_dask: Callable[[], Any],
    on_devices: Callable[[list[int]], Any],
    on_local: Callable[[], Any],
    use_devices: Callable[[], bool],
) -> Any:
    """Route a call to Dask, to several devices of this host, or to this process.

    Parameters
    ----------
    engine : str
        The call's engine name (``"dask"`` routes to Dask).
    client : distributed.Client or None
        A Dask client routes to Dask (``devices`` must then be None).
    devices : int, list of int, "all" or None
        The call's ``devices=`` (:func:`~nx_gpumine.execution.multigpu.resolve_devices`).
    on_dask : callable
        ``on_dask()`` runs the call on Dask.
    on_devices : callable
        ``on_devices(slots)`` runs it on the device slots.
    on_local : callable
        ``on_local()`` runs it in this process.
    use_devices : callable
        ``use_devices()``: whether the multi-device path applies when devices are given
        (asked only then; in practice: the call's engine is a CUDA engine).

    Returns
    -------
    object
        What the chosen function returns.
    """
    from .multigpu import resolve_devices, settle

    if client is not None or engine == "dask":
        if devices is not None:
            resolve_devices(devices, "dask")  # raises: devices= is not for Dask
        return on_dask()
    slots = resolve_devices(devices, engine)
    if slots is not None and use_devices():
        return on_devices(slots)
    settle()
    return on_local()
