"""One temporal cell of the peer benchmark, timed alone (for A/Bs and profilers).

usage (GPU machine): python3 benchmarks/probe_temporal_cell.py GRAPH MOTIF DELTA [--repeat 21]

GRAPH is a graph of ``bench_temporal_peers.py`` (collegemsg, synth10m, dense10m, sk10m). Prints
one JSON line: the count, median kernel and whole-call ms over ``--repeat`` timed calls (after
the compiling call and the call that captures the launches' CUDA graph), and the engine's
launch statistics. Run it with an older package first on ``PYTHONPATH`` to compare the two, or
under ``ncu --kernel-name temporal_dfs`` to profile the cell's kernels.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import load, time_call  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("graph")
    ap.add_argument("motif")
    ap.add_argument("delta", type=int)
    ap.add_argument("--repeat", type=int, default=21)
    a = ap.parse_args()
    T, meta = load(a.graph)
    r = time_call(T, a.motif, a.delta, a.repeat)
    keep = ("count", "kernel_ms", "wall_ms", "host_ms", "compile_s", "stats")
    print(json.dumps({"cell": [a.graph, a.motif, a.delta], **meta, **{k: r[k] for k in keep}}))


if __name__ == "__main__":
    main()
