"""A Dask cluster (``dask.distributed``) of CPU or GPU workers: run any job there, exactly.

Nothing here schedules: a job's tasks (``job.tasks(n, sliced=True)``: root-edge ranges, time
partitions) go to Dask as ordinary tasks, and Dask places them, moves data, reruns what a dead
worker held and shows progress (its bar and dashboard).

Data: the graph is scattered once per graph and client, replicated on every worker, and kept
while the graph object lives (later queries on it send nothing but their plan); what the job
asks to scatter per query (:meth:`Job.shipped`: a static plan, whose root mask is one byte per
CSR entry) is scattered once per query, replicated; the edge slices tasks read
(:meth:`Job.input_key`) are tasks computed on the workers from the graph, so Dask recomputes
one that is lost. Each task carries the job without its graph and plan.

Each worker runs the engine module the job selects there (``"auto"``: CUDA on a worker that
sees a GPU, the CPU engine otherwise), one engine call at a time per worker process (each call
is parallel inside: numba threads or a whole GPU).

Results are those of the single-process engines, bit for bit: the tasks' results go through
the one :class:`~nx_gpumine.execution.merge.Merge` as they finish (counts refused past 64 bits,
censuses summed exactly, matches in task order, ``limit`` honoured across workers: tasks past
the first ``limit`` matches are cancelled; ``exists`` stops at the first task that finds one).

Faults: Dask reruns the tasks of a worker that dies. If a scattered input (graph or plan) lost
its last copy with it, the query scatters it again and resubmits the tasks Dask cancelled (at
most :data:`MAX_RESHIPS` times). A call that is interrupted (``KeyboardInterrupt``) or fails
cancels all its tasks; :func:`cancel_queries` cancels running queries from another thread (they
raise :class:`concurrent.futures.CancelledError`). Cancelling reaches the tasks already running
on the workers too (Dask itself only drops their results): each task watches its own state on
its worker (:func:`task_cancelled`), leaves the queue for the engine lock at once, and stops a
running CPU engine call within a fraction of a second, so the next query on the client does
not wait for the cancelled one's engine calls to finish.

Tuning (Dask config): ``nx_gpumine.tasks_per_thread`` (default :data:`TASKS_PER_THREAD`) tasks
per worker thread of the cluster.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from typing import Any

import numpy as np

from ...engines import ENGINE_NAMES
from ...errors import EngineUnavailableError, QueryError
from ...inputs.graph_base import GraphBase
from ..jobs.base import Job, cut_input
from ..merge import Merge

__all__ = [
    "get_client",
    "worker_engine",
    "run_job",
    "iter_blocks",
    "frame",
    "cancel_queries",
    "task_cancelled",
    "TASKS_PER_THREAD",
    "MAX_RESHIPS",
    "LOCK_POLL",
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
_DEAD: list[int] = []  # ids of graphs collected since the last look (:func:`_forget`)


def _stamp(graph: Any) -> tuple:
    """Identity of the graph's public fields (a replaced array or label map re-sends it)."""
    return tuple(
        (f.name, id(getattr(graph, f.name)))
        for f in dataclasses.fields(graph)
        if not f.name.startswith("_")
    )


def _forget(graph_id: int) -> None:
    """A shipped graph's finalizer: note its id, whose entries go at the next look
    (:func:`_drop_dead`). It takes no lock: the collector may run it inside a ``with _LOCK``
    block of this very thread (a ``client.submit`` that allocates), where waiting for the
    lock hung the query for good (a CI run of test_dask's property test)."""
    _DEAD.append(graph_id)  # atomic under the GIL


def _drop_dead() -> None:
    """Drop the entries of the graphs collected since the last look (the caller holds
    ``_LOCK``), before an id is looked up: a new graph may reuse a dead one's id."""
    while _DEAD:
        graph_id = _DEAD.pop()
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
        _drop_dead()
        entry = _SHIPPED.get(key)
    if entry is not None and not refresh and entry.stamp == stamp:
        if entry.future.status == "finished":
            return entry
    future = _scatter(client, _shippable(graph))
    entry = _Shipped(stamp, future)
    with _LOCK:
        _drop_dead()
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


