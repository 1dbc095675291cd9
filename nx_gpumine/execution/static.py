"""Run a static plan: pick the engine, split root ranges into tasks, merge, report progress.

The routing, task loop and merge shared with temporal motifs are in :mod:`.runner`; this module
supplies the static parts: what execution answers without an engine (1- and 2-node plans,
:func:`small_plan_result`), the count of mappings through the plan layer's distinct sibling
(:func:`count_mappings`), root-range splits and lazy blocks. Engines get plans of 3+ nodes only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..engines import is_cuda_engine, select_engine
from ..engines.checks import checked_range, checked_total
from ..engines.contract import STATIC_MIN_K, optional_hook
from ..inputs.static_graph import StaticGraph
from ..limits import check_result_rows, memory_budget, result_bytes
from ..plan.static_plan import StaticPlan, distinct_sibling, node_mask, root_mask
from .multigpu import run_static_devices
from .runner import MODES, check_query, dispatch, no_matches, run_local
from .tasks import split_root_range

__all__ = [
    "run_static",
    "run_static_local",
    "count_mappings",
    "small_plan_result",
    "iter_static_blocks",
    "MODES",
]

#: Largest result (bytes, see ``limits.result_bytes``) of one task an iterator lists at once.
LAZY_BYTES = 64 << 20


def small_plan_result(
    graph: StaticGraph,
    plan: StaticPlan,
    mode: str,
    limit: int | None = None,
    lo: int = 0,
    hi: int | None = None,
) -> int | bool | np.ndarray:
    """The answer of a 1- or 2-node plan (``plan.k < STATIC_MIN_K``), read off the plan's masks.

    A 1-node plan matches the vertices passing its filters (:func:`node_mask`; it has no root
    entries, so ``lo`` and ``hi`` are not used); a 2-node plan matches its root edges, the
    union-CSR entries in ``[lo, hi)`` its ``root_ok`` mask admits (every level-0 and level-1
    condition, symmetry included), so no engine is needed. The one implementation for every
    route (this process, several devices, Dask workers).

    Parameters
    ----------
    graph : StaticGraph
        The data graph the plan was built for.
    plan : StaticPlan
        A plan with ``k <= 2``.
    mode : {"count", "enumerate", "exists"}
        What to compute.
    limit : int, optional
        For ``"enumerate"``: at most this many rows (the first ones in root order).
    lo, hi : int
        Root entry range of a 2-node plan (default: all entries).

    Returns
    -------
    int, bool or numpy.ndarray
        As :func:`run_static`; rows in root (entry) order, columns in pattern-node order.
    """
    k = int(plan.k)
    if k >= STATIC_MIN_K:
        raise ValueError(f"small_plan_result answers plans of 1 or 2 nodes, got k = {k}")
    if k == 1:
        mask = node_mask(graph, plan, 0)
        if mode == "count":
            return int(mask.sum())
        if mode == "exists":
            return bool(mask.any())
        ids = np.flatnonzero(mask).astype(np.int64)
        if limit is not None:
            ids = ids[:limit]
        check_result_rows(len(ids), 1)
        return ids.reshape(-1, 1)
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if plan.impossible:
        return no_matches(mode, k)
    ok = np.asarray(plan.root_ok if plan.root_ok is not None else root_mask(graph, plan))[lo:hi]
    if mode == "count":
        return int(np.count_nonzero(ok))
    if mode == "exists":
        return bool(ok.any())
    e = lo + np.flatnonzero(ok)
    if limit is not None:
        e = e[:limit]
    check_result_rows(len(e), k)
    owner = np.searchsorted(graph.indptr, e, side="right") - 1
    out = np.empty((len(e), k), dtype=np.int64)
    out[:, np.asarray(plan.order, dtype=np.int64)] = np.stack(
        [owner, np.asarray(graph.indices[e], dtype=np.int64)], axis=1
    )
    return out


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
        runs root-edge tasks on a Dask cluster, see
        :func:`nx_gpumine.execution.distributed.run_static_dask`.
    limit : int, optional
        For ``"enumerate"``: stop after this many matches.
    progress : bool
        Show a tqdm progress bar (if tqdm is installed) over root-edge tasks (Dask: Dask's own
        bar).
    client : distributed.Client, optional
        Run on this Dask client's workers, with ``engine`` on each worker.
    devices : int, list of int or "all", optional
        GPUs of this host to split the work over (see
        :func:`nx_gpumine.execution.multigpu.resolve_devices`); None: the current device
        (or the ``NX_GPUMINE_DEVICES`` default).

    Returns
    -------
    int, bool or numpy.ndarray
        The count, the existence flag, or an ``(n, k)`` int64 array of dense ids (columns in
        pattern-node order).

    Raises
    ------
    CapacityError
        If a count overflows 64 bits.

    Notes
    -----
    What execution decides before any engine runs, on every route: a count of a mapping plan
    with a :func:`~nx_gpumine.plan.static_plan.distinct_sibling` counts the sibling and
    multiplies by ``|Aut(P)|`` (:func:`count_mappings`); 1- and 2-node plans are answered by
    :func:`small_plan_result`. Engines get plans of
    :data:`~nx_gpumine.engines.contract.STATIC_MIN_K` or more nodes.
    """
    check_query(mode, limit)
    sibling = distinct_sibling(plan, graph) if mode == "count" else None
    if sibling is not None:  # the mappings of plan = the sibling's count x |Aut(P)|
        return count_mappings(
            graph, sibling, engine=engine, progress=progress, client=client, devices=devices
        )

    def on_dask() -> int | bool | np.ndarray:
        from .distributed import run_static_dask

        return run_static_dask(
            graph, plan, mode, client=client, engine=engine, limit=limit, progress=progress
        )

    return dispatch(
        engine,
        client,
        devices,
        on_dask=on_dask,
        on_devices=lambda slots: run_static_devices(
            graph, plan, mode, slots, engine=engine, limit=limit, progress=progress
        ),
        on_local=lambda: run_static_local(graph, plan, mode, engine, limit, progress),
        use_devices=lambda: (
            plan.k >= STATIC_MIN_K and is_cuda_engine(select_engine(engine, "static", plan))
        ),
    )


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
    64-bit rule of :mod:`nx_gpumine.engines.checks`; a mapping plan without a sibling is counted
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
        The mapping count exceeds ``2**63 - 1``.
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


