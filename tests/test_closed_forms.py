"""Cliques counted in closed form (``execution.jobs.static.clique_closed_form``, issue 35): a
``K_k`` in a graph whose components of ``k`` or more nodes are all complete is ``C(n, k)`` per
component, without any engine; equal to the CPU engine's walk on every case it applies to,
and the engine still counts every other graph."""

from __future__ import annotations

import math
import time

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
import nx_gpumine.engines.degree_sums as degree_sums
import nx_gpumine.execution.jobs.static as jobs_static
import nx_gpumine.execution.static as static_exec
from nx_gpumine.engines.checks import checked_total
from nx_gpumine.engines.contract import engine_module
from nx_gpumine.errors import CapacityError
from nx_gpumine.execution.jobs.static import closed_form_count
from nx_gpumine.execution.static import run_static
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import as_static_graph, from_networkx
from nx_gpumine.plan.static_plan import static_plan

CPU = engine_module("static", "cpu")


def _walked(G, k: int, induced: bool) -> tuple[int, int]:
    """(subgraphs, mappings) of K_k in G as the CPU engine walks them (no closed form)."""
    g = from_networkx(G, cache=False)
    P = as_pattern(nx.complete_graph(k))
    distinct = CPU.count(g, static_plan(P, g, induced=induced, distinct=True))
    mappings = CPU.count(g, static_plan(P, g, induced=induced, distinct=False))
    return distinct, mappings


def _formula(G, k: int, induced: bool) -> int | None:
    g = from_networkx(G, cache=False)
    plan = static_plan(as_pattern(nx.complete_graph(k)), g, induced=induced, distinct=True)
    return closed_form_count(g, plan)


def _shuffled(G, seed: int):
    """G with its nodes renumbered at random (clique members far apart in id order)."""
    perm = np.random.default_rng(seed).permutation(G.number_of_nodes()).tolist()
    return nx.relabel_nodes(G, dict(zip(sorted(G), perm, strict=True)))


def _cliques(*sizes: int) -> nx.Graph:
    return nx.disjoint_union_all([nx.complete_graph(s) for s in sizes])


@pytest.fixture
def no_engine(monkeypatch):
    """Fail any count that reaches an executor (a closed form answers without one)."""

    def refuse(*args, **kwargs):
        raise AssertionError("the engine ran: no closed form")

    monkeypatch.setattr(static_exec, "run_job", refuse)


@pytest.fixture
def engine_runs(monkeypatch):
    """The jobs that reached an executor."""
    ran: list = []
    real = static_exec.run_job

    def record(job, *args, **kwargs):
        ran.append(job)
        return real(job, *args, **kwargs)

    monkeypatch.setattr(static_exec, "run_job", record)
    return ran


GRAPHS = {
    "K12": lambda: nx.complete_graph(12),
    "K5+K7+K12 shuffled": lambda: _shuffled(_cliques(5, 7, 12), 1),
    "K8+K8+K3+P2+isolated": lambda: nx.disjoint_union_all(
        [_cliques(8, 8, 3), nx.path_graph(2), nx.empty_graph(3)]
    ),
    "K9 with self-loops": lambda: nx.complete_graph(9).copy(),
}


def _graph(name: str) -> nx.Graph:
    G = GRAPHS[name]()
    if "self-loops" in name:
        G.add_edges_from([(0, 0), (4, 4)])
    return G


@pytest.mark.parametrize("induced", [False, True])
@pytest.mark.parametrize("k", [3, 6, 7])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_clique_formula_equals_the_engine_walk(name, k, induced, no_engine):
    G = _graph(name)
    distinct, mappings = _walked(G, k, induced)
    sizes = [len(c) for c in nx.connected_components(G)]
    if induced and "self-loops" in name:  # an induced image has no self-loop
        sizes = [9 - 2]
    assert distinct == sum(math.comb(s, k) for s in sizes)
    assert mappings == distinct * math.factorial(k)
    assert _formula(G, k, induced) == distinct
    P = nx.complete_graph(k)
    got = ng.count_subgraphs(G, P, induced=induced, count="subgraphs", engine="cpu")
    assert got == distinct
    assert ng.count_subgraphs(G, P, induced=induced, engine="cpu") == mappings
    # a mapping plan counts through its distinct sibling: the formula too
    g = from_networkx(G, cache=False)
    plan = static_plan(as_pattern(P), g, induced=induced, distinct=False)
    assert closed_form_count(g, plan) is None
    assert run_static(g, plan, "count", engine="cpu") == mappings


