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
import pytest
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
            # the interval's end as the engines compare it: a difference from its base time
            # (t - base <= limit; with float times t <= base + limit can round the other way)
            t_lo = ts[ae.after]
            base, lim = (t_lo, ae.within) if ae.within is not None else (ts[0], motif.delta)
            for u, v, t in edges:
                if (u, v) == (f[ae.a], f[ae.b]) and t > t_lo and (lim is None or t - base <= lim):
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


# ---------------------------------------------------------------------------------------------
# Every constraint kind alone, and all of them together, under both tie policies (explicitly
# parametrized, so each combination is exercised on every run, not only when drawn at random).
KINDS = ("order", "delta", "gaps", "anti", "nlab", "elab", "where")
TIES = ("strict", "input_order")
KIND_SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def kind_cases(draw, kinds: frozenset, tie: str):
    """A random graph (heavy ties) and motif edges from :func:`cases`, with exactly ``kinds``.

    ``"order"`` alone is the bare ordered motif (no window, gap, anti-edge or label); every other
    kind is always present (non-empty) when named. Most draws pick a *witness*: a match of
    the bare ordered motif, and the window, gaps, labels and node conditions are drawn so that
    the witness satisfies them (often exactly at the limit), so combined constraints still leave
    matches to find (anti-edges the witness passes are preferred); the other draws pick every
    limit and label blindly.
    """
    l_min = 2 if "gaps" in kinds else 1
    edges, n_lab, e_lab, n_val, base = draw(cases(m_min=6, l_min=l_min))
    k, l_ = base.k, base.num_edges
    bare = sorted(brute_force(edges, TemporalMotif(base.edges, tie=tie)))
    witness = draw(st.sampled_from(bare)) if bare and draw(st.integers(0, 3)) else None
    f: dict = {}
    if witness is not None:
        for (a, b), row in zip(base.edges, witness, strict=True):
            f[a], f[b] = edges[row][0], edges[row][1]
        ts = [edges[row][2] for row in witness]
    kw: dict = {"tie": tie}
    if "delta" in kinds:
        lo = 0 if witness is None else ts[-1] - ts[0]
        kw["delta"] = lo + draw(st.integers(0, 5 if witness is None else 2))
    if "gaps" in kinds:
        gaps = []
        for j in range(l_ - 1):
            lo = 0 if witness is None else ts[j + 1] - ts[j]
            gaps.append(draw(st.one_of(st.none(), st.integers(lo, lo + 3))))
        if all(g is None for g in gaps):
            j = draw(st.integers(0, l_ - 2))
            gaps[j] = 0 if witness is None else ts[j + 1] - ts[j]
        kw["gaps"] = gaps
    if "anti" in kinds:
        antis = []
        for _ in range(draw(st.integers(1, 2))):
            for _attempt in range(4):  # with a witness, prefer anti-edges it passes
                a = draw(st.integers(0, k - 1))
                b = draw(st.integers(0, k - 1).filter(lambda x, a=a: x != a))
                after = draw(st.integers(0, l_ - 1))
                within = draw(st.one_of(st.none(), st.integers(0, 4)))
                if witness is None:
                    break
                lo = ts[after]
                hi = lo + within if within is not None else ts[0] + kw.get("delta", 10**9)
                if not any((u, v) == (f[a], f[b]) and lo < t <= hi for u, v, t in edges):
                    break
            antis.append(AntiEdge(a, b, after, within))
        kw["anti_edges"] = antis
    if "nlab" in kinds:
        nodes = draw(st.sets(st.integers(0, k - 1), min_size=1, max_size=2))
        kw["node_labels"] = {
            a: draw(st.integers(0, 1)) if witness is None else n_lab[f[a]] for a in nodes
        }
    if "elab" in kinds:
        idx = draw(st.sets(st.integers(0, l_ - 1), min_size=1, max_size=2))
        kw["edge_labels"] = {
            i: draw(st.integers(0, 1)) if witness is None else e_lab[witness[i]] for i in idx
        }
    if "where" in kinds:
        conds = []
        for _ in range(draw(st.integers(1, 2))):
            a, op = draw(st.integers(0, k - 1)), draw(st.sampled_from(list(OPS)))
            if witness is None:
                val = draw(st.integers(0, 3))
            else:  # a value the witness passes, at the boundary or one step inside
                step = draw(st.integers(0, 1)) + (1 if op in ("<", ">") else 0)
                val = n_val[f[a]] + (step if op in ("<", "<=") else -step)
            conds.append((a, op, val))
        kw["node_where"] = conds
    return edges, n_lab, e_lab, n_val, TemporalMotif(base.edges, **kw)


def _check_all_modes(engine, case):
    edges, n_lab, e_lab, n_val, motif = case
    g = _graph(edges, n_lab, e_lab, n_val, with_labels=True)
    plan = build_temporal_plan(motif, g)
    expected = brute_force(edges, motif, n_lab, e_lab, n_val)
    got = run_temporal(g, plan, "enumerate", engine=engine)
    rows = [tuple(int(x) for x in g.rows[r]) for r in got]
    assert len(rows) == len(set(rows)), "duplicate matches"
    assert set(rows) == expected
    assert run_temporal(g, plan, "count", engine=engine) == len(expected)
    assert run_temporal(g, plan, "exists", engine=engine) == bool(expected)


_KIND_PARAMS = [
    *[pytest.param(frozenset({kind}), tie, id=f"{kind}-{tie}") for kind in KINDS for tie in TIES],
    *[pytest.param(frozenset(KINDS) - {"order"}, tie, id=f"combined-{tie}") for tie in TIES],
]


@pytest.mark.parametrize("kinds,tie", _KIND_PARAMS)
@KIND_SETTINGS
@given(data=st.data())
def test_each_constraint_kind_and_tie_policy(engine, kinds, tie, data):
    """Each kind alone (order only, window, gaps, anti-edges, node labels, edge labels, numeric
    node conditions) and all together, under each tie policy, against the brute force."""
    case = data.draw(kind_cases(kinds, tie))
    motif = case[4]
    assert motif.tie == tie
    assert ("delta" in kinds) == (motif.delta is not None)
    assert ("gaps" in kinds) == (motif.gaps is not None)
    assert ("anti" in kinds) == bool(motif.anti_edges)
    assert ("nlab" in kinds) == bool(motif.node_labels)
    assert ("elab" in kinds) == bool(motif.edge_labels)
    assert ("where" in kinds) == bool(motif.node_where)
    _check_all_modes(engine, case)


def test_constraint_kinds_hand_checked(engine):
    """A fixed graph where each kind changes the answer; expected numbers counted by hand."""
    # input rows 0..5 as (u, v, t); ties at t=1 (rows 0, 1) and at t=3 (rows 3, 4)
    edges = [(0, 1, 1), (0, 1, 1), (1, 2, 2), (1, 2, 3), (2, 0, 3), (2, 0, 9)]
    n_lab, e_lab, n_val = [0, 1, 0], [0, 1, 0, 1, 0, 1], [5, 1, 3]
    g = _graph(edges, n_lab, e_lab, n_val, with_labels=True)

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
