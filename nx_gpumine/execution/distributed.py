"""Run one query over a Dask cluster (``dask.distributed``) of CPU or GPU workers, exactly.

Nothing here schedules: the work goes to Dask as ordinary tasks, and Dask places them, moves
data, reruns what a dead worker held and shows progress (its bar and dashboard).

Work units are the single-process paths' own tasks:

- static patterns: root-edge ranges of one plan (:func:`~nx_gpumine.execution.tasks.
  split_root_range`), each ``engine.count / exists / enumerate_matches(graph, plan, lo, hi)``;
- temporal motifs and the census: Everest's time partitions (:func:`~nx_gpumine.plan.
  temporal_plan.time_partitions`, major partition + minor overlap): each runs on its own edge
  slice with a plan rebuilt there from the motif, as :func:`~nx_gpumine.execution.temporal.
  run_temporal_partitioned` does in one process.

Data: the graph is scattered once per graph and client, replicated on every worker, and kept
while the graph object lives (later queries on it send nothing but their plan); a static plan
(its root mask is one byte per CSR entry) is scattered once per query, replicated; edge slices
are tasks computed on the workers from the graph, so Dask recomputes one that is lost.

Each worker runs the engine module :func:`~nx_gpumine.engines.select_engine` gives it
(``"auto"``: CUDA on a worker that sees a GPU, the CPU engine otherwise), one engine call at a
time per worker process (each call is parallel inside: numba threads or a whole GPU).

Results are those of the single-process engines, bit for bit: counts are summed as Python
integers and refused past 64 bits (:class:`~nx_gpumine.errors.CapacityError`), censuses summed
per motif the same way, matches concatenated in task order (= the single-process order, root
order), ``limit`` honoured across workers (the first ``limit`` matches in root order; tasks past
them are cancelled), ``exists`` stops at the first task that finds one.

Faults: Dask reruns the tasks of a worker that dies. If a scattered input (graph or plan) lost
its last copy with it, the query scatters it again and resubmits the tasks Dask cancelled (at
most :data:`MAX_RESHIPS` times). A call that is interrupted (``KeyboardInterrupt``) or fails
cancels all its tasks; :func:`cancel_queries` cancels running queries from another thread (they
raise :class:`concurrent.futures.CancelledError`).

Tuning (Dask config): ``nx_gpumine.tasks_per_thread`` (default :data:`TASKS_PER_THREAD`) tasks
or time partitions per worker thread of the cluster.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from typing import Any

import numpy as np

from ..engines import ENGINE_NAMES, select_engine
from ..engines.checks import checked_total
from ..engines.contract import STATIC_MIN_K
from ..errors import EngineUnavailableError, QueryError
from ..inputs.graph_base import GraphBase
from ..inputs.motifs import TemporalMotif
from ..inputs.static_graph import StaticGraph
from ..inputs.temporal_graph import TemporalGraph
from ..plan.static_plan import StaticPlan
from ..plan.temporal_plan import (
    TemporalPlan,
    build_temporal_plan,
    census_window,
    time_partitions,
)
from ..results.static import matches_to_frame
from ..results.temporal import match_columns
from .runner import check_query, no_matches
from .static import small_plan_result
from .tasks import split_root_range
from .temporal import census_function

__all__ = [
    "get_client",
    "worker_engine",
    "run_static_dask",
    "iter_static_blocks_dask",
    "static_frame_dask",
    "run_temporal_dask",
    "temporal_frame_dask",
    "run_census_dask",
    "cancel_queries",
    "TASKS_PER_THREAD",
    "MAX_RESHIPS",
]

#: Default number of tasks (static) or time partitions (temporal) per worker thread.
TASKS_PER_THREAD = 4
#: How many times one query re-sends inputs that every worker holding them lost.
MAX_RESHIPS = 3


# ====================================================================== client and engine
def get_client(client: Any = None) -> Any:
    """The ``distributed.Client`` to run on: ``client``, else the current default client.

    Raises
    ------
    EngineUnavailableError
        dask.distributed is not installed, no client is running, or ``client`` is closed.
    TypeError
        ``client`` is not a ``distributed.Client``.
    """
    try:
        import distributed
    except ImportError as exc:
        raise EngineUnavailableError(
            "engine='dask' needs dask.distributed: pip install 'nx-gpumine[dask]'"
        ) from exc
    if client is None:
        try:
            client = distributed.default_client()
        except ValueError as exc:
            raise EngineUnavailableError(
                "engine='dask' found no running dask.distributed Client: start one "
                "(distributed.Client(...)) or pass client="
            ) from exc
    if not isinstance(client, distributed.Client):
        raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}")
    if client.status != "running":
        raise EngineUnavailableError(f"the dask client is not running (status {client.status!r})")
    return client


def worker_engine(engine: str) -> str:
    """The engine each worker runs: ``"dask"`` means ``"auto"`` (chosen on the worker)."""
    name = "auto" if engine == "dask" else engine
    if name not in ENGINE_NAMES:
        raise QueryError(f"engine must be one of {(*ENGINE_NAMES, 'dask')}, got {engine!r}")
    return name


def _default_units(client: Any, units: int | None) -> int:
    if units is not None:
        if int(units) < 1:
            raise ValueError(f"the number of tasks must be >= 1, got {units}")
        return int(units)
    import dask

    per = int(dask.config.get("nx_gpumine.tasks_per_thread", TASKS_PER_THREAD))
    threads = sum(client.nthreads().values())
    return max(1, per * max(1, threads))


# ====================================================================== shipping data
@dataclasses.dataclass
class _Shipped:
    """A graph scattered on one client: its future and the edge slices made from it."""

    stamp: tuple
    future: Any
    slices: dict = dataclasses.field(default_factory=dict)


_LOCK = threading.Lock()
_SHIPPED: dict[tuple[int, str], _Shipped] = {}  # (id(graph), client.id) -> _Shipped
_WATCHED: set[int] = set()  # ids of graphs with a finalizer that drops their entries


def _stamp(graph: Any) -> tuple:
    """Identity of the graph's public fields (a replaced array or label map re-sends it)."""
    return tuple(
        (f.name, id(getattr(graph, f.name)))
        for f in dataclasses.fields(graph)
        if not f.name.startswith("_")
    )


