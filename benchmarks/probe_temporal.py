"""Switch probe for the CUDA temporal engine: kernel time with each switch on and off.

usage: python3 benchmarks/probe_temporal.py OUT_DIR [--cells synth10m:M8:86400,...]

For each cell (graph, Everest motif, delta; input-order ties as Everest counts), times
``engines.cuda.temporal.count`` with the default switches and with intra-warp stealing off,
tail redistribution off, and last-level counting off (medians of 3 kernel-event times after a
warm-up; every count must equal the default's). Writes OUT_DIR/temporal_probe.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import load  # noqa: E402

from nx_gpumine.engines.cuda import temporal as gpu  # noqa: E402
from nx_gpumine.interfaces.temporal_functions import _prepare  # noqa: E402

CELLS = (
    "synth10m:M8:86400,synth10m:M4:86400,synth10m:M11:86400,synth10m:M10:86400,"
    "sk10m:M10:3600,sk10m:M8:86400,sk10m:M7:86400"
)
VARIANTS = {
    "default": {},
    "no_steal": {"steal": False},
    "no_tail": {"tail_ms": 0.0},
    "no_count_last": {"count_last": False},
    "no_steal_no_tail": {"steal": False, "tail_ms": 0.0},
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cells", default=CELLS)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    graphs: dict = {}
    rows = []
    for cell in args.cells.split(","):
        gname, motif, delta = cell.split(":")
        if gname not in graphs:
            graphs.clear()
            graphs[gname] = load(gname)[0]
        graph, m, plan = _prepare(graphs[gname], motif, int(delta), "input_order", {})
        row: dict = {"graph": gname, "motif": motif, "delta": int(delta)}
        base = None
        for label, kw in VARIANTS.items():
            c = gpu.count(graph, plan, **kw)  # warm-up (compile)
            kms = []
            for _ in range(3):
                if gpu.count(graph, plan, **kw) != c:
                    raise RuntimeError("count changed between calls")
                kms.append(float(gpu.last_run.get("kernel_ms", 0.0)))
            base = c if base is None else base
            row[label] = {"kernel_ms": float(np.median(kms)), "count_equal": c == base}
        rows.append(row)
        print(json.dumps(row), flush=True)
        (out / "temporal_probe.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
