"""The plan's count tail and shape: a reference walker in plain Python checks the tail formulas
against NetworkX's matchers (mappings) on random graphs and on symmetric patterns.

The walker maps levels ``< tail_start`` exactly as docs/architecture.md defines a plan's
semantics (backward-neighbour intersection, checks, node filters, injectivity, symmetry) and then
applies the tail formula of the plan's ``tail_kind``: this is what the engines do when counting.
"""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.inputs.patterns import Pattern, as_pattern
from nx_gpumine.plan.static_plan import (
    TAIL_CHOOSE,
    TAIL_FALLING,
    TAIL_PAIR,
    build_static_plan,
    pattern_shape,
    static_plan,
    twin_classes,
)

T_DFS = {
    "P3": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3)],
    "P4": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 4), (3, 4)],
    "P5": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)],
    "P6": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (3, 4)],
}


def _patterns() -> dict[str, Pattern]:
    pats = {
        n: as_pattern(n)
        for n in (
            "triangle",
            "wedge",
            "4-path",
            "4-star",
            "4-cycle",
            "diamond",
            "tailed-triangle",
            "4-clique",
            "house",
            "5-cycle",
        )
    }
    for name, edges in T_DFS.items():
        pats[name] = Pattern.from_networkx(nx.Graph(edges))
    pats["star6"] = Pattern.from_networkx(nx.star_graph(6))
    pats["K2,3"] = Pattern.from_networkx(nx.complete_bipartite_graph(2, 3))
    pats["book3"] = Pattern.from_networkx(
        nx.Graph([(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (0, 4), (1, 4)])
    )
    pats["fork"] = Pattern.from_networkx(nx.Graph([(0, 1), (1, 2), (1, 3), (3, 4), (3, 5)]))
    return pats


def _tail_count(graph, plan) -> int:
    """Count with the plan's tail formula (levels >= tail_start never enumerated)."""
    k = plan.k
    indptr, indices = graph.indptr, graph.indices
    nbrs = [set(indices[indptr[v] : indptr[v + 1]].tolist()) for v in range(graph.n)]
    deg = np.diff(indptr)

    def cands(level: int, path: list[int]) -> set[int]:
        bn = plan.bn_level[plan.bn_ptr[level] : plan.bn_ptr[level + 1]].tolist()
        out = set(range(graph.n)) if not bn else set.intersection(*(nbrs[path[j]] for j in bn))
        syms = plan.sym_level[plan.sym_ptr[level] : plan.sym_ptr[level + 1]].tolist()
        res = set()
        for c in out:
            if c in path or deg[c] < plan.min_degree[level]:
                continue
            if any(c <= path[j] for j in syms if j < len(path)):
                continue
            res.add(c)
        return res

    T = plan.tail_start
    t = k - T
    total = 0
    owner = np.repeat(np.arange(graph.n), deg)
    for e in np.flatnonzero(plan.root_ok):
        path = [int(owner[e]), int(indices[e])]

        def walk(path: list[int]) -> int:
            lev = len(path)
            if lev == T:
                a = cands(T, path)
                if plan.tail_kind == TAIL_FALLING:
                    return math.perm(len(a), t)
                if plan.tail_kind == TAIL_CHOOSE:
                    return math.comb(len(a), t)
                assert plan.tail_kind == TAIL_PAIR and t == 2
                b = cands(T + 1, path)
                return len(a) * len(b) - len(a & b)
            return sum(walk(path + [c]) for c in cands(lev, path))

        total += walk(path)
    return total


def _nx_mappings(G: nx.Graph, P: nx.Graph) -> int:
    return sum(1 for _ in iso.GraphMatcher(G, P).subgraph_monomorphisms_iter())


@pytest.mark.parametrize("name", list(_patterns()))
@pytest.mark.parametrize("seed", [1, 2])
def test_tail_formula_equals_networkx(name, seed):
    P = _patterns()[name]
    G = nx.gnm_random_graph(14, 40, seed=seed)
    g = ng.from_networkx(G)
    want = _nx_mappings(G, P.to_networkx())
    for distinct in (False, True):
        plan = build_static_plan(P, g, induced=False, distinct=distinct)
        got = _tail_count(g, plan)
        if distinct:
            got *= plan.num_automorphisms
        assert got == want, (name, distinct, plan.tail_start, plan.tail_kind)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(4, 12),
    p=st.floats(0.15, 0.7),
    seed=st.integers(0, 10_000),
    pname=st.sampled_from(sorted(_patterns())),
)
def test_tail_formula_property(n, p, seed, pname):
    G = nx.gnp_random_graph(n, p, seed=seed)
    P = _patterns()[pname]
    if P.k > n:
        return
    g = ng.from_networkx(G)
    plan = build_static_plan(P, g, induced=False, distinct=True)
    assert _tail_count(g, plan) * plan.num_automorphisms == _nx_mappings(G, P.to_networkx())


