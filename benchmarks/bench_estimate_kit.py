"""The estimate against the count on STMatch's induced queries, CPU engine (issue 33).

usage: python3 benchmarks/bench_estimate_kit.py [--nodes 1000] [--queries Q1,Q2,...]
       [--kit .peers/stmatch]

For each query (``KIT/data/pattern/i.g``, induced, mappings) on facebook induced on nodes
``0 .. NODES-1``: ``ng.estimate`` (count, interval, predicted seconds), then the count
itself on the CPU engine, timed; prints one line per query with actual / predicted seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import networkx as nx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers" / "stmatch"))

import peer_io  # noqa: E402
from bench_stmatch_peers import graph_arrays  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--queries", default="Q1,Q2,Q3,Q4,Q5,Q6,Q7,Q8,Q10,Q11,Q13")
    ap.add_argument("--kit", type=Path, default=Path(".peers/stmatch"))
    a = ap.parse_args()
    src, dst, n, _ = graph_arrays(f"fb{a.nodes}")
    g = from_arrays(src, dst, num_nodes=n)
    for q in a.queries.split(","):
        _, edges, _ = peer_io.read_stmatch_pattern(a.kit / "data" / "pattern" / f"{q[1:]}.g")
        pattern = nx.Graph(edges)
        est = ng.estimate(g, pattern, induced=True)
        t0 = time.perf_counter()
        c = ng.count_subgraphs(g, pattern, induced=True, engine="cpu")
        dt = time.perf_counter() - t0
        print(
            f"{q} count {c} est {est.count:.3g} [{est.count_low:.3g},{est.count_high:.3g}] "
            f"secs est {est.seconds:.3f} actual {dt:.3f} ratio {dt / est.seconds:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
