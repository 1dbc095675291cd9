"""Issue 15 regression tests: each reproducer of the issue that is not covered elsewhere
(size caps: test_size_caps.py; star patterns: test_symmetric_patterns.py; interrupts and
threads: test_interrupts.py; CLI files: test_cli_files.py)."""

from __future__ import annotations

import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.plan.temporal_plan import (
    build_temporal_plan,
    split_root_edges,
    time_partitions,
    window_bound,
)
from tests import brute

pd = pytest.importorskip("pandas")

_FAR = np.array([-9 * 10**18, 9 * 10**18], dtype=np.int64)


def _far_frame(times: np.ndarray = _FAR) -> object:
    n = len(times)
    return pd.DataFrame({"s": np.arange(1, n + 1), "d": np.arange(2, n + 2), "t": times})


# ---------------------------------------------------------------- times 2**63 apart
def test_window_does_not_wrap_count_find_exists(engine: str) -> None:
    df = _far_frame()
    kw = dict(delta=10, source="s", target="d", time="t", engine=engine)
    assert ng.count_motifs(df, [(0, 1), (1, 2)], **kw) == 0
    assert len(ng.find_motifs(df, [(0, 1), (1, 2)], **kw)) == 0
    assert ng.has_motif(df, [(0, 1), (1, 2)], **kw) is False
    # the same with a gap limit instead of a window, and with both unbounded (1 match)
    motif = ng.TemporalMotif([(0, 1), (1, 2)], gaps=[10])
    assert ng.count_motifs(df, motif, source="s", target="d", time="t", engine=engine) == 0
    assert ng.count_motifs(df, [(0, 1), (1, 2)], **{**kw, "delta": None}) == 1


def test_window_does_not_wrap_anti_edge_and_census(engine: str) -> None:
    base = -9 * 10**18
    times = np.array([base, base + 1, base + 3, 9 * 10**18, 9 * 10**18 + 1], dtype=np.int64)
    src, dst = [0, 1, 2, 2, 1], [1, 2, 0, 0, 2]
    df = pd.DataFrame({"source": src, "target": dst, "time": times})
    for anti in ([(2, 0, 0, 10)], [(2, 0, 1, None)], [(2, 0, 0, 2)]):
        for delta in (None, 10, 2**62):
            motif = ng.TemporalMotif([(0, 1), (1, 2)], delta=delta, anti_edges=anti)
            want = brute.motif_matches(src, dst, times.tolist(), motif.edges, delta, None, anti)
            got = ng.find_motifs(df, motif, engine=engine, output="numpy")
            assert sorted(map(tuple, got.tolist())) == sorted(want), (anti, delta)
            assert ng.count_motifs(df, motif, engine=engine) == len(want)
    census = ng.motif_census(df, 10, engine=engine)
    assert census["01 12 20"] == 1  # base, base + 1, base + 3; never across the 1.8e19 gap
    assert sum(census.values()) == 1


def test_window_bound_saturates() -> None:
    big = np.iinfo(np.int64).max
    t = np.array([-(2**63), 0, big - 5, big], dtype=np.int64)
    got = window_bound(t, 10)
    assert got.tolist() == [-(2**63) + 10, 10, big, big]
    assert window_bound(np.int64(big), big) == big
    assert window_bound(np.float64(1.5), 2.0) == 3.5


def test_partitions_and_splits_with_far_times() -> None:
    times = np.array([-9 * 10**18, -9 * 10**18 + 5, 0, 9 * 10**18 - 3, 9 * 10**18])
    df = pd.DataFrame({"source": [0, 1, 2, 3, 4], "target": [1, 2, 3, 4, 5], "time": times})
    graph = ng.TemporalGraph.from_edgelist(df)
    motif = ng.TemporalMotif([(0, 1), (1, 2)], delta=2**62)
    plan = build_temporal_plan(motif, graph)
    bounds = split_root_edges(graph, 3, plan.delta_on, plan.delta, 0, graph.m)
    assert bounds[0] == 0 and bounds[-1] == graph.m and (np.diff(bounds) > 0).all()
    parts = time_partitions(graph, plan, 3)
    # a partition whose last root is near the top reads to the end (no wrap to a short slice)
    assert parts[-1].edge_hi == graph.m
    for p in parts:
        assert p.edge_hi >= p.root_hi
    from nx_gpumine.execution.temporal import run_temporal, run_temporal_partitioned

    want = run_temporal(graph, plan, "count", engine="cpu")
    assert run_temporal_partitioned(graph, plan, "count", 3, engine="cpu") == want
    assert want == 2  # (-9e18, -9e18+5) and (9e18-3, 9e18)


