"""The static job: count / find / exists of a subgraph pattern, over root-edge ranges.

Tasks are half-open ranges ``[lo, hi)`` of union-CSR entries (root edges), balanced by
:func:`~nx_gpumine.execution.tasks.split_root_range`; every task reads the whole graph.
What execution answers without an engine lives here too: 1- and 2-node plans
(:func:`small_plan_result`), so engines get plans of
:data:`~nx_gpumine.engines.contract.STATIC_MIN_K` or more nodes.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from types import ModuleType
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ...engines import select_engine
from ...engines.checks import checked_range, checked_total
from ...engines.contract import STATIC_MIN_K, optional_hook
from ...engines.degree_sums import kept_star_sum
from ...inputs.static_graph import StaticGraph
from ...limits import check_result_rows, memory_budget, result_bytes
from ...plan.root_split import static_range_costs, static_total_cost
from ...plan.static_plan import StaticPlan, node_mask, root_mask
from ...results.static import matches_to_frame
from ..merge import check_query, no_matches
from ..tasks import split_root_range
from .base import Job, call_engine

__all__ = [
    "StaticJob",
    "RootPart",
    "small_plan_result",
    "closed_form_count",
    "clique_closed_form",
    "CLIQUE_BLOCK",
    "LAZY_BYTES",
]

#: Largest result (bytes, see ``limits.result_bytes``) of one task an iterator lists at once.
LAZY_BYTES = 64 << 20


def closed_form_count(graph: StaticGraph, plan: StaticPlan) -> int | None:
    """The count of a whole-graph distinct plan whose answer is a formula of the graph,
    without any engine (None for other plans):

    * an unlabelled, non-induced undirected star with ``s`` leaves
      (:func:`~nx_gpumine.plan.static_plan.star_leaves`) has ``sum_v C(d_v, s)`` distinct
      occurrences (a centre and a choice of leaves among its neighbours; ``d_v`` counts
      neighbours, self-loops aside);
    * an unlabelled undirected clique ``K_k`` (induced or not) in a graph whose every
      component of ``k`` or more nodes is complete has ``sum_C C(n_C, k)``
      (:func:`clique_closed_form`).

    Exact (Python integers), in milliseconds whatever the hub degrees or clique sizes;
    mappings are execution's product with ``|Aut(P)|`` (``s!``, ``k!``) as for any plan.
    Only counts: ``find`` and enumeration walk the plan (and keep their memory limits).

    Raises
    ------
    CapacityError
        A clique count past the count limit of :mod:`nx_gpumine.engines.checks`.
    """
    if graph.directed or not plan.distinct:
        return None
    form = plan.closed_form  # decided once per plan; the sums are kept with the graph
    if form is None:
        return None
    kind, size, loop_free = form
    if kind == "star":
        return kept_star_sum(graph, size)
    cliques = clique_closed_form(graph, plan)
    return None if cliques is None else checked_total(cliques, "clique count")


#: Union-CSR entries :func:`clique_closed_form` reads at once (its temporaries: a few bytes each).
CLIQUE_BLOCK = 1 << 22


def clique_closed_form(graph: StaticGraph, plan: StaticPlan) -> int | None:
    """Distinct ``K_k`` occurrences of a clique plan when every component of the graph with
    ``k`` or more nodes is complete (a component of ``n`` nodes holds ``C(n, k)`` of them);
    None for any other plan or graph.

    Only an unlabelled undirected clique (``plan.shape == "clique"``: no labels, no
    self-loops, ``k >= 3``) on an undirected graph, with no label filter in the plan. Induced
    or not, the occurrences are the same node sets. Self-loops are no edges, as in the engines
    (neither in the neighbour lists nor in the degrees); an induced plan forbids a self-loop
    on every image (``loop_req`` 0), so there a complete component counts its loop-free nodes
    only, ``C(n - loops, k)`` (any ``k`` nodes of a clique induce ``K_k``).

    The test, O(n + m) with NumPy: the nodes of degree ``k - 1`` or more are *kept* (no
    ``K_k`` uses another) and labelled ``r = min(v, least neighbour)``; when every kept node's
    label class has ``degree + 1`` members and all its neighbours are kept with its label,
    each component of the kept nodes is one label class and complete (its nodes' neighbours
    lie in it: ``|C| >= d + 1 = |class| >= |C|``), and no other component has a node of
    degree ``k - 1`` (so no ``K_k``). Exactly the graphs whose every component with a node
    of degree ``k - 1`` or more is complete pass it (among them every graph whose components
    of ``k`` or more nodes are complete); any other graph is counted whole by the engine (the
    complete components are not split off: a clean split would need a subgraph and its plan).
    The answer is kept with the graph (``graph.derived``), so a repeated count pays a look-up.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    plan : StaticPlan
        A plan built for it (distinct or not: the count is of distinct occurrences).

    Returns
    -------
    int or None
    """
    form = plan.closed_form
    if graph.directed or form is None or form[0] != "clique":
        return None
    _, k, loop_free = form
    return graph.derived(
        ("clique_closed_form", k, loop_free), lambda: _clique_sum(graph, k, loop_free)
    )


def _clique_sum(graph: StaticGraph, k: int, loop_free: bool) -> int | None:
    """:func:`clique_closed_form`'s test and sum (``loop_free``: only nodes without a
    self-loop count)."""
    n = graph.n
    deg = np.asarray(graph.degree)
    kept = deg >= k - 1
    nodes = np.flatnonzero(kept)
    if len(nodes) == 0:
        return 0
    ptr = np.asarray(graph.indptr, dtype=np.int64)
    idx = np.asarray(graph.indices)
    label = np.arange(n, dtype=np.int64)
    label[nodes] = np.minimum(nodes, idx[ptr[nodes]])  # rows are sorted: the least first
    members = np.bincount(label[nodes], minlength=n)
    if (members[label[nodes]] != deg[nodes] + 1).any():  # O(n): most graphs stop here
        return None
    start = 0
    while start < n:  # O(m), in blocks of rows: neighbours kept, with the node's label
        stop = int(np.searchsorted(ptr, ptr[start] + CLIQUE_BLOCK, side="right")) - 1
        stop = min(max(stop, start + 1), n)
        nbr = idx[ptr[start] : ptr[stop]]
        rows = deg[start:stop]
        mine = np.repeat(label[start:stop], rows)
        wrong = np.repeat(kept[start:stop], rows) & ~(kept[nbr] & (label[nbr] == mine))
        if wrong.any():
            return None
        start = stop
    if loop_free:
        nodes = nodes[np.asarray(graph.loop)[nodes] == 0]
    sizes = np.bincount(label[nodes], minlength=n)
    big, times = np.unique(sizes[sizes >= k], return_counts=True)
    return sum(
        int(c) * math.comb(int(s), k) for s, c in zip(big.tolist(), times.tolist(), strict=True)
    )


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
    executor (this process, several devices, Dask workers).

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
        As :func:`~nx_gpumine.execution.static.run_static`; rows in root (entry) order,
        columns in pattern-node order.
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


class RootPart(NamedTuple):
    """A static count's task on several devices: part ``part`` of ``parts`` of the engine's
    own heavy-first work (``count_part``, see :class:`~nx_gpumine.engines.contract.EngineHooks`)."""

    part: int
    parts: int


@dataclasses.dataclass
class StaticJob(Job):
    """Count, find or test a static plan's matches; tasks are root-entry ranges ``(lo, hi)``.

    Build one with :meth:`of`. Results: the count, the flag, or ``(n, k)`` dense vertex ids
    in root order (columns in pattern-node order).
    """

    kind: ClassVar[str] = "static"
    label: ClassVar[str] = "static"

    @classmethod
    def of(
        cls, graph: StaticGraph, plan: StaticPlan, mode: str, limit: int | None = None
    ) -> StaticJob:
        """The job of ``mode`` for ``plan`` on ``graph`` (an unknown ``mode`` or a negative
        ``limit`` is refused here, whichever executor runs the job)."""
        check_query(mode, limit)
        return cls(graph, plan, mode, int(plan.k), limit)

    @property
    def desc(self) -> str:
        return f"{self.plan.pattern.name or 'pattern'} ({self.mode})"

    def engine(self, name: str, data: Any = None) -> ModuleType | None:
        # a 1-node plan is read off its node mask: no engine (an unusable one is not refused)
        return None if self.plan.k == 1 else select_engine(name, "static", self.plan)

    def answer(self) -> Any:
        plan = self.plan
        if plan.k == 1:
            return small_plan_result(self.graph, plan, self.mode, self.limit)
        if plan.impossible or (self.mode == "enumerate" and self.limit == 0):
            return no_matches(self.mode, self.width)
        return None

    def whole(self, eng: ModuleType) -> Any:
        if self.plan.k < STATIC_MIN_K:
            return small_plan_result(self.graph, self.plan, self.mode, self.limit)
        return call_engine(eng, self.graph, self.plan, self.mode, limit=self.limit)

    def splits_for_progress(self) -> bool:
        return self.plan.k >= STATIC_MIN_K  # 1- and 2-node plans: one mask, nothing to show

    def prefers_whole(self, eng: ModuleType) -> bool:
        # counts of shapes with a whole-range kernel (cliques, books, 4-cycles on CUDA) take
        # milliseconds and do not split into root ranges; 2-node plans need no engine
        if self.plan.k < STATIC_MIN_K:
            return True
        whole = optional_hook(eng, "whole_range_count")
        return self.mode == "count" and whole is not None and bool(whole(self.graph, self.plan))

    # static_total_cost: ego-Facebook 3.8e7, the 1M-edge power-law graph 9e8, the 10M-edge
    # one 1.3e10 (its quickest counts take about 2 ms on one H100)
    heavy_work: ClassVar[float] = 4e9

    def estimated_work(self) -> float:
        # the degree-based entry costs split_root_range balances on, over every entry
        return static_total_cost(self.graph)

    def cost_key(self) -> Any:
        return ("static", id(self.plan), self.mode)

    def device_tasks(self, eng: ModuleType, parts: int) -> list[RootPart] | None:
        if self.mode != "count" or optional_hook(eng, "count_part") is None:
            return None
        return [RootPart(i, parts) for i in range(parts)]

    def tasks(self, n: int, sliced: bool) -> list[tuple[int, int]]:
        return split_root_range(self.graph, n, root_ok=self.plan.root_ok)

    def task_weights(self, tasks: list) -> np.ndarray:
        # the degree-based entry costs split_root_range balanced on, summed per range
        if not tasks:
            return np.zeros(0)
        if isinstance(tasks[0], RootPart):  # equal shares by construction
            return np.ones(len(tasks))
        bounds = np.array([lo for lo, _ in tasks] + [tasks[-1][1]], dtype=np.int64)
        return static_range_costs(self.graph, self.plan.root_ok, bounds)

    def run_task(self, eng: ModuleType, data: Any, task: Any, left: int | None) -> Any:
        if isinstance(task, RootPart):
            return int(eng.count_part(data, self.plan, task.part, task.parts))
        if self.plan.k < STATIC_MIN_K:  # a 2-node plan's range: no engine
            return small_plan_result(data, self.plan, self.mode, left, *task)
        return call_engine(eng, data, self.plan, self.mode, task, left)

    def task_blocks(self, eng: ModuleType, data: Any, task: Any) -> Iterator[np.ndarray]:
        """Lazy per block of matches where the engine can pause (``iter_matches``: the CPU
        engine); with another engine, a task whose matches need more than
        :data:`LAZY_BYTES` is listed by the CPU engine's ``iter_matches`` (memory bounded
        however many matches it has; tests/test_engine_contract.py checks the hook)."""
        plan = self.plan
        lo, hi = task
        if plan.k < STATIC_MIN_K:
            yield small_plan_result(data, plan, "enumerate", None, lo, hi)
            return
        lazy = optional_hook(eng, "iter_matches")
        if lazy is None:
            big = min(LAZY_BYTES, memory_budget())
            if result_bytes(eng.count(data, plan, lo, hi), plan.k) <= big:
                yield eng.enumerate_matches(data, plan, lo, hi)
                return
            lazy = optional_hook(select_engine("cpu", "static"), "iter_matches")
        yield from lazy(data, plan, lo, hi)

    def frame_meta(self) -> Any:
        empty = np.empty((0, self.width), np.int64)
        return matches_to_frame(self.graph, self.plan.pattern, empty, "pandas")

    def frame(self, data: Any, ids: np.ndarray) -> Any:
        return matches_to_frame(data, self.plan.pattern, ids, "pandas")
