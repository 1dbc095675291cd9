"""Time-partitioned execution (Everest's major partitions + minor overlap) gives the same answer.

Each partition runs on its own edge slice with its own plan, as a separate GPU would; counts,
match sets and existence must equal the single run, for windows, gaps only (reach from the gap
sum), anti-edges reaching past the window, and unbounded queries (the overlap runs to the end).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_gpumine.execution.temporal import run_temporal, run_temporal_partitioned
from nx_gpumine.inputs.motifs import AntiEdge, TemporalMotif, named_motif
from nx_gpumine.inputs.temporal_graph import load_collegemsg, temporal_from_arrays
from nx_gpumine.plan.temporal_plan import build_temporal_plan, time_partitions, time_reach

MOTIFS = {
    "triangle-3600": named_motif("triangle", 3600),
    "M4-600-input-order": named_motif("M4", 600, tie="input_order"),
    "gaps-only": TemporalMotif([(0, 1), (1, 2), (2, 0)], gaps=[300, 900]),
    "anti-beyond-window": TemporalMotif(
        [(0, 1), (1, 2), (2, 0)], delta=600, anti_edges=[AntiEdge(1, 0, 2, 5000)]
    ),
    "unbounded": TemporalMotif([(0, 1), (1, 0)]),
}


@pytest.fixture(scope="module")
def college():
    return load_collegemsg(12000)


def test_time_reach():
    g = load_collegemsg(100)
    reach = {name: time_reach(build_temporal_plan(m, g)) for name, m in MOTIFS.items()}
    assert reach == {
        "triangle-3600": 3600,
        "M4-600-input-order": 600,
        "gaps-only": 1200,
        "anti-beyond-window": 600 + 5000,  # R_2 = 600 (window), plus w = 5000
        "unbounded": None,
    }


def test_partitions_cover_the_roots(college):
    plan = build_temporal_plan(MOTIFS["triangle-3600"], college)
    parts = time_partitions(college, plan, 5)
    assert len(parts) == 5
    assert parts[0].root_lo == 0 and parts[-1].root_hi == college.m
    for a, b in zip(parts[:-1], parts[1:], strict=True):
        assert a.root_hi == b.root_lo
    for p in parts:
        assert p.edge_lo == p.root_lo and p.edge_hi >= p.root_hi
        # the overlap holds every edge within the reach of the last root, and no more
        t_last = college.time[p.root_hi - 1]
        assert (college.time[p.root_hi : p.edge_hi] <= t_last + 3600).all()
        if p.edge_hi < college.m:
            assert college.time[p.edge_hi] > t_last + 3600
    with pytest.raises(ValueError, match="nparts"):
        time_partitions(college, plan, 0)


@pytest.mark.parametrize("name", list(MOTIFS))
def test_partitioned_equals_single_run(engine, college, name):
    plan = build_temporal_plan(MOTIFS[name], college)
    whole = run_temporal(college, plan, "enumerate", engine=engine)
    parts = run_temporal_partitioned(college, plan, "enumerate", 4, engine=engine)
    assert len(parts) == len(whole)
    assert set(map(tuple, parts.tolist())) == set(map(tuple, whole.tolist()))
    assert run_temporal_partitioned(college, plan, "count", 7, engine=engine) == len(whole)
    assert run_temporal_partitioned(college, plan, "exists", 3, engine=engine) == bool(len(whole))
    if len(whole) > 3:
        lim = run_temporal_partitioned(college, plan, "enumerate", 4, engine=engine, limit=3)
        assert len(lim) == 3
        assert set(map(tuple, lim.tolist())) <= set(map(tuple, whole.tolist()))


def test_edge_slice_keeps_vertices_and_labels():
    g = temporal_from_arrays(
        np.array([0, 1, 2, 0, 1]),
        np.array([1, 2, 0, 2, 0]),
        np.array([5, 1, 3, 3, 9]),
        edge_label=["a", "b", "a", "b", "a"],
    )
    s = g.edge_slice(1, 4)
    assert s.n == g.n and s.m == 3
    assert s.src.tolist() == g.src[1:4].tolist() and s.time.tolist() == g.time[1:4].tolist()
    assert s.edge_label.tolist() == g.edge_label[1:4].tolist()
    assert s.rows.tolist() == g.rows[1:4].tolist()
    for v in range(g.n):
        assert (s.out_edges[s.out_ptr[v] : s.out_ptr[v + 1]] + 1).tolist() == [
            e for e in g.out_edges[g.out_ptr[v] : g.out_ptr[v + 1]].tolist() if 1 <= e < 4
        ]
    with pytest.raises(ValueError, match="outside"):
        g.edge_slice(2, 9)


@settings(max_examples=60, deadline=None)
@given(
    edges=st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 12)), max_size=30
    ),
    delta=st.one_of(st.none(), st.integers(0, 6)),
    gap=st.one_of(st.none(), st.integers(0, 4)),
    within=st.one_of(st.none(), st.integers(0, 8)),
    nparts=st.integers(1, 6),
    tie=st.sampled_from(["strict", "input_order"]),
)
def test_partitioned_random(edges, delta, gap, within, nparts, tie):
    g = temporal_from_arrays(
        np.array([e[0] for e in edges], dtype=np.int64),
        np.array([e[1] for e in edges], dtype=np.int64),
        np.array([e[2] for e in edges], dtype=np.int64),
        nodes=range(5),
    )
    motif = TemporalMotif(
        [(0, 1), (1, 2), (2, 0)],
        delta=delta,
        gaps=[gap, gap],
        anti_edges=[AntiEdge(0, 2, 1, within)],
        tie=tie,
    )
    plan = build_temporal_plan(motif, g)
    assert run_temporal_partitioned(g, plan, "count", nparts, engine="cpu") == run_temporal(
        g, plan, "count", engine="cpu"
    )
