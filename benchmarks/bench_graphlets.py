"""The static subgraph census on the GPU and the CPU, side by side with G2Miner's motif apps.

usage: python3 benchmarks/bench_graphlets.py OUT_DIR [--graphs facebook,pl1m,pl10m]
       [--ks 3,4,5] [--k5-graphs facebook] [--engines cuda,cpu] [--cpu-graphs facebook]
       [--repeat 3]
       [--deadline SECONDS]

Times the public call ``nx_gpumine.subgraph_census(graph, k, engine=...)`` (induced counts of
every connected k-node pattern) on a prepared graph: a first call (compiling the kernels of each
pattern), then ``--repeat`` calls, whole-call wall time (what a user waits for; the census is
several engine calls). G2Miner's ``motif_gpu_base`` / ``motif_gpu_formula`` (k = 3, 4) are read
from OUT_DIR/g2miner_motif.tsv (``graph app k counts ms status``, written by
``device_graphlets_peers.sh`` in the same device call); their counts come in G2Miner's own
pattern order, so they are compared with ours as multisets (and totals). Writes
OUT_DIR/graphlets_peers.json and OUT_DIR/graphlets_peers.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_static_peers import load_graph  # noqa: E402

import nx_gpumine as ng  # noqa: E402


def read_g2miner(out: Path) -> dict:
    """``{(graph, k): (counts, best ms, app)}`` from g2miner_motif.tsv (the faster app)."""
    best: dict = {}
    p = out / "g2miner_motif.tsv"
    if not p.exists():
        return best
    with p.open() as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["status"] != "ok" or row["ms"] in ("NA", "") or row["counts"] in ("NA", ""):
                continue
            key = (row["graph"], int(row["k"]))
            counts = [int(c) for c in row["counts"].split(",")]
            ms = float(row["ms"])
            if key not in best or ms < best[key][1]:
                best[key] = (counts, ms, row["app"])
    return best


def time_census(g, k: int, engine: str, repeat: int) -> dict:
    t = time.perf_counter()
    first = ng.subgraph_census(g, k, engine=engine)
    first_s = time.perf_counter() - t
    walls = []
    for _ in range(repeat):
        t = time.perf_counter()
        again = ng.subgraph_census(g, k, engine=engine)
        walls.append(1e3 * (time.perf_counter() - t))
        assert again == first
    return {"counts": first, "first_s": first_s, "call_ms": float(np.median(walls)),
            "call_ms_all": walls}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="facebook,pl1m,pl10m")
    ap.add_argument("--ks", default="3,4,5")
    ap.add_argument("--k5-graphs", default="facebook", help="graphs that get k = 5")
    ap.add_argument("--engines", default="cuda,cpu")
    ap.add_argument("--cpu-graphs", default="facebook")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--deadline", type=float, default=540.0)
    args = ap.parse_args()
    out = Path(args.out)
    t_start = time.perf_counter()
    peers = read_g2miner(out)
    machine = {"python": platform.python_version(), "host": platform.node()}
    try:
        import cupy as cp

        machine["gpu"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    except Exception:  # no GPU: CPU rows only
        pass
    rows, graphs, loaded = [], {}, {}
    # every GPU row first, then the CPU rows (a deadline cuts the CPU rows first)
    for engine in args.engines.split(","):
        for gname in args.graphs.split(","):
            if engine == "cpu" and gname not in args.cpu_graphs.split(","):
                continue
            if gname not in loaded:
                loaded[gname], info = load_graph(gname)
                graphs[gname] = {"nodes": loaded[gname].n, "edges": loaded[gname].num_edges,
                                 **info}  # fmt: skip
            g = loaded[gname]
            for k in map(int, args.ks.split(",")):
                if engine == "cpu" and gname not in args.cpu_graphs.split(","):
                    continue
                if k == 5 and gname not in args.k5_graphs.split(","):
                    continue
                if time.perf_counter() - t_start > args.deadline:
                    print(f"{gname} k={k} {engine}: skipped (deadline)", flush=True)
                    continue
                r = time_census(g, k, engine, args.repeat if engine == "cuda" and k < 5 else 1)
                row = {"graph": gname, "k": k, "engine": engine, **r}
                peer = peers.get((gname, k))
                if peer is not None and engine == "cuda":
                    counts, ms, app = peer
                    ours = sorted(r["counts"].values())
                    row.update(g2miner_app=app, g2miner_ms=ms, g2miner_counts=counts,
                               counts_equal=sorted(counts) == ours,
                               ratio=ms / r["call_ms"])  # fmt: skip
                rows.append(row)
                write(out, machine, graphs, rows)
                print(f"{gname:9s} k={k} {engine:4s} call={r['call_ms']:10.3f} ms "
                      f"first={r['first_s']:.2f} s total={sum(r['counts'].values()):,} "
                      f"g2miner={row.get('g2miner_ms')} ratio={row.get('ratio')}",
                      flush=True)  # fmt: skip
    print(write(out, machine, graphs, rows))


def write(out: Path, machine: dict, graphs: dict, rows: list) -> str:
    """Write graphlets_peers.json and .md (after every row: a cut run keeps what it did)."""
    (out / "graphlets_peers.json").write_text(
        json.dumps({"machine": machine, "graphs": graphs, "rows": rows}, indent=1, default=str)
    )
    lines = ["| graph | k | engine | patterns | total | call ms | G2Miner ms (app) | ratio | "
             "counts equal |", "|---|---:|---|---:|---:|---:|---:|---:|---|"]  # fmt: skip
    for r in rows:
        peer = f"{r['g2miner_ms']:.3f} ({r['g2miner_app']})" if "g2miner_ms" in r else ""
        ratio = f"{r['ratio']:.2f}" if "ratio" in r else ""
        lines.append(
            f"| {r['graph']} | {r['k']} | {r['engine']} | {len(r['counts'])} | "
            f"{sum(r['counts'].values()):,} | {r['call_ms']:.3f} | {peer} | {ratio} | "
            f"{r.get('counts_equal', '')} |"
        )
    text = "\n".join(lines) + "\n"
    (out / "graphlets_peers.md").write_text(text)
    return text


if __name__ == "__main__":
    main()
