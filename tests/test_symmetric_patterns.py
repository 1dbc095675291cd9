"""Issue 15: highly symmetric patterns (stars, K2,t, books) are counted in polynomial time.

The CPU engine finishes the plan's count tail (interchangeable twin leaves) by a falling
factorial or a binomial once the core is mapped, induced plans too when the leaves' candidates
are pairwise non-adjacent (otherwise it walks). Checked against NetworkX's matchers on small
graphs (directed, labeled, induced, with the walk fallback) and against closed forms on large
stars, with time limits.
"""

from __future__ import annotations

import math
import time

import networkx as nx
import networkx.algorithms.isomorphism as iso
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.engines.cpu import static as cpu
from nx_gpumine.errors import CapacityError
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.plan.static_plan import TAIL_CHOOSE, TAIL_FALLING, build_static_plan


def _book(t: int) -> nx.Graph:
    g = nx.Graph([(0, 1)])
    for i in range(t):
        g.add_edges_from([(0, 2 + i), (1, 2 + i)])
    return g


def _spider() -> nx.Graph:
    # a centre with two legs of length 2 and two plain leaves (twins: the two leaves)
    return nx.Graph([(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (0, 6)])


UNDIRECTED = {
    "star4": nx.star_graph(4),
    "star5": nx.star_graph(5),
    "K2,3": nx.complete_bipartite_graph(2, 3),
    "K2,4": nx.complete_bipartite_graph(2, 4),
    "book3": _book(3),
    "spider": _spider(),
    "diamond": _book(2),
}


def _mappings(G: nx.Graph, P: nx.Graph, induced: bool, **match) -> int:
    cls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = cls(G, P, **match)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    return sum(1 for _ in it)


def _aut(P: nx.Graph, **match) -> int:
    cls = iso.DiGraphMatcher if P.is_directed() else iso.GraphMatcher
    return sum(1 for _ in cls(P, P, **match).isomorphisms_iter())


def _engine_counts(G, P, induced, **labels) -> tuple[int, int]:
    """(mappings, subgraphs) through the CPU engine, from a plain and a symmetry-broken plan."""
    kw = dict(induced=induced, engine="cpu", **labels)
    maps = ng.count_subgraphs(G, P, count="mappings", **kw)
    subs = ng.count_subgraphs(G, P, count="subgraphs", **kw)
    g = ng.from_networkx(G, **{k: v for k, v in labels.items() if k.endswith("label")})
    pat = Pattern.from_networkx(P, **{k: v for k, v in labels.items() if k.endswith("label")})
    plain = build_static_plan(pat, g, induced=induced, distinct=False)
    assert cpu.count(g, plain) == maps  # the falling-factorial tail of a plan without symmetry
    return maps, subs


@pytest.mark.parametrize("induced", [False, True])
@pytest.mark.parametrize("name", sorted(UNDIRECTED))
def test_twin_patterns_equal_networkx(name, induced):
    P = UNDIRECTED[name]
    for seed in (1, 2):
        G = nx.gnp_random_graph(11, 0.5, seed=seed)
        want = _mappings(G, P, induced)
        maps, subs = _engine_counts(G, P, induced)
        assert maps == want, (name, seed)
        assert subs * _aut(P) == want
        assert ng.has_subgraph(G, P, induced=induced, engine="cpu") == (want > 0)


def test_plans_carry_the_twin_tail():
    g = ng.from_networkx(nx.gnm_random_graph(30, 90, seed=4))
    star = Pattern.from_networkx(nx.star_graph(6))
    p = build_static_plan(star, g, induced=False, distinct=True)
    assert (p.tail_len, p.tail_kind) == (5, TAIL_CHOOSE)
    q = build_static_plan(star, g, induced=True, distinct=False)
    # induced: the ordinary tail stays the last level (what the CUDA engine reads) ...
    assert q.tail_len == 1
    # ... and the independent-set tail is separate (the CPU engine checks independence)
    assert (q.k - q.indep_tail_start, q.indep_tail_kind) == (5, TAIL_FALLING)
    assert cpu._tail(q)[2] is True
    tri = build_static_plan(Pattern.named("triangle"), g, induced=True, distinct=True)
    assert tri.indep_tail_start == -1


def test_induced_walk_when_leaves_are_adjacent():
    """A hub whose neighbours are partly adjacent: the formula must not be used."""
    G = nx.star_graph(9)
    G.add_edges_from([(1, 2), (3, 4), (4, 5)])
    for m in (2, 3, 4, 6):
        P = nx.star_graph(m)
        for induced in (False, True):
            maps, subs = _engine_counts(G, P, induced)
            assert maps == _mappings(G, P, induced), (m, induced)
            assert subs * math.factorial(m) == maps
    # independent sets of size 3 among leaves 1..9 with edges 12, 34, 45: C(9,3) minus the
    # triples holding an edge (3 edges * 7 others, less the path 3-4-5 counted twice) = 84-20
    assert ng.count_subgraphs(G, nx.star_graph(3), induced=True, count="subgraphs") == 64


@pytest.mark.parametrize("induced", [False, True])
def test_labeled_and_directed_twins(induced):
    rng = np.random.default_rng(5)
    G = nx.gnp_random_graph(12, 0.5, seed=3)
    nx.set_node_attributes(G, {v: int(rng.integers(2)) for v in G}, "c")
    nx.set_edge_attributes(G, {e: int(rng.integers(2)) for e in G.edges}, "w")
    P = nx.star_graph(4)
    nx.set_node_attributes(P, {0: 1, 1: 0, 2: 0, 3: 0, 4: 1}, "c")
    nx.set_edge_attributes(P, {(0, 1): 1, (0, 2): 1, (0, 3): 1, (0, 4): 0}, "w")
    match = dict(
        node_match=iso.categorical_node_match("c", None),
        edge_match=iso.categorical_edge_match("w", None),
    )
    want = _mappings(G, P, induced, **match)
    maps, subs = _engine_counts(G, P, induced, node_label="c", edge_label="w")
    assert maps == want and subs * _aut(P, **match) == want
    # directed: an out-star with an in-leaf, in a random digraph
    D = nx.gnp_random_graph(12, 0.4, seed=8, directed=True)
    S = nx.DiGraph([(0, 1), (0, 2), (0, 3), (4, 0)])
    want = _mappings(D, S, induced)
    maps, subs = _engine_counts(D, S, induced)
    assert maps == want and subs * _aut(S) == want


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(6, 11),
    p=st.floats(0.1, 0.7),
    seed=st.integers(0, 10_000),
    name=st.sampled_from(sorted(UNDIRECTED)),
    induced=st.booleans(),
)
def test_twin_patterns_property(n, p, seed, name, induced):
    P = UNDIRECTED[name]
    G = nx.gnp_random_graph(n, p, seed=seed)
    if P.number_of_nodes() > n:
        return
    maps, subs = _engine_counts(G, P, induced)
    assert maps == _mappings(G, P, induced)


