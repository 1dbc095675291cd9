"""Stars counted from the degrees (``execution.jobs.static.closed_form_count``), on every
engine route: equal to the engine's walk and to NetworkX, exact and immediate for huge hubs."""

from __future__ import annotations

import math
import time

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from networkx.algorithms.isomorphism import GraphMatcher

import nx_gpumine as ng
from nx_gpumine.engines.contract import engine_module
from nx_gpumine.execution.jobs.static import closed_form_count
from nx_gpumine.execution.static import run_static
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import as_static_graph, from_arrays
from nx_gpumine.plan.static_plan import star_leaves, static_plan


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 25), p=st.floats(0.05, 0.6), seed=st.integers(0, 10**6),
       leaves=st.integers(2, 5))  # fmt: skip
def test_star_formula_equals_the_engine_walk_and_networkx(n, p, seed, leaves):
    if leaves + 1 > n:  # a pattern larger than the graph is refused before any plan
        return
    G = nx.gnp_random_graph(n, p, seed=seed)
    G.add_edge(0, 0)  # a self-loop is not a neighbour
    g = as_static_graph(G)
    P = nx.star_graph(leaves)
    for distinct in (True, False):
        plan = static_plan(as_pattern(P), g, induced=False, distinct=distinct)
        assert star_leaves(plan) == leaves
        walked = engine_module("static", "cpu").count(g, plan)
        if distinct:
            assert closed_form_count(g, plan) == walked
        else:  # a mapping plan: execution multiplies its distinct sibling's count by s!
            assert closed_form_count(g, plan) is None
            assert run_static(g, plan, "count", engine="cpu") == walked
    maps = ng.count_subgraphs(G, P, engine="cpu")
    if maps <= 50_000:  # NetworkX's matcher lists each mapping in Python (a dense 25-node
        # graph has millions of 5-leaf star mappings: minutes); the engine walk checks the rest
        H = nx.Graph(G)
        H.remove_edges_from(nx.selfloop_edges(H))
        assert sum(1 for _ in GraphMatcher(H, P).subgraph_monomorphisms_iter()) == maps
    assert ng.count_subgraphs(G, P, count="subgraphs", engine="cpu") == maps // math.factorial(
        leaves
    )


@pytest.mark.parametrize(
    "pattern, induced, directed",
    [
        (nx.star_graph(3), True, False),  # induced: the leaves must be independent
        (nx.path_graph(4), False, False),
        (nx.star_graph(3), False, True),  # directed
        (nx.complete_graph(3), False, False),
    ],
)
def test_other_plans_have_no_formula(pattern, induced, directed):
    G = nx.gnp_random_graph(12, 0.4, seed=2, directed=directed)
    g = as_static_graph(G)
    P = pattern.to_directed() if directed else pattern
    plan = static_plan(as_pattern(P), g, induced=induced, distinct=True)
    assert star_leaves(plan) == 0
    assert closed_form_count(g, plan) is None


def test_a_hub_of_degree_2_5_million_in_under_a_second():
    """Issue 35's case: 3-leaf stars around one hub of degree 2.5M (67 s at degree 100,000
    before)."""
    n = 2_500_000
    g = from_arrays(np.zeros(n, dtype=np.int64), np.arange(1, n + 1, dtype=np.int64),
                    num_nodes=n + 1)  # fmt: skip
    ng.count_subgraphs(g, "4-star", count="subgraphs", engine="cpu")  # plan and caches
    t = time.perf_counter()
    got = ng.count_subgraphs(g, "4-star", count="subgraphs", engine="cpu")
    assert time.perf_counter() - t < 1.0
    assert got == math.comb(n, 3)
    # its mappings (6 per star) pass 2**63: exact too (tests/test_wide_counts.py, both engines)
    t = time.perf_counter()
    assert ng.count_subgraphs(g, "4-star", engine="cpu") == math.perm(n, 3) > 2**63
    assert time.perf_counter() - t < 1.0
