"""Issue 16: plan decisions are made once, in the plan and execution layers, for every engine.

- Counting a mapping plan as distinct occurrences x |Aut(P)| is decided by one plan-layer
  function, ``plan.static_plan.distinct_sibling`` (cached with the graph), and applied by
  execution (``execution.static.count_mappings``) whichever engine runs: here the CPU engine,
  which receives the distinct plan, against NetworkX.
- 1- and 2-node plans are answered by execution (``execution.static.small_plan_result``) on
  every route; engines get plans of ``STATIC_MIN_K`` (3) or more nodes. Called directly with a
  smaller plan, the CUDA engine raises ValueError (before touching CuPy, so this runs without
  a GPU), the CPU engine raises for k = 1 and walks k = 2 (equal to execution's answer).
- Every engine validates ``limit`` with ``engines.checks.checked_limit`` (one message).
"""

from __future__ import annotations

import itertools

import networkx as nx
import networkx.algorithms.isomorphism as iso
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.engines import contract, select_engine
from nx_gpumine.engines.contract import STATIC_MIN_K
from nx_gpumine.errors import CapacityError
from nx_gpumine.execution.jobs.static import StaticJob
from nx_gpumine.execution.runner import run_on_devices
from nx_gpumine.execution.static import (
    count_mappings,
    iter_static_blocks,
    run_static,
    small_plan_result,
)
from nx_gpumine.inputs.motifs import TemporalMotif
from nx_gpumine.inputs.patterns import Pattern, as_pattern
from nx_gpumine.inputs.static_graph import from_arrays, from_networkx
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan import static_plan as sp
from nx_gpumine.plan.static_plan import (
    build_static_plan,
    distinct_sibling,
    star_leaves,
    static_plan,
)
from nx_gpumine.plan.temporal_plan import build_temporal_plan

CPU = select_engine("cpu", "static")


def _nx_mappings(G, P, induced: bool) -> int:
    cls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = cls(G, P)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    return sum(1 for _ in it)


def _brute_mappings(G, P, induced: bool) -> int:
    """Every injective map of P's nodes into G's, checked edge by edge (and non-edge)."""
    pn, gn = list(P), list(G)
    n = 0
    for image in itertools.permutations(gn, len(pn)):
        f = dict(zip(pn, image, strict=True))
        if all(G.has_edge(f[a], f[b]) for a, b in P.edges) and (
            not induced
            or all(P.has_edge(a, b) == G.has_edge(f[a], f[b]) for a in pn for b in pn if a != b)
        ):
            n += 1
    return n


@pytest.fixture
def recorded(monkeypatch):
    """The plans execution hands the CPU engine's count / exists / enumerate_matches."""
    seen: list = []
    for name in ("count", "exists", "enumerate_matches", "iter_matches"):
        real = getattr(CPU, name)

        def spy(graph, plan, *args, _real=real, **kw):
            seen.append(plan)
            return _real(graph, plan, *args, **kw)

        monkeypatch.setattr(CPU, name, spy)
    return seen


# ====================================================================== the distinct sibling
@pytest.mark.parametrize("name", ["triangle", "4-cycle", "diamond", "house", "5-clique"])
@pytest.mark.parametrize("induced", [False, True])
def test_sibling_is_the_cached_distinct_plan(name, induced):
    g = from_networkx(nx.gnm_random_graph(40, 120, seed=3))
    pat = as_pattern(name)
    plan = static_plan(pat, g, induced=induced, distinct=False)
    sibling = distinct_sibling(plan, g)
    assert sibling is static_plan(pat, g, induced=induced, distinct=True)  # kept with the graph
    assert sibling.distinct and sibling.pattern is plan.pattern and sibling.induced == induced
    assert distinct_sibling(plan, g) is sibling
    assert distinct_sibling(sibling, g) is None  # a distinct plan is counted as it is


def test_sibling_lookup_builds_nothing_twice(monkeypatch):
    g = from_networkx(nx.gnm_random_graph(60, 300, seed=5))
    plan = static_plan(as_pattern("4-cycle"), g, induced=False, distinct=False)
    first = distinct_sibling(plan, g)
    run_static(g, plan, "count", engine="cpu")  # the first count builds the copy's plan once
    builds = []
    real = sp.build_static_plan
    monkeypatch.setattr(sp, "build_static_plan", lambda *a, **k: builds.append(1) or real(*a, **k))
    for _ in range(5):
        assert distinct_sibling(plan, g) is first
        run_static(g, plan, "count", engine="cpu")
    assert builds == []  # the look-up is cached: no plan is built on a repeated count