@pytest.mark.parametrize("induced", [False, True])
def test_large_stars_closed_form_in_seconds(induced):
    """The issue's reproducer: star(40) in star(45) ran for minutes; C(45, 40) distinct."""
    t0 = time.perf_counter()
    got = ng.count_subgraphs(
        nx.star_graph(45), nx.star_graph(40), count="subgraphs", induced=induced, engine="cpu"
    )
    assert got == math.comb(45, 40) == 1_221_759
    assert ng.count_subgraphs(
        nx.star_graph(27), nx.star_graph(25), count="subgraphs", induced=induced, engine="cpu"
    ) == math.comb(27, 25)
    # stars in a complete bipartite graph: centre on either side
    K = nx.complete_bipartite_graph(5, 60)
    want = 5 * math.comb(60, 30) + 60 * math.comb(5, 30)
    got = ng.count_subgraphs(K, nx.star_graph(30), count="subgraphs", induced=induced)
    assert got == want
    # mappings that fit: star(15) in star(18) = 18! / 3!
    maps = ng.count_subgraphs(nx.star_graph(18), nx.star_graph(15), induced=induced)
    assert maps == math.perm(18, 15)
    assert time.perf_counter() - t0 < 20  # minutes before; about a second now (and compile)


def test_star_in_clique_induced_is_zero_and_fast():
    K = nx.complete_graph(40)
    t0 = time.perf_counter()
    assert ng.count_subgraphs(K, nx.star_graph(12), induced=True, count="subgraphs") == 0
    # non-induced: a centre and any 12 of the other 39 vertices
    got = ng.count_subgraphs(K, nx.star_graph(12), count="subgraphs")
    assert got == 40 * math.comb(39, 12)
    assert time.perf_counter() - t0 < 20


def test_tail_overflow_is_detected():
    g = ng.from_networkx(nx.star_graph(45))
    plan = build_static_plan(
        Pattern.from_networkx(nx.star_graph(40)), g, induced=False, distinct=False
    )
    with pytest.raises(CapacityError, match="128-bit"):
        cpu.count(g, plan)  # 45!/5! mappings > 2**128
    with pytest.raises(CapacityError, match="128-bit"):
        ng.count_subgraphs(nx.star_graph(45), nx.star_graph(40), count="mappings")
    # a binomial whose last factor passes 64 bits although earlier ones fit: C(70, 35) > 2**64,
    # exact through the walk's 128-bit count
    g2 = ng.from_networkx(nx.star_graph(70))
    plan2 = build_static_plan(
        Pattern.from_networkx(nx.star_graph(35)), g2, induced=False, distinct=True
    )
    assert cpu.count(g2, plan2) == math.comb(70, 35) > 2**64
    # just below: C(66, 33) = 7219428434016265740 < 2**63 - 1, exact
    g3 = ng.from_networkx(nx.star_graph(66))
    plan3 = build_static_plan(
        Pattern.from_networkx(nx.star_graph(33)), g3, induced=False, distinct=True
    )
    assert cpu.count(g3, plan3) == math.comb(66, 33)
