"""Issue 35 on the CPU engine: exact static counts as Python ints up to ``2**128 - 1``.

The static walk counts in an int64 word, spills it into 32-bit limbs before it would wrap, and
computes count-tail formulas past int64 exactly in limbs (``engines/cpu/static_walk.py``);
only a count past ``2**128 - 1`` is a ``CapacityError``.

The end-to-end graphs are hubs, each with one triangle ``(h, x, y)`` and ``D`` leaves; the
pattern is a triangle ``(0, 1, 2)`` with ``s`` leaves on node 0 (not a plain star, so the
engine's count tail answers it, not a closed form of execution). Only a hub can be node 0
(``x`` and ``y`` have degree 2), so per hub: ``2 perm(D, s)`` mappings (``1 <-> 2`` and the
leaves' order) and ``C(D, s)`` subgraphs, induced or not (the leaves are pairwise
non-adjacent and adjacent to the hub only).
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.isomorphism import GraphMatcher

import nx_gpumine as ng
from nx_gpumine.engines.cpu import calls
from nx_gpumine.engines.cpu import static as cpu
from nx_gpumine.engines.cpu import static_walk as walk
from nx_gpumine.engines.cpu.calls import COUNT, WIDE_LIMBS, reduce_roots, wide_count
from nx_gpumine.errors import CapacityError
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.plan.static_plan import build_static_plan
from tests.wide_graphs import hub_triangle, hub_triangle_edges, tri_leaves

TOP = 2**128 - 1


def _want(hubs: int, leaves: int, s: int, count: str) -> int:
    if count == "mappings":
        return hubs * 2 * math.perm(leaves, s)
    return hubs * math.comb(leaves, s)


def _wide(value: int) -> np.ndarray:
    return np.array([(value >> (32 * i)) & 0xFFFFFFFF for i in range(WIDE_LIMBS)], np.int64)


# ---------------------------------------------------------------- the limb helpers
@pytest.mark.parametrize("kind", [1, 2])
def test_formulas_in_limbs_match_math(kind):
    a = np.zeros(WIDE_LIMBS, np.int64)
    for n in (0, 1, 5, 66, 70, 1000, 65_537, 2_500_000, 2**31 - 1):
        for t in (0, 1, 2, 3, 4, 5, 8, 16, 20, 33, 35, 40, 70):
            want = math.perm(n, t) if kind == 1 else math.comb(n, t)
            fits = calls.wide_formula(np.int64(n), np.int64(t), np.int64(kind), a)
            assert fits == (want <= TOP), (n, t, kind)
            if fits:
                assert wide_count(0, a) == want, (n, t, kind)
                assert ((a >= 0) & (a < 2**32)).all()
    # both sides of the limit were taken (n = 2**31 - 1: t = 4 fits, t = 5 does not)
    assert math.perm(2**31 - 1, 4) < TOP < math.perm(2**31 - 1, 5)
    assert math.comb(1000, 16) < TOP < math.comb(1000, 20)


def test_int64_formulas_still_mark_their_overflow():
    # the hot path's formulas: exact in int64, -1 past it (the walk then goes to the limbs)
    assert walk._falling(np.int64(2**31 - 1), np.int64(2)) == math.perm(2**31 - 1, 2)
    assert walk._falling(np.int64(2**31 - 1), np.int64(3)) == -1
    assert walk._choose(np.int64(66), np.int64(33)) == math.comb(66, 33)
    assert walk._choose(np.int64(70), np.int64(35)) == -1


def test_spills_add_exactly_up_to_128_bits():
    wide = np.zeros(WIDE_LIMBS, np.int64)
    top = np.int64(2**63 - 1)
    total = 0
    for _ in range(5):
        assert calls.wide_add(wide, top)
        total += 2**63 - 1
    assert calls.wide_add(wide, np.int64(12345))
    total += 12345
    assert wide_count(7, wide) == total + 7
    assert wide_count(-1, wide) == -1  # an overflowed run stays marked
    # limbs added to limbs, up to the limit and one past it
    wide = _wide(TOP - 10)
    assert calls.wide_add(wide, np.int64(10)) and wide_count(0, wide) == TOP
    assert not calls.wide_add(wide, np.int64(1))
    wide = _wide(2**127)
    assert calls._wide_add_limbs(wide, _wide(2**127 - 1)) and wide_count(0, wide) == TOP
    assert not calls._wide_add_limbs(wide, _wide(1))
    # a formula added to a spilled sum
    wide = _wide(2**100)
    assert calls.wide_tail(wide, np.int64(2**31 - 1), np.int64(4), np.int64(1))
    assert wide_count(0, wide) == 2**100 + math.perm(2**31 - 1, 4)
    assert not calls.wide_tail(wide, np.int64(2**31 - 1), np.int64(5), np.int64(1))


def test_limb_multiply_and_divide():
    a = _wide(3**70)
    assert calls.wide_mul(a, np.int64(2**31 - 1))
    assert wide_count(0, a) == 3**70 * (2**31 - 1)
    assert calls.wide_div(a, np.int64(2**31 - 1)) == 0 and wide_count(0, a) == 3**70
    assert calls.wide_div(a, np.int64(7)) == 3**70 % 7 and wide_count(0, a) == 3**70 // 7
    assert not calls.wide_mul(_wide(2**150), np.int64(2**20))  # past 160 bits


# ---------------------------------------------------------------- the formula itself
@pytest.mark.parametrize("induced", [False, True])
def test_formula_of_the_hub_graphs_against_networkx(induced):
    H, D, s = 2, 6, 3
    src, dst, n = hub_triangle_edges(D, H)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    P = tri_leaves(s)
    gm = GraphMatcher(G, P)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    maps = sum(1 for _ in it)
    assert maps == _want(H, D, s, "mappings") == 480
    for count in ("mappings", "subgraphs"):
        want = _want(H, D, s, count)
        assert ng.count_subgraphs(G, P, induced=induced, count=count, engine="cpu") == want
        g = hub_triangle(D, H)
        assert ng.count_subgraphs(g, P, induced=induced, count=count, engine="cpu") == want


# ---------------------------------------------------------------- end to end
@pytest.mark.parametrize("induced", [False, True])
def test_counts_past_64_bits_from_tail_formulas(induced):
    """Degree 10**6: every count tail's formula passes int64 and is done in limbs."""
    D = 1_000_000
    g = hub_triangle(D, 1)
    P = tri_leaves(4)
    for count in ("mappings", "subgraphs"):
        got = ng.count_subgraphs(g, P, induced=induced, count=count, engine="cpu")
        want = _want(1, D, 4, count)
        assert want > 2**64 and type(got) is int and got == want
    assert ng.has_subgraph(g, tri_leaves(8), engine="cpu")  # a formula past 2**128: found


def test_word_spills_inside_one_run():
    """Every tail formula fits int64 (perm(55000, 4) < 2**63), their sum does not: the word
    spills into the limbs, inside one serial run and inside the parallel chunks."""
    D, H, s = 55_000, 2, 4
    assert math.perm(D, s) < 2**63 < 2 * math.perm(D, s)
    g = hub_triangle(D, H)
    want = _want(H, D, s, "mappings")
    assert want > 2**64
    plan = build_static_plan(Pattern.from_networkx(tri_leaves(s)), g, induced=False, distinct=False)
    m = len(g.indices)
    args = cpu._args(g, plan)
    assert reduce_roots(cpu._KERNELS, args, 0, m, plan.k, COUNT, None) == want  # serial
    assert cpu.count(g, plan) == want  # chunks
    assert ng.count_subgraphs(g, tri_leaves(s), engine="cpu") == want


def test_counts_past_128_bits_raise():
    g = hub_triangle(1_000_000, 1)
    P = tri_leaves(8)  # perm(10**6, 8) and C(10**6, 8) both pass 2**128
    for count in ("mappings", "subgraphs"):
        with pytest.raises(CapacityError, match="128-bit"):
            ng.count_subgraphs(g, P, count=count, engine="cpu")
