"""Building a TemporalGraph from a pyarrow table (issue 32): the O(m) indexes against the sorts
they replaced, on the kit's synthetic temporal graph (``gen_temporal.generate``, seed 1, one node
per ten edges).

usage: python3 benchmarks/bench_temporal_build.py [--edges 10000000] [--repeat 2] [--out F.json]

``new``: the build as it is (counting sorts past ``COUNTING_SORT_EDGES`` edges, next ids from
runs of equal times, no time sort for edges in time order); ``old``: the same build with the
stable argsorts and ``searchsorted`` it used before (set here, in this process). numba is loaded
before timing (once per process: about a second). Each figure is a whole
``TemporalGraph.from_edgelist(table)`` call.
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

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs import temporal_graph as tg  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edges", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    m = args.edges
    s, d, t = generate(edges=m, nodes=max(m // 10, 10), seed=1)
    table = pa.table({"source": s, "target": d, "time": t})
    del s, d, t
    k = tg.COUNTING_SORT_EDGES + 5  # load numba before timing
    tg.temporal_from_arrays(np.arange(k) % 7, (np.arange(k) + 1) % 7, np.arange(k))
    report: dict = {
        "edges": m,
        "generator": "gen_temporal.generate(seed=1)",
        "cpus": os.cpu_count(),
    }
    for mode in ("new", "old"):
        if mode == "old":
            tg.COUNTING_SORT_EDGES = 1 << 62
            tg._next_ids = lambda x: np.searchsorted(x, x, side="right").astype(np.int64)
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            g = ng.TemporalGraph.from_edgelist(table)
            times.append(time.perf_counter() - t0)
        report[mode] = {"seconds": times, "graph": str(g)}
        print(f"{mode}: {m:,} edges, {[round(x, 2) for x in times]} s", flush=True)
    report["peak_rss_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
