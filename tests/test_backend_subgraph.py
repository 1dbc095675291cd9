"""The six vf2pp subgraph dispatchables of NetworkX 3.7, served by the gpumine backend.

NetworkX 3.6 has no such functions, so the backend's implementations are called directly here
and compared with NetworkX's development implementation, vendored as
``tests/networkx_dev/vf2pp_dev.py`` (NetworkX's own tests of them are vendored as
``tests/networkx_dev/test_common.py`` and run where NetworkX has the functions).
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

from nx_gpumine.interfaces import backend as gb
from nx_gpumine.interfaces.backend_dispatch import SUBGRAPH_FUNCTIONS
from tests.networkx_dev import vf2pp_dev as dev

pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs")

ALL = {"IND": gb.vf2pp_all_subgraph_isomorphisms, "MONO": gb.vf2pp_all_monomorphisms}
FIRST = {"IND": gb.vf2pp_subgraph_isomorphism, "MONO": gb.vf2pp_monomorphism}
IS = {"IND": gb.vf2pp_subgraph_is_isomorphic, "MONO": gb.vf2pp_is_monomorphic}
DEV_ALL = {"IND": dev.vf2pp_all_subgraph_isomorphisms, "MONO": dev.vf2pp_all_monomorphisms}


def _freeze(maps) -> set:
    return {frozenset(m.items()) for m in maps}


def _graphs(seed: int, n: int, k: int, p: float, directed: bool, labels: bool):
    rng = random.Random(seed)
    FG = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    for v in rng.sample(range(n), min(n, 2)):
        if rng.random() < 0.3:
            FG.add_edge(v, v)
    if labels:
        for v in FG:
            if rng.random() < 0.8:
                FG.nodes[v]["color"] = rng.choice("ab")
    # SG: a connected piece of FG (relabelled), sometimes with an edge added or removed
    start = rng.randrange(n)
    und = FG.to_undirected(as_view=True)
    nodes = list(nx.bfs_tree(und, start))[:k]
    SG = nx.relabel_nodes(FG.subgraph(nodes).copy(), {v: f"s{v}" for v in nodes})
    edges = [e for e in SG.edges if e[0] != e[1]]
    if edges and rng.random() < 0.3:
        u, v = rng.choice(edges)
        SG.remove_edge(u, v)
        if not (nx.is_weakly_connected(SG) if directed else nx.is_connected(SG)):
            SG.add_edge(u, v)
    elif len(SG) >= 2 and rng.random() < 0.3:
        u, v = rng.sample(list(SG), 2)
        SG.add_edge(u, v)
    return FG, SG


args = st.tuples(
    st.integers(0, 10_000),
    st.integers(2, 9),
    st.integers(1, 5),
    st.sampled_from([0.3, 0.5, 0.8]),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args)
def test_subgraph_functions_equal_networkx_dev(a):
    seed, n, k, p, directed, labels = a
    FG, SG = _graphs(seed, n, k, p, directed, labels)
    lab = "color" if labels else None
    if hasattr(nx, "vf2pp_monomorphism"):  # NetworkX 3.7: the call is dispatchable here
        assert gb.can_run("vf2pp_all_subgraph_isomorphisms", (FG, SG, lab, "z"), {}) is True
    for pt in ("IND", "MONO"):
        want = _freeze(DEV_ALL[pt](FG, SG, lab, "z"))
        got = _freeze(ALL[pt](FG, SG, lab, "z", engine="cpu"))
        assert got == want, pt
        # {FG node: SG node}, as NetworkX's VF2 matchers give subgraph mappings too
        matcher = iso.DiGraphMatcher if directed else iso.GraphMatcher
        nm = iso.categorical_node_match(lab, "z") if lab else None
        gm = matcher(FG, SG, node_match=nm)
        vf2 = gm.subgraph_isomorphisms_iter() if pt == "IND" else gm.subgraph_monomorphisms_iter()
        if not any(u == v for u, v in SG.edges) and not any(u == v for u, v in FG.edges):
            assert got == _freeze(vf2)
        first = FIRST[pt](FG, SG, lab, "z", engine="cpu")
        assert (first is None) == (not want) and (first is None or frozenset(first.items()) in want)
        assert IS[pt](FG, SG, lab, "z", engine="cpu") == bool(want)


def test_docstring_examples_of_networkx_3_7():
    # the examples of NetworkX 3.7's vf2pp module docstring
    SG, FG = nx.path_graph(3), nx.path_graph(4)
    assert gb.vf2pp_subgraph_is_isomorphic(FG, SG, node_label=None)
    m = gb.vf2pp_subgraph_isomorphism(FG, SG, node_label=None)
    assert m in ({0: 0, 1: 1, 2: 2}, {1: 0, 2: 1, 3: 2}, {2: 0, 1: 1, 0: 2}, {3: 0, 2: 1, 1: 2})
    SG, FG = nx.path_graph(4), nx.cycle_graph(4)
    assert not gb.vf2pp_subgraph_is_isomorphic(FG, SG)
    assert gb.vf2pp_is_monomorphic(FG, SG, node_label=None)
    nx.set_node_attributes(SG, dict(zip(SG, ["blue", "red", "cyan", "pink"], strict=True)), "label")
    nx.set_node_attributes(FG, dict(zip(FG, ["blue", "red", "cyan", "pink"], strict=True)), "label")
    assert gb.vf2pp_monomorphism(FG, SG, node_label="label") == {1: 1, 2: 2, 0: 0, 3: 3}


def test_signatures_and_keywords_are_networkx_s():
    # every vf2pp function comes from one factory: NetworkX's parameter names, keywords bind
    import inspect

    iso_names = ["G1", "G2", "node_label", "default_label", "engine"]
    sub_names = ["FG", "SG", "node_label", "default_label", "engine"]
    for name in ("vf2pp_is_isomorphic", "vf2pp_isomorphism", "vf2pp_all_isomorphisms"):
        assert list(inspect.signature(getattr(gb, name)).parameters) == iso_names
    for name in SUBGRAPH_FUNCTIONS:
        f = getattr(gb, name)
        assert list(inspect.signature(f).parameters) == sub_names
        assert f.__name__ == name and "Returns" in f.__doc__
    SG, FG = nx.path_graph(3), nx.cycle_graph(5)
    assert gb.vf2pp_monomorphism(SG=SG, FG=FG, engine="cpu") is not None
    assert len(list(gb.vf2pp_all_monomorphisms(FG, SG=SG))) == 10
    assert gb.vf2pp_isomorphism(G2=nx.cycle_graph(5), G1=FG) is not None
    with pytest.raises(TypeError):
        gb.vf2pp_monomorphism(FG, SG, X=1)
    with pytest.raises(TypeError):
        gb.vf2pp_monomorphism(FG, SG, None, None, "cpu")  # engine is keyword-only


def test_edge_cases_as_networkx_dev():
    P = nx.path_graph(3)
    E = nx.empty_graph(0)
    for pt in ("IND", "MONO"):
        assert list(ALL[pt](E, P)) == list(DEV_ALL[pt](E, P)) == []
        assert list(ALL[pt](P, E)) == list(DEV_ALL[pt](P, E)) == []
        assert FIRST[pt](P, nx.path_graph(5)) is None
        with pytest.raises(nx.NetworkXError):
            IS[pt](nx.DiGraph(P), P)
        # one-node SG, self-loops: induced wants the loop exactly where SG has one
        L = nx.Graph([(0, 1), (1, 1)])
        one = nx.Graph()
        one.add_node("x")
        loop = nx.Graph([("x", "x")])
        for sg in (one, loop):
            assert _freeze(ALL[pt](L, sg)) == _freeze(DEV_ALL[pt](L, sg))


def test_can_run_refusals():
    P = nx.path_graph(3)
    two = nx.Graph([(0, 1), (2, 3)])
    big = nx.path_graph(gb.MAX_SUBGRAPH_NODES + 1)
    name = "vf2pp_all_monomorphisms"
    if not hasattr(nx, "vf2pp_monomorphism"):
        assert "no dispatchable" in gb.can_run(name, (P, P), {})
        return
    assert "disconnected" in gb.can_run(name, (nx.path_graph(9), two), {})
    assert "at most" in gb.can_run(name, (nx.path_graph(99), big), {})
    assert "multigraph" in gb.can_run(name, (nx.MultiGraph(P), P), {})
    assert gb.can_run(name, (), {"FG": nx.path_graph(9), "SG": P}) is True
