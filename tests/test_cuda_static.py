"""GPU tests of the CUDA static engine beyond the shared differential tests.

Every answer is compared with the numba CPU engine (itself checked against NetworkX and
igraph in other tests) or with closed forms; the rare paths are forced with tuning knobs:
tiny stack pages and page pool (paging, pool exhaustion and re-run), a vertex of degree far
above 4096, a tiny timeout and a tiny record buffer (straggler records, buffer full), the count
tail against the full walk, a tiny trie budget
(chunked cuTS trie, depths 2 and 3), and a tiny output buffer (enumeration resume) and limit.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines.cpu import static as cpu
from nx_gpumine.execution.static import run_static
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_arrays, from_networkx
from nx_gpumine.plan.static_plan import build_static_plan, distinct_sibling

pytestmark = pytest.mark.gpu

PATTERNS = ["triangle", "4-cycle", "diamond", "4-clique", "house", "5-clique", "tailed-triangle"]
T_DFS = {
    "P3": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3)],
    "P4": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 4), (3, 4)],
    "P5": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)],
    "P6": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (3, 4)],
}


@pytest.fixture(scope="module")
def gpu():
    from nx_gpumine.engines.cuda import static as gpu_static

    return gpu_static


@pytest.fixture(scope="module")
def rand_graph():
    G = nx.gnm_random_graph(300, 3000, seed=7)
    return from_networkx(G)


@pytest.fixture(scope="module")
def hub_graph():
    """A hub adjacent to N = 10000 leaves; leaves paired by a perfect matching and a sparse ring."""
    n = 10000
    src = [np.zeros(n, dtype=np.int64)]
    dst = [np.arange(1, n + 1)]
    src.append(np.arange(1, n + 1, 2))
    dst.append(np.arange(2, n + 2, 2))
    ring = np.arange(1, n + 1, 7)
    src.append(ring[:-1])
    dst.append(ring[1:])
    s, d = np.concatenate(src), np.concatenate(dst)
    return from_arrays(s, d, num_nodes=n + 1, duplicates="drop")


def _plan(graph, name, *, induced=False, distinct=False):
    return build_static_plan(as_pattern(name), graph, induced=induced, distinct=distinct)


def _rows(a):
    return sorted(map(tuple, np.asarray(a).tolist()))


@pytest.mark.parametrize("name", PATTERNS)
@pytest.mark.parametrize("induced", [False, True])
@pytest.mark.parametrize("distinct", [False, True])
def test_counts_all_paths_equal_cpu(gpu, rand_graph, name, induced, distinct):
    plan = _plan(rand_graph, name, induced=induced, distinct=distinct)
    want = cpu.count(rand_graph, plan)
    assert gpu.count(rand_graph, plan) == want
    assert gpu.count(rand_graph, plan, strategy="dfs") == want
    assert gpu.count(rand_graph, plan, strategy="dfs", tail=False) == want
    # execution's route: a mapping plan counted through its distinct sibling x |Aut(P)|
    assert run_static(rand_graph, plan, "count", engine="cuda") == want
    assert gpu.count(rand_graph, plan, strategy="trie") == want
    assert gpu.count(rand_graph, plan, strategy="trie", trie_depth=2, trie_budget=2000) == want
    assert gpu.exists(rand_graph, plan) == (want > 0)
    # a sub-range of root tasks
    m = len(rand_graph.indices)
    assert gpu.count(rand_graph, plan, m // 3, 2 * m // 3) == cpu.count(
        rand_graph, plan, m // 3, 2 * m // 3
    )


@pytest.mark.parametrize("name", ["triangle", "diamond", "house", "4-cycle"])
def test_enumerate_equal_cpu(gpu, rand_graph, name):
    plan = _plan(rand_graph, name, distinct=True)
    want = _rows(cpu.enumerate_matches(rand_graph, plan))
    got = gpu.enumerate_matches(rand_graph, plan)
    assert got.dtype == np.int64 and got.shape[1] == plan.k
    assert _rows(got) == want


def test_enumerate_small_buffer_resumes(gpu, rand_graph):
    plan = _plan(rand_graph, "diamond")
    want = _rows(cpu.enumerate_matches(rand_graph, plan))
    assert len(want) > 1000
    got = gpu.enumerate_matches(rand_graph, plan, buffer_rows=7, max_buffer_rows=50)
    assert gpu.last_run["rounds"] > 10
    assert _rows(got) == want  # nothing lost, nothing repeated


def test_enumerate_limit(gpu, rand_graph):
    plan = _plan(rand_graph, "4-cycle")
    full = set(_rows(cpu.enumerate_matches(rand_graph, plan)))
    for limit in (1, 13, 1000):
        got = gpu.enumerate_matches(rand_graph, plan, limit=limit, buffer_rows=5)
        rows = _rows(got)
        assert len(rows) == limit == len(set(rows))
        assert set(rows) <= full


def test_high_degree_exact(gpu, hub_graph):
    assert hub_graph.max_degree > 4096 * 2
    n = 10000
    tri = _plan(hub_graph, "triangle", distinct=True)
    ring_edges = len(np.arange(1, n + 1, 7)) - 1
    assert gpu.count(hub_graph, tri) == n // 2 + ring_edges  # hub + each leaf-leaf edge
    for name in ["4-path", "diamond", "tailed-triangle", "4-cycle"]:
        plan = _plan(hub_graph, name)
        want = cpu.count(hub_graph, plan)
        assert gpu.count(hub_graph, plan) == want, name
        assert gpu.count(hub_graph, plan, strategy="trie") == want, name


def test_paging_and_pool_regrowth(gpu, hub_graph, rand_graph):
    # 32-int pages and a 1-page pool: long levels span many pages and the pool runs dry
    for graph, name in [(hub_graph, "4-path"), (rand_graph, "house")]:
        plan = _plan(graph, name)
        want = cpu.count(graph, plan)
        # tail=False: every level is stored (4-path's tail would count from level 2)
        got = gpu.count(graph, plan, page_log=5, pool_pages=1, tail=False, strategy="dfs")
        assert got == want
        assert gpu.last_run["pool_retries"] >= 1
    plan = _plan(rand_graph, "diamond")
    want = _rows(cpu.enumerate_matches(rand_graph, plan))
    assert _rows(gpu.enumerate_matches(rand_graph, plan, page_log=5, pool_pages=1)) == want


def test_straggler_records_and_full_dump_buffer(gpu, hub_graph, rand_graph):
    for graph, name in [(hub_graph, "4-path"), (rand_graph, "5-clique"), (rand_graph, "house")]:
        plan = _plan(graph, name)
        want = cpu.count(graph, plan)
        kw = {"strategy": "dfs", "timeout_ms": 1e-4, "tail": False}
        assert gpu.count(graph, plan, **kw) == want, name
        if graph is hub_graph:  # tasks poll the clock every 16 steps: only long ones split
            assert gpu.last_run["records"] > 0 and gpu.last_run["rounds"] > 1
        # a buffer of 3 records: most dumps fail and warps keep the work; nothing is dropped
        assert gpu.count(graph, plan, dump_capacity=3, **kw) == want, name
        # with the count tail too (levels before the tail are split)
        assert gpu.count(graph, plan, strategy="dfs", timeout_ms=1e-4) == want, name


@pytest.mark.parametrize("heavy_single", [0, 1, 4])
def test_heavy_head_one_task_per_claim(gpu, hub_graph, rand_graph, heavy_single):
    """StaticTuning.heavy_single: the head of the heavy-first root list taken one task per
    claim (a grid's worth of claims or more: every root of these graphs), then chunks (0: all
    in chunks, the switch off; the default 64 runs in every other GPU test); the same counts
    whole, in parts, with stragglers split, and with the count tail."""
    from nx_gpumine.engines.cuda import static_build
    from nx_gpumine.inputs.patterns import Pattern

    cases = [(hub_graph, as_pattern("4-path")), (rand_graph, as_pattern("house"))]
    cases += [(rand_graph, Pattern.from_networkx(nx.Graph(T_DFS[k]))) for k in ("P3", "P6")]
    for graph, pattern in cases:
        plan = build_static_plan(pattern, graph, induced=False, distinct=True)
        want = cpu.count(graph, plan)
        with static_build.tuned(heavy_single=heavy_single):
            for kw in ({}, {"timeout_ms": 1e-4}, {"tail": False}):
                assert gpu.count(graph, plan, strategy="dfs", **kw) == want, (pattern, kw)
            parts = [gpu.count(graph, plan, strategy="dfs", part=(i, 3)) for i in range(3)]
            assert sum(parts) == want, pattern


def test_full_raw_reuse_counts_equal_the_cpu(gpu, rand_graph):
    """StaticTuning.full_raw_reuse (induced plans read an earlier level's set with the
    non-adjacency tests done) and StaticTuning.hoist_sets (a level reads the set the level
    before it built), each on (the default) and off: the DFS, the trie, with stragglers
    split, enumerated and in parts, equal to the CPU engine; STMatch's Q9, Q10, Q12, Q13 and
    5-node graphs."""
    from nx_gpumine.engines.cuda import static_build

    kit = [
        [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3), (0, 4), (1, 4), (0, 5), (1, 5)],  # Q9
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 5), (3, 4)],  # Q10
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (3, 4), (4, 5)],  # Q12
        [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (2, 5), (3, 4)],  # Q13
    ]
    pats = [nx.Graph(e) for e in kit] + [g for g in nx.graph_atlas_g()[1:]
            if g.number_of_nodes() == 5 and nx.is_connected(g)][:12]  # fmt: skip
    dense = from_networkx(nx.gnp_random_graph(60, 0.3, seed=11))
    for graph in (rand_graph, dense):
        for pat in pats:
            plan = build_static_plan(as_pattern(pat), graph, induced=True, distinct=True)
            want = cpu.count(graph, plan)
            for full, hoist in itertools.product((True, False), repeat=2):
                with static_build.tuned(full_raw_reuse=full, hoist_sets=hoist):
                    _full_raw_reuse_case(gpu, graph, plan, want, pat)


def _full_raw_reuse_case(gpu, graph, plan, want, pat):
    for kw in ({"strategy": "dfs"}, {"strategy": "trie"}, {"timeout_ms": 1e-4}):
        assert gpu.count(graph, plan, **kw) == want, (nx.to_dict_of_lists(pat), kw)
    parts = [gpu.count(graph, plan, strategy="dfs", part=(i, 3)) for i in range(3)]
    assert sum(parts) == want
    if want <= 20_000:
        rows = gpu.enumerate_matches(graph, plan)
        assert len(rows) == want and len({tuple(r) for r in rows}) == want


@pytest.mark.parametrize("name", ["diamond", "4-path", "4-star", "house", "P3", "P4", "P5", "P6"])
def test_count_tail_equals_full_walk(gpu, rand_graph, hub_graph, name):
    pat = as_pattern(nx.Graph(T_DFS[name])) if name in T_DFS else as_pattern(name)
    for graph in (rand_graph, hub_graph):
        for distinct in (False, True):
            plan = build_static_plan(pat, graph, induced=False, distinct=distinct)
            want = cpu.count(graph, plan)
            assert gpu.count(graph, plan, strategy="dfs") == want
            if not (name == "4-star" and graph is hub_graph):
                # the hub's 10^11-10^12 leaves of the 4-star took 105 s without the tail
                assert gpu.count(graph, plan, strategy="dfs", tail=False) == want
            assert gpu.count(graph, plan, strategy="dfs", timeout_ms=1e-4) == want


def test_star_tail_is_fast(gpu):
    import math

    G = from_networkx(nx.star_graph(40))
    plan = build_static_plan(as_pattern(nx.star_graph(30)), G, induced=False, distinct=True)
    assert gpu.count(G, plan) == math.comb(40, 30)  # 31 nodes: within the kernels' 32


def test_distinct_sibling_exact(gpu, rand_graph):
    # mappings = |Aut(P)| x distinct occurrences (execution's route, the plan layer's sibling);
    # the engine walks the plan it is given: the mapping plan, every mapping
    for name in ["4-cycle", "5-clique", "house"]:
        for induced in (False, True):
            plan = _plan(rand_graph, name, induced=induced)
            sibling = distinct_sibling(plan, rand_graph)
            assert sibling is not None and sibling.distinct
            want = cpu.count(rand_graph, plan)
            assert gpu.count(rand_graph, sibling) * plan.num_automorphisms == want
            assert run_static(rand_graph, plan, "count", engine="cuda") == want
            assert gpu.count(rand_graph, plan, strategy="dfs") == want
            assert gpu.count(rand_graph, plan) == want  # shape kernel where there is one


def test_small_plans_answered_by_execution(gpu, rand_graph):
    # 1- and 2-node plans never reach the engine; called directly it refuses them
    for pattern in (nx.Graph([(0, 1)]), nx.path_graph(1)):
        for distinct in (False, True):
            plan = build_static_plan(
                as_pattern(pattern), rand_graph, induced=False, distinct=distinct
            )
            for mode in ("count", "exists", "enumerate"):
                want = run_static(rand_graph, plan, mode, engine="cpu")
                got = run_static(rand_graph, plan, mode, engine="cuda")
                assert np.array_equal(got, want) if mode == "enumerate" else got == want
            with pytest.raises(ValueError, match="at least 3 nodes"):
                gpu.count(rand_graph, plan)


def test_directed_and_labelled_equal_cpu(gpu):
    rng = np.random.default_rng(3)
    s = rng.integers(0, 120, 1500)
    d = rng.integers(0, 120, 1500)
    keep = s != d
    G = from_arrays(
        s[keep],
        d[keep],
        directed=True,
        num_nodes=120,
        node_labels=rng.integers(0, 2, 120),
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
        for distinct in (False, True):
            plan = build_static_plan(pat, G, induced=induced, distinct=distinct)
            assert gpu.count(G, plan) == cpu.count(G, plan)
            assert _rows(gpu.enumerate_matches(G, plan)) == _rows(cpu.enumerate_matches(G, plan))


def test_exists_false_and_true(gpu):
    G = from_networkx(nx.complete_bipartite_graph(40, 40))
    assert not gpu.exists(G, _plan(G, "triangle"))
    assert gpu.exists(G, _plan(G, "4-cycle"))
    assert gpu.count(G, _plan(G, "5-clique")) == 0


def test_public_api_cuda_engine():
    import nx_gpumine as ng

    G = nx.karate_club_graph()
    gm = nx.algorithms.isomorphism.GraphMatcher(G, nx.cycle_graph(4))
    nxcount = sum(1 for _ in gm.subgraph_monomorphisms_iter())
    assert ng.count_subgraphs(G, "4-cycle", engine="cuda") == nxcount


def test_plan_and_graph_device_data_freed_after_calls(gpu):
    """Cached per-plan and per-graph device data (work buffers, task lists, arrays) go with
    the plan and the graph."""
    import gc
    import weakref

    import cupy

    def calls(graph):
        plan = _plan(graph, "4-cycle")
        want = cpu.count(graph, plan)
        assert gpu.count(graph, plan) == want
        assert len(gpu.enumerate_matches(graph, plan, limit=10)) == min(want, 10)
        return weakref.ref(graph), weakref.ref(plan)

    pool = cupy.get_default_memory_pool()
    calls(from_networkx(nx.gnm_random_graph(100, 400, seed=1)))  # module-wide state made once
    gc.collect()
    before = pool.used_bytes()
    refs = calls(from_networkx(nx.gnm_random_graph(3000, 30_000, seed=2)))
    gc.collect()
    assert [r() for r in refs] == [None, None]
    assert pool.used_bytes() == before