def test_no_sibling_where_the_rule_does_not_apply():
    g = from_networkx(nx.gnm_random_graph(30, 80, seed=1))
    edge = build_static_plan(as_pattern(nx.Graph([(0, 1)])), g, induced=False, distinct=False)
    assert edge.num_automorphisms == 2 and distinct_sibling(edge, g) is None  # k = 2
    # no automorphism: a path whose ends carry different labels
    P = nx.path_graph(3)
    nx.set_node_attributes(P, {0: "a", 1: "b", 2: "c"}, "t")
    G = nx.gnm_random_graph(30, 80, seed=1)
    nx.set_node_attributes(G, {v: "abc"[v % 3] for v in G}, "t")
    gl = from_networkx(G, node_label="t")
    plan = build_static_plan(Pattern.from_networkx(P, node_label="t"), gl, induced=False,
                             distinct=False)  # fmt: skip
    assert plan.num_automorphisms == 1 and distinct_sibling(plan, gl) is None
    d = from_networkx(nx.gnm_random_graph(30, 120, seed=2, directed=True))
    ffl = build_static_plan(as_pattern("feed-forward-loop"), d, induced=False, distinct=False)
    assert ffl.num_automorphisms == 1 and distinct_sibling(ffl, d) is None


@pytest.mark.parametrize("induced", [False, True])
@pytest.mark.parametrize(
    "P",
    [
        nx.cycle_graph(4),
        nx.complete_graph(4),
        nx.path_graph(4),
        nx.star_graph(3),
        nx.cycle_graph(5),
    ],
    ids=["4-cycle", "4-clique", "4-path", "4-star", "5-cycle"],
)
def test_execution_counts_mappings_through_the_sibling_on_the_cpu_engine(recorded, P, induced):
    G = nx.gnm_random_graph(9, 20, seed=4)
    g = from_networkx(G)
    plan = build_static_plan(Pattern.from_networkx(P), g, induced=induced, distinct=False)
    want = _brute_mappings(G, P, induced)
    assert want == _nx_mappings(G, P, induced)
    # the engine walked the distinct plan; a non-induced star is a degree sum (no engine)
    formula = not induced and star_leaves(plan) > 0
    assert run_static(g, plan, "count", engine="cpu") == want
    assert [p.distinct for p in recorded] == ([] if formula else [True])
    recorded.clear()
    assert run_static(g, plan, "count", engine="cpu", progress=True) == want  # root ranges
    assert formula or (recorded and all(p.distinct for p in recorded))
    recorded.clear()
    assert CPU.count(g, plan) == want  # the engine itself walks every mapping it is given
    # the public function gives the same number (it builds no mapping plan)
    key = ("static_plan", Pattern.from_networkx(P).key(), induced, False)
    h = from_networkx(G)
    assert ng.count_subgraphs(h, Pattern.from_networkx(P), induced=induced, engine="cpu") == want
    assert not h.has_derived(key)


def test_mapping_count_overflow_follows_the_count_rule():
    g = from_networkx(nx.star_graph(45))
    pat = Pattern.from_networkx(nx.star_graph(40))
    plan = static_plan(pat, g, induced=False, distinct=False)
    assert distinct_sibling(plan, g) is not None
    with pytest.raises(CapacityError, match=r"mapping count \(1221759 subgraphs x"):
        run_static(g, plan, "count", engine="cpu")  # C(45, 40) x 40! > 2**128 - 1
    with pytest.raises(CapacityError, match="128-bit"):
        count_mappings(g, static_plan(pat, g, induced=False, distinct=True), engine="cpu")


# ====================================================================== 1- and 2-node plans
def _small_graphs():
    rng = np.random.default_rng(7)
    s, d = rng.integers(0, 60, 400), rng.integers(0, 60, 400)
    lab = dict(node_labels=rng.integers(0, 2, 60), edge_labels=rng.integers(0, 2, 400))
    u = nx.gnm_random_graph(60, 200, seed=2)
    u.add_edges_from([(3, 3), (5, 5)])
    return [
        ("undirected", from_networkx(u), nx.Graph([(0, 1)])),
        ("loop", from_networkx(u), nx.Graph([(0, 1), (1, 1)])),
        (
            "directed",
            from_arrays(s, d, directed=True, num_nodes=60, duplicates="drop"),
            nx.DiGraph([(0, 1), (1, 0)]),
        ),  # fmt: skip
        (
            "labelled",
            from_arrays(s, d, directed=True, num_nodes=60, duplicates="drop", **lab),
            None,
        ),  # fmt: skip
    ]


def _labelled_pattern():
    P = nx.DiGraph([(0, 1)])
    nx.set_node_attributes(P, {0: 1, 1: 0}, "label")
    P.edges[0, 1]["label"] = 1
    return as_pattern(P, node_label="label", edge_label="label")


