"""Where a call runs: pick the executor for a job and resolve its engine once.

:func:`run_job` is the one entry every query kind goes through
(:mod:`~nx_gpumine.execution.static`, :mod:`~nx_gpumine.execution.temporal`):

- ``client`` / ``engine="dask"``: the Dask executor
  (:func:`~nx_gpumine.execution.executors.dask.run_job`; each worker chooses its engine);
- ``devices=`` (or the ``NX_GPUMINE_DEVICES`` default) with a CUDA engine: several devices of
  this host (:func:`~nx_gpumine.execution.executors.devices.run_job`);
- anything else: this process (:func:`~nx_gpumine.execution.executors.local.run_job`), once
  the workers of an interrupted multi-device call are done
  (:func:`~nx_gpumine.execution.executors.devices.settle`).

:func:`dispatch` is that routing rule on its own. A caller that names the executor builds the
job (``StaticJob.of``, ``TemporalJob.of``, ``CensusJob.of``) and calls its one entry, whatever
the query kind: :func:`run_on_devices` (several devices of this host, with an engine name) or
:func:`nx_gpumine.execution.executors.dask.run_job` (a Dask cluster).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ..engines import is_cuda_engine
from .executors import dask, devices, local
from .jobs.base import Job

__all__ = ["dispatch", "run_job", "run_on_devices"]


def dispatch(
    engine: str,
    client: Any,
    devices_arg: Any,
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
        A Dask client routes to Dask (``devices_arg`` must then be None).
    devices_arg : int, list of int, "all" or None
        The call's ``devices=`` (:func:`~nx_gpumine.execution.executors.devices.
        resolve_devices`).
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
    if client is not None or engine == "dask":
        if devices_arg is not None:
            devices.resolve_devices(devices_arg, "dask")  # raises: devices= is not for Dask
        return on_dask()
    slots = devices.resolve_devices(devices_arg, engine)
    if slots is not None and use_devices():
        return on_devices(slots)
    devices.settle()
    return on_local()


def run_job(
    job: Job,
    engine: str = "auto",
    *,
    client: Any = None,
    devices_arg: Any = None,
    progress: bool = False,
    module: ModuleType | None = None,
) -> Any:
    """Run ``job`` where the call asks (see the module docstring).

    Parameters
    ----------
    job : Job
        What to compute.
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine name (:func:`~nx_gpumine.engines.select_engine`; ``"dask"``: the Dask
        executor, ``"auto"`` on each worker).
    client : distributed.Client, optional
        Run on this Dask client's workers, with ``engine`` on each worker.
    devices_arg : int, list of int, "all" or None
        GPUs of this host (:func:`~nx_gpumine.execution.executors.devices.resolve_devices`).
    progress : bool
        A progress bar (tqdm over tasks; on Dask, Dask's own).
    module : module, optional
        ``job.engine(engine)`` when the caller resolved it already (the static search copy
        asks the engine's ``search_order`` hook first), so that a call resolves its engine
        once; None: resolved here when needed.

    Returns
    -------
    object
        The job's result.
    """
    resolved: list[ModuleType | None] = [] if module is None else [module]

    def eng() -> ModuleType | None:  # the engine, resolved once for the call
        if not resolved:
            resolved.append(job.engine(engine))
        return resolved[0]

    def use_devices() -> bool:
        module = eng()
        return module is not None and is_cuda_engine(module)

    return dispatch(
        engine,
        client,
        devices_arg,
        on_dask=lambda: dask.run_job(job, client=client, engine=engine, progress=progress),
        on_devices=lambda slots: devices.run_job(job, eng(), slots, progress=progress),
        on_local=lambda: local.run_job(job, eng(), progress),
        use_devices=use_devices,
    )


def run_on_devices(
    job: Job,
    engine: str,
    slots: Sequence[int],
    *,
    progress: bool = False,
    ntasks: int | None = None,
) -> Any:
    """Run ``job`` (any query kind: ``StaticJob.of``, ``TemporalJob.of``, ``CensusJob.of``...)
    on the device ``slots`` with the engine named ``engine``.

    The devices executor's entry for a caller that names it:
    :func:`~nx_gpumine.execution.executors.devices.run_job` (``slots``, ``progress``,
    ``ntasks`` and the result as there) with the engine selected here. Any engine: with
    ``"cpu"`` the slots are plain threads (the tests of the scheduling and merging); a job
    answered without engine tasks selects none.
    """
    answer = job.answer()
    if answer is not None:
        return answer
    return devices.run_job(job, job.engine(engine), slots, progress=progress, ntasks=ntasks)
