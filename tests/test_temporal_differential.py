"""Differential property tests: temporal engines against a deliberately simple brute force.

Random small temporal multigraphs with heavy timestamp ties (times drawn from a handful of
values), loops and parallel edges; random motifs with every constraint kind alone and combined
(order, window, gaps, anti-edges, node/edge labels, numeric node comparisons), both tie policies.
The oracle loops over all ``l``-combinations of edges in stable time order (edges sorted stably
by time, so every match is increasing in that order) and checks each condition literally.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nx_gpumine.execution.temporal import run_temporal
from nx_gpumine.inputs.motifs import AntiEdge, TemporalMotif
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.temporal_plan import build_temporal_plan

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def brute_force(edges, motif, node_lab=None, edge_lab=None, node_val=None):
    """Set of tuples of input rows matching ``motif`` (edges: list of (u, v, t) in input order)."""
    order = sorted(range(len(edges)), key=lambda i: edges[i][2])  # stable
    found = set()
    for combo in itertools.combinations(order, motif.num_edges):
        # combinations of the stably sorted list keep the sorted order
        ts = [edges[i][2] for i in combo]
        if motif.tie == "strict" and any(ts[j] >= ts[j + 1] for j in range(len(ts) - 1)):
            continue
        if motif.delta is not None and ts[-1] - ts[0] > motif.delta:
            continue
        if motif.gaps is not None and any(
            g is not None and ts[j + 1] - ts[j] > g for j, g in enumerate(motif.gaps)
        ):
            continue
        f: dict = {}
        ok = True
        for (a, b), i in zip(motif.edges, combo, strict=True):
            u, v, _ = edges[i]
            for x, y in ((a, u), (b, v)):
                if f.setdefault(x, y) != y:
                    ok = False
        if not ok or len(set(f.values())) != len(f):
            continue
        if any(node_lab[f[a]] != val for a, val in motif.node_labels.items()):
            continue
        if any(edge_lab[combo[i]] != val for i, val in motif.edge_labels.items()):
            continue
        if any(not OPS[op](node_val[f[a]], val) for a, op, val in motif.node_where):
            continue
        for ae in motif.anti_edges:
            t_lo = ts[ae.after]
            t_hi = t_lo + ae.within if ae.within is not None else None
            if ae.within is None and motif.delta is not None:
                t_hi = ts[0] + motif.delta
            for u, v, t in edges:
                if (u, v) == (f[ae.a], f[ae.b]) and t > t_lo and (t_hi is None or t <= t_hi):
                    ok = False
        if ok:
            found.add(tuple(combo))
    return found


@st.composite
def cases(draw, ns=(2, 3, 3, 4), m_min=0, l_min=1, tops=(1, 2, 3)):
    n = draw(st.sampled_from(ns))
    m = draw(st.integers(m_min, 16))
    nt = draw(st.integers(1, 6))  # few distinct times: heavy ties
    edges = [
        (draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)), draw(st.integers(0, nt)))
        for _ in range(m)
    ]
    node_lab = [draw(st.integers(0, 1)) for _ in range(n)]
    edge_lab = [draw(st.integers(0, 1)) for _ in range(m)]
    node_val = [draw(st.integers(0, 3)) for _ in range(n)]
    # motif: l edges over <= 4 nodes, renumbered to 0..k-1
    l_ = draw(st.integers(l_min, 4))
    top = draw(st.sampled_from(tops))  # motif node ids 0..top: small tops give denser motifs
    raw = []
    for _ in range(l_):
        a = draw(st.integers(0, top))
        b = draw(st.integers(0, top).filter(lambda x, a=a: x != a))
        raw.append((a, b))
    nodes = sorted({x for e in raw for x in e})
    pos = {x: i for i, x in enumerate(nodes)}
    medges = [(pos[a], pos[b]) for a, b in raw]
    k = len(nodes)
    kinds = draw(
        st.sets(st.sampled_from(["delta", "gaps", "anti", "nlab", "elab", "where"]), max_size=3)
    )
    kw: dict = {"tie": draw(st.sampled_from(["strict", "input_order"]))}
    if "delta" in kinds:
        kw["delta"] = draw(st.integers(0, 5))
    if "gaps" in kinds and l_ > 1:
        kw["gaps"] = [draw(st.one_of(st.none(), st.integers(0, 3))) for _ in range(l_ - 1)]
    if "anti" in kinds and k >= 2:
        antis = []
        for _ in range(draw(st.integers(1, 2))):
            a = draw(st.integers(0, k - 1))
            b = draw(st.integers(0, k - 1).filter(lambda x, a=a: x != a))
            after = draw(st.integers(0, l_ - 1))
            within = draw(st.one_of(st.none(), st.integers(0, 4)))
            antis.append(AntiEdge(a, b, after, within))
        kw["anti_edges"] = antis
    if "nlab" in kinds:
        kw["node_labels"] = {
            a: draw(st.integers(0, 1)) for a in draw(st.sets(st.integers(0, k - 1), max_size=2))
        }
    if "elab" in kinds:
        kw["edge_labels"] = {
            i: draw(st.integers(0, 1)) for i in draw(st.sets(st.integers(0, l_ - 1), max_size=2))
        }
    if "where" in kinds:
        kw["node_where"] = [
            (draw(st.integers(0, k - 1)), draw(st.sampled_from(list(OPS))), draw(st.integers(0, 3)))
        ]
    motif = TemporalMotif(medges, **kw)
    return edges, node_lab, edge_lab, node_val, motif


def _graph(edges, n_lab, e_lab, n_val, with_labels):
    src = np.array([e[0] for e in edges], dtype=np.int64)
    dst = np.array([e[1] for e in edges], dtype=np.int64)
    t = np.array([e[2] for e in edges], dtype=np.int64)
    n = len(n_lab)
    if not with_labels:
        return temporal_from_arrays(src, dst, t, nodes=range(n))
    g = temporal_from_arrays(
        src, dst, t, nodes=range(n), edge_label=list(e_lab), node_labels=list(n_lab)
    )
    # numeric node values for node_where live beside the labels
    g.node_values = np.array(n_val, dtype=np.float64)
    return g


@SETTINGS
@given(case=cases())
def test_engine_matches_brute_force(engine, case):
    edges, n_lab, e_lab, n_val, motif = case
    g = _graph(edges, n_lab, e_lab, n_val, with_labels=True)
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
    g = _graph(edges, n_lab, e_lab, n_val, with_labels=True)
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

    g = _graph(edges, n_lab, e_lab, n_val, with_labels=True)
    plan = build_temporal_plan(motif, g)
    cut = data.draw(st.integers(0, g.m))
    total = cpu.count(g, plan)
    assert cpu.count(g, plan, 0, cut) + cpu.count(g, plan, cut, g.m) == total
    a = cpu.enumerate_matches(g, plan, 0, cut)
    b = cpu.enumerate_matches(g, plan, cut, g.m)
    assert (a[:, 0] < cut).all() and (b[:, 0] >= cut).all()
    assert len(a) + len(b) == total
