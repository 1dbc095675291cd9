"""Counts past 2**63 and 2**64 as exact Python ints, on both engines (issue 35).

The engines keep 64-bit counts in their hot loops and carry them, before a word would wrap,
into 128-bit ones; a count-tail formula past 64 bits is evaluated exactly (GPU:
``formula_wide`` of ``kernels/device_common.cuh``; CPU: 32-bit limbs in the numba walk). Only a
count past 2**128 - 1 raises :class:`~nx_gpumine.CapacityError`. Every expected value below
is a formula checked on a small instance against the engine's own walk and NetworkX.
"""

from __future__ import annotations

import math
import time

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.isomorphism import GraphMatcher

import nx_gpumine as ng
from nx_gpumine.engines.checks import COUNT_MAX
from nx_gpumine.engines.contract import engine_module
from nx_gpumine.errors import CapacityError
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_arrays
from nx_gpumine.plan.static_plan import static_plan
from tests.wide_graphs import hub_triangle, hub_triangle_edges, tri_leaves


def _book_edges(pages: int) -> tuple[np.ndarray, np.ndarray, int]:
    """An edge (0, 1) with ``pages`` nodes joined to both ends."""
    p = np.arange(2, 2 + pages, dtype=np.int64)
    src = np.concatenate([[0], np.zeros(pages, np.int64), np.ones(pages, np.int64)])
    dst = np.concatenate([[1], p, p])
    return src, dst, 2 + pages


def _book_graph(pages: int):
    src, dst, n = _book_edges(pages)
    return from_arrays(src, dst, num_nodes=n)


def _nx(edges: tuple[np.ndarray, np.ndarray, int]) -> nx.Graph:
    return nx.Graph(list(zip(edges[0].tolist(), edges[1].tolist(), strict=True)))


def _book(t: int) -> nx.Graph:
    P = nx.Graph([(0, 1)])
    P.add_edges_from((e, 2 + i) for i in range(t) for e in (0, 1))
    return P


def test_formulas_of_the_large_cases_on_small_instances(engine):
    """The formulas the large cases expect, checked against NetworkX and the engines."""
    for L, hubs in ((7, 1), (6, 3)):
        g = hub_triangle(L, hubs)
        G = _nx(hub_triangle_edges(L, hubs))
        maps = sum(1 for _ in GraphMatcher(G, tri_leaves()).subgraph_monomorphisms_iter())
        assert maps == hubs * 2 * math.perm(L, 3)
        assert ng.count_subgraphs(g, tri_leaves(), engine=engine) == maps
        assert ng.count_subgraphs(g, tri_leaves(), count="subgraphs", engine=engine) == (
            hubs * math.comb(L, 3)
        )
    g = _book_graph(9)
    G = _nx(_book_edges(9))
    maps = sum(1 for _ in GraphMatcher(G, _book(5)).subgraph_monomorphisms_iter())
    assert maps == 2 * math.factorial(5) * math.comb(9, 5)
    assert ng.count_subgraphs(g, _book(5), engine=engine) == maps


@pytest.mark.parametrize("n_leaves", [2_500_000, 2_700_000])
def test_tail_counts_past_2_64(engine, n_leaves):
    """A mapping plan counts ff(L, 3) leaf tuples per (hub, x, y): ff(2.5M, 3) < 2**64 summed
    past it (carries), ff(2.7M, 3) > 2**64 itself (the exact formula's slow path)."""
    g = hub_triangle(n_leaves)
    P = as_pattern(tri_leaves())
    mapping_plan = static_plan(P, g, induced=False, distinct=False)
    want = 2 * math.perm(n_leaves, 3)
    assert want > 2**64
    assert engine_module("static", engine).count(g, mapping_plan) == want
    distinct = static_plan(P, g, induced=False, distinct=True)
    assert engine_module("static", engine).count(g, distinct) == math.comb(n_leaves, 3)
    assert ng.count_subgraphs(g, tri_leaves(), engine=engine) == want


def test_many_hubs_sum_past_2_64(engine):
    """Two hubs of 2.2M leaves: each mapping's tail fits 64 bits, their sum does not."""
    L = 2_200_000
    g = hub_triangle(L, hubs=2)
    plan = static_plan(as_pattern(tri_leaves()), g, induced=False, distinct=False)
    want = 2 * 2 * math.perm(L, 3)
    assert want > 2**64 > math.perm(L, 3)
    assert engine_module("static", engine).count(g, plan) == want


def test_book_binomial_past_2_64(engine):
    """C(20000, 5) 5-page books over one edge (> 2**64): the book kernel's and the walk's
    binomial past 64 bits."""
    g = _book_graph(20_000)
    want = math.comb(20_000, 5)
    assert want > 2**64
    assert ng.count_subgraphs(g, _book(5), count="subgraphs", engine=engine) == want
    assert ng.count_subgraphs(g, _book(5), engine=engine) == want * 2 * math.factorial(5)
    plan = static_plan(as_pattern(_book(5)), g, induced=False, distinct=True)
    assert engine_module("static", engine).count(g, plan) == want


def test_past_2_128_raises(engine):
    """ff(L, 8) leaf tuples with L = 2**21 exceed 2**128: refused, never wrapped."""
    L = 2**21
    g = hub_triangle(L)
    P = tri_leaves(8)
    assert 2 * math.perm(L, 8) > COUNT_MAX
    plan = static_plan(as_pattern(P), g, induced=False, distinct=False)
    with pytest.raises(CapacityError, match="128-bit"):
        engine_module("static", engine).count(g, plan)


def test_a_hub_of_degree_2_5_million_exact_in_under_a_second(engine):
    """Issue 35's case: 3-leaf stars around one hub of degree 2.5M, subgraphs and mappings
    (past 2**63) exact, each in under a second."""
    n = 2_500_000
    g = from_arrays(np.zeros(n, dtype=np.int64), np.arange(1, n + 1, dtype=np.int64),
                    num_nodes=n + 1)  # fmt: skip
    ng.count_subgraphs(g, "4-star", count="subgraphs", engine=engine)  # plan and caches
    for kind, want in (("subgraphs", math.comb(n, 3)), ("mappings", math.perm(n, 3))):
        t = time.perf_counter()
        got = ng.count_subgraphs(g, "4-star", count=kind, engine=engine)
        assert time.perf_counter() - t < 1.0, kind
        assert got == want and type(got) is int, kind
    assert math.perm(n, 3) > 2**63