def _forget(graph_id: int) -> None:
    with _LOCK:
        _WATCHED.discard(graph_id)
        for key in [k for k in _SHIPPED if k[0] == graph_id]:
            del _SHIPPED[key]


def _shippable(obj: Any) -> Any:
    """A shallow copy; of a graph, without the process-local caches (device arrays, key maps,
    derived values such as the CPU walk index: a worker builds what it needs, once, instead of
    every worker receiving every index the client happened to build)."""
    if isinstance(obj, GraphBase):
        return obj.without_local_caches()
    return copy.copy(obj)


def _shipped_graph(client: Any, graph: Any, refresh: bool = False) -> _Shipped:
    """The graph's entry on ``client``, scattering it (to every worker) when needed."""
    key = (id(graph), client.id)
    stamp = _stamp(graph)
    with _LOCK:
        entry = _SHIPPED.get(key)
    if entry is not None and not refresh and entry.stamp == stamp:
        if entry.future.status == "finished":
            return entry
    future = _scatter(client, _shippable(graph))
    entry = _Shipped(stamp, future)
    with _LOCK:
        _SHIPPED[key] = entry
        watch = id(graph) not in _WATCHED
        _WATCHED.add(id(graph))
    if watch:
        weakref.finalize(graph, _forget, id(graph))
    return entry


#: Attempts at scattering a graph while workers come and go (a worker that dies during the
#: broadcast closes its connection: distributed's CommClosedError, an OSError).
_SCATTER_ATTEMPTS = 5


def _scatter(client: Any, data: Any) -> Any:
    """``client.scatter(data)`` to every worker, retried while workers restart."""
    for attempt in range(_SCATTER_ATTEMPTS):
        try:
            return client.scatter(data, broadcast=True, hash=False)
        except OSError:
            if attempt == _SCATTER_ATTEMPTS - 1:
                raise
            time.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def _edge_slice(graph: TemporalGraph, lo: int, hi: int) -> TemporalGraph:
    """Worker side: the edge slice of a time partition (see ``TemporalGraph.edge_slice``)."""
    return graph.edge_slice(lo, hi)


