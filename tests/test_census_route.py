"""Induced 5-node counts of the CPU engine read off the graph's census
(``execution.subgraph_census.census_count``): equal to the walk for every graphlet, counts and
mappings; the walk keeps labelled and looped graphs, work limits, Dask, and small graphs."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.execution import subgraph_census
from nx_gpumine.execution.static import run_static
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.plan.graphlets import graphlets
from nx_gpumine.plan.static_plan import build_static_plan

KEY = ("induced_census", 5)


@pytest.fixture
def no_minimum(monkeypatch):
    monkeypatch.setattr(subgraph_census, "CENSUS_ROUTE_MIN_EDGES", 0)


def _walk(S, P):
    plan = build_static_plan(Pattern.from_networkx(P), S, induced=True, distinct=True)
    return int(run_static(S, plan, "count", engine="cpu"))  # run_static: no census route


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(n=st.integers(5, 18), p=st.floats(0.1, 0.7), seed=st.integers(0, 9999))
def test_census_counts_equal_the_walk(no_minimum, n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    S = ng.from_networkx(G)
    for g in graphlets(5, False):
        P = g.graph()
        got = ng.count_subgraphs(S, P, induced=True, engine="cpu", count="subgraphs")
        assert got == _walk(S, P), g.name
        aut = Pattern.from_networkx(P).num_automorphisms()
        assert ng.count_subgraphs(S, P, induced=True, engine="cpu") == got * aut
    assert S.has_derived(KEY)  # the route was taken, the census computed once


def test_the_walk_keeps_the_other_cases(no_minimum):
    G = nx.gnp_random_graph(30, 0.3, seed=4)
    C5 = nx.cycle_graph(5)
    S = ng.from_networkx(G)
    assert ng.count_subgraphs(S, C5, induced=True, engine="cpu", max_work=10**12) > 0
    assert not S.has_derived(KEY)  # under a work limit: the walk (its estimate is the walk's)
    assert ng.count_subgraphs(S, nx.cycle_graph(4), induced=True, engine="cpu") >= 0
    assert not S.has_derived(KEY)  # 4 nodes
    looped = G.copy()
    looped.add_edge(3, 3)
    L = ng.from_networkx(looped)
    assert ng.count_subgraphs(L, C5, induced=True, engine="cpu", count="subgraphs") == _walk(L, C5)
    assert not L.has_derived(KEY)  # an induced match avoids looped nodes; the census not
    nx.set_node_attributes(G, {v: v % 2 for v in G}, "c")
    P = C5.copy()
    nx.set_node_attributes(P, 0, "c")
    lab = ng.from_networkx(G, node_label="c")
    ng.count_subgraphs(lab, P, induced=True, engine="cpu", node_label="c")
    assert not lab.has_derived(KEY)  # a labelled pattern
    assert ng.count_subgraphs(S, C5, induced=False, engine="cpu") > 0
    assert not S.has_derived(KEY)  # not induced


def test_small_graphs_walk():
    S = ng.from_networkx(nx.gnp_random_graph(30, 0.3, seed=5))
    assert len(S.indices) < 2 * subgraph_census.CENSUS_ROUTE_MIN_EDGES
    ng.count_subgraphs(S, nx.cycle_graph(5), induced=True, engine="cpu")
    assert not S.has_derived(KEY)
