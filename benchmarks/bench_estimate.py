"""The estimates of docs/static.md ("Estimates and work limits"): ``nx_gpumine.estimate`` on
ego-Facebook and the power-law graph pl1m (``bench_common.POWERLAW``: 200k nodes, 1M edges)
for the triangle, the 4-cycle and T-DFS's P1-P7 (mappings), against the exact counts of
``benchmarks/results/issue37_38_2026-11-27/static_peers.md`` (GPU engine, equal to G2Miner's
and T-DFS's).

usage: python3 benchmarks/bench_estimate.py [--graphs facebook,pl1m] [--seeds 1] [--run-cpu]

Prints estimate / exact, the interval, the estimate's time and its predicted CPU time per
seed, then per graph and pattern a summary over the seeds (min / max ratio, how often the
interval held the exact count, the slowest estimate). ``--run-cpu`` also times the CPU
engine's count (minutes for P3-P5 on Facebook; far longer on pl1m).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import POWERLAW, T_DFS_EDGES, facebook_edges  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402

EXACT = {
    "facebook": {
        "triangle": 9_672_060, "4-cycle": 1_152_184_424, "P1": 915_148_200, "P2": 720_112_032,
        "P3": 87_052_612_908, "P4": 100_380_910_164, "P5": 83_769_562_880,
        "P6": 72_294_201_696, "P7": 62_155_818_120,
    },
    "pl1m": {
        "triangle": 4_135_332, "4-cycle": 661_580_376, "P1": 197_727_828, "P2": 47_543_088,
        "P3": 4_444_259_836, "P4": 7_913_424_488, "P5": 2_852_679_952,
        "P6": 1_491_468_072, "P7": 742_735_320,
    },
}  # fmt: skip


def load(name: str):
    """The named graph as a StaticGraph (Facebook's bundled edge list, or a power-law graph)."""
    if name == "facebook":
        a, b, n = facebook_edges()
    else:
        n = POWERLAW[name][0]
        a, b = generate(*POWERLAW[name])
    return from_arrays(a, b, num_nodes=n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default="facebook", help="comma-separated: facebook,pl1m")
    ap.add_argument("--patterns", default=",".join(EXACT["facebook"]))
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--run-cpu", action="store_true")
    args = ap.parse_args()
    rows = []
    for gname in args.graphs.split(","):
        t = time.perf_counter()
        g = load(gname)
        print(f"{gname}: {g.n:,} nodes, {g.num_edges:,} edges, max degree {g.max_degree:,} "
              f"(loaded in {time.perf_counter() - t:.1f} s)", flush=True)  # fmt: skip
        ng.estimate(g, "triangle")  # warm-up (numba)
        for name in args.patterns.split(","):
            exact = EXACT[gname][name]
            pattern = nx.Graph(T_DFS_EDGES[name]) if name in T_DFS_EDGES else name
            runs = []
            for seed in range(args.seeds):
                t = time.perf_counter()
                est = ng.estimate(g, pattern, seed=seed)
                took = time.perf_counter() - t
                runs.append((est, took))
                line = (f"{gname:8s} {name:8s} seed {seed}: estimate/exact "
                        f"{est.count / exact:5.2f}  interval {est.count_low / exact:.2f}-"
                        f"{est.count_high / exact:.2f}  took {took:.2f} s  predicted CPU "
                        f"{est.seconds:.3g} s  samples {est.samples}/{est.roots}"
                        f"{'  extrapolated' if est.extrapolated else ''}")  # fmt: skip
                if args.run_cpu and seed == 0:
                    t = time.perf_counter()
                    assert ng.count_subgraphs(g, pattern, engine="cpu") == exact
                    line += f"  CPU run {time.perf_counter() - t:.3g} s"
                print(line, flush=True)
            rows.append((gname, name, exact, runs))
    print(f"\nseed 0, and over seeds 0-{args.seeds - 1}:\n")
    print("| graph | pattern | exact | estimate | ratio | interval / exact | took | predicted "
          "| ratio min-max | interval held | slowest |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: |")
    for gname, name, exact, runs in rows:
        est, took = runs[0]
        ratios = [e.count / exact for e, _ in runs]
        held = sum(e.count_low <= exact <= e.count_high for e, _ in runs)
        flag = "" if 0.5 <= min(ratios) and max(ratios) <= 2.0 else " OUTSIDE 2x"
        print(f"| {gname} | {name} | {exact:,} | {est.count:.3g} | {ratios[0]:.2f} | "
              f"{est.count_low / exact:.2f}-{est.count_high / exact:.2f} | {took:.2f} s | "
              f"{est.seconds:.2g} s | {min(ratios):.2f}-{max(ratios):.2f} | "
              f"{held}/{len(runs)} | {max(t for _, t in runs):.2f} s |{flag}")  # fmt: skip


if __name__ == "__main__":
    main()
