"""The NetworkX -> StaticGraph conversion cache: NetworkX's namespace and switch, never stale."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.errors import InputError
from nx_gpumine.inputs.static_graph import CACHE_KEY, from_networkx


def _nx_count(G, P, **match) -> int:
    return sum(1 for _ in iso.GraphMatcher(G, P, **match).subgraph_monomorphisms_iter())


@pytest.fixture
def club_triangle() -> nx.Graph:
    P = nx.complete_graph(3)
    nx.set_node_attributes(P, "Mr. Hi", "club")
    return P


@pytest.fixture
def caching_on():
    old = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = True
    yield
    nx.config.cache_converted_graphs = old


def test_stale_count_after_node_attribute_change(club_triangle, caching_on):
    """Issue 14's reproducer: a count after ``G.nodes[v][attr] = ...`` returned the old one."""
    K = nx.karate_club_graph()
    match = {"node_match": iso.categorical_node_match("club", None)}
    first = ng.count_subgraphs(K, club_triangle, node_label="club", engine="cpu")
    assert first == _nx_count(K, club_triangle, **match) == 156
    for v in K:
        K.nodes[v]["club"] = "Mr. Hi"  # in place: NetworkX does not clear its cache
    again = ng.count_subgraphs(K, club_triangle, node_label="club", engine="cpu")
    assert again == _nx_count(K, club_triangle, **match) == 270


def test_stale_after_edge_attribute_change(caching_on):
    G = nx.cycle_graph(6)
    G.add_edges_from([(0, 2), (2, 4), (4, 0)])
    nx.set_edge_attributes(G, "a", "kind")
    P = nx.complete_graph(3)
    nx.set_edge_attributes(P, "a", "kind")
    match = {"edge_match": iso.categorical_edge_match("kind", None)}
    assert (
        ng.count_subgraphs(G, P, edge_label="kind", engine="cpu") == 24 == _nx_count(G, P, **match)
    )
    G.edges[0, 2]["kind"] = "b"  # in place: two of the four triangles lose a matching edge
    assert (
        ng.count_subgraphs(G, P, edge_label="kind", engine="cpu") == 12 == _nx_count(G, P, **match)
    )
    G.edges[0, 2]["kind"] = "a"
    assert ng.count_subgraphs(G, P, edge_label="kind", engine="cpu") == 24
    del G.edges[0, 2]["kind"]
    with pytest.raises(InputError, match="kind"):
        ng.count_subgraphs(G, P, edge_label="kind", engine="cpu")


def test_cache_reused_and_in_networkx_namespace(caching_on):
    G = nx.karate_club_graph()
    a = from_networkx(G, node_label="club")
    b = from_networkx(G, node_label="club")
    assert a is b
    assert set(G.__networkx_cache__) == {CACHE_KEY}
    c = from_networkx(G)  # other labels: another entry
    assert c is not a and from_networkx(G) is c
    assert len(G.__networkx_cache__[CACHE_KEY]) == 2
    G.add_edge(0, 100)  # structural mutation: NetworkX clears the cache
    assert CACHE_KEY not in G.__networkx_cache__
    d = from_networkx(G)
    assert d is not c and (d.n, d.num_edges) == (c.n + 1, c.num_edges + 1)


def test_cache_switch_off():
    G = nx.karate_club_graph()
    old = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = False
    try:
        a = from_networkx(G)
        assert from_networkx(G) is not a
        assert CACHE_KEY not in G.__networkx_cache__
    finally:
        nx.config.cache_converted_graphs = old
    nx.config.cache_converted_graphs = True
    try:
        assert from_networkx(G) is from_networkx(G)
        assert from_networkx(G, cache=False) is not from_networkx(G)
    finally:
        nx.config.cache_converted_graphs = old


def test_networkx_dispatch_unaffected_by_our_entries(caching_on):
    G1 = nx.petersen_graph()
    G2 = nx.relabel_nodes(G1, {v: f"n{v}" for v in G1})
    from_networkx(G1)
    from_networkx(G2)
    assert nx.is_isomorphic(G1, G2, backend="gpumine")
    assert nx.is_isomorphic(G1, G2)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**31),
    st.lists(
        st.tuples(st.sampled_from(["node", "edge", "add"]), st.integers(0, 50), st.integers(0, 2)),
        max_size=8,
    ),
)
def test_property_cached_equals_fresh(seed, ops):
    old = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = True
    try:
        G = nx.gnm_random_graph(12, 30, seed=seed)
        nx.set_node_attributes(G, {v: v % 2 for v in G}, "c")
        nx.set_edge_attributes(G, 0, "e")
        P = nx.path_graph(3)
        nx.set_node_attributes(P, {0: 0, 1: 1, 2: 0}, "c")
        nx.set_edge_attributes(P, 0, "e")
        kw = {"node_label": "c", "edge_label": "e", "engine": "cpu"}
        for kind, x, val in ops:
            ng.count_subgraphs(G, P, **kw)  # fills the cache before each mutation
            if kind == "node":
                G.nodes[x % 12]["c"] = val
            elif kind == "edge" and G.number_of_edges():
                u, v = list(G.edges)[x % G.number_of_edges()]
                G.edges[u, v]["e"] = val
            else:
                G.add_edge(x % 12, (x * 7 + 1) % 12, e=val)
            fresh = ng.count_subgraphs(
                from_networkx(G, cache=False, node_label="c", edge_label="e"), P, **kw
            )
            assert ng.count_subgraphs(G, P, **kw) == fresh
            match = {
                "node_match": iso.categorical_node_match("c", None),
                "edge_match": iso.categorical_edge_match("e", None),
            }
            assert fresh == _nx_count(G, P, **match)
    finally:
        nx.config.cache_converted_graphs = old
