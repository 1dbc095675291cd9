"""Building graphs of many edges (issue 32): the O(m) orders of ``inputs/csr_order.py`` against
the numpy sorts they replaced.

usage: python3 benchmarks/bench_graph_build.py [--kind temporal|temporal-arrays|static]
    [--edges 10000000] [--repeat 2] [--out F.json]

``temporal``: ``TemporalGraph.from_edgelist`` of a pyarrow table of the kit's synthetic temporal
graph (``gen_temporal.generate``, seed 1, one node per ten edges); ``new`` places each node's
lists by a counting sort past ``LINEAR_SORT_MIN`` edges, takes the next ids from the runs of
equal times and skips the time sort for edges in time order; ``old`` uses the stable argsorts
and ``searchsorted`` of before (set here, in this process). ``static``:
``from_arrays`` of the power-law graph (``powerlaw_graph.generate(m / 5, m, 2.3, 3000, 1)``);
``new`` radix-sorts the union CSR's entry keys, ``old`` uses ``np.sort``. ``temporal-arrays``:
``temporal_from_arrays(src, dst, time, nodes=range(n))`` of the same generator's arrays, the
benchmarks' path (node keys mapped by subtraction; one mode). numba is loaded before
timing (once per process: about a second). Each figure is one whole build call.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_temporal import generate  # noqa: E402
from powerlaw_graph import generate as powerlaw  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs import graph_base  # noqa: E402
from nx_gpumine.inputs import temporal_graph as tg  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", choices=("temporal", "temporal-arrays", "static"), default="temporal")
    ap.add_argument("--edges", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    m = args.edges
    k = graph_base.LINEAR_SORT_MIN + 5  # load numba before timing
    tg.temporal_from_arrays(np.arange(k) % 7, (np.arange(k) + 1) % 7, np.arange(k))
    if args.kind == "temporal":
        s, d, t = generate(edges=m, nodes=max(m // 10, 10), seed=1)
        table = pa.table({"source": s, "target": d, "time": t})
        del s, d, t
        source = "gen_temporal.generate(seed=1)"

        def build():
            return ng.TemporalGraph.from_edgelist(table)
    elif args.kind == "temporal-arrays":  # as the benchmarks build their graphs
        n = max(m // 10, 10)
        s, d, t = generate(edges=m, nodes=n, seed=1)
        source = f"gen_temporal.generate(edges={m}, nodes={n}, seed=1), nodes=range({n})"

        def build():
            return tg.temporal_from_arrays(s, d, t, nodes=range(n))
    else:
        n = max(m // 5, 10)
        a, b = powerlaw(n, m, 2.3, 3000, 1)
        source = f"powerlaw_graph.generate({n}, {m}, 2.3, 3000, 1)"

        def build():
            return from_arrays(a, b, num_nodes=n)

    report: dict = {"kind": args.kind, "edges": m, "source": source, "cpus": os.cpu_count()}
    for mode in ("new",) if args.kind == "temporal-arrays" else ("new", "old"):
        if mode == "old":
            graph_base.LINEAR_SORT_MIN = 1 << 62
            tg._next_ids = lambda x: np.searchsorted(x, x, side="right").astype(np.int64)
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            g = build()
            times.append(time.perf_counter() - t0)
        report[mode] = {"seconds": times, "graph": str(g)}
        print(f"{args.kind} {mode}: {m:,} edges, {[round(x, 2) for x in times]} s", flush=True)
    report["peak_rss_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
