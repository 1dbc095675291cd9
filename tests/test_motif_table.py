"""Many motifs at several windows in one call (issue 32): ``motif_counts`` and its CPU pass.

The CPU engine's ``count_windows`` walks a motif once at its widest window and bins every match
by its span; each bin total must equal the count of a separate call at that window (property
test over random small graphs and motifs of every kind, both tie policies, against the brute
force of tests/test_temporal_differential.py and the engine's own per-window counts). The
public table, the CLI's table mode and their errors are checked on CollegeMsg and small graphs;
the CUDA engine (one call per cell for now) must give the CPU's table (marker ``gpu``).
"""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from temporal_cases import brute_force, cases, graph_of

import nx_gpumine as ng
from nx_gpumine.engines.cpu import temporal as cpu_temporal
from nx_gpumine.errors import QueryError
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import TemporalMotif
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.interfaces import cli
from nx_gpumine.plan.temporal_plan import build_temporal_plan


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), windows=st.sets(st.integers(0, 6), min_size=1, max_size=4))
def test_count_windows_bins_equal_one_count_per_window(case, windows):
    edges, n_lab, e_lab, n_val, motif = case
    g = graph_of(edges, n_lab, e_lab, n_val, with_labels=True)
    lims = sorted(windows)
    top = motif.with_(delta=lims[-1] if motif.delta is not None else None)
    plan = build_temporal_plan(top, g)
    got = cpu_temporal.count_windows(g, plan, lims)
    for w, c in zip(lims, got, strict=False):
        m = top.with_(delta=w)
        assert c == cpu_temporal.count(g, build_temporal_plan(m, g)), (w, m)
        assert c == len(brute_force(edges, m, n_lab, e_lab, n_val)), (w, m)
    assert got[-1] == cpu_temporal.count(g, plan)


@st.composite
def motif_sets(draw):
    """A small graph and motifs sharing prefixes: extensions of one base edge list (some
    renumbered, some with gaps, one with a node label: walked alone), all of one tie."""
    n = draw(st.integers(2, 5))
    edges = [
        (draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)), draw(st.integers(0, 8)))
        for _ in range(draw(st.integers(0, 18)))
    ]
    tie = draw(st.sampled_from(["strict", "input_order"]))
    base = [(0, 1)]
    for _ in range(draw(st.integers(0, 3))):
        k = 1 + max(max(e) for e in base)
        base.append((draw(st.integers(0, k)), draw(st.integers(0, k))))
        if base[-1][0] == base[-1][1]:
            base[-1] = (base[-1][0], k + 1)
    motifs = []
    for _ in range(draw(st.integers(1, 5))):
        cut = draw(st.integers(1, len(base)))
        medges = base[:cut]
        if draw(st.booleans()):  # another ending
            k = 1 + max(max(e) for e in medges)
            a = draw(st.integers(0, k - 1))
            medges = [*medges, (a, draw(st.integers(0, k).filter(lambda b, a=a: b != a)))]
        nodes = sorted({x for e in medges for x in e})  # other node numbers, no holes:
        perm = draw(st.permutations(range(len(nodes))))  # renumbered into the tree
        medges = [(perm[nodes.index(a)], perm[nodes.index(b)]) for a, b in medges]
        kw: dict = {"tie": tie}
        if draw(st.booleans()) and len(medges) > 1:
            kw["gaps"] = [draw(st.one_of(st.none(), st.integers(0, 4)))] * (len(medges) - 1)
        if draw(st.integers(0, 5)) == 0:
            kw["node_labels"] = {medges[0][0]: 0}
        motifs.append(TemporalMotif(medges, **kw))
    return edges, motifs


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=motif_sets(), windows=st.sets(st.integers(0, 8), min_size=1, max_size=3))
def test_count_table_walks_shared_prefixes_exactly(case, windows):
    edges, motifs = case
    if not motifs:
        return
    n = 1 + max([max(a, b) for a, b, _ in edges], default=1)
    g = graph_of(edges, [0] * n, [0] * len(edges), [0] * n, with_labels=True)
    lims = sorted(windows)
    wide = [m.with_(delta=lims[-1]) for m in motifs]
    got = cpu_temporal.count_table(g, wide, lims)
    for m, row in zip(wide, got, strict=True):
        assert row == cpu_temporal.count_windows(g, build_temporal_plan(m, g), lims), m
        assert row[-1] == len(brute_force(edges, m, [0] * n, [0] * len(edges), [0] * n)), m


