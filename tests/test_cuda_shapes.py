"""Shape counting (cliques, books, bowties, 4-cycles, pair-edges) for the CUDA engine.

CI (no GPU): the rank graph is built with NumPy by the same function the engine runs with CuPy,
and plain-Python mirrors of the three kernels' algorithms (bitmap chains, edge support, ranked
wedges) are checked against NetworkX, so the algorithms are right before any GPU runs them.
GPU: the kernels themselves against the CPU engine and NetworkX.
"""

from __future__ import annotations

import math
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.engines.cuda.shapes import rank_graph
from nx_gpumine.inputs.patterns import Pattern, as_pattern


def _graph(n: int, p: float, seed: int, hub: int = 0) -> nx.Graph:
    G = nx.gnp_random_graph(n, p, seed=seed)
    for v in range(1, min(hub, n)):
        G.add_edge(0, v)
    return G


def _rank(G: nx.Graph) -> dict:
    g = ng.from_networkx(G)
    return rank_graph(np, g.indptr, g.indices)


def _lists(rg: dict) -> list[list[int]]:
    p, a = rg["rptr"], rg["radj"]
    return [a[p[r] : p[r + 1]].tolist() for r in range(rg["n"])]


def _up(rg: dict) -> list[list[int]]:
    s, p, a = rg["rsplit"], rg["rptr"], rg["radj"]
    return [a[s[r] : p[r + 1]].tolist() for r in range(rg["n"])]


def ref_cliques(rg: dict, k: int) -> int:
    """Mirror of clique_count: bitmap rows over S = N+(u), chains of k - 2 by AND/popcount."""
    up = _up(rg)
    total = 0
    for u in range(rg["n"]):
        S = up[u]
        d = len(S)
        if d < k - 1:
            continue
        idx = {x: i for i, x in enumerate(S)}
        rows = [sum(1 << idx[x] for x in up[w] if x in idx) for w in S]

        def chains(c: int, depth: int, rows: list[int] = rows) -> int:
            if depth == 1:
                return bin(c).count("1")
            s, m = 0, c
            while m:
                j = (m & -m).bit_length() - 1
                m &= m - 1
                if c & rows[j]:
                    s += chains(c & rows[j], depth - 1, rows)
            return s

        total += (
            sum(chains(rows[i], k - 2) for i in range(d))
            if k > 3
            else sum(bin(r).count("1") for r in rows)
        )
    return total


def ref_books(rg: dict, t: int) -> int:
    """Mirror of the triangle pass with edge support, then sum C(support, t)."""
    up = _up(rg)
    sup: Counter = Counter()
    for u in range(rg["n"]):
        S = set(up[u])
        for w in up[u]:
            for x in up[w]:
                if x in S:
                    sup[(u, w)] += 1
                    sup[(u, x)] += 1
                    sup[(w, x)] += 1
    return sum(math.comb(c, t) for c in sup.values())


def ref_cycle4(rg: dict) -> int:
    """Mirror of c4_light / c4_heavy: ranked wedges counted at the highest-rank vertex."""
    lists = _lists(rg)
    total = 0
    for a in range(rg["n"]):
        cnt: Counter = Counter()
        for b in lists[a]:
            if b >= a:
                break
            for c in lists[b]:
                if c >= a:
                    break
                cnt[c] += 1
        total += sum(x * (x - 1) // 2 for x in cnt.values())
    return total


def ref_pair_edge(rg: dict, t: int) -> int:
    """Mirror of apex lists + pair_edge: mappings of the pair-edge shape with t pole neighbours."""
    lists, up = _lists(rg), _up(rg)
    apex: dict = {}
    for u in range(rg["n"]):
        S = set(up[u])
        for w in up[u]:
            for x in up[w]:
                if x in S:
                    apex.setdefault((u, w), []).append(x)
                    apex.setdefault((u, x), []).append(w)
                    apex.setdefault((w, x), []).append(u)
    total = 0
    for a in range(rg["n"]):
        cnt: Counter = Counter()
        for m in lists[a]:
            for b in lists[m]:
                if b >= a:
                    break
                cnt[b] += 1
        for x in lists[a]:
            for y in apex.get((min(a, x), max(a, x)), []):
                if y > x:
                    total += sum(math.perm(cnt[b] - 2, t - 2) for b in apex[(x, y)] if b < a)
    return 4 * total


def _pair_edge(t: int) -> nx.Graph:
    P = nx.Graph([(2, 3)])
    for i in range(t):
        P.add_edges_from([(0, 2 + i), (1, 2 + i)])
    return P


def _mappings(G: nx.Graph, P: nx.Graph) -> int:
    return sum(1 for _ in iso.GraphMatcher(G, P).subgraph_monomorphisms_iter())


def _distinct(G: nx.Graph, P: nx.Graph) -> int:
    m = sum(1 for _ in iso.GraphMatcher(G, P).subgraph_monomorphisms_iter())
    return m // Pattern.from_networkx(P).num_automorphisms()


def _book(t: int) -> nx.Graph:
    B = nx.Graph([(0, 1)])
    for i in range(t):
        B.add_edges_from([(0, 2 + i), (1, 2 + i)])
    return B


BOWTIE = nx.Graph([(0, 1), (0, 2), (1, 2), (2, 3), (2, 4), (3, 4)])


def ref_support(rg: dict) -> np.ndarray:
    """Edge supports in triangle_support's layout: each edge's common neighbours at its
    position in its lower-rank end's N+ list, zero elsewhere."""
    lists = [set(x) for x in _lists(rg)]
    sup = np.zeros(max(rg["nnz"], 1), dtype=np.int32)
    for r in range(rg["n"]):
        for p in range(int(rg["rsplit"][r]), int(rg["rptr"][r + 1])):
            sup[p] = len(lists[r] & lists[int(rg["radj"][p])])
    return sup


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(1, 16), p=st.floats(0.05, 0.7), seed=st.integers(0, 9999), hub=st.integers(0, 14)
)
def test_bowtie_from_support_equals_networkx(n, p, seed, hub):
    from nx_gpumine.engines.cuda.shapes import bowtie_from_support

    G = _graph(n, p, seed, hub)
    rg = _rank(G)
    sup = ref_support(rg)
    assert ref_books(rg, 1) == int(sup.sum())  # the layout: every edge's support once
    assert bowtie_from_support(np, rg, sup) == _distinct(G, BOWTIE)
    # its two sums are the census blocks tri_pairs and books2, as the host computes them
    from nx_gpumine.engines.cpu.orbit_counts import edge_triangle_counts
    from nx_gpumine.engines.cuda.shapes import triangle_pair_sums
    from nx_gpumine.engines.degree_sums import triangle_sums

    sg = ng.from_networkx(G, cache=False)
    t = edge_triangle_counts(sg.indptr, sg.indices, check=False)
    want = triangle_sums(sg.indptr, sg.indices, t, {"tri_pairs", "books2"})
    assert triangle_pair_sums(np, rg, sup) == (want["tri_pairs"], want["books2"])


