"""Differential property tests: temporal engines against a deliberately simple brute force.

Random small temporal multigraphs with heavy timestamp ties (times drawn from a handful of
values), loops and parallel edges; random motifs with every constraint kind alone and combined
(order, window, gaps, anti-edges, node/edge labels, numeric node comparisons), both tie policies,
against the brute force of ``temporal_cases.py``. Each constraint kind alone and all together,
explicitly parametrized, are in ``test_temporal_kinds_strict.py`` and
``test_temporal_kinds_input_order.py`` (separate files so that ``--dist loadfile`` spreads them).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from temporal_cases import brute_force, cases, graph_of

from nx_gpumine.execution.temporal import run_temporal
from nx_gpumine.inputs.motifs import TemporalMotif
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.temporal_plan import build_temporal_plan

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SETTINGS
@given(case=cases())
def test_engine_matches_brute_force(engine, case):
    edges, n_lab, e_lab, n_val, motif = case
    g = graph_of(edges, n_lab, e_lab, n_val, with_labels=True)
    plan = build_temporal_plan(motif, g)
    expected = brute_force(edges, motif, n_lab, e_lab, n_val)
    got = run_temporal(g, plan, "enumerate", engine=engine)
    rows = {tuple(int(x) for x in g.rows[r]) for r in got}
    assert len(got) == len(rows), "duplicate matches"
    assert rows == expected
    assert run_temporal(g, plan, "count", engine=engine) == len(expected)
    assert run_temporal(g, plan, "exists", engine=engine) == bool(expected)
    if expected:
        lim = run_temporal(g, plan, "enumerate", engine=engine, limit=1)
        assert len(lim) == 1 and tuple(int(x) for x in g.rows[lim[0]]) in expected


@settings(max_examples=80, deadline=None)
@given(case=cases(ns=(2, 3), m_min=8, l_min=3, tops=(1, 2)))
def test_long_motifs_on_dense_graphs(case):
    edges, n_lab, e_lab, n_val, motif = case
    g = graph_of(edges, n_lab, e_lab, n_val, with_labels=True)
    plan = build_temporal_plan(motif, g)
    got = run_temporal(g, plan, "enumerate", engine="cpu")
    assert {tuple(int(x) for x in g.rows[r]) for r in got} == brute_force(
        edges, motif, n_lab, e_lab, n_val
    )


@SETTINGS
@given(case=cases(), shift=st.floats(0.0, 0.5))
def test_float_times_match_brute_force(engine, case, shift):
    edges, n_lab, e_lab, n_val, motif = case
    motif = motif.with_(node_labels={}, edge_labels={}, node_where=())
    fedges = [(u, v, t * 1.5 + shift) for u, v, t in edges]
    src = np.array([e[0] for e in fedges], dtype=np.int64)
    dst = np.array([e[1] for e in fedges], dtype=np.int64)
    t = np.array([e[2] for e in fedges], dtype=np.float64)
    g = temporal_from_arrays(src, dst, t, nodes=range(len(n_lab)))
    plan = build_temporal_plan(motif, g)
    expected = brute_force(fedges, motif)
    got = run_temporal(g, plan, "enumerate", engine=engine)
    assert {tuple(int(x) for x in g.rows[r]) for r in got} == expected


@settings(max_examples=40, deadline=None)
@given(case=cases(), data=st.data())
def test_root_ranges_partition_the_matches(case, data):
    edges, n_lab, e_lab, n_val, motif = case
    from nx_gpumine.engines.cpu import temporal as cpu

    g = graph_of(edges, n_lab, e_lab, n_val, with_labels=True)
    plan = build_temporal_plan(motif, g)
    cut = data.draw(st.integers(0, g.m))
    total = cpu.count(g, plan)
    assert cpu.count(g, plan, 0, cut) + cpu.count(g, plan, cut, g.m) == total
    a = cpu.enumerate_matches(g, plan, 0, cut)
    b = cpu.enumerate_matches(g, plan, cut, g.m)
    assert (a[:, 0] < cut).all() and (b[:, 0] >= cut).all()
    assert len(a) + len(b) == total


def test_constraint_kinds_hand_checked(engine):
    """A fixed graph where each kind changes the answer; expected numbers counted by hand."""
    # input rows 0..5 as (u, v, t); ties at t=1 (rows 0, 1) and at t=3 (rows 3, 4)
    edges = [(0, 1, 1), (0, 1, 1), (1, 2, 2), (1, 2, 3), (2, 0, 3), (2, 0, 9)]
    n_lab, e_lab, n_val = [0, 1, 0], [0, 1, 0, 1, 0, 1], [5, 1, 3]
    g = graph_of(edges, n_lab, e_lab, n_val, with_labels=True)

    def count(m):
        return run_temporal(g, build_temporal_plan(m, g), "count", engine=engine)

    path = TemporalMotif([(0, 1), (1, 2)])
    # 0->1->2: rows {0,1} x {2,3} = 4; 1->2->0: (2,4) (2,5) (3,5), and (3,4) only with ties
    assert count(path) == 7
    assert count(path.with_(tie="input_order")) == 8
    tri = TemporalMotif([(0, 1), (1, 2), (2, 0)])
    # order: {0,1} x (row 2 -> rows {4,5}; row 3 (t=3) -> row 5 only) = 6; ties: + row 3 -> 4
    assert count(tri) == 6
    assert count(tri.with_(tie="input_order")) == 8
    assert count(tri.with_(delta=2)) == 2  # t3 <= 3: (0,2,4) (1,2,4)
    assert count(tri.with_(gaps=[1, None])) == 4  # t2 - t1 <= 1: row 2 only
    assert count(tri.with_(gaps=[None, 1])) == 2  # t3 - t2 <= 1: (., 2, 4)
    assert count(tri.with_(edge_labels={0: 1})) == 3  # only row 1 (label 1) starts
    assert count(tri.with_(node_labels={1: 0})) == 0  # motif node 1 -> graph node 1 (label 1)
    assert count(tri.with_(node_labels={1: 1, 2: 0})) == 6
    assert count(tri.with_(node_where=[(0, ">", 4)])) == 6  # graph node 0 has value 5
    assert count(tri.with_(node_where=[(2, "<", 3)])) == 0  # graph node 2 has value 3
    # no 0 -> 1 after t = 1: nothing forbidden (row 1 has the same time, not after)
    assert count(tri.with_(anti_edges=[(0, 1, 0, 5)])) == 6
    # no 2 -> 0 in (t_2, t_2 + 1]: row 4 (t=3) kills e_2 = row 2 (t=2), row 3 (t=3) survives
    assert count(tri.with_(anti_edges=[(2, 0, 1, 1)])) == 2
    # no 2 -> 0 in (t_2, t_2 + 10]: the match's own closing edge is such an edge
    assert count(tri.with_(anti_edges=[(2, 0, 1, 10)])) == 0
