"""The progress bar (issue 37): it advances by each task's estimated work, the weight the task
splitter balanced on, not by one per task, averages its rate over the whole run, and runs the
tasks of a run without early stop in an interleaved order (``execution/executors/local.py``,
``execution/merge.py``). CPU only; a fake tqdm records what the bar is given."""

from __future__ import annotations

import io

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.execution.executors.local import (
    PROGRESS_TASKS,
    interleaved_order,
    run_in_order,
)
from nx_gpumine.execution.jobs.census import CensusJob
from nx_gpumine.execution.jobs.static import StaticJob
from nx_gpumine.execution.jobs.temporal import TemporalJob, temporal_tasks
from nx_gpumine.execution.merge import WorkBar, progress_bar, task_work
from nx_gpumine.execution.runner import run_on_devices
from nx_gpumine.execution.static import on_search_copy, run_static
from nx_gpumine.execution.tasks import split_root_range
from nx_gpumine.execution.temporal import run_census, run_temporal
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import named_motif
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.inputs.temporal_graph import load_collegemsg
from nx_gpumine.plan.root_split import (
    entry_costs,
    sample_grid,
    static_range_costs,
)
from nx_gpumine.plan.static_plan import build_static_plan
from nx_gpumine.plan.temporal_plan import (
    build_temporal_plan,
    root_costs,
    root_range_costs,
    sampled_root_costs,
)


class FakeTqdm:
    """Stands for ``tqdm.auto.tqdm``: records its arguments and every ``update``."""

    made: list[FakeTqdm] = []

    def __init__(self, total: float | None = None, desc: str = "", **kw: object) -> None:
        self.total, self.desc, self.kw = total, desc, kw
        self.n = 0.0
        self.updates: list[float] = []
        self.postfix = ""
        self.closed = False
        FakeTqdm.made.append(self)

    def update(self, k: float = 1) -> None:
        self.updates.append(k)
        self.n += k

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        self.postfix = s

    def close(self) -> None:
        self.closed = True

    @property
    def format_dict(self) -> dict:
        return {"n": self.n, "total": self.total, "elapsed": 0.0, "rate": None}


@pytest.fixture
def fake_tqdm(monkeypatch):
    tqdm_auto = pytest.importorskip("tqdm.auto")
    FakeTqdm.made = []
    monkeypatch.setattr(tqdm_auto, "tqdm", FakeTqdm)
    return FakeTqdm.made


@pytest.fixture(scope="module")
def college():
    return load_collegemsg()


@pytest.fixture(scope="module")
def powerlaw():
    return ng.from_networkx(nx.powerlaw_cluster_graph(3000, 4, 0.1, seed=3))


def _one_bar(made: list[FakeTqdm]) -> FakeTqdm:
    assert len(made) == 1, made
    bar = made[0]
    assert bar.closed
    assert bar.kw.get("smoothing") == 0  # the rate over the whole run, not the last tasks
    return bar


def _check_bar(bar: FakeTqdm, est: np.ndarray, order: list[int]) -> None:
    """The bar's total is the summed estimate, it ends there, and task ``i`` advanced it by
    ``est[i]``, in run order ``order``."""
    assert len(est) > 1 and est.min() > 0
    assert bar.total == pytest.approx(est.sum(), rel=1e-12)
    assert bar.n == pytest.approx(bar.total, rel=1e-12)
    assert np.allclose(bar.updates, est[order], rtol=1e-12)
    assert bar.postfix == f"{len(est)}/{len(est)} tasks"
    assert np.ptp(est) > 0  # unequal estimates: not one step per task


