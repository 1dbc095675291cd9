"""GPU tests of the out-of-core paths (issue 12): a tiny ``max_device_bytes`` forces them on
small graphs, and every answer must equal the in-memory run (and the CPU engine).

Static: host-resident CSR (managed memory with hot blocks on the device, and pinned zero-copy),
root chunks, the trie and DFS strategies, labelled and directed graphs, a 10,000-leaf hub;
enumeration and existence. Temporal: time partitions streamed through pinned buffers with the
copy overlapping compute, motifs with ties, hubs, gaps, labels and anti-edges, enumeration
rows and order, existence, limits. Budgets too small for either path raise CapacityError.
"""

from __future__ import annotations

import logging

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.engines.cpu import static as cpu_static
from nx_gpumine.engines.cpu import temporal as cpu_temporal
from nx_gpumine.errors import CapacityError, EngineUnavailableError
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import AntiEdge, TemporalMotif, named_motif
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_arrays, from_networkx
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.static_plan import build_static_plan
from nx_gpumine.plan.temporal_plan import build_temporal_plan

pytestmark = pytest.mark.gpu

SMALL = 8 << 20  # far below the in-memory need (work buffers alone take more)


@pytest.fixture(scope="module")
def gs():
    from nx_gpumine.engines.cuda import static

    return static


@pytest.fixture(scope="module")
def gt():
    from nx_gpumine.engines.cuda import temporal

    return temporal


@pytest.fixture(scope="module")
def hub_graph():
    """A hub with 10,000 leaves, leaves paired and on a sparse ring (triangles at the hub)."""
    n = 10000
    src = [np.zeros(n, dtype=np.int64), np.arange(1, n + 1, 2)]
    dst = [np.arange(1, n + 1), np.arange(2, n + 2, 2)]
    ring = np.arange(1, n + 1, 7)
    s = np.concatenate([*src, ring[:-1]])
    d = np.concatenate([*dst, ring[1:]])
    return from_arrays(s, d, num_nodes=n + 1, duplicates="drop")


@pytest.fixture(scope="module")
def rand_graph():
    return from_networkx(nx.gnm_random_graph(400, 6000, seed=7))


def _plan(graph, name, distinct=False):
    return build_static_plan(as_pattern(name), graph, induced=False, distinct=distinct)


def _rows(a):
    return sorted(map(tuple, np.asarray(a).tolist()))


@pytest.mark.parametrize("placement", ["managed", "pinned"])
@pytest.mark.parametrize("name", ["triangle", "diamond", "4-cycle", "4-clique", "house"])
def test_static_counts_equal_in_memory(gs, hub_graph, rand_graph, name, placement):
    for G in (hub_graph, rand_graph):
        plan = _plan(G, name)
        want = gs.count(G, plan)
        for strategy in ("auto", "dfs", "trie"):
            got = gs.count(G, plan, strategy=strategy, max_device_bytes=SMALL, placement=placement)
            assert got == want, (name, strategy)
            assert gs.last_run["out_of_core"] and gs.last_run["placement"] == placement
        if G is hub_graph:
            assert gs.last_run["chunks"] > 1  # the root range ran in chunks
        assert want == cpu_static.count(G, plan)


def test_static_hot_blocks_on_device(gs, hub_graph):
    from nx_gpumine.engines.cuda import static_build

    hub_graph.forget_derived("cuda_static_graph_ooc")
    plan = _plan(hub_graph, "diamond", distinct=True)
    want = gs.count(hub_graph, plan)
    with static_build.tuned(hot_block_entries=1024):  # part of the host copy's key
        got = gs.count(hub_graph, plan, max_device_bytes=16 << 20, placement="managed")
        assert gs.last_run["hot_device_bytes"] > 0
    assert got == want
    hub_graph.forget_derived("cuda_static_graph_ooc")


def test_static_enumerate_and_exists(gs, hub_graph, rand_graph):
    for G, name in ((hub_graph, "triangle"), (rand_graph, "diamond"), (rand_graph, "house")):
        plan = _plan(G, name)
        want = _rows(gs.enumerate_matches(G, plan))
        got = gs.enumerate_matches(G, plan, max_device_bytes=SMALL, buffer_rows=512)
        assert _rows(got) == want and gs.last_run["out_of_core"]
        lim = gs.enumerate_matches(G, plan, limit=100, max_device_bytes=SMALL)
        assert len(lim) == 100 and set(map(tuple, lim.tolist())) <= set(want)
        assert gs.exists(G, plan, max_device_bytes=SMALL)
    G = from_networkx(nx.complete_bipartite_graph(40, 40))
    assert not gs.exists(G, _plan(G, "triangle"), max_device_bytes=SMALL)


