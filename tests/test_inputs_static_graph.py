"""Ingestion of static graphs: NetworkX, frames (pandas / polars / pyarrow), arrays; validation."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.inputs.static_graph import IMPOSSIBLE_LABEL, as_static_graph


def _edge_set(g: ng.StaticGraph) -> set:
    s, d = g.edges()
    keys = g.keys
    if g.directed:
        return {(keys[u], keys[v]) for u, v in zip(s.tolist(), d.tolist(), strict=True)}
    return {frozenset((keys[u], keys[v])) for u, v in zip(s.tolist(), d.tolist(), strict=True)}


@st.composite
def nx_graphs(draw):
    directed = draw(st.booleans())
    n = draw(st.integers(1, 12))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40))
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(pairs)
    return G


@settings(max_examples=60, deadline=None)
@given(nx_graphs())
def test_networkx_round_trip(G):
    g = ng.from_networkx(G, cache=False)
    assert g.n == G.number_of_nodes()
    assert g.num_edges == G.number_of_edges()
    H = g.to_networkx()
    assert nx.utils.graphs_equal(H, G)
    # CSR invariants: sorted neighbour lists, no self-loops inside, codes consistent
    for u in range(g.n):
        nb = g.indices[g.indptr[u] : g.indptr[u + 1]]
        assert np.all(np.diff(nb) > 0)
        assert u not in nb
        for e in range(g.indptr[u], g.indptr[u + 1]):
            v = g.keys[g.indices[e]]
            ku = g.keys[u]
            code = int(g.dircode[e])
            if G.is_directed():
                assert bool(code & 1) == G.has_edge(ku, v)
                assert bool(code & 2) == G.has_edge(v, ku)
            else:
                assert code == 3
    assert [bool(x) for x in g.loop] == [G.has_edge(k, k) for k in g.keys]


def test_labels_are_encoded_and_restored():
    G = nx.DiGraph()
    G.add_node("a", color="red")
    G.add_node("b", color="blue")
    G.add_node("c")
    G.add_edge("a", "b", kind=1)
    G.add_edge("b", "a", kind=2)
    G.add_edge("c", "c", kind=3)
    g = ng.from_networkx(
        G, node_label="color", edge_label="kind", node_label_default="none", cache=False
    )
    assert g.node_label.tolist() == [
        g.encode_node_label("red"),
        g.encode_node_label("blue"),
        g.encode_node_label("none"),
    ]
    assert g.encode_node_label("green") == IMPOSSIBLE_LABEL
    a, b = g.key_to_id["a"], g.key_to_id["b"]
    e = g.indptr[a] + np.searchsorted(g.indices[g.indptr[a] : g.indptr[a + 1]], b)
    assert g.out_label[e] == g.encode_edge_label(1)
    assert g.in_label[e] == g.encode_edge_label(2)
    assert g.loop_label[g.key_to_id["c"]] == g.encode_edge_label(3)
    H = g.to_networkx()
    assert H.nodes["c"]["color"] == "none"
    assert H.edges["b", "a"]["kind"] == 2


def test_tuple_labels_like_categorical_match_lists():
    G = nx.Graph()
    G.add_node(0, a=1, b="x")
    G.add_node(1, a=1)
    G.add_edge(0, 1)
    g = ng.from_networkx(G, node_label=["a", "b"], node_label_default=[0, "y"], cache=False)
    assert g.encode_node_label((1, "x")) == g.node_label[0]
    assert g.encode_node_label((1, "y")) == g.node_label[1]


def test_conversion_is_cached_and_cleared_on_mutation():
    G = nx.path_graph(5)
    g1 = ng.from_networkx(G)
    assert ng.from_networkx(G) is g1
    G.add_edge(4, 5)
    g2 = ng.from_networkx(G)
    assert g2 is not g1 and g2.n == 6


@pytest.mark.parametrize("lib", ["pandas", "polars", "pyarrow"])
def test_frames_of_each_library(lib):
    mod = pytest.importorskip(lib)
    data = {"src": [1, 2, 3, 4], "dst": [2, 3, 1, 1], "lab": ["x", "y", "x", "z"]}
    frame = mod.table(data) if lib == "pyarrow" else mod.DataFrame(data)
    g = ng.from_edgelist(frame, source="src", target="dst", edge_label="lab", directed=True)
    assert g.n == 4 and g.num_edges == 4 and g.directed
    assert _edge_set(g) == {(1, 2), (2, 3), (3, 1), (4, 1)}
    assert as_static_graph(frame, source="src", target="dst", directed=True).num_edges == 4


def test_arrays_and_isolated_nodes():
    g = ng.from_arrays(np.array([0, 1]), np.array([1, 2]), num_nodes=5)
    assert g.n == 5 and g.num_edges == 2
    g = ng.from_arrays(["a", "b"], ["b", "c"], nodes=["c", "b", "a", "z"], node_labels=[1, 2, 3, 4])
    assert g.keys == ["c", "b", "a", "z"]
    assert g.node_label.tolist() == [0, 1, 2, 3]


def test_facebook_bundled_file_counts():
    from importlib.resources import files

    path = files("nx_gpumine") / "data" / "facebook_combined.txt"
    arr = np.loadtxt(str(path), dtype=np.int64)
    g = ng.from_arrays(arr[:, 0], arr[:, 1])
    assert (g.n, g.num_edges) == (4039, 88234)  # SNAP's published figures


# ---------------------------------------------------------------- bad input
def test_multigraph_refused():
    with pytest.raises(ng.UnsupportedGraphError, match="multigraph"):
        ng.from_networkx(nx.MultiGraph([(0, 1), (0, 1)]))


def test_duplicate_edges_in_frame_refused_or_dropped():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"source": [1, 2], "target": [2, 1]})
    with pytest.raises(ng.UnsupportedGraphError, match=r"\(1, 2\) appears more than once"):
        ng.from_edgelist(frame)
    assert ng.from_edgelist(frame, duplicates="drop").num_edges == 1
    assert ng.from_edgelist(frame, directed=True).num_edges == 2


def test_missing_column_and_nulls_named():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"source": [1, 2], "target": [2, None]})
    with pytest.raises(ng.InputError, match="column 'dst' is missing"):
        ng.from_edgelist(frame, target="dst")
    with pytest.raises(ng.InputError, match="column 'target' holds 1 null"):
        ng.from_edgelist(frame)


def test_missing_label_attribute_named():
    G = nx.Graph()
    G.add_node(0, color="r")
    G.add_node(1)
    G.add_edge(0, 1)
    with pytest.raises(ng.InputError, match="'color' is missing on node 1"):
        ng.from_networkx(G, node_label="color", cache=False)
    with pytest.raises(ng.InputError, match="'w' is missing on edge"):
        ng.from_networkx(G, edge_label="w", cache=False)


def test_not_a_graph():
    with pytest.raises(ng.UnsupportedGraphError, match="cannot use"):
        as_static_graph(42)
    with pytest.raises(ng.InputError, match="equal length"):
        ng.from_arrays([0, 1], [1])
    with pytest.raises(ng.InputError, match=r"lie in \[0, 2\)"):
        ng.from_arrays([0, 1], [1, 2], num_nodes=2)


def test_converted_graph_without_requested_labels():
    g = ng.from_networkx(nx.path_graph(3), cache=False)
    with pytest.raises(ng.InputError, match="without node labels 'color'"):
        as_static_graph(g, node_label="color")