def test_a_component_that_is_not_complete_is_counted_by_the_engine(engine_runs):
    # K7, K6 and a 6-node component missing one edge: the engine counts the whole graph
    G = nx.disjoint_union_all([nx.complete_graph(7), nx.complete_graph(6), nx.complete_graph(6)])
    G.remove_edge(13, 14)
    for k in (3, 4, 6):
        for induced in (False, True):
            distinct, mappings = _walked(G, k, induced)
            want = math.comb(7, k) + math.comb(6, k) + math.comb(6, k) - math.comb(4, k - 2)
            assert distinct == want
            assert _formula(G, k, induced) is None
            engine_runs.clear()
            got = ng.count_subgraphs(G, nx.complete_graph(k), induced=induced, engine="cpu")
            assert got == mappings and engine_runs
    # a small component (fewer nodes than the pattern) need not be complete
    H = nx.disjoint_union_all([nx.complete_graph(7), nx.path_graph(4), nx.star_graph(4)])
    for k in (6, 7):
        assert _formula(H, k, False) == math.comb(7, k) == _walked(H, k, False)[0]
    # ... but one with a node of degree k - 1 must be: a 5-star holds no K5, yet has a hub
    H = nx.disjoint_union(nx.complete_graph(7), nx.star_graph(5))
    assert _formula(H, 5, False) is None
    assert ng.count_subgraphs(H, "5-clique", count="subgraphs", engine="cpu") == math.comb(7, 5)


def test_every_small_graph():
    """Every graph of up to 7 nodes (NetworkX's atlas) and every K_k in it: the formula
    applies exactly when each component with a node of degree k - 1 or more is complete (so
    whenever each component of k or more nodes is), and then equals the engine's walk (among
    them, graphs whose least-neighbour classes alone look complete)."""
    applied = refused = 0
    cliques = {k: as_pattern(nx.complete_graph(k)) for k in range(3, 8)}
    for G in nx.graph_atlas_g():
        n = G.number_of_nodes()
        g = from_networkx(G, cache=False)
        for k in range(3, n + 1):
            complete = all(
                max(d for _, d in G.degree(c)) < k - 1
                or G.subgraph(c).number_of_edges() == math.comb(len(c), 2)
                for c in nx.connected_components(G)
            )
            for induced in (False, True):
                plan = static_plan(cliques[k], g, induced=induced, distinct=True)
                formula = closed_form_count(g, plan)
                if not complete:
                    assert formula is None, (sorted(G.edges), k)
                    refused += 1
                    continue
                assert formula == CPU.count(g, plan), (sorted(G.edges), k)
                applied += 1
    assert applied > 1000 and refused > 1000


def test_the_neighbour_scan_in_small_blocks(monkeypatch):
    """The O(m) scan reads the rows in blocks (``CLIQUE_BLOCK`` entries): the same answers
    with blocks of a few entries, rows longer than a block included."""
    monkeypatch.setattr(jobs_static, "CLIQUE_BLOCK", 5)
    G = _shuffled(nx.disjoint_union_all([_cliques(9, 4, 6), nx.path_graph(3)]), 3)
    assert _formula(G, 4, False) == math.comb(9, 4) + 1 + math.comb(6, 4)
    G.remove_edge(*next(iter(G.edges(max(G, key=G.degree)))))
    assert _formula(G, 4, False) is None


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 9), min_size=1, max_size=5),
    junk=st.lists(st.integers(1, 6), max_size=3),
    k=st.integers(3, 6),
    loops=st.lists(st.integers(0, 60), max_size=4),
    drop=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_random_unions_of_cliques(sizes, junk, k, loops, drop, seed):
    """Cliques, small paths (fewer than k nodes: any shape), self-loops, shuffled ids; with
    ``drop`` one edge of a component of k or more nodes is removed (no formula then)."""
    parts = [nx.complete_graph(s) for s in sizes] + [nx.path_graph(j) for j in junk if j < k]
    G = nx.disjoint_union_all(parts)
    big = [c for c in nx.connected_components(G) if len(c) >= k]
    dropped = drop and bool(big)
    if dropped:
        u, v = sorted(big[0])[:2]
        G.remove_edge(u, v)
    n = G.number_of_nodes()
    if n < k:
        return
    G.add_edges_from((v % n, v % n) for v in loops)
    G = _shuffled(G, seed)
    for induced in (False, True):
        distinct, mappings = _walked(G, k, induced)
        assert mappings == distinct * math.factorial(k)
        formula = _formula(G, k, induced)
        if dropped:
            assert formula is None
        else:
            assert formula == distinct
        P = nx.complete_graph(k)
        assert ng.count_subgraphs(G, P, induced=induced, engine="cpu") == mappings