class _Inputs:
    """The futures a query's tasks read: graph, static plan, time-partition slices."""

    def __init__(self, client: Any, graph: Any, plan: StaticPlan | None = None) -> None:
        self.client = client
        self._graph = graph
        self._plan = plan
        self._used: set[tuple[int, int]] = set()
        self._ship(refresh=False)

    def _ship(self, refresh: bool) -> None:
        self.entry = _shipped_graph(self.client, self._graph, refresh)
        self.graph = self.entry.future
        self.plan = None
        if self._plan is not None:
            self.plan = _scatter(self.client, _shippable(self._plan))

    def reship(self) -> None:
        """Scatter the graph and plan again (their last copies died with a worker)."""
        self._ship(refresh=True)

    def slice(self, lo: int, hi: int, m: int) -> Any:
        """The future of edge ids ``[lo, hi)`` (the graph itself when that is every edge)."""
        if lo == 0 and hi == m:
            return self.graph
        self._used.add((lo, hi))
        with _LOCK:
            fut = self.entry.slices.get((lo, hi))
            if fut is None or fut.status in ("cancelled", "error"):
                fut = self.client.submit(
                    _edge_slice,
                    self.graph,
                    lo,
                    hi,
                    key=f"nx_gpumine-slice-{uuid.uuid4().hex}",
                )
                self.entry.slices[(lo, hi)] = fut
        return fut

    def keep_only_used_slices(self) -> None:
        """Cache only this query's slices (a later query with the same window reuses them)."""
        with _LOCK:
            self.entry.slices = {k: v for k, v in self.entry.slices.items() if k in self._used}


# ====================================================================== queries
_ACTIVE: set[_Query] = set()


class _Query:
    """The tasks of one query: submitted together, collected as they finish, resubmitted when
    their inputs were lost, cancelled together.

    Parameters
    ----------
    client : distributed.Client
        Where the tasks run.
    name : str
        Task key prefix (what the dashboard shows).
    n : int
        Number of tasks.
    submit : callable
        ``submit(i, key) -> Future`` submits task ``i`` under ``key``.
    reship : callable
        Re-sends the scattered inputs; called once per loss.
    """

    def __init__(
        self,
        client: Any,
        name: str,
        n: int,
        submit: Callable[[int, str], Any],
        reship: Callable[[], None],
    ) -> None:
        self.client = client
        self.prefix = f"nx_gpumine-{name}-{uuid.uuid4().hex[:12]}"
        self.n = n
        self._submit = submit
        self._reship = reship
        self._lock = threading.Lock()
        self.futures: dict[int, Any] = {}
        self._made: list[Any] = []  # every future submitted, reruns' superseded ones included
        self._generation: dict[str, int] = {}  # task key -> inputs generation it read
        self.generation = 0
        self.cancelled = False
        self._pending: Any = None  # the as_completed iterator of results()

    def __enter__(self) -> _Query:
        with _LOCK:
            _ACTIVE.add(self)
        with self._lock:
            for i in range(self.n):
                self._add(i)
        return self

    def __exit__(self, *exc: object) -> None:
        with _LOCK:
            _ACTIVE.discard(self)
        with self._lock:
            # every future this query made: those not collected (queued, running or done) and
            # those a rerun superseded, whose inputs died with their workers; such a future
            # may never finish, and Dask's as_completed keeps waiting on it (and holding its
            # key on the scheduler) until it is cancelled
            made = self._made
            self._made = []
            self.futures.clear()
            if self._pending is not None:
                self._pending.clear()
        if made:
            self.client.cancel(made)

    def _add(self, i: int) -> Any:
        key = f"{self.prefix}-{i}" + (f"-r{self.generation}" if self.generation else "")
        fut = self._submit(i, key)
        self.futures[i] = fut
        self._made.append(fut)
        self._generation[fut.key] = self.generation
        return fut

    def cancel(self) -> None:
        """Cancel every task (from any thread); the collecting call raises CancelledError."""
        with self._lock:
            self.cancelled = True
            futures = list(self.futures.values())
        self.client.cancel(futures)

    def show_progress(self, wait: bool) -> None:
        """Dask's progress bar: a widget in a notebook; in a terminal, drawn until every task
        is done when ``wait`` (else none: the dashboard shows the tasks)."""
        from distributed import progress
        from distributed.utils import is_kernel

        futures = list(self.futures.values())
        where = {"scheduler": self.client.scheduler.address}
        if is_kernel():
            bar = progress(futures, multi=False, notebook=True, **where)
            from IPython.display import display

            display(bar)
        elif wait:
            progress(futures, multi=False, notebook=False, **where)

    def results(self) -> Iterator[tuple[int, Any]]:
        """Yield ``(task index, result)`` as tasks finish, each task once."""
        from distributed import as_completed

        with self._lock:
            index = {f.key: i for i, f in self.futures.items()}
            pending = as_completed(list(self.futures.values()), loop=self.client.loop)
            self._pending = pending
        for fut in pending:
            i = index.pop(fut.key, None)
            if i is None:
                continue
            if fut.status == "finished":
                try:
                    value = fut.result()
                except CancelledError:  # its result was lost with its inputs meanwhile
                    self._rerun(i, fut, index, pending)
                    continue
                with self._lock:
                    self.futures.pop(i, None)
                yield i, value
            elif fut.status == "cancelled":
                self._rerun(i, fut, index, pending)
            else:
                fut.result()  # re-raises the task's exception, with the worker's traceback
                raise RuntimeError(f"task {fut.key} ended with status {fut.status!r}")

    def _rerun(self, i: int, fut: Any, index: dict, pending: Any) -> None:
        """Task ``i`` was cancelled: by :meth:`cancel`, or by Dask when its inputs were lost."""
        with self._lock:
            if self.cancelled:
                raise CancelledError(f"query {self.prefix} was cancelled")
            if self._generation.get(fut.key) == self.generation:
                if self.generation >= MAX_RESHIPS:
                    raise EngineUnavailableError(
                        f"query {self.prefix}: the workers holding its graph died "
                        f"{MAX_RESHIPS + 1} times; giving up"
                    )
                self.generation += 1
                self._reship()
            new = self._add(i)
        index[new.key] = i
        pending.add(new)


