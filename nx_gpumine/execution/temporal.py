"""Run a temporal plan: pick the engine, split root-edge ranges into tasks, merge, report progress.

Tasks are half-open ranges ``[lo, hi)`` of root edge ids (``plan.temporal_plan.split_root_edges``
balances them by the number of edges in each root's window), the same split for CPU threads,
GPUs and Dask workers. The routing, task loop and merge shared with static patterns are in
:mod:`.runner`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..engines import is_cuda_engine, select_engine
from ..engines.checks import checked_range
from ..inputs.temporal_graph import TemporalGraph
from ..plan.temporal_plan import (
    TemporalPlan,
    TimePartition,
    build_temporal_plan,
    census_window,
    split_root_edges,
    time_partitions,
)
from .multigpu import run_census_devices, run_temporal_devices
from .runner import MODES, call_engine, check_query, dispatch, no_matches, run_in_order, run_local

__all__ = [
    "run_temporal",
    "run_temporal_local",
    "run_temporal_partitioned",
    "iter_temporal_blocks",
    "run_census",
    "census_function",
    "temporal_tasks",
    "MODES",
]


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
    """Execute ``plan`` on ``graph``.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph the plan was built for.
    plan : TemporalPlan
        The plan.
    mode : {"count", "enumerate", "exists"}
        What to compute.
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine; ``"dask"`` (or a ``client``) runs time partitions on a Dask cluster, see
        :func:`nx_gpumine.execution.distributed.run_temporal_dask`.
    limit : int, optional
        For ``"enumerate"``: stop after this many matches.
    progress : bool
        Show a tqdm bar (if tqdm is installed) over root-edge tasks (Dask: Dask's own bar).
    client : distributed.Client, optional
        Run on this Dask client's workers, with ``engine`` on each worker.
    devices : int, list of int or "all", optional
        GPUs of this host to split the time partitions over (see
        :func:`nx_gpumine.execution.multigpu.resolve_devices`); None: the current device
        (or the ``NX_GPUMINE_DEVICES`` default).

    Returns
    -------
    int, bool or numpy.ndarray
        The count, the existence flag, or an ``(n, l)`` int64 array of edge ids.

    Raises
    ------
    CapacityError
        If a count overflows 64 bits.
    """
    check_query(mode, limit)

    def on_dask() -> int | bool | np.ndarray:
        from .distributed import run_temporal_dask

        return run_temporal_dask(
            graph, plan, mode, client=client, engine=engine, limit=limit, progress=progress
        )

    return dispatch(
        engine,
        client,
        devices,
        on_dask=on_dask,
        on_devices=lambda slots: run_temporal_devices(
            graph, plan, mode, slots, engine=engine, limit=limit, progress=progress
        ),
        on_local=lambda: run_temporal_local(graph, plan, mode, engine, limit, progress),
        use_devices=lambda: is_cuda_engine(select_engine(engine, "temporal", plan)),
    )


def run_temporal_local(
    graph: TemporalGraph,
    plan: TemporalPlan,
    mode: str,
    engine: str = "auto",
    limit: int | None = None,
    progress: bool = False,
) -> int | bool | np.ndarray:
    """:func:`run_temporal` in this process on the current device (or the CPU)."""
    eng = select_engine(engine, "temporal", plan)
    return run_local(
        eng,
        graph,
        plan,
        mode,
        width=plan.l,
        limit=limit,
        progress=progress,
        split=lambda ntasks: temporal_tasks(graph, plan, ntasks),
        desc=f"{plan.motif.name or 'motif'} ({mode})",
    )


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
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if plan.impossible:
        return no_matches(mode, plan.l)

    def run_part(part: TimePartition, left: int | None) -> int | bool | np.ndarray:
        sub = graph.edge_slice(part.edge_lo, part.edge_hi)
        sub_plan = build_temporal_plan(plan.motif, sub)
        eng = select_engine(engine, "temporal", sub_plan)
        roots = (0, part.root_hi - part.edge_lo)
        out = call_engine(eng, sub, sub_plan, mode, roots, left)
        return out + part.edge_lo if mode == "enumerate" else out

    parts = time_partitions(graph, plan, nparts)
    return run_in_order(parts, run_part, mode, width=plan.l, limit=limit)


def iter_temporal_blocks(
    graph: TemporalGraph, plan: TemporalPlan, engine: str = "auto", ntasks: int = 256
) -> Iterator[np.ndarray]:
    """Lazily yield match blocks (``(n, l)`` edge ids), one root-edge task at a time."""
    eng = select_engine(engine, "temporal", plan)
    if plan.impossible:
        return
    for lo, hi in temporal_tasks(graph, plan, ntasks):
        block = eng.enumerate_matches(graph, plan, lo, hi)
        if len(block):
            yield block


def census_function(engine: str = "auto") -> Callable[..., np.ndarray]:
    """The ``census(graph, delta, tie, lo, hi)`` function of ``engine``'s temporal module.

    Parameters
    ----------
    engine : {"auto", "cpu", "cuda"}
        Engine name, as :func:`nx_gpumine.engines.select_engine` takes it.

    Returns
    -------
    callable
        The module's ``census`` (every temporal engine has one: it is part of
        :class:`nx_gpumine.engines.contract.TemporalEngine`).
    """
    return select_engine(engine, "temporal").census


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

    ``engine="dask"`` or a ``client`` runs it on a Dask cluster
    (:func:`nx_gpumine.execution.distributed.run_census_dask`; ``progress`` shows Dask's bar).
    ``devices`` splits time partitions over GPUs of this host
    (:func:`nx_gpumine.execution.multigpu.run_census_devices`).
    """

    def on_dask() -> np.ndarray:
        from .distributed import run_census_dask

        return run_census_dask(graph, delta, tie, client=client, engine=engine, progress=progress)

    def on_local() -> np.ndarray:
        checked = census_window(graph, delta, tie)
        return np.asarray(census_function(engine)(graph, checked, tie), dtype=np.int64)

    return dispatch(
        engine,
        client,
        devices,
        on_dask=on_dask,
        on_devices=lambda slots: run_census_devices(
            graph, delta, tie, slots, engine=engine, progress=progress
        ),
        on_local=on_local,
        use_devices=lambda: is_cuda_engine(select_engine(engine, "temporal")),
    )
