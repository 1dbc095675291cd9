"""This process: run a job on the current device (or the CPU).

:func:`run_job` makes one engine call over the whole graph (:meth:`Job.whole`), or, with a
progress bar, runs :data:`PROGRESS_TASKS` tasks one after the other (:func:`run_in_order`,
the task loop over the one :class:`~nx_gpumine.execution.merge.Merge`: an enumeration asks
each task only for the rows still wanted, and stops once ``limit`` are in; ``exists`` stops at
the first task that finds one). :func:`iter_blocks` yields a job's matches task by task.

The bar's ETA. Tasks are balanced by an *estimate* of their work (the edges in each root's
window; the endpoints' degrees), which tracks the real cost poorly: on CollegeMsg (M4, a window
of 14 or 30 days) task times vary 30 to 90 fold while the estimates agree within 2 %, and on a
power-law graph the first tenth of the 4-cycle tasks takes 1 % of the time (the house's, 40 %).
The cost drifts along the root order (bursts in time; symmetry conditions that favour low or
high vertex ids), so a bar over tasks run in order extrapolates from an unrepresentative prefix
(its ETA was off by -90 % to +350 %), whatever it counts or however it smooths. The bar therefore
advances by each task's estimated work (:meth:`Job.task_weights`), averages its rate over the
run from the end of the first task (``smoothing=0``; the first carries one-time costs) and,
where the order of the tasks does not matter (no early stop), runs them in
:func:`interleaved_order`, so every prefix samples the whole root range evenly (ETA within
about 30 % from a tenth of the way on); the merge still puts results in task order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from ..jobs.base import Job, cut_input
from ..merge import Merge, progress_bar

__all__ = [
    "PROGRESS_TASKS",
    "interleaved_order",
    "run_in_order",
    "run_tasks_in_order",
    "run_job",
    "iter_blocks",
]

#: Tasks of a one-process call with ``progress=True`` (the steps of its bar).
PROGRESS_TASKS = 256


def interleaved_order(n: int) -> list[int]:
    """The task indices ``0 .. n - 1`` in bit-reversed order (van der Corput).

    Every prefix of the order is spread evenly over the range (``0, n/2, n/4, 3n/4, ...``),
    so the time its tasks took, per unit of estimated work, is a fair sample of the whole
    run's: a progress bar's ETA extrapolated from it holds however the real cost drifts along
    the root order.

    Parameters
    ----------
    n : int
        Number of tasks (>= 0).

    Returns
    -------
    list of int
        A permutation of ``range(n)`` starting at 0.
    """
    bits = max(1, (n - 1).bit_length())
    return sorted(range(n), key=lambda i: int(f"{i:0{bits}b}"[::-1], 2))


def _stops_early(mode: str, limit: int | None) -> bool:
    """Whether a run may stop before its last task (``exists``; ``enumerate`` with a limit,
    which wants the first rows in task order): its tasks run in task order."""
    return mode == "exists" or (mode == "enumerate" and limit is not None)


def run_in_order(
    tasks: Iterable[Any],
    run_one: Callable[[Any, int | None], Any],
    mode: str,
    *,
    width: int,
    limit: int | None = None,
    bar: Any = None,
    order: Sequence[int] | None = None,
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
    bar : WorkBar, optional
        Told of each task done (:class:`~nx_gpumine.execution.merge.Merge`: by its estimated
        work; a plain tqdm bar by one).
    order : sequence of int, optional
        The task indices in the order to run them (default: task order); results are merged
        in task order whatever it is (not with ``limit``: the first rows in task order are
        wanted).

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
    if order is None:
        order = range(len(tasks))
    elif mode == "enumerate" and limit is not None:  # the first rows in task order
        raise ValueError("an enumeration with a limit runs its tasks in task order")
    elif sorted(order) != list(range(len(tasks))):
        raise ValueError("order must be a permutation of the task indices")
    merge = Merge(mode, len(tasks), width, limit, bar)
    for i in order:
        left = merge.left()
        if left == 0:
            break
        if merge.add(i, run_one(tasks[i], left)):
            break
    return merge.result()


def _task_input(job: Job, task: Any) -> Any:
    key = job.input_key(task)
    return job.graph if key is None else cut_input(job.graph, key)


def run_tasks_in_order(
    job: Job,
    eng: ModuleType,
    tasks: list,
    bar: Any = None,
    order: Sequence[int] | None = None,
) -> Any:
    """:func:`run_in_order` for ``job``'s ``tasks``, each on its input cut here."""
    return run_in_order(
        tasks,
        lambda task, left: job.run_task(eng, _task_input(job, task), task, left),
        job.mode,
        width=job.width,
        limit=job.limit,
        bar=bar,
        order=order,
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
        splits for it) instead of one engine call: the bar advances by each task's estimated
        work and, unless the run may stop early, the tasks run in :func:`interleaved_order`
        (see the module docstring).

    Returns
    -------
    object
        The job's result.
    """
    answer = job.answer()
    if answer is not None:
        return answer
    bar = None
    # a count the engine runs whole (a shape kernel, a block formula: milliseconds) shows no bar
    if progress and job.splits_for_progress() and not job.prefers_whole(eng):
        tasks = job.tasks(PROGRESS_TASKS, sliced=False)
        bar = progress_bar(job.task_weights(tasks), job.desc)
    if bar is None:
        return job.whole(eng)
    order = None if _stops_early(job.mode, job.limit) else interleaved_order(len(tasks))
    try:
        return run_tasks_in_order(job, eng, tasks, bar, order)
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
