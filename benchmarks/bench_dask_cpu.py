"""CPU benchmark of the Dask path: the direct call vs a LocalCluster of 1 and of 2 workers.

usage: python3 benchmarks/bench_dask_cpu.py OUT.json [--repeat 3] [--cases a,b,...]

Same machine, same queries, same answers (checked): the direct call runs the numba engine on
every core (``engine="cpu"``); the Dask runs use ``LocalCluster(processes=True)`` with one
thread per worker and the cores shared out between the workers' numba threads (1 worker x
``NUMBA_NUM_THREADS=cores``, 2 workers x ``cores // 2``), and ``client=..., engine="cpu"``.
Both clusters run side by side and the three paths are timed in rotating rounds (other jobs on
a shared machine then slow each alike); times are wall-clock medians of ``--repeat`` rounds
after a first call; the first Dask call on a graph is reported apart (it scatters the graph to
the workers, and a fresh worker loads the numba engine from the on-disk cache).
Overhead = Dask (1 worker) / direct - 1; the 2-worker column shows what a second worker
process gives on the same cores.

Inputs: SNAP ego-Facebook (bundled) and ``skewed_temporal_graph(n=100_000, m=1_000_000,
seed=7)`` (the 1M-edge cascade graph of ``bench_temporal_cpu.py``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from bench_common import facebook_edges

import nx_gpumine as ng
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.static_graph import from_arrays

DAY, WEEK = 86400, 7 * 86400


def facebook():
    a, b, _ = facebook_edges()
    return from_arrays(a, b)


def cases(fb, sk) -> dict:
    """name -> (graph, call(graph, **engine_kw) -> comparable result)."""
    return {
        "facebook 5-clique count": (fb, lambda g, **kw: ng.count_subgraphs(g, "5-clique", **kw)),
        "facebook 4-cycle count": (fb, lambda g, **kw: ng.count_subgraphs(g, "4-cycle", **kw)),
        "facebook diamond induced count": (
            fb,
            lambda g, **kw: ng.count_subgraphs(g, "diamond", induced=True, **kw),
        ),
        "facebook 4-clique find limit=100000": (
            fb,
            lambda g, **kw: ng.find_subgraphs(g, "4-clique", limit=100_000, **kw).tolist(),
        ),
        "sk1m triangle d=1w count": (
            sk,
            lambda g, **kw: ng.count_motifs(g, "triangle", delta=WEEK, **kw),
        ),
        "sk1m M4 d=1d count": (sk, lambda g, **kw: ng.count_motifs(g, "M4", delta=DAY, **kw)),
        "sk1m census d=1d": (sk, lambda g, **kw: ng.motif_census(g, DAY, **kw)),
    }


def interleaved(paths: dict, repeat: int) -> dict:
    """Time each path once (first call), then ``repeat`` rounds of one call per path each,
    rotating the order, so load from other jobs on the machine hits every path alike."""
    out = {}
    for name, fn in paths.items():
        t = time.perf_counter()
        out[name] = {"result": fn(), "times_s": []}
        out[name]["first_s"] = time.perf_counter() - t
    names = list(paths)
    for r in range(repeat):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            t = time.perf_counter()
            res = paths[name]()
            out[name]["times_s"].append(time.perf_counter() - t)
            if res != out[name]["result"]:
                raise AssertionError(f"{name}: results differ between repeated calls")
    return out


def cluster(nworkers: int, cores: int):
    """LocalCluster of ``nworkers`` one-thread processes sharing the cores' numba threads."""
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=nworkers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
        env={"NUMBA_NUM_THREADS": str(max(1, cores // nworkers))},
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", default="")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    t = time.perf_counter()
    fb, sk = facebook(), skewed_temporal_graph(n=100_000, m=1_000_000, seed=7)
    load_s = time.perf_counter() - t
    todo = cases(fb, sk)
    if args.cases:
        todo = {k: v for k, v in todo.items() if any(c in k for c in args.cases.split(","))}
    load0 = os.getloadavg()
    from distributed import Client

    with cluster(1, cores) as c1, cluster(2, cores) as c2, Client(c1) as one, Client(c2) as two:
        timings = {}
        for name, (graph, call) in todo.items():
            paths = {
                "direct": lambda c=call, g=graph: c(g, engine="cpu"),
                "dask1": lambda c=call, g=graph: c(g, client=one, engine="cpu"),
                "dask2": lambda c=call, g=graph: c(g, client=two, engine="cpu"),
            }
            timings[name] = interleaved(paths, args.repeat)
            med = {k: statistics.median(v["times_s"]) for k, v in timings[name].items()}
            print(f"  {name}: " + ", ".join(f"{k} {v:.3f} s" for k, v in med.items()), flush=True)
    rows = []
    for name in todo:
        t = timings[name]
        d, one, two = (statistics.median(t[k]["times_s"]) for k in ("direct", "dask1", "dask2"))
        same = t["direct"]["result"] == t["dask1"]["result"] == t["dask2"]["result"]
        res = t["direct"]["result"]
        rows.append(
            {
                "case": name,
                "result": res if isinstance(res, int | dict) else f"{len(res)} rows",
                "same_results": same,
                "direct_s": d,
                "dask1_s": one,
                "dask2_s": two,
                "overhead_1_worker": one / d - 1,
                "speedup_2_vs_1_workers": one / two,
                "dask1_first_call_s": t["dask1"]["first_s"],
                "dask2_first_call_s": t["dask2"]["first_s"],
                "direct_times_s": t["direct"]["times_s"],
                "dask1_times_s": t["dask1"]["times_s"],
                "dask2_times_s": t["dask2"]["times_s"],
            }
        )
        if not same:
            print(f"RESULTS DIFFER: {name}", file=sys.stderr)
    import dask as dask_mod
    import distributed
    import numba

    record = {
        "benchmark": "bench_dask_cpu.py",
        "command": " ".join(["python3", *sys.argv]),
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": cores,
            "python": platform.python_version(),
            "numba": numba.__version__,
            "dask": dask_mod.__version__,
            "distributed": distributed.__version__,
            "load_average_before": load0,
            "load_average_after": os.getloadavg(),
            "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
        "inputs": {
            "facebook": "nx_gpumine/data/facebook_combined.txt (SNAP ego-Facebook)",
            "sk1m": "skewed_temporal_graph(n=100_000, m=1_000_000, seed=7)",
            "load_s": load_s,
        },
        "repeat": args.repeat,
        "rows": rows,
    }
    Path(args.out).write_text(json.dumps(record, indent=1, default=str))
    head = f"{'case':40} {'direct':>8} {'dask 1w':>8} {'ovh':>7} {'dask 2w':>8} {'2w/1w':>6} same"
    print(head)
    for r in rows:
        print(
            f"{r['case']:40} {r['direct_s']:8.3f} {r['dask1_s']:8.3f} "
            f"{100 * r['overhead_1_worker']:6.1f}% {r['dask2_s']:8.3f} "
            f"{r['speedup_2_vs_1_workers']:6.2f} {r['same_results']}"
        )


if __name__ == "__main__":
    main()