def cancel_queries(client: Any = None) -> int:
    """Cancel the Dask queries running in this process (on ``client``, or on every client).

    The calls running them raise :class:`concurrent.futures.CancelledError`; their tasks are
    cancelled on the cluster (an engine call already running on a worker finishes first, its
    result is dropped).

    Returns
    -------
    int
        Number of queries cancelled.
    """
    with _LOCK:
        queries = [q for q in _ACTIVE if client is None or q.client is client]
    for q in queries:
        q.cancel()
    return len(queries)


# ====================================================================== worker side
_ENGINE_LOCK = threading.Lock()  # one engine call at a time per worker process


def _static_unit(
    graph: StaticGraph,
    plan: StaticPlan,
    mode: str,
    lo: int,
    hi: int,
    engine: str,
    limit: int | None,
) -> Any:
    eng = select_engine(engine, "static", plan)
    if plan.k < STATIC_MIN_K:  # a 2-node plan's range: no engine
        return small_plan_result(graph, plan, mode, limit, lo, hi)
    with _ENGINE_LOCK:
        if mode == "count":
            return int(eng.count(graph, plan, lo, hi))
        if mode == "exists":
            return bool(eng.exists(graph, plan, lo, hi))
        return np.asarray(eng.enumerate_matches(graph, plan, lo, hi, limit=limit), np.int64)


def _static_frame_unit(
    graph: StaticGraph, plan: StaticPlan, lo: int, hi: int, engine: str, meta: Any
) -> Any:
    ids = _static_unit(graph, plan, "enumerate", lo, hi, engine, None)
    return matches_to_frame(graph, plan.pattern, ids, "pandas") if len(ids) else meta


def _temporal_unit(
    sub: TemporalGraph,
    motif: TemporalMotif,
    mode: str,
    nroots: int,
    shift: int,
    engine: str,
    limit: int | None,
) -> Any:
    plan = build_temporal_plan(motif, sub)
    eng = select_engine(engine, "temporal", plan)
    with _ENGINE_LOCK:
        if mode == "count":
            return int(eng.count(sub, plan, 0, nroots))
        if mode == "exists":
            return bool(eng.exists(sub, plan, 0, nroots))
        ids = eng.enumerate_matches(sub, plan, 0, nroots, limit=limit)
    return np.asarray(ids, np.int64) + shift


def _temporal_frame_unit(
    sub: TemporalGraph, motif: TemporalMotif, nroots: int, engine: str, meta: Any
) -> Any:
    import pandas as pd

    ids = _temporal_unit(sub, motif, "enumerate", nroots, 0, engine, None)
    return pd.DataFrame(match_columns(sub, motif, ids)) if len(ids) else meta


