"""The census job: the 36 three-edge motif counts (``CENSUS_KEYS`` order) of a window.

Tasks are those of any three-edge motif of window ``delta`` (the census reads no edge later
than ``delta`` after its root, :func:`~nx_gpumine.execution.jobs.temporal.edge_tasks`); each
counts its roots on its input with the engine's ``census`` and the vectors are summed exactly
(:class:`~nx_gpumine.execution.merge.Merge` mode ``"census"``).
"""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from ...engines import select_engine
from ...inputs.motifs import TemporalMotif
from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import build_temporal_plan, census_window, temporal_total_cost
from .base import Job
from .temporal import edge_tasks, part_input, part_roots, part_weights

__all__ = ["CensusJob", "CENSUS_WIDTH"]

#: Entries of a census vector.
CENSUS_WIDTH = 36


@dataclasses.dataclass
class CensusJob(Job):
    """The census of window ``delta`` and tie rule ``tie``; build one with :meth:`of`."""

    kind: ClassVar[str] = "temporal"
    label: ClassVar[str] = "census"
    reads_slices: ClassVar[bool] = True

    delta: Any = None
    tie: str = "strict"

    @classmethod
    def of(cls, graph: TemporalGraph, delta: float | int | None, tie: str) -> CensusJob:
        """The census job; ``delta`` is checked against the graph (:func:`census_window`)."""
        delta = census_window(graph, delta, tie)
        return cls(graph, None, "census", CENSUS_WIDTH, delta=delta, tie=tie)

    @property
    def task_prefix(self) -> str:
        return self.label

    def engine(self, name: str, data: Any = None) -> ModuleType:
        return select_engine(name, "temporal")

    def whole(self, eng: ModuleType) -> np.ndarray:
        return np.asarray(eng.census(self.graph, self.delta, self.tie), dtype=np.int64)

    def splits_for_progress(self) -> bool:
        return False  # one engine call in this process

    def reach(self) -> Any:
        """A plan with the time reach of every three-edge motif of window ``delta`` (the one
        its tasks are split by)."""
        triangle = TemporalMotif([(0, 1), (1, 2), (2, 0)], delta=self.delta)
        return build_temporal_plan(triangle, self.graph)

    heavy_work: ClassVar[float] = 5e8

    def estimated_work(self) -> float:
        reach = self.reach()
        return temporal_total_cost(self.graph, reach.delta_on, reach.delta)

    def cost_key(self) -> Any:
        return ("census", self.delta, self.tie)

    def tasks(self, n: int, sliced: bool) -> list:
        return edge_tasks(self.graph, self.reach(), n, sliced)

    def task_weights(self, tasks: list) -> np.ndarray:
        return part_weights(self.graph, self.reach(), tasks)

    def input_key(self, task: Any) -> tuple[int, int] | None:
        return part_input(self.graph, task)

    def run_task(self, eng: ModuleType, data: Any, task: Any, left: int | None) -> np.ndarray:
        lo, hi = part_roots(task)
        return np.asarray(eng.census(data, self.delta, self.tie, lo, hi), dtype=np.int64)
