"""Where a multi-device call runs (issue 34): one device for a quick query, split for a heavy one.

CPU tests (the slots are plain threads; the CPU engine): the estimate decides a query never
timed before, the time measured on a later run decides the next ones (the first run, which
compiles and uploads, is not kept), a count whose engine deals its own work out runs one part
per slot, and ``progress=True`` says where the call runs. The GPU side (the CUDA engine's
``count_part``) is in tests/test_multigpu.py.
"""

from __future__ import annotations

import weakref

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines.cpu import static as cpu_static
from nx_gpumine.execution.executors import devices as mg
from nx_gpumine.execution.jobs.census import CensusJob
from nx_gpumine.execution.jobs.static import RootPart, StaticJob
from nx_gpumine.execution.jobs.temporal import TemporalJob
from nx_gpumine.execution.runner import run_on_devices
from nx_gpumine.execution.static import run_static
from nx_gpumine.execution.tasks import split_root_range
from nx_gpumine.execution.temporal import run_census, run_temporal
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import named_motif
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.plan.static_plan import static_plan
from nx_gpumine.plan.temporal_plan import temporal_plan


@pytest.fixture
def graph():
    return as_static_graph(nx.gnm_random_graph(300, 2400, seed=7))


def _plan(graph, name="4-cycle"):
    return static_plan(as_pattern(name), graph, induced=False, distinct=True)


def test_small_query_stays_on_one_device(graph):
    plan = _plan(graph)
    job = StaticJob.of(graph, plan, "count")
    work = job.estimated_work()
    assert 0 < work < job.heavy_work  # 300 nodes: far from heavy
    assert run_on_devices(job, "cpu", [0, 1]) == run_static(graph, plan, "count", engine="cpu")
    assert mg.last_run["whole"] is True and mg.last_run["slots"] == [0]
    assert mg.last_run["placement"] == "estimate"
    assert mg.last_run["estimate"]["work"] == pytest.approx(work)


def test_heavy_estimate_splits(graph, monkeypatch):
    plan = _plan(graph)
    monkeypatch.setattr(StaticJob, "heavy_work", 1.0)
    want = run_static(graph, plan, "count", engine="cpu")
    assert run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1]) == want
    assert mg.last_run["whole"] is False and mg.last_run["placement"] == "estimate"
    # the CPU engine has no count_part: root ranges, TASKS_PER_DEVICE per slot
    assert mg.last_run["tasks"] == 2 * mg.TASKS_PER_DEVICE
    assert len(mg.last_run["busy_seconds"]) == 2 and sum(mg.last_run["ran"]) == 32


def test_measured_times_decide_after_the_first_runs(graph, monkeypatch):
    plan = _plan(graph)
    monkeypatch.setattr(StaticJob, "heavy_work", 1.0)  # the estimate says: split
    # a split under this is quick (20 ms by default: a loaded 2-core CI machine took 33 ms)
    monkeypatch.setattr(mg, "SPLIT_CLEAR_SECONDS", 5.0)
    want = run_static(graph, plan, "count", engine="cpu")
    key = ("static", id(plan), "count")
    table = lambda: graph.derived(mg.TIMES_KEY, dict)[key]  # noqa: E731
    run = lambda: run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1])  # noqa: E731
    place = lambda: mg.placement(StaticJob.of(graph, plan, "count"), [0, 1])  # noqa: E731
    assert run() == want
    assert table()["split"] == {} and table()["one"] is None  # a first run: not kept
    assert table()["warm"] == {0, 1}
    assert run() == want and mg.last_run["placement"] == "estimate"
    split = table()["split"][(0, 1)]
    assert split == pytest.approx(mg.last_run["seconds"]) and table()["one"] is None
    # a quick split (under SPLIT_CLEAR_SECONDS): the next call is timed on one device, kept
    # at once (the split warmed the device)
    assert split < mg.SPLIT_CLEAR_SECONDS
    assert run() == want
    assert mg.last_run["placement"] == "measured" and mg.last_run["whole"] is True
    assert table()["one"] == pytest.approx(mg.last_run["seconds"])
    # both known: the faster placement
    table()["one"], table()["split"] = 2.0, {(0, 1): 1.0}
    assert run() == want and mg.last_run["whole"] is False
    assert mg.last_run["estimate"]["seconds"] == (2.0, 1.0)
    table()["one"], table()["split"] = 1.0, {(0, 1): 2.0}
    assert run() == want and mg.last_run["whole"] is True
    # one known: split from SPLIT_MIN_SECONDS on; a slow split alone: split
    table()["one"], table()["split"] = 1.0, {}
    assert place()["split"] is True
    table()["one"] = mg.SPLIT_MIN_SECONDS / 2
    assert place()["split"] is False
    table()["one"], table()["split"] = None, {(0, 1): mg.SPLIT_CLEAR_SECONDS}
    assert place()["split"] is True
    # another plan object under the same id is not taken for this one
    other = type("Plan", (), {})()
    graph.derived(mg.TIMES_KEY, dict)[key] = {"plan": weakref.ref(other), "one": 5.0}
    assert place()["source"] == "estimate"


