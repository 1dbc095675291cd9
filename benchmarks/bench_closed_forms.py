"""The closed-form timings of docs/static.md ("Counting without enumerating"): whole
``count_subgraphs`` calls answered without an engine (stars, cliques in complete components),
and the cost of the clique test on graphs it rejects or accepts.

usage: python3 benchmarks/bench_closed_forms.py

Prints one line per case: the best of 3 wall times of the call on a graph built beforehand;
the NetworkX case and the clique tests are timed once, on their first call (the conversion,
or the test's answer, is then kept with the graph).
"""

from __future__ import annotations

import math
import time

import networkx as nx
import numpy as np

import nx_gpumine as ng
from nx_gpumine.execution.jobs.static import clique_closed_form
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_arrays
from nx_gpumine.plan.static_plan import static_plan


def best(fn, repeat: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    K300 = nx.complete_graph(300)
    # first call: the NetworkX graph's conversion included (later calls reuse it)
    s, got = best(lambda: ng.count_subgraphs(K300, nx.complete_graph(8), engine="cpu"), 1)
    assert got == math.perm(300, 8)
    print(f"K8 in K300 from NetworkX, mappings (300!/292!): {s:.3f} s")
    n = 2_500_000
    star = from_arrays(np.zeros(n, np.int64), np.arange(1, n + 1, dtype=np.int64), num_nodes=n + 1)
    s, got = best(lambda: ng.count_subgraphs(star, "4-star", engine="cpu"))
    assert got == math.perm(n, 3)
    print(f"3-leaf star mappings around a hub of degree 2.5M: {s:.3f} s")
    rng = np.random.default_rng(1)
    m = 10_000_000
    src, dst = rng.integers(0, 1_000_000, m), rng.integers(0, 1_000_000, m)
    keep = src != dst
    g = from_arrays(src[keep], dst[keep], num_nodes=1_000_000, duplicates="drop")
    plan = static_plan(as_pattern(nx.complete_graph(4)), g, induced=False, distinct=True)
    s, got = best(lambda: clique_closed_form(g, plan), repeat=1)  # first call: nothing kept yet
    print(
        f"clique test, random graph 1M nodes / {g.num_edges:,} edges (rejected: {got}): {s:.3f} s"
    )
    k, parts = 50, 20_000  # 1M nodes in K50s: 24.5M edges
    base = np.arange(parts, dtype=np.int64)[:, None] * k
    iu, ju = np.triu_indices(k, 1)
    g = from_arrays((base + iu).ravel(), (base + ju).ravel(), num_nodes=k * parts)
    plan = static_plan(as_pattern(nx.complete_graph(4)), g, induced=False, distinct=True)
    s, got = best(lambda: clique_closed_form(g, plan), repeat=1)
    assert got == parts * math.comb(k, 4)
    print(f"clique test, 1M nodes in K50s ({g.num_edges:,} edges, accepted): {s:.3f} s")


if __name__ == "__main__":
    main()