def test_static_labelled_directed(gs):
    rng = np.random.default_rng(3)
    s, d = rng.integers(0, 300, 6000), rng.integers(0, 300, 6000)
    keep = s != d
    G = from_arrays(
        s[keep],
        d[keep],
        directed=True,
        num_nodes=300,
        node_labels=rng.integers(0, 2, 300),
        edge_labels=rng.integers(0, 2, int(keep.sum())),
        duplicates="drop",
    )
    P = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3)])
    for v in P:
        P.nodes[v]["label"] = v % 2
    for e in P.edges:
        P.edges[e]["label"] = 1
    pat = as_pattern(P, node_label="label", edge_label="label")
    for induced in (False, True):
        plan = build_static_plan(pat, G, induced=induced, distinct=False)
        want = gs.count(G, plan)
        assert gs.count(G, plan, max_device_bytes=SMALL) == want == cpu_static.count(G, plan)
        rows = gs.enumerate_matches(G, plan, max_device_bytes=SMALL)
        assert _rows(rows) == _rows(gs.enumerate_matches(G, plan))


def test_static_public_api_and_log(hub_graph, caplog):
    want = ng.count_subgraphs(hub_graph, "diamond", engine="cuda")
    with caplog.at_level(logging.INFO, logger="nx_gpumine"):
        got = ng.count_subgraphs(hub_graph, "diamond", engine="cuda", max_device_bytes=SMALL)
    assert got == want
    assert "out of core" in caplog.text
    with ng.device_budget(SMALL):
        assert ng.has_subgraph(hub_graph, "triangle", engine="cuda")
        assert len(ng.find_subgraphs(hub_graph, "triangle", engine="cuda", limit=7)) == 7


def test_static_capacity_errors(gs, hub_graph):
    plan = _plan(hub_graph, "triangle")
    with pytest.raises(CapacityError, match="at least"):
        gs.count(hub_graph, plan, max_device_bytes=64 << 10)
    with pytest.raises(EngineUnavailableError, match="shape"):
        gs.count(hub_graph, _plan(hub_graph, "4-clique", True), strategy="shape",
                 max_device_bytes=SMALL)  # fmt: skip


# ---------------------------------------------------------------------------- temporal
@pytest.fixture(scope="module")
def skewed():
    return skewed_temporal_graph(n=5000, m=200_000, seed=3)


@pytest.fixture(scope="module")
def tied_hub():
    """Background traffic, then a burst in which a hub sends 20,000 messages in one hour (many
    equal times): the hub partition's windows are long and full of ties."""
    rng = np.random.default_rng(11)
    k, bg = 20_000, 50_000
    t0 = 10**6
    src = np.concatenate([rng.integers(1, 3000, bg), np.zeros(k, np.int64)])
    dst = np.concatenate([rng.integers(1, 3000, bg), rng.integers(1, 3000, k)])
    time = np.concatenate([rng.integers(0, t0, bg), t0 + rng.integers(0, 600, k)])
    return temporal_from_arrays(src, dst, time, nodes=range(3000))


