"""Issue 38 ("Reliability, round two"), item 5: slow where it need not be.

(a) The CPU census counts two-node triples and stars per node pair (parallel edges counted, not
enumerated) and triangles per root; a count of a plain three-edge motif is the census's count.
Both must equal the enumeration they replaced (``tests/census_reference.py``: the old census
kernel, verbatim), the generic walk, and a brute force, on multigraphs with heavy multiplicity,
for both tie rules, with and without a window, on any root range.

(b) The static walk stops a level's candidate range early when later levels need more larger
candidates from it than remain (``plan.static_plan.size_needs``): counts, existence and
enumeration must equal the walk without that pruning.
"""

from __future__ import annotations

import itertools
import time
from unittest import mock

import networkx as nx
import numpy as np
import pytest
from census_reference import old_census
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.engines.cpu import static as cpu_static
from nx_gpumine.engines.cpu import temporal as cpu
from nx_gpumine.engines.cpu.calls import COUNT, reduce_roots
from nx_gpumine.engines.cpu.temporal_census import PART_LONE_LAST, PART_TWO_NODE
from nx_gpumine.errors import CapacityError
from nx_gpumine.inputs.motif_args import as_motif
from nx_gpumine.inputs.motifs import CENSUS_KEYS, TemporalMotif, census_motif
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.static_plan import build_static_plan, size_needs
from nx_gpumine.plan.temporal_plan import build_temporal_plan, census_position

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ====================================================================== (a) census
def _brute(src, dst, t, delta, tie, lo=0, hi=None):
    """Every triple of edge ids (the graph's time order), roots in [lo, hi): CENSUS_KEYS counts."""
    m = len(src)
    hi = m if hi is None else hi
    out = dict.fromkeys(CENSUS_KEYS, 0)
    for x in range(lo, hi):
        for y in range(x + 1, m):
            for z in range(y + 1, m):
                if tie == "strict" and not (t[x] < t[y] < t[z]):
                    continue
                if delta is not None and t[z] - t[x] > delta:
                    continue
                lab: dict = {}
                key = []
                for e in (x, y, z):
                    for w in (src[e], dst[e]):
                        lab.setdefault(w, len(lab))
                    key.append(f"{lab[src[e]]}{lab[dst[e]]}")
                if any(src[e] == dst[e] for e in (x, y, z)) or len(lab) > 3:
                    continue
                out[" ".join(key)] += 1
    return np.array([out[k] for k in CENSUS_KEYS], dtype=np.int64)


@st.composite
def multigraphs(draw, max_edges=40):
    """Few node pairs, many parallel edges (both directions), few distinct times, self-loops."""
    n = draw(st.integers(2, 6))
    pairs = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=5)
    )
    edges = draw(
        st.lists(
            st.tuples(st.sampled_from(pairs), st.booleans(), st.integers(0, 8)),
            max_size=max_edges,
        )
    )
    src = np.array([(b if f else a) for (a, b), f, _ in edges], dtype=np.int64)
    dst = np.array([(a if f else b) for (a, b), f, _ in edges], dtype=np.int64)
    t = np.array([x for *_, x in edges], dtype=np.int64)
    return temporal_from_arrays(src, dst, t, nodes=range(n))


def _ranges(draw, m):
    lo = draw(st.integers(0, m))
    return [(0, m), (lo, draw(st.integers(lo, m)))]


@SETTINGS
@given(
    g=multigraphs(),
    delta=st.one_of(st.none(), st.integers(0, 8)),
    tie=st.sampled_from(["strict", "input_order"]),
    data=st.data(),
)
def test_census_equals_old_enumeration_and_brute_force(g, delta, tie, data):
    src, dst, t = g.src.tolist(), g.dst.tolist(), g.time.tolist()
    for lo, hi in _ranges(data.draw, g.m):
        got = cpu.census(g, delta, tie, lo, hi)
        assert np.array_equal(got, old_census(g, delta, tie, lo, hi))
        assert np.array_equal(got, _brute(src, dst, t, delta, tie, lo, hi))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    delta=st.one_of(st.none(), st.floats(0, 30)),
    tie=st.sampled_from(["strict", "input_order"]),
)
def test_census_equals_old_enumeration_larger(seed, delta, tie):
    """Hundreds of edges: hubs, heavy pairs and many triangles, float times with ties."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 25))
    m = int(rng.integers(50, 400))
    heavy = rng.integers(0, n, (3, 2))
    pick = rng.random(m) < 0.5
    src = np.where(pick, heavy[rng.integers(0, 3, m), 0], rng.integers(0, n, m))
    dst = np.where(pick, heavy[rng.integers(0, 3, m), 1], rng.integers(0, n, m))
    t = np.round(rng.random(m) * 60, int(rng.integers(0, 2)))
    g = temporal_from_arrays(src, dst, t)
    lo = int(rng.integers(0, m))
    hi = int(rng.integers(lo, m + 1))
    for a, b in ((0, m), (lo, hi)):
        assert np.array_equal(cpu.census(g, delta, tie, a, b), old_census(g, delta, tie, a, b))


def _walk_count(g, plan, lo, hi):
    """The generic walk's count (what ``count`` ran before census motifs took the census)."""
    if hi <= lo:
        return 0
    return reduce_roots(cpu._KERNELS, cpu._args(g, plan), lo, hi, plan.l, COUNT, None)


