"""Static patterns: the entry points that build a :class:`~.jobs.static.StaticJob` and run it.

:func:`run_static` lets :func:`~nx_gpumine.execution.runner.run_job` pick the executor (this
process, several devices, Dask); a caller that names one builds the job
(``StaticJob.of(graph, plan, mode, limit)``) and hands it to that executor's one entry
(:func:`~nx_gpumine.execution.runner.run_on_devices`,
:func:`nx_gpumine.execution.executors.dask.run_job` / ``iter_blocks`` / ``frame``), as for any
query kind.

What execution decides before any engine runs, on every route: a count of a mapping plan with
a :func:`~nx_gpumine.plan.static_plan.distinct_sibling` counts the sibling and multiplies by
``|Aut(P)|`` (:func:`count_mappings`); 1- and 2-node plans are answered by
:func:`~nx_gpumine.execution.jobs.static.small_plan_result`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..engines import resolve_engine_name, select_engine
from ..engines.checks import checked_total
from ..engines.contract import optional_hook
from ..inputs.label_groups import label_grouped
from ..inputs.search_order import search_ordered
from ..inputs.static_graph import StaticGraph
from ..plan.static_plan import StaticPlan, distinct_sibling, static_plan
from .executors import dask, local
from .executors.devices import resolve_devices
from .jobs.static import StaticJob, closed_form_count, small_plan_result
from .merge import MODES, check_query
from .runner import run_job

__all__ = [
    "run_static",
    "count_mappings",
    "small_plan_result",
    "iter_static_blocks",
    "static_frame_dask",
    "MODES",
]


def run_static(
    graph: StaticGraph,
    plan: StaticPlan,
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
    graph : StaticGraph
        The data graph the plan was built for.
    plan : StaticPlan
        The plan.
    mode : {"count", "enumerate", "exists"}
        What to compute.
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine (see :func:`nx_gpumine.engines.select_engine`); ``"dask"`` (or a ``client``)
        runs root-edge tasks on a Dask cluster
        (:func:`nx_gpumine.execution.executors.dask.run_job`).
    limit : int, optional
        For ``"enumerate"``: stop after this many matches.
    progress : bool
        Show a tqdm progress bar (if tqdm is installed) over root-edge tasks (Dask: Dask's own
        bar).
    client : distributed.Client, optional
        Run on this Dask client's workers, with ``engine`` on each worker.
    devices : int, list of int or "all", optional
        GPUs of this host to split the work over (see
        :func:`nx_gpumine.execution.executors.devices.resolve_devices`); None: the current
        device (or the ``NX_GPUMINE_DEVICES`` default).

    Returns
    -------
    int, bool or numpy.ndarray
        The count, the existence flag, or an ``(n, k)`` int64 array of dense ids (columns in
        pattern-node order).

    Raises
    ------
    CapacityError
        If a count exceeds 2**128 - 1.
    """
    check_query(mode, limit)
    if mode == "count" and client is None and engine != "dask":
        # a bad or unavailable engine, or devices= it cannot use, is refused all the same
        resolve_engine_name(engine)
        resolve_devices(devices, engine)
        known = closed_form_count(graph, plan)  # a formula (stars, cliques) needs no engine
        if known is not None:
            return checked_total(known, "closed-form count")
    resolved: dict = {}  # the engine, if the search copy resolves it: once for the call
    graph, plan = on_search_copy(graph, plan, mode, engine, client, resolved=resolved)
    module = resolved.get("module")
    sibling = distinct_sibling(plan, graph) if mode == "count" else None
    if sibling is not None:  # the mappings of plan = the sibling's count x |Aut(P)|
        return count_mappings(
            graph, sibling, engine=engine, progress=progress, client=client, devices=devices
        )
    job = StaticJob.of(graph, plan, mode, limit)
    return run_job(
        job, engine, client=client, devices_arg=devices, progress=progress, module=module
    )


#: The vertex order counts and existence tests of the CPU and CUDA engines search in:
#: ``"degree"`` (ids ascending by degree, :func:`~nx_gpumine.inputs.search_order.search_ordered`)
#: for unlabelled plans with symmetry conditions whose engine does not prefer the graph's ids
#: (its hook ``search_order``), ``"id"`` (the graph's own ids) always; labelled patterns run on
#: the label-grouped copy either way. Both give the same results; the switch is there to
#: measure one against the other (``BENCH_SEARCH_ORDER`` in the benchmarks).
SEARCH_ORDER = "degree"