def _tbudget(gt, graph, plan, edges, enum=False):
    """A budget under which a streamed partition holds at most ``edges`` edges (the engine's
    own arithmetic, :func:`memory.temporal_edge_budget`, solved the other way; with ``enum``,
    for enumeration, which keeps a quarter of the budget for output blocks)."""
    from nx_gpumine.engines.cuda import memory
    from nx_gpumine.engines.cuda.temporal_stream import lanes_estimate

    lanes = lanes_estimate()
    labels = graph.edge_label is not None or graph.node_label is not None
    l = int(plan.l)
    for tail in (False, True):  # tail-dump buffers only where the engine keeps them
        kw = dict(l=l, lanes=lanes, tail=tail)
        base = memory.temporal_need(graph.n, 0, node_labels=labels, **kw)["total"]
        one = memory.temporal_need(graph.n, 1, edge_labels=labels, node_labels=labels, slots=2,
                                   **kw)["total"]  # fmt: skip
        budget = base + memory.temporal_need(graph.n, 0, **kw)["vertex"]
        budget += (one - base) * edges
        if enum:
            budget = -(-budget * 4 // 3) + 4
        eff = budget * 3 // 4 if enum else budget
        if memory.stream_tail(eff, l=l, lanes=lanes) == tail:
            break
    assert memory.temporal_edge_budget(eff, n=graph.n, labels=labels, l=l, lanes=lanes) == edges
    return budget


def _edges(g, parts):
    """Edges per partition: ``m / parts``, but at least the 20,000-message burst of the hub."""
    return max(g.m // parts, 25_000)


TEMPORAL = [
    ("M1", 600, "strict"),
    ("M4", 3600, "strict"),
    ("M8", 3600, "input_order"),
    ("triangle", 3600, "input_order"),
    ("01 10 01", 600, "strict"),
]


@pytest.mark.parametrize("name,delta,tie", TEMPORAL)
def test_temporal_streamed_equals_in_memory(gt, skewed, tied_hub, name, delta, tie):
    for g in (skewed, tied_hub):
        plan = build_temporal_plan(named_motif(name, delta, tie=tie), g)
        want = gt.count(g, plan)
        budget = _tbudget(gt, g, plan, _edges(g, 9))
        assert gt.count(g, plan, max_device_bytes=budget) == want
        assert gt.last_run["out_of_core"] and gt.last_run["partitions"] >= g.m // _edges(g, 9)
        assert want == cpu_temporal.count(g, plan)
        m = g.m
        sub = gt.count(g, plan, m // 3, m // 2, max_device_bytes=budget)
        assert sub == gt.count(g, plan, m // 3, m // 2)
        assert gt.exists(g, plan, max_device_bytes=budget) == (want > 0)


@pytest.mark.parametrize("name,delta,tie", TEMPORAL[:3])
def test_temporal_streamed_enumeration(gt, skewed, tied_hub, name, delta, tie):
    for g in (skewed, tied_hub):
        plan = build_temporal_plan(named_motif(name, delta, tie=tie), g)
        want = gt.enumerate_matches(g, plan)
        budget = _tbudget(gt, g, plan, _edges(g, 6), enum=True)
        got = gt.enumerate_matches(g, plan, max_device_bytes=budget)
        assert np.array_equal(got, want)  # same rows, same (lexicographic) order
        assert gt.last_run["out_of_core"]
        if len(want) > 10:
            lim = gt.enumerate_matches(g, plan, limit=10, max_device_bytes=budget)
            assert len(lim) == 10 and set(map(tuple, lim.tolist())) <= set(
                map(tuple, want.tolist())
            )


def test_temporal_gaps_labels_anti_edges(gt, skewed):
    rng = np.random.default_rng(5)
    g = temporal_from_arrays(
        skewed.src.astype(np.int64),
        skewed.dst.astype(np.int64),
        skewed.time,
        nodes=range(skewed.n),
        edge_label=rng.integers(0, 3, skewed.m).tolist(),
        node_labels=rng.integers(0, 2, skewed.n).tolist(),
    )
    motifs = [
        TemporalMotif(
            [(0, 1), (1, 2), (2, 3), (3, 0)],
            delta=7200,
            gaps=[900, 1800, 900],
            anti_edges=[AntiEdge(2, 0, 1, 1800)],
            node_labels={0: 1},
            edge_labels={1: 2},
        ),
        TemporalMotif([(0, 1), (1, 2), (0, 2)], gaps=[600, 600], edge_labels={0: 0, 2: 1}),
    ]
    for motif in motifs:
        plan = build_temporal_plan(motif, g)
        want = cpu_temporal.enumerate_matches(g, plan)
        assert len(want) > 0
        budget = _tbudget(gt, g, plan, g.m // 8)
        assert gt.count(g, plan, max_device_bytes=budget) == len(want)
        assert gt.last_run["partitions"] >= 8
        budget = _tbudget(gt, g, plan, g.m // 8, enum=True)
        assert np.array_equal(gt.enumerate_matches(g, plan, max_device_bytes=budget), want)
        assert gt.last_run["partitions"] >= 8


def test_temporal_public_api_and_errors(gt, skewed, caplog):
    plan = build_temporal_plan(named_motif("M4", 3600), skewed)
    budget = _tbudget(gt, skewed, plan, skewed.m // 5, enum=True)
    want = ng.count_motifs(skewed, "M4", delta=3600, engine="cuda")
    with caplog.at_level(logging.INFO, logger="nx_gpumine"):
        got = ng.count_motifs(skewed, "M4", delta=3600, engine="cuda", max_device_bytes=budget)
    assert got == want and "out of core" in caplog.text
    rows = ng.find_motifs(skewed, "M4", delta=3600, engine="cuda", output="edge_ids",
                          max_device_bytes=budget)  # fmt: skip
    assert len(rows) == want
    # no window: one root's reach is the rest of the stream, which cannot fit
    unbounded = build_temporal_plan(TemporalMotif([(0, 1), (1, 2)]), skewed)
    with pytest.raises(CapacityError, match="time reach"):
        gt.count(skewed, unbounded, max_device_bytes=budget)
    # a budget below the per-vertex arrays of one partition cannot stream at all
    with pytest.raises(CapacityError, match="device memory"):
        gt.count(skewed, plan, max_device_bytes=4096)


def test_graph_built_on_device_streams_past_capacity(gt, skewed, monkeypatch):
    """A graph built on the device from CuPy columns, with no budget set, whose need exceeds
    the device's capacity (made small here), is streamed, not run in memory: the arrays it was
    built from give way to the partitions (10^9 edges on one H200 once ran out of memory
    building its lists in memory). One that fits stays in memory with its arrays."""
    import cupy as cp

    from nx_gpumine.engines.cuda import temporal_stream

    cols = {"source": cp.asarray(skewed.src), "target": cp.asarray(skewed.dst),
            "time": cp.asarray(skewed.time)}  # fmt: skip
    plan_of = lambda g: build_temporal_plan(named_motif("M4", 3600), g)  # noqa: E731
    want = cpu_temporal.count(skewed, plan_of(skewed))

    fits = ng.TemporalGraph.from_edgelist(cols, source="source", target="target", time="time")
    assert fits.built_on_device
    assert gt.count(fits, plan_of(fits)) == want
    assert fits.built_on_device and not gt.last_run.get("partitions")

    big = ng.TemporalGraph.from_edgelist(cols, source="source", target="target", time="time")
    assert big.built_on_device
    plan = plan_of(big)
    capacity = _tbudget(gt, big, plan, big.m // 4)
    monkeypatch.setattr(temporal_stream, "resolve_budget", lambda b, free, total: (capacity, False))
    assert gt.count(big, plan) == want
    assert gt.last_run["partitions"] >= 4
    assert not big.built_on_device  # dropped; the host mirror streams
    assert gt.count(big, plan) == want  # and again, from the host mirror


@pytest.mark.parametrize("deltas", [[600, 3600], [3600]], ids=["two-windows", "one-window"])
def test_motif_table_past_the_budget_streams_once(gt, skewed, deltas):
    """A motif table past the budget streams the partitions once for all its motifs and
    windows (each partition copied and indexed once), and equals the in-memory calls; also a
    table of one window (no narrower one to bin: it once prepared no walk at all)."""
    motifs = ["M1", "M4", "M7"]
    plan = build_temporal_plan(named_motif("M4", 3600), skewed)
    budget = _tbudget(gt, skewed, plan, skewed.m // 5)
    got = ng.motif_counts(skewed, motifs, deltas, engine="cuda", max_device_bytes=budget)
    assert gt.last_run["out_of_core"] and gt.last_run["plans"] == len(motifs)
    assert gt.last_run["partitions"] >= 5
    for m in motifs:
        for d in deltas:
            assert got.loc[m, d] == ng.count_motifs(skewed, m, delta=d, engine="cuda"), (m, d)


# ---------------------------------------------------------------------------- the cap holds
@pytest.fixture
def pool_peak():
    """Peak bytes the CuPy pool hands out while the test runs, above what was in use before."""
    import cupy as cp

    pool = cp.get_default_memory_pool()
    state = {"base": pool.used_bytes(), "peak": pool.used_bytes()}

    def malloc(size):
        mp = pool.malloc(size)
        state["peak"] = max(state["peak"], pool.used_bytes())
        return mp

    cp.cuda.set_allocator(malloc)
    yield state
    cp.cuda.set_allocator(pool.malloc)


def test_static_device_allocations_stay_under_budget(gs, rand_graph, pool_peak):
    plan = _plan(rand_graph, "house", distinct=True)
    want = cpu_static.count(rand_graph, plan)
    assert gs.count(rand_graph, plan, max_device_bytes=SMALL) == want
    used = pool_peak["peak"] - pool_peak["base"] + gs.last_run["hot_device_bytes"]
    assert used <= SMALL, (used, SMALL, dict(gs.last_run))


@pytest.fixture(scope="module")
def wide():
    """200,000 edges over a million vertices: per-vertex scratch of the partitions' device
    builds (row pointers) dominates; CuPy's bincount once took 2.2 GB there, over any budget."""
    rng = np.random.default_rng(4)
    n, m = 1_000_000, 200_000
    t = np.sort(rng.integers(0, 10**6, m))
    return temporal_from_arrays(rng.integers(0, n, m), rng.integers(0, n, m), t, nodes=range(n))


@pytest.mark.parametrize("graph_name", ["skewed", "wide"])
def test_temporal_device_allocations_stay_under_budget(gt, graph_name, request, pool_peak):
    graph = request.getfixturevalue(graph_name)
    plan = build_temporal_plan(named_motif("M4", 3600), graph)
    budget = _tbudget(gt, graph, plan, graph.m // 6)
    want = cpu_temporal.count(graph, plan)
    assert gt.count(graph, plan, max_device_bytes=budget) == want
    assert gt.last_run["partitions"] >= 6
    used = pool_peak["peak"] - pool_peak["base"]
    assert used <= budget, (used, budget, dict(gt.last_run))


def test_streamed_motif_table_allocations_stay_under_budget(gt, skewed, pool_peak):
    """A streamed table walks every motif on each partition: each motif's work buffers go back
    to the pool before the next one's walk, so the table stays within one motif's budget."""
    motifs, deltas = ["M1", "M4", "M7", "M13"], [600, 3600]
    plan = build_temporal_plan(named_motif("M13", 3600), skewed)
    budget = _tbudget(gt, skewed, plan, skewed.m // 5)
    got = ng.motif_counts(skewed, motifs, deltas, engine="cuda", max_device_bytes=budget)
    stats = dict(gt.last_run)
    assert stats["out_of_core"] and stats["plans"] == len(motifs)
    used = pool_peak["peak"] - pool_peak["base"]
    assert used <= budget, (used, budget, stats)
    want = ng.motif_counts(skewed, motifs, deltas, engine="cpu")
    assert got.equals(want)


# ---------------------------------------------------------------------------- with devices=
def test_budget_with_virtual_devices(gs, gt, skewed, hub_graph):
    """``max_device_bytes`` with ``devices=`` (issues 11 and 12): the budget reaches every
    worker thread; slices over it are streamed through their device; the static out-of-core
    path runs on virtual slots of one device (one host copy)."""
    plan = build_temporal_plan(named_motif("M4", 3600), skewed)
    budget = _tbudget(gt, skewed, plan, skewed.m // 20, enum=True)
    want = ng.count_motifs(skewed, "M4", delta=3600, engine="cuda")
    kw = dict(delta=3600, engine="cuda", devices=[0, 0], max_device_bytes=budget)
    assert ng.count_motifs(skewed, "M4", **kw) == want
    rows = ng.find_motifs(skewed, "M4", delta=3600, engine="cuda", output="edge_ids")
    assert np.array_equal(ng.find_motifs(skewed, "M4", output="edge_ids", **kw), rows)
    assert ng.has_motif(skewed, "M4", **kw) == (want > 0)
    want = ng.count_subgraphs(hub_graph, "diamond", engine="cuda")
    kw = dict(engine="cuda", devices=[0, 0], max_device_bytes=SMALL)
    assert ng.count_subgraphs(hub_graph, "diamond", **kw) == want
    assert gs.last_run.get("out_of_core")
    hub_graph.forget_derived("cuda_static_graph_ooc")


def test_static_out_of_core_refused_on_distinct_devices(rand_graph, monkeypatch):
    import cupy as cp

    from nx_gpumine.execution.executors import devices as mg

    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two or more visible GPUs")
    want = ng.count_subgraphs(rand_graph, "house", engine="cpu")
    kw = dict(engine="cuda", devices=[0, 1], max_device_bytes=SMALL)
    # a query the placement keeps on one device runs out of core there
    assert ng.count_subgraphs(rand_graph, "house", **kw) == want
    assert mg.last_run["whole"] is True
    rand_graph.forget_derived("cuda_static_graph_ooc")
    split = dict(split=True, source="test", seconds=None, work=None)
    monkeypatch.setattr(mg, "placement", lambda job, slots: split)
    with pytest.raises(CapacityError, match="one GPU only"):  # split: refused
        ng.count_subgraphs(rand_graph, "house", **kw)
    assert ng.count_subgraphs(rand_graph, "house", engine="cuda", devices=[0, 1]) == want
