"""The temporal job: count / find / exists of a temporal motif, over root-edge ranges or
time partitions.

Tasks are :class:`~nx_gpumine.plan.temporal_plan.TimePartition` values: roots
``[root_lo, root_hi)`` searched on the edges ``[edge_lo, edge_hi)``. In this process they are
root ranges on the whole graph (:func:`temporal_tasks`, balanced by the number of edges in
each root's window); where each task would rather get its own edge slice (several devices, a
Dask cluster) they are Everest's time partitions (major partition + the minor overlap of the
motif's time reach, :func:`~nx_gpumine.plan.temporal_plan.time_partitions`), each searched
on its slice with a plan built there from the motif. When those slices would hold more than
twice the edges together (no window, or one spanning most of the time line) the tasks are
root ranges on the whole graph instead (:func:`edge_tasks`).
"""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from ...engines import select_engine
from ...engines.checks import checked_range
from ...inputs.motifs import TemporalMotif
from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import (
    TemporalPlan,
    TimePartition,
    root_range_costs,
    split_root_edges,
    temporal_plan,
    temporal_total_cost,
    time_partitions,
)
from ...results.temporal import match_columns
from ..merge import check_query, no_matches
from .base import Job, call_engine

__all__ = ["TemporalJob", "temporal_tasks", "edge_tasks", "part_weights"]


def temporal_tasks(
    graph: TemporalGraph, plan: TemporalPlan, ntasks: int, lo: int = 0, hi: int | None = None
) -> list[tuple[int, int]]:
    """Split root edge ids ``[lo, hi)`` into at most ``ntasks`` balanced ranges."""
    lo, hi = checked_range(lo, hi, graph.m)
    if ntasks < 1:
        raise ValueError(f"ntasks must be >= 1, got {ntasks}")
    if hi == lo:
        return []
    b = split_root_edges(graph, ntasks, plan.delta_on, plan.delta, lo, hi)
    return [(int(x), int(y)) for x, y in zip(b[:-1], b[1:], strict=True) if y > x]


def edge_tasks(
    graph: TemporalGraph, plan: TemporalPlan, n: int, sliced: bool, fallback: bool = True
) -> list[TimePartition]:
    """At most ``n`` tasks over the root edges of ``plan`` (its window bounds the reach).

    Parameters
    ----------
    graph, plan
        The data graph and a plan on it.
    n : int
        Wanted number of tasks.
    sliced : bool
        Time partitions, each with its own edge range (else root ranges on the whole graph).
    fallback : bool
        With ``sliced``: root ranges on the whole graph when the partitions' edge ranges
        would hold more than twice the edges together (their slices would multiply the
        graph's memory on every device or worker).

    Returns
    -------
    list of TimePartition
        In time order; their root ranges cover ``[0, m)`` exactly.
    """
    if sliced:
        parts = time_partitions(graph, plan, n)
        if not fallback or sum(p.edge_hi - p.edge_lo for p in parts) <= 2 * graph.m:
            return parts
    # kept with the graph: the split depends on the window only (its estimate searches the
    # time line, some 20 ms on 100M edges: more than a quick query's run)
    key = ("root_ranges", bool(plan.delta_on), plan.delta if plan.delta_on else None, int(n))
    ranges = graph.derived(key, lambda: temporal_tasks(graph, plan, n))
    return [TimePartition(a, b, 0, graph.m) for a, b in ranges]


def part_weights(
    graph: TemporalGraph, plan: TemporalPlan, parts: list[TimePartition]
) -> np.ndarray:
    """Estimated work of each partition's roots: the cost :func:`temporal_tasks` and
    :func:`~nx_gpumine.plan.temporal_plan.time_partitions` balanced on (the edges in each
    root's window, or without one the endpoints' degrees), summed per root range.

    Parameters
    ----------
    graph, plan
        The data graph and the plan whose window the tasks were split by.
    parts : list of TimePartition
        Tasks of :func:`edge_tasks`, in time order (contiguous root ranges).

    Returns
    -------
    numpy.ndarray
        float64, one value per partition.
    """
    if not parts:
        return np.zeros(0)
    bounds = np.array([p.root_lo for p in parts] + [parts[-1].root_hi], dtype=np.int64)
    if any(a.root_hi != b.root_lo for a, b in zip(parts, parts[1:], strict=False)):
        return np.ones(len(parts))  # not one contiguous split: no shared estimate
    return root_range_costs(graph, plan.delta_on, plan.delta, bounds)


def part_input(graph: TemporalGraph, part: TimePartition) -> tuple[int, int] | None:
    """The edge range a partition reads, None when that is the whole graph."""
    if part.edge_lo == 0 and part.edge_hi == graph.m:
        return None
    return part.edge_lo, part.edge_hi


