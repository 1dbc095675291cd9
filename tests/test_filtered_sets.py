"""Filtered candidate sets of induced plans (``StaticPlan.set_base`` / ``filter_in_build``):
the plan's choice, its invariants, and the CPU engine's counts, existence tests and listings
with them equal to those without them and to NetworkX's induced matcher."""

from __future__ import annotations

import dataclasses

import networkx as nx
import networkx.algorithms.isomorphism as iso
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.engines.cpu import static as cpu_static
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_networkx
from nx_gpumine.plan.static_plan import static_plan

BOWTIE = nx.Graph([(0, 1), (0, 2), (1, 2), (2, 3), (2, 4), (3, 4)])


def _plan(G, P, induced=True, distinct=False):
    return static_plan(as_pattern(P), from_networkx(G), induced=induced, distinct=distinct)


def test_bowtie_starts_its_last_level_from_the_filtered_set():
    """The bowtie (centre first): the second triangle's first node is not adjacent to the
    first triangle's other two, and the last node's checks before it are the same: it
    starts from that filtered set."""
    p = _plan(nx.gnp_random_graph(30, 0.3, seed=1), BOWTIE)
    assert list(p.order[:3]) == [2, 0, 1]
    assert p.set_base.tolist() == [-1, -1, -1, -1, 3]
    assert p.filter_in_build.tolist() == [False, False, False, True, True]


def test_only_induced_plans_without_edge_checks_have_them():
    G = nx.gnp_random_graph(30, 0.3, seed=1)
    assert _plan(G, BOWTIE, induced=False).set_base is None
    D = nx.gnp_random_graph(30, 0.3, seed=1, directed=True)
    P = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3)])
    assert _plan(D, P).set_base is None


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("distinct", [False, True])
def test_plan_invariants(seed, distinct):
    """Every set_base names an earlier level >= 2 with a non-adjacency check and exactly the
    level's checks before it; no filtered level is another level's raw reuse."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(4, 8))
    P = nx.gnm_random_graph(k, int(rng.integers(k - 1, k * (k - 1) // 2)), seed=seed)
    if not nx.is_connected(P):
        P = nx.compose(P, nx.path_graph(k))
    p = _plan(nx.gnp_random_graph(40, 0.3, seed=seed), P, distinct=distinct)
    base, filtered, reuse = p.set_base.tolist(), p.filter_in_build.tolist(), p.reuse.tolist()
    for i, r in enumerate(base):
        if r >= 0:
            assert 2 <= r < i and filtered[r] and filtered[i]
            assert any(c[1] == 0 for c in p.checks(r))
            assert sorted(p.checks(r)) == sorted(c for c in p.checks(i) if c[0] < r)
    for i, r in enumerate(reuse):
        if r >= 0 and filtered[r]:
            assert base[i] == r


def _without(plan):
    return dataclasses.replace(plan, set_base=None, filter_in_build=None)


@st.composite
def graph_and_pattern(draw):
    n = draw(st.integers(8, 22))
    G = nx.gnp_random_graph(n, draw(st.floats(0.15, 0.6)), seed=draw(st.integers(0, 10**6)))
    k = draw(st.integers(3, 6))
    m = draw(st.integers(k - 1, k * (k - 1) // 2))
    P = nx.gnm_random_graph(k, m, seed=draw(st.integers(0, 10**6)))
    P = nx.compose(P, nx.path_graph(k)) if not nx.is_connected(P) else P
    return G, P


@settings(max_examples=60, deadline=None)
@given(graph_and_pattern(), st.booleans())
def test_cpu_engine_equal_with_and_without(gp, distinct):
    G, P = gp
    g = from_networkx(G)
    plan = static_plan(as_pattern(P), g, induced=True, distinct=distinct)
    plain = _without(plan)
    assert cpu_static.count(g, plan) == cpu_static.count(g, plain)
    assert cpu_static.exists(g, plan) == cpu_static.exists(g, plain)
    rows = cpu_static.enumerate_matches(g, plan)
    assert np.array_equal(rows, cpu_static.enumerate_matches(g, plain))
    if not distinct:  # mappings: NetworkX's induced matcher counts the same
        want = sum(1 for _ in iso.GraphMatcher(G, P).subgraph_isomorphisms_iter())
        assert cpu_static.count(g, plan) == want


def test_public_count_of_the_bowtie_equals_networkx():
    G = nx.gnp_random_graph(40, 0.35, seed=3)
    want = sum(1 for _ in iso.GraphMatcher(G, BOWTIE).subgraph_isomorphisms_iter())
    assert ng.count_subgraphs(G, BOWTIE, induced=True, count="mappings", engine="cpu") == want
