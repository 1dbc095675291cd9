"""Drop-in TimeRespecting*Matcher: same results as NetworkX's on random inputs."""

from __future__ import annotations

from datetime import datetime, timedelta

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

from nx_gpumine.interfaces.temporal_isomorphism import (
    TimeRespectingDiGraphMatcher,
    TimeRespectingGraphMatcher,
    vf2_g2_order,
)

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def graphs(draw, n_min, n_max, directed, connected=False, timed=True):
    n = draw(st.integers(n_min, n_max))
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))  # node 0 included on purpose (NetworkX treats it as falsy)
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (directed or u < v)]
    if connected:
        for v in range(1, n):
            u = draw(st.integers(0, v - 1))
            a, b = (u, v) if (not directed or draw(st.booleans())) else (v, u)
            G.add_edge(a, b)
    G.add_edges_from(draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))))
    for u, v in G.edges():
        G.edges[u, v]["date"] = draw(st.integers(0, 8)) if timed else 0
    return G


def _keyset(it):
    return {tuple(sorted(m.items())) for m in it}


@st.composite
def cases(draw):
    directed = draw(st.booleans())
    G1 = draw(graphs(3, 8, directed))
    G2 = draw(graphs(2, min(4, len(G1)), directed, connected=True))
    delta = draw(st.integers(0, 6))
    return G1, G2, delta


@SETTINGS
@given(case=cases())
def test_matchers_equal_networkx(case):
    G1, G2, delta = case
    if G1.is_directed():
        ours = TimeRespectingDiGraphMatcher(G1, G2, "date", delta)
        ref = iso.TimeRespectingDiGraphMatcher(G1, G2, "date", delta)
    else:
        ours = TimeRespectingGraphMatcher(G1, G2, "date", delta)
        ref = iso.TimeRespectingGraphMatcher(G1, G2, "date", delta)
    assert ours.uses_engine
    expected_iso = _keyset(ref.subgraph_isomorphisms_iter())
    expected_mono = _keyset(ref.subgraph_monomorphisms_iter())
    assert _keyset(ours.subgraph_isomorphisms_iter()) == expected_iso
    assert _keyset(ours.subgraph_monomorphisms_iter()) == expected_mono
    assert ours.subgraph_is_isomorphic() == bool(expected_iso)
    if expected_iso:
        assert tuple(sorted(ours.mapping.items())) in expected_iso
    assert ours.subgraph_is_monomorphic() == bool(expected_mono)


@SETTINGS
@given(directed=st.booleans(), data=st.data())
def test_isomorphism_methods_equal_networkx(directed, data):
    G1 = data.draw(graphs(2, 5, directed, connected=True))
    perm = data.draw(st.permutations(list(G1)))
    G2 = nx.relabel_nodes(G1, dict(zip(G1, perm, strict=True)))
    for u, v in G2.edges():
        G2.edges[u, v]["date"] = data.draw(st.integers(0, 8))
    delta = data.draw(st.integers(0, 6))
    cls, ref_cls = (
        (TimeRespectingDiGraphMatcher, iso.TimeRespectingDiGraphMatcher)
        if directed
        else (TimeRespectingGraphMatcher, iso.TimeRespectingGraphMatcher)
    )
    ours, ref = cls(G1, G2, "date", delta), ref_cls(G1, G2, "date", delta)
    assert _keyset(ours.isomorphisms_iter()) == _keyset(ref.isomorphisms_iter())
    assert ours.is_isomorphic() == ref.is_isomorphic()


def test_datetimes_and_timedelta():
    t0 = datetime(2024, 1, 1)
    G1 = nx.DiGraph()
    G1.add_edge("a", "b", date=t0)
    G1.add_edge("b", "c", date=t0 + timedelta(hours=2))
    G1.add_edge("c", "a", date=t0 + timedelta(hours=30))
    G2 = nx.DiGraph([(1, 2), (2, 3)])
    for d in (timedelta(hours=1), timedelta(hours=3), timedelta(days=2)):
        ours = TimeRespectingDiGraphMatcher(G1, G2, "date", d)
        ref = iso.TimeRespectingDiGraphMatcher(G1, G2, "date", d)
        assert _keyset(ours.subgraph_monomorphisms_iter()) == _keyset(
            ref.subgraph_monomorphisms_iter()
        )


def test_multigraph_falls_back_to_networkx():
    # NetworkX 3.6's multigraph branch is unreachable (MultiDiGraph is a DiGraph), so it raises
    # KeyError on parallel edges; the drop-in falls back and behaves the same.
    G1 = nx.MultiDiGraph()
    G1.add_edge(1, 2, date=1)
    G1.add_edge(1, 2, date=5)
    G1.add_edge(2, 3, date=2)
    G2 = nx.MultiDiGraph([(1, 2), (2, 3)])
    ours = TimeRespectingDiGraphMatcher(G1, G2, "date", 3)
    ref = iso.TimeRespectingDiGraphMatcher(G1, G2, "date", 3)
    assert not ours.uses_engine
    outcomes = []
    for m in (ours, ref):
        try:
            outcomes.append(_keyset(m.subgraph_monomorphisms_iter()))
        except KeyError as exc:
            outcomes.append(("KeyError", exc.args))
    assert outcomes[0] == outcomes[1]


def test_vf2_order_prefers_out_then_in_terminals():
    G2 = nx.DiGraph([(2, 0), (0, 1), (3, 1)])
    G2.add_node(4)
    assert vf2_g2_order(G2) == [2, 0, 1, 3, 4]