def test_interleaved_order_is_a_spread_permutation():
    assert interleaved_order(0) == [] and interleaved_order(1) == [0]
    assert interleaved_order(8) == [0, 4, 2, 6, 1, 5, 3, 7]
    for n in (2, 3, 100, 255, 256, 257):
        order = interleaved_order(n)
        assert sorted(order) == list(range(n)) and order[0] == 0
    # every prefix of 2**j tasks holds one task of each of 2**j equal blocks
    order = interleaved_order(256)
    for j in range(9):
        blocks = [i * 2**j // 256 for i in order[: 2**j]]
        assert sorted(blocks) == list(range(2**j))


def test_work_bar_advances_by_the_weight_of_each_task(fake_tqdm):
    bar = progress_bar([3.0, 1.0, 6.0], "job")
    assert isinstance(bar, WorkBar)
    fake = fake_tqdm[0]
    assert fake.total == 10.0 and fake.desc == "job" and fake.postfix == "0/3 tasks"
    assert "{postfix}" in fake.kw["bar_format"] and "{remaining}" in fake.kw["bar_format"]
    out = run_in_order([0, 1, 2], lambda t, left: t + 1, "count", width=2, bar=bar, order=[2, 0, 1])
    bar.close()
    assert out == 6
    assert fake.updates == [6.0, 3.0, 1.0] and fake.n == fake.total
    assert fake.postfix == "3/3 tasks"
    # a task count: one per task; unusable estimates fall back to that
    assert task_work(4).tolist() == [1.0] * 4
    assert task_work([0.0, 0.0]).tolist() == [1.0, 1.0]
    assert task_work([1.0, float("nan")]).tolist() == [1.0, 1.0]
    assert task_work([2.0, 0.5]).tolist() == [2.0, 0.5]


def test_rate_counts_from_the_end_of_the_first_task():
    """The first task carries one-time costs (compiling, copying the graph): the ETA's rate
    is the work done per second after it."""
    tqdm_std = pytest.importorskip("tqdm.std")
    from nx_gpumine.execution.merge import BAR_FORMAT, _work_tqdm

    clock = [0.0]
    bar = _work_tqdm(tqdm_std.tqdm)(
        total=100.0, file=io.StringIO(), smoothing=0, bar_format=BAR_FORMAT, mininterval=0
    )
    bar._time, bar.start_t = (lambda: clock[0]), 0.0
    work = WorkBar(bar, [10.0, 30.0, 60.0])
    clock[0] = 5.0  # a slow first task: 10 units in 5 s
    work.task_done(0)
    assert bar.rate_from == (5.0, 10.0)
    clock[0] = 6.0  # then 30 units in 1 s
    work.task_done(1)
    d = bar.format_dict
    assert d["rate"] == pytest.approx(30.0)  # not 40 / 6 over the whole run
    assert bar.format_meter(**d).endswith("[00:06<00:02, 2/3 tasks]")
    clock[0] = 8.0
    work.task_done(2)
    work.close()
    assert bar.n == bar.total == 100.0


def test_order_is_refused_where_task_order_matters():
    with pytest.raises(ValueError, match="task order"):
        run_in_order([0, 1], lambda t, left: np.zeros((0, 2)), "enumerate", width=2, limit=3,
                     order=[1, 0])  # fmt: skip
    with pytest.raises(ValueError, match="permutation"):
        run_in_order([0, 1], lambda t, left: t, "count", width=2, order=[1, 1])
    # out of order, the rows still come in task order
    blocks = {i: np.full((2, 2), i, dtype=np.int64) for i in range(4)}
    out = run_in_order(range(4), lambda t, left: blocks[t], "enumerate", width=2,
                       order=interleaved_order(4))  # fmt: skip
    assert out[:, 0].tolist() == [0, 0, 1, 1, 2, 2, 3, 3]


def test_static_bar_advances_by_degree_weights(fake_tqdm, powerlaw):
    g = powerlaw
    plan = build_static_plan(Pattern.named("4-cycle"), g, induced=False, distinct=True)

    def task_estimates(graph, plan):  # the estimate the split balanced on
        tasks = split_root_range(graph, PROGRESS_TASKS, root_ok=plan.root_ok)
        assert len(tasks) == PROGRESS_TASKS
        # 1 + deg(u) + deg(v) per root entry (0.05 masked)
        cost = entry_costs(graph, plan.root_ok)
        return np.array([cost[lo:hi].sum() for lo, hi in tasks])

    # counts and existence tests run on the degree-ordered copy (execution's search copy),
    # listings on the graph itself
    searched = on_search_copy(g, plan, "count", "cpu")
    assert searched[0] is not g
    est_searched, est = task_estimates(*searched), task_estimates(g, plan)
    want = run_static(g, plan, "count", engine="cpu")
    assert run_static(g, plan, "count", engine="cpu", progress=True) == want > 0
    _check_bar(_one_bar(fake_tqdm), est_searched, interleaved_order(PROGRESS_TASKS))
    # early stop (a limit, exists): the tasks run in task order
    fake_tqdm.clear()
    rows = run_static(g, plan, "enumerate", engine="cpu", progress=True, limit=10)
    assert rows.shape == (10, 4)
    bar = _one_bar(fake_tqdm)
    done = len(bar.updates)
    assert 1 <= done < PROGRESS_TASKS and np.allclose(bar.updates, est[:done])
    fake_tqdm.clear()
    assert run_static(g, plan, "exists", engine="cpu", progress=True)
    bar = _one_bar(fake_tqdm)
    assert np.allclose(bar.updates, est_searched[: len(bar.updates)])
    # all rows: out of order under the bar, in root order in the result
    fake_tqdm.clear()
    rows = run_static(g, plan, "enumerate", engine="cpu", progress=True)
    assert np.array_equal(rows, run_static(g, plan, "enumerate", engine="cpu"))
    _check_bar(_one_bar(fake_tqdm), est, interleaved_order(PROGRESS_TASKS))


def test_temporal_bar_advances_by_window_weights(fake_tqdm, college):
    plan = build_temporal_plan(named_motif("M4", delta=3600), college)
    tasks = temporal_tasks(college, plan, PROGRESS_TASKS)
    assert len(tasks) == PROGRESS_TASKS
    # the estimate the split balanced on: 1 + the edges in each root's window
    cost = root_costs(college, plan.delta_on, plan.delta, 0, college.m)
    est = np.array([cost[lo:hi].sum() for lo, hi in tasks])
    want = run_temporal(college, plan, "count", engine="cpu")
    assert ng.count_motifs(college, "M4", delta=3600, engine="cpu", progress=True) == want > 0
    _check_bar(_one_bar(fake_tqdm), est, interleaved_order(len(tasks)))
    assert FakeTqdm.made[0].desc == "M4 (count)"


def test_sampled_range_costs_sum_to_the_split_total():
    """Past 131,072 roots a split is balanced on a sample; the per-task weights are that
    sample's costs summed per range, so they add up to the sampled total."""
    g = ng.from_networkx(nx.barabasi_albert_graph(40_000, 3, seed=2))
    m = len(g.indices)
    assert m > 2 * 65536
    tasks = split_root_range(g, 100)
    bounds = np.array([lo for lo, _ in tasks] + [m])
    w = static_range_costs(g, None, bounds)
    starts, _ = sample_grid(0, m)
    total = entry_costs(g, None, starts).sum()
    assert len(w) == len(tasks) and w.min() > 0
    assert w.sum() == pytest.approx(total, rel=1e-12)
    assert w.max() / w.min() < 1.5  # balanced on that estimate
    plan = build_static_plan(Pattern.named("triangle"), g, induced=False, distinct=True)
    job = StaticJob.of(g, plan, "count")
    w = job.task_weights(tasks)  # masked-out roots cost 0.05
    assert w.sum() == pytest.approx(entry_costs(g, plan.root_ok, starts).sum(), rel=1e-12)
    # temporal, with and without a window
    tg = skewed_temporal_graph(n=5000, m=200_000, seed=5)
    for delta in (600, None):
        tplan = build_temporal_plan(named_motif("M1", delta=delta), tg)
        parts = TemporalJob.of(tg, tplan, "count").tasks(64, sliced=False)
        w = TemporalJob.of(tg, tplan, "count").task_weights(parts)
        cost, _ = sampled_root_costs(tg, tplan.delta_on, tplan.delta, 0, tg.m)
        assert len(cost) < tg.m and len(w) == len(parts) and w.min() > 0
        assert w.sum() == pytest.approx(cost.sum(), rel=1e-12)
        assert w.max() / w.min() < 1.5


def test_devices_bar_over_time_partitions(fake_tqdm, college):
    """Several slots (threads, CPU engine): the bar over time partitions and root ranges
    advances by their estimated work too."""
    g = college.edge_slice(0, 5000)
    plan = build_temporal_plan(named_motif("M1", delta=3600), g)
    job = TemporalJob.of(g, plan, "count")
    want = run_temporal(g, plan, "count", engine="cpu")
    assert run_on_devices(job, "cpu", [0, 0, 0], progress=True, ntasks=12) == want
    bar = _one_bar(fake_tqdm)
    parts = job.tasks(12, sliced=True)
    bounds = np.array([p.root_lo for p in parts] + [parts[-1].root_hi])
    est = root_range_costs(g, plan.delta_on, plan.delta, bounds)
    assert bar.total == pytest.approx(est.sum()) and bar.n == pytest.approx(bar.total)
    assert sorted(bar.updates) == pytest.approx(sorted(est))  # in the order tasks finished
    fake_tqdm.clear()
    census = CensusJob.of(g, 3600, "strict")
    got = run_on_devices(census, "cpu", [0, 0], progress=True, ntasks=8)
    assert np.array_equal(got, run_census(g, 3600, "strict", engine="cpu"))
    bar = _one_bar(fake_tqdm)
    est = census.task_weights(census.tasks(8, sliced=True))
    assert bar.total == pytest.approx(est.sum()) and len(set(np.round(est, 6))) > 1
    assert sorted(bar.updates) == pytest.approx(sorted(est))


def test_cpu_five_node_census_bar_over_the_graphlets(fake_tqdm, powerlaw):
    """The CPU engine's 5-node census shows a bar over its 21 graphlets; the counts are those
    without a bar."""
    want = ng.subgraph_census(powerlaw, 5, engine="cpu")
    fake_tqdm.clear()
    assert ng.subgraph_census(powerlaw, 5, engine="cpu", progress=True) == want
    bar = _one_bar(fake_tqdm)
    assert bar.desc == "subgraph census k=5"
    assert bar.total == 21 and bar.n == pytest.approx(bar.total)
