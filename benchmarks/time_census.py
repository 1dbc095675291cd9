"""Time one subgraph census call on a benchmark graph (a long cell that a repeated bench would
not fit in a device call, e.g. the CPU engine's 5-node census of pl10m).

usage: python3 benchmarks/time_census.py OUT GRAPH K [--engine cpu] [--warmup GRAPH]

``--warmup`` first runs the same census on another (small) graph, so that the timed call does
not include numba's or NVRTC's compile. Writes ``OUT/census_GRAPH_K_ENGINE.json`` (graph
source, load time, call seconds, counts).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_static_peers import load_graph  # noqa: E402

import nx_gpumine as ng  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("graph")
    ap.add_argument("k", type=int)
    ap.add_argument("--engine", default="cpu")
    ap.add_argument("--warmup", default="", help="a graph to run the census on first")
    args = ap.parse_args()
    row: dict = {"graph": args.graph, "k": args.k, "engine": args.engine,
                 "host": platform.node()}  # fmt: skip
    if args.warmup:
        g, _ = load_graph(args.warmup)
        t0 = time.perf_counter()
        ng.subgraph_census(g, args.k, engine=args.engine)
        row["warmup"] = {"graph": args.warmup, "seconds": time.perf_counter() - t0}
        print(f"warm-up on {args.warmup}: {row['warmup']['seconds']:.2f} s", flush=True)
    g, info = load_graph(args.graph)
    row.update(info, nodes=g.n, edges=g.num_edges)
    t0 = time.perf_counter()
    counts = ng.subgraph_census(g, args.k, engine=args.engine)
    row["seconds"] = time.perf_counter() - t0
    row["counts"] = {str(p): int(c) for p, c in counts.items()}
    row["total"] = sum(row["counts"].values())
    print(f"{args.graph} k={args.k} {args.engine}: {row['seconds']:.2f} s, total {row['total']:,}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"census_{args.graph}_{args.k}_{args.engine}.json"
    path.write_text(json.dumps(row, indent=1))


if __name__ == "__main__":
    main()
