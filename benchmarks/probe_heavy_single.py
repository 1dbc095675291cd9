"""The static benchmark's cells under several ``StaticTuning.heavy_single`` values, in turns.

usage (GPU machine, repo root): ``python3 benchmarks/probe_heavy_single.py OUT_DIR
[--graphs facebook,pl1m,pl10m] [--patterns triangle,4-cycle,P1,...,P7] [--values 0,4,16,64]
[--rounds 5]``

For each graph and pattern, the public call ``count_subgraphs(g, pattern, engine="cuda")`` under
each value of ``heavy_single`` (``nx_gpumine.engines.cuda.static_build.tuned``): one warm-up
call per value (its compile), then ``--rounds`` rounds, each timing one call per value in turn
(so machine drift falls on every value alike). Per cell and value: the median kernel ms (CUDA
events over the call's launches) and whole-call ms; every count must be equal. Writes
OUT_DIR/probe_heavy_single.json and prints a table (ratios to the first value).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_static_peers import PATTERNS, load_graph, pattern  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cuda import static as gpu  # noqa: E402
from nx_gpumine.engines.cuda.static_build import tuned  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="facebook,pl1m,pl10m")
    ap.add_argument("--patterns", default=",".join(PATTERNS))
    ap.add_argument("--values", default="0,4,16,64")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    values = [int(v) for v in args.values.split(",")]
    rows = []
    for gname in args.graphs.split(","):
        g, _ = load_graph(gname)
        for pname in args.patterns.split(","):
            pat = pattern(pname)
            counts: dict = {}
            kms: dict = {v: [] for v in values}
            walls: dict = {v: [] for v in values}
            for v in values:  # warm-up: compile each variant
                with tuned(heavy_single=v):
                    counts[v] = ng.count_subgraphs(g, pat, engine="cuda")
            for _ in range(args.rounds):
                for v in values:
                    with tuned(heavy_single=v):
                        t = time.perf_counter()
                        c = ng.count_subgraphs(g, pat, engine="cuda")
                        walls[v].append(1e3 * (time.perf_counter() - t))
                    kms[v].append(float(gpu.last_run.get("kernel_ms", 0.0)))
                    if c != counts[v]:
                        raise AssertionError(
                            f"{gname} {pname} heavy_single={v}: {c} != {counts[v]}"
                        )
            if len(set(counts.values())) != 1:
                raise AssertionError(f"{gname} {pname}: counts differ {counts}")
            row = {
                "graph": gname,
                "pattern": pname,
                "count": counts[values[0]],
                "kernel_ms": {v: float(np.median(kms[v])) for v in values},
                "wall_ms": {v: float(np.median(walls[v])) for v in values},
            }
            rows.append(row)
            base = row["kernel_ms"][values[0]]
            cells = "  ".join(
                f"{v}: {row['kernel_ms'][v]:9.3f} ({row['kernel_ms'][v] / max(base, 1e-9):.2f}x)"
                for v in values
            )
            print(f"{gname:9s} {pname:8s} kernel ms  {cells}", flush=True)
    geo = {
        v: float(
            np.exp(np.mean([np.log(r["kernel_ms"][v] / r["kernel_ms"][values[0]]) for r in rows]))
        )
        for v in values
    }
    print("geomean kernel ratio to", values[0], geo)
    (out / "probe_heavy_single.json").write_text(
        json.dumps(
            {"values": values, "rounds": args.rounds, "rows": rows, "geomean": geo}, indent=1
        )
    )


if __name__ == "__main__":
    main()
