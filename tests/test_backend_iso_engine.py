"""Graph isomorphism by refinement + individualisation, and the local counts, on both engines.

The CUDA modules' array code runs here with numpy / scipy.sparse (the same functions CuPy runs
on a GPU); gpu-marked tests run them with CuPy.
"""

from __future__ import annotations

import functools
import random
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

from nx_gpumine.engines.cpu import local_counts as cpu_counts
from nx_gpumine.engines.cuda import local_counts as gpu_counts
from nx_gpumine.engines.cuda import refine as gpu_refine
from nx_gpumine.inputs.static_graph import LabelSpec
from nx_gpumine.interfaces import backend as gb
from nx_gpumine.interfaces import graph_iso as gi
from nx_gpumine.interfaces.backend import GpumineGraph
from nx_gpumine.interfaces.backend_counts import undirected_csr

pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs")


def _numpy_refine_module() -> SimpleNamespace:
    """The CUDA refinement module's code with numpy as the array module."""
    return SimpleNamespace(
        stable_colours=functools.partial(gpu_refine.stable_colours, xp=np),
        accumulate=functools.partial(gpu_refine.accumulate, xp=np),
        scan=functools.partial(gpu_refine.scan, xp=np),
        verify=gpu_refine.verify,
    )


def _problem(G, H, module: str, **kw) -> gi.IsoProblem:
    g, h = GpumineGraph.from_networkx(G), GpumineGraph.from_networkx(H)
    p = gi.IsoProblem(g, h, gi.IsoMatchers(**kw))
    if module == "cuda-numpy":
        p.mod = _numpy_refine_module()
    return p


def _shuffle(G: nx.Graph, seed: int) -> nx.Graph:
    rng = random.Random(seed)
    nodes = list(G)
    perm = nodes[:]
    rng.shuffle(perm)
    H = G.__class__()
    order = nodes[:]
    rng.shuffle(order)
    rename = dict(zip(nodes, (f"v{p}" for p in perm), strict=True))
    H.add_nodes_from((rename[u], G.nodes[u]) for u in order)
    H.add_edges_from((rename[u], rename[v], d) for u, v, d in G.edges(data=True))
    return H


def _valid(G, H, m) -> bool:
    return (
        len(m) == len(G) == len(H)
        and len(set(m.values())) == len(H)
        and all(H.has_edge(m[u], m[v]) for u, v in G.edges)
        and G.number_of_edges() == H.number_of_edges()
    )


