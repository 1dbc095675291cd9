"""The estimates of docs/static.md ("Estimates and work limits"): ``nx_gpumine.estimate`` on
ego-Facebook for the triangle, the 4-cycle and T-DFS's P1-P7 (mappings), against the exact
counts of ``benchmarks/results/issue37_38_2026-11-27/static_peers.md`` (GPU engine, equal to
G2Miner's and T-DFS's).

usage: python3 benchmarks/bench_estimate.py [--seeds 1] [--run-cpu]

Prints estimate / exact, the interval, the estimate's time and its predicted CPU time;
``--run-cpu`` also times the CPU engine's count (minutes for P3-P5).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import T_DFS_EDGES  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs.static_graph import as_static_graph  # noqa: E402

DATA = Path(ng.__file__).resolve().parent / "data" / "facebook_combined.txt"
EXACT = {
    "triangle": 9_672_060, "4-cycle": 1_152_184_424, "P1": 915_148_200, "P2": 720_112_032,
    "P3": 87_052_612_908, "P4": 100_380_910_164, "P5": 83_769_562_880,
    "P6": 72_294_201_696, "P7": 62_155_818_120,
}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--run-cpu", action="store_true")
    args = ap.parse_args()
    g = as_static_graph(nx.read_edgelist(DATA, nodetype=int))
    ng.estimate(g, "triangle")  # warm-up (numba)
    for name, exact in EXACT.items():
        pattern = nx.Graph(T_DFS_EDGES[name]) if name in T_DFS_EDGES else name
        for seed in range(args.seeds):
            t = time.perf_counter()
            est = ng.estimate(g, pattern, seed=seed)
            took = time.perf_counter() - t
            line = (f"{name:8s} seed {seed}: estimate/exact {est.count / exact:5.2f}  interval "
                    f"{est.count_low / exact:.2f}-{est.count_high / exact:.2f}  took {took:.2f} s"
                    f"  predicted CPU {est.seconds:.3g} s")  # fmt: skip
            if args.run_cpu and seed == 0:
                t = time.perf_counter()
                assert ng.count_subgraphs(g, pattern, engine="cpu") == exact
                line += f"  CPU run {time.perf_counter() - t:.3g} s"
            print(line, flush=True)


if __name__ == "__main__":
    main()
