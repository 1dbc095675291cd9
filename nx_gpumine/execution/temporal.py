"""Temporal motifs and the census: the entry points that build a
:class:`~.jobs.temporal.TemporalJob` or :class:`~.jobs.census.CensusJob` and run it.

:func:`run_temporal` and :func:`run_census` let :func:`~nx_gpumine.execution.runner.run_job`
pick the executor (this process, several devices, Dask); a caller that names one builds the job
(``TemporalJob.of(graph, plan, mode, limit)``, ``CensusJob.of(graph, delta, tie)``) and hands it
to that executor's entry (:func:`~nx_gpumine.execution.runner.run_on_devices`,
:func:`nx_gpumine.execution.executors.dask.run_job`); :func:`run_temporal_partitioned` runs
Everest's time partitions one after the other in this process. :func:`run_motif_table` counts
several motifs at several windows (one pass where the engine has ``count_table``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..engines import select_engine
from ..engines.contract import optional_hook
from ..inputs.motifs import TemporalMotif
from ..inputs.temporal_graph import TemporalGraph
from ..plan.temporal_plan import TemporalPlan, temporal_plan
from .executors import dask, local
from .executors.devices import resolve_devices
from .jobs.census import CensusJob
from .jobs.temporal import TemporalJob, temporal_tasks
from .merge import MODES, no_matches, progress_bar
from .runner import run_job

__all__ = [
    "run_temporal",
    "run_temporal_partitioned",
    "iter_temporal_blocks",
    "temporal_frame_dask",
    "run_census",
    "run_motif_table",
    "temporal_tasks",
    "MODES",
]


def run_temporal(
    graph: TemporalGraph,
    plan: TemporalPlan,
    mode: str,
    engine: str = "auto",
    limit: int | None = None,
    progress: bool = False,
    client: Any = None,
    devices: Any = None,
) -> int | bool | np.ndarray:
    """Execute ``plan`` on ``graph``: :func:`~nx_gpumine.execution.static.run_static` for a
    temporal plan (same parameters; Dask and ``devices=`` split time partitions, one per task:
    each reads only its partition's edge slice, with the plan rebuilt there from
    ``plan.motif``).

    Returns
    -------
    int, bool or numpy.ndarray
        The count, the existence flag, or an ``(n, l)`` int64 array of edge ids.
    """
    job = TemporalJob.of(graph, plan, mode, limit)
    return run_job(job, engine, client=client, devices_arg=devices, progress=progress)


def run_temporal_partitioned(
    graph: TemporalGraph,
    plan: TemporalPlan,
    mode: str,
    nparts: int,
    engine: str = "auto",
    limit: int | None = None,
) -> int | bool | np.ndarray:
    """Execute ``plan`` partition by partition (Everest's time-partitioned edge lists).

    Each :class:`~nx_gpumine.plan.temporal_plan.TimePartition` is run on its own edge slice
    (major partition plus the minor overlap of the motif's time reach) with its own plan, the
    way separate GPUs would run them without communicating; results are merged (counts added,
    match edge ids shifted back). The answer equals :func:`run_temporal`'s.

    Parameters
    ----------
    graph, plan, mode, engine, limit
        As in :func:`run_temporal`.
    nparts : int
        Number of time partitions.

    Returns
    -------
    int, bool or numpy.ndarray
        As :func:`run_temporal`.
    """
    job = TemporalJob.of(graph, plan, mode, limit, fallback=False)  # refuses a bad mode
    if plan.impossible:
        return no_matches(mode, plan.l)
    tasks = job.tasks(nparts, sliced=True)
    return local.run_tasks_in_order(job, job.engine(engine), tasks)


def iter_temporal_blocks(
    graph: TemporalGraph, plan: TemporalPlan, engine: str = "auto", ntasks: int = 256
) -> Iterator[np.ndarray]:
    """Lazily yield match blocks (``(n, l)`` edge ids), one root-edge task at a time."""
    job = TemporalJob.of(graph, plan, "enumerate")
    yield from local.iter_blocks(job, job.engine(engine), ntasks)


def temporal_frame_dask(
    graph: TemporalGraph,
    plan: TemporalPlan,
    *,
    client: Any = None,
    engine: str = "dask",
    limit: int | None = None,
    nparts: int | None = None,
) -> Any:
    """The matches as a dask DataFrame: one pandas partition per time partition, lazy without
    ``limit`` (:func:`nx_gpumine.execution.executors.dask.frame`). Columns as
    ``find_motifs(..., output="frame")`` (``edge_i`` input rows, ``time_i``, ``node_a`` keys:
    :func:`nx_gpumine.results.temporal.match_columns`)."""
    job = TemporalJob.of(graph, plan, "enumerate", limit)
    return dask.frame(job, client=client, engine=engine, ntasks=nparts)


def run_census(
    graph: TemporalGraph,
    delta: float | int | None,
    tie: str = "strict",
    engine: str = "auto",
    client: Any = None,
    progress: bool = False,
    devices: Any = None,
) -> np.ndarray:
    """The 36 three-edge motif counts (``CENSUS_KEYS`` order) on ``engine``.

    ``engine="dask"`` or a ``client`` runs it on a Dask cluster (``progress`` shows Dask's
    bar); ``devices`` splits time partitions over GPUs of this host. Either way the time
    partitions are those of any three-edge motif of window ``delta`` and the counts are summed
    exactly.
    """
    job = CensusJob.of(graph, delta, tie)
    return run_job(job, engine, client=client, devices_arg=devices, progress=progress)


def run_motif_table(
    graph: TemporalGraph,
    motifs: list[TemporalMotif],
    deltas: list[float | int | None],
    engine: str = "auto",
    progress: bool = False,
    client: Any = None,
    devices: Any = None,
) -> list[list[int]]:
    """The count of each motif within each window: ``rows[i][j]`` for ``motifs[i]`` and
    ``deltas[j]`` (each the count ``run_temporal`` gives for the motif with that window).

    In this process, the motifs whose engine (resolved once per motif) has the ``count_table``
    hook are counted by it at the widest window (none if a window is None), each match binned
    by its span: the CPU engine walks plain motifs together on their shared prefixes, the CUDA
    engine walks each motif once for all windows. Otherwise (Dask, several devices) each
    (motif, window) is one call of :func:`run_temporal` (``progress``: a bar over them).

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    motifs : list of TemporalMotif
        The motifs, in the graph's time units (their own windows are replaced).
    deltas : list
        Windows in the graph's time units (None: no window).
    engine, progress, client, devices
        As in :func:`run_temporal`.

    Returns
    -------
    list of list of int
    """
    finite = sorted({d for d in deltas if d is not None})
    top = None if any(d is None for d in deltas) else finite[-1]
    # the windows a walk at ``top`` bins into: the widest is the walk's own count, not a bin
    narrower = finite if top is None else finite[:-1]
    wide = [motif.with_(delta=top) for motif in motifs]
    rows: list = [None] * len(motifs)
    if client is None and engine != "dask" and resolve_devices(devices, engine) is None:
        by_hook: dict = {}  # each motif's engine, resolved once; a table per engine hook
        for i, motif in enumerate(wide):
            module = select_engine(engine, "temporal", temporal_plan(motif, graph))
            hook = optional_hook(module, "count_table")
            if hook is not None:
                by_hook.setdefault(hook, []).append(i)
        for hook, members in by_hook.items():  # one pass each: every motif and window
            got_rows = hook(graph, [wide[i] for i in members], narrower)
            for i, got in zip(members, got_rows, strict=True):
                counts = {**dict(zip(narrower, got[:-1], strict=True)), top: got[-1]}
                rows[i] = [int(counts[d]) for d in deltas]
    left = [i for i, row in enumerate(rows) if row is None]
    bar = progress_bar(len(left), "motif table") if progress and left else None
    try:
        for n, i in enumerate(left):
            counts = {
                d: run_temporal(
                    graph,
                    temporal_plan(motifs[i].with_(delta=d), graph),
                    "count",
                    engine,
                    client=client,
                    devices=devices,
                )  # fmt: skip
                for d in dict.fromkeys(deltas)
            }
            rows[i] = [int(counts[d]) for d in deltas]
            if bar is not None:
                bar.task_done(n)
    finally:
        if bar is not None:
            bar.close()
    return rows
