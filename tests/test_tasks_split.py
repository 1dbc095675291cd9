"""Root-edge task splits: exact cover, and balance when long ranges are split on a sample."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.execution.tasks import split_root_range
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.inputs.static_graph import from_arrays
from nx_gpumine.plan.root_split import entry_costs, static_root_bounds
from nx_gpumine.plan.static_plan import build_static_plan


@pytest.fixture(scope="module")
def big():
    """A skewed graph of 1.2M CSR entries (long enough to be split on a sample)."""
    edges = np.array(nx.barabasi_albert_graph(100_000, 6, seed=5).edges(), dtype=np.int64)
    return from_arrays(edges[:, 0], edges[:, 1])


@pytest.mark.parametrize("ntasks", [1, 2, 7, 64, 1000])
@pytest.mark.parametrize("masked", [False, True])
def test_sampled_split_covers_and_balances(big, ntasks, masked):
    plan = build_static_plan(Pattern.named("4-clique"), big, induced=False, distinct=True)
    mask = plan.root_ok if masked else None
    tasks = split_root_range(big, ntasks, root_ok=mask)
    assert tasks[0][0] == 0 and tasks[-1][1] == len(big.indices)
    assert all(a < b for a, b in tasks)
    assert all(x[1] == y[0] for x, y in zip(tasks[:-1], tasks[1:], strict=True))
    assert len(tasks) == ntasks
    cum = np.concatenate([[0.0], np.cumsum(entry_costs(big, mask))])
    costs = np.array([cum[b] - cum[a] for a, b in tasks])
    if ntasks <= 64:  # a sample stands for 18 entries: tasks stay near the mean
        assert costs.max() <= 1.2 * costs.mean() and costs.min() >= 0.8 * costs.mean()


def test_sub_range_split(big):
    tasks = split_root_range(big, 5, lo=1000, hi=400_000)
    assert tasks[0][0] == 1000 and tasks[-1][1] == 400_000 and len(tasks) == 5


def test_entry_costs_at_positions_equal_the_full_costs(big):
    plan = build_static_plan(Pattern.named("4-clique"), big, induced=False, distinct=True)
    full = entry_costs(big, plan.root_ok)
    pos = np.array([0, 1, 17, 5000, len(big.indices) - 1], dtype=np.int64)
    assert np.array_equal(entry_costs(big, plan.root_ok, pos), full[pos])


@pytest.mark.parametrize("lo,hi", [(0, 3000), (1000, 400_000), (0, None)])
def test_cpu_engine_chunks_by_the_shared_rule(big, lo, hi):
    # the CPU static engine cuts numba's thread chunks with plan.root_split (the rule of the
    # task split): chunk bounds cover the range exactly, and a count over many chunks equals
    # the sum over tasks
    from nx_gpumine.engines.cpu import static as cpu

    hi = len(big.indices) if hi is None else hi
    plan = build_static_plan(Pattern.named("triangle"), big, induced=False, distinct=True)
    bounds = static_root_bounds(big, 256, plan.root_ok, lo, hi)
    assert bounds[0] == lo and bounds[-1] == hi and np.all(np.diff(bounds) > 0)
    parts = sum(cpu.count(big, plan, a, b) for a, b in split_root_range(big, 3, lo=lo, hi=hi))
    assert cpu.count(big, plan, lo, hi) == parts
    if (lo, hi) == (0, len(big.indices)):  # and NetworkX's triangles
        G = nx.Graph(zip(*big.edges(), strict=True))
        assert parts == sum(nx.triangles(G).values()) // 3