@pytest.mark.parametrize("tie", ["strict", "input_order"])
def test_count_windows_on_a_graph_with_a_heavy_pair(tie):
    """Stars and two-node motifs on a graph with a heavy node pair take the census per
    window; the walked motifs bin. Float times too."""
    rng = np.random.default_rng(3)
    m = 4000
    src = rng.integers(0, 40, m)
    dst = rng.integers(0, 40, m)
    src[:600], dst[:600] = 0, 1  # 600 edges between 0 and 1 (more than HEAVY_PAIR)
    t = np.sort(rng.random(m) * 5000.0)
    keep = src != dst
    g = temporal_from_arrays(src[keep], dst[keep], t[keep])
    for name in ("M1", "01 10 01", "01 02 01", "01 02 10", "triangle", "M4", "M8"):
        plan = build_temporal_plan(_named(name, 400.0, tie), g)
        lims = [0.0, 12.5, 100.0, 400.0]
        got = cpu_temporal.count_windows(g, plan, lims)
        want = [cpu_temporal.count(g, build_temporal_plan(_named(name, w, tie), g)) for w in lims]
        assert got == [*want, want[-1]], name


def _named(name, delta, tie):
    from nx_gpumine.inputs.motifs import named_motif

    return named_motif(name).with_(delta=delta, tie=tie)


def test_count_windows_refuses_bad_windows():
    g = skewed_temporal_graph(n=50, m=400, seed=1, mean_gap=3)
    plan = build_temporal_plan(_named("M1", 100, "strict"), g)
    for bad in ([10, 5], [-1, 5], [5, 101]):
        with pytest.raises(ValueError, match="windows must be ascending"):
            cpu_temporal.count_windows(g, plan, bad)
    assert cpu_temporal.count_windows(g, plan, []) == [cpu_temporal.count(g, plan)]


@pytest.fixture(scope="module")
def college():
    from nx_gpumine.inputs.temporal_graph import load_collegemsg

    return load_collegemsg()


def test_motif_counts_table_equals_count_motifs(college):
    motifs = ["M1", "M4", "01 10 01", [(0, 1), (1, 2), (2, 0)]]
    deltas = [3600, 600, 86400]
    table = ng.motif_counts(college, motifs, deltas, engine="cpu")
    assert list(table.index) == ["M1", "M4", "01 10 01", "01 12 20"]
    assert list(table.columns) == deltas and table.columns.name == "delta"
    assert table.index.name == "motif" and (table.dtypes == np.int64).all()
    for i, motif in enumerate(motifs):
        for j, d in enumerate(deltas):
            assert table.iloc[i, j] == ng.count_motifs(college, motif, delta=d, engine="cpu")
    one = ng.motif_counts(college, "M4", 3600, tie="input_order", engine="cpu")
    assert one.shape == (1, 1)
    assert one.iloc[0, 0] == ng.count_motifs(
        college, "M4", delta=3600, tie="input_order", engine="cpu"
    )


def test_table_walk_bins_into_the_narrower_windows_only(college, monkeypatch):
    """The walk at the widest window counts it as its own total: the engine's hook is given
    the narrower windows only (with no window among the deltas, every finite one)."""
    seen = []
    real = cpu_temporal.count_table

    def spy(graph, motifs, windows):
        seen.append(list(windows))
        return real(graph, motifs, windows)

    monkeypatch.setattr(cpu_temporal, "count_table", spy)
    table = ng.motif_counts(college, ["M1", "M4"], [86400, 600, 3600], engine="cpu")
    assert seen == [[600, 3600]]
    for name in ("M1", "M4"):
        for d in (600, 3600, 86400):
            assert table.loc[name, d] == ng.count_motifs(college, name, delta=d, engine="cpu")
    seen.clear()  # no window: a small graph (CollegeMsg's unbounded M4 walk takes a minute)
    small = skewed_temporal_graph(n=50, m=400, seed=1, mean_gap=3)
    table = ng.motif_counts(small, ["M4"], [300, None], engine="cpu")
    assert seen == [[300]]
    assert table.loc["M4", None] == ng.count_motifs(small, "M4", delta=None, engine="cpu") > 0
    assert table.loc["M4", 300] == ng.count_motifs(small, "M4", delta=300, engine="cpu") > 0