def test_k8_in_k300_in_closed_form(engine, no_engine):
    """Issue 35's case: 8-cliques in K300 (hours of search) answered from the formula."""
    ng.count_subgraphs(nx.complete_graph(10), nx.complete_graph(8), engine=engine)  # imports
    t = time.perf_counter()
    G = nx.complete_graph(300)  # converted and planned inside the timed call
    got = ng.count_subgraphs(G, nx.complete_graph(8), count="subgraphs", engine=engine)
    took = time.perf_counter() - t
    assert got == math.comb(300, 8) == 1_481_062_243_936_275
    assert took < 3.0, took
    # mappings: 300!/292! (past 2**63): exact where the 64-bit rule allows it, else refused at
    # once, never after a search
    want = math.perm(300, 8)
    assert want > 2**63
    t = time.perf_counter()
    try:
        fits = checked_total(want) == want
    except CapacityError:
        fits = False
    if fits:
        assert ng.count_subgraphs(G, nx.complete_graph(8), engine=engine) == want
    else:
        with pytest.raises(CapacityError):
            ng.count_subgraphs(G, nx.complete_graph(8), engine=engine)
    assert time.perf_counter() - t < 3.0
    # induced: the same occurrences
    got = ng.count_subgraphs(G, "5-clique", count="subgraphs", induced=True, engine=engine)
    assert got == math.comb(300, 5)


def test_distinct_counts_past_64_bits_follow_the_rule(no_engine):
    G = nx.complete_graph(200)
    want = math.comb(200, 30)
    assert want > 2**63
    try:
        fits = checked_total(want) == want
    except CapacityError:
        fits = False
    if fits:
        got = ng.count_subgraphs(G, nx.complete_graph(30), count="subgraphs", engine="cpu")
        assert got == want
    else:
        with pytest.raises(CapacityError, match="clique count"):
            ng.count_subgraphs(G, nx.complete_graph(30), count="subgraphs", engine="cpu")


def test_labels_and_directions_keep_the_engine(engine_runs):
    # labels that restrict nothing still make a labelled plan: the engine counts it
    G = nx.complete_graph(8)
    nx.set_node_attributes(G, "a", "t")
    P = nx.complete_graph(4)
    nx.set_node_attributes(P, "a", "t")
    g = as_static_graph(G, node_label="t")
    plan = static_plan(as_pattern(P, node_label="t"), g, induced=False, distinct=True)
    assert closed_form_count(g, plan) is None
    got = ng.count_subgraphs(G, P, node_label="t", count="subgraphs", engine="cpu")
    assert got == math.comb(8, 4) and engine_runs
    engine_runs.clear()
    # a complete digraph and a complete directed pattern: no shape, the engine
    D = nx.complete_graph(7, create_using=nx.DiGraph)
    Q = nx.complete_graph(4, create_using=nx.DiGraph)
    d = as_static_graph(D)
    plan = static_plan(as_pattern(Q), d, induced=False, distinct=True)
    assert closed_form_count(d, plan) is None
    assert ng.count_subgraphs(D, Q, engine="cpu") == math.perm(7, 4) and engine_runs