# ---------------------------------------------------------------- unclear errors
def test_bad_limits_and_flags_are_refused() -> None:
    nx = pytest.importorskip("networkx")
    G = nx.complete_graph(5)
    for bad in ("3", 1.5, 2.0, True, -1, [3]):
        with pytest.raises(ng.QueryError, match="limit"):
            ng.find_subgraphs(G, "triangle", limit=bad, engine="cpu")
    for name in ("induced", "distinct"):
        with pytest.raises(ng.QueryError, match=name):
            ng.find_subgraphs(G, "triangle", **{name: "no"}, engine="cpu")
    with pytest.raises(ng.QueryError, match="induced"):
        ng.count_subgraphs(G, "wedge", induced="no", engine="cpu")
    with pytest.raises(ng.QueryError, match="induced"):
        ng.has_subgraph(G, "wedge", induced=None, engine="cpu")
    with pytest.raises(ng.QueryError, match="count"):
        ng.count_subgraphs(G, "wedge", count=["mappings"], engine="cpu")
    with pytest.raises(ng.InputError, match="as_frame"):
        ng.find_subgraphs(G, "wedge", as_frame="excel", engine="cpu")
    # numpy integers and plain bools stay accepted
    assert ng.find_subgraphs(G, "triangle", limit=np.int64(2), engine="cpu").shape == (2, 3)
    assert ng.count_subgraphs(G, "wedge", induced=np.bool_(True), engine="cpu") == 0
    df = pd.DataFrame(dict(source=[0, 1], target=[1, 2], time=[1, 2]))
    for bad in ("3", 1.5):
        with pytest.raises(ng.QueryError, match="limit"):
            ng.find_motifs(df, [(0, 1), (1, 2)], limit=bad, engine="cpu")
    with pytest.raises(ng.QueryError, match="output"):
        ng.find_motifs(df, [(0, 1), (1, 2)], output=1, engine="cpu")
    with pytest.raises(ng.QueryError, match="as_table"):
        ng.motif_census(df, 5, as_table="yes", engine="cpu")


def test_bad_label_and_gap_options_are_refused() -> None:
    nx = pytest.importorskip("networkx")
    with pytest.raises(ng.QueryError, match="gaps"):
        ng.TemporalMotif([(0, 1), (1, 2)], gaps=5)
    with pytest.raises(ng.QueryError, match="gaps"):
        ng.TemporalMotif([(0, 1), (1, 2)], gaps="5")
    with pytest.raises(ng.QueryError, match="label attribute"):
        ng.count_subgraphs(nx.complete_graph(4), "triangle", node_label={"a": 1}, engine="cpu")
    with pytest.raises(ng.QueryError, match="label attribute"):
        ng.count_subgraphs(nx.complete_graph(4), "triangle", edge_label=[{"a"}], engine="cpu")
    df = pd.DataFrame(dict(source=[0, 1], target=[1, 2], time=[1, 2]))
    with pytest.raises(ng.QueryError, match="node_labels="):
        ng.count_motifs(df, [(0, 1), (1, 2)], node_label={"a": 1}, engine="cpu")
    with pytest.raises(ng.QueryError, match="node_labels"):
        ng.count_motifs(df, [(0, 1), (1, 2)], node_labels=[1, 2], engine="cpu")
    with pytest.raises(ng.QueryError, match="node_labels"):
        ng.TemporalMotif([(0, 1)], node_labels=[1, 2])


def test_everest_query_with_catalogue_name() -> None:
    df = pd.DataFrame(dict(source=[0, 1, 2, 0], target=[1, 2, 0, 1], time=[1, 2, 3, 50]))
    text = "pattern: triangle\nconstraints:\n  delta: 10\n"
    assert ng.count_motifs(df, text, engine="cpu") == 1
    from nx_gpumine.inputs.everest_query import parse_everest_query

    assert parse_everest_query("pattern: cycle4\n").motif.edges == ((0, 1), (1, 2), (2, 3), (3, 0))
    assert len(parse_everest_query("pattern: M4-A\n").motif.edges) == 5  # Everest file names
    with pytest.raises(ng.QueryError, match="catalogue"):
        parse_everest_query("pattern: no-such-motif\n")


def test_node_keys_beyond_int64() -> None:
    nx = pytest.importorskip("networkx")
    a, b, c = 2**63, 2**63 + 1, 2**64
    G = nx.Graph([(a, b), (b, c), (c, a), (c, 5)])
    rows = ng.find_subgraphs(G, "triangle", distinct=True, engine="cpu")
    assert rows.dtype == object and sorted(rows[0].tolist()) == [a, b, c]
    assert ng.count_subgraphs(G, "wedge", engine="cpu") == 10
    maps = list(ng.iter_subgraph_mappings(G, nx.complete_graph(3), engine="cpu"))
    assert len(maps) == 6 and all(set(m) == {a, b, c} for m in maps)
    frame = ng.find_subgraphs(G, "triangle", as_frame="pandas", engine="cpu")
    assert len(frame) == 6