def run_static_local(
    graph: StaticGraph,
    plan: StaticPlan,
    mode: str,
    engine: str = "auto",
    limit: int | None = None,
    progress: bool = False,
) -> int | bool | np.ndarray:
    """:func:`run_static` in this process on the current device (or the CPU)."""
    if plan.k == 1:
        return small_plan_result(graph, plan, mode, limit)
    eng = select_engine(engine, "static", plan)  # an unusable engine is refused for k >= 2
    if plan.k < STATIC_MIN_K:
        return small_plan_result(graph, plan, mode, limit)
    return run_local(
        eng,
        graph,
        plan,
        mode,
        width=plan.k,
        limit=limit,
        progress=progress,
        split=lambda ntasks: split_root_range(graph, ntasks, root_ok=plan.root_ok),
        desc=f"{plan.pattern.name or 'pattern'} ({mode})",
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
    one root edge; with others, a task whose matches need more than :data:`LAZY_BYTES` is
    listed by the CPU engine's ``iter_matches``. A 2-node plan's tasks are listed by
    :func:`small_plan_result`, no engine. ``engine="dask"`` (or a
    ``client``): the tasks run on a Dask cluster and blocks come back in the same order
    (:func:`nx_gpumine.execution.distributed.iter_static_blocks_dask`).
    """
    if client is not None or engine == "dask":
        from .distributed import iter_static_blocks_dask

        yield from iter_static_blocks_dask(graph, plan, client=client, engine=engine)
        return
    if plan.k == 1:
        yield small_plan_result(graph, plan, "enumerate")
        return
    eng = select_engine(engine, "static", plan)
    if plan.impossible:
        return
    # small graphs: one task (each task costs an engine launch)
    ntasks = max(1, min(ntasks, len(graph.indices) // 2048))
    lazy = optional_hook(eng, "iter_matches")
    for lo, hi in split_root_range(graph, ntasks, root_ok=plan.root_ok):
        if plan.k < STATIC_MIN_K:
            block = small_plan_result(graph, plan, "enumerate", None, lo, hi)
            if len(block):
                yield block
            continue
        big = min(LAZY_BYTES, memory_budget())
        if lazy is None and result_bytes(eng.count(graph, plan, lo, hi), plan.k) > big:
            # an engine without pausable enumeration: a task too big for one block is
            # listed lazily by the CPU engine (memory bounded however many matches it has;
            # tests/test_engine_contract.py checks that the CPU engine has this hook)
            cpu_lazy = optional_hook(select_engine("cpu", "static"), "iter_matches")
            blocks = cpu_lazy(graph, plan, lo, hi)
        elif lazy is None:
            blocks = iter([eng.enumerate_matches(graph, plan, lo, hi)])
        else:
            blocks = lazy(graph, plan, lo, hi)
        for block in blocks:
            if len(block):
                yield block
