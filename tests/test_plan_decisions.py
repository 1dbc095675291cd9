"""Issue 16: plan decisions are made once, in the plan and execution layers, for every engine.

- Counting a mapping plan as distinct occurrences x |Aut(P)| is decided by one plan-layer
  function, ``plan.static_plan.distinct_sibling`` (cached with the graph), and applied by
  execution (``execution.static.count_mappings``) whichever engine runs: here the CPU engine,
  which receives the distinct plan, against NetworkX.
- Every engine validates ``limit`` with ``engines.checks.checked_limit`` (one message; the CUDA
  engines check it before touching CuPy, so this runs without a GPU).
"""

from __future__ import annotations

import itertools

import networkx as nx
import networkx.algorithms.isomorphism as iso
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.engines import contract, select_engine
from nx_gpumine.errors import CapacityError
from nx_gpumine.execution.static import count_mappings, run_static
from nx_gpumine.inputs.motifs import TemporalMotif
from nx_gpumine.inputs.patterns import Pattern, as_pattern
from nx_gpumine.inputs.static_graph import from_networkx
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan import static_plan as sp
from nx_gpumine.plan.static_plan import build_static_plan, distinct_sibling, static_plan
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
    assert run_static(g, plan, "count", engine="cpu") == want
    assert [p.distinct for p in recorded] == [True]  # the engine walked the distinct plan
    recorded.clear()
    assert run_static(g, plan, "count", engine="cpu", progress=True) == want  # root ranges
    assert recorded and all(p.distinct for p in recorded)
    recorded.clear()
    assert CPU.count(g, plan) == want  # the engine itself walks every mapping it is given
    # the public function gives the same number (it builds no mapping plan)
    key = ("static_plan", Pattern.from_networkx(P).key(), induced, False)
    h = from_networkx(G)
    assert ng.count_subgraphs(h, Pattern.from_networkx(P), induced=induced, engine="cpu") == want
    assert not h.has_derived(key)


def test_mapping_count_overflow_follows_the_64_bit_rule():
    g = from_networkx(nx.star_graph(45))
    pat = Pattern.from_networkx(nx.star_graph(40))
    plan = static_plan(pat, g, induced=False, distinct=False)
    assert distinct_sibling(plan, g) is not None
    with pytest.raises(CapacityError, match=r"mapping count \(1221759 subgraphs x"):
        run_static(g, plan, "count", engine="cpu")  # C(45, 40) x 40! > 2**63 - 1
    with pytest.raises(CapacityError, match="64-bit"):
        count_mappings(g, static_plan(pat, g, induced=False, distinct=True), engine="cpu")


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
