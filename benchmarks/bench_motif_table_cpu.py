"""The motif table on the CPU engine (issue 32): ``motif_counts`` of M1..M13 at one hour and one
day against the 26 single ``count_motifs`` calls, on CollegeMsg.

usage: python3 benchmarks/bench_motif_table_cpu.py [--repeat 3] [--out results.json]

Each figure is the median of ``--repeat`` whole calls after one warm-up (numba compiles on the
first); every cell of the table must equal its single call.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

import numba

import nx_gpumine as ng
from nx_gpumine.inputs.temporal_graph import load_collegemsg

MOTIFS = [f"M{i}" for i in range(1, 14)]
DELTAS = [3600, 86400]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    g = load_collegemsg()

    def table():
        return ng.motif_counts(g, MOTIFS, DELTAS, engine="cpu")

    def singles():
        return [[ng.count_motifs(g, m, delta=d, engine="cpu") for d in DELTAS] for m in MOTIFS]

    table(), singles()  # warm-up: numba compiles
    tt, ts = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        frame = table()
        tt.append(time.perf_counter() - t)
        t = time.perf_counter()
        cells = singles()
        ts.append(time.perf_counter() - t)
    equal = frame.to_numpy().tolist() == cells
    report = {
        "graph": "CollegeMsg (SNAP, bundled)",
        "motifs": MOTIFS,
        "deltas": DELTAS,
        "table_s": statistics.median(tt),
        "singles_s": statistics.median(ts),
        "ratio": statistics.median(tt) / statistics.median(ts),
        "counts_equal": equal,
        "table": frame.to_numpy().tolist(),
        "threads": numba.get_num_threads(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
    }
    print(
        f"table {report['table_s']:.3f} s, 26 single calls {report['singles_s']:.3f} s, "
        f"ratio {report['ratio']:.2f}, counts equal: {equal} ({report['threads']} threads)"
    )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