def _census_unit(sub: TemporalGraph, delta: Any, tie: str, nroots: int, engine: str) -> np.ndarray:
    fn = census_function(engine)
    with _ENGINE_LOCK:
        return np.asarray(fn(sub, delta, tie, 0, nroots), dtype=np.int64)


# ====================================================================== combining
def _run(
    query: _Query, mode: str, limit: int | None, width: int, progress: bool
) -> int | bool | np.ndarray:
    """Combine the tasks' results of ``mode`` exactly (see the module docstring)."""
    if progress:
        query.show_progress(wait=mode == "count" or (mode == "enumerate" and limit is None))
    if mode == "count":
        total = 0
        for _, value in query.results():
            total += int(value)
            checked_total(total)
        return total
    if mode == "exists":
        return any(bool(value) for _, value in query.results())
    blocks: list[np.ndarray | None] = [None] * query.n
    done = 0  # blocks[:done] are all in
    got = 0  # rows in blocks[:done]
    for i, value in query.results():
        blocks[i] = value
        while done < query.n and blocks[done] is not None:
            got += len(blocks[done])
            done += 1
        if limit is not None and got >= limit:
            break
    out = [b for b in blocks[:done] if b is not None and len(b)]
    ids = np.concatenate(out) if out else np.empty((0, width), np.int64)
    return ids if limit is None else ids[:limit]


# ====================================================================== static
def _static_tasks(graph: StaticGraph, plan: StaticPlan, client: Any, ntasks: int | None) -> list:
    return split_root_range(graph, _default_units(client, ntasks), root_ok=plan.root_ok)


def run_static_dask(
    graph: StaticGraph,
    plan: StaticPlan,
    mode: str,
    *,
    client: Any = None,
    engine: str = "dask",
    limit: int | None = None,
    progress: bool = False,
    ntasks: int | None = None,
) -> int | bool | np.ndarray:
    """Execute a static plan on a Dask cluster, one root-edge range per task.

    Parameters
    ----------
    graph, plan, mode, limit
        As in :func:`nx_gpumine.execution.static.run_static`.
    client : distributed.Client, optional
        Default: the current client (:func:`get_client`).
    engine : {"dask", "auto", "cpu", "cuda"}
        Engine on each worker (``"dask"`` = ``"auto"``, chosen on the worker).
    progress : bool
        Dask's progress bar (see :meth:`_Query.show_progress`).
    ntasks : int, optional
        Number of root-edge ranges (default ``tasks_per_thread`` x the cluster's threads).

    Returns
    -------
    int, bool or numpy.ndarray
        Exactly what ``run_static`` returns, rows in the same order.

    Raises
    ------
    CapacityError
        The count overflows 64 bits.
    EngineUnavailableError
        No Dask client, or a worker cannot run ``engine`` (raised from the worker).
    """
    check_query(mode, limit)
    client = get_client(client)
    name = worker_engine(engine)
    if plan.k == 1:
        return small_plan_result(graph, plan, mode, limit)
    if plan.impossible or (mode == "enumerate" and limit == 0):
        return no_matches(mode, plan.k)
    tasks = _static_tasks(graph, plan, client, ntasks)
    if not tasks:
        return no_matches(mode, plan.k)
    inputs = _Inputs(client, graph, plan)

    def submit(i: int, key: str) -> Any:
        lo, hi = tasks[i]
        return client.submit(
            _static_unit, inputs.graph, inputs.plan, mode, lo, hi, name, limit, key=key
        )

    with _Query(client, f"static-{mode}", len(tasks), submit, inputs.reship) as query:
        return _run(query, mode, limit, plan.k, progress)


def iter_static_blocks_dask(
    graph: StaticGraph,
    plan: StaticPlan,
    *,
    client: Any = None,
    engine: str = "dask",
    ntasks: int | None = None,
) -> Iterator[np.ndarray]:
    """Yield match blocks in root order as the cluster finishes them (non-empty ones).

    Closing the iterator early cancels the tasks not yet done. Parameters as
    :func:`run_static_dask`.
    """
    client = get_client(client)
    name = worker_engine(engine)
    if plan.k == 1:
        yield small_plan_result(graph, plan, "enumerate")
        return
    if plan.impossible:
        return
    tasks = _static_tasks(graph, plan, client, ntasks)
    if not tasks:
        return
    inputs = _Inputs(client, graph, plan)

    def submit(i: int, key: str) -> Any:
        lo, hi = tasks[i]
        return client.submit(
            _static_unit, inputs.graph, inputs.plan, "enumerate", lo, hi, name, None, key=key
        )

    with _Query(client, "static-iter", len(tasks), submit, inputs.reship) as query:
        ready: dict[int, np.ndarray] = {}
        nxt = 0
        for i, block in query.results():
            ready[i] = block
            while nxt in ready:
                block = ready.pop(nxt)
                nxt += 1
                if len(block):
                    yield block


