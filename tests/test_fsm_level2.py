"""Frequent subgraph mining's levels 1 and 2 as whole-level array passes.

:func:`~nx_gpumine.execution.fsm.star_supports` counts every two-edge star of a level at once;
it must give, star by star, the values of the one-star closed form
(:func:`~nx_gpumine.execution.fsm._star_support`), on random labelled graphs with unmatchable
(NaN) labels, self-loops and isolated vertices, for every (centre label, leaf kind, leaf kind)
combination (leaf kinds alike, centre labelled like a leaf), whatever the chunk sizes of its
passes. :func:`~nx_gpumine.execution.fsm.edge_supports` (level 1, read off the same sorted
index) must equal a set-based count. Both must use only array functions CuPy has too (checked
with a NumPy namespace cut down to them, whose ``bincount`` refuses empty input as CuPy's
does), and ``frequent_subgraphs`` up to two edges must equal the brute-force oracle of
``tests/test_fsm.py``.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
import types

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.execution import fsm
from nx_gpumine.execution.fsm import GraphCodes, _star_support, edge_supports, star_supports
from nx_gpumine.plan.fsm import LabelledPattern, canonical, edge_pattern, star_centre
from tests.test_fsm import EL, NL, assert_same, oracle

NAN = float("nan")


# ---------------------------------------------------------------- graphs and stars
def random_graph(
    seed: int, n: int = 16, m: int = 30, node_values: int = 3, edge_values: int = 2
) -> nx.Graph:
    """A random graph with node labels ``"a"``, ``"b"``, ... (``node_values`` of them, a few
    NaN), edge labels ``0 .. edge_values - 1`` (a few NaN), self-loops and, often, isolated
    vertices."""
    rng = random.Random(seed)
    G = nx.gnm_random_graph(n, m, seed=seed)
    G.add_nodes_from(range(n, n + rng.randint(0, 3)))  # isolated
    values = "abcde"[:node_values]
    for v in G:
        G.nodes[v][NL] = NAN if rng.random() < 0.08 else rng.choice(values)
    for u, v in list(G.edges()):
        G.edges[u, v][EL] = NAN if rng.random() < 0.05 else rng.randrange(edge_values)
    for v in rng.sample(sorted(G), 2):
        G.add_edge(v, v, **{EL: rng.randrange(edge_values)})
    return G


def codes_of(G: nx.Graph, node_label: str | None = NL, edge_label: str | None = EL) -> GraphCodes:
    return GraphCodes.of(ng.from_networkx(G, node_label=node_label, edge_label=edge_label))


def every_star(codes: GraphCodes) -> list[LabelledPattern]:
    """Every two-edge star over the graph's label codes: each centre label with each pair of
    leaf kinds (leaf label, edge label), alike or not."""
    nl = int(codes.label.max()) + 1 if len(codes.label) else 1
    kinds = list(itertools.product(range(nl), range(codes.num_edge_labels)))
    return sorted({
        canonical([c, a, b], [(0, 1, ea), (0, 2, eb)])
        for c in range(nl)
        for (a, ea), (b, eb) in itertools.combinations_with_replacement(kinds, 2)
    })  # fmt: skip


def one_by_one(codes: GraphCodes, stars: list[LabelledPattern]) -> dict[LabelledPattern, int]:
    """The supports star by star (``pattern_support``'s route, its size guard included)."""
    return {
        p: _star_support(codes, p, star_centre(p)) if p.k <= codes.graph.n else 0 for p in stars
    }


def edge_reference(codes: GraphCodes) -> dict[LabelledPattern, int]:
    """Level 1 by sets: per (label of u, label of v, edge label) the distinct u."""
    images: dict[tuple, set] = {}
    use = np.flatnonzero(codes.usable)
    for u, v, el in zip(codes.src[use], codes.dst[use], codes.elabel[use], strict=True):
        images.setdefault((codes.label[u], codes.label[v], el), set()).add(u)
    return {
        edge_pattern(x, y, c): min(len(s), len(images[(y, x, c)]))
        for (x, y, c), s in images.items()
        if x <= y
    }


CASES = [  # (seed, nodes, edges, node label values, edge label values, labelled nodes / edges)
    (seed, n, m, nv, ev, ln, le)
    for seed, (n, m, nv, ev, ln, le) in enumerate([
        (16, 30, 3, 2, True, True),
        (16, 30, 3, 2, True, False),
        (20, 45, 5, 1, True, False),
        (12, 40, 2, 3, True, True),
        (18, 25, 1, 2, False, True),
        (18, 60, 4, 2, False, False),
        (3, 3, 2, 2, True, True),
        (2, 1, 2, 1, True, True),
        (25, 80, 3, 2, True, True),
        (30, 20, 5, 2, True, True),
    ] * 3)
]  # fmt: skip


# ---------------------------------------------------------------- star_supports
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"seed{c[0]}")
def test_star_supports_equal_one_star_at_a_time(case):
    seed, n, m, nv, ev, ln, le = case
    codes = codes_of(random_graph(seed, n, m, nv, ev), NL if ln else None, EL if le else None)
    stars = every_star(codes)
    assert star_supports(codes, stars) == one_by_one(codes, stars)


