"""Frequent subgraph mining timings of docs/static.md ("Frequent subgraph mining").

usage: python3 benchmarks/bench_fsm.py [--engine cpu] [--max-edges 2] [--lower-bound]

Karate club with 3 node labels (node id mod 3), support 2, 3 edges; ego-Facebook with 8 node
labels drawn uniformly (numpy default_rng(0)), support 100, ``--max-edges`` edges. Prints the
pattern count and the wall time of each ``frequent_subgraphs`` call (after a warm-up call on a
small graph, so numba compile time is not counted).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import networkx as nx
import numpy as np

import nx_gpumine as ng

DATA = Path(ng.__file__).resolve().parent / "data" / "facebook_combined.txt"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="cpu")
    ap.add_argument("--max-edges", type=int, default=2)
    ap.add_argument("--lower-bound", action="store_true", help="exact_support=False")
    args = ap.parse_args()
    K = nx.karate_club_graph()
    nx.set_node_attributes(K, {v: v % 3 for v in K}, "label")
    ng.frequent_subgraphs(K, 2, max_edges=3, node_label="label", engine=args.engine)  # warm-up
    F = nx.read_edgelist(DATA, nodetype=int)
    labels = np.random.default_rng(0).integers(0, 8, F.number_of_nodes())
    nx.set_node_attributes(F, dict(zip(sorted(F), labels.tolist(), strict=True)), "label")
    cases = [("karate", K, 2, 3), ("facebook", F, 100, args.max_edges)]
    for name, G, support, edges in cases:
        t = time.perf_counter()
        exact = not args.lower_bound
        found = ng.frequent_subgraphs(G, support, max_edges=edges, node_label="label",
                                      engine=args.engine, exact_support=exact)  # fmt: skip
        print(f"{name:9s} support {support:4d} max_edges {edges}: {len(found):6,} patterns in "
              f"{time.perf_counter() - t:.2f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
