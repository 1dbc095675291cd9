"""``nx_gpumine.estimate`` and ``count_subgraphs(max_work=...)`` (issue 35: an honest estimate
first): the plan's work bound is an upper bound, the sampled count is within 2x of the exact
count on the T-DFS patterns over Facebook (and over the power-law graph pl1m, a slow test:
``NX_GPUMINE_ESTIMATE_PL1M=1``), and a hopeless count is refused at once."""

from __future__ import annotations

import importlib.util
import math
import os
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.engines import select_engine
from nx_gpumine.errors import CapacityError, QueryError, WorkLimitError
from nx_gpumine.execution.estimate import Estimate
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import as_static_graph, from_arrays
from nx_gpumine.plan.estimate import (
    level_bounds,
    prefix_plan,
    root_bounds,
    root_entries,
    root_log_weights,
    walk_levels,
    work_bound,
)
from nx_gpumine.plan.static_plan import static_plan

DATA = Path(__file__).resolve().parents[1] / "nx_gpumine" / "data" / "facebook_combined.txt"

#: T-DFS's patterns P1..P7 (as ``benchmarks/bench_common.py`` defines them).
T_DFS = {
    "P1": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)],
    "P2": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
    "P3": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3)],
    "P4": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 4), (3, 4)],
    "P5": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)],
    "P6": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (3, 4)],
    "P7": [(a, b) for a in range(5) for b in range(a + 1, 5)],
}
#: Exact mapping counts on Facebook: ``benchmarks/results/issue37_38_2026-11-27/static_peers.md``
#: (the GPU engine, equal to G2Miner's and T-DFS's), and the CPU engine's, which agree.
FACEBOOK_MAPPINGS = {
    "triangle": 9_672_060,
    "4-cycle": 1_152_184_424,
    "P1": 915_148_200,
    "P2": 720_112_032,
    "P3": 87_052_612_908,
    "P4": 100_380_910_164,
    "P5": 83_769_562_880,
    "P6": 72_294_201_696,
    "P7": 62_155_818_120,
}


def _pattern(name: str):
    return nx.Graph(T_DFS[name]) if name in T_DFS else name


@pytest.fixture(scope="module")
def facebook():
    e = np.loadtxt(DATA, dtype=np.int64)
    g = from_arrays(e[:, 0], e[:, 1])
    ng.estimate(g, "triangle", samples=4)  # the CPU engine's kernels load once
    return g


@pytest.mark.parametrize("name", sorted(FACEBOOK_MAPPINGS))
def test_estimate_within_2x_on_facebook(facebook, name):
    t = time.perf_counter()
    est = ng.estimate(facebook, _pattern(name))
    took = time.perf_counter() - t
    real = FACEBOOK_MAPPINGS[name]
    assert isinstance(est, Estimate) and est.kind == "mappings"
    assert real / 2 <= est.count <= 2 * real, (name, est.count / real, str(est))
    assert est.count_low <= est.count <= est.count_high
    assert est.count_low <= real * 1.5 and est.count_high >= real / 1.5  # a sane interval
    assert 0 < est.work <= est.work_bound and not est.exact and not est.extrapolated
    assert est.seconds > 0 and 0 < est.samples <= est.roots
    assert took < 2.0, (name, took)  # about 0.3 s of sampling; generous for a loaded CI host


