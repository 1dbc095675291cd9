"""This process: run a job on the current device (or the CPU).

:func:`run_job` makes one engine call over the whole graph (:meth:`Job.whole`), or, with a
progress bar, runs :data:`PROGRESS_TASKS` tasks one after the other (:func:`run_in_order`,
the task loop over the one :class:`~nx_gpumine.execution.merge.Merge`: an enumeration asks
each task only for the rows still wanted, and stops once ``limit`` are in; ``exists`` stops at
the first task that finds one). :func:`iter_blocks` yields a job's matches task by task.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any

import numpy as np

from ..jobs.base import Job, cut_input
from ..merge import Merge, progress_bar

__all__ = ["PROGRESS_TASKS", "run_in_order", "run_tasks_in_order", "run_job", "iter_blocks"]

#: Tasks of a one-process call with ``progress=True`` (the steps of its bar).
PROGRESS_TASKS = 256


def run_in_order(
    tasks: Iterable[Any],
    run_one: Callable[[Any, int | None], Any],
    mode: str,
    *,
    width: int,
    limit: int | None = None,
    bar: Any = None,
) -> Any:
    """Run tasks one after the other and merge their results exactly.

    Parameters
    ----------
    tasks : iterable
        The tasks, in result order (root ranges, time partitions...).
    run_one : callable
        ``run_one(task, left)`` returns the task's result; ``left`` is the number of matches
        still wanted (``"enumerate"`` with a limit; else None).
    mode : {"count", "enumerate", "exists", "census"}
        The :class:`~nx_gpumine.execution.merge.Merge` mode.
    width : int
        Columns of a match row (census: entries of the vector).
    limit : int, optional
        For ``"enumerate"``: stop once this many matches are in (later tasks do not run).
    bar : tqdm bar, optional
        Advanced by one per task done.

    Returns
    -------
    int, bool or numpy.ndarray
        As :meth:`Merge.result`.

    Raises
    ------
    CapacityError
        A count past 64 bits, or matches past the memory budget.
    """
    tasks = list(tasks)
    merge = Merge(mode, len(tasks), width, limit, bar)
    for i, task in enumerate(tasks):
        left = merge.left()
        if left == 0:
            break
        if merge.add(i, run_one(task, left)):
            break
    return merge.result()


def _task_input(job: Job, task: Any) -> Any:
    key = job.input_key(task)
    return job.graph if key is None else cut_input(job.graph, key)


def run_tasks_in_order(job: Job, eng: ModuleType, tasks: list, bar: Any = None) -> Any:
    """:func:`run_in_order` for ``job``'s ``tasks``, each on its input cut here."""
    return run_in_order(
        tasks,
        lambda task, left: job.run_task(eng, _task_input(job, task), task, left),
        job.mode,
        width=job.width,
        limit=job.limit,
        bar=bar,
    )


def run_job(job: Job, eng: ModuleType | None, progress: bool = False) -> Any:
    """Run ``job`` in this process on engine ``eng``.

    Parameters
    ----------
    job : Job
        What to compute.
    eng : module or None
        ``job.engine(name)``.
    progress : bool
        Run :data:`PROGRESS_TASKS` tasks under a tqdm bar (when tqdm is installed and the job
        splits for it) instead of one engine call.

    Returns
    -------
    object
        The job's result.
    """
    answer = job.answer()
    if answer is not None:
        return answer
    bar = None
    if progress and job.splits_for_progress():
        tasks = job.tasks(PROGRESS_TASKS, sliced=False)
        bar = progress_bar(len(tasks), job.desc)
    if bar is None:
        return job.whole(eng)
    try:
        return run_tasks_in_order(job, eng, tasks, bar)
    finally:
        bar.close()


def iter_blocks(job: Job, eng: ModuleType | None, ntasks: int) -> Iterator[np.ndarray]:
    """Yield the non-empty match blocks of an ``"enumerate"`` job, task by task, in order
    (stopping the iteration early skips the remaining tasks)."""
    answer = job.answer()
    if answer is not None:
        if len(answer):
            yield answer
        return
    for task in job.tasks(ntasks, sliced=False):
        for block in job.task_blocks(eng, _task_input(job, task), task):
            if len(block):
                yield block
