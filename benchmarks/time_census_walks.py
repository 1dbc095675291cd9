"""Time the 5-node census's host walks (engines/cpu/census_walks.py) on a benchmark graph.

usage: python3 benchmarks/time_census_walks.py GRAPH   (facebook, pl1m, pl10m: bench_common)

Prints the graph's load time, the per-entry triangle count's time and the time and values of
three walks: the 2-path blocks without the 5-cycle trace, the trace alone, and the link
blocks (numba's threads: ``NUMBA_NUM_THREADS``; the first call of each compiles or loads the
cache).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_static_peers import load_graph  # noqa: E402

from nx_gpumine.engines.cpu.census_walks import walk_blocks  # noqa: E402
from nx_gpumine.engines.cpu.orbit_counts import edge_triangle_counts  # noqa: E402
from nx_gpumine.plan.graphlets import CYCLE_BLOCKS, LINK_BLOCKS  # noqa: E402


def main() -> None:
    name = sys.argv[1]
    t0 = time.perf_counter()
    g, _ = load_graph(name)
    print(f"{name}: load {time.perf_counter() - t0:.2f} s", flush=True)
    t0 = time.perf_counter()
    t = edge_triangle_counts(g.indptr, g.indices, check=False)
    print(f"triangles per entry {time.perf_counter() - t0:.2f} s", flush=True)
    walks = {"2-path blocks": CYCLE_BLOCKS - {"cycles5"}, "5-cycle trace": {"cycles5"},
             "link blocks": LINK_BLOCKS}  # fmt: skip
    for what, names in walks.items():
        t0 = time.perf_counter()
        got = walk_blocks(g.indptr, g.indices, t, names)
        print(f"{what}: {time.perf_counter() - t0:.2f} s {got}", flush=True)


if __name__ == "__main__":
    main()
