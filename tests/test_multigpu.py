"""Several GPUs of one host (issue 11): ``devices=``, the task queue, the exact merge.

CPU part (CI): device-list validation and the rules of ``devices=``; the scheduler (shared
queue, home queues with stealing, early stop, error and Ctrl-C propagation, one context per
worker); the static and temporal multi-device paths run with the CPU engine on plain threads,
compared with the one-process answer (counts, rows in the same order, limit, exists, census).

GPU part (marker ``gpu``): ``devices=[0, 0, 0, 0]`` and ``[0, 0]`` (the work split and merged
as for 4 and 2 devices, on one GPU) give exactly the single-device counts, rows and censuses;
with two or more GPUs visible, the same on distinct devices, each holding its own copy.
"""

from __future__ import annotations

import _thread
import threading
import time

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.errors import CapacityError, EngineUnavailableError
from nx_gpumine.execution.executors import devices as mg
from nx_gpumine.execution.jobs.census import CensusJob
from nx_gpumine.execution.jobs.static import StaticJob
from nx_gpumine.execution.jobs.temporal import TemporalJob
from nx_gpumine.execution.merge import Merge
from nx_gpumine.execution.runner import run_on_devices
from nx_gpumine.execution.static import run_static
from nx_gpumine.execution.temporal import run_census, run_temporal
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import named_motif
from nx_gpumine.inputs.patterns import Pattern, as_pattern
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.static_plan import static_plan
from nx_gpumine.plan.temporal_plan import temporal_plan


@pytest.fixture(autouse=True)
def _always_split(request, monkeypatch):
    """These tests are of the split and the merge: every call splits, whatever its size
    (the placement rule has its tests in tests/test_placement.py)."""
    forced = dict(split=True, source="test", seconds=None, work=None)
    monkeypatch.setattr(mg, "placement", lambda job, slots: forced)


# ====================================================================== inputs
def _labelled_graph(directed: bool = False) -> nx.Graph:
    G = nx.gnm_random_graph(120, 700, seed=5, directed=directed)
    for v in G:
        G.nodes[v]["c"] = v % 3
    for u, v in G.edges:
        G.edges[u, v]["w"] = (u + v) % 2
    return G


def _labelled_pattern() -> nx.Graph:
    P = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    for v in P:
        P.nodes[v]["c"] = v % 3
    for u, v in P.edges:
        P.edges[u, v]["w"] = 0
    return P


STATIC_CASES = [  # (graph builder, pattern, plan options, label kwargs)
    ("undirected", "triangle", False, {}),
    ("undirected", "4-cycle", False, {}),
    ("undirected", "diamond", True, {}),
    ("undirected", "P5", False, {}),
    ("directed", "directed-3-cycle", False, {}),
    ("labelled", "labelled", False, {"node_label": "c", "edge_label": "w"}),
]


def _static_case(kind: str, name: str, induced: bool, labels: dict):
    if kind == "labelled":
        g = as_static_graph(_labelled_graph(), **labels)
        pat = as_pattern(_labelled_pattern(), **labels)
    elif kind == "directed":
        g = as_static_graph(nx.gnm_random_graph(150, 1500, seed=2, directed=True))
        pat = as_pattern(nx.DiGraph([(0, 1), (1, 2), (2, 0)]))
    else:
        g = as_static_graph(nx.gnm_random_graph(200, 1600, seed=1))
        if name == "P5":
            edges = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)]
            pat = Pattern.from_networkx(nx.Graph(edges), name="P5")
        else:
            pat = as_pattern(name)
    return g, pat


