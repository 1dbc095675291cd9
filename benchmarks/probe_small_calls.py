"""Where a small GPU call's time goes above its kernels (issue 31's k = 3 census: our whole
call 0.27 ms on facebook beside G2Miner's 0.15 ms, with a 0.04 ms kernel).

usage (repo root, GPU machine): python3 benchmarks/probe_small_calls.py OUT [--calls 300]

For facebook and pl1m: the median whole-call time of ``subgraph_census(g, 3)`` and of
``count_subgraphs(g, "triangle", count="subgraphs")`` on the CUDA engine (warm), the kernel time
the census reports, then a cProfile of ``--calls`` census calls (top 45 by own time and by
cumulative time) written to OUT/probe_small_calls.txt; medians to OUT/probe_small_calls.json.
With ``--temporal collegemsg,...`` also the motif table (issue 32): ``motif_counts`` of M1..M13
at 1 h and 1 day against the 26 single ``count_motifs`` calls (medians; every cell compared)
and a cProfile of ``--table-calls`` table calls.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from pathlib import Path

import numpy as np

#: The motif table's windows (1 h and 1 day, as issue 32 asks).
DELTAS = [3600, 86400]

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_static_peers import load_graph  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.execution.subgraph_census import last_census  # noqa: E402


def median_ms(fn, calls: int) -> float:
    t = []
    for _ in range(calls):
        a = time.perf_counter_ns()
        fn()
        t.append(time.perf_counter_ns() - a)
    return float(np.median(t)) / 1e6


def profile(text: io.StringIO, title: str, fn, calls: int) -> None:
    """``calls`` calls of ``fn`` under cProfile, top 45 by own and by cumulative time."""
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        fn()
    prof.disable()
    text.write(f"\n===== {title}\n")
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(45)
    pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(45)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--graphs", default="facebook,pl1m")
    ap.add_argument("--temporal", default="", help="temporal graphs for the motif table")
    ap.add_argument("--table-calls", type=int, default=20)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, text = [], io.StringIO()
    for name in filter(None, a.graphs.split(",")):
        g, _ = load_graph(name)

        def census(g=g):
            return ng.subgraph_census(g, 3, engine="cuda")

        def triangles(g=g):
            return ng.count_subgraphs(g, "triangle", count="subgraphs", engine="cuda")

        for _ in range(5):
            census()
            triangles()
        row = {
            "graph": name,
            "census3_ms": median_ms(census, a.calls),
            "census3_kernel_ms": float(last_census.get("kernel_ms", 0.0)),
            "triangle_ms": median_ms(triangles, a.calls),
        }
        rows.append(row)
        print(row, flush=True)
        profile(text, f"{name}: {a.calls} census calls, {row}", census, a.calls)
    for name in filter(None, a.temporal.split(",")):
        from bench_temporal_peers import MOTIFS, load

        tg, _ = load(name)

        def table(tg=tg):
            return ng.motif_counts(tg, MOTIFS, DELTAS, tie="input_order", engine="cuda")

        def singles(tg=tg):
            return [
                ng.count_motifs(tg, m, delta=d, tie="input_order", engine="cuda")
                for m in MOTIFS
                for d in DELTAS
            ]

        for _ in range(3):
            frame, cells = table(), singles()
        row = {
            "graph": name,
            "table_ms": median_ms(table, a.table_calls),
            "singles_ms": median_ms(singles, a.table_calls),
            "counts_equal": frame.to_numpy().ravel().tolist() == cells,  # row per motif
        }
        rows.append(row)
        print(row, flush=True)
        profile(text, f"{name}: {a.table_calls} motif-table calls, {row}", table, a.table_calls)
    (out / "probe_small_calls.json").write_text(json.dumps(rows, indent=1))
    (out / "probe_small_calls.txt").write_text(text.getvalue())


if __name__ == "__main__":
    main()
