"""Backend: ``could_be_isomorphic`` family and node-attribute helpers equal NetworkX's."""

from __future__ import annotations

import collections
import itertools
import random

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines.cpu.local_counts import maximal_clique_counts
from nx_gpumine.errors import UnsupportedGraphError
from nx_gpumine.interfaces.backend import BackendInterface, GpumineGraph
from nx_gpumine.interfaces.backend_counts import undirected_csr

pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs")

COULD = ("could_be_isomorphic", "fast_could_be_isomorphic", "faster_could_be_isomorphic")


def _graph(seed: int, directed: bool = False, multi: bool = False) -> nx.Graph:
    rng = random.Random(seed)
    n = rng.randint(0, 12)
    G = nx.gnp_random_graph(n, rng.choice([0.2, 0.4, 0.7]), seed=seed, directed=directed)
    if multi:
        G = nx.MultiDiGraph(G) if directed else nx.MultiGraph(G)
        for u, v in list(G.edges())[: rng.randint(0, 3)]:
            G.add_edge(u, v)
    if n and rng.random() < 0.3:
        v = rng.randrange(n)
        G.add_edge(v, v)
    return G


def _nx_call(name: str, *args, **kwargs):
    try:
        return getattr(nx, name)(*args, backend="networkx", **kwargs)
    except nx.NetworkXNotImplemented as exc:
        return type(exc)


def _ours(name: str, *args, **kwargs):
    try:
        return getattr(BackendInterface, name)(*args, engine="cpu", **kwargs)
    except nx.NetworkXNotImplemented as exc:
        return type(exc)


def test_maximal_clique_counts_equal_find_cliques():
    for seed in range(120):
        G = _graph(seed)
        g = GpumineGraph.from_networkx(G)
        ptr, idx, _ = undirected_csr(g)
        got = maximal_clique_counts(ptr, idx)
        ref = collections.Counter(itertools.chain.from_iterable(nx.find_cliques(G)))
        assert {k: int(got[i]) for i, k in enumerate(g.keys)} == {k: ref[k] for k in G}, seed
    # a larger, clique-rich graph: one pass of the search per node, no recursion
    G = nx.powerlaw_cluster_graph(400, 6, 0.6, seed=1)
    g = GpumineGraph.from_networkx(G)
    ptr, idx, _ = undirected_csr(g)
    ref = collections.Counter(itertools.chain.from_iterable(nx.find_cliques(G)))
    assert np.array_equal(maximal_clique_counts(ptr, idx), [ref[k] for k in g.keys])


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("multi", [False, True])
def test_could_be_isomorphic_family_equals_networkx(directed, multi):
    for seed in range(40):
        G1 = _graph(seed, directed, multi)
        G2 = _graph(seed + 1000 * (seed % 3), directed, multi)  # a third are the same graph
        if seed % 5 == 0:  # same order, usually same degrees
            G2 = nx.relabel_nodes(G1, {v: f"x{v}" for v in G1})
        for name in COULD:
            assert _ours(name, G1, G2) == _nx_call(name, G1, G2), (name, seed)
        for props in ("d", "dt", "dc", "tc", "c", "", "dtcz"):
            want = _nx_call("could_be_isomorphic", G1, G2, properties=props)
            assert _ours("could_be_isomorphic", G1, G2, properties=props) == want, (props, seed)


def test_could_be_isomorphic_separates_by_cliques():
    # NetworkX's gh-7852 pair: same degrees and triangles, different maximal cliques
    G, H = nx.graph_atlas(699), nx.graph_atlas(706)
    assert BackendInterface.fast_could_be_isomorphic(G, H, engine="cpu")
    assert not BackendInterface.could_be_isomorphic(G, H, engine="cpu")
    assert BackendInterface.can_run("could_be_isomorphic", (G, H), {"properties": "dt"}) is True


def test_could_be_isomorphic_dispatches():
    G = nx.les_miserables_graph()
    H = nx.relabel_nodes(G, {v: v[::-1] for v in G})
    assert nx.could_be_isomorphic(G, H, backend="gpumine") is True
    H.remove_edge(*next(iter(H.edges)))
    H.add_edge("x", "y")
    assert nx.fast_could_be_isomorphic(G, H, backend="gpumine") is False


@pytest.mark.gpu
def test_could_be_isomorphic_cuda_equals_networkx():
    for seed in range(20):
        G1, G2 = _graph(seed), _graph(seed + 7 * (seed % 2))
        for name in COULD:
            got = getattr(BackendInterface, name)(G1, G2, engine="cuda")
            assert got == _nx_call(name, G1, G2), (name, seed)