@pytest.mark.parametrize("case", range(4), ids=["undirected", "loop", "directed", "labelled"])
@pytest.mark.parametrize("induced", [False, True])
@pytest.mark.parametrize("distinct", [False, True])
def test_two_node_answers_equal_the_cpu_walk(case, induced, distinct):
    _, g, P = _small_graphs()[case]
    pat = _labelled_pattern() if P is None else as_pattern(P)
    plan = build_static_plan(pat, g, induced=induced, distinct=distinct)
    assert plan.k == 2
    m = len(g.indices)
    for lo, hi in ((0, m), (m // 3, 2 * m // 3), (5, 5)):
        want = CPU.count(g, plan, lo, hi)
        assert small_plan_result(g, plan, "count", None, lo, hi) == want
        assert small_plan_result(g, plan, "exists", None, lo, hi) == CPU.exists(g, plan, lo, hi)
        rows = CPU.enumerate_matches(g, plan, lo, hi)
        assert np.array_equal(small_plan_result(g, plan, "enumerate", None, lo, hi), rows)
        lim = small_plan_result(g, plan, "enumerate", 3, lo, hi)
        assert np.array_equal(lim, CPU.enumerate_matches(g, plan, lo, hi, limit=3))
    with pytest.raises(ValueError, match="root range"):
        small_plan_result(g, plan, "count", None, 0, m + 1)


def test_small_plans_never_reach_an_engine(recorded):
    g = from_networkx(nx.gnm_random_graph(300, 3000, seed=8))
    for P in (nx.Graph([(0, 1)]), nx.empty_graph(1)):
        for distinct in (False, True):
            plan = build_static_plan(as_pattern(P), g, induced=False, distinct=distinct)
            want = small_plan_result(g, plan, "enumerate")
            assert np.array_equal(run_static(g, plan, "enumerate", engine="cpu"), want)
            assert np.array_equal(
                run_static(g, plan, "enumerate", engine="cpu", progress=True), want
            )
            assert run_static(g, plan, "count", engine="cpu") == len(want)
            assert run_static(g, plan, "exists", engine="cpu") is (len(want) > 0)
            blocks = list(iter_static_blocks(g, plan, engine="cpu", ntasks=7))
            assert np.array_equal(np.concatenate(blocks), want)
            got = run_on_devices(StaticJob.of(g, plan, "enumerate", 9), "cpu", [0, 0])
            assert np.array_equal(got, want[:9])
            assert run_on_devices(StaticJob.of(g, plan, "count"), "cpu", [0, 0]) == len(want)
    assert recorded == []  # no engine call at all
    # and the public functions agree with NetworkX
    G = nx.gnm_random_graph(40, 90, seed=3)
    assert ng.count_subgraphs(G, nx.Graph([(0, 1)]), engine="cpu") == 2 * 90
    assert ng.count_subgraphs(G, nx.Graph([(0, 1)]), engine="cpu", count="subgraphs") == 90
    assert len(ng.find_subgraphs(G, nx.Graph([(0, 1)]), engine="cpu")) == 180


def test_engines_called_directly_with_small_plans():
    cuda = contract.engine_module("static", "cuda")  # imports without CuPy
    g = from_networkx(nx.gnm_random_graph(50, 200, seed=1))
    for P in (nx.Graph([(0, 1)]), nx.empty_graph(1)):
        plan = build_static_plan(as_pattern(P), g, induced=False, distinct=False)
        assert plan.k < STATIC_MIN_K
        for call in (cuda.count, cuda.exists, cuda.enumerate_matches):
            with pytest.raises(ValueError, match=f"at least {STATIC_MIN_K} nodes"):
                call(g, plan)
        if plan.k == 1:
            with pytest.raises(ValueError, match="k >= 2"):
                CPU.count(g, plan)
        else:  # the CPU engine's DFS walks a 2-node plan: execution's answer
            assert CPU.count(g, plan) == small_plan_result(g, plan, "count") == 400
    assert not cuda.whole_range_count(g, plan)  # no whole-range kernel for a small plan
    three = build_static_plan(as_pattern("triangle"), g, induced=False, distinct=False)
    with pytest.raises(ValueError, match="1 or 2 nodes"):
        small_plan_result(g, three, "count")


# ====================================================================== limits
def test_every_engine_checks_limit_with_the_shared_rule():
    g = from_networkx(nx.gnm_random_graph(50, 200, seed=1))
    plan = build_static_plan(as_pattern("triangle"), g, induced=False, distinct=False)
    tg = temporal_from_arrays(np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([1, 2, 3]))
    tplan = build_temporal_plan(TemporalMotif([(0, 1), (1, 2)], delta=10), tg)
    calls = [
        (contract.engine_module("static", name).enumerate_matches, g, plan)
        for name in ("cpu", "cuda")
    ] + [
        (contract.engine_module("temporal", name).enumerate_matches, tg, tplan)
        for name in ("cpu", "cuda")
    ]
    for fn, graph, p in calls:
        with pytest.raises(ValueError, match=r"^limit must be >= 0, got -1$"):
            fn(graph, p, limit=-1)