def test_times_of_freed_plans_are_dropped(graph, monkeypatch):
    """The table holds plans weakly; past TIMES_PRUNE entries the dead ones go."""
    monkeypatch.setattr(mg, "TIMES_PRUNE", 4)
    table = graph.derived(mg.TIMES_KEY, dict)
    for i in range(6):
        dead = type("Plan", (), {})()
        table[("static", i, "count")] = {"plan": weakref.ref(dead), "one": 1.0}
        del dead
    plan = _plan(graph)
    run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1])
    assert list(table) == [("static", id(plan), "count")]


def test_split_times_are_kept_per_device_set(graph, monkeypatch):
    """A split is timed per set of devices: a device that never ran the query makes the run
    cold (not kept), and the time on two devices does not stand for four."""
    plan = _plan(graph)
    monkeypatch.setattr(StaticJob, "heavy_work", 1.0)
    want = run_static(graph, plan, "count", engine="cpu")
    key = ("static", id(plan), "count")
    table = lambda: graph.derived(mg.TIMES_KEY, dict)[key]  # noqa: E731
    for _ in range(2):
        assert run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1]) == want
    assert set(table()["split"]) == {(0, 1)}
    assert mg.placement(StaticJob.of(graph, plan, "count"), [0, 1, 2, 3])["source"] == "estimate"
    assert run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1, 2, 3]) == want
    assert set(table()["split"]) == {(0, 1)}  # devices 2 and 3 ran it first: not kept
    assert run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1, 2, 3]) == want
    assert set(table()["split"]) == {(0, 1), (0, 1, 2, 3)}


def test_forced_task_count_always_splits(graph):
    plan = _plan(graph)
    want = run_static(graph, plan, "count", engine="cpu")
    assert run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1], ntasks=5) == want
    assert mg.last_run["placement"] == "forced" and mg.last_run["tasks"] == 5


def _count_part(g, plan, part, parts):
    """A stand-in for the CUDA engine's hook: every ``parts``-th of 4 * parts ranges."""
    ranges = split_root_range(g, 4 * parts, root_ok=plan.root_ok)
    return sum(cpu_static.count(g, plan, lo, hi) for lo, hi in ranges[part::parts])


