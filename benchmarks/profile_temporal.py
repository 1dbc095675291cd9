"""One temporal count under Nsight Compute (issue: temporal speed — where the time goes).

usage (GPU machine, repo root):
  ncu --profile-from-start off --set full -k regex:temporal_dfs -o OUT/temporal \\
      python3 benchmarks/profile_temporal.py --graph synth10m --motif M8 --delta 86400
  (or ``--cells M10:3600,M11:86400``: one profiled call per cell, in turn; ``--launch-count``
  caps the whole run, so leave it out there)

Loads the graph as ``bench_temporal_peers.py`` does, makes two warm-up calls (the first
compiles and builds the uploads and indexes, the second captures the launches' CUDA graph),
then profiles only the next call (``cudaProfilerStart``/``Stop`` around it), so the report
holds the kernels of one repeated call. Prints the count and the engine's stats.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import load  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cuda import _runtime  # noqa: E402
from nx_gpumine.engines.cuda import temporal as gpu  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", default="synth10m")
    ap.add_argument("--motif", default="M8")
    ap.add_argument("--delta", type=int, default=86400)
    ap.add_argument("--cells", default="", help="MOTIF:DELTA,... (instead of --motif/--delta)")
    args = ap.parse_args()
    cp = _runtime.import_cupy()
    g, info = load(args.graph)
    cells = (
        [c.split(":") for c in args.cells.split(",")] if args.cells else [(args.motif, args.delta)]
    )
    for motif, delta in cells:
        kw = {"delta": int(delta), "tie": "input_order", "engine": "cuda"}
        warm = ng.count_motifs(g, motif, **kw)
        if ng.count_motifs(g, motif, **kw) != warm:  # the second call captures the CUDA graph
            raise RuntimeError("count changed between calls")
        cp.cuda.Device().synchronize()
        cp.cuda.profiler.start()
        got = ng.count_motifs(g, motif, **kw)
        cp.cuda.Device().synchronize()
        cp.cuda.profiler.stop()
        stats = {k: v for k, v in gpu.last_run.items() if isinstance(v, int | float | str)}
        row = {"graph": args.graph, "motif": motif, "delta": int(delta), **info}
        print(json.dumps({**row, "count": got, "warm_count": warm, "stats": stats}), flush=True)


if __name__ == "__main__":
    main()