def test_bowtie_from_support_is_exact_past_64_bits():
    """The arithmetic at 2^31+ triangles a node (C(t, 2) past 2^62: summed with Python ints):
    supports of 2^31 on a star's three edges (numbers only, no graph has them alone)."""
    from nx_gpumine.engines.cuda.shapes import bowtie_from_support

    s = 1 << 31
    rg = {
        "n": 4,
        "rptr": np.array([0, 1, 2, 3, 6]),
        "radj": np.array([3, 3, 3, 0, 1, 2], dtype=np.int32),
    }
    sup = np.array([s, s, s, 0, 0, 0], dtype=np.int64)
    centre = math.comb(3 * s // 2, 2) - 3 * math.comb(s, 2)
    leaves = 3 * (math.comb(s // 2, 2) - math.comb(s, 2))
    assert bowtie_from_support(np, rg, sup) == centre + leaves


def test_bowtie_shape_is_recognised():
    from nx_gpumine.plan.static_plan import pattern_shape

    assert pattern_shape(Pattern.from_networkx(BOWTIE), False) == ("bowtie", 2)
    assert pattern_shape(Pattern.from_networkx(BOWTIE), True) == (None, 0)  # induced: none
    house = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (1, 4)])
    assert pattern_shape(Pattern.from_networkx(house), False)[0] != "bowtie"


def test_rank_graph_is_a_relabelling():
    G = _graph(60, 0.12, seed=4, hub=40)
    g = ng.from_networkx(G)
    rg = rank_graph(np, g.indptr, g.indices)
    rank = rg["rank"]
    deg = np.diff(g.indptr)
    # ranks increase with (degree, id)
    order = np.argsort(rank)
    keys = list(zip(deg[order].tolist(), order.tolist(), strict=True))
    assert keys == sorted(keys)
    lists = _lists(rg)
    for r, lst in enumerate(lists):
        assert lst == sorted(lst) and r not in lst
        s = int(rg["rsplit"][r] - rg["rptr"][r])
        assert all(x < r for x in lst[:s]) and all(x > r for x in lst[s:])
    # same edges
    edges = {
        (min(rank[u], rank[v]), max(rank[u], rank[v])) for u, v in zip(*g.edges(), strict=True)
    }
    redges = {(r, x) for r, lst in enumerate(lists) for x in lst if r < x}
    assert edges == redges
    assert rg["max_out"] == max(int(rg["rptr"][r + 1] - rg["rsplit"][r]) for r in range(rg["n"]))


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(5, 40), p=st.floats(0.05, 0.6), seed=st.integers(0, 9999), hub=st.integers(0, 30)
)
def test_reference_algorithms_equal_networkx(n, p, seed, hub):
    G = _graph(n, p, seed, hub)
    rg = _rank(G)
    assert ref_cliques(rg, 3) == sum(nx.triangles(G).values()) // 3
    assert ref_cliques(rg, 4) == _distinct(G, nx.complete_graph(4))
    assert ref_cycle4(rg) == _distinct(G, nx.cycle_graph(4))
    assert ref_books(rg, 2) == _distinct(G, _book(2))