def _chung_lu(n: int, m: int, gamma: float, cap: float, seed: int):
    """A power-law graph as ``benchmarks/powerlaw_graph.py`` draws it (Chung-Lu weights,
    ``m`` distinct edges): a few hubs, whose edges root nearly every 5-clique."""
    rng = np.random.default_rng(seed)
    w = (np.arange(n) + 10.0) ** (-1.0 / (gamma - 1.0))
    c = np.cumsum(np.minimum(w / w.sum() * 2 * m, cap))
    c /= c[-1]
    k = int(m * 1.15)
    s, d = np.searchsorted(c, rng.random(k)), np.searchsorted(c, rng.random(k))
    s, d = s[s != d], d[s != d]
    key = np.unique(np.minimum(s, d).astype(np.int64) * n + np.maximum(s, d))[:m]
    return from_arrays(key // n, key % n, num_nodes=n)


def test_estimate_on_hubs():
    """pl1m in small (50k nodes, 250k edges): 1% of the root edges hold nearly all the
    5-cliques. The heaviest roots get strata of their own and the draws go where the cliques
    are: every seed within 25% (equal-width strata and uniform subsamples strayed 20-30%)."""
    g = _chung_lu(50_000, 250_000, 2.3, 1000, 1)
    p7 = nx.complete_graph(5)
    ng.estimate(g, "triangle", samples=4)  # kernels loaded
    real = ng.count_subgraphs(g, p7, engine="cpu")
    for seed in range(4):
        est = ng.estimate(g, p7, seed=seed)
        assert 0.8 <= est.count / real <= 1.25, (seed, est.count / real, str(est))
        assert est.count_low <= real <= est.count_high, (seed, str(est))


def test_log_weights_are_the_bounds_of_the_last_level(facebook):
    plan = _distinct_plan(facebook, "P5")
    entries = root_entries(facebook, plan)[::97]
    want = np.log2(root_bounds(facebook, plan, entries)[:, -1])
    assert np.allclose(root_log_weights(facebook, plan, entries), want, rtol=1e-6)


#: Exact mapping counts on pl1m (``benchmarks/bench_common.py``: 200k nodes, 1M edges), as
#: ``benchmarks/results/issue37_38_2026-11-27/static_peers.md`` lists them.
PL1M_MAPPINGS = {
    "triangle": 4_135_332,
    "4-cycle": 661_580_376,
    "P1": 197_727_828,
    "P2": 47_543_088,
    "P3": 4_444_259_836,
    "P4": 7_913_424_488,
    "P5": 2_852_679_952,
    "P6": 1_491_468_072,
    "P7": 742_735_320,
}


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("NX_GPUMINE_ESTIMATE_PL1M", "") in ("", "0"),
    reason="about 10 s: set NX_GPUMINE_ESTIMATE_PL1M=1",
)
def test_estimate_within_2x_on_pl1m():
    bench = Path(__file__).resolve().parents[1] / "benchmarks"
    spec = importlib.util.spec_from_file_location("powerlaw_graph", bench / "powerlaw_graph.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    a, b = module.generate(200000, 1000000, 2.3, 2000, 1)  # bench_common.POWERLAW["pl1m"]
    g = from_arrays(a, b, num_nodes=200000)
    ng.estimate(g, "triangle", samples=4)
    for name, real in PL1M_MAPPINGS.items():
        for seed in range(2):
            t = time.perf_counter()
            est = ng.estimate(g, _pattern(name), seed=seed)
            took = time.perf_counter() - t
            assert real / 2 <= est.count <= 2 * real, (name, seed, est.count / real, str(est))
            assert took < 3.0, (name, seed, took)  # about 0.1-0.9 s on 2 cores


def test_subgraphs_are_mappings_over_automorphisms(facebook):
    mappings = ng.estimate(facebook, _pattern("P1"), seed=3)
    subgraphs = ng.estimate(facebook, _pattern("P1"), seed=3, count="subgraphs")
    assert subgraphs.kind == "subgraphs"
    assert abs(mappings.count - 4 * subgraphs.count) <= 4  # the same sample, |Aut(P1)| = 4
    real = FACEBOOK_MAPPINGS["P1"] // 4
    assert real / 2 <= subgraphs.count <= 2 * real


def _almost_complete(n: int):
    """K_n less one edge: as dense as K_n, but not complete (a complete graph's cliques may
    be counted in closed form, without an estimate)."""
    G = nx.complete_graph(n)
    G.remove_edge(0, 1)
    return as_static_graph(G)


def test_k8_in_k300_is_refused_at_once():
    g = _almost_complete(300)
    k8 = nx.complete_graph(8)
    ng.count_subgraphs(g, "triangle", max_work=10**9, engine="cpu")  # warm: kernels loaded
    t = time.perf_counter()
    with pytest.raises(WorkLimitError) as info:
        ng.count_subgraphs(g, k8, max_work=10**9, engine="cpu")
    took = time.perf_counter() - t
    assert took < 1.0, took
    err = info.value
    assert isinstance(err, CapacityError)
    msg = str(err)
    assert "partial matches (bound " in msg and "> max_work=1,000,000,000" in msg
    assert "nx_gpumine.estimate(G, P) tells more" in msg
    assert err.estimate.work > 10**9 and err.estimate.work_bound >= err.estimate.work
    # the count it would have run into: C(300, 8) 8-cliques, 8! mappings each (past 2^63)
    assert err.estimate.count > 2**63
    assert err.estimate.count / math.perm(300, 8) < 20


def test_max_work_admits_what_fits(facebook):
    real = FACEBOOK_MAPPINGS["triangle"]
    # admitted by the bound alone (degrees, no sampling)
    assert work_bound(facebook, _distinct_plan(facebook, "triangle")) <= 10**6
    assert ng.count_subgraphs(facebook, "triangle", max_work=10**6, engine="cpu") == real
    # admitted by the sample: the bound is above, the real work well below
    plan = _distinct_plan(facebook, "P2")
    assert work_bound(facebook, plan) > 5 * 10**6
    got = ng.count_subgraphs(facebook, _pattern("P2"), max_work=5 * 10**6, engine="cpu")
    assert got == FACEBOOK_MAPPINGS["P2"]
    with pytest.raises(WorkLimitError, match=r"max_work=100,000;"):
        ng.count_subgraphs(facebook, _pattern("P2"), max_work=10**5, engine="cpu")
    with pytest.raises(WorkLimitError):  # the root edges alone are past the limit
        ng.count_subgraphs(facebook, _pattern("P7"), count="subgraphs", max_work=1000)


def test_max_work_is_checked():
    for bad in (-1, 1.5, "10", True):
        with pytest.raises(QueryError, match="max_work"):
            ng.count_subgraphs(nx.path_graph(4), "wedge", max_work=bad)
    assert ng.count_subgraphs(nx.path_graph(4), "wedge", max_work=None) == 4


def _distinct_plan(g, name, induced=False):
    return static_plan(as_pattern(_pattern(name)), g, induced=induced, distinct=True)


GRAPHS = {
    "gnm": lambda: nx.gnm_random_graph(60, 300, seed=4),
    "ba": lambda: nx.barabasi_albert_graph(120, 3, seed=2),
    "digraph": lambda: nx.gnm_random_graph(40, 200, seed=5, directed=True),
}
PATTERNS = {
    False: ["triangle", "4-cycle", "diamond", "house", "P3", "P5", "4-star", "5-cycle"],
    True: ["directed-3-cycle", "feed-forward-loop", "directed-2-path"],
}


@pytest.mark.parametrize("gname", sorted(GRAPHS))
@pytest.mark.parametrize("induced", [False, True])
@pytest.mark.parametrize("distinct", [False, True])
def test_level_bounds_bound_every_level(gname, induced, distinct):
    """The bound of each level is at least its partial matches, counted exactly with the
    prefix plans (and the last level's at least the count)."""
    G = GRAPHS[gname]()
    g = as_static_graph(G)
    eng = select_engine("cpu", "static")
    for name in PATTERNS[G.is_directed()]:
        plan = static_plan(as_pattern(_pattern(name)), g, induced=induced, distinct=distinct)
        bounds = level_bounds(g, plan)
        assert len(bounds) == plan.k and all(type(b) is int for b in bounds)
        roots = np.flatnonzero(plan.root_ok)
        owners = len(np.unique(np.searchsorted(g.indptr, roots, side="right") - 1))
        real = [owners, len(roots)] + [
            eng.count(g, prefix_plan(plan, m)) for m in range(3, plan.k + 1)
        ]
        assert bounds[:2] == tuple(real[:2])
        assert all(b >= r for b, r in zip(bounds, real, strict=True)), (name, bounds, real)
        assert work_bound(g, plan) == sum(bounds[: walk_levels(plan)])


def test_bound_is_a_python_int_past_64_bits():
    g = as_static_graph(nx.complete_graph(300))
    plan = _distinct_plan(g, nx.complete_graph(20))
    bounds = level_bounds(g, plan)
    assert bounds[-1] > 2**63 and type(bounds[-1]) is int
    assert bounds[-1] <= math.perm(300, 20)  # no better than the falling factorial allows
    assert work_bound(g, plan) > 2**63


@pytest.mark.parametrize(
    "G, pattern, kw",
    [
        (nx.karate_club_graph(), "4-cycle", {}),
        (nx.karate_club_graph(), "house", {"induced": True}),
        (nx.karate_club_graph(), "diamond", {"count": "subgraphs"}),
        (nx.gnm_random_graph(40, 200, seed=5, directed=True), "feed-forward-loop", {}),
        (nx.path_graph(5), nx.path_graph(2), {}),  # 2-node pattern: read off the root mask
        (nx.path_graph(5), nx.empty_graph(1), {}),  # 1-node pattern
    ],
)
def test_every_root_sampled_is_exact(G, pattern, kw, unhurried_estimates):
    est = ng.estimate(G, pattern, samples=10**6, **kw)
    real = ng.count_subgraphs(G, pattern, engine="cpu", **kw)
    assert est.exact and est.count == est.count_low == est.count_high == real
    assert est.samples == est.roots


def test_labels_reach_the_plan():
    G = nx.karate_club_graph()
    for v in G:
        G.nodes[v]["side"] = G.nodes[v]["club"]
    P = nx.cycle_graph(3)
    nx.set_node_attributes(P, "Mr. Hi", "side")
    est = ng.estimate(G, P, node_label="side", samples=10**6)
    assert est.count == ng.count_subgraphs(G, P, node_label="side", engine="cpu")


def test_same_seed_same_sample():
    g = as_static_graph(nx.barabasi_albert_graph(2000, 5, seed=1))
    a = ng.estimate(g, "diamond", samples=60, seed=7)
    b = ng.estimate(g, "diamond", samples=60, seed=7)
    assert a.count == b.count and a.samples == b.samples <= a.roots
    real = ng.count_subgraphs(g, "diamond", engine="cpu")
    assert real / 2 <= a.count <= 2 * real and not a.exact


def test_readable_and_checked():
    est = ng.estimate(nx.karate_club_graph(), "triangle")
    text = str(est)
    assert text.startswith("~270 mappings") and "exact" in text
    assert "partial matches (bound" in text and "on the CPU engine" in text
    with pytest.raises(QueryError, match="samples must be >= 1"):
        ng.estimate(nx.karate_club_graph(), "triangle", samples=0)
    with pytest.raises(QueryError, match="seed"):
        ng.estimate(nx.karate_club_graph(), "triangle", seed=-1)
    with pytest.raises(QueryError, match="count must be one of"):
        ng.estimate(nx.karate_club_graph(), "triangle", count="maps")
    with pytest.raises(QueryError, match="unknown pattern"):
        ng.estimate(nx.karate_club_graph(), "hexagon")
    with pytest.raises(QueryError, match="disconnected"):
        ng.estimate(nx.karate_club_graph(), nx.empty_graph(2))


# ---------------------------------------------------------------- max_seconds, progress ETA
@pytest.fixture(scope="module")
def k80():
    return _almost_complete(80)  # 5-cliques: C(80, 5) less the C(78, 3) holding 0 and 1


def test_max_seconds_refuses_on_the_cpu_prediction():
    g = _almost_complete(300)
    k8 = nx.complete_graph(8)
    ng.count_subgraphs(g, "triangle", engine="cpu")  # warm: kernels loaded
    t = time.perf_counter()
    with pytest.raises(WorkLimitError) as info:
        ng.count_subgraphs(g, k8, max_seconds=60, engine="cpu")
    assert time.perf_counter() - t < 2.0
    err = info.value
    assert err.estimate.seconds > 60 and err.estimate.count > 2**63
    msg = str(err)
    assert msg.startswith("estimated ~") and "on the CPU engine (" in msg
    assert "> max_seconds=60 (the CPU engine's predicted time, whatever the engine)" in msg
    assert ng.WorkLimitError is WorkLimitError  # exported at the package root


def test_max_seconds_admits_what_fits(k80):
    want = (math.comb(80, 5) - math.comb(78, 3)) * 120
    assert ng.count_subgraphs(k80, "5-clique", max_seconds=600, engine="cpu") == want
    assert ng.count_subgraphs(k80, "5-clique", max_seconds=math.inf, engine="cpu") == want
    with pytest.raises(WorkLimitError, match=r"> max_seconds=0 ") as info:
        ng.count_subgraphs(k80, "5-clique", max_seconds=0, engine="cpu", max_work=10**9)
    assert info.value.estimate.seconds > 0 and info.value.estimate.work < 10**9


def test_max_seconds_is_checked():
    for bad in (-1, -0.5, math.nan, "10", True, [1]):
        with pytest.raises(QueryError, match="max_seconds"):
            ng.count_subgraphs(nx.path_graph(4), "wedge", max_seconds=bad)
    assert ng.count_subgraphs(nx.path_graph(4), "wedge", max_seconds=None) == 4
    assert ng.count_subgraphs(nx.path_graph(4), "wedge", max_seconds=5) == 4


def test_progress_prints_the_predicted_time(k80, capsys):
    pytest.importorskip("tqdm")
    from nx_gpumine.execution.estimate import ETA_MIN_BOUND, eta_wanted

    plan = _distinct_plan(k80, "5-clique")
    assert eta_wanted(k80, plan) and work_bound(k80, plan) > ETA_MIN_BOUND
    capsys.readouterr()
    got = ng.count_subgraphs(k80, "5-clique", count="subgraphs", progress=True, engine="cpu")
    assert got == math.comb(80, 5) - math.comb(78, 3)
    err = capsys.readouterr().err
    eta = [line for line in err.splitlines() if line.startswith("nx_gpumine: estimated ~")]
    assert len(eta) == 1 and eta[0].endswith(" partial matches)"), err
    assert "on the CPU engine (" in eta[0]
    assert err.index("nx_gpumine: estimated") < err.index("(count)")  # before the bar
    # small counts: no estimate, the bar alone
    small = as_static_graph(nx.complete_graph(10))
    assert not eta_wanted(small, _distinct_plan(small, "triangle"))
    ng.count_subgraphs(small, "triangle", progress=True, engine="cpu")
    assert "estimated" not in capsys.readouterr().err
    # without progress, nothing
    ng.count_subgraphs(k80, "5-clique", engine="cpu")
    assert "estimated" not in capsys.readouterr().err