def test_enumeration_and_other_modes_still_walk(engine_runs):
    g = as_static_graph(nx.complete_graph(7))
    plan = static_plan(as_pattern(nx.complete_graph(4)), g, induced=False, distinct=True)
    assert closed_form_count(g, plan) == 35
    rows = run_static(g, plan, "enumerate", engine="cpu")
    assert rows.shape == (35, 4) and engine_runs
    assert ng.has_subgraph(g, "4-clique", engine="cpu")
    assert len(ng.find_subgraphs(g, "4-clique", distinct=True, engine="cpu")) == 35


def test_closed_forms_are_never_refused_by_work_limits():
    """A count in closed form costs milliseconds whatever its size: max_work and max_seconds
    admit it (K8 in K300: 6.0e19 mappings, past 2**63); the same query one edge short of the
    formula is refused at once; estimates are unchanged."""
    g = as_static_graph(nx.complete_graph(300))
    t = time.perf_counter()
    got = ng.count_subgraphs(g, nx.complete_graph(8), max_work=10**9, max_seconds=1, engine="cpu")
    assert got == math.perm(300, 8) > 2**63
    got = ng.count_subgraphs(g, nx.complete_graph(8), count="subgraphs", max_work=1, engine="cpu")
    assert got == math.comb(300, 8)
    K = nx.complete_graph(300)
    K.remove_edge(0, 1)
    with pytest.raises(ng.WorkLimitError):
        ng.count_subgraphs(K, nx.complete_graph(8), max_work=10**9, engine="cpu")
    assert time.perf_counter() - t < 5.0
    est = ng.estimate(nx.complete_graph(20), "4-clique", count="subgraphs")
    assert est.exact and est.count == math.comb(20, 4)


def test_estimates_of_closed_forms_are_the_answer(unhurried_estimates):
    """ng.estimate of a closed-form count is its formula: exact, no work, in milliseconds."""
    t = time.perf_counter()
    est = ng.estimate(nx.complete_graph(300), nx.complete_graph(8))
    assert time.perf_counter() - t < 2.0
    assert est.exact and est.count == est.count_low == est.count_high == math.perm(300, 8)
    assert est.work == est.work_bound == 0 and "exact" in str(est)
    est = ng.estimate(nx.star_graph(50), nx.star_graph(3), count="subgraphs")
    assert est.exact and est.count == math.comb(50, 3)
    # no closed form: sampled, and every root fits the sample and the estimate's time (K30's
    # 434 roots did not always, on a loaded 2-core CI machine: 351 counted in one run)
    K = nx.complete_graph(14)
    K.remove_edge(0, 1)
    est = ng.estimate(K, nx.complete_graph(4), count="subgraphs", samples=10**6)
    assert est.exact and est.count == math.comb(14, 4) - math.comb(12, 2) and est.work > 0


def test_the_formula_is_decided_once_per_plan_and_the_sums_kept(monkeypatch):
    """A repeated count of a named star or clique reuses one Pattern, one plan, its closed-form
    decision (``StaticPlan.closed_form``) and the graph's kept sum: no second degree sum."""
    from nx_gpumine.inputs.patterns import Pattern
    from nx_gpumine.inputs.static_graph import as_static_graph
    from nx_gpumine.plan.static_plan import static_plan

    assert Pattern.named("triangle") is Pattern.named("triangle")
    g = as_static_graph(nx.barbell_graph(6, 0))
    calls = []
    real = degree_sums.star_sum
    monkeypatch.setattr(degree_sums, "star_sum", lambda d, s: calls.append(s) or real(d, s))
    want = sum(math.comb(int(d), 3) for d in g.degree)
    for _ in range(3):
        assert ng.count_subgraphs(g, "4-star", engine="cpu", count="subgraphs") == want
    # the census's blocks read the same kept sums (stars2 is a new one: one more sum)
    ng.subgraph_census(g, 4, engine="cpu")
    ng.subgraph_census(g, 3, engine="cpu")
    assert calls == [3, 2]
    plan = static_plan(Pattern.named("4-clique"), g, induced=False, distinct=True)
    assert plan.closed_form == ("clique", 4, False)
    assert plan.closed_form is plan.closed_form
