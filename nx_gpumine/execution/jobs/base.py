"""The job contract: what a query computes, split into tasks any executor can run.

A job is a dataclass holding the graph, the plan (or what stands for it), the merge mode and
the result width. Executors call, in this order:

1. :meth:`Job.engine` (the engine module, resolved once per call; on a Dask worker, once per
   task there) and :meth:`Job.answer` (a result known without any engine task, or None);
2. either :meth:`Job.whole` (the one-call path) or :meth:`Job.tasks` and, per task,
   :meth:`Job.run_task` on the task's input (:meth:`Job.input_key`: the whole graph, or an
   edge slice cut by :func:`cut_input`), merging results with
   ``Merge(job.mode, len(tasks), job.width, job.limit)`` (a progress bar advances by
   :meth:`Job.task_weights`, each task's estimated work).

Tasks are small picklable values (root ranges ``(lo, hi)``, time partitions); what a Dask
worker receives is :meth:`Job.shipped` (the job without its graph and plan, which travel as
scattered data) rebuilt there by :meth:`Job.with_plan`.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from ...engines import select_engine

__all__ = ["Job", "call_engine", "cut_input"]


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


def cut_input(graph: Any, key: tuple[int, int]) -> Any:
    """A task's input: edge ids ``[lo, hi)`` of ``graph`` (``edge_slice``; on Dask workers too)."""
    lo, hi = key
    return graph.edge_slice(lo, hi)


@dataclasses.dataclass
class Job(ABC):
    """One query: its graph, plan, mode, result width and limit.

    Attributes
    ----------
    graph
        The data graph (None in the copy a Dask worker receives).
    plan
        The plan (None where the job has none, and in the copy a Dask worker receives before
        :meth:`with_plan`).
    mode : {"count", "exists", "enumerate", "census"}
        The :class:`~nx_gpumine.execution.merge.Merge` mode of its results.
    width : int
        Columns of a match row (census: entries of the count vector).
    limit : int, optional
        For ``"enumerate"``: most rows wanted.
    """

    #: Engine kind for :func:`~nx_gpumine.engines.select_engine`.
    kind: ClassVar[str] = ""
    #: Task key prefix on Dask (the dashboard's name of the job's tasks).
    label: ClassVar[str] = ""
    #: Whether tasks may read their own edge slices (time partitions) instead of the graph.
    reads_slices: ClassVar[bool] = False

    graph: Any
    plan: Any
    mode: str
    width: int
    limit: int | None = None

    @property
    def desc(self) -> str:
        """The progress bar's label."""
        return self.label

    @property
    def task_prefix(self) -> str:
        """Dask task key prefix: the label and the mode."""
        return f"{self.label}-{self.mode}"

    def engine(self, name: str, data: Any = None) -> ModuleType | None:
        """The engine module that runs this job (None: the job needs none).

        ``data``: on a Dask worker, the task's input (a job shipped without its plan may
        need it to choose).
        """
        return select_engine(name, self.kind, self.plan)

    def answer(self) -> Any:
        """The result when no engine task is needed (no match possible...), else None."""
        return None

    @abstractmethod
    def whole(self, eng: ModuleType) -> Any:
        """The result in one engine call over the whole graph (this process)."""

    def prefers_whole(self, eng: ModuleType) -> bool:
        """Whether :meth:`whole` on one device beats splitting over several."""
        return False

    #: :meth:`estimated_work` from which a query never timed before splits over several
    #: devices (:func:`~nx_gpumine.execution.executors.devices.placement`).
    heavy_work: ClassVar[float] = float("inf")

    def estimated_work(self) -> float | None:
        """The job's estimated work over its whole graph, an absolute total from degree
        statistics and window sizes (compared with :attr:`heavy_work`); None where there is
        no estimate."""
        return None

    def cost_key(self) -> Any:
        """A hashable key naming this query on its graph (plan and mode), under which
        multi-device calls keep their measured times; None: nothing kept."""
        return None

    def device_tasks(self, eng: ModuleType, parts: int) -> list | None:
        """``parts`` tasks of about equal work for several devices where the engine deals its
        own work out (static counts: ``count_part``), or None: :meth:`tasks` then."""
        return None

    @abstractmethod
    def tasks(self, n: int, sliced: bool) -> list:
        """At most ``n`` tasks covering the job, in result order.

        ``sliced``: the place running them would rather ship each task its own edge slice
        than the whole graph (several devices, a cluster); a job without slices ignores it.
        """

    def task_weights(self, tasks: list) -> np.ndarray:
        """Estimated work of each of ``tasks`` (float64, one per task): what the task
        splitter balanced on, so a progress bar advances by it. Default: 1 per task."""
        return np.ones(len(tasks))

    def input_key(self, task: Any) -> tuple[int, int] | None:
        """The edge range a task reads (:func:`cut_input`), or None for the whole graph."""
        return None

    @abstractmethod
    def run_task(self, eng: ModuleType, data: Any, task: Any, left: int | None) -> Any:
        """One task's partial result on ``data`` (the graph, or the task's edge slice).

        ``left``: rows still wanted (``"enumerate"``; None: no limit).
        """

    def task_blocks(self, eng: ModuleType, data: Any, task: Any) -> Iterator[np.ndarray]:
        """A task's matches as blocks (lazily where the engine can pause); default: one block."""
        yield self.run_task(eng, data, task, None)

    def splits_for_progress(self) -> bool:
        """Whether a one-process call with a progress bar runs tasks (else one call)."""
        return True

    def shipped(self) -> tuple[Job, Any]:
        """What a Dask task carries (this job without graph and plan) and what the executor
        scatters once per query for it (the plan; None: nothing)."""
        return dataclasses.replace(self, graph=None, plan=None), self.plan

    def with_plan(self, plan: Any) -> Job:
        """A shipped job given back its plan (on the worker)."""
        return dataclasses.replace(self, plan=plan)

    def frame_meta(self) -> Any:
        """An empty pandas frame with the columns of :meth:`frame`."""
        raise NotImplementedError(f"{type(self).__name__} has no frame output")

    def frame(self, data: Any, ids: np.ndarray) -> Any:
        """Matches ``ids`` of ``data`` as a pandas frame (non-empty ``ids``)."""
        raise NotImplementedError(f"{type(self).__name__} has no frame output")

    def frame_part(self, eng: ModuleType, data: Any, task: Any, meta: Any) -> Any:
        """One task's matches as a pandas frame (``meta``, the empty frame, when none)."""
        ids = self.run_task(eng, data, task, None)
        return self.frame(data, ids) if len(ids) else meta