def test_tail_kinds_of_known_patterns():
    pats = _patterns()
    g = ng.from_networkx(nx.gnm_random_graph(20, 60, seed=3))

    def tail(name, distinct=True):
        pl = build_static_plan(pats[name], g, induced=False, distinct=distinct)
        return pl.tail_len, pl.tail_kind

    assert tail("diamond") == (2, TAIL_CHOOSE)
    assert tail("diamond", distinct=False) == (2, TAIL_FALLING)
    assert tail("star6") == (5, TAIL_CHOOSE)  # one leaf is the root edge's second end
    assert tail("P6") == (2, TAIL_CHOOSE)
    # the wheel: twins last would expand a whole list (hub + two opposite rim nodes): not chosen
    assert tail("P5") == (1, TAIL_FALLING)
    assert tail("P3") == (2, TAIL_PAIR)
    assert tail("4-path") == (2, TAIL_PAIR)
    assert tail("4-clique") == (1, TAIL_FALLING)
    # induced plans never use a tail longer than the last level
    pl = build_static_plan(pats["diamond"], g, induced=True, distinct=True)
    assert (pl.tail_len, pl.tail_kind) == (1, TAIL_FALLING)


def test_twin_classes_respect_labels_and_adjacency():
    P = nx.star_graph(3)
    assert twin_classes(Pattern.from_networkx(P)) == [[1, 2, 3]]
    nx.set_node_attributes(P, {1: "a", 2: "a", 3: "b", 0: "c"}, "lab")
    assert twin_classes(Pattern.from_networkx(P, node_label="lab")) == [[1, 2]]
    # adjacent nodes with equal neighbourhoods (a triangle's nodes) are not twins
    assert twin_classes(as_pattern("triangle")) == []


def test_shapes():
    assert pattern_shape(as_pattern("triangle"), False) == ("clique", 3)
    assert pattern_shape(as_pattern("5-clique"), True) == ("clique", 5)
    assert pattern_shape(as_pattern("4-cycle"), False) == ("cycle4", 4)
    assert pattern_shape(as_pattern("4-cycle"), True) == (None, 0)
    assert pattern_shape(as_pattern("diamond"), False) == ("book", 2)
    assert pattern_shape(_patterns()["book3"], False) == ("book", 3)
    assert pattern_shape(as_pattern("house"), False) == (None, 0)
    assert pattern_shape(as_pattern("feed-forward-loop"), False) == (None, 0)
    P = nx.complete_graph(3)
    nx.set_node_attributes(P, "x", "lab")
    assert pattern_shape(Pattern.from_networkx(P, node_label="lab"), False) == (None, 0)


def test_plan_cache_on_graph():
    g = ng.from_networkx(nx.gnm_random_graph(30, 80, seed=1))
    a = static_plan(as_pattern("diamond"), g, induced=False, distinct=True)
    b = static_plan(as_pattern("diamond"), g, induced=False, distinct=True)
    c = static_plan(as_pattern("diamond"), g, induced=True, distinct=True)
    assert a is b and a is not c
    g.forget_derived("static_plan")
    assert static_plan(as_pattern("diamond"), g, induced=False, distinct=True) is not a


def test_star_tail_is_polynomial():
    """star(40) in star(45): C(45, 40) distinct matches; 39 leaves counted by one binomial."""
    g = ng.from_networkx(nx.star_graph(45))
    plan = build_static_plan(
        Pattern.from_networkx(nx.star_graph(40)), g, induced=False, distinct=True
    )
    assert plan.tail_len == 39 and plan.tail_kind == TAIL_CHOOSE
    assert _tail_count(g, plan) == math.comb(45, 40)


def test_walker_matches_brute_force_on_tiny_graphs():
    # independent of NetworkX: count injective maps by brute force
    P = _patterns()["K2,3"]
    G = nx.complete_bipartite_graph(3, 4)
    g = ng.from_networkx(G)
    pe = [(a, b) for a, b in itertools.combinations(range(P.k), 2) if P.code[a, b]]
    nodes = list(G.nodes())
    brute = sum(
        1 for f in itertools.permutations(nodes, P.k) if all(G.has_edge(f[a], f[b]) for a, b in pe)
    )
    plan = build_static_plan(P, g, induced=False, distinct=True)
    assert _tail_count(g, plan) * plan.num_automorphisms == brute