def test_set_node_attributes_on_converted_graph():
    G = nx.cycle_graph(6)
    H = nx.relabel_nodes(G, {v: (v + 2) % 6 for v in G})
    B1 = BackendInterface.convert_from_nx(G)  # no attribute kept
    B2 = BackendInterface.convert_from_nx(H)
    assert "did not keep" in BackendInterface.can_run("vf2pp_isomorphism", (B1, B2, "c"), {})
    colors = {v: "r" if v % 2 else "b" for v in G}
    nx.set_node_attributes(B1, colors, "c")
    nx.set_node_attributes(B2, {(v + 2) % 6: c for v, c in colors.items()}, "c")
    assert B1.has_node_attr("c") and nx.get_node_attributes(B1, "c") == colors
    m = nx.vf2pp_isomorphism(B1, B2, node_label="c")
    assert m is not None and all(
        colors[u] == B2.node_data[B2.key_to_id[v]]["c"] for u, v in m.items()
    )
    # a value for some nodes only: the attribute is not claimed as kept
    nx.set_node_attributes(B1, {0: 1, 99: 2}, "w")
    assert not B1.has_node_attr("w")
    assert BackendInterface.get_node_attributes(B1, "w") == {0: 1}
    # scalar and dict-of-dict forms, defaults, as NetworkX
    G2 = nx.path_graph(4)
    B3 = BackendInterface.convert_from_nx(G2, preserve_node_attrs=True)
    for args in [(7, "s"), ({1: {"a": 1, "b": 2}, 9: {"a": 3}},)]:
        nx.set_node_attributes(G2, *args)
        nx.set_node_attributes(B3, *args)
    assert BackendInterface.convert_to_nx(B3).nodes(data=True) == G2.nodes(data=True)
    for name, default in [("a", None), ("a", 0), ("s", None), ("zz", None)]:
        ours = BackendInterface.get_node_attributes(B3, name, default)
        assert ours == nx.get_node_attributes(G2, name, default)
    with pytest.raises(AttributeError):  # values neither a dict nor with a name, as NetworkX
        nx.set_node_attributes(B3, 5)
    with pytest.raises(UnsupportedGraphError):
        BackendInterface.set_node_attributes(G2, 1, "x")


def test_attribute_helpers_refusals():
    from nx_gpumine import from_networkx

    G = nx.path_graph(3)
    sg = from_networkx(G)
    assert "StaticGraph" in BackendInterface.can_run("set_node_attributes", (sg, 1, "a"), {})
    assert "StaticGraph" in BackendInterface.can_run("get_node_attributes", (sg, "a"), {})
    B = BackendInterface.convert_from_nx(G)
    assert "did not keep" in BackendInterface.can_run("get_node_attributes", (B, "a"), {})
    assert "unknown" in BackendInterface.can_run("get_node_attributes", (G, "a"), {"engine": "cpu"})
    assert BackendInterface.can_run("set_node_attributes", (G, 1, "a"), {}) is True


def test_multigraph_edges_and_counts_as_networkx():
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 2)])
    B = BackendInterface.convert_from_nx(M)
    assert B.number_of_edges() == M.number_of_edges() == 4
    assert sorted(B.edges) == sorted(M.edges)
    D = nx.DiGraph([(0, 1), (1, 0), (1, 1)])
    BD = BackendInterface.convert_from_nx(D)
    assert BD.number_of_edges() == 3 and set(BD.edges) == set(D.edges)


def test_logging_of_first_use_and_fallback(caplog, monkeypatch):
    import logging

    from nx_gpumine.interfaces import backend_dispatch

    monkeypatch.setattr(backend_dispatch, "_FIRST_USE", set())  # as in a fresh process
    G = nx.petersen_graph()
    H = nx.relabel_nodes(G, {v: v + 10 for v in G})
    M = nx.MultiGraph(G)
    old = list(nx.config.backend_priority.algos)
    nx.config.backend_priority.algos = ["gpumine"]
    try:
        with caplog.at_level(logging.DEBUG, logger="nx_gpumine"):
            assert nx.is_isomorphic(G, H, engine="cpu")
            # explicit: should_run leaves a graph this small to NetworkX under a priority list
            assert nx.could_be_isomorphic(G, H, backend="gpumine")
            # refused by can_run (a multigraph against a simple graph): NetworkX answers
            assert nx.is_isomorphic(M, G) == nx.is_isomorphic(M, G, backend="networkx")
    finally:
        nx.config.backend_priority.algos = old
    text = caplog.text
    assert "engine 'cpu'" in text  # the engine each call runs on
    assert "first use of isomorphism search (cpu)" in text  # numba compile or cache load
    assert "first use of maximal clique counts (cpu)" in text
    assert "not running is_isomorphic" in text and "multigraph" in text  # the fallback