def test_motif_counts_without_a_window_and_with_durations():
    times = pd.to_datetime("2024-01-01") + pd.to_timedelta([0, 30, 90, 4000, 4100, 9000], "s")
    frame = pd.DataFrame(
        {"source": [0, 1, 2, 0, 1, 2], "target": [1, 2, 0, 1, 2, 0], "time": times}
    )
    hour = pd.Timedelta(hours=1)
    table = ng.motif_counts(frame, ["triangle", "M1"], [pd.Timedelta(minutes=2), hour, None])
    assert list(table.columns) == [pd.Timedelta(minutes=2), hour, None]
    for i, name in enumerate(["triangle", "M1"]):
        for j, d in enumerate([pd.Timedelta(minutes=2), hour, None]):
            assert table.iloc[i, j] == ng.count_motifs(frame, name, delta=d)
    # by hand: (e0 e1 e2) spans 90 s; (e1 e2 e3), (e2 e3 e4), (e3 e4 e5), (e0 e1 e5) and
    # (e0 e4 e5) span more than an hour
    assert table.loc["triangle"].tolist() == [1, 1, 6]


def test_motif_counts_errors(college):
    with pytest.raises(QueryError, match="motifs is empty"):
        ng.motif_counts(college, [], [10])
    with pytest.raises(QueryError, match="deltas is empty"):
        ng.motif_counts(college, "M1", [])
    with pytest.raises(QueryError, match="one window twice"):
        ng.motif_counts(college, "M1", [10, 10])
    with pytest.raises(QueryError, match="one name"):
        ng.motif_counts(college, ["M1", "M1"], [10])
    with pytest.raises(QueryError):
        ng.motif_counts(college, ["M1", "no-such-motif"], [10])


def test_cli_motif_table(college):
    out = io.StringIO()
    rc = cli.main(
        ["temporal", "collegemsg", "--motif", "M1,M4,triangle", "--delta", "600,3600",
         "--engine", "cpu"], out,
    )  # fmt: skip
    text = out.getvalue()
    assert rc == 0 and "delta 600" in text and "delta 3600" in text
    out = io.StringIO()
    rc = cli.main(
        ["temporal", "collegemsg", "--motif", "M1,M4", "--delta", "600,3600", "--engine", "cpu",
         "--format", "json"], out,
    )  # fmt: skip
    data = json.loads(out.getvalue())
    want = ng.motif_counts(college, ["M1", "M4"], [600, 3600], engine="cpu")
    assert data["counts"]["M4"]["3600"] == want.loc["M4", 3600]
    assert data["deltas"] == [600, 3600]
    for argv in (
        ["temporal", "collegemsg", "--edges", "0 1, 1 2", "--delta", "60,600"],
        ["temporal", "collegemsg", "--motif", "M1,M4"],
        ["temporal", "collegemsg", "--motif", "M1,M4", "--delta", "60", "--find", "3"],
    ):
        assert cli.main(argv, io.StringIO()) == 2


@pytest.mark.gpu
def test_cuda_motif_table_equals_cpu(college):
    pytest.importorskip("cupy")
    motifs = ["M1", "M4", "M8", "triangle", "01 10 01"]
    deltas = [600, 3600, 86400]
    cpu = ng.motif_counts(college, motifs, deltas, engine="cpu")
    from nx_gpumine.engines.cuda import temporal as cuda_temporal

    cuda_temporal.last_run.clear()
    pd.testing.assert_frame_equal(ng.motif_counts(college, motifs, deltas, engine="cuda"), cpu)
    # the table went through the CUDA count_table hook: the last motif's one walk at the
    # widest window binned its matches by the two narrower ones (the widest is its own count)
    assert cuda_temporal.last_run.get("windows") == len(deltas) - 1


@pytest.mark.gpu
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), windows=st.sets(st.integers(0, 6), min_size=1, max_size=9))
def test_cuda_count_windows_equal_cpu(case, windows):
    """The CUDA engine's one-walk count_windows (temporal_dfs.cu NWIN) equals the CPU's on
    random motifs (labels, gaps, anti-edges, both ties), up to 9 windows (two walks)."""
    pytest.importorskip("cupy")
    from nx_gpumine.engines.cuda import temporal as cuda_temporal

    edges, n_lab, e_lab, n_val, motif = case
    g = graph_of(edges, n_lab, e_lab, n_val, with_labels=True)
    lims = sorted(windows)
    top = motif.with_(delta=lims[-1] if motif.delta is not None else None)
    plan = build_temporal_plan(top, g)
    if cuda_temporal.unsupported(plan) is not None:
        return
    assert cuda_temporal.count_windows(g, plan, lims) == cpu_temporal.count_windows(g, plan, lims)