@pytest.mark.parametrize("seed", range(4))
def test_star_supports_of_the_mined_candidates(seed):
    """Level 2's candidates (made directly as stars: the same as growing the frequent edges by
    one and pruning) at several thresholds."""
    codes = codes_of(random_graph(seed, 40, 120, 1 + seed, 1 + seed % 2))
    for s in (1, 3, 8):
        level = {p: v for p, v in edge_supports(codes).items() if v >= s}
        neighbours = fsm._neighbour_labels(level)
        stars = fsm._two_edge_stars(neighbours)
        grown = set().union(*(fsm.one_edge_larger(p, neighbours) for p in level))
        assert stars == sorted(c for c in grown if all(q in level for q in fsm.one_edge_smaller(c)))
        assert star_supports(codes, stars) == one_by_one(codes, stars)


def test_alike_leaves():
    """A path a-b-a: the b-centred star a-b-a has one centre, the a-centred b-a-b none."""
    P = nx.path_graph(3)
    nx.set_node_attributes(P, {0: "a", 1: "b", 2: "a"}, NL)
    codes = GraphCodes.of(ng.from_networkx(P, node_label=NL))
    a, b = codes.graph.node_vocab["a"], codes.graph.node_vocab["b"]
    got = star_supports(codes, [canonical([b, a, a], [(0, 1, 0), (0, 2, 0)]),
                                canonical([a, b, b], [(0, 1, 0), (0, 2, 0)])])  # fmt: skip
    assert sorted(got.values()) == [0, 1]


@pytest.mark.parametrize("pairs, counts", [(1, 1), (3, 2), (7, 5), (64, 1)])
def test_forced_chunks_give_the_same_supports(monkeypatch, pairs, counts):
    cases = [random_graph(s, 20, 50, 3, 2) for s in range(3)]
    want = []
    for G in cases:
        codes = codes_of(G)
        want.append(star_supports(codes, every_star(codes)))
    monkeypatch.setattr(fsm, "STAR_PAIR_CHUNK_CPU", pairs)
    monkeypatch.setattr(fsm, "STAR_COUNT_CHUNK", counts)
    for G, w in zip(cases, want, strict=True):
        codes = codes_of(G)
        assert star_supports(codes, every_star(codes)) == w


def test_star_supports_edge_cases():
    codes = codes_of(random_graph(1))
    assert star_supports(codes, []) == {}
    with pytest.raises(ValueError, match="no two-edge star"):
        star_supports(codes, [canonical([0, 0, 0], [(0, 1, 0), (1, 2, 0), (0, 2, 0)])])
    with pytest.raises(ValueError, match="no two-edge star"):
        star_supports(codes, [edge_pattern(0, 0, 0)])
    # labels the graph has no code for: no image
    far = canonical([99, 0, 0], [(0, 1, 0), (0, 2, 0)])
    star = every_star(codes)[0]
    assert star_supports(codes, [far, star]) == {far: 0, **one_by_one(codes, [star])}
    # a graph with no edge, or fewer than three nodes
    for G in (nx.empty_graph(4), nx.path_graph(2)):
        nx.set_node_attributes(G, "a", NL)
        codes = GraphCodes.of(ng.from_networkx(G, node_label=NL))
        assert star_supports(codes, [canonical([0, 0, 0], [(0, 1, 0), (0, 2, 0)])]) == {
            canonical([0, 0, 0], [(0, 1, 0), (0, 2, 0)]): 0
        }


