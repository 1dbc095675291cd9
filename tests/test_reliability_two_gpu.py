"""Issue 38, item 5 on the CUDA engines: no cubic walk over parallel edges, exact size pruning.

* The census (and the count of a two-node or star census motif) on a graph whose parallel edges
  hold many triples takes the CPU engine's per-pair counts (``engines/cuda/temporal.py``:
  ``host_census``); the answers equal the CPU engine's and the closed form, in seconds where the
  GPU walk of every triple took hours.
* The static DFS and trie kernels cut each level's candidates by ``plan.size_needs``
  (``P_NEED``): counts, existence and listings equal those without the cut, and K30 in K32 is
  found fast.

The host-side rule (``pair_triples`` with NumPy) is tested without a GPU.
"""

from __future__ import annotations

import time

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.engines.cuda.temporal_build import pair_triples
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.static_plan import build_static_plan


def _parallel(m: int) -> object:
    """m parallel edges 0 -> 1 / 1 -> 0 (alternating, distinct times) and three others."""
    src = np.zeros(m, dtype=np.int64)
    dst = np.ones(m, dtype=np.int64)
    src[1::2], dst[1::2] = 1, 0
    t = np.arange(m, dtype=np.int64)
    return temporal_from_arrays(
        np.concatenate([src, [1, 2, 0]]),
        np.concatenate([dst, [2, 0, 3]]),
        np.concatenate([t, [m // 3, m // 2, 2 * m // 3]]),
    )


# ---------------------------------------------------------------- host side (no GPU)
def test_pair_triples_counts_triples_per_pair() -> None:
    rng = np.random.default_rng(7)
    src = rng.integers(0, 6, 300)
    dst = rng.integers(0, 6, 300)
    want = 0
    pairs: dict[frozenset, int] = {}
    for a, b in zip(src.tolist(), dst.tolist(), strict=True):
        if a != b:
            pairs[frozenset((a, b))] = pairs.get(frozenset((a, b)), 0) + 1
    want = sum(p * (p - 1) * (p - 2) // 6 for p in pairs.values())
    assert pair_triples(np, src.astype(np.int32), dst.astype(np.int32), 6) == want
    assert pair_triples(np, np.zeros(3, np.int32), np.zeros(3, np.int32), 1) == 0.0


# ---------------------------------------------------------------- GPU
@pytest.mark.gpu
def test_cuda_census_on_many_parallel_edges_is_fast_and_exact() -> None:
    from nx_gpumine.engines.cuda import temporal as cuda_temporal

    m = 200_000
    g = _parallel(m)
    assert cuda_temporal.host_census(g)
    start = time.perf_counter()
    got = ng.motif_census(g, None, engine="cuda")
    assert time.perf_counter() - start < 60
    assert cuda_temporal.last_run.get("host_census") is True
    two = sum(v for k, v in got.items() if "2" not in k)
    assert two == m * (m - 1) * (m - 2) // 6
    assert got == ng.motif_census(g, None, engine="cpu")
    for motif in ("01 10 01", "01 01 12", "01 12 01"):
        assert ng.count_motifs(g, motif, delta=m // 4, engine="cuda") == ng.count_motifs(
            g, motif, delta=m // 4, engine="cpu"
        )


@pytest.mark.gpu
def test_cuda_census_routes_by_parallel_triples() -> None:
    """A few parallel edges stay on the GPU kernel; its answer equals the CPU engine's."""
    from nx_gpumine.engines.cuda import temporal as cuda_temporal

    g = _parallel(40)
    assert not cuda_temporal.host_census(g)
    got = ng.motif_census(g, 10, engine="cuda")
    assert not cuda_temporal.last_run.get("host_census")
    assert got == ng.motif_census(g, 10, engine="cpu")
    # the same graph past the threshold (lowered): the host path, the same answer
    old = cuda_temporal.HOST_CENSUS_TRIPLES
    try:
        cuda_temporal.HOST_CENSUS_TRIPLES = 0.0
        assert ng.motif_census(g, 10, engine="cuda") == got
        assert cuda_temporal.last_run.get("host_census") is True
        # a triangle motif stays on the GPU
        got = ng.count_motifs(g, "01 12 20", delta=10, engine="cuda")
        assert not cuda_temporal.last_run.get("host_census")
        assert got == ng.count_motifs(g, "01 12 20", delta=10, engine="cpu")
    finally:
        cuda_temporal.HOST_CENSUS_TRIPLES = old


DENSE_PATTERNS = [
    nx.complete_graph(4),
    nx.complete_graph(5),
    nx.complete_graph(6),
    nx.complete_bipartite_graph(2, 3),
    nx.wheel_graph(5),
    nx.cycle_graph(5),
]


@pytest.mark.gpu
@pytest.mark.parametrize("pattern", DENSE_PATTERNS, ids=lambda p: f"{len(p)}n{p.size()}e")
@pytest.mark.parametrize("induced", [False, True])
def test_cuda_size_pruning_changes_no_answer(pattern, induced, monkeypatch) -> None:
    from nx_gpumine.engines.cpu import static as cpu_static
    from nx_gpumine.engines.cuda import static as cuda_static
    from nx_gpumine.engines.cuda import static_build

    graphs = [nx.complete_graph(11), nx.gnp_random_graph(16, 0.7, seed=len(pattern))]
    graphs.append(nx.gnp_random_graph(13, 0.8, seed=3, directed=True))
    for G in graphs:
        P = pattern.to_directed() if G.is_directed() else pattern
        g = as_static_graph(G)
        got = {}
        for prune in (True, False):
            if not prune:
                monkeypatch.setattr(
                    static_build, "size_needs", lambda plan: np.zeros(plan.k, dtype=np.int64)
                )
            plan = build_static_plan(as_pattern(P), g, induced=induced, distinct=True)
            rows = cuda_static.enumerate_matches(g, plan)
            got[prune] = (
                [cuda_static.count(g, plan, strategy=s) for s in ("dfs", "trie")],
                cuda_static.count(g, plan, strategy="dfs", tail=False),
                cuda_static.exists(g, plan),
                sorted(map(tuple, rows.tolist())),
            )
            monkeypatch.undo()
        assert got[True] == got[False]
        want = cpu_static.count(g, build_static_plan(as_pattern(P), g, induced=induced,
                                                     distinct=True))  # fmt: skip
        assert got[True][0] == [want, want] and got[True][1] == want == len(got[True][3])


@pytest.mark.gpu
def test_cuda_clique_in_clique_is_fast() -> None:
    """K30 in K32 (``count='subgraphs'``): 496; without the cut the walk over every ordered
    subset grows x4 per two pattern nodes."""
    start = time.perf_counter()
    got = ng.count_subgraphs(
        nx.complete_graph(32), nx.complete_graph(30), count="subgraphs", engine="cuda"
    )
    assert got == 496
    got = ng.find_subgraphs(
        nx.complete_graph(16), nx.complete_graph(14), distinct=True, engine="cuda"
    )
    assert len(got) == 120
    assert time.perf_counter() - start < 60
