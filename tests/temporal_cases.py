"""Shared pieces of the temporal differential tests: random small temporal multigraphs with heavy
timestamp ties, random motifs with every constraint kind, and a deliberately simple brute force.

The oracle loops over all ``l``-combinations of edges in stable time order (edges sorted stably
by time, so every match is increasing in that order) and checks each condition literally.
Used by ``test_temporal_differential.py``, ``test_temporal_kinds_strict.py``,
``test_temporal_kinds_input_order.py`` and ``test_motif_table.py``.
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


def graph_of(edges, n_lab, e_lab, n_val, with_labels):
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


# ---------------------------------------------------------------------------------------------
# Every constraint kind alone, and all of them together, under both tie policies (explicitly
# parametrized, so each combination is exercised on every run, not only when drawn at random).
KINDS = ("order", "delta", "gaps", "anti", "nlab", "elab", "where")


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


def check_all_modes(engine, case):
    edges, n_lab, e_lab, n_val, motif = case
    g = graph_of(edges, n_lab, e_lab, n_val, with_labels=True)
    plan = build_temporal_plan(motif, g)
    expected = brute_force(edges, motif, n_lab, e_lab, n_val)
    got = run_temporal(g, plan, "enumerate", engine=engine)
    rows = [tuple(int(x) for x in g.rows[r]) for r in got]
    assert len(rows) == len(set(rows)), "duplicate matches"
    assert set(rows) == expected
    assert run_temporal(g, plan, "count", engine=engine) == len(expected)
    assert run_temporal(g, plan, "exists", engine=engine) == bool(expected)


KIND_SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
KIND_PARAMS = [
    *[pytest.param(frozenset({kind}), id=kind) for kind in KINDS],
    pytest.param(frozenset(KINDS) - {"order"}, id="combined"),
]


def constraint_kind_test(tie: str):
    """The test of every constraint kind alone (order only, window, gaps, anti-edges, node
    labels, edge labels, numeric node conditions) and all together under tie policy ``tie``,
    against the brute force: one per tie policy, each in a test file of its own so that
    ``--dist loadfile`` runs the two on different workers."""

    @pytest.mark.parametrize("kinds", KIND_PARAMS)
    @KIND_SETTINGS
    @given(data=st.data())
    def test_each_constraint_kind(engine, kinds, data):
        case = data.draw(kind_cases(kinds, tie))
        motif = case[4]
        assert motif.tie == tie
        assert ("delta" in kinds) == (motif.delta is not None)
        assert ("gaps" in kinds) == (motif.gaps is not None)
        assert ("anti" in kinds) == bool(motif.anti_edges)
        assert ("nlab" in kinds) == bool(motif.node_labels)
        assert ("elab" in kinds) == bool(motif.edge_labels)
        assert ("where" in kinds) == bool(motif.node_where)
        check_all_modes(engine, case)

    return test_each_constraint_kind