# ---------------------------------------------------------------- memory budget
@pytest.fixture
def small_budget():
    ng.set_memory_budget("1MB")
    yield
    ng.set_memory_budget(None)


def test_find_over_budget_names_the_count(small_budget, engine: str) -> None:
    nx = pytest.importorskip("networkx")
    G = nx.complete_graph(60)  # 60 * 59 * 58 = 205,320 triangle mappings (~9.9 MB)
    with pytest.raises(ng.CapacityError, match=r"205,320 matches.*limit=") as info:
        ng.find_subgraphs(G, "triangle", engine=engine)
    assert "memory budget" in str(info.value)
    with pytest.raises(ng.CapacityError, match="205,320"):
        ng.find_subgraphs(G, "triangle", engine=engine, limit=10**9)
    assert ng.find_subgraphs(G, "triangle", engine=engine, limit=100).shape == (100, 3)
    # progress path (per-task blocks): stops as the running total passes the budget
    with pytest.raises(ng.CapacityError, match="memory budget"):
        ng.find_subgraphs(G, "triangle", engine=engine, progress=True)
    # the small tasks of a lazy iterator are not refused
    it = ng.iter_subgraph_mappings(G, "triangle", engine=engine)
    assert len(next(it)) == 3


def test_find_motifs_over_budget(small_budget, engine: str) -> None:
    n = 300  # parallel edges: path2 matches are pairs of edges i < j (more than INITIAL_ROWS)
    df = pd.DataFrame(dict(source=[0] * n + [1] * n, target=[1] * n + [2] * n, time=range(2 * n)))
    want = n * n  # every 0->1 edge precedes every 1->2 edge
    assert ng.count_motifs(df, "path2", engine=engine) == want
    ng.set_memory_budget(want * 2 * 8 * 2 - 1)
    with pytest.raises(ng.CapacityError, match=f"{want:,} matches"):
        ng.find_motifs(df, "path2", engine=engine)
    with pytest.raises(ng.CapacityError, match=f"{want:,} matches"):
        ng.find_motifs(df, "path2", engine=engine, limit=10**9)
    ng.set_memory_budget(want * 2 * 8 * 2)
    assert len(ng.find_motifs(df, "path2", engine=engine, output="edge_ids")) == want


def test_memory_budget_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from nx_gpumine import limits

    monkeypatch.setenv(limits.BUDGET_ENV, "2GiB")
    assert ng.memory_budget() == 2 << 30
    monkeypatch.setenv(limits.BUDGET_ENV, "50%")
    assert 0 < ng.memory_budget() <= limits.available_memory()
    monkeypatch.setenv(limits.BUDGET_ENV, "lots")
    with pytest.raises(ng.QueryError, match=limits.BUDGET_ENV):
        ng.memory_budget()
    monkeypatch.delenv(limits.BUDGET_ENV)
    ng.set_memory_budget(12345)
    try:
        assert ng.memory_budget() == 12345
    finally:
        ng.set_memory_budget(None)
    for bad in (0, -5, "0%", "x", 1.5, True):
        with pytest.raises(ng.QueryError):
            ng.set_memory_budget(bad)
    assert ng.memory_budget() == int(limits.available_memory() * limits.DEFAULT_FRACTION)


def test_host_room_check() -> None:
    """The CUDA engines' check before copying rows to the host (free physical memory)."""
    from nx_gpumine import limits

    limits.check_host_room(1 << 10, 10)
    with pytest.raises(ng.CapacityError, match=r"5 matches .* free host memory.* \(hint\)$"):
        limits.check_host_room(1 << 62, 5, " (hint)")


def test_limits_beyond_int64_max() -> None:
    df = _far_frame()  # times 1.8e19 apart
    kw = dict(source="s", target="d", time="t", engine="cpu")
    with pytest.raises(ng.QueryError, match="2\\*\\*63"):
        ng.count_motifs(df, [(0, 1), (1, 2)], delta=1e19, **kw)
    with pytest.raises(ng.QueryError, match="2\\*\\*63"):
        ng.motif_census(df, 10**19, source="s", target="d", time="t", engine="cpu")
    # a limit covering the whole span is no limit
    assert ng.count_motifs(df, [(0, 1), (1, 2)], delta=2 * 10**19, **kw) == 1
    near = _far_frame(np.array([0, 2**62], dtype=np.int64))
    assert ng.count_motifs(near, [(0, 1), (1, 2)], delta=2**63, **kw) == 1


def test_unknown_engine_is_a_query_error() -> None:
    nx = pytest.importorskip("networkx")
    for bad in ("bogus", None, 1):
        with pytest.raises(ng.QueryError, match="engine"):
            ng.count_subgraphs(nx.complete_graph(3), "triangle", engine=bad)
