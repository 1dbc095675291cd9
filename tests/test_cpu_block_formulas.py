"""The CPU engine counts non-induced census graphlets by their block formulas (sums of degrees
and of each edge's triangles) over every root: equal to its own walk, to NetworkX, and to the
walk over root ranges; induced, labelled, directed and other graphlets keep the walk."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.engines.cpu import static as cpu
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.plan.graphlets import block_formula, graphlet_of, graphlets
from nx_gpumine.plan.static_plan import build_static_plan

BOWTIE = nx.Graph([(0, 1), (0, 2), (1, 2), (2, 3), (2, 4), (3, 4)])


def _formula_graphlets() -> list:
    """Every undirected 5-node graphlet whose formula takes only the triangle blocks."""
    return [
        g
        for g in graphlets(5, False)
        if (f := block_formula(g)) is not None and all(name in cpu.TRIANGLE_BLOCKS for _, name in f)
    ]


def test_the_formula_graphlets():
    names = {g.name for g in _formula_graphlets()}
    assert len(names) == 7  # 6 here and the 5-star (its count is a closed form before)
    assert "G42" in names  # the bowtie; not the 5-cycle, the house or the 5-clique (walks)
    assert not {"G31", "5-cycle", "5-clique", "house"} & names  # G31: the 5-path
    S = ng.from_networkx(nx.gnp_random_graph(20, 0.3, seed=1))
    for P in (nx.complete_graph(3), nx.path_graph(4), nx.cycle_graph(4)):  # 3-4 nodes: walks
        plan = build_static_plan(Pattern.from_networkx(P), S, induced=False, distinct=True)
        assert not cpu.whole_range_count(S, plan)


def _walk_count(S, plan, lo=0, hi=None):
    return cpu._reduce(S, plan, lo, hi, cpu.COUNT)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(5, 30), p=st.floats(0.05, 0.6), seed=st.integers(0, 9999))
def test_formula_counts_equal_the_walk(n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    G.add_edges_from((0, v) for v in range(1, min(n, 12)))  # a hub
    G.add_edges_from([(1, 1), (n - 1, n - 1)])  # self-loops: no edges of a loop-free pattern
    S = ng.from_networkx(G)
    for g in _formula_graphlets():
        pat = Pattern.from_networkx(g.graph())
        for distinct in (True, False):
            plan = build_static_plan(pat, S, induced=False, distinct=distinct)
            assert cpu.whole_range_count(S, plan)
            assert cpu.count(S, plan) == _walk_count(S, plan), (g.name, distinct)
            half = len(S.indices) // 2  # a root range: the walk
            assert cpu.count(S, plan, 0, half) == _walk_count(S, plan, 0, half)


def test_bowtie_equals_networkx():
    G = nx.powerlaw_cluster_graph(60, 4, 0.5, seed=3)
    mappings = sum(1 for _ in iso.GraphMatcher(G, BOWTIE).subgraph_monomorphisms_iter())
    assert ng.count_subgraphs(G, BOWTIE, engine="cpu") == mappings
    assert ng.count_subgraphs(G, BOWTIE, engine="cpu", count="subgraphs") == mappings // 8


@pytest.mark.parametrize(
    "kw, pattern",
    [
        ({"induced": True}, BOWTIE),  # induced: not a formula of these blocks
        ({}, nx.cycle_graph(4)),  # its block (4-cycles) is a walk
        ({}, nx.house_graph()),
    ],
)
def test_other_plans_keep_the_walk(kw, pattern):
    S = ng.from_networkx(nx.gnp_random_graph(20, 0.3, seed=1))
    plan = build_static_plan(
        Pattern.from_networkx(pattern), S, induced=kw.get("induced", False), distinct=True
    )
    assert not cpu.whole_range_count(S, plan)


def test_labelled_looped_directed_and_disconnected_patterns_are_no_graphlets():
    P = BOWTIE.copy()
    nx.set_node_attributes(P, 1, "c")
    assert graphlet_of(Pattern.from_networkx(P, node_label="c")) is None
    L = BOWTIE.copy()
    L.add_edge(0, 0)
    assert graphlet_of(Pattern.from_networkx(L)) is None
    assert graphlet_of(Pattern.from_networkx(nx.DiGraph([(0, 1), (1, 2)]))) is None
    assert graphlet_of(Pattern.from_networkx(nx.Graph([(0, 1), (2, 3)]))) is None
    assert graphlet_of(Pattern.from_networkx(BOWTIE)).name == "G42"


def test_progress_counts_by_the_formula_whole(capsys):
    pytest.importorskip("tqdm")
    G = nx.powerlaw_cluster_graph(400, 4, 0.5, seed=2)
    want = ng.count_subgraphs(G, BOWTIE, engine="cpu")
    assert ng.count_subgraphs(G, BOWTIE, engine="cpu", progress=True) == want
    assert "(count)" not in capsys.readouterr().err  # one call, no bar over root ranges


def test_blocks_kept_with_the_graph(monkeypatch):
    """The blocks a formula reads are computed once per graph (one pass for the missing ones)
    and kept: a second count, and another graphlet on the blocks already there, compute none."""
    from nx_gpumine.engines.cpu import census

    G = nx.powerlaw_cluster_graph(80, 4, 0.5, seed=5)
    S = ng.from_networkx(G, cache=False)
    passes = []
    real = census.census_blocks

    def counting(graph, names, stats):
        passes.append(set(names))
        return real(graph, names, stats)

    monkeypatch.setattr(census, "census_blocks", counting)
    plan = build_static_plan(Pattern.from_networkx(BOWTIE), S, induced=False, distinct=True)
    first = cpu.count(S, plan)
    assert first == cpu.count(S, plan) and len(passes) == 1
    assert passes[0] == {name for _, name in block_formula(graphlet_of(plan.pattern))}
    assert first == _walk_count(S, plan, 0, len(S.indices))