def part_roots(part: TimePartition) -> tuple[int, int]:
    """A partition's root range in the ids of its own slice."""
    return part.root_lo - part.edge_lo, part.root_hi - part.edge_lo


@dataclasses.dataclass
class TemporalJob(Job):
    """Count, find or test a temporal plan's matches; tasks are time partitions or root
    ranges (:func:`edge_tasks`).

    Build one with :meth:`of`. Results: the count, the flag, or ``(n, l)`` edge ids in the
    single-run order. ``fallback=False`` keeps Everest's partitions however much they overlap
    (:func:`~nx_gpumine.execution.temporal.run_temporal_partitioned`).
    """

    kind: ClassVar[str] = "temporal"
    label: ClassVar[str] = "temporal"
    reads_slices: ClassVar[bool] = True

    motif: TemporalMotif | None = None
    fallback: bool = True

    @classmethod
    def of(
        cls,
        graph: TemporalGraph,
        plan: TemporalPlan,
        mode: str,
        limit: int | None = None,
        fallback: bool = True,
    ) -> TemporalJob:
        """The job of ``mode`` for ``plan`` on ``graph`` (``mode`` and ``limit`` checked as in
        :meth:`StaticJob.of <nx_gpumine.execution.jobs.static.StaticJob.of>`)."""
        check_query(mode, limit)
        return cls(graph, plan, mode, int(plan.l), limit, motif=plan.motif, fallback=fallback)

    @property
    def desc(self) -> str:
        return f"{self.motif.name or 'motif'} ({self.mode})"

    def engine(self, name: str, data: Any = None) -> ModuleType:
        plan = self.plan if self.plan is not None else temporal_plan(self.motif, data)
        return select_engine(name, "temporal", plan)

    def answer(self) -> Any:
        if self.plan.impossible or (self.mode == "enumerate" and self.limit == 0):
            return no_matches(self.mode, self.width)
        return None

    def whole(self, eng: ModuleType) -> Any:
        return call_engine(eng, self.graph, self.plan, self.mode, limit=self.limit)

    # temporal_total_cost: the 10M-edge synthetic graph with a one-day window 7e7 (its
    # 3-edge motifs take 1-6 ms on one GPU, H200 2026-11-27)
    heavy_work: ClassVar[float] = 5e8

    def estimated_work(self) -> float:
        return temporal_total_cost(self.graph, self.plan.delta_on, self.plan.delta)

    def cost_key(self) -> Any:
        return ("temporal", id(self.plan), self.mode)

    def tasks(self, n: int, sliced: bool) -> list[TimePartition]:
        return edge_tasks(self.graph, self.plan, n, sliced, self.fallback)

    def task_weights(self, tasks: list) -> np.ndarray:
        return part_weights(self.graph, self.plan, tasks)

    def input_key(self, task: Any) -> tuple[int, int] | None:
        return part_input(self.graph, task)

    def search(self, eng: ModuleType, data: Any, part: TimePartition, left: int | None) -> Any:
        """A partition's result on ``data``, match edge ids in the ids of ``data``."""
        # the whole graph runs the call's plan; a slice (or, on a Dask worker, the shipped
        # graph) the plan built there from the motif, kept with it
        plan = self.plan if data is self.graph else temporal_plan(self.motif, data)
        return call_engine(eng, data, plan, self.mode, part_roots(part), left)

    def run_task(self, eng: ModuleType, data: Any, task: Any, left: int | None) -> Any:
        out = self.search(eng, data, task, left)
        if self.mode != "enumerate" or task.edge_lo == 0:
            return out
        return np.asarray(out, dtype=np.int64) + task.edge_lo  # back to the graph's edge ids

    def shipped(self) -> tuple[Job, Any]:
        # the plan is rebuilt on each slice from the motif: nothing to scatter
        return dataclasses.replace(self, graph=None, plan=None), None

    def frame_meta(self) -> Any:
        import pandas as pd

        sample = np.zeros((1 if self.graph.m else 0, self.width), np.int64)
        return pd.DataFrame(match_columns(self.graph, self.motif, sample)).iloc[:0]

    def frame(self, data: Any, ids: np.ndarray) -> Any:
        import pandas as pd

        return pd.DataFrame(match_columns(data, self.motif, ids))

    def frame_part(self, eng: ModuleType, data: Any, task: Any, meta: Any) -> Any:
        ids = self.search(eng, data, task, None)  # the slice's own edge ids
        return self.frame(data, ids) if len(ids) else meta