def static_frame_dask(
    graph: StaticGraph,
    plan: StaticPlan,
    *,
    client: Any = None,
    engine: str = "dask",
    limit: int | None = None,
    ntasks: int | None = None,
) -> Any:
    """The matches as a dask DataFrame: one pandas partition per root-edge range.

    Without ``limit`` the frame is lazy: its partitions are enumerated on the workers when it
    is computed (``.compute()``, ``.to_parquet(...)``...), never gathered here first. With
    ``limit`` the first ``limit`` matches (root order) are found as in :func:`run_static_dask`
    and returned as a one-partition frame. Columns as
    :func:`nx_gpumine.results.static.matches_to_frame` (one per pattern node, node keys).
    """
    import dask
    import dask.dataframe as dd

    client = get_client(client)
    name = worker_engine(engine)
    pattern = plan.pattern
    meta = matches_to_frame(graph, pattern, np.empty((0, plan.k), np.int64), "pandas")
    if limit is not None or plan.k == 1 or plan.impossible:
        ids = run_static_dask(
            graph, plan, "enumerate", client=client, engine=engine, limit=limit, ntasks=ntasks
        )
        frame = matches_to_frame(graph, pattern, ids, "pandas") if len(ids) else meta
        return dd.from_pandas(frame, npartitions=1)
    tasks = _static_tasks(graph, plan, client, ntasks)
    if not tasks:
        return dd.from_pandas(meta, npartitions=1)
    inputs = _Inputs(client, graph, plan)
    token = uuid.uuid4().hex[:12]
    parts = [
        dask.delayed(_static_frame_unit, pure=False)(
            inputs.graph,
            inputs.plan,
            lo,
            hi,
            name,
            meta,
            dask_key_name=f"nx_gpumine-static-frame-{token}-{i}",
        )
        for i, (lo, hi) in enumerate(tasks)
    ]
    return dd.from_delayed(parts, meta=meta, verify_meta=False)


# ====================================================================== temporal
def _partitions(graph: TemporalGraph, plan: TemporalPlan, client: Any, nparts: int | None):
    return time_partitions(graph, plan, _default_units(client, nparts))


def run_temporal_dask(
    graph: TemporalGraph,
    plan: TemporalPlan,
    mode: str,
    *,
    client: Any = None,
    engine: str = "dask",
    limit: int | None = None,
    progress: bool = False,
    nparts: int | None = None,
) -> int | bool | np.ndarray:
    """Execute a temporal plan on a Dask cluster, one time partition per task.

    Each task reads only its partition's edge slice (major partition + the minor overlap of
    the motif's time reach), cut on a worker from the graph there, and rebuilds the plan for
    it from ``plan.motif``, as :func:`~nx_gpumine.execution.temporal.run_temporal_partitioned`
    does.

    Parameters
    ----------
    graph, plan, mode, limit
        As in :func:`nx_gpumine.execution.temporal.run_temporal`.
    client, engine, progress
        As in :func:`run_static_dask`.
    nparts : int, optional
        Number of time partitions (default ``tasks_per_thread`` x the cluster's threads).

    Returns
    -------
    int, bool or numpy.ndarray
        Exactly what ``run_temporal`` returns (edge ids), rows in the same order.
    """
    check_query(mode, limit)
    client = get_client(client)
    name = worker_engine(engine)
    if plan.impossible or (mode == "enumerate" and limit == 0):
        return no_matches(mode, plan.l)
    parts = _partitions(graph, plan, client, nparts)
    if not parts:
        return no_matches(mode, plan.l)
    inputs = _Inputs(client, graph)

    def submit(i: int, key: str) -> Any:
        p = parts[i]
        data = inputs.slice(p.edge_lo, p.edge_hi, graph.m)
        nroots = p.root_hi - p.edge_lo
        return client.submit(
            _temporal_unit, data, plan.motif, mode, nroots, p.edge_lo, name, limit, key=key
        )

    try:
        with _Query(client, f"temporal-{mode}", len(parts), submit, inputs.reship) as query:
            return _run(query, mode, limit, plan.l, progress)
    finally:
        inputs.keep_only_used_slices()