@pytest.mark.gpu
@pytest.mark.parametrize("tie", ["strict", "input_order"])
def test_cuda_count_windows_on_heavier_graphs(tie):
    """One walk per motif on a bursty graph with hubs (the counted last level's long ranges:
    pair index, mapped pairs, walked short windows) equals one CUDA count per window."""
    pytest.importorskip("cupy")
    from nx_gpumine.engines.cuda import temporal as cuda_temporal

    g = skewed_temporal_graph(n=3_000, m=60_000, seed=5, mean_gap=4)
    lims = [0, 5, 60, 600, 3_600]
    for name in ("M1", "M2", "M4", "M8", "M10", "M13", "triangle", "01 02 01", "path1", "path2"):
        plan = build_temporal_plan(_named(name, 7_200, tie), g)
        got = cuda_temporal.count_windows(g, plan, lims)
        # one walk (a census motif on a graph of heavy pairs takes the CPU's per-pair sweeps)
        walk = cuda_temporal.last_run.get("windows") == len(lims)
        assert walk or cuda_temporal.last_run.get("host_census"), name
        want = [cuda_temporal.count(g, build_temporal_plan(_named(name, w, tie), g)) for w in lims]
        assert got == [*want, cuda_temporal.count(g, plan)], name


@pytest.mark.gpu
def test_cuda_table_walks_run_together(monkeypatch):
    """count_table runs the one-walk motifs' walks together (a stream each): the same rows as
    one count_windows per motif, a repeated motif walked once, the others (per-pair sweeps)
    motif by motif."""
    pytest.importorskip("cupy")
    from nx_gpumine.engines.cuda import temporal as cuda_temporal

    calls = []
    real = cuda_temporal.count_ranges_windows

    def spy(graph, plans, windows, **kw):
        calls.append(len(plans))
        return real(graph, plans, windows, **kw)

    monkeypatch.setattr(cuda_temporal, "count_ranges_windows", spy)
    g = skewed_temporal_graph(n=3_000, m=60_000, seed=5, mean_gap=4)
    lims = [5, 60, 600, 3_600]
    names = ["M1", "M4", "M8", "M10", "M13", "M4", "triangle", "01 02 01", "path1", "path2"]
    for tie in ("strict", "input_order"):
        motifs = [_named(name, 3_600, tie) for name in names]
        rows = cuda_temporal.count_table(g, motifs, lims)
        want = [cuda_temporal.count_windows(g, build_temporal_plan(m, g), lims) for m in motifs]
        assert rows == want, tie
        assert calls and 2 <= calls[-1] <= len(set(names)), calls
    # from TOGETHER_MAX_EDGES edges on, the walks run one after another: the same rows
    calls.clear()
    monkeypatch.setattr(cuda_temporal, "TOGETHER_MAX_EDGES", g.m)
    motifs = [_named(name, 3_600, "strict") for name in names]
    assert cuda_temporal.count_table(g, motifs, lims) == [
        cuda_temporal.count_windows(g, build_temporal_plan(m, g), lims) for m in motifs
    ]
    assert not calls


def test_census_at_several_windows(college):
    frame = ng.motif_census(college, [600, 3600, None], engine="cpu")
    assert frame.shape == (36, 3) and list(frame.columns) == [600, 3600, None]
    assert frame.index.name == "motif" and (frame.dtypes == np.int64).all()
    for d in (600, 3600):
        one = ng.motif_census(college, d, engine="cpu")
        assert frame[d].to_dict() == one
    assert (frame[600] <= frame[3600]).all() and (frame[3600] <= frame[None]).all()
    with pytest.raises(QueryError, match="empty"):
        ng.motif_census(college, [])
    with pytest.raises(QueryError, match="twice"):
        ng.motif_census(college, [600, 600])
    with pytest.raises(QueryError, match="as_table"):
        ng.motif_census(college, [600, 3600], as_table=True)


def test_cli_census_at_several_windows(college):
    out = io.StringIO()
    argv = ["census", "collegemsg", "--delta", "600,3600", "--engine", "cpu", "--format", "json"]
    assert cli.main(argv, out) == 0
    data = json.loads(out.getvalue())
    want = ng.motif_census(college, [600, 3600], engine="cpu")
    assert data["counts"]["01 12 20"] == {
        "600": want.loc["01 12 20", 600],
        "3600": want.loc["01 12 20", 3600],
    }
    assert (
        cli.main(["census", "collegemsg", "--delta", "600,3600", "--plot", "x.png"], io.StringIO())
        == 2
    )
