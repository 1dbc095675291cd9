"""Where the census's GPU time goes: each building block and each queried pattern of the
3- and 4-node census, timed alone (device events, after a warm-up), on the benchmark graphs.

usage: python3 benchmarks/probe_census.py OUT.json [--graphs pl1m,pl10m] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_static_peers import load_graph  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cuda import census, shapes  # noqa: E402


def _probes(g) -> dict:
    """``{name: fn}``: each fn runs one piece and returns its stats (``kernel_ms``)."""

    def blocks(names: set) -> dict:
        stats: dict = {}
        census.census_blocks(g, names, stats)
        return stats

    def shape(fn, *args) -> dict:
        stats: dict = {}
        fn(g, *args, stats)
        return stats

    out = {f"block {b}": (lambda b=b: blocks({b})) for b in ("stars2", "stars3", "paths3")}
    out["block triangles"] = lambda: blocks({"triangles"})
    out["block books2+tailed+triangles"] = lambda: blocks({"books2", "tailed", "triangles"})
    out["count_clique 3"] = lambda: shape(shapes.count_clique, 3)
    out["count_clique 4"] = lambda: shape(shapes.count_clique, 4)
    out["count_cycle4"] = lambda: shape(shapes.count_cycle4)
    out["triangle_support"] = lambda: shape(shapes.triangle_support)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="pl1m,pl10m")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    result = {}
    for gname in args.graphs.split(","):
        g, _ = load_graph(gname)
        rows = {}
        probes = _probes(g)
        for name, fn in probes.items():
            fn()  # warm-up (compile, cached lists)
            kms, walls = [], []
            for _ in range(args.repeat):
                t = time.perf_counter()
                st = fn()
                walls.append(1e3 * (time.perf_counter() - t))
                kms.append(float(st.get("kernel_ms", 0.0)))
            rows[name] = {"kernel_ms": float(np.median(kms)), "wall_ms": float(np.median(walls))}
            print(f"{gname:7s} {name:32s} kernel {rows[name]['kernel_ms']:9.3f} ms "
                  f"wall {rows[name]['wall_ms']:9.3f} ms", flush=True)  # fmt: skip
        for k in (3, 4):
            ng.subgraph_census(g, k, engine="cuda")
            from nx_gpumine.execution.subgraph_census import last_census

            ms = []
            for _ in range(args.repeat):
                ng.subgraph_census(g, k, engine="cuda")
                ms.append(last_census["kernel_ms"])
            rows[f"census k={k}"] = {"kernel_ms": float(np.median(ms))}
            print(f"{gname:7s} census k={k} kernel {np.median(ms):.3f} ms", flush=True)
        result[gname] = rows
    Path(args.out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