def temporal_frame_dask(
    graph: TemporalGraph,
    plan: TemporalPlan,
    *,
    client: Any = None,
    engine: str = "dask",
    limit: int | None = None,
    nparts: int | None = None,
) -> Any:
    """The matches as a dask DataFrame: one pandas partition per time partition.

    Columns as ``find_motifs(..., output="frame")`` (``edge_i`` input rows, ``time_i``,
    ``node_a`` keys: :func:`nx_gpumine.results.temporal.match_columns`). Lazy without
    ``limit``; with it, one partition of the first ``limit`` matches (see
    :func:`static_frame_dask`).
    """
    import dask
    import dask.dataframe as dd
    import pandas as pd

    client = get_client(client)
    name = worker_engine(engine)
    motif = plan.motif
    sample = np.zeros((1 if graph.m else 0, plan.l), np.int64)
    meta = pd.DataFrame(match_columns(graph, motif, sample)).iloc[:0]
    if limit is not None or plan.impossible:
        ids = run_temporal_dask(
            graph, plan, "enumerate", client=client, engine=engine, limit=limit, nparts=nparts
        )
        frame = pd.DataFrame(match_columns(graph, motif, ids)) if len(ids) else meta
        return dd.from_pandas(frame, npartitions=1)
    parts = _partitions(graph, plan, client, nparts)
    if not parts:
        return dd.from_pandas(meta, npartitions=1)
    inputs = _Inputs(client, graph)
    token = uuid.uuid4().hex[:12]
    frames = [
        dask.delayed(_temporal_frame_unit, pure=False)(
            inputs.slice(p.edge_lo, p.edge_hi, graph.m),
            motif,
            p.root_hi - p.edge_lo,
            name,
            meta,
            dask_key_name=f"nx_gpumine-temporal-frame-{token}-{i}",
        )
        for i, p in enumerate(parts)
    ]
    return dd.from_delayed(frames, meta=meta, verify_meta=False)


def run_census_dask(
    graph: TemporalGraph,
    delta: float | int | None,
    tie: str = "strict",
    *,
    client: Any = None,
    engine: str = "dask",
    progress: bool = False,
    nparts: int | None = None,
) -> np.ndarray:
    """The 36 three-edge motif counts (``CENSUS_KEYS`` order) on a Dask cluster.

    Time partitions as for any three-edge motif with window ``delta`` (the census reads no
    edge later than ``delta`` after its root); each task counts its roots on its slice, and
    the 36 counts are summed exactly (64-bit overflow raises
    :class:`~nx_gpumine.errors.CapacityError`). Other parameters as :func:`run_temporal_dask`.

    Returns
    -------
    numpy.ndarray
        int64, shape (36,): equal to ``run_census``'s.
    """
    delta = census_window(graph, delta, tie)
    client = get_client(client)
    name = worker_engine(engine)
    reach = build_temporal_plan(TemporalMotif([(0, 1), (1, 2), (2, 0)], delta=delta), graph)
    parts = _partitions(graph, reach, client, nparts)
    if not parts:
        return np.zeros(36, dtype=np.int64)
    inputs = _Inputs(client, graph)

    def submit(i: int, key: str) -> Any:
        p = parts[i]
        data = inputs.slice(p.edge_lo, p.edge_hi, graph.m)
        return client.submit(_census_unit, data, delta, tie, p.root_hi - p.edge_lo, name, key=key)

    try:
        with _Query(client, "census", len(parts), submit, inputs.reship) as query:
            if progress:
                query.show_progress(wait=True)
            return _sum_census(counts for _, counts in query.results())
    finally:
        inputs.keep_only_used_slices()


def _sum_census(parts: Iterable[np.ndarray]) -> np.ndarray:
    """Sum per-partition censuses exactly; a total past 64 bits raises CapacityError."""
    totals = [0] * 36
    for counts in parts:
        for j, c in enumerate(np.asarray(counts).tolist()):
            totals[j] += int(c)
    checked_total(max(totals), "census count")
    return np.array(totals, dtype=np.int64)
