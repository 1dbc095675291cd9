"""The degree-ordered search copy (inputs/search_order.py) and execution's route to it
(execution/static.py: on_search_copy, issue 33): the copy is the same labelled graph with ids
ascending by (label, degree), and counts and existence tests through it equal NetworkX's and
those on the graph's own ids, on both engines."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.execution import static as static_execution
from nx_gpumine.execution.static import on_search_copy
from nx_gpumine.inputs.search_order import is_search_ordered, renumbered, search_ordered
from nx_gpumine.plan.static_plan import build_static_plan

BOWTIE = nx.Graph([(0, 1), (0, 2), (1, 2), (0, 3), (0, 4), (3, 4)])


def labelled_digraph(n: int, p: float, seed: int) -> nx.DiGraph:
    G = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    rng = np.random.default_rng(seed)
    for v in G:
        G.nodes[v]["c"] = int(rng.integers(3))
    for u, v in G.edges:
        G.edges[u, v]["w"] = int(rng.integers(2))
    G.add_edge(4, 4, w=1)
    return G


def keyed_edges(S: ng.StaticGraph) -> set:
    G = S.to_networkx()
    return {(u, v, d.get("w")) for u, v, d in G.edges(data=True)}


@pytest.mark.parametrize("by_label", [False, True])
def test_copy_is_the_same_graph_in_degree_order(by_label):
    G = labelled_digraph(80, 0.08, seed=2)
    S = ng.from_networkx(G, node_label="c", edge_label="w")
    H = search_ordered(S, by_label)
    assert H is not S and search_ordered(S, by_label) is H  # built once, kept with the graph
    assert search_ordered(H, by_label) is H and is_search_ordered(H, by_label)
    assert keyed_edges(H) == keyed_edges(S)  # keys name the original nodes
    for v, key in enumerate(H.keys):
        assert H.node_label[v] == S.node_label[S.keys.index(key)]
    deg, lab = H.degree, H.node_label
    if by_label:
        assert np.all(lab[1:] >= lab[:-1])
        same = lab[1:] == lab[:-1]
        assert np.all(deg[1:][same] >= deg[:-1][same])
    else:
        assert np.all(deg[1:] >= deg[:-1])
    for v in range(H.n):  # neighbour lists sorted by the new ids
        row = H.indices[H.indptr[v] : H.indptr[v + 1]]
        assert np.all(row[1:] > row[:-1])


def test_renumbered_keeps_every_entry_array():
    G = labelled_digraph(40, 0.15, seed=5)
    S = ng.from_networkx(G, node_label="c", edge_label="w")
    perm = np.random.default_rng(1).permutation(S.n)
    H = renumbered(S, perm)
    assert keyed_edges(H) == keyed_edges(S)
    assert [H.keys[i] for i in range(H.n)] == [S.keys[p] for p in perm]
    assert H.loop[np.argsort(perm)].tolist() == S.loop.tolist()


def test_route_to_the_copy():
    S = ng.from_networkx(nx.barabasi_albert_graph(300, 3, seed=1))
    distinct = build_static_plan(ng.Pattern.from_networkx(BOWTIE), S, induced=True, distinct=True)
    assert len(distinct.sym_level)
    H, moved = on_search_copy(S, distinct, "count", "cpu")
    assert H is search_ordered(S) and moved.pattern is distinct.pattern
    assert moved.root_ok is not None and len(moved.root_ok) == len(H.indices)
    assert on_search_copy(S, distinct, "enumerate", "cpu") == (S, distinct)  # ids: S's own
    path = build_static_plan(
        ng.Pattern.from_networkx(nx.path_graph(3)), S, induced=False, distinct=False
    )
    assert not len(path.sym_level)
    assert on_search_copy(S, path, "exists", "cpu") == (S, path)  # no symmetry conditions


@pytest.mark.parametrize("induced", [False, True])
def test_counts_equal_networkx_on_a_power_law_graph(induced):
    G = nx.barabasi_albert_graph(120, 4, seed=3)
    G = nx.relabel_nodes(G, {v: 119 - v for v in G})  # hubs at low ids, as the kit's graphs
    S = ng.from_networkx(G)
    for P in (BOWTIE, nx.cycle_graph(4), nx.complete_graph(4), nx.star_graph(3)):
        gm = nx.isomorphism.GraphMatcher(G, P) if induced else None
        want = (
            sum(1 for _ in gm.subgraph_isomorphisms_iter())
            if induced
            else sum(1 for _ in nx.isomorphism.GraphMatcher(G, P).subgraph_monomorphisms_iter())
        )
        got = ng.count_subgraphs(S, P, induced=induced, engine="cpu")
        assert got == want, (P.edges, induced)
    assert S.has_derived(("search_ordered", False))  # the distinct counts ran on the copy


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    k=st.integers(3, 5),
    induced=st.booleans(),
    labels=st.sampled_from([0, 2]),
)
def test_degree_order_changes_no_count(seed, k, induced, labels):
    rng = np.random.default_rng(seed)
    G = nx.gnm_random_graph(40, int(rng.integers(40, 160)), seed=seed)
    P = nx.random_labeled_tree(k, seed=seed) if hasattr(nx, "random_labeled_tree") else None
    if P is None:
        P = nx.random_tree(k, seed=seed)  # networkx < 3.5
    for _ in range(int(rng.integers(0, k))):
        a, b = (int(x) for x in rng.choice(k, 2, replace=False))
        P.add_edge(a, b)
    kw = {}
    if labels:
        for v in G:
            G.nodes[v]["c"] = int(rng.integers(labels))
        for v in P:
            P.nodes[v]["c"] = int(rng.integers(labels))
        kw["node_label"] = "c"
    S = ng.from_networkx(G, **kw)
    got = {}
    for order in ("degree", "id"):
        static_execution.SEARCH_ORDER = order
        try:
            got[order] = [
                ng.count_subgraphs(S, P, induced=induced, count=count, engine="cpu", **kw)
                for count in ("mappings", "subgraphs")
            ] + [ng.has_subgraph(S, P, induced=induced, engine="cpu", **kw)]
        finally:
            static_execution.SEARCH_ORDER = "degree"
    assert got["degree"] == got["id"]
    # the copy grouped by label, degree order within labels (built, not yet routed to): the
    # CPU engine's count there equals its count on the graph itself
    from nx_gpumine.engines.cpu import static as cpu

    pattern = ng.Pattern.from_networkx(P, **kw)
    plan = build_static_plan(pattern, S, induced=induced, distinct=True)
    H = search_ordered(S, by_label=True)
    moved = build_static_plan(pattern, H, induced=induced, distinct=True)
    assert cpu.count(H, moved) == cpu.count(S, plan) == got["id"][1]


@pytest.mark.gpu
@pytest.mark.parametrize("induced", [False, True])
def test_cuda_counts_on_the_copy_equal_cpu(induced):
    G = nx.barabasi_albert_graph(2000, 6, seed=4)
    G = nx.relabel_nodes(G, {v: 1999 - v for v in G})
    S = ng.from_networkx(G)
    for P in (BOWTIE, nx.cycle_graph(5), nx.complete_bipartite_graph(2, 3), nx.house_graph()):
        for count in ("mappings", "subgraphs"):
            kw = dict(induced=induced, count=count)
            assert ng.count_subgraphs(S, P, engine="cuda", **kw) == ng.count_subgraphs(
                S, P, engine="cpu", **kw
            ), (P.edges, kw)
    assert S.has_derived(("search_ordered", False))


def test_engines_choose_their_order(monkeypatch):
    # the CPU engine has no hook (degree order for every plan with symmetry conditions); the
    # CUDA engine keeps the plans its count sends to the trie (induced, 4+ nodes) and to a
    # shape kernel (which ranks by degree itself) on the ids
    from nx_gpumine.engines.contract import engine_module, optional_hook
    from nx_gpumine.engines.cuda.static_build import uses_trie

    assert optional_hook(engine_module("static", "cpu"), "search_order") is None
    cuda = engine_module("static", "cuda")  # imports without CuPy
    S = ng.from_networkx(nx.barabasi_albert_graph(300, 3, seed=1))

    def plan_of(P, induced=False):
        return build_static_plan(ng.Pattern.from_networkx(P), S, induced=induced, distinct=True)

    for induced in (False, True):
        plan = plan_of(nx.house_graph(), induced)
        assert plan.shape is None
        want = "id" if uses_trie(plan, "auto", True, S) else "degree"
        assert cuda.search_order(S, plan) == want
    induced = plan_of(BOWTIE, induced=True)
    assert induced.shape is None
    assert cuda.search_order(S, induced) == "id"  # induced: no 2-level count tail, the trie
    triangle, bowtie = plan_of(nx.complete_graph(3)), plan_of(BOWTIE)
    assert (triangle.shape, bowtie.shape) == ("clique", "bowtie")
    # whether a shape kernel takes the plan is the device's rank graph's to say (no GPU here)
    monkeypatch.setattr(cuda, "shape_reason", lambda graph, plan: None)
    assert cuda.search_order(S, triangle) == cuda.search_order(S, bowtie) == "id"
    monkeypatch.setattr(cuda, "shape_reason", lambda graph, plan: "out-degree too large")
    assert cuda.search_order(S, triangle) == "degree"  # then the DFS, cut by degree order


def test_estimates_sample_the_searched_copy(monkeypatch, unhurried_estimates):
    # a small graph: every root is sampled, so the estimates are exact and repeatable
    G = nx.barabasi_albert_graph(60, 3, seed=2)
    S = ng.from_networkx(nx.relabel_nodes(G, {v: 59 - v for v in G}))
    kw = dict(count="subgraphs", samples=10_000)
    est = ng.estimate(S, BOWTIE, **kw)
    assert est.exact and S.has_derived(("search_ordered", False))  # sampled on the copy
    on_copy = ng.estimate(search_ordered(S), BOWTIE, **kw)
    assert (est.work, est.count) == (on_copy.work, on_copy.count)
    monkeypatch.setattr(static_execution, "SEARCH_ORDER", "id")
    on_ids = ng.estimate(S, BOWTIE, **kw)
    assert on_ids.count == est.count and on_ids.work != est.work  # the order changes the walk
    want = ng.count_subgraphs(S, BOWTIE, count="subgraphs", engine="cpu")
    assert ng.count_subgraphs(S, BOWTIE, count="subgraphs", engine="cpu", max_work=10**12) == want
