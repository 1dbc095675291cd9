"""Where a repeated ``count_motifs`` call spends host time, function by function.

usage (GPU machine): python3 benchmarks/profile_host_ab.py OUT_DIR [--repeat 300]
       [--cells collegemsg:M1:86400,sk10m:M5:3600]

For each cell: three warm-up calls, ``--repeat`` timed calls (median whole-call ms), then the same
number under ``cProfile`` (``OUT_DIR/GRAPH_MOTIF_DELTA.prof.txt``: top functions by own time and
by cumulative time, with call counts per call). Run it with an older package first on
``PYTHONPATH`` to compare the two function by function (``ab_temporal.sh`` prepares one).
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import load  # noqa: E402

import nx_gpumine as ng  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--repeat", type=int, default=300)
    ap.add_argument("--cells", default="collegemsg:M1:86400,collegemsg:M13:3600,sk10m:M5:3600")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    graphs: dict = {}
    summary = []
    for cell in a.cells.split(","):
        g, motif, delta = cell.split(":")
        if g not in graphs:
            graphs[g] = load(g)[0]
        T = graphs[g]

        def call(T=T, motif=motif, delta=int(delta)):
            return ng.count_motifs(T, motif, delta=delta, tie="input_order", engine="cuda")

        for _ in range(3):
            call()
        walls = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            call()
            walls.append(1e3 * (time.perf_counter() - t0))
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(a.repeat):
            call()
        prof.disable()
        buf = io.StringIO()
        st = pstats.Stats(prof, stream=buf)
        st.sort_stats("tottime").print_stats(45)
        st.sort_stats("cumulative").print_stats(60)
        name = f"{g}_{motif}_{delta}"
        (out / f"{name}.prof.txt").write_text(buf.getvalue())
        row = {
            "cell": name,
            "median_ms": float(np.median(walls)),
            "p10_ms": float(np.percentile(walls, 10)),
        }
        summary.append(row)
        print(json.dumps(row), flush=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
