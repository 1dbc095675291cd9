"""Temporal motif counting on the GPU, side by side with Everest (issue: temporal speed).

usage: python3 benchmarks/bench_temporal_peers.py OUT_DIR [--graphs collegemsg,synth10m,sk10m]
       [--write-everest-graph sk10m:PATH] [--motifs M1,...,M13] [--deltas 3600,86400]

Runs the public call ``nx_gpumine.count_motifs(T, motif, delta=..., tie="input_order",
engine="cuda")`` on a prepared TemporalGraph (Everest counts with the input-order tie policy):
two warm-up calls, reported apart: the first compiles (NVRTC; the graph's upload, walk and pair
indexes are built before timing and reported apart too), the second captures the call's opening
launches as a CUDA graph (``second_call_ms``; the engine tuning's ``graphs``); then
``--repeat`` timed calls (default 3; the device script passes 7), medians of: the engine's
kernel time (CUDA events over every launch of the call) and the whole call (host clock).
Everest's processing times and counts are read from OUT_DIR/everest.tsv (``graph motif delta
count us``, written by the peer kit in the same device call) when present.

Graphs: CollegeMsg (bundled, SNAP); synth10m = the Everest kit's ``gen_temporal.py --seed 1``
(regenerated identically by benchmarks/gen_temporal.py); sk10m =
``skewed_temporal_graph(n=1_000_000, m=10_000_000, seed=7, mean_gap=30)`` (bursty, max degree
~98K; ``--write-everest-graph sk10m:PATH`` writes it as Everest's text input first); dense10m =
``gen_temporal.py --edges 10000000 --nodes 100000 --seed 1`` (the same edges on 10 times fewer
nodes: mean degree 200, the heavier graph of issue 32; ``--graphs ...,dense10m``).
Writes OUT_DIR/temporal_peers.json (after every cell) and OUT_DIR/temporal_peers.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_temporal import generate as gen_temporal  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cuda import _runtime  # noqa: E402
from nx_gpumine.engines.cuda import temporal as gpu  # noqa: E402
from nx_gpumine.inputs.generators import skewed_temporal_graph  # noqa: E402
from nx_gpumine.inputs.motifs import named_motif  # noqa: E402
from nx_gpumine.inputs.temporal_graph import load_collegemsg, temporal_from_arrays  # noqa: E402

MOTIFS = [f"M{i}" for i in range(1, 14)]
EVEREST_NAME = {
    "collegemsg": "CollegeMsg",
    "synth10m": "synth10m",
    "sk10m": "sk10m",
    "dense10m": "dense10m",
}


def load(name: str):
    t = time.perf_counter()
    if name == "collegemsg":
        g = load_collegemsg()
        src = "nx_gpumine/data/collegemsg.txt (SNAP CollegeMsg)"
    elif name == "synth10m":
        s, d, tt = gen_temporal(seed=1)
        g = temporal_from_arrays(s, d, tt, nodes=range(1_000_000))
        src = "gen_temporal.py --seed 1 (Everest kit: 10M edges, 1M nodes)"
    elif name == "dense10m":  # issue 32: denser (10 times fewer nodes, the same edges)
        s, d, tt = gen_temporal(edges=10_000_000, nodes=100_000, seed=1)
        g = temporal_from_arrays(s, d, tt, nodes=range(100_000))
        src = "gen_temporal.py --edges 10000000 --nodes 100000 --seed 1"
    elif name == "sk10m":
        g = skewed_temporal_graph(n=1_000_000, m=10_000_000, seed=7, mean_gap=30)
        src = "skewed_temporal_graph(n=1_000_000, m=10_000_000, seed=7, mean_gap=30)"
    else:
        raise SystemExit(f"unknown graph {name}")
    return g, {"source": src, "build_s": time.perf_counter() - t}


def write_everest(g, path: str) -> None:
    """Everest's text input: `src dst t` per line, time order, integer ids and times."""
    arr = np.stack([g.src.astype(np.int64), g.dst.astype(np.int64), g.time.astype(np.int64)], 1)
    if arr[:, 2].max() >= 2**31:
        raise SystemExit("Everest stores times as int32")
    try:
        import pandas as pd

        pd.DataFrame(arr).to_csv(path, sep=" ", header=False, index=False)
    except ImportError:
        np.savetxt(path, arr, fmt="%d")


def read_everest(out: Path) -> dict:
    res = {}
    p = out / "everest.tsv"
    if p.exists():
        with p.open() as f:
            for row in csv.reader(f, delimiter="\t"):
                if len(row) == 5 and row[3].isdigit():
                    res[(row[0], row[1], int(row[2]))] = (int(row[3]), float(row[4]) / 1e3)
    return res


