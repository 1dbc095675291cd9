"""Differential property tests: nx_gpumine against NetworkX's VF2 matchers on random inputs.

Random small graphs and connected patterns, directed or not, with self-loops, node labels and
edge labels, induced and not: the sets of mappings must be identical to
``GraphMatcher``/``DiGraphMatcher`` with categorical matchers, and distinct-subgraph counts must
equal NetworkX's mapping count divided by NetworkX's own count of pattern automorphisms.
"""

from __future__ import annotations

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.engines import select_engine
from nx_gpumine.engines.contract import STATIC_MIN_K
from nx_gpumine.execution.static import run_static
from nx_gpumine.interfaces.isomorphism import DiGraphMatcher, GraphMatcher
from nx_gpumine.plan.static_plan import build_static_plan

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def graphs(draw, n_min, n_max, directed, labeled_nodes, labeled_edges, connected=False):
    n = draw(st.integers(n_min, n_max))
    G = nx.DiGraph() if directed else nx.Graph()
    for v in range(n):
        if labeled_nodes:
            G.add_node(v, c=draw(st.integers(0, 1)))
        else:
            G.add_node(v)
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (directed or u < v)]
    if connected:
        for v in range(1, n):
            u = draw(st.integers(0, v - 1))
            a, b = (u, v) if (not directed or draw(st.booleans())) else (v, u)
            G.add_edge(a, b)
    extra = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    G.add_edges_from(extra)
    loops = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2))
    G.add_edges_from((v, v) for v in loops)
    if labeled_edges:
        for u, v in G.edges():
            G.edges[u, v]["w"] = draw(st.integers(0, 1))
    return G


@st.composite
def cases(draw):
    directed = draw(st.booleans())
    ln = draw(st.booleans())
    le = draw(st.booleans())
    G = draw(graphs(3, 9, directed, ln, le))
    P = draw(graphs(2, min(4, len(G)), directed, ln, le, connected=True))
    induced = draw(st.booleans())
    return G, P, induced, ln, le


def _matchers(ln, le):
    nm = iso.categorical_node_match("c", None) if ln else None
    em = iso.categorical_edge_match("w", None) if le else None
    return nm, em


def _nx_maps(G, P, induced, nm, em):
    cls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = cls(G, P, node_match=nm, edge_match=em)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    return [frozenset(m.items()) for m in it]


def _nx_automorphisms(P, nm, em):
    cls = iso.DiGraphMatcher if P.is_directed() else iso.GraphMatcher
    return sum(1 for _ in cls(P, P, node_match=nm, edge_match=em).isomorphisms_iter())


@SETTINGS
@given(case=cases())
def test_mappings_equal_networkx(engine, case):
    G, P, induced, ln, le = case
    nm, em = _matchers(ln, le)
    labels = {"node_label": "c" if ln else None, "edge_label": "w" if le else None}
    expected = _nx_maps(G, P, induced, nm, em)
    got = [
        frozenset(m.items())
        for m in ng.iter_subgraph_mappings(G, P, induced=induced, engine=engine, **labels)
    ]
    assert len(got) == len(set(got))
    assert set(got) == set(expected)
    count = ng.count_subgraphs(G, P, induced=induced, engine=engine, **labels)
    assert count == len(expected)
    # a mapping plan (no symmetry restrictions): execution counts it through its distinct
    # sibling x |Aut(P)|; the engine itself walks every mapping (plans of 3+ nodes reach it)
    g = ng.from_networkx(G, **labels)
    plan = build_static_plan(
        ng.Pattern.from_networkx(P, **labels), g, induced=induced, distinct=False
    )
    assert run_static(g, plan, "count", engine=engine) == len(expected)
    if plan.k >= STATIC_MIN_K:
        assert select_engine(engine, "static", plan).count(g, plan) == len(expected)
    assert ng.has_subgraph(G, P, induced=induced, engine=engine, **labels) == bool(expected)
    # distinct occurrences: symmetry breaking == NetworkX mappings / NetworkX |Aut(P)|
    aut = _nx_automorphisms(P, nm, em)
    assert ng.Pattern.from_networkx(P, **labels).num_automorphisms() == aut
    distinct = ng.count_subgraphs(G, P, induced=induced, count="subgraphs", engine=engine, **labels)
    assert distinct * aut == len(expected)
    rows = ng.find_subgraphs(G, P, induced=induced, distinct=True, engine=engine, **labels)
    assert len(rows) == distinct
    # each distinct row is a valid mapping, and their Aut(P)-orbits are disjoint and cover all
    pnodes = list(P.nodes())
    cls = iso.DiGraphMatcher if P.is_directed() else iso.GraphMatcher
    auts = list(cls(P, P, node_match=nm, edge_match=em).isomorphisms_iter())
    covered = set()
    for row in rows.tolist():
        image = dict(zip(pnodes, row, strict=True))
        assert frozenset((g, a) for a, g in image.items()) in set(expected)
        for sigma in auts:
            covered.add(frozenset((image[sigma[a]], a) for a in pnodes))
    assert covered == set(expected)


@SETTINGS
@given(case=cases())
def test_dropin_matchers_equal_networkx(case):
    G, P, induced, ln, le = case
    nm, em = _matchers(ln, le)
    cls = DiGraphMatcher if G.is_directed() else GraphMatcher
    gm = cls(G, P, node_match=nm, edge_match=em)
    assert gm.uses_engine, gm.fallback_reason
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    got = [frozenset(m.items()) for m in it]
    expected = _nx_maps(G, P, induced, nm, em)
    assert len(got) == len(set(got))
    assert set(got) == set(expected)
    is_ = gm.subgraph_is_isomorphic() if induced else gm.subgraph_is_monomorphic()
    assert is_ == bool(expected)
    if is_:
        assert frozenset(gm.mapping.items()) in set(expected)


@st.composite
def iso_cases(draw):
    directed = draw(st.booleans())
    ln = draw(st.booleans())
    le = draw(st.booleans())
    G = draw(graphs(2, 6, directed, ln, le, connected=True))
    nodes = list(G)
    perm = dict(zip(nodes, draw(st.permutations(nodes)), strict=True))
    H = nx.relabel_nodes(G, perm)
    if draw(st.booleans()):
        # toggle one pair: usually no longer isomorphic
        u, v = draw(st.sampled_from([(a, b) for a in nodes for b in nodes]))
        if H.has_edge(u, v):
            H.remove_edge(u, v)
        else:
            H.add_edge(u, v, **({"w": 0} if le else {}))
    return G, H, ln, le


@SETTINGS
@given(case=iso_cases())
def test_isomorphism_equal_networkx(case):
    G, H, ln, le = case
    nm, em = _matchers(ln, le)
    cls = DiGraphMatcher if G.is_directed() else GraphMatcher
    nxcls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    ours = cls(G, H, node_match=nm, edge_match=em)
    theirs = nxcls(G, H, node_match=nm, edge_match=em)
    assert ours.is_isomorphic() == theirs.is_isomorphic()
    a = [frozenset(m.items()) for m in ours.isomorphisms_iter()]
    b = {frozenset(m.items()) for m in theirs.isomorphisms_iter()}
    assert len(a) == len(set(a))
    assert set(a) == b
