"""CPU temporal engine benchmarks (pytest-benchmark), NetworkX in the same run.

Run (writes the pytest-benchmark JSON with machine info, stats and counts in ``extra_info``)::

    pytest benchmarks/bench_temporal_cpu.py --benchmark-enable \
        --benchmark-json=benchmarks/results/temporal_cpu_$(date +%F).json

1. CollegeMsg (bundled, 59,835 messages) as a NetworkX DiGraph (first message per ordered pair
   keeps its time): NetworkX's ``TimeRespectingDiGraphMatcher`` vs nx_gpumine's drop-in of the
   same name, feed-forward triangle ``0->1, 1->2, 0->2`` with delta = 3600 s (a directed cycle
   never matches under NetworkX's in-before-out rule). Same mappings, asserted.
2. The CPU temporal engine on the CollegeMsg multigraph: the ordered motif ``01 12 02`` with
   delta = 3600 s (Everest semantics: every message is an edge), and the 36-motif census.
3. The CPU temporal engine alone on a seeded ~1M-edge skewed-degree temporal graph
   (:func:`skewed_temporal_graph`), a 3-edge (temporal triangle ``01 12 20``) and a 4-edge
   (Everest M3 and M4, the temporal 4-cycle) motif at delta = 600 s and 3600 s: edges/s and matches.

Times are after a JIT warm-up (numba ``cache=True``); compile time is not in the numbers.
"""

from __future__ import annotations

import functools

import networkx as nx
import pytest
from networkx.algorithms import isomorphism as iso

from nx_gpumine.engines.cpu import temporal as cpu
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import named_motif
from nx_gpumine.inputs.temporal_graph import load_collegemsg
from nx_gpumine.interfaces.temporal_isomorphism import TimeRespectingDiGraphMatcher
from nx_gpumine.plan.temporal_plan import build_temporal_plan

NX_DELTA = 3600
FEED_FORWARD = [(0, 1), (1, 2), (0, 2)]


@functools.cache
def _college_digraph() -> nx.DiGraph:
    g = load_collegemsg()
    G = nx.DiGraph()
    for e in range(g.m):  # time order: the first message per ordered pair wins
        u, v, t = int(g.src[e]), int(g.dst[e]), int(g.time[e])
        if u != v and not G.has_edge(g.keys[u], g.keys[v]):
            G.add_edge(g.keys[u], g.keys[v], time=t)
    return G


@functools.cache
def _skewed():
    return skewed_temporal_graph()


def _mapset(it):
    return {tuple(sorted(m.items())) for m in it}


@pytest.fixture(scope="module")
def nx_reference():
    G = _college_digraph()
    P = nx.DiGraph(FEED_FORWARD)
    return _mapset(
        iso.TimeRespectingDiGraphMatcher(G, P, "time", NX_DELTA).subgraph_monomorphisms_iter()
    )


def test_networkx_time_respecting_matcher(benchmark, nx_reference):
    G = _college_digraph()
    P = nx.DiGraph(FEED_FORWARD)

    def run():
        gm = iso.TimeRespectingDiGraphMatcher(G, P, "time", NX_DELTA)
        return sum(1 for _ in gm.subgraph_monomorphisms_iter())

    c = benchmark.pedantic(run, rounds=1, iterations=1)
    assert c == len(nx_reference)
    benchmark.extra_info.update(
        {"graph": "collegemsg DiGraph", "edges": G.number_of_edges(), "matches": c}
    )


def test_dropin_time_respecting_matcher(benchmark, nx_reference):
    G = _college_digraph()
    P = nx.DiGraph(FEED_FORWARD)
    TimeRespectingDiGraphMatcher(G, P, "time", NX_DELTA).subgraph_is_monomorphic()  # warm-up

    def run():
        gm = TimeRespectingDiGraphMatcher(G, P, "time", NX_DELTA)
        return _mapset(gm.subgraph_monomorphisms_iter())

    got = benchmark.pedantic(run, rounds=3, iterations=1)
    assert got == nx_reference
    benchmark.extra_info.update(
        {"graph": "collegemsg DiGraph", "edges": G.number_of_edges(), "matches": len(got)}
    )


@pytest.mark.parametrize("what", ["01 12 02", "census"])
def test_engine_collegemsg(benchmark, what):
    g = load_collegemsg()
    if what == "census":
        cpu.census(g, NX_DELTA, "strict")

        def run():
            return int(cpu.census(g, NX_DELTA, "strict").sum())

    else:
        plan = build_temporal_plan(named_motif(what, delta=NX_DELTA), g)
        cpu.count(g, plan)

        def run():
            return cpu.count(g, plan)

    c = benchmark.pedantic(run, rounds=5, iterations=1)
    benchmark.extra_info.update(
        {
            "graph": "collegemsg multigraph",
            "edges": g.m,
            "delta": NX_DELTA,
            "motif": what,
            "matches": c,
            "edges_per_s": g.m / benchmark.stats.stats.median,
        }
    )


@pytest.mark.parametrize("delta", [600, 3600])
@pytest.mark.parametrize("motif", ["01 12 20", "M3", "M4"])
def test_engine_skewed_1m(benchmark, motif, delta):
    g = _skewed()
    plan = build_temporal_plan(named_motif(motif, delta=delta), g)
    cpu.count(g, plan)  # warm-up (JIT, caches)
    c = benchmark.pedantic(lambda: cpu.count(g, plan), rounds=3, iterations=1)
    med = benchmark.stats.stats.median
    benchmark.extra_info.update(
        {
            "graph": "skewed_temporal_graph(n=100000, m=1000000, gamma=2.3, seed=7)",
            "edges": g.m,
            "motif": motif,
            "delta": delta,
            "matches": c,
            "edges_per_s": g.m / med,
        }
    )