def time_call(T, motif: str, delta: int, repeat: int = 3) -> dict:
    t = time.perf_counter()
    c0 = ng.count_motifs(T, motif, delta=delta, tie="input_order", engine="cuda")
    first = time.perf_counter() - t
    compile_s = float(gpu.last_run.get("compile_seconds", 0.0))
    t = time.perf_counter()
    c1 = ng.count_motifs(T, motif, delta=delta, tie="input_order", engine="cuda")
    second_ms = 1e3 * (time.perf_counter() - t)  # captures the launches' CUDA graph
    if c1 != c0:
        raise RuntimeError(f"count changed between calls: {c0} then {c1}")
    walls, kms = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        c = ng.count_motifs(T, motif, delta=delta, tie="input_order", engine="cuda")
        walls.append(1e3 * (time.perf_counter() - t))
        kms.append(float(gpu.last_run.get("kernel_ms", 0.0)))
        if c != c0:
            raise RuntimeError(f"count changed between calls: {c0} then {c}")
    stats = {k: v for k, v in gpu.last_run.items() if isinstance(v, int | float | str)}
    return {
        "count": c0,
        "kernel_ms": float(np.median(kms)),
        "kernel_ms_all": kms,
        "wall_ms": float(np.median(walls)),
        "wall_ms_all": walls,
        "host_ms": float(np.median(np.subtract(walls, kms))),  # per call: whole call - kernel
        "first_call_s": first,
        "second_call_ms": second_ms,
        "compile_s": compile_s,
        "stats": stats,
    }


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="collegemsg,synth10m,sk10m")
    ap.add_argument("--motifs", default=",".join(MOTIFS))
    ap.add_argument("--deltas", default="3600,86400")
    ap.add_argument("--write-everest-graph", default="")
    ap.add_argument("--deadline", type=float, default=400.0)
    ap.add_argument("--repeat", type=int, default=3, help="timed calls per cell (median)")
    args = ap.parse_args()
    t_start = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.write_everest_graph:
        name, path = args.write_everest_graph.split(":", 1)
        g, _ = load(name)
        write_everest(g, path)
        print(f"wrote {name} for Everest to {path} ({g.m} edges)", flush=True)
        return
    machine = {
        "device": _runtime.device_info(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    everest = read_everest(out)
    rows: list[dict] = []
    graphs: dict = {}
    for gname in args.graphs.split(","):
        if time.perf_counter() - t_start > args.deadline:
            print(f"deadline: {gname} skipped", flush=True)
            continue
        T, info = load(gname)
        t = time.perf_counter()
        gpu.upload(T)
        info["upload_s"] = time.perf_counter() - t
        info.update(m=int(T.m), n=int(T.n))
        graphs[gname] = info
        print(f"== {gname}: {info}", flush=True)
        for delta in (int(x) for x in args.deltas.split(",")):
            for motif in args.motifs.split(","):
                if time.perf_counter() - t_start > args.deadline:
                    continue
                named_motif(motif, delta)  # validates the name
                try:
                    r = time_call(T, motif, delta, args.repeat)
                except Exception as exc:  # recorded; the rest of the run still reports
                    rows.append(
                        {"graph": gname, "motif": motif, "delta": delta, "error": repr(exc)}
                    )
                    print(f"{gname} {motif} {delta}: FAILED {exc!r}", flush=True)
                    continue
                row = {"graph": gname, "motif": motif, "delta": delta, **r}
                ev = everest.get((EVEREST_NAME[gname], motif, delta))
                if ev:
                    row["everest_count"], row["everest_ms"] = ev
                    row["counts_equal"] = ev[0] == r["count"]
                    row["ratio_kernel"] = ev[1] / max(r["kernel_ms"], 1e-9)
                    row["ratio_call"] = ev[1] / max(r["wall_ms"], 1e-9)
                rows.append(row)
                (out / "temporal_peers.json").write_text(
                    json.dumps(
                        {"machine": machine, "graphs": graphs, "rows": rows}, indent=1, default=str
                    )
                )
                print(
                    f"{gname:10s} {motif:4s} d={delta:6d} count={r['count']:>14,d} "
                    f"kernel={r['kernel_ms']:9.3f}ms call={r['wall_ms']:9.3f}ms "
                    f"everest={row.get('everest_ms', float('nan')):9.3f}ms "
                    f"x{row.get('ratio_kernel', float('nan')):.2f}",
                    flush=True,
                )
        del T
    lines = [
        "| graph | delta | motif | matches | kernel ms | call ms | Everest ms | kernel ratio | "
        "call ratio | counts equal |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    summary = []
    for r in rows:
        if "error" in r:
            lines.append(
                f"| {r['graph']} | {r['delta']} | {r['motif']} | ERROR {r['error'][:60]} |"
            )
            continue
        lines.append(
            f"| {r['graph']} | {r['delta']} | {r['motif']} | {r['count']:,} | "
            f"{r['kernel_ms']:.3f} | {r['wall_ms']:.3f} | {r.get('everest_ms', '')} | "
            f"{r.get('ratio_kernel', float('nan')):.2f} | "
            f"{r.get('ratio_call', float('nan')):.2f} | {r.get('counts_equal', '')} |"
        )
    for gname in graphs:
        for delta in (int(x) for x in args.deltas.split(",")):
            cell = [
                r for r in rows if r["graph"] == gname and r["delta"] == delta and "error" not in r
            ]
            ks = [r["ratio_kernel"] for r in cell if "ratio_kernel" in r]
            cs = [r["ratio_call"] for r in cell if "ratio_call" in r]
            if ks:
                summary.append(
                    f"| {gname} | {delta} | {geomean(ks):.2f} | {min(ks):.2f} | "
                    f"{geomean(cs):.2f} | {min(cs):.2f} | "
                    f"{sum(1 for r in cell if r.get('counts_equal'))}/{len(ks)} |"
                )
    if summary:
        lines += [
            "",
            "| graph | delta | kernel ratio geomean | worst | call ratio geomean | worst | "
            "counts equal |",
            "|---|---:|---:|---:|---:|---:|---|",
            *summary,
        ]
    (out / "temporal_peers.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
