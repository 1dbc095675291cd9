"""Patterns, automorphisms, plans and bad-input errors."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.errors import QueryError, UnsupportedGraphError
from nx_gpumine.execution.static import run_static
from nx_gpumine.inputs.patterns import CATALOGUE, Pattern, pattern_names
from nx_gpumine.plan.static_plan import build_static_plan, symmetry_conditions

UNDIRECTED = [p for p in CATALOGUE if not Pattern.named(p).directed]
DIRECTED = [p for p in CATALOGUE if Pattern.named(p).directed]


@pytest.mark.parametrize("name", list(CATALOGUE))
def test_automorphisms_match_networkx(name):
    p = Pattern.named(name)
    P = CATALOGUE[name]()
    cls = iso.DiGraphMatcher if P.is_directed() else iso.GraphMatcher
    expected = {tuple(m[a] for a in P.nodes()) for m in cls(P, P).isomorphisms_iter()}
    assert set(p.automorphisms()) == expected
    assert p.num_automorphisms() == len(expected)


def test_labelled_automorphisms():
    P = nx.cycle_graph(4)
    nx.set_node_attributes(P, {0: "a", 1: "b", 2: "a", 3: "b"}, "c")
    assert Pattern.from_networkx(P, node_label="c").num_automorphisms() == 4
    nx.set_edge_attributes(P, {(0, 1): 1, (1, 2): 2, (2, 3): 1, (3, 0): 2}, "w")
    p = Pattern.from_networkx(P, node_label="c", edge_label="w")
    assert p.num_automorphisms() == 2
    L = nx.Graph([(0, 1), (1, 2), (0, 0)])
    assert Pattern.from_networkx(L).num_automorphisms() == 1


@pytest.mark.parametrize("name", list(CATALOGUE))
@pytest.mark.parametrize("induced", [False, True])
def test_distinct_is_mappings_over_aut(engine, name, induced):
    p = Pattern.named(name)
    if p.directed:
        G = nx.gnm_random_graph(60, 500, seed=11, directed=True)
    else:
        G = nx.gnm_random_graph(40, 250, seed=11)
    g = ng.from_networkx(G)
    # every mapping walked one by one (no symmetry restrictions) ...
    plan = build_static_plan(p, g, induced=induced, distinct=False)
    maps = run_static(g, plan, "count", engine=engine)
    # ... against the symmetry-broken search
    distinct = ng.count_subgraphs(G, name, induced=induced, count="subgraphs", engine=engine)
    assert maps > 0
    assert distinct * p.num_automorphisms() == maps
    assert ng.count_subgraphs(G, name, induced=induced, engine=engine) == maps


@pytest.mark.parametrize("name", list(CATALOGUE))
def test_symmetry_conditions_pick_one_per_orbit(name):
    """Brute force over all injective maps into a complete graph: one survivor per orbit."""
    p = Pattern.named(name)
    order = list(range(p.k))
    conds = symmetry_conditions(p, order)
    k = p.k
    survivors = [
        perm
        for perm in itertools.permutations(range(k + 1), k)
        if all(perm[a] < perm[b] for a, b in conds)
    ]
    total = len(list(itertools.permutations(range(k + 1), k)))
    assert len(survivors) * p.num_automorphisms() == total


def test_plan_order_is_connected_and_reuse_valid():
    g = ng.from_networkx(nx.gnm_random_graph(30, 100, seed=1))
    for name in UNDIRECTED:
        plan = build_static_plan(Pattern.named(name), g, induced=True, distinct=True)
        code = plan.pattern.code
        order = plan.order.tolist()
        assert sorted(order) == list(range(plan.k))
        for i in range(1, plan.k):
            assert any(code[order[j], order[i]] for j in range(i))
        assert code[order[0], order[1]]
        for i in range(plan.k):
            bn = set(plan.bn_level[plan.bn_ptr[i] : plan.bn_ptr[i + 1]].tolist())
            r = int(plan.reuse[i])
            if r >= 0:
                bnr = set(plan.bn_level[plan.bn_ptr[r] : plan.bn_ptr[r + 1]].tolist())
                assert r < i and len(bnr) >= 2 and bnr <= bn
        assert plan.root_ok is not None and plan.root_ok.dtype == np.uint8


def test_directed_plan_codes():
    g = ng.from_networkx(nx.gnm_random_graph(30, 100, seed=1, directed=True))
    plan = build_static_plan(Pattern.named("directed-3-cycle"), g, induced=False, distinct=False)
    # every pattern edge appears as a check with code 1 or 2 (a single direction)
    codes = plan.chk_code.tolist()
    assert sorted(codes) == sorted([c for c in codes if c in (1, 2)])
    assert len(codes) == 3


# ---------------------------------------------------------------------- errors
def test_unknown_name_lists_names():
    with pytest.raises(QueryError, match="known names are: triangle") as exc:
        ng.count_subgraphs(nx.path_graph(4), "triangel")
    for n in pattern_names():
        assert n in str(exc.value)


def test_multigraph_pattern_and_graph():
    with pytest.raises(UnsupportedGraphError, match="multigraph|MultiGraph"):
        ng.count_subgraphs(nx.path_graph(4), nx.MultiGraph([(0, 1)]))
    with pytest.raises(UnsupportedGraphError, match="multigraph"):
        ng.count_subgraphs(nx.MultiGraph([(0, 1), (1, 2)]), "wedge")


def test_directedness_mismatch():
    with pytest.raises(QueryError, match="directed.*undirected|directedness"):
        ng.count_subgraphs(nx.path_graph(4), "directed-2-path")
    with pytest.raises(QueryError, match="directedness"):
        ng.count_subgraphs(nx.DiGraph(nx.path_graph(4)), "wedge")


def test_pattern_larger_than_graph():
    with pytest.raises(QueryError, match="5 nodes but the graph only 4"):
        ng.count_subgraphs(nx.complete_graph(4), "5-clique")


def test_empty_and_disconnected_pattern():
    with pytest.raises(QueryError, match="empty"):
        ng.count_subgraphs(nx.path_graph(4), nx.Graph())
    with pytest.raises(QueryError, match="disconnected"):
        ng.count_subgraphs(nx.path_graph(4), nx.Graph([(0, 1), (2, 3)]))


def test_unknown_label_attribute():
    G = nx.karate_club_graph()
    with pytest.raises(ng.InputError, match="'color'"):
        ng.count_subgraphs(G, "triangle", node_label="color")
    with pytest.raises(QueryError, match="'club'.*pattern node"):
        ng.count_subgraphs(G, nx.path_graph(3), node_label="club")
    with pytest.raises(QueryError, match="unknown label attribute 'club'.*catalogue"):
        ng.count_subgraphs(G, "triangle", node_label="club")
    with pytest.raises(QueryError, match="no node labels"):
        ng.count_subgraphs(G, Pattern.named("triangle"), node_label="club")


def test_bad_arguments():
    G = nx.path_graph(4)
    with pytest.raises(ValueError, match="count must be"):
        ng.count_subgraphs(G, "wedge", count="everything")
    with pytest.raises(ValueError, match="engine must be"):
        ng.count_subgraphs(G, "wedge", engine="tpu")
    with pytest.raises(ValueError, match="limit"):
        ng.find_subgraphs(G, "wedge", limit=-1)
    with pytest.raises(UnsupportedGraphError, match="pattern must be"):
        ng.count_subgraphs(G, 42)


def test_unavailable_cuda_engine():
    if ng.cuda_available():
        pytest.skip("a GPU is present")
    with pytest.raises(ng.EngineUnavailableError, match="CuPy"):
        ng.count_subgraphs(nx.path_graph(4), "wedge", engine="cuda")


# ---------------------------------------------------------------------- drop-in fallbacks
def test_matcher_fallbacks_give_networkx_answers():
    from nx_gpumine.interfaces.isomorphism import GraphMatcher

    G = nx.karate_club_graph()
    cases = [
        (nx.Graph([(0, 1), (2, 3)]), {}, "disconnected"),
        (nx.path_graph(3), {"node_match": lambda a, b: True}, "node_match"),
        (nx.path_graph(3), {"edge_match": iso.numerical_edge_match("weight", 1)}, "edge_match"),
    ]
    for P, kw, reason in cases:
        ours = GraphMatcher(G, P, **kw)
        assert not ours.uses_engine and reason in ours.fallback_reason
        theirs = iso.GraphMatcher(G, P, **kw)
        a = {frozenset(m.items()) for m in ours.subgraph_monomorphisms_iter()}
        b = {frozenset(m.items()) for m in theirs.subgraph_monomorphisms_iter()}
        assert a == b
    big = GraphMatcher(nx.path_graph(3), nx.complete_graph(5))
    assert not big.subgraph_is_monomorphic() and list(big.subgraph_isomorphisms_iter()) == []
    assert not big.is_isomorphic()


@pytest.mark.parametrize(
    ("P", "expected"),
    [
        (nx.complete_graph(9), 362_880),
        (nx.cycle_graph(12), 24),
        (nx.star_graph(7), 5040),
        (nx.petersen_graph(), 120),
        (nx.hypercube_graph(3), 48),
    ],
)
def test_num_automorphisms_large_groups(P, expected):
    """|Aut| from the stabiliser chain, without listing the group (NetworkX cross-check)."""
    p = Pattern.from_networkx(P)
    assert p.num_automorphisms() == expected
    if expected <= 5040:
        assert sum(1 for _ in iso.GraphMatcher(P, P).isomorphisms_iter()) == expected


def test_counts_with_large_automorphism_group(engine):
    G = nx.complete_graph(10)
    # 8-clique in K10: C(10, 8) subgraphs, each 8! mappings
    assert ng.count_subgraphs(G, nx.complete_graph(8), count="subgraphs", engine=engine) == 45
    assert ng.count_subgraphs(G, nx.complete_graph(8), engine=engine) == 45 * 40320
