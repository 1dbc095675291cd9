"""What a call placed on one device costs over the plain one-device call (issue 34's 0.2 ms).

usage (GPU machine with 2+ GPUs, repo root): ``python3 benchmarks/probe_placement_overhead.py
OUT_DIR [--motif M8] [--rounds 40]``

On synth10m (``gen_temporal.generate(10M edges, 1M nodes, seed 1)``, δ = 1 day, input_order)
the motif's count runs with ``devices=None`` and ``devices=2`` in turns (after warm-ups that
let the placement time both placements; it then keeps the query on one device). Reports both
medians and each path's cProfile (20 calls, by cumulative time) in OUT_DIR/placement_overhead.txt.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_temporal import generate as gen_temporal  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.execution.executors import devices as mg  # noqa: E402
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--motif", default="M8")
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    s, d, t = gen_temporal(edges=10_000_000, nodes=1_000_000, seed=1, device=True)
    g = temporal_from_arrays(s, d, t, nodes=range(1_000_000))
    calls = {
        dev: (
            lambda dev=dev: ng.count_motifs(
                g, args.motif, delta=86400, tie="input_order", engine="cuda", devices=dev
            )
        )
        for dev in (None, 2)
    }
    for fn in calls.values():
        for _ in range(5):
            fn()
    walls: dict = {k: [] for k in calls}
    for _ in range(args.rounds):
        for k, fn in calls.items():
            a = time.perf_counter()
            fn()
            walls[k].append(1e3 * (time.perf_counter() - a))
    lines = [f"{args.motif} synth10m, {args.rounds} rounds in turns; last placement {mg.last_run}"]
    for k, w in walls.items():
        lines.append(f"devices={k}: median {statistics.median(w):.3f} ms, min {min(w):.3f} ms")
    for k, fn in calls.items():
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(20):
            fn()
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(30)
        lines.append(f"==== devices={k}: cProfile of 20 calls\n{buf.getvalue()}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "placement_overhead.txt").write_text("\n".join(lines))
    print("\n".join(lines[:3]))


if __name__ == "__main__":
    main()