class _Inputs:
    """The futures a query's tasks read: graph, what the job scatters per query, slices."""

    def __init__(self, client: Any, graph: Any, plan: Any = None) -> None:
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

    def input(self, key: tuple[int, int] | None) -> Any:
        """The future of a task's input: the graph (``key`` None), or its edge ids
        ``[lo, hi)`` cut on a worker (:func:`~nx_gpumine.execution.jobs.base.cut_input`)."""
        if key is None:
            return self.graph
        self._used.add(key)
        with _LOCK:
            fut = self.entry.slices.get(key)
            if fut is None or fut.status in ("cancelled", "error"):
                fut = self.client.submit(
                    cut_input, self.graph, key, key=f"nx_gpumine-slice-{uuid.uuid4().hex}"
                )
                self.entry.slices[key] = fut
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
        try:
            with self._lock:
                for i in range(self.n):
                    self._add(i)
        except BaseException:  # Ctrl-C while submitting: cancel what was submitted
            self.__exit__()
            raise
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
#: Seconds between two looks at the task's state while it waits for the engine lock.
LOCK_POLL = 0.05


def _worker_job(job: Job, plan: Any) -> Job:
    return job if plan is None else job.with_plan(plan)


def task_cancelled() -> Callable[[], bool] | None:
    """A test of whether the Dask task running in this thread was cancelled, or None outside a
    Dask task.

    A running task that its client cancels (a ``KeyboardInterrupt`` or an error in the query
    that submitted it, :func:`cancel_queries`) keeps running on its worker: Dask cannot stop a
    thread. Its state on the worker becomes ``"cancelled"`` (or it leaves the worker's task
    table), which the test reads (safe from any thread).

    Returns
    -------
    callable or None
        ``cancelled()`` -> bool.
    """
    try:
        from distributed import get_worker
        from distributed.worker import thread_state

        worker = get_worker()
        key = thread_state.key
        tasks = worker.state.tasks
    except (ImportError, ValueError, AttributeError):
        return None

    def cancelled() -> bool:
        ts = tasks.get(key)
        return ts is None or ts.state == "cancelled"

    return cancelled


@contextlib.contextmanager
def _engine_turn() -> Iterator[None]:
    """This worker process's one engine call at a time, given up when the task is cancelled.

    The task waits for the engine lock while looking at its state every :data:`LOCK_POLL`
    seconds, and its engine call runs under :func:`~nx_gpumine.engines.cpu.calls.cancel_when`:
    a cancelled task leaves the queue at once and a running CPU kernel stops within
    :data:`~nx_gpumine.engines.cpu.calls.CANCEL_POLL` seconds plus one poll of its stop flag,
    so the tasks of a cancelled query free the workers for the next query instead of running
    to their end.

    Raises
    ------
    concurrent.futures.CancelledError
        The task was cancelled (its result is dropped by Dask anyway).
    """
    cancelled = task_cancelled()
    if cancelled is None:
        with _ENGINE_LOCK:
            yield
        return
    from ...engines.cpu.calls import cancel_when

    while not _ENGINE_LOCK.acquire(timeout=LOCK_POLL):
        if cancelled():
            raise CancelledError("the query of this task was cancelled")
    try:
        if cancelled():
            raise CancelledError("the query of this task was cancelled")
        with cancel_when(cancelled):
            yield
    finally:
        _ENGINE_LOCK.release()


def _run_task(job: Job, data: Any, plan: Any, task: Any, engine: str, left: int | None) -> Any:
    """Worker side: one task of a shipped job on its input (graph or slice)."""
    job = _worker_job(job, plan)
    eng = job.engine(engine, data)
    with _engine_turn():
        return job.run_task(eng, data, task, left)


def _frame_part(job: Job, data: Any, plan: Any, task: Any, engine: str, meta: Any) -> Any:
    """Worker side: one task's matches as a pandas frame."""
    job = _worker_job(job, plan)
    eng = job.engine(engine, data)
    with _engine_turn():
        return job.frame_part(eng, data, task, meta)


# ====================================================================== running a job
def _collect(query: Any, merge: Merge) -> Any:
    """Merge the results of ``query`` (``results()``: ``(task, value)`` pairs as they finish)
    until the merge needs no more."""
    for i, value in query.results():
        if merge.add(i, value):
            break
    return merge.result()


