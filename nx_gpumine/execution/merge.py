"""The one exact merge of a job's partial results, used by every executor.

A job's tasks each return a partial result; :class:`Merge` combines them, whatever the place
that ran them (this process, several devices, a Dask cluster) and in whatever order they
finish:

- ``"count"``: summed as Python integers and refused past 64 bits
  (:func:`~nx_gpumine.engines.checks.checked_total`);
- ``"exists"``: True at the first task that finds a match (the executor then stops);
- ``"enumerate"``: ``(n, width)`` blocks concatenated in *task* order, ``limit`` rows at most
  (the executor stops once the tasks before the first missing one hold ``limit`` rows);
  the rows held are checked against the memory budget
  (:func:`~nx_gpumine.limits.check_result_rows`);
- ``"census"``: vectors of ``width`` counts summed per entry, exactly, refused past 64 bits.

The module also holds the query checks every entry point shares (:func:`check_query`,
:func:`no_matches`) and the optional tqdm bar (:func:`progress_bar`, a :class:`WorkBar`) a
merge advances by each task's estimated work.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engines.checks import INT64_MAX, checked_limit, checked_total
from ..limits import check_result_rows

__all__ = [
    "MODES",
    "MERGES",
    "BAR_FORMAT",
    "check_query",
    "no_matches",
    "WorkBar",
    "task_work",
    "progress_bar",
    "Merge",
    "stack_rows",
]

#: What a query computes.
MODES = ("count", "enumerate", "exists")
#: How partial results merge: a query mode, or ``"census"`` (vectors summed per entry).
MERGES = (*MODES, "census")


def check_query(mode: str, limit: int | None) -> None:
    """Refuse an unknown ``mode`` or a negative ``limit`` (ValueError)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    checked_limit(limit)


def no_matches(mode: str, width: int) -> int | bool | np.ndarray:
    """The answer of ``mode`` with no match: 0, False, or an empty ``(0, width)`` int64 array."""
    return {"count": 0, "exists": False}.get(mode, np.empty((0, width), np.int64))


#: The bar's layout: percent of the estimated work, elapsed < remaining time, tasks done.
BAR_FORMAT = "{l_bar}{bar}| [{elapsed}<{remaining}{postfix}]"


class WorkBar:
    """A tqdm bar over tasks of unequal estimated work.

    The bar's total is the summed estimate and each task done advances it by its own estimate
    (the weight its job's task splitter balanced on, :meth:`Job.task_weights
    <nx_gpumine.execution.jobs.base.Job.task_weights>`), so the percentage is of the estimated
    work. The rate behind the ETA is the work done per second since the end of the first task,
    averaged over the run (``smoothing=0``: the real cost of a task varies widely about its
    estimate, so the last few say little about the rest), not counting the first task, which
    carries the call's one-time costs (compiling or loading the engine's kernels, copying the
    graph to the device). It shows ``desc:  37%|###       | [00:03<00:05, 95/256 tasks]``.

    Parameters
    ----------
    bar : tqdm bar
        The bar to advance (its ``total`` the summed weights), made by :func:`progress_bar`
        (a bar of another class gets an ETA over the whole run).
    weights : sequence of float
        Estimated work of each task, in task index order.
    """

    def __init__(self, bar: Any, weights: Sequence[float]) -> None:
        self.bar = bar
        self.weights = [float(w) for w in weights]
        self.done = 0
        self._show_tasks()

    @property
    def ntasks(self) -> int:
        """Number of tasks."""
        return len(self.weights)

    def _show_tasks(self) -> None:
        self.bar.set_postfix_str(f"{self.done}/{self.ntasks} tasks", refresh=False)

    def task_done(self, i: int) -> None:
        """Task ``i`` is done: advance by its estimated work (the last task to the total
        exactly, whatever the rounding of the sum)."""
        self.done += 1
        self._show_tasks()
        step = self.weights[i]
        if self.done == self.ntasks:
            step = max(0.0, self.bar.total - self.bar.n)
        self.bar.update(step)
        if self.done == 1:  # the rate counts from here (see the class docstring)
            self.bar.rate_from = (self.bar.format_dict["elapsed"], self.bar.n)

    def close(self) -> None:
        """Close the bar (the last state stays on screen)."""
        self.bar.close()


def task_work(weights: int | Sequence[float]) -> np.ndarray:
    """Per-task estimated work as float64: ``weights``, or ``weights`` ones for a task count;
    ones when the estimates are not usable (not finite, negative, or summing to zero)."""
    if isinstance(weights, int | np.integer):
        return np.ones(int(weights))
    w = np.asarray(weights, dtype=np.float64).reshape(-1)
    if not (np.isfinite(w).all() and (w >= 0).all() and w.sum() > 0):
        return np.ones(len(w))
    return w


@functools.cache
def _work_tqdm(base: type) -> type:
    """``base`` (a tqdm class) with its rate counted from ``rate_from``: ``(elapsed, n)``
    at the end of a :class:`WorkBar`'s first task (until then, tqdm's own)."""

    class WorkTqdm(base):
        rate_from: tuple[float, float] | None = None

        @property
        def format_dict(self) -> dict:
            d = super().format_dict
            if self.rate_from is not None:
                elapsed, n = self.rate_from
                if d["elapsed"] > elapsed and d["n"] > n:
                    d["rate"] = (d["n"] - n) / (d["elapsed"] - elapsed)
            return d

    WorkTqdm.__name__ = WorkTqdm.__qualname__ = f"Work{base.__name__}"
    return WorkTqdm


