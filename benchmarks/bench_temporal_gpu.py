"""GPU benchmark of the temporal engines: CUDA (Everest) vs the CPU engine, same run.

usage: python3 benchmarks/bench_temporal_gpu.py OUT_DIR [--graphs collegemsg,sk10m,sk50m]
       [--repeat 3] [--cpu-budget SECONDS] [--deadline SECONDS]

Inputs: CollegeMsg (bundled, real), and seeded skewed temporal graphs from
``nx_gpumine.inputs.generators.skewed_temporal_graph``: sk10m (1M nodes, 10M edges, mean gap
30 s: ~9.5 years, like wiki-talk) and sk50m (5M nodes, 50M edges, mean gap 5 s: ~7.9 years,
like stackoverflow), and burst (1M skewed edges, then a last-hour burst: a hub sends 30,000
messages and its contacts 30,000 among themselves; the burst's roots, handed out last, own huge
search trees: the tail load balancing is for); all with seeded random edge labels (4 kinds) and
node labels (2 kinds).
Queries: temporal triangle (feed-forward ``01 12 02``), temporal 3-cycle (``01 12 20``), temporal
4-cycle (Everest M4), each with delta = 1 h and 1 day; and a labelled Everest M4-A (4-cycle with
gaps 900/1800/900 s, anti-edge 2->0 within 1800 s after edge 1, node 0 labelled, edge 0 labelled)
with delta = 1 day; and two stars from one sender, ``01 02`` and ``01 02 21`` (delta = 1 h).

Graph construction, the device upload with the GPU walk index, and the CPU engine's walk index
are timed apart from the queries. CUDA: kernel time by CUDA events (all launches of a call, tail
relaunches included), median of ``--repeat`` after a warm-up call; NVRTC compile time from the
first call with a cold CuPy cache (CUPY_CACHE_DIR pointed at an empty folder by the caller), in
the JSON's compile_log. On burst and sk10m every query is also timed
with each load-balancing switch off (work stealing, tail redistribution, both). CPU engine:
numba on every core, one timed run after a JIT warm-up; skipped when predicted (from the ratio
seen on the previous graph) to exceed the budget left. Counts of both engines must agree (the
script records any disagreement). Writes OUT_DIR/temporal_gpu_<graph>.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np
from bench_common import fmt

from nx_gpumine.engines.cpu import temporal as cpu
from nx_gpumine.engines.cuda import _runtime
from nx_gpumine.engines.cuda import temporal as gpu
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import AntiEdge, TemporalMotif, named_motif
from nx_gpumine.inputs.temporal_graph import TemporalGraph, load_collegemsg, temporal_from_arrays
from nx_gpumine.plan.temporal_plan import build_temporal_plan

HOUR, DAY = 3600, 86400
GRAPHS = {
    "sk10m": {"n": 1_000_000, "m": 10_000_000, "seed": 7, "mean_gap": 30.0},
    "sk50m": {"n": 5_000_000, "m": 50_000_000, "seed": 7, "mean_gap": 5.0},
}
BURST = {"n": 100_000, "m": 1_000_000, "seed": 7, "mean_gap": 30.0, "burst": 30_000}
SWITCHES = {
    "steal+tail": {"steal": True, "tail_ms": 10.0},
    "steal only": {"steal": True, "tail_ms": 0.0},
    "tail only": {"steal": False, "tail_ms": 10.0},
    "neither": {"steal": False, "tail_ms": 0.0},
}


def queries() -> list[tuple[str, TemporalMotif]]:
    out = []
    for delta, dname in ((HOUR, "1h"), (DAY, "1d")):
        out.append((f"triangle 01 12 02 d={dname}", named_motif("01 12 02", delta)))
        out.append((f"3-cycle 01 12 20 d={dname}", named_motif("01 12 20", delta)))
        out.append((f"4-cycle M4 d={dname}", named_motif("M4", delta)))
    m4a = TemporalMotif(
        [(0, 1), (1, 2), (2, 3), (3, 0)],
        delta=DAY,
        gaps=[900, 1800, 900],
        anti_edges=[AntiEdge(2, 0, 1, 1800)],
        node_labels={0: 1},
        edge_labels={0: 0},
        name="M4-A labelled",
    )
    out.append(("M4-A labels+gaps+anti d=1d", m4a))
    out.append(("out-star 01 02 d=1h", TemporalMotif([(0, 1), (0, 2)], delta=HOUR)))
    out.append(("star-closed 01 02 21 d=1h", TemporalMotif([(0, 1), (0, 2), (2, 1)], delta=HOUR)))
    return out


def labelled(g: TemporalGraph, seed: int = 1) -> TemporalGraph:
    """``g`` with seeded random label codes: edge labels 0..3 per edge id, node labels 0..1."""
    rng = np.random.default_rng(seed)
    g.edge_label = rng.integers(0, 4, g.m).astype(np.int32)
    g.edge_vocab = {i: i for i in range(4)}
    g.node_label = rng.integers(0, 2, g.n).astype(np.int32)
    g.node_vocab = {i: i for i in range(2)}
    return g


def burst_graph(n: int, m: int, seed: int, mean_gap: float, burst: int) -> TemporalGraph:
    """``skewed_temporal_graph(n, m, seed=seed, mean_gap=mean_gap)`` then, in the hour after its
    last edge, ``burst`` messages from vertex 0 to random vertices of 1..999 and ``burst``
    messages among those vertices (seeded)."""
    g = skewed_temporal_graph(n=n, m=m, seed=seed, mean_gap=mean_gap)
    rng = np.random.default_rng(seed + 1)
    t1 = int(g.time[-1]) + 1
    src = np.concatenate([g.src, np.zeros(burst, np.int64), rng.integers(1, 1000, burst)])
    dst = np.concatenate([g.dst, rng.integers(1, 1000, burst), rng.integers(1, 1000, burst)])
    t = np.concatenate([g.time, t1 + rng.integers(0, HOUR, 2 * burst)])
    return temporal_from_arrays(src.astype(np.int64), dst.astype(np.int64), t, nodes=range(n))


def load(name: str) -> tuple[TemporalGraph, str]:
    if name == "collegemsg":
        g = load_collegemsg()
        return labelled(g), "nx_gpumine/data/collegemsg.txt (SNAP CollegeMsg) + seeded labels"
    if name == "burst":
        return labelled(burst_graph(**BURST)), f"burst_graph({BURST}) + seeded labels"
    kw = GRAPHS[name]
    g = skewed_temporal_graph(**kw)
    return labelled(g), f"skewed_temporal_graph({kw}) + seeded labels"


def time_cuda(graph, plan, repeat: int, **kw) -> dict:
    t = time.perf_counter()
    c0 = gpu.count(graph, plan, **kw)  # warm-up: compile, uploads, walk index
    first = time.perf_counter() - t
    compile_s = gpu.last_run.get("compile_seconds", 0.0)
    ks, counts, stats = [], [], {}
    for _ in range(repeat):
        counts.append(gpu.count(graph, plan, **kw))
        ks.append(gpu.last_run["kernel_ms"])
        stats = {k: v for k, v in gpu.last_run.items() if isinstance(v, int | float | str)}
    return {
        "count": c0,
        "consistent": all(c == c0 for c in counts),
        "kernel_ms_median": float(np.median(ks)),
        "kernel_ms": ks,
        "first_call_s": first,
        "compile_s": compile_s,
        "stats": stats,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="collegemsg,burst,sk10m,sk50m")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpu-budget", type=float, default=120.0)
    ap.add_argument("--deadline", type=float, default=520.0, help="seconds; later work skipped")
    ap.add_argument("--switch-graphs", default="burst,sk10m")
    args = ap.parse_args()
    t_start = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    import numba

    machine = {
        "device": _runtime.device_info(),
        "cpu_count": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "platform": platform.platform(),
    }
    # JIT warm-up of the CPU engine (every query) on a small graph
    small = labelled(skewed_temporal_graph(n=1000, m=20_000, seed=1))
    for _, motif in queries():
        cpu.count(small, build_temporal_plan(motif, small))
    table = []
    cpu_ratio = None
    for gname in args.graphs.split(","):
        if time.perf_counter() - t_start > args.deadline:
            print(f"{gname}: skipped (deadline)", flush=True)
            continue
        t = time.perf_counter()
        graph, source = load(gname)
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        gpu.upload(graph)  # device upload and walk index, reported apart
        upload_s = time.perf_counter() - t
        t = time.perf_counter()
        cpu.walk_index(graph)  # the CPU engine's walk index, built once per graph, apart
        cpu_index_s = time.perf_counter() - t
        print(
            f"{gname}: {graph} loaded in {load_s:.1f}s, device upload {upload_s:.2f}s", flush=True
        )
        rows = []
        cpu_left = args.cpu_budget
        for qname, motif in queries():
            if time.perf_counter() - t_start > args.deadline:
                print(f"{gname} {qname}: skipped (deadline)", flush=True)
                continue
            plan = build_temporal_plan(motif, graph)
            res = {"query": qname, "motif": repr(motif)}
            res["cuda"] = time_cuda(graph, plan, args.repeat)
            cnt = res["cuda"]["count"]
            ms = res["cuda"]["kernel_ms_median"]
            res["count"] = cnt
            res["edges_per_s_cuda"] = graph.m / (ms / 1e3) if ms else None
            if gname in args.switch_graphs.split(","):
                res["switches"] = {}
                for sname, kw in SWITCHES.items():
                    r = time_cuda(graph, plan, args.repeat, **kw)
                    res["switches"][sname] = {
                        "kernel_ms_median": r["kernel_ms_median"],
                        "agrees": r["count"] == cnt,
                        "stats": r["stats"],
                    }
            predicted = None if cpu_ratio is None else cpu_ratio * ms / 1e3
            if predicted is None or predicted < cpu_left:
                t = time.perf_counter()
                cc = cpu.count(graph, plan)
                cs = time.perf_counter() - t
                cpu_left -= cs
                res["cpu_s"] = cs
                res["cpu_agrees"] = cc == cnt
                res["edges_per_s_cpu"] = graph.m / cs
                res["speedup_vs_cpu"] = cs / (ms / 1e3) if ms else None
                if ms:
                    cpu_ratio = cs / (ms / 1e3)
            else:
                res["cpu_s"] = None
                res["cpu_note"] = f"not run: predicted {predicted:.0f}s > budget left"
            rows.append(res)
            table.append((gname, res))
            print(
                f"{gname} {qname}: count={cnt} cuda={ms:.2f}ms cpu={res.get('cpu_s')} "
                f"agree={res.get('cpu_agrees')} stats={res['cuda']['stats']}",
                flush=True,
            )
        doc = {
            "graph": gname,
            "source": source,
            "n": graph.n,
            "edges": graph.m,
            "max_out_degree": int(np.diff(graph.out_ptr).max()),
            "max_in_degree": int(np.diff(graph.in_ptr).max()),
            "time_span_s": float(graph.time[-1] - graph.time[0]),
            "load_s": load_s,
            "device_upload_and_walk_index_s": upload_s,
            "cpu_walk_index_s": cpu_index_s,
            "machine": machine,
            "compile_log": _runtime.compile_log(),
            "rows": rows,
        }
        (out / f"temporal_gpu_{gname}.json").write_text(json.dumps(doc, indent=1, default=str))
        del graph

    print(
        "\n| graph | query | matches | CUDA ms | CPU s | CUDA / CPU | CUDA edges/s "
        "| no steal ms | no tail ms | neither ms |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g, r in table:
        sw = r.get("switches", {})

        def swt(name, sw=sw):
            return fmt(sw.get(name, {}).get("kernel_ms_median"), ".2f")

        print(
            f"| {g} | {r['query']} | {r['count']:,} | {r['cuda']['kernel_ms_median']:.2f} | "
            f"{fmt(r.get('cpu_s'), '.3f')} | {fmt(r.get('speedup_vs_cpu'), '.0f')} | "
            f"{fmt(r.get('edges_per_s_cuda'), '.3g')} | {swt('tail only')} | "
            f"{swt('steal only')} | {swt('neither')} |"
        )


if __name__ == "__main__":
    main()