@pytest.mark.parametrize("name", ["4-cycle", "triangle", "house"])
def test_count_parts_one_per_slot(graph, monkeypatch, name):
    plan = _plan(graph, name)
    monkeypatch.setattr(StaticJob, "heavy_work", 1.0)
    monkeypatch.setattr(cpu_static, "count_part", _count_part, raising=False)
    job = StaticJob.of(graph, plan, "count")
    assert job.device_tasks(cpu_static, 3) == [RootPart(0, 3), RootPart(1, 3), RootPart(2, 3)]
    want = run_static(graph, plan, "count", engine="cpu")
    assert run_on_devices(job, "cpu", [0, 1, 1]) == want
    assert mg.last_run["tasks"] == 3 * mg.COUNT_PARTS_PER_DEVICE
    # enumerations and existence tests keep root ranges (rows in root order)
    assert StaticJob.of(graph, plan, "enumerate").device_tasks(cpu_static, 3) is None
    rows = run_static(graph, plan, "enumerate", engine="cpu")
    got = run_on_devices(StaticJob.of(graph, plan, "enumerate"), "cpu", [0, 1])
    assert np.array_equal(got, rows)


def test_progress_says_where_the_call_runs(graph, monkeypatch, capsys):
    pytest.importorskip("tqdm")
    plan = _plan(graph)
    run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1], progress=True)
    err = capsys.readouterr().err
    assert "4-cycle (count): device 0 (estimated work" in err
    monkeypatch.setattr(StaticJob, "heavy_work", 1.0)
    monkeypatch.setattr(cpu_static, "count_part", _count_part, raising=False)
    want = run_static(graph, plan, "count", engine="cpu")
    assert run_on_devices(StaticJob.of(graph, plan, "count"), "cpu", [0, 1], progress=True) == want
    assert "split over devices [0, 1]" in capsys.readouterr().err
    assert mg.last_run["tasks"] == 2 * mg.PROGRESS_PARTS  # the bar's steps


def test_temporal_and_census_placement(monkeypatch):
    tg = skewed_temporal_graph(n=500, m=6000, seed=2, mean_gap=3)
    plan = temporal_plan(named_motif("M4", delta=200), tg)
    job = TemporalJob.of(tg, plan, "count")
    want = run_temporal(tg, plan, "count", engine="cpu")
    assert 0 < job.estimated_work() < job.heavy_work
    assert run_on_devices(job, "cpu", [0, 1]) == want
    assert mg.last_run["whole"] is True
    monkeypatch.setattr(TemporalJob, "heavy_work", 1.0)
    assert run_on_devices(TemporalJob.of(tg, plan, "count"), "cpu", [0, 1]) == want
    assert mg.last_run["whole"] is False
    assert mg.last_run["tasks"] == 2 * mg.RANGES_PER_DEVICE  # root ranges, no slices
    census = CensusJob.of(tg, 200, "strict")
    assert 0 < census.estimated_work() < census.heavy_work
    counts = run_census(tg, 200, "strict", engine="cpu")
    assert np.array_equal(run_on_devices(census, "cpu", [0, 1]), counts)
    assert mg.last_run["whole"] is True


def test_one_slow_run_does_not_flip_the_placement(graph, monkeypatch):
    """Each placement keeps the least of its last TIME_SAMPLES runs: a pause of the host in one
    run (a 4-GPU bench saw a one-device time jump) leaves the decision as it was."""
    plan = _plan(graph)
    job = StaticJob.of(graph, plan, "count")
    run_on_devices(job, "cpu", [0, 1])  # a small query: on slot 0 (not kept: a first run)
    entry = graph.derived(mg.TIMES_KEY, dict)[("static", id(plan), "count")]
    assert entry["warm"] == {0} and entry["one"] is None
    entry["warm"].add(1)  # as after a split
    for seconds in (0.001, 0.5, 0.0012):
        mg._keep_time(job, [0], seconds)
    assert entry["one"] == 0.001
    assert mg.placement(job, [0, 1])["split"] is False  # 1 ms: stays on one device
    for seconds in (0.3, 0.31, 0.29, 0.3, 0.32):  # a lasting change shows within TIME_SAMPLES
        mg._keep_time(job, [0], seconds)
    assert entry["one"] == 0.29
    mg._keep_time(job, [0, 1], 0.2)
    assert entry["split"][(0, 1)] == 0.2 and mg.placement(job, [0, 1])["split"] is True
