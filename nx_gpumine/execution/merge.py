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
:func:`no_matches`) and the optional tqdm bar (:func:`progress_bar`) a merge advances.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engines.checks import checked_limit, checked_total
from ..limits import check_result_rows

__all__ = ["MODES", "MERGES", "check_query", "no_matches", "progress_bar", "Merge"]

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


def progress_bar(total: int, desc: str) -> Any:
    """A tqdm bar of ``total`` tasks, or None when tqdm (optional) is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional
        return None
    return tqdm(total=total, desc=desc, unit="task")


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
    bar : tqdm bar, optional
        Advanced by one per result added.
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
            A count past 64 bits, or matches past the memory budget.
        """
        if self.bar is not None:
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
            checked_total(max(totals), "census count")
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
        ids = out[0] if len(out) == 1 else np.concatenate(out)
        return ids if self.limit is None else ids[: self.limit]