@settings(max_examples=20, deadline=None)
@given(
    n=st.integers(5, 14), p=st.floats(0.1, 0.5), seed=st.integers(0, 9999), hub=st.integers(0, 12)
)
def test_reference_pair_edge_equals_networkx(n, p, seed, hub):
    # small graphs: NetworkX enumerates every mapping of these 5- and 6-node patterns
    G = _graph(n, p, seed, hub)
    rg = _rank(G)
    for t in (3, 4):
        assert ref_pair_edge(rg, t) == _mappings(G, _pair_edge(t))


def test_pair_edge_shape_is_recognised():
    from nx_gpumine.plan.static_plan import pattern_shape

    p4 = nx.Graph([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 4), (3, 4)])  # T-DFS's P4
    assert pattern_shape(Pattern.from_networkx(p4), False) == ("pair_edge", 3)
    assert pattern_shape(Pattern.from_networkx(_pair_edge(4)), False) == ("pair_edge", 4)
    assert pattern_shape(Pattern.from_networkx(p4), True) == (None, 0)  # induced: no shape
    both = _pair_edge(3)
    both.add_edge(0, 1)  # poles adjacent: not the shape
    assert pattern_shape(Pattern.from_networkx(both), False)[0] != "pair_edge"
    two = _pair_edge(4)
    two.add_edge(4, 5)  # two edges among the others: not the shape
    assert pattern_shape(Pattern.from_networkx(two), False)[0] != "pair_edge"


def test_reference_larger_cliques_and_books():
    G = _graph(28, 0.5, seed=2, hub=20)
    rg = _rank(G)
    for k in (5, 6):
        assert ref_cliques(rg, k) == _distinct(G, nx.complete_graph(k))
    assert ref_books(rg, 3) == _distinct(G, _book(3))


# ---------------------------------------------------------------------- GPU
GPU_PATTERNS = ["triangle", "4-clique", "5-clique", "diamond", "4-cycle", _pair_edge(3), BOWTIE]


def _cuda_vs_cpu(G: nx.Graph, P, *, distinct: bool) -> tuple[int, int]:
    from nx_gpumine.engines.cuda import static as gpu

    g = ng.from_networkx(G)
    pat = as_pattern(P) if isinstance(P, str) else Pattern.from_networkx(P)
    c_cpu = ng.count_subgraphs(g, pat, engine="cpu", count="subgraphs" if distinct else "mappings")
    c_gpu = ng.count_subgraphs(g, pat, engine="cuda", count="subgraphs" if distinct else "mappings")
    return c_gpu, c_cpu, gpu.last_run.get("strategy")


@pytest.mark.gpu
@pytest.mark.parametrize("name", GPU_PATTERNS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gpu_shapes_equal_cpu(name, seed):
    G = _graph(300, 0.05, seed=seed, hub=250)
    for distinct in (True, False):
        got, want, strategy = _cuda_vs_cpu(G, name, distinct=distinct)
        assert got == want, (name, distinct, strategy)
    assert strategy in ("clique", "book", "cycle4", "pair_edge", "bowtie")


@pytest.mark.gpu
@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(5, 120),
    p=st.floats(0.02, 0.5),
    seed=st.integers(0, 9999),
    hub=st.integers(0, 100),
)
def test_gpu_shapes_property(n, p, seed, hub):
    G = _graph(n, p, seed, hub)
    for name in GPU_PATTERNS:
        got, want, _ = _cuda_vs_cpu(G, name, distinct=True)
        assert got == want, name


@pytest.mark.gpu
def test_gpu_wide_bitmaps_and_heavy_cycles():
    """DAG out-degrees above 32, 64, 128 (bitmap rows of 2..8 words) and heavy 4-cycle vertices."""
    for n, p in ((90, 0.9), (200, 0.75), (400, 0.6)):
        G = nx.gnp_random_graph(n, p, seed=n)
        g = ng.from_networkx(G)
        from nx_gpumine.engines.cuda.shapes import device_rank_graph

        assert device_rank_graph(g)["max_out"] > 32
        for name in ("triangle", "4-clique", "diamond", "4-cycle"):
            got, want, _ = _cuda_vs_cpu(G, name, distinct=True)
            assert got == want, (n, name)


@pytest.mark.gpu
def test_gpu_books_of_three_and_six_cliques():
    G = _graph(120, 0.3, seed=5, hub=100)
    for P in (_book(3), nx.complete_graph(6), _pair_edge(4)):
        got, want, strategy = _cuda_vs_cpu(G, P, distinct=True)
        assert got == want and strategy in ("book", "clique", "pair_edge")


@pytest.mark.gpu
def test_gpu_pair_edge_equals_networkx_and_reference():
    for seed in (1, 2):
        G = _graph(36, 0.2, seed=seed, hub=30)
        g = ng.from_networkx(G)
        rg = _rank(G)
        for t in (3, 4):
            P = _pair_edge(t)
            got = ng.count_subgraphs(g, P, engine="cuda")
            assert got == _mappings(G, P) == ref_pair_edge(rg, t)
            from nx_gpumine.engines.cuda import static as gpu

            assert gpu.last_run.get("strategy") == "pair_edge"
