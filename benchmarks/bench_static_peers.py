"""Static counting on the GPU, side by side with G2Miner and T-DFS (issue: static speed).

usage: python3 benchmarks/bench_static_peers.py OUT_DIR [--graphs facebook,pl1m,pl10m]
       [--patterns triangle,4-cycle,P1,...,P7] [--alternatives] [--big]

Runs the public call ``nx_gpumine.count_subgraphs(graph, pattern, engine="cuda")`` (mappings,
the number T-DFS prints; G2Miner prints distinct subgraphs, compared as distinct x |Aut|) on a
prepared graph: one warm-up call (NVRTC compile and the per-graph rank graph, both reported
apart), then repeats timed two ways — the engine's kernel time (CUDA events over every launch
of the call) and the whole call (host clock around ``count_subgraphs``). Peer results are read
from the TSVs the peer kit writes into OUT_DIR (``g2miner.tsv``: graph app count ms,
``tdfs.tsv``: graph pattern count ms) when present, so a device script runs the peers and this
file in one call and the ratios are measured side by side.

``--alternatives`` also times the other strategies on each cell (shape kernel vs DFS with the
count tail vs DFS walking every level vs the cuTS trie) to check the strategy choice.
``--big`` adds the 100M-edge graph (powerlaw_graph.py 20000000 100000000 2.3 6000 1) with peak
device memory. Writes OUT_DIR/static_peers.json and OUT_DIR/static_peers.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_common import (  # noqa: E402
    FACEBOOK_SOURCE,
    POWERLAW,
    T_DFS_EDGES,
    facebook_edges,
    powerlaw_source,
    search_order_from_env,
    t_dfs_pattern,
)
from powerlaw_graph import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cuda import _runtime  # noqa: E402
from nx_gpumine.engines.cuda import static as gpu  # noqa: E402
from nx_gpumine.inputs.patterns import Pattern, as_pattern  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402
from nx_gpumine.plan.static_plan import static_plan  # noqa: E402

PATTERNS = ["triangle", "4-cycle", *T_DFS_EDGES]
G2MINER_APP = {"tc": "triangle", "4cycle": "4-cycle", "diamond": "P1", "kcl4": "P2", "kcl5": "P7"}


def pattern(name: str) -> Pattern:
    if name in T_DFS_EDGES:
        return t_dfs_pattern(name)
    return as_pattern(name)


def load_graph(name: str):
    t = time.perf_counter()
    if name == "facebook":
        a, b, n = facebook_edges()
        src = FACEBOOK_SOURCE
    else:
        n, m = POWERLAW[name][:2]
        a, b = generate(*POWERLAW[name], device=m >= 50_000_000)
        src = powerlaw_source(POWERLAW[name])
    t_gen = time.perf_counter() - t
    t = time.perf_counter()
    g = from_arrays(a, b, num_nodes=n)
    return g, {"source": src, "generate_s": t_gen, "build_s": time.perf_counter() - t}


def read_peers(out: Path) -> dict:
    peers: dict = {"g2miner": {}, "tdfs": {}}
    p = out / "g2miner.tsv"
    if p.exists():
        with p.open() as f:
            for row in csv.DictReader(f, delimiter="\t"):
                cell = G2MINER_APP.get(row["app"])
                if cell and row["ms"] not in ("NA", ""):
                    peers["g2miner"][(row["graph"], cell)] = (int(row["count"]), float(row["ms"]))
    p = out / "tdfs.tsv"
    if p.exists():
        for line in p.read_text().splitlines():
            parts = line.split("\t")
            if len(parts) == 4 and parts[2].isdigit():
                peers["tdfs"][(parts[0], "P" + parts[1])] = (int(parts[2]), float(parts[3]))
    return peers


def time_call(g, pat: Pattern, repeat: int) -> dict:
    t = time.perf_counter()
    c0 = ng.count_subgraphs(g, pat, engine="cuda")
    first = time.perf_counter() - t
    first_stats = dict(gpu.last_run)
    t = time.perf_counter()
    ng.count_subgraphs(g, pat, engine="cuda")
    warm = time.perf_counter() - t
    if warm > 1.0:
        repeat = min(repeat, 2 if warm < 3.0 else 1)
    else:  # `repeat` calls, but no more than about 2 s of them (and at least 5)
        repeat = min(repeat, max(5, int(2.0 / max(warm, 1e-4))))
    walls, kms, counts = [], [], []
    for _ in range(repeat):
        t = time.perf_counter()
        c = ng.count_subgraphs(g, pat, engine="cuda")
        walls.append(1e3 * (time.perf_counter() - t))
        kms.append(float(gpu.last_run.get("kernel_ms", 0.0)))
        counts.append(c)
    return {
        "count": c0,
        "consistent": all(c == c0 for c in counts),
        "kernel_ms": float(np.median(kms)),
        "kernel_ms_all": kms,
        "wall_ms": float(np.median(walls)),
        "wall_ms_all": walls,
        "first_call_s": first,
        "compile_s": float(first_stats.get("compile_seconds", 0.0)),
        "preprocess_s": float(first_stats.get("preprocess_seconds", 0.0)),
        "stats": {
            k: v for k, v in gpu.last_run.items() if isinstance(v, int | float | str | tuple)
        },
    }


def time_strategy(g, pat: Pattern, repeat: int, **kw) -> dict:
    plan = static_plan(pat, g, induced=False, distinct=True)
    c0 = gpu.count(g, plan, **kw)
    kms = []
    for _ in range(repeat):
        c = gpu.count(g, plan, **kw)
        assert c == c0
        kms.append(float(gpu.last_run.get("kernel_ms", 0.0)))
    return {"count_distinct": c0, "kernel_ms": float(np.median(kms)), "kw": kw}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="facebook,pl1m,pl10m")
    ap.add_argument("--patterns", default=",".join(PATTERNS))
    ap.add_argument("--alternatives", action="store_true")
    ap.add_argument("--alt-graphs", default="facebook,pl1m", help="graphs --alternatives runs on")
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--deadline", type=float, default=500.0)
    ap.add_argument(
        "--repeat", type=int, default=5, help="timed calls per cell, at most ~2 s of them (median)"
    )
    args = ap.parse_args()
    t_start = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cp = _runtime.import_cupy()
    machine = {
        "device": _runtime.device_info(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "search_order": search_order_from_env(),  # BENCH_SEARCH_ORDER (issue 33's A/B)
    }
    peers = read_peers(out)
    graphs = args.graphs.split(",") + (["pl100m"] if args.big else [])
    rows = []
    for gname in graphs:
        if time.perf_counter() - t_start > args.deadline:
            print(f"deadline: {gname} skipped", flush=True)
            continue
        g, ginfo = load_graph(gname)
        print(f"== {gname}: n={g.n} entries={len(g.indices)} {ginfo}", flush=True)
        pats = args.patterns.split(",")
        if gname == "pl100m":
            pats = ["triangle", "4-cycle", "P1", "P2", "P7"]
        pool = cp.get_default_memory_pool()
        for pname in pats:
            if time.perf_counter() - t_start > args.deadline:
                print(f"deadline: {gname} {pname} skipped", flush=True)
                continue
            pat = pattern(pname)
            aut = pat.num_automorphisms()
            try:
                r = time_call(g, pat, repeat=args.repeat if gname != "pl100m" else 2)
            except Exception as exc:  # recorded: the rest of the run still reports
                print(f"{gname} {pname}: FAILED {exc!r}", flush=True)
                rows.append({"graph": gname, "pattern": pname, "error": repr(exc)})
                continue
            row = {"graph": gname, "pattern": pname, "automorphisms": aut, **r}
            row["peak_pool_bytes"] = int(pool.total_bytes())
            g2 = peers["g2miner"].get((gname, pname))
            if g2:
                row["g2miner_count_x_aut"] = g2[0] * aut
                row["g2miner_ms"] = g2[1]
                row["g2miner_ratio"] = g2[1] / max(r["kernel_ms"], 1e-9)
                row["g2miner_counts_equal"] = g2[0] * aut == r["count"]
            td = peers["tdfs"].get((gname, pname))
            if td:
                row["tdfs_count"] = td[0]
                row["tdfs_ms"] = td[1]
                row["tdfs_ratio"] = td[1] / max(r["kernel_ms"], 1e-9)
                row["tdfs_counts_equal"] = td[0] == r["count"]
            if args.alternatives and gname in args.alt_graphs.split(","):
                alts = {}
                for label, kw in (
                    ("shape", {"strategy": "shape"}),
                    ("dfs_tail", {"strategy": "dfs"}),
                    ("dfs_walk", {"strategy": "dfs", "tail": False}),
                    ("trie", {"strategy": "trie"}),
                ):
                    try:
                        alts[label] = time_strategy(g, pat, 2, **kw)
                    except Exception as exc:
                        alts[label] = {"error": repr(exc)[:200]}
                row["alternatives"] = alts
            rows.append(row)
            (out / "static_peers.json").write_text(  # after every cell: a cut run keeps it
                json.dumps({"machine": machine, "rows": rows}, indent=1, default=str)
            )
            print(
                f"{gname:9s} {pname:9s} count={r['count']} kernel={r['kernel_ms']:.3f}ms "
                f"call={r['wall_ms']:.3f}ms strategy={r['stats'].get('strategy')} "
                f"g2={row.get('g2miner_ratio', float('nan')):.2f} "
                f"tdfs={row.get('tdfs_ratio', float('nan')):.2f}",
                flush=True,
            )
        del g
        cp.get_default_memory_pool().free_all_blocks()
    (out / "static_peers.json").write_text(
        json.dumps({"machine": machine, "rows": rows}, indent=1, default=str)
    )
    lines = [
        "| graph | pattern | mappings | strategy | kernel ms | call ms | G2Miner ms | ratio | "
        "T-DFS ms | ratio | counts equal |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['graph']} | {r['pattern']} | ERROR {r['error'][:60]} |")
            continue
        eq = [r[k] for k in ("g2miner_counts_equal", "tdfs_counts_equal") if k in r]
        lines.append(
            f"| {r['graph']} | {r['pattern']} | {r['count']:,} | {r['stats'].get('strategy')} | "
            f"{r['kernel_ms']:.3f} | {r['wall_ms']:.3f} | {r.get('g2miner_ms', '')} | "
            f"{r.get('g2miner_ratio', float('nan')):.2f} | {r.get('tdfs_ms', '')} | "
            f"{r.get('tdfs_ratio', float('nan')):.2f} | {all(eq) if eq else ''} |"
        )
    (out / "static_peers.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
