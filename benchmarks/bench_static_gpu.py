"""GPU benchmark of the static engines: CUDA (T-DFS and cuTS trie) vs the CPU engine vs NetworkX.

usage: python3 benchmarks/bench_static_gpu.py OUT_DIR [--graphs facebook,pl1m,pl10m]
       [--cpu-budget SECONDS] [--nx-seconds SECONDS]

Inputs (TARGETS.md): facebook (bundled), pl1m / pl10m from powerlaw_graph.py with the stated
arguments. Counts are non-induced mappings (monomorphisms), comparable with TARGETS.md.
CUDA times are kernel times from CUDA events (median of 3 after a warm-up call; NVRTC compile
time is reported separately, measured on the first call with a cold CuPy kernel cache when the
caller points CUPY_CACHE_DIR at an empty folder). CPU engine: one timed run after a JIT warm-up,
within a time budget (pairs predicted to exceed it are reported as not run). NetworkX:
GraphMatcher.subgraph_monomorphisms_iter run to completion on a small graph, and on the big
graphs for a few seconds to measure its rate (its full time is then an extrapolation, marked).
Writes OUT_DIR/static_gpu_<graph>.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_common import FACEBOOK_SOURCE, POWERLAW, facebook_edges, fmt, powerlaw_source  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

from nx_gpumine.engines.cpu import static as cpu  # noqa: E402
from nx_gpumine.engines.cuda import _runtime  # noqa: E402
from nx_gpumine.engines.cuda import static as gpu  # noqa: E402
from nx_gpumine.inputs.patterns import as_pattern  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402
from nx_gpumine.plan.static_plan import build_static_plan, distinct_sibling  # noqa: E402

PATTERNS = ["triangle", "4-cycle", "diamond", "4-clique", "5-clique", "house"]
# TARGETS.md mapping counts for the patterns that are P1 (diamond), P2 (4-clique), P7 (5-clique)
TARGETS = {
    "facebook": {"diamond": (915148200, 15.5), "4-clique": (720112032, 14.9)},
    "pl1m": {"diamond": (197727828, 15.2), "4-clique": (47543088, 20.6)},
    "pl10m": {"diamond": (869734840, 32.3), "4-clique": (126039144, 28.1)},
}
TARGETS["facebook"]["5-clique"] = (62155818120, 53.9)
TARGETS["pl1m"]["5-clique"] = (742735320, 47.3)
TARGETS["pl10m"]["5-clique"] = (568768680, 45.1)


def load_graph(name: str):
    if name == "facebook":
        a, b, n = facebook_edges()
        src = FACEBOOK_SOURCE
    else:
        n = POWERLAW[name][0]
        a, b = generate(*POWERLAW[name])
        src = powerlaw_source(POWERLAW[name])
    return from_arrays(a, b, num_nodes=n), src


def nx_rate(G: nx.Graph, pattern: str, seconds: float) -> dict:
    """Run NetworkX's monomorphism iterator; complete if it finishes within ``seconds``."""
    P = as_pattern(pattern)
    Pg = nx.Graph()
    Pg.add_nodes_from(range(P.k))
    Pg.add_edges_from((a, b) for a in range(P.k) for b in range(a + 1, P.k) if P.code[a, b])
    gm = nx.algorithms.isomorphism.GraphMatcher(G, Pg)
    t0 = time.perf_counter()
    cnt = 0
    done = True
    for _ in gm.subgraph_monomorphisms_iter():
        cnt += 1
        if (cnt & 1023) == 0 and time.perf_counter() - t0 > seconds:
            done = False
            break
    dt = time.perf_counter() - t0
    return {"complete": done, "mappings": cnt, "seconds": dt, "rate_per_s": cnt / max(dt, 1e-9)}


