"""Pattern automorphism groups: exact orders, fast on 64-node patterns, exact counts."""

from __future__ import annotations

import itertools
import random
import time

import networkx as nx
import pytest

import nx_gpumine as ng
from nx_gpumine.execution.static import run_static
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.plan.static_plan import build_static_plan


def _brute_force_automorphisms(P: nx.Graph, label: str | None) -> int:
    nodes = list(P.nodes())
    edges = {(u, v): d.get(label) for u, v, d in P.edges(data=True)}
    if not P.is_directed():
        edges |= {(v, u): lab for (u, v), lab in edges.items()}
    node_lab = {v: P.nodes[v].get(label) for v in nodes}
    count = 0
    for perm in itertools.permutations(nodes):
        m = dict(zip(nodes, perm, strict=True))
        if (
            all(node_lab[v] == node_lab[m[v]] for v in nodes)
            and {(m[u], m[v]): lab for (u, v), lab in edges.items()} == edges
        ):
            count += 1
    return count


def _random_pattern(rng: random.Random, directed: bool, labelled: bool) -> nx.Graph:
    n = rng.randint(1, 7)
    P = nx.DiGraph() if directed else nx.Graph()
    P.add_nodes_from(range(n), c=0)
    for u, v in itertools.product(range(n), repeat=2):
        if (directed or u <= v) and rng.random() < (0.1 if u == v else 0.4):
            P.add_edge(u, v, c=rng.randint(0, 1) if labelled else 0)
    if labelled:
        nx.set_node_attributes(P, {v: rng.randint(0, 1) for v in P}, "c")
    return P


@pytest.mark.parametrize("seed", range(60))
def test_automorphism_count_matches_brute_force(seed):
    rng = random.Random(seed)
    P = _random_pattern(rng, directed=seed % 2 == 1, labelled=seed % 3 == 0)
    labels = {"node_label": "c", "edge_label": "c"} if seed % 3 == 0 else {}
    expected = _brute_force_automorphisms(P, "c" if labels else None)
    p = Pattern.from_networkx(P, **labels)
    assert p.num_automorphisms() == expected
    assert len(p.automorphisms()) == expected


@pytest.mark.parametrize("n", [20, 24, 28, 32, 40])
def test_automorphism_count_matches_igraph(n):
    igraph = pytest.importorskip("igraph")
    P = nx.random_regular_graph(3, n, seed=n)
    expected = igraph.Graph(n=n, edges=list(P.edges())).count_automorphisms()
    assert Pattern.from_networkx(P).num_automorphisms() == expected


@pytest.mark.parametrize(
    "P",
    [
        nx.convert_node_labels_to_integers(nx.hypercube_graph(4)),
        nx.petersen_graph(),
        nx.complete_graph(12),
        nx.cycle_graph(30),
        nx.convert_node_labels_to_integers(nx.grid_2d_graph(5, 5)),
    ],
)
def test_symmetric_patterns_match_igraph(P):
    igraph = pytest.importorskip("igraph")
    n = P.number_of_nodes()
    expected = igraph.Graph(n=n, edges=list(P.edges())).count_automorphisms()
    assert Pattern.from_networkx(P).num_automorphisms() == expected


def test_planning_a_28_node_regular_pattern_is_fast():
    # issue 37: this took over 100 s; it now takes about 20 ms (bound loose for a slow CI)
    g = ng.from_networkx(nx.random_regular_graph(3, 40, seed=1))
    p = Pattern.from_networkx(nx.random_regular_graph(3, 28, seed=37))
    start = time.perf_counter()
    build_static_plan(p, g, induced=False, distinct=True)
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize(
    "P",
    [
        nx.cycle_graph(6),
        nx.complete_graph(4),
        nx.star_graph(4),
        nx.convert_node_labels_to_integers(nx.hypercube_graph(3)),
        nx.random_regular_graph(3, 8, seed=2),
    ],
)
def test_symmetry_conditions_keep_counts_exact(P):
    g = ng.from_networkx(nx.gnm_random_graph(30, 150, seed=3))
    p = Pattern.from_networkx(P)
    # every mapping walked one by one, against the symmetry-broken search
    maps = run_static(g, build_static_plan(p, g, induced=False, distinct=False), "count")
    subgraphs = run_static(g, build_static_plan(p, g, induced=False, distinct=True), "count")
    assert maps > 0
    assert subgraphs * p.num_automorphisms() == maps