# ---------------------------------------------------------------- edge_supports
@pytest.mark.parametrize("case", CASES[:10], ids=lambda c: f"seed{c[0]}")
def test_edge_supports_equal_sets(case):
    seed, n, m, nv, ev, ln, le = case
    codes = codes_of(random_graph(seed, n, m, nv, ev), NL if ln else None, EL if le else None)
    assert edge_supports(codes) == edge_reference(codes)


# ---------------------------------------------------------------- CuPy's functions only
def _strict_bincount(x, weights=None, minlength=0):
    if not len(x):  # CuPy's bincount takes the maximum of its input
        raise ValueError("empty bincount (refused by CuPy)")
    if weights is not None and weights.dtype != np.float64:  # (CuPy's adds them atomically)
        raise TypeError(f"bincount weights of {weights.dtype}, not float64")
    return np.bincount(x, weights, minlength)


def _atomic_count(x, out):  # fsm.bincount's CuPy kernels: an atomic add per value, in range
    assert out.dtype == np.int64 and (not len(x) or 0 <= x.min() <= x.max() < len(out))
    np.add.at(out, x, 1)


def _atomic_add(x, w, out):
    assert out.dtype == np.float64 and (not len(x) or 0 <= x.min() <= x.max() < len(out))
    np.add.at(out, x, w)


#: NumPy functions that CuPy has too (with the arguments used here).
CUPY_NAMES = "int64 uint8 float64 ones zeros full arange asarray concatenate searchsorted cumsum"
CUPY_NAMES += " flatnonzero argsort minimum count_nonzero stack where"
#: NumPy, cut down to them.
CUPY_LIKE = types.SimpleNamespace(
    **{name: getattr(np, name) for name in CUPY_NAMES.split()},
    bincount=_strict_bincount,
    asnumpy=np.asarray,
)


@pytest.mark.parametrize("chunk", [2**24, 5])
def test_levels_1_and_2_use_cupy_functions_only(monkeypatch, chunk):
    monkeypatch.setattr(fsm, "STAR_PAIR_CHUNK_GPU", chunk)
    monkeypatch.setattr(fsm, "_cupy_bincount_kernels", lambda: (_atomic_count, _atomic_add))
    for seed in range(4):
        codes = codes_of(random_graph(seed, 14, 24, 3, 2))
        like = dataclasses.replace(codes, xp=CUPY_LIKE)
        stars = every_star(codes)
        assert edge_supports(like) == edge_supports(codes)
        assert star_supports(like, stars) == star_supports(codes, stars)


# ---------------------------------------------------------------- against the oracle
@st.composite
def labelled_graphs(draw: st.DrawFn) -> tuple[nx.Graph, bool, bool]:
    """Small graphs with up to five node label values (NaN among them), edge labels, a few
    self-loops and isolated vertices."""
    n = draw(st.integers(1, 10))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    for a, b in draw(st.lists(pairs, max_size=20)):
        if a != b or draw(st.integers(0, 4)) == 0:
            G.add_edge(a, b)
    values = draw(st.sampled_from(["a", "ab", "abc", "abcde"]))
    nodes = st.sampled_from([*values, NAN]) if draw(st.booleans()) else st.sampled_from(values)
    for v in G:
        G.nodes[v][NL] = draw(nodes)
    for u, v in G.edges():
        G.edges[u, v][EL] = draw(st.sampled_from("xy"))
    return G, draw(st.booleans()), draw(st.booleans())


@settings(
    max_examples=int(os.environ.get("NX_GPUMINE_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(labelled_graphs(), st.integers(1, 3))
def test_two_edge_mining_equals_brute_force(case, min_support):
    G, use_nodes, use_edges = case
    nl, el = (NL if use_nodes else None), (EL if use_edges else None)
    got = ng.frequent_subgraphs(G, min_support, max_edges=2, node_label=nl, edge_label=el)
    assert_same(got, oracle(G, min_support, 2, nl, el), nl, el)