def _tie_graph():
    """Few distinct times (many ties), a hub (vertex 0) and quiet gaps in time."""
    rng = np.random.default_rng(11)
    m = 2500
    src = rng.integers(0, 80, m)
    dst = rng.integers(0, 80, m)
    hub = rng.random(m) < 0.2
    src[hub] = 0
    t = np.sort(rng.integers(0, 300, m)) * 10
    t[m // 2 :] += 5000  # a gap longer than every window
    keep = src != dst
    return temporal_from_arrays(src[keep], dst[keep], t[keep])


TEMPORAL_MOTIFS = [
    ("M1", 60, None),
    ("M4", 60, None),
    ("M8", 60, None),
    ("01 12 20", 100, None),
    ("path3", 100, (30, 40)),  # gaps
]


def _temporal_case(name: str, delta: int, gaps, tie: str, graph):
    motif = named_motif(name).with_(delta=delta, tie=tie, gaps=gaps)
    return temporal_plan(motif, graph)


# ====================================================================== device lists
def test_parse_devices_forms():
    assert mg.parse_devices(2, 4) == [0, 1]
    assert mg.parse_devices("all", 3) == [0, 1, 2]
    assert mg.parse_devices([1, 0, 1], 2) == [1, 0, 1]
    assert mg.parse_devices(np.array([0, 0]), 1) == [0, 0]
    assert mg.parse_devices((np.int64(1),), 2) == [1]


@pytest.mark.parametrize(
    "devices, error",
    [
        (0, ValueError),
        (-1, ValueError),
        ([], ValueError),
        ([0, -1], ValueError),
        ([0.5], ValueError),
        ([True], ValueError),
        (True, ValueError),
        ("some", ValueError),
        (3.0, ValueError),
        (3, EngineUnavailableError),
        ([0, 2], EngineUnavailableError),
    ],
)
def test_parse_devices_errors(devices, error):
    with pytest.raises(error):
        mg.parse_devices(devices, 2)


def test_all_without_gpu():
    with pytest.raises(EngineUnavailableError, match="no CUDA device"):
        mg.parse_devices("all", 0)


def test_resolve_rules(monkeypatch):
    monkeypatch.delenv(mg.DEVICES_ENV, raising=False)
    assert mg.resolve_devices(None, "cuda") is None
    with pytest.raises(ValueError, match="engine='cpu'"):
        mg.resolve_devices(2, "cpu")
    with pytest.raises(ValueError, match="dask"):
        mg.resolve_devices([0], "dask")
    with pytest.raises(ValueError, match="engine must be"):
        mg.resolve_devices([0], "gpu")
    monkeypatch.setattr(mg, "cuda_available", lambda: False)
    with pytest.raises(EngineUnavailableError, match="needs CUDA GPUs"):
        mg.resolve_devices("all", "auto")
    monkeypatch.setattr(mg, "cuda_available", lambda: True)
    monkeypatch.setattr(mg, "device_count", lambda: 4)
    assert mg.resolve_devices("all", "auto") == [0, 1, 2, 3]
    assert mg.resolve_devices([3, 3], "cuda") == [3, 3]


def test_resolve_environment_default(monkeypatch):
    monkeypatch.setattr(mg, "cuda_available", lambda: True)
    monkeypatch.setattr(mg, "device_count", lambda: 4)
    for text, want in [("all", [0, 1, 2, 3]), ("2", [0, 1]), ("0,0,0", [0, 0, 0]), ("3,", [3])]:
        monkeypatch.setenv(mg.DEVICES_ENV, text)
        assert mg.resolve_devices(None, "cuda") == want
    monkeypatch.setenv(mg.DEVICES_ENV, "2")
    assert mg.resolve_devices(None, "cpu") is None  # the default only applies to GPU calls
    assert mg.resolve_devices(None, "dask") is None
    monkeypatch.setenv(mg.DEVICES_ENV, "two")
    with pytest.raises(ValueError, match=mg.DEVICES_ENV):
        mg.resolve_devices(None, "cuda")
    monkeypatch.setattr(mg, "cuda_available", lambda: False)
    monkeypatch.setenv(mg.DEVICES_ENV, "all")
    assert mg.resolve_devices(None, "auto") is None  # no GPU: the CPU engine, default ignored


def test_public_functions_refuse_devices_on_cpu():
    G = nx.complete_graph(5)
    with pytest.raises(ValueError, match="engine='cpu'"):
        ng.count_subgraphs(G, "triangle", engine="cpu", devices=2)
    with pytest.raises(ValueError, match="engine='cpu'"):
        ng.find_subgraphs(G, "triangle", engine="cpu", devices=[0])
    with pytest.raises(ValueError, match="engine='cpu'"):
        ng.has_subgraph(G, "triangle", engine="cpu", devices="all")
    T = temporal_from_arrays([0, 1, 2], [1, 2, 0], [1, 2, 3])
    with pytest.raises(ValueError, match="engine='cpu'"):
        ng.count_motifs(T, "triangle", delta=10, engine="cpu", devices=2)
    with pytest.raises(ValueError, match="engine='cpu'"):
        ng.motif_census(T, 10, engine="cpu", devices=2)


# ====================================================================== scheduler
class _Recorder:
    """A context per worker that records which slot device ran each task."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.ran: dict[int, int] = {}

    def __call__(self, dev: int):
        rec = self

        class _Ctx:
            def __enter__(self):
                rec.local.dev = dev

            def __exit__(self, *exc):
                rec.local.dev = None

        return _Ctx()


def test_shared_queue_runs_every_task_once_in_its_context():
    rec = _Recorder()
    seen = []

    def work(i):
        rec.ran[i] = rec.local.dev
        return i

    def on_result(i, value):
        seen.append(value)
        return False

    stats = mg.run_tasks([5, 7, 9], 50, work, on_result, context=rec)
    assert sorted(seen) == list(range(50))
    assert set(rec.ran.values()) <= {5, 7, 9}
    assert stats["stopped"] is False


def test_home_queues_and_stealing():
    rec = _Recorder()

    def work(i):
        rec.ran[i] = rec.local.dev
        time.sleep(0.002)
        return i

    homes = [0] * 20  # every task at home on slot 0: slot 1 must steal
    stats = mg.run_tasks([0, 1], 20, work, lambda i, v: False, context=rec, homes=homes)
    assert sorted(rec.ran) == list(range(20))
    assert stats["stolen"] > 0
    assert stats["stolen"] == sum(1 for d in rec.ran.values() if d == 1)


def test_early_stop_skips_remaining_tasks():
    ran = []

    def work(i):
        ran.append(i)
        time.sleep(0.001)
        return i == 3

    stats = mg.run_tasks([0, 1], 200, work, lambda i, v: bool(v), context=_Recorder())
    assert stats["stopped"] is True
    assert len(ran) < 200


def test_worker_error_stops_all_and_is_raised():
    ran = []

    def work(i):
        ran.append(i)
        if i == 5:
            raise KeyError("task five")
        time.sleep(0.001)
        return 0

    with pytest.raises(KeyError, match="task five"):
        mg.run_tasks([0, 1, 2], 300, work, lambda i, v: False, context=_Recorder())
    assert len(ran) < 300
    mg.settle()


def test_merge_overflow_is_capacity_error():
    merge = Merge("count", 4, 3, None, None).add
    with pytest.raises(CapacityError, match="128-bit"):
        mg.run_tasks([0, 0], 4, lambda i: 2**127, merge, context=_Recorder())


def test_ctrl_c_stops_every_worker():
    ran = []

    def work(i):
        ran.append(i)
        time.sleep(0.01)
        return 0

    timer = threading.Timer(0.1, _thread.interrupt_main)
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        mg.run_tasks([0, 1], 10_000, work, lambda i, v: False, context=_Recorder())
    assert time.monotonic() - t0 < 2.0
    mg.settle()
    n = len(ran)
    time.sleep(0.05)
    assert len(ran) == n < 10_000  # nothing runs on after the call returned


# ====================================================================== CPU engine on threads
@pytest.mark.parametrize("case", STATIC_CASES, ids=[c[1] for c in STATIC_CASES])
def test_static_split_equals_one_process(case):
    g, pat = _static_case(*case)
    plan = static_plan(pat, g, induced=case[2], distinct=True)
    mapping_plan = static_plan(pat, g, induced=case[2], distinct=False)
    want = run_static(g, plan, "count", engine="cpu")
    rows = run_static(g, mapping_plan, "enumerate", engine="cpu")
    for slots in ([0, 0, 0, 0], [0, 1]):
        assert run_on_devices(StaticJob.of(g, plan, "count"), "cpu", slots) == want
        got = run_on_devices(StaticJob.of(g, mapping_plan, "enumerate"), "cpu", slots)
        assert np.array_equal(got, rows)  # root order, as one process gives it
        head = run_on_devices(StaticJob.of(g, mapping_plan, "enumerate", 5), "cpu", slots)
        assert np.array_equal(head, rows[:5])
        assert run_on_devices(StaticJob.of(g, plan, "exists"), "cpu", slots) == (want > 0)
    assert mg.last_run["tasks"] > 2


def test_static_split_no_match_and_trivial():
    g = as_static_graph(nx.path_graph(30))
    plan = static_plan(as_pattern("triangle"), g, induced=False, distinct=True)
    assert run_on_devices(StaticJob.of(g, plan, "count"), "cpu", [0, 0]) == 0
    assert run_on_devices(StaticJob.of(g, plan, "exists"), "cpu", [0, 0]) is False
    got = run_on_devices(StaticJob.of(g, plan, "enumerate"), "cpu", [0, 0])
    assert got.shape == (0, 3)
    got = run_on_devices(StaticJob.of(g, plan, "enumerate", 0), "cpu", [0, 0])
    assert got.shape == (0, 3)


@pytest.mark.parametrize("budget", [None, 1 << 40])
@pytest.mark.parametrize("tie", ["strict", "input_order"])
@pytest.mark.parametrize("name, delta, gaps", TEMPORAL_MOTIFS)
def test_temporal_partitions_equal_one_process(name, delta, gaps, tie, budget):
    from nx_gpumine import device_limits as memory

    graph = _tie_graph()
    plan = _temporal_case(name, delta, gaps, tie, graph)
    want = run_temporal(graph, plan, "count", engine="cpu")
    rows = run_temporal(graph, plan, "enumerate", engine="cpu")
    with memory.device_budget(budget):  # a budget: time partitions, else root ranges
        _temporal_split_equals(graph, plan, want, rows)


def _temporal_split_equals(graph, plan, want, rows):
    for slots in ([0, 0, 0, 0], [0, 1]):
        assert run_on_devices(TemporalJob.of(graph, plan, "count"), "cpu", slots) == want
        got = run_on_devices(TemporalJob.of(graph, plan, "enumerate"), "cpu", slots)
        assert np.array_equal(got, rows)
        head = run_on_devices(TemporalJob.of(graph, plan, "enumerate", 7), "cpu", slots)
        assert np.array_equal(head, rows[:7])
        assert run_on_devices(TemporalJob.of(graph, plan, "exists"), "cpu", slots) == (want > 0)
    assert mg.last_run["tasks"] > 2


@pytest.mark.parametrize("delta", [None, 10**6])
def test_temporal_without_window_uses_root_ranges_on_the_whole_graph(delta):
    from nx_gpumine import device_limits as memory

    big = _tie_graph()
    graph = big.edge_slice(0, 500)
    plan = _temporal_case("M4", 60, None, "input_order", graph)
    plan = temporal_plan(plan.motif.with_(delta=delta), graph)
    want = run_temporal(graph, plan, "count", engine="cpu")
    rows = run_temporal(graph, plan, "enumerate", engine="cpu")
    with memory.device_budget(1 << 40):  # slices wanted, but they would overlap too much
        assert run_on_devices(TemporalJob.of(graph, plan, "count"), "cpu", [0, 0, 0]) == want
        got = run_on_devices(TemporalJob.of(graph, plan, "enumerate"), "cpu", [0, 1])
    assert np.array_equal(got, rows)
    assert mg.last_run["tasks"] > 2
    assert graph._derived[mg.SLICE_CACHE_KEY] == {}  # no slice was cut
    counts = run_census(graph, delta, "strict", engine="cpu")
    assert np.array_equal(
        run_on_devices(CensusJob.of(graph, delta, "strict"), "cpu", [0, 0]), counts
    )


def test_temporal_slices_are_kept_for_the_next_call():
    from nx_gpumine import device_limits as memory

    graph = _tie_graph()
    plan = _temporal_case("M1", 60, None, "strict", graph)
    with memory.device_budget(1 << 40):  # a budget: each device gets time partitions
        run_on_devices(TemporalJob.of(graph, plan, "count"), "cpu", [0, 0, 0])
        table = graph._derived[mg.SLICE_CACHE_KEY]
        kept = dict(table)
        assert kept
        run_on_devices(TemporalJob.of(graph, plan, "count"), "cpu", [0, 0, 0])
        assert all(graph._derived[mg.SLICE_CACHE_KEY][k] is v for k, v in kept.items())
    # without a budget every device keeps the whole graph: root ranges, the slices dropped
    want = run_temporal(graph, plan, "count", engine="cpu")
    assert run_on_devices(TemporalJob.of(graph, plan, "count"), "cpu", [0, 0, 0]) == want
    assert mg.SLICE_CACHE_KEY not in graph._derived
    assert mg.last_run["tasks"] == 3 * mg.RANGES_PER_DEVICE


@pytest.mark.parametrize("budget", [None, 1 << 40])
@pytest.mark.parametrize("tie", ["strict", "input_order"])
def test_census_partitions_equal_one_process(tie, budget):
    from nx_gpumine import device_limits as memory

    graph = _tie_graph()
    want = run_census(graph, 60, tie, engine="cpu")
    with memory.device_budget(budget):
        got = run_on_devices(CensusJob.of(graph, 60, tie), "cpu", [0, 0, 0])
    assert np.array_equal(got, want)


# ====================================================================== with a device budget
def test_budget_and_device_spread_reach_every_worker():
    from nx_gpumine import device_limits as memory

    seen = []

    def work(i):
        seen.append((memory.current_budget(), memory.device_spread()))
        return 0

    with memory.device_budget(12345):
        mg.run_tasks([0, 1, 1], 30, work, lambda i, v: False, context=_Recorder())
        assert memory.device_spread() == 1  # the caller's context is left alone
    assert len(seen) == 30 and set(seen) == {(12345, 2)}
    seen.clear()
    mg.run_tasks([0, 0], 4, work, lambda i, v: False, context=_Recorder())
    assert set(seen) == {(memory.current_budget(), 1)}


def test_temporal_slices_released_after_their_task_under_a_budget(monkeypatch):
    from nx_gpumine import device_limits as memory
    from nx_gpumine.engines.cpu import temporal as cpu_temporal

    released = []
    monkeypatch.setattr(cpu_temporal, "release", released.append, raising=False)
    graph = _tie_graph()
    plan = _temporal_case("M1", 60, None, "strict", graph)
    want = run_temporal(graph, plan, "count", engine="cpu")
    assert run_on_devices(TemporalJob.of(graph, plan, "count"), "cpu", [0, 1]) == want
    assert released == []  # no budget: slices stay cached with their device data
    with memory.device_budget(1 << 30):
        assert run_on_devices(TemporalJob.of(graph, plan, "count"), "cpu", [0, 1]) == want
    tasks = mg.last_run["tasks"]
    assert len(released) == tasks > 2
    assert all(sub is not graph for sub in released)


def _fake_cupy(monkeypatch, free=1 << 34):
    import sys
    import types

    from nx_gpumine.engines.cuda import static as gs
    from nx_gpumine.engines.cuda import static_build, static_stream

    fake = types.SimpleNamespace(
        cuda=types.SimpleNamespace(
            runtime=types.SimpleNamespace(memGetInfo=lambda: (free, 2 * free), getDevice=lambda: 1)
        )
    )
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setattr(static_build, "sm_count", lambda: 4)
    monkeypatch.setattr(static_stream, "sm_count", lambda: 4)
    return gs


def test_static_out_of_core_refused_over_distinct_devices(monkeypatch):
    from nx_gpumine import device_limits as memory
    from nx_gpumine.engines.cuda.static_stream import residency

    gs = _fake_cupy(monkeypatch)
    g = as_static_graph(nx.gnm_random_graph(2000, 20000, seed=3))
    plan = static_plan(as_pattern("diamond"), g, induced=False, distinct=True)
    need = gs.device_need(g, plan, shape=False)["total"]
    assert residency(g, plan, need, "managed", "count") is None  # fits: in memory
    small = need * 2 // 3
    ooc = residency(g, plan, small, "managed", "count")
    assert ooc is not None and ooc.budget == small  # one device: out of core
    with memory.spread_devices(2), pytest.raises(CapacityError, match="one GPU only"):
        residency(g, plan, small, "managed", "count")
    with memory.device_budget(small):
        assert gs.whole_range_count(g, plan) is False  # out of core: no shape kernel
        with memory.spread_devices(2), pytest.raises(CapacityError, match="devices="):
            gs.whole_range_count(g, plan)


# ====================================================================== GPU
@pytest.fixture(scope="module")
def cupy():
    return pytest.importorskip("cupy")


@pytest.mark.gpu
@pytest.mark.parametrize("slots", [[0, 0, 0, 0], [0, 0]])
@pytest.mark.parametrize("case", STATIC_CASES, ids=[c[1] for c in STATIC_CASES])
def test_gpu_static_virtual_devices(cupy, case, slots, monkeypatch):
    from nx_gpumine.engines.cuda import static as cuda_static

    g, pat = _static_case(*case)
    induced = case[2]
    plan = static_plan(pat, g, induced=induced, distinct=True)
    mplan = static_plan(pat, g, induced=induced, distinct=False)
    want = run_static(g, plan, "count", engine="cuda")
    assert want == run_static(g, plan, "count", engine="cpu")
    rows = run_static(g, mplan, "enumerate", engine="cuda")
    assert run_static(g, plan, "count", engine="cuda", devices=slots) == want
    # shape patterns run whole on one device; force the split to test it too
    monkeypatch.setattr(cuda_static, "whole_range_count", lambda graph, p: False)
    assert run_static(g, plan, "count", engine="cuda", devices=slots) == want
    assert mg.last_run["tasks"] > 1
    got = run_static(g, mplan, "enumerate", engine="cuda", devices=slots)
    key = lambda a: a[np.lexsort(a.T[::-1])]  # noqa: E731 (CUDA rows come in any order)
    assert np.array_equal(key(got), key(rows))
    head = run_static(g, mplan, "enumerate", engine="cuda", devices=slots, limit=5)
    assert len(head) == min(5, len(rows))
    assert {tuple(r) for r in head.tolist()} <= {tuple(r) for r in rows.tolist()}
    assert run_static(g, plan, "exists", engine="cuda", devices=slots) == (want > 0)
    G = _labelled_graph() if case[0] == "labelled" else None
    if G is not None:  # the public function, labels by attribute name
        kw = case[3]
        assert ng.count_subgraphs(
            G, _labelled_pattern(), devices=slots, **kw
        ) == ng.count_subgraphs(G, _labelled_pattern(), engine="cpu", **kw)


@pytest.mark.gpu
@pytest.mark.parametrize("slots", [[0, 0, 0, 0], [0, 0]])
@pytest.mark.parametrize("tie", ["strict", "input_order"])
@pytest.mark.parametrize("name, delta, gaps", TEMPORAL_MOTIFS)
def test_gpu_temporal_virtual_devices(cupy, name, delta, gaps, tie, slots):
    for graph in (_tie_graph(), skewed_temporal_graph(n=2000, m=30000, seed=3, mean_gap=2)):
        plan = _temporal_case(name, delta, gaps, tie, graph)
        want = run_temporal(graph, plan, "count", engine="cuda")
        assert want == run_temporal(graph, plan, "count", engine="cpu")
        rows = run_temporal(graph, plan, "enumerate", engine="cuda")
        assert run_temporal(graph, plan, "count", engine="cuda", devices=slots) == want
        assert mg.last_run["tasks"] > 1
        got = run_temporal(graph, plan, "enumerate", engine="cuda", devices=slots)
        assert np.array_equal(got, rows)  # same rows, same order
        head = run_temporal(graph, plan, "enumerate", engine="cuda", devices=slots, limit=9)
        assert len(head) == min(9, len(rows))  # a limited CUDA call returns any 9 matches
        assert {tuple(r) for r in head.tolist()} <= {tuple(r) for r in rows.tolist()}
        assert run_temporal(graph, plan, "exists", engine="cuda", devices=slots) == (want > 0)


@pytest.mark.gpu
@pytest.mark.parametrize("slots", [[0, 0, 0, 0], [0, 0]])
def test_gpu_census_and_public_temporal(cupy, slots):
    graph = skewed_temporal_graph(n=2000, m=30000, seed=3, mean_gap=2)
    for tie in ("strict", "input_order"):
        want = ng.motif_census(graph, 100, tie=tie, engine="cuda")
        assert ng.motif_census(graph, 100, tie=tie, engine="cuda", devices=slots) == want
    c = ng.count_motifs(graph, "M4", delta=100, engine="cuda")
    assert ng.count_motifs(graph, "M4", delta=100, devices=slots) == c
    f1 = ng.find_motifs(graph, "M4", delta=100, output="edge_ids")
    f2 = ng.find_motifs(graph, "M4", delta=100, output="edge_ids", devices=slots)
    assert np.array_equal(f1, f2)


def _two_gpus(cupy) -> int:
    n = cupy.cuda.runtime.getDeviceCount()
    if n < 2:
        pytest.skip("needs two or more visible GPUs")
    return n


@pytest.mark.gpu
def test_gpu_distinct_devices_static(cupy, monkeypatch):
    n = _two_gpus(cupy)
    from nx_gpumine.engines.cuda import static as cuda_static

    for case in STATIC_CASES:
        g, pat = _static_case(*case)
        plan = static_plan(pat, g, induced=case[2], distinct=True)
        mplan = static_plan(pat, g, induced=case[2], distinct=False)
        want = run_static(g, plan, "count", engine="cuda")
        rows = run_static(g, mplan, "enumerate", engine="cuda")
        with monkeypatch.context() as mp:
            mp.setattr(cuda_static, "whole_range_count", lambda graph, p: False)
            for devs in ("all", 2, [1, 0], list(range(n)) * 2):
                assert run_static(g, plan, "count", engine="cuda", devices=devs) == want
                got = run_static(g, mplan, "enumerate", engine="cuda", devices=devs)
                key = lambda a: a[np.lexsort(a.T[::-1])]  # noqa: E731
                assert np.array_equal(key(got), key(rows))
                assert run_static(g, plan, "exists", engine="cuda", devices=devs) == (want > 0)
        # uploaded once per device, each copy on its own device
        arrays = {d: g.device_data(("arrays", d)) for d in range(n)}
        assert None not in arrays.values()
        for dev, arrs in arrays.items():
            assert arrs["indices"].device.id == dev


@pytest.mark.gpu
def test_gpu_distinct_devices_temporal(cupy):
    _two_gpus(cupy)
    graph = skewed_temporal_graph(n=5000, m=60000, seed=4, mean_gap=2)
    for name, delta, gaps in TEMPORAL_MOTIFS:
        for tie in ("strict", "input_order"):
            plan = _temporal_case(name, delta, gaps, tie, graph)
            want = run_temporal(graph, plan, "count", engine="cuda")
            rows = run_temporal(graph, plan, "enumerate", engine="cuda")
            for devs in ("all", [1, 0]):
                assert run_temporal(graph, plan, "count", engine="cuda", devices=devs) == want
                got = run_temporal(graph, plan, "enumerate", engine="cuda", devices=devs)
                assert np.array_equal(got, rows)
    want = ng.motif_census(graph, 100, engine="cuda")
    assert ng.motif_census(graph, 100, devices="all") == want


@pytest.mark.gpu
def test_gpu_device_one_gets_its_own_arrays(cupy):
    _two_gpus(cupy)
    g = as_static_graph(nx.gnm_random_graph(100, 600, seed=9))
    want = ng.count_subgraphs(g, "4-cycle", engine="cuda")
    with cupy.cuda.Device(1):
        assert ng.count_subgraphs(g, "4-cycle", engine="cuda") == want
    assert g.device_data(("arrays", 1))["indptr"].device.id == 1
    assert g.device_data(("arrays", 0))["indptr"].device.id == 0


def _pair_edge_pattern() -> Pattern:
    """T-DFS's P4: poles 0 and 1 joined to 2, 3 and 4, with the edge 2-3 among those."""
    edges = [(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3)]
    return Pattern.from_networkx(nx.Graph(edges), name="pair-edge")


@pytest.mark.gpu
@pytest.mark.parametrize("parts", [2, 3, 5])
def test_gpu_count_parts_add_up(cupy, parts):
    """``count_part`` (issue 34): the parts of every kernel's count add up to the whole count,
    for mappings and distinct occurrences, in memory and out of core."""
    from nx_gpumine.engines.cuda import static as gs

    g = as_static_graph(nx.powerlaw_cluster_graph(3000, 6, 0.3, seed=4))
    cases = [
        (as_pattern("triangle"), "clique"),
        (as_pattern("4-clique"), "clique"),
        (as_pattern("4-cycle"), "cycle4"),
        (as_pattern("diamond"), "book"),
        (_pair_edge_pattern(), "pair_edge"),
        (
            Pattern.from_networkx(nx.Graph([(0, 1), (0, 2), (1, 2), (2, 3), (2, 4), (3, 4)])),
            "bowtie",
        ),
        (as_pattern("house"), None),
        (as_pattern("5-cycle"), None),
    ]
    for pat, shape in cases:
        for distinct in (True, False):
            plan = static_plan(pat, g, induced=False, distinct=distinct)
            assert plan.shape == shape
            want = gs.count(g, plan)
            if shape is not None:
                assert gs.last_run["strategy"] == shape
            assert want == run_static(g, plan, "count", engine="cpu")
            got = [gs.count_part(g, plan, i, parts) for i in range(parts)]
            assert sum(got) == want, (pat.name, distinct, got)
            if shape not in (None, "book", "bowtie") and want > 1000:
                assert max(got) < 0.8 * want  # dealt out: no part holds (nearly) everything
            if shape is None:
                for strategy in ("dfs", "trie"):
                    parts_sum = sum(
                        gs.count(g, plan, strategy=strategy, part=(i, parts)) for i in range(parts)
                    )
                    assert parts_sum == want, (pat.name, strategy)
    plan = static_plan(as_pattern("house"), g, induced=False, distinct=True)
    small = gs.device_need(g, plan, shape=False)["total"] * 2 // 3
    want = gs.count(g, plan)
    got = sum(gs.count(g, plan, max_device_bytes=small, part=(i, parts)) for i in range(parts))
    assert gs.last_run.get("out_of_core") and got == want
    g.forget_derived("cuda_static_graph_ooc")
    with pytest.raises(ValueError, match="part"):
        gs.count_part(g, plan, parts, parts)