def on_search_copy(
    graph: StaticGraph, plan: StaticPlan, mode: str, engine: str, client: Any = None,
    *, resolved: dict | None = None,
) -> tuple[StaticGraph, StaticPlan]:  # fmt: skip
    """Where a count or existence test runs: on a renumbered copy of the graph (built once and
    kept with it) with the plan rebuilt for it, or on the graph itself.

    * A plan with symmetry conditions (a candidate's id above an earlier level's) runs on the
      copy whose ids ascend with degree (:func:`~nx_gpumine.inputs.search_order.search_ordered`,
      :data:`SEARCH_ORDER`): the part of a neighbour list above an id then holds the
      neighbours of higher degree only, so a hub's list is cut short. An engine may keep a
      plan on the graph's ids (its optional hook ``search_order``: the CUDA engine's trie,
      whose work the order changes query by query).
    * A plan with node labels runs on a copy whose vertices are grouped by label
      (:func:`~nx_gpumine.inputs.label_groups.label_grouped`): both engines walk only the
      level's label part of each list. (Degree order within each label,
      ``search_ordered(graph, by_label=True)``, is there but not yet measured on the
      labelled query sets, so execution does not take it.)

    The copy is isomorphic to the graph with its labels, so counts and flags are the same;
    listings return vertex ids and stay on the graph, as do Dask jobs and engines other than
    the CPU and CUDA ones. ``resolved``: where the engine module resolved here for ``plan``
    (to ask its hook) is left, under ``"module"``, for the caller to run the job with.
    """
    if (
        mode == "enumerate"
        or client is not None
        or engine == "dask"
        or resolve_engine_name(engine) not in ("cpu", "cuda")
    ):
        return graph, plan
    labelled = graph.node_label is not None and bool((np.asarray(plan.node_label) >= 0).any())
    if (
        SEARCH_ORDER == "degree"
        and not labelled  # labelled plans: degree order within labels not yet measured
        and len(plan.sym_level)
        and _engine_order(graph, plan, engine, {} if resolved is None else resolved)
    ):
        copy = search_ordered(graph)
    elif labelled:
        copy = label_grouped(graph)
    else:
        return graph, plan
    if copy is graph:
        return graph, plan
    rebuilt = static_plan(plan.pattern, copy, induced=plan.induced, distinct=plan.distinct)
    return copy, rebuilt


def _engine_order(graph: StaticGraph, plan: StaticPlan, engine: str, resolved: dict) -> bool:
    """Whether the engine that will count ``plan`` wants the degree order (its optional hook
    ``search_order``; without one, yes). The engine is left in ``resolved["module"]``."""
    module = resolved["module"] = select_engine(engine, "static", plan)
    hook = optional_hook(module, "search_order")
    return hook is None or hook(graph, plan) == "degree"


def count_mappings(
    graph: StaticGraph,
    plan: StaticPlan,
    *,
    engine: str = "auto",
    progress: bool = False,
    client: Any = None,
    devices: Any = None,
) -> int:
    """The number of mappings of ``plan``'s pattern in ``graph`` (NetworkX's number).

    ``plan`` is the pattern's mapping plan or its distinct plan (``distinct=True``, the plan
    ``count_subgraphs`` builds for both kinds). A distinct plan's count, or that of the mapping
    plan's :func:`~nx_gpumine.plan.static_plan.distinct_sibling` where the plan layer gives one,
    is multiplied by ``|Aut(P)|`` (exact: ``Aut(P)`` acts freely on the mappings), under the
    count rule of :mod:`nx_gpumine.engines.checks`; a mapping plan without a sibling is counted
    as it is. The only place execution turns distinct counts into mappings.

    Parameters
    ----------
    graph, plan
        The data graph and a plan built for it.
    engine, progress, client, devices
        As in :func:`run_static`.

    Returns
    -------
    int

    Raises
    ------
    CapacityError
        The mapping count exceeds ``2**128 - 1``.
    """
    counted = plan if plan.distinct else distinct_sibling(plan, graph)
    run = dict(engine=engine, progress=progress, client=client, devices=devices)
    if counted is None:
        return int(run_static(graph, plan, "count", **run))
    distinct = int(run_static(graph, counted, "count", **run))
    aut = int(counted.num_automorphisms)
    return checked_total(
        distinct * aut, f"mapping count ({distinct} subgraphs x {aut} automorphisms)"
    )


def iter_static_blocks(
    graph: StaticGraph,
    plan: StaticPlan,
    engine: str = "auto",
    ntasks: int = 256,
    client: Any = None,
) -> Iterator[np.ndarray]:
    """Lazily yield match blocks (``(n, k)`` dense ids), one root-edge task at a time.

    Stopping the iteration early skips the remaining tasks. Engines with pausable
    enumeration (``iter_matches``: the CPU engine) are lazy per block of matches, even inside
    one root edge; with others, a task whose matches need more than
    :data:`~nx_gpumine.execution.jobs.static.LAZY_BYTES` is listed by the CPU engine's
    ``iter_matches`` (:meth:`StaticJob.task_blocks`). ``engine="dask"`` (or a ``client``): the
    tasks run on a Dask cluster and blocks come back in the same order
    (:func:`nx_gpumine.execution.executors.dask.iter_blocks`).
    """
    job = StaticJob.of(graph, plan, "enumerate")
    if client is not None or engine == "dask":
        yield from dask.iter_blocks(job, client=client, engine=engine)
        return
    eng = job.engine(engine)
    # small graphs: one task (each task costs an engine launch)
    yield from local.iter_blocks(job, eng, max(1, min(ntasks, len(graph.indices) // 2048)))


def static_frame_dask(
    graph: StaticGraph,
    plan: StaticPlan,
    *,
    client: Any = None,
    engine: str = "dask",
    limit: int | None = None,
    ntasks: int | None = None,
) -> Any:
    """The matches as a dask DataFrame: one pandas partition per root-edge range, lazy
    without ``limit`` (:func:`nx_gpumine.execution.executors.dask.frame`). Columns as
    :func:`nx_gpumine.results.static.matches_to_frame` (one per pattern node, node keys)."""
    job = StaticJob.of(graph, plan, "enumerate", limit)
    return dask.frame(job, client=client, engine=engine, ntasks=ntasks)