def time_cuda(graph, plan, strategy: str, *, direct: bool = False, **kw) -> dict:
    """Time the CUDA count of ``plan`` as execution runs it: a mapping plan with a distinct
    sibling (``plan.static_plan.distinct_sibling``) as the sibling's count x |Aut(P)|;
    ``direct=True`` walks every mapping of ``plan``."""
    sibling = None if direct else distinct_sibling(plan, graph)
    run, aut = (plan, 1) if sibling is None else (sibling, int(sibling.num_automorphisms))
    t0 = time.perf_counter()
    c0 = gpu.count(graph, run, strategy=strategy, **kw) * aut  # warm-up (compile, uploads)
    first_wall = time.perf_counter() - t0
    compile_s = gpu.last_run.get("compile_seconds", 0.0)
    ks, walls, counts = [], [], []
    for _ in range(3 if first_wall < 1.0 else 1):
        t = time.perf_counter()
        c = gpu.count(graph, run, strategy=strategy, **kw) * aut
        walls.append(time.perf_counter() - t)
        ks.append(gpu.last_run.get("kernel_ms", 0.0))
        counts.append(c)
    if any(c != c0 for c in counts):  # recorded, not fatal: the rest of the run still reports
        print(f"WARNING: CUDA count changed between runs: {c0} then {counts}", flush=True)
    return {
        "count": c0,
        "repeat_counts": counts,
        "consistent": all(c == c0 for c in counts),
        "kernel_ms_median": float(np.median(ks)),
        "kernel_ms": ks,
        "wall_ms_median": 1e3 * float(np.median(walls)),
        "first_call_s": first_wall,
        "compile_s": compile_s,
        "stats": {
            **{k: v for k, v in gpu.last_run.items() if isinstance(v, int | float | str)},
            **({"symmetry": aut} if aut > 1 else {}),
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="facebook,pl1m,pl10m")
    ap.add_argument("--patterns", default=",".join(PATTERNS))
    ap.add_argument("--strategies", default="dfs,trie", help="CUDA strategies to time")
    ap.add_argument(
        "--small-graph",
        default="2000,8000",
        help="nodes,edges of the power-law graph NetworkX runs on to completion",
    )
    ap.add_argument("--cpu-budget", type=float, default=60.0)
    ap.add_argument("--nx-seconds", type=float, default=5.0)
    ap.add_argument("--deadline", type=float, default=330.0, help="seconds; later work skipped")
    ap.add_argument(
        "--cpu-force",
        default="pl1m:4-cycle,pl1m:4-clique",
        help="graph:pattern pairs whose CPU time is measured whatever the budget says",
    )
    ap.add_argument(
        "--direct",
        default="4-cycle,diamond,4-clique,5-clique",
        help="patterns also timed without the symmetry shortcut (every mapping walked)",
    )
    args = ap.parse_args()
    t_start = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    import numba

    dev = _runtime.device_info()
    machine = {
        "device": dev,
        "cpu_count": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "networkx": nx.__version__,
        "platform": platform.platform(),
    }
    # JIT warm-up of the CPU engine on a tiny graph (every pattern)
    tiny = from_arrays(*generate(300, 1500, 2.3, 50, 1), num_nodes=300)
    for p in args.patterns.split(","):
        cpu.count(tiny, build_static_plan(as_pattern(p), tiny, induced=False, distinct=False))

    # NetworkX to completion on a small graph, against the engines there
    sn, sm = (int(x) for x in args.small_graph.split(","))
    small_src = f"powerlaw_graph.py {sn} {sm} 2.3 {max(sn // 7, 2)} 1"
    small = from_arrays(*generate(sn, sm, 2.3, max(sn // 7, 2), 1), num_nodes=sn)
    small_nx = small.to_networkx()
    small_rows = []
    for p in args.patterns.split(","):
        plan = build_static_plan(as_pattern(p), small, induced=False, distinct=False)
        r = nx_rate(small_nx, p, args.nx_seconds)
        cu = time_cuda(small, plan, "dfs")
        t = time.perf_counter()
        cc = cpu.count(small, plan)
        cpu_s = time.perf_counter() - t
        row = {
            "pattern": p,
            "networkx": r,
            "cuda": cu,
            "cpu_s": cpu_s,
            "cpu_count": cc,
            "counts_agree": (not r["complete"] or r["mappings"] == cu["count"])
            and cc == cu["count"],
            "speedup_vs_networkx": r["seconds"] / (cu["kernel_ms_median"] / 1e3)
            if r["complete"]
            else None,
        }
        small_rows.append(row)
        print(f"small {p}: nx {r['seconds']:.2f}s complete={r['complete']} count={cu['count']}")
    (out / "static_gpu_small.json").write_text(
        json.dumps(
            {
                "graph": small_src,
                "machine": machine,
                "rows": small_rows,
            },
            indent=1,
            default=str,
        )
    )

    table = []
    for gname in args.graphs.split(","):
        if time.perf_counter() - t_start > args.deadline:
            print(f"{gname}: skipped (deadline)", flush=True)
            continue
        t = time.perf_counter()
        graph, src = load_graph(gname)
        load_s = time.perf_counter() - t
        G_nx = None
        rows = []
        cpu_left = args.cpu_budget
        ratio_seen = None
        for p in args.patterns.split(","):
            if time.perf_counter() - t_start > args.deadline:
                print(f"{gname} {p}: skipped (deadline)", flush=True)
                continue
            plan = build_static_plan(as_pattern(p), graph, induced=False, distinct=False)
            res = {"pattern": p}
            strategies = args.strategies.split(",")
            for strat in strategies:
                res[f"cuda_{strat}"] = time_cuda(graph, plan, strat)
            cnt = res[f"cuda_{strategies[0]}"]["count"]
            res["count"] = cnt
            res["strategies_agree"] = all(res[f"cuda_{x}"]["count"] == cnt for x in strategies)
            if p in args.direct.split(","):
                res["cuda_direct"] = time_cuda(graph, plan, "dfs", direct=True)
                res["direct_agrees"] = res["cuda_direct"]["count"] == cnt
            best_ms = min(res[f"cuda_{x}"]["kernel_ms_median"] for x in strategies)
            res["cuda_best_ms"] = best_ms
            res["throughput_mappings_per_s"] = cnt / (best_ms / 1e3) if best_ms else None
            tgt = TARGETS.get(gname, {}).get(p)
            if tgt:
                res["tdfs_mappings"], res["tdfs_ms"] = tgt
                res["count_matches_tdfs"] = cnt == tgt[0]
                res["speedup_vs_tdfs"] = tgt[1] / best_ms if best_ms else None
            # CPU engine within budget (predicted from the ratio seen so far on this graph)
            predicted = None if ratio_seen is None else ratio_seen * best_ms / 1e3
            forced = f"{gname}:{p}" in args.cpu_force.split(",")
            if forced or predicted is None or predicted < cpu_left:
                t = time.perf_counter()
                cc = cpu.count(graph, plan)
                cs = time.perf_counter() - t
                cpu_left -= cs
                ratio_seen = cs / (best_ms / 1e3)
                res["cpu_s"] = cs
                res["cpu_agrees"] = cc == cnt
                res["speedup_vs_cpu"] = ratio_seen
            else:
                res["cpu_s"] = None
                res["cpu_note"] = f"not run: predicted {predicted:.0f}s > budget left"
            # NetworkX rate for a few seconds (its full time extrapolated)
            if gname in ("facebook", "pl1m"):
                if G_nx is None:
                    G_nx = graph.to_networkx()
                r = nx_rate(G_nx, p, args.nx_seconds)
                res["networkx"] = r
                if r["complete"]:
                    res["speedup_vs_networkx"] = r["seconds"] / (best_ms / 1e3)
                elif r["mappings"]:
                    est = cnt / r["rate_per_s"]
                    res["networkx_est_s"] = est
                    res["speedup_vs_networkx_est"] = est / (best_ms / 1e3)
            rows.append(res)
            table.append((gname, p, res))
            times = " ".join(
                f"{x}={res[f'cuda_{x}']['kernel_ms_median']:.2f}ms" for x in strategies
            )
            print(f"{gname} {p}: count={cnt} {times} cpu={res.get('cpu_s')}", flush=True)
        doc = {
            "graph": gname,
            "source": src,
            "n": graph.n,
            "edges": graph.num_edges,
            "max_degree": graph.max_degree,
            "load_s": load_s,
            "machine": machine,
            "compile_log": _runtime.compile_log(),
            "rows": rows,
        }
        (out / f"static_gpu_{gname}.json").write_text(json.dumps(doc, indent=1, default=str))
        del G_nx

    print(
        "\n| graph | pattern | mappings | T-DFS ms | CUDA dfs ms | CUDA trie ms | direct ms "
        "| vs T-DFS | CPU s | vs CPU | vs NetworkX |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for g, p, r in table:
        nxs = r.get("speedup_vs_networkx")
        nxe = r.get("speedup_vs_networkx_est")
        nxt = fmt(nxs, ".0f") if nxs is not None else (fmt(nxe, ".0f") + "*" if nxe else "")
        print(
            f"| {g} | {p} | {r['count']:,} | {r.get('tdfs_ms', '')} | "
            f"{fmt(r.get('cuda_dfs', {}).get('kernel_ms_median'), '.2f')} | "
            f"{fmt(r.get('cuda_trie', {}).get('kernel_ms_median'), '.2f')} | "
            f"{fmt(r.get('cuda_direct', {}).get('kernel_ms_median'), '.2f')} | "
            f"{fmt(r.get('speedup_vs_tdfs'), '.2f')} | {fmt(r.get('cpu_s'), '.2f')} | "
            f"{fmt(r.get('speedup_vs_cpu'), '.0f')} | {nxt} |"
        )


if __name__ == "__main__":
    main()