@SETTINGS
@given(
    g=multigraphs(max_edges=30),
    delta=st.one_of(st.none(), st.integers(0, 8)),
    tie=st.sampled_from(["strict", "input_order"]),
    data=st.data(),
)
def test_count_of_census_motifs_equals_walk_and_census(g, delta, tie, data):
    lo, hi = _ranges(data.draw, g.m)[1]
    whole = cpu.census(g, delta, tie)
    part = cpu.census(g, delta, tie, lo, hi)
    heavy = data.draw(st.sampled_from([0, cpu.HEAVY_PAIR]))  # 0: stars take the census too
    with mock.patch.object(cpu, "HEAVY_PAIR", heavy):
        for j, key in enumerate(CENSUS_KEYS):
            plan = build_temporal_plan(census_motif(key, delta, tie), g)
            assert census_position(plan) == j
            assert cpu.count(g, plan) == whole[j] == _walk_count(g, plan, 0, g.m)
            assert cpu.count(g, plan, lo, hi) == part[j] == _walk_count(g, plan, lo, hi)
            # the census of this motif's kind alone
            on, d = plan.delta_on, plan.delta
            kind = cpu._census_parts(key)
            assert cpu._census(g, plan.tie, on, d, lo, hi, kind)[j] == part[j]


def test_count_routes():
    """Two-node motifs always take the census; stars only with a heavy pair; triangles never."""
    calls = []
    light = _parallel(10)
    heavy = _parallel(cpu.HEAVY_PAIR)
    real = cpu._census
    with mock.patch.object(cpu, "_census", lambda *a: calls.append(a[-1]) or real(*a)):
        for g in (light, heavy):
            for key in ("01 10 01", "01 01 12", "01 12 20"):
                plan = build_temporal_plan(census_motif(key, None, "strict"), g)
                assert cpu.count(g, plan) == _walk_count(g, plan, 0, g.m)
    assert calls == [PART_TWO_NODE, PART_TWO_NODE, PART_LONE_LAST]


def test_count_motifs_any_node_names_of_a_census_motif():
    """Motif nodes in any order: the census key is found by first appearance."""
    g = temporal_from_arrays(
        np.array([0, 1, 0, 2, 1, 0]), np.array([1, 0, 2, 0, 2, 1]), np.arange(6)
    )
    for edges in ([(2, 0), (0, 2), (2, 1)], [(1, 0), (0, 1), (1, 2)]):
        plan = build_temporal_plan(as_motif(edges, None, None), g)
        assert census_position(plan) == CENSUS_KEYS.index("01 10 02")
        assert cpu.count(g, plan) == _walk_count(g, plan, 0, g.m)


@pytest.mark.parametrize(
    "motif",
    [
        TemporalMotif([(0, 1), (1, 0), (0, 1)], delta=5, gaps=[2, 2]),
        TemporalMotif([(0, 1), (1, 2), (2, 0)], delta=5, anti_edges=[(0, 2, 0, None)]),
        TemporalMotif([(0, 1), (1, 2), (2, 3)], delta=5),
        TemporalMotif([(0, 1), (1, 0)], delta=5),
        TemporalMotif([(0, 1), (1, 0), (0, 1), (1, 0)], delta=5),
    ],
)
def test_other_motifs_are_walked(motif):
    g = temporal_from_arrays(np.array([0, 1, 0, 1, 2]), np.array([1, 0, 1, 2, 0]), np.arange(5))
    plan = build_temporal_plan(motif, g)
    assert census_position(plan) is None
    assert cpu.count(g, plan) == _walk_count(g, plan, 0, g.m)