iso_args = st.tuples(
    st.integers(0, 10_000),
    st.integers(1, 9),
    st.sampled_from([0.2, 0.4, 0.7]),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["cpu", "cuda-numpy"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(iso_args)
def test_every_isomorphism_once_equal_vf2(a):
    seed, n, p, directed, labels, module = a
    rng = random.Random(seed)
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    if rng.random() < 0.3:
        G.add_edge(0, 0)
    if labels:
        nx.set_node_attributes(G, {v: rng.choice("ab") for v in G}, "c")
        nx.set_edge_attributes(G, {e: rng.choice([1, 2]) for e in G.edges}, "w")
    H = _shuffle(G, seed)
    if rng.random() < 0.4 and H.number_of_edges():  # usually not isomorphic any more
        u, v = rng.choice(list(H.edges))
        H.remove_edge(u, v)
        H.add_edge(*rng.sample(list(H), 2) if len(H) > 1 else (u, v))
    nm = iso.categorical_node_match("c", None) if labels else None
    em = iso.categorical_edge_match("w", None) if labels else None
    spec = {}
    if labels:
        spec = {"node_spec": LabelSpec.of("c", None), "edge_spec": LabelSpec.of("w", None)}
    matcher = iso.DiGraphMatcher if directed else iso.GraphMatcher
    want = {frozenset(m.items()) for m in matcher(G, H, nm, em).isomorphisms_iter()}
    got = [frozenset(m.items()) for m in gi.iter_isomorphisms(_problem(G, H, module, **spec))]
    assert len(got) == len(set(got))  # each isomorphism exactly once
    assert set(got) == want


@pytest.mark.parametrize("module", ["cpu", "cuda-numpy"])
def test_symmetric_and_regular_graphs(module):
    K = nx.complete_graph(7)
    assert sum(1 for _ in gi.iter_isomorphisms(_problem(K, _shuffle(K, 1), module))) == 5040
    for d, n in [(3, 200), (4, 200)]:
        G = nx.random_regular_graph(d, n, seed=5)
        H = _shuffle(G, 2)
        m = gi.first_isomorphism(_problem(G, H, module))
        assert m is not None and _valid(G, H, m)
        other = nx.random_regular_graph(d, n, seed=6)
        assert gi.first_isomorphism(_problem(G, other, module)) is None


def test_large_graphs_answered_equal_to_igraph():
    # random regular graphs of 1000 nodes (one automorphism, all nodes alike to refinement):
    # NetworkX's VF2++ takes minutes on the 3-regular ones; igraph (BLISS) is the oracle
    ig = pytest.importorskip("igraph")
    for d in (3, 4):
        G = nx.random_regular_graph(d, 1000, seed=11)
        H = _shuffle(G, 3)
        K = nx.random_regular_graph(d, 1000, seed=12)
        m = nx.vf2pp_isomorphism(G, H, backend="gpumine")
        assert m is not None and _valid(G, H, m)
        gi_g = ig.Graph.from_networkx(G)
        gi_k = ig.Graph.from_networkx(K)
        assert nx.is_isomorphic(G, K, backend="gpumine") == gi_g.isomorphic(gi_k)
    L = nx.les_miserables_graph()
    Lr = _shuffle(L, 4)
    assert _valid(L, Lr, nx.vf2pp_isomorphism(L, Lr, backend="gpumine"))
    K9 = nx.complete_graph(9)
    assert nx.vf2pp_is_isomorphic(K9, _shuffle(K9, 1), backend="gpumine")


@pytest.mark.gpu
def test_cuda_refinement_on_gpu():
    # 100 nodes: a random 3-regular graph needs individualization at every level (300 nodes
    # took 306 s of the GPU suite, on one worker, for the same code paths)
    G = nx.random_regular_graph(3, 100, seed=1)
    H = _shuffle(G, 1)
    prob = gi.IsoProblem(
        GpumineGraph.from_networkx(G), GpumineGraph.from_networkx(H), engine="cuda"
    )
    m = gi.first_isomorphism(prob)
    assert m is not None and _valid(G, H, m)
    K = nx.random_regular_graph(3, 100, seed=2)
    assert nx.is_isomorphic(G, K, backend="gpumine", engine="cuda") is nx.is_isomorphic(G, K)


# ---------------------------------------------------------------------- local counts
count_args = st.tuples(
    st.integers(0, 10_000), st.integers(0, 30), st.sampled_from([0.1, 0.3, 0.6]), st.booleans()
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count_args)
def test_counts_equal_networkx(a):
    seed, n, p, loops = a
    G = nx.gnp_random_graph(n, p, seed=seed)
    D = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    if loops and n:
        G.add_edge(0, 0)
        D.add_edge(0, 0)
    assert gb.triangles(G, engine="cpu") == nx.triangles(G)
    assert gb.transitivity(G, engine="cpu") == nx.transitivity(G)
    assert gb.clustering(G, engine="cpu") == nx.clustering(G)
    assert gb.clustering(D, engine="cpu") == nx.clustering(D)
    assert gb.square_clustering(G, engine="cpu") == nx.square_clustering(G)
    if n:
        assert gb.average_clustering(G, engine="cpu") == nx.average_clustering(G)
        if any(nx.clustering(D).values()):
            want = nx.average_clustering(D, count_zeros=False)
            assert gb.average_clustering(D, count_zeros=False, engine="cpu") == want
        assert gb.triangles(G, 0, engine="cpu") == nx.triangles(G, 0)
        assert gb.square_clustering(G, [0, "missing"], engine="cpu") == nx.square_clustering(
            G, [0, "missing"]
        )
    # the CUDA module's sparse-matrix code, run with scipy.sparse
    for H in (G, D):
        g = GpumineGraph.from_networkx(H)
        ptr, idx, w = undirected_csr(g)
        if H.is_directed():
            got = gpu_counts.directed_triangle_counts(ptr, idx, w, np, sp)
            assert np.array_equal(got, cpu_counts.directed_triangle_counts(ptr, idx, w))
        else:
            got = gpu_counts.triangle_counts(ptr, idx, np, sp)
            assert np.array_equal(got, cpu_counts.triangle_counts(ptr, idx))
            s1, p1 = gpu_counts.square_counts(ptr, idx, np, sp)
            s2, p2 = cpu_counts.square_counts(ptr, idx)
            assert np.array_equal(s1, s2) and np.array_equal(p1, p2)


@pytest.mark.gpu
def test_counts_on_gpu():
    G = nx.gnp_random_graph(300, 0.05, seed=3)
    D = nx.gnp_random_graph(300, 0.05, seed=3, directed=True)
    assert gb.triangles(G, engine="cuda") == nx.triangles(G)
    assert gb.clustering(D, engine="cuda") == nx.clustering(D)
    assert gb.square_clustering(G, engine="cuda") == nx.square_clustering(G)


def test_counts_dispatch_and_refusals():
    G = nx.karate_club_graph()
    assert nx.triangles(G, backend="gpumine") == nx.triangles(G)
    assert nx.average_clustering(G, backend="gpumine") == nx.average_clustering(G)
    assert "weighted" in gb.can_run("clustering", (G,), {"weight": "weight"})
    assert "multigraph" in gb.can_run("triangles", (nx.MultiGraph(G),), {})
    assert "directed" in gb.can_run("square_clustering", (nx.DiGraph(G),), {})
    assert gb.can_run("clustering", (nx.DiGraph(G),), {}) is True