class _Run:
    """A job's tasks and inputs on one client: submits tasks of the job, or of its frames."""

    def __init__(self, job: Job, client: Any, engine: str, ntasks: int | None) -> None:
        self.client = get_client(client)
        self.engine = worker_engine(engine)
        self.job = job
        self.ntasks = ntasks
        self.tasks: list = []
        self.keys: list = []  # each task's input (job.input_key)
        self.light: Job | None = None  # the job as each task carries it
        self.inputs: _Inputs | None = None

    def start(self) -> bool:
        """Split the job and ship its inputs; False when there are no tasks."""
        self.tasks = self.job.tasks(_default_units(self.client, self.ntasks), sliced=True)
        if not self.tasks:
            return False
        self.light, heavy = self.job.shipped()
        self.keys = [self.job.input_key(task) for task in self.tasks]
        self.inputs = _Inputs(self.client, self.job.graph, heavy)
        return True

    def submit(self, i: int, key: str) -> Any:
        inputs = self.inputs
        return self.client.submit(
            _run_task,
            self.light,
            inputs.input(self.keys[i]),
            inputs.plan,
            self.tasks[i],
            self.engine,
            self.job.limit,
            key=key,
        )

    def query(self, name: str) -> _Query:
        return _Query(self.client, name, len(self.tasks), self.submit, self.inputs.reship)

    def finish(self) -> None:
        if self.inputs is not None:
            self.inputs.keep_only_used_slices()


def run_job(
    job: Job,
    *,
    client: Any = None,
    engine: str = "dask",
    progress: bool = False,
    ntasks: int | None = None,
) -> Any:
    """Run ``job`` on a Dask cluster, one Dask task per job task.

    Parameters
    ----------
    job : Job
        What to compute (the result is exactly the one-process result, rows in task order).
    client : distributed.Client, optional
        Default: the current client (:func:`get_client`).
    engine : {"dask", "auto", "cpu", "cuda"}
        Engine on each worker (``"dask"`` = ``"auto"``, chosen on the worker).
    progress : bool
        Dask's progress bar (see :meth:`_Query.show_progress`).
    ntasks : int, optional
        Number of tasks (default ``tasks_per_thread`` x the cluster's threads).

    Raises
    ------
    CapacityError
        A count past 64 bits.
    EngineUnavailableError
        No Dask client, or a worker cannot run ``engine`` (raised from the worker).
    """
    run = _Run(job, client, engine, ntasks)
    answer = job.answer()
    if answer is not None:
        return answer
    try:
        if not run.start():
            return Merge(job.mode, 0, job.width, job.limit).result()
        with run.query(job.task_prefix) as query:
            if progress:
                enumerate_all = job.mode == "enumerate" and job.limit is None
                query.show_progress(wait=job.mode in ("count", "census") or enumerate_all)
            return _collect(query, Merge(job.mode, len(run.tasks), job.width, job.limit))
    finally:
        run.finish()


def iter_blocks(
    job: Job, *, client: Any = None, engine: str = "dask", ntasks: int | None = None
) -> Iterator[np.ndarray]:
    """Yield an ``"enumerate"`` job's non-empty match blocks in task order as the cluster
    finishes them. Closing the iterator early cancels the tasks not yet done. Parameters as
    :func:`run_job`."""
    run = _Run(job, client, engine, ntasks)
    answer = job.answer()
    if answer is not None:
        if len(answer):
            yield answer
        return
    try:
        if not run.start():
            return
        with run.query(f"{job.label}-iter") as query:
            ready: dict[int, np.ndarray] = {}
            nxt = 0
            for i, block in query.results():
                ready[i] = block
                while nxt in ready:
                    block = ready.pop(nxt)
                    nxt += 1
                    if len(block):
                        yield block
    finally:
        run.finish()


def frame(job: Job, *, client: Any = None, engine: str = "dask", ntasks: int | None = None) -> Any:
    """An ``"enumerate"`` job's matches as a dask DataFrame: one pandas partition per task.

    Without ``job.limit`` the frame is lazy: its partitions are enumerated on the workers when
    it is computed (``.compute()``, ``.to_parquet(...)``...), never gathered here first. With
    a limit the first ``limit`` matches are found as in :func:`run_job` and returned as a
    one-partition frame. Columns: the job's (:meth:`Job.frame`). Parameters as :func:`run_job`.
    """
    import dask
    import dask.dataframe as dd

    run = _Run(job, client, engine, ntasks)
    meta = job.frame_meta()
    if job.limit is not None or job.answer() is not None:
        ids = run_job(job, client=run.client, engine=engine, ntasks=ntasks)
        part = job.frame(job.graph, ids) if len(ids) else meta
        return dd.from_pandas(part, npartitions=1)
    if not run.start():
        return dd.from_pandas(meta, npartitions=1)
    inputs = run.inputs
    token = uuid.uuid4().hex[:12]
    parts = [
        dask.delayed(_frame_part, pure=False)(
            run.light,
            inputs.input(run.keys[i]),
            inputs.plan,
            task,
            run.engine,
            meta,
            dask_key_name=f"nx_gpumine-{job.label}-frame-{token}-{i}",
        )
        for i, task in enumerate(run.tasks)
    ]
    return dd.from_delayed(parts, meta=meta, verify_meta=False)