def progress_bar(weights: int | Sequence[float], desc: str) -> WorkBar | None:
    """A :class:`WorkBar` over tasks of estimated work ``weights`` (an int: that many tasks of
    equal weight), or None when tqdm (optional) is not installed.

    Parameters
    ----------
    weights : int or sequence of float
        Estimated work of each task (:meth:`Job.task_weights
        <nx_gpumine.execution.jobs.base.Job.task_weights>`), or the number of tasks.
    desc : str
        The bar's label.

    Returns
    -------
    WorkBar or None
        The bar, its total the summed work.
    """
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional
        return None
    w = task_work(weights)
    bar = _work_tqdm(tqdm)(total=float(w.sum()), desc=desc, smoothing=0, bar_format=BAR_FORMAT)
    return WorkBar(bar, w)


class Merge:
    """Exact, incremental merge of the partial results of ``ntasks`` tasks.

    Parameters
    ----------
    mode : {"count", "exists", "enumerate", "census"}
        How results combine (see the module docstring).
    ntasks : int
        Number of tasks (their indices are ``0 .. ntasks - 1``, the result order).
    width : int
        Columns of a match row, or entries of a census vector.
    limit : int, optional
        For ``"enumerate"``: most rows wanted.
    bar : WorkBar, optional
        Told of each result added (:meth:`WorkBar.task_done`, by the task's index); any
        other bar (a tqdm bar) is advanced by one per result.
    """

    def __init__(
        self, mode: str, ntasks: int, width: int, limit: int | None = None, bar: Any = None
    ) -> None:
        if mode not in MERGES:
            raise ValueError(f"merge mode must be one of {MERGES}, got {mode!r}")
        self.mode, self.width, self.limit, self.bar = mode, width, limit, bar
        self.total = 0
        self.found = False
        self.totals = [0] * width if mode == "census" else []
        self.blocks: list[np.ndarray | None] = [None] * ntasks if mode == "enumerate" else []
        self.done = 0  # blocks[:done] are all in
        self.got = 0  # rows in blocks[:done]
        self.rows_in = 0  # rows in every block received

    def left(self) -> int | None:
        """Rows still wanted after the tasks merged in order so far (None: no limit, or not
        an enumeration)."""
        if self.mode != "enumerate" or self.limit is None:
            return None
        return max(0, self.limit - self.got)

    def add(self, i: int, value: Any) -> bool:
        """Merge task ``i``'s result; True when the remaining tasks need not run.

        Raises
        ------
        CapacityError
            A count past 128 bits (a census count: 64 bits), or matches past the memory budget.
        """
        if self.bar is not None:
            done = getattr(self.bar, "task_done", None)
            if done is not None:
                done(i)
            else:
                self.bar.update(1)
        if self.mode == "count":
            self.total = checked_total(self.total + int(value))
            return False
        if self.mode == "exists":
            self.found = self.found or bool(value)
            return self.found
        if self.mode == "census":
            totals = self.totals
            for j, c in enumerate(np.asarray(value).tolist()):
                totals[j] += int(c)
            checked_total(max(totals), "census count", INT64_MAX)  # an int64 table
            return False
        block = np.asarray(value, dtype=np.int64).reshape(-1, self.width)
        self.blocks[i] = block
        self.rows_in += len(block)
        check_result_rows(self.rows_in, self.width, exact=False)  # every block held so far
        while self.done < len(self.blocks) and self.blocks[self.done] is not None:
            self.got += len(self.blocks[self.done])
            self.done += 1
        return self.limit is not None and self.got >= self.limit

    def result(self) -> int | bool | np.ndarray:
        """The merged answer: count, flag, census vector, or the rows in task order."""
        if self.mode == "count":
            return self.total
        if self.mode == "exists":
            return self.found
        if self.mode == "census":
            return np.array(self.totals, dtype=np.int64)
        out = [b for b in self.blocks[: self.done] if b is not None and len(b)]
        if not out:
            return np.empty((0, self.width), np.int64)
        if len(out) == 1:
            return out[0] if self.limit is None else out[0][: self.limit]
        return stack_rows(out, self.width, self.limit)


def stack_rows(blocks: Sequence[np.ndarray], width: int, limit: int | None = None) -> np.ndarray:
    """The rows of ``blocks`` one after the other (the first ``limit`` of them).

    Copied one block at a time into one array (not ``np.concatenate``, a single copy of the
    whole result that a Ctrl-C cannot interrupt): Python sees a signal between two blocks.

    Parameters
    ----------
    blocks : sequence of numpy.ndarray
        ``(n_i, width)`` int64 blocks.
    width : int
        Columns per row.
    limit : int, optional
        Most rows to keep.

    Returns
    -------
    numpy.ndarray
        ``(rows, width)`` int64.
    """
    rows = sum(len(b) for b in blocks)
    if limit is not None:
        rows = min(rows, int(limit))
    out = np.empty((rows, width), dtype=np.int64)
    pos = 0
    for block in blocks:
        if pos >= rows:
            break
        take = min(len(block), rows - pos)
        out[pos : pos + take] = block[:take]
        pos += take
    return out