def _parallel(m, equal=False):
    """m parallel edges 0 -> 1 / 1 -> 0 (alternating) and three others."""
    src = np.zeros(m, dtype=np.int64)
    dst = np.ones(m, dtype=np.int64)
    src[1::2], dst[1::2] = 1, 0
    t = np.zeros(m, dtype=np.int64) if equal else np.arange(m, dtype=np.int64)
    extra = [0, 0, 0] if equal else [m // 3, m // 2, 2 * m // 3]
    return temporal_from_arrays(
        np.concatenate([src, [1, 2, 0]]),
        np.concatenate([dst, [2, 0, 3]]),
        np.concatenate([t, extra]),
    )


def test_many_parallel_edges_closed_form_and_fast():
    """200,000 parallel edges: every triple of them, C(m, 3), in well under the seconds the
    enumeration would take (it took 76 s for 4,000)."""
    m = 200_000
    g = _parallel(m)
    start = time.perf_counter()
    got = ng.motif_census(g, None, engine="cpu")
    assert time.perf_counter() - start < 20
    two = sum(v for k, v in got.items() if "2" not in k)
    assert two == m * (m - 1) * (m - 2) // 6
    cnt = ng.count_motifs(g, "01 10 01", delta=None, engine="cpu")
    assert cnt == got["01 10 01"]
    # the pair's edges alternate in direction (parity of their position): 01 10 01 takes the
    # x < y < z with par[x] == par[z] != par[y], i.e. per y: earlier times later of the other
    par = np.arange(m) % 2
    before = [np.cumsum(np.r_[0, par[:-1] == d]) for d in (0, 1)]
    after = [(par == d).sum() - np.cumsum(par == d) for d in (0, 1)]
    other = np.where(par == 1, before[0] * after[0], before[1] * after[1])
    assert cnt == int(other.astype(object).sum())


def test_census_overflow_marks_the_chunk():
    """A count past 2**63 - 1 inside a chunk is -1 (the host's CapacityError), never a wrap."""
    from nx_gpumine.engines.checks import checked_sum
    from nx_gpumine.engines.cpu.temporal_census import _add

    counts = np.array([2**63 - 3, 5], dtype=np.int64)
    _add(counts, 0, 2)
    assert counts[0] == 2**63 - 1
    _add(counts, 0, 1)
    assert counts[0] == -1
    _add(counts, 0, 7)  # stays marked
    assert counts[0] == -1
    with pytest.raises(CapacityError):
        checked_sum(counts[:1])


# ====================================================================== (b) static size pruning
def test_size_needs_of_a_clique():
    g = as_static_graph(nx.complete_graph(8))
    for distinct, want in ((True, [0, 0, 3, 2, 1, 0]), (False, [0] * 6)):
        plan = build_static_plan(as_pattern(nx.complete_graph(6)), g, induced=False,
                                 distinct=distinct)  # fmt: skip
        assert size_needs(plan).tolist() == want


def _without_pruning(monkeypatch):
    monkeypatch.setattr(cpu_static, "size_needs", lambda plan: np.zeros(plan.k, dtype=np.int64))


DENSE_PATTERNS = [
    nx.complete_graph(4),
    nx.complete_graph(5),
    nx.complete_graph(6),
    nx.complete_graph(5).copy(),  # minus an edge below
    nx.complete_bipartite_graph(2, 3),
    nx.wheel_graph(5),
    nx.cycle_graph(4),
]
DENSE_PATTERNS[3].remove_edge(0, 1)


@pytest.mark.parametrize("pattern", DENSE_PATTERNS, ids=lambda p: f"{len(p)}n{p.size()}e")
@pytest.mark.parametrize("induced", [False, True])
def test_size_pruning_changes_no_count(pattern, induced, monkeypatch):
    rng = np.random.default_rng(len(pattern) * 10 + pattern.size())
    graphs = [nx.complete_graph(9), nx.gnp_random_graph(14, 0.7, seed=int(rng.integers(1 << 30)))]
    graphs.append(nx.gnp_random_graph(12, 0.8, seed=3, directed=True))
    for G in graphs:
        P = pattern.to_directed() if G.is_directed() else pattern
        g = as_static_graph(G)
        got = {}
        for prune in (True, False):
            if not prune:
                _without_pruning(monkeypatch)
            plan = build_static_plan(as_pattern(P), g, induced=induced, distinct=True)
            rows = cpu_static.enumerate_matches(g, plan)
            got[prune] = (
                cpu_static.count(g, plan),
                cpu_static.exists(g, plan),
                sorted(map(tuple, rows.tolist())),
                [
                    cpu_static.count(g, plan, lo, min(lo + 7, len(g.indices)))
                    for lo in range(0, len(g.indices), 7)
                ],
            )
            monkeypatch.undo()
        assert got[True] == got[False]
        assert got[True][0] == len(got[True][2])


def test_size_pruning_against_networkx():
    G = nx.gnp_random_graph(11, 0.75, seed=5)
    for k in (4, 5, 6):
        P = nx.complete_graph(k)
        nx_count = sum(1 for _ in itertools.combinations(G, k) if nx.density(G.subgraph(_)) == 1)
        assert ng.count_subgraphs(G, P, count="subgraphs", engine="cpu") == nx_count


def test_clique_in_clique_is_fast():
    """K30 in K32 (``count='subgraphs'``): 496, where the walk over every ordered subset took
    minutes (growing x4 per two pattern nodes)."""
    start = time.perf_counter()
    got = ng.count_subgraphs(
        nx.complete_graph(32), nx.complete_graph(30), count="subgraphs", engine="cpu"
    )
    assert got == 496
    # mappings: the distinct count times |Aut(K12)| = 12!
    got = ng.count_subgraphs(nx.complete_graph(14), nx.complete_graph(12), engine="cpu")
    assert got == 91 * int(np.prod(np.arange(1, 13, dtype=object)))
    assert time.perf_counter() - start < 30
