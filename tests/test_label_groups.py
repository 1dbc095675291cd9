"""Label-grouped graphs (inputs/label_groups.py) and the label ranges the CUDA engine cuts
neighbour lists to (issue 33): the grouped copy is the same labelled graph, and counts of
labelled patterns through it equal the CPU engine's on the graph itself."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.engines import select_engine
from nx_gpumine.execution import static as static_execution
from nx_gpumine.execution.static import on_search_copy, run_static
from nx_gpumine.inputs.label_groups import label_grouped, label_starts
from nx_gpumine.plan.static_plan import build_static_plan


def labelled_graph(n: int, p: float, labels: int, seed: int, directed: bool = False) -> nx.Graph:
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, labels + 1)
    for v in G:
        G.nodes[v]["c"] = int(rng.choice(labels, p=weights / weights.sum()))
    for u, v in G.edges:
        G.edges[u, v]["w"] = int(rng.integers(2))
    G.add_edge(2, 2, w=1)
    return G


def random_pattern(k: int, labels: int, seed: int) -> nx.Graph:
    """A connected pattern of k nodes (a random tree plus chords), few distinct labels so
    that automorphic twins (symmetry restrictions) occur."""
    rng = np.random.default_rng(seed)
    P = nx.Graph()
    for v in range(k):
        P.add_node(v, c=int(rng.integers(labels)))
    for v in range(1, k):
        P.add_edge(int(rng.integers(v)), v)
    for _ in range(int(rng.integers(0, k))):
        a, b = (int(x) for x in rng.choice(k, 2, replace=False))
        P.add_edge(a, b)
    return P


def edge_set(S: ng.StaticGraph) -> list:
    G = S.to_networkx()
    key = (lambda u, v: (u, v)) if G.is_directed() else (lambda u, v: tuple(sorted((u, v))))
    return sorted((key(u, v), d.get("w")) for u, v, d in G.edges(data=True))


@pytest.mark.parametrize("directed", [False, True])
def test_grouped_copy_is_the_same_labelled_graph(directed):
    G = labelled_graph(70, 0.12, 5, seed=3, directed=directed)
    S = ng.from_networkx(G, node_label="c", edge_label="w")
    assert label_starts(S) is None  # ids 0..69 are not grouped by label
    H = label_grouped(S)
    assert H is not S and label_grouped(S) is H  # built once, kept with the graph
    starts = label_starts(H)
    assert starts is not None and starts[0] == 0 and starts[-1] == H.n
    for code in range(len(starts) - 1):  # label code l: ids [starts[l], starts[l + 1])
        assert (H.node_label[starts[code] : starts[code + 1]] == code).all()
    assert label_grouped(H) is H  # grouped already
    A, B = S.to_networkx(), H.to_networkx()
    assert dict(A.nodes(data=True)) == dict(B.nodes(data=True))  # keys keep their labels
    assert edge_set(S) == edge_set(H)  # edges, labels and self-loops by key
    for v in range(H.n):  # rows stay sorted
        row = H.indices[H.indptr[v] : H.indptr[v + 1]]
        assert (np.diff(row) > 0).all()


def test_unlabelled_graph_is_its_own_group():
    S = ng.from_networkx(nx.path_graph(5))
    assert label_grouped(S) is S and label_starts(S) is None


@pytest.mark.parametrize("induced", [False, True])
def test_cpu_label_ranges_change_no_count(induced):
    # the CPU engine on the graph itself (no label ranges) against execution's route: the
    # grouped copy, each level's lists cut to its label's range
    cpu = select_engine("cpu", "static")
    G = labelled_graph(60, 0.15, 4, seed=7)
    S = ng.from_networkx(G, node_label="c", edge_label="w")
    for seed in range(8):
        P = ng.Pattern.from_networkx(random_pattern(4 + seed % 3, 3, seed), node_label="c")
        for distinct in (False, True):
            plan = build_static_plan(P, S, induced=induced, distinct=distinct)
            assert run_static(S, plan, "count", engine="cpu") == cpu.count(S, plan)
            assert run_static(S, plan, "exists", engine="cpu") == cpu.exists(S, plan)
    assert S.has_derived(("label_grouped",))  # the counts ran on the grouped copy


@pytest.mark.parametrize("order", ["id", "degree"])
def test_counts_move_to_the_copy(order, monkeypatch):
    monkeypatch.setattr(static_execution, "SEARCH_ORDER", order)
    G = labelled_graph(30, 0.2, 3, seed=1)
    S = ng.from_networkx(G, node_label="c")
    plan = build_static_plan(
        ng.Pattern.from_networkx(random_pattern(4, 2, 0), node_label="c"),
        S,
        induced=False,
        distinct=True,
    )
    assert len(plan.sym_level)  # the pattern has twins: symmetry conditions
    H, moved = on_search_copy(S, plan, "count", "cpu")
    assert H is label_grouped(S)  # labelled plans: label order whatever SEARCH_ORDER says
    assert moved.root_ok is not None and len(moved.root_ok) == len(H.indices)
    assert label_starts(H) is not None
    assert on_search_copy(S, plan, "enumerate", "cpu") == (S, plan)  # ids: the graph's own


@pytest.mark.gpu
@pytest.mark.parametrize("labels", [3, 8])
def test_cuda_label_ranges_equal_cpu(labels):
    G = labelled_graph(120, 0.1, labels, seed=labels)
    S = ng.from_networkx(G, node_label="c", edge_label="w")
    for seed in range(6):
        P = random_pattern(4 + seed % 3, min(labels, 3), 100 + seed)
        for induced in (False, True):
            for count in ("mappings", "subgraphs"):
                kw = dict(induced=induced, count=count, node_label="c")
                cpu = ng.count_subgraphs(S, P, engine="cpu", **kw)
                assert ng.count_subgraphs(S, P, engine="cuda", **kw) == cpu, (seed, kw)
            exists = ng.has_subgraph(S, P, induced=induced, node_label="c", engine="cuda")
            assert exists == ng.has_subgraph(S, P, induced=induced, node_label="c", engine="cpu")
    assert label_starts(label_grouped(S)) is not None
    assert S.has_derived(("label_grouped",))  # the CUDA counts ran on the grouped copy


def test_short_labelled_lists_choose_the_trie():
    # the CUDA strategy rule (engines/cuda/static_build.py: auto_trie, mean_list): a plan
    # whose count tail spans 2 levels takes the DFS unless its levels' lists are short
    from nx_gpumine.engines.cuda.static_build import WARP_LANES, auto_trie, mean_list

    G = nx.barabasi_albert_graph(3000, 40, seed=1)
    rng = np.random.default_rng(0)
    for v in G:
        G.nodes[v]["c"] = int(rng.integers(8))
    P = nx.complete_bipartite_graph(2, 3)  # K_{2,3}: the 3 twins form the count tail
    S = ng.from_networkx(G, node_label="c")
    plain = build_static_plan(ng.Pattern.from_networkx(P), S, induced=False, distinct=True)
    assert plain.k - plain.tail_start >= 2
    assert mean_list(S, plain) >= WARP_LANES
    assert not auto_trie(plain, True, S)  # long lists: the DFS with its tail
    for v in P:
        P.nodes[v]["c"] = v  # 5 distinct labels of 8: each level's list ~1/8 as long
    labelled = build_static_plan(
        ng.Pattern.from_networkx(P, node_label="c"), S, induced=False, distinct=True
    )
    assert labelled.k - labelled.tail_start >= 2  # a 2-level (pair) tail: the DFS's case...
    assert auto_trie(labelled, True, S)  # ...yet the short lists send it to the trie
    assert mean_list(S, labelled) < WARP_LANES
    assert not auto_trie(plain, True)  # no graph given: the tail rule alone
    # a tail of 3+ levels stays with the DFS however short the lists (a 30-leaf star in a
    # 40-leaf star: the trie would list C(40, 30) prefixes; the GPU suite's star-tail test)
    star = ng.from_networkx(nx.star_graph(40))
    p = build_static_plan(
        ng.Pattern.from_networkx(nx.star_graph(30)), star, induced=False, distinct=True
    )
    assert p.k - p.tail_start > 2 and mean_list(star, p) < WARP_LANES
    assert not auto_trie(p, True, star)


def test_cpu_root_split_is_kept_once_per_plan():
    # engines/cpu/static.py: the balanced split of a (plan mask, range) is kept with the graph;
    # repeated counts reuse it instead of adding entries
    G = labelled_graph(400, 0.05, 2, seed=5)  # about 8,000 entries: split over threads
    S = ng.from_networkx(G, node_label="c")
    P = random_pattern(4, 2, 3)
    counts = {ng.count_subgraphs(S, P, node_label="c", engine="cpu") for _ in range(4)}
    assert len(counts) == 1
    keys = [k for k in label_grouped(S)._derived if k and k[0] == "cpu_root_bounds"]
    assert 1 <= len(keys) <= 2  # the counted plan (and, for mappings, its distinct sibling)
