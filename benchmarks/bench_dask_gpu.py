"""GPU benchmark of the Dask path: one Dask worker per visible GPU vs the direct CUDA call.

usage (on the GPU machine, from the repo root, dask carried as wheels in .whl/):

    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \\
        --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site:$PWD
    python3 benchmarks/bench_dask_gpu.py OUT_DIR [--graphs pl10m,synth10m,sk10m] [--repeat 3]
        [--tasks-per-thread 4,1] [--deadline SECONDS]

Dry run without a GPU (checks the script): ``--engine cpu --workers 2 --graphs
facebook,collegemsg``.

Cluster: a ``distributed.SpecCluster`` of one ``Nanny`` per visible GPU, each worker with one
thread and ``CUDA_VISIBLE_DEVICES`` set to its GPU (the CUDA engine runs on the worker: the
queries pass ``engine="cuda"``, so a worker without a GPU would raise). Every query runs
directly (``engine="cuda"`` in this process) and on the cluster (``client=..., engine="cuda"``)
for each ``nx_gpumine.tasks_per_thread`` setting; the counts must be equal (and equal to the
TARGETS.md counts where known). Times are wall-clock medians of ``--repeat`` calls after a
warm-up (NVRTC compile, uploads); the first Dask call on a graph is reported apart (it scatters
the graph and the worker uploads it). Overhead = Dask median / direct median - 1; the issue's
target is under 10 % on queries longer than 1 s.

Inputs: pl10m = ``powerlaw_graph.generate(2_000_000, 10_000_000, 2.3, 3000, 1)`` (as
``bench_static_gpu.py``), sk10m = ``skewed_temporal_graph(n=1_000_000, m=10_000_000, seed=7,
mean_gap=30.0)`` (as ``bench_temporal_gpu.py``, without its random labels: no query uses them).
Writes OUT_DIR/dask_gpu.json and prints a table.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_common import POWERLAW, facebook_edges  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs.generators import skewed_temporal_graph  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402

HOUR, DAY, WEEK = 3600, 86400, 7 * 86400
# TARGETS.md mapping counts (and benchmarks/results/static_gpu_pl10m_run7.json for 4-cycle)
KNOWN = {
    ("pl10m", "diamond"): 869734840,
    ("pl10m", "4-clique"): 126039144,
    ("pl10m", "5-clique"): 568768680,
    ("pl10m", "4-cycle"): 5667454048,
    ("pl10m", "triangle"): 20681418,
}


def load(name: str):
    if name == "facebook":
        a, b, _ = facebook_edges()
        return from_arrays(a, b)
    if name == "collegemsg":
        from nx_gpumine.inputs.temporal_graph import load_collegemsg

        return load_collegemsg()
    if name == "pl10m":
        a, b = generate(*POWERLAW["pl10m"])
        return from_arrays(a, b, num_nodes=POWERLAW["pl10m"][0])
    if name == "sk10m":
        return skewed_temporal_graph(n=1_000_000, m=10_000_000, seed=7, mean_gap=30.0)
    if name == "synth10m":  # the Everest kit's 10M-edge graph (gen_temporal.py --seed 1)
        from gen_temporal import generate as gen_temporal

        from nx_gpumine.inputs.temporal_graph import temporal_from_arrays

        s, d, t = gen_temporal(seed=1)
        return temporal_from_arrays(s, d, t, nodes=range(1_000_000))
    raise SystemExit(f"unknown graph {name!r}")


def queries(name: str) -> list:
    """(label, call(graph, **engine_kw)) pairs."""
    if name in ("pl10m", "facebook"):
        import networkx as nx

        p5 = nx.Graph([(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)])  # T-DFS P5
        return [
            (p, lambda g, p=p, **kw: ng.count_subgraphs(g, p, **kw))
            for p in ("triangle", "4-clique", "diamond", "5-clique", "4-cycle")
        ] + [("P5", lambda g, **kw: ng.count_subgraphs(g, p5, **kw))]
    out = []
    for motif, delta, label in (
        ("triangle", DAY, "3-cycle d=1d"),
        ("M4", DAY, "M4 d=1d"),
        ("M4", WEEK, "M4 d=1w"),
        ("M4", 4 * WEEK, "M4 d=4w"),
    ):
        out.append((label, lambda g, m=motif, d=delta, **kw: ng.count_motifs(g, m, delta=d, **kw)))
    for delta, label in ((DAY, "census d=1d"), (WEEK, "census d=1w")):
        out.append((label, lambda g, d=delta, **kw: ng.motif_census(g, d, **kw)))
    return out


def timed(fn, repeat: int) -> dict:
    t = time.perf_counter()
    first = fn()
    first_s = time.perf_counter() - t
    times, same = [], True
    for _ in range(repeat):
        t = time.perf_counter()
        same &= fn() == first
        times.append(time.perf_counter() - t)
    return {
        "result": first,
        "first_s": first_s,
        "times_s": times,
        "median_s": statistics.median(times),
        "repeat_agree": same,
    }


def visible_gpus() -> list[str]:
    """The CUDA device ids this process may use (CUDA_VISIBLE_DEVICES, else all)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible:
        return [x for x in visible.split(",") if x]
    import cupy

    return [str(i) for i in range(cupy.cuda.runtime.getDeviceCount())]


def gpu_cluster(ids: list[str]):
    """One Nanny per GPU id (its CUDA_VISIBLE_DEVICES pinned to it), one thread each."""
    from distributed import Nanny, Scheduler, SpecCluster

    workers = {
        f"gpu{i}": {
            "cls": Nanny,
            "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": dev}},
        }
        for i, dev in enumerate(ids)
    }
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": ":0"}}
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.ERROR)


def device_info(engine: str) -> dict:
    if engine != "cuda":
        return {"engine": engine}
    from nx_gpumine.engines.cuda import _runtime

    return _runtime.device_info()


def _worker_sees_gpu() -> bool:
    import importlib

    return importlib.import_module("nx_gpumine.engines").cuda_available()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="pl10m,synth10m,sk10m")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tasks-per-thread", default="4,1")
    ap.add_argument("--deadline", type=float, default=540.0, help="skip queries after this")
    ap.add_argument("--engine", default="cuda", help="engine of both paths (cpu: dry run)")
    ap.add_argument("--workers", type=int, default=0, help="dry run: CPU workers (0: one per GPU)")
    args = ap.parse_args()
    start = time.perf_counter()
    try:
        import dask
        import distributed
    except ImportError:
        raise SystemExit("dask.distributed is missing: install the wheels in .whl/ first") from None
    settings = [int(x) for x in args.tasks_per_thread.split(",")]
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    gpus = [str(i) for i in range(args.workers)] if args.workers else visible_gpus()
    cluster = gpu_cluster(gpus)
    client = distributed.Client(cluster)
    client.wait_for_workers(len(gpus))
    engine = args.engine
    record: dict = {
        "benchmark": "bench_dask_gpu.py",
        "command": " ".join(["python3", *sys.argv]),
        "machine": {
            "device": device_info(engine),
            "gpus_visible": gpus,
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "dask": dask.__version__,
            "distributed": distributed.__version__,
            "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
        "workers": {w: v for w, v in client.nthreads().items()},
        "worker_sees_gpu": client.run(_worker_sees_gpu),
        "graphs": {},
        "rows": [],
    }
    print(f"cluster: {len(gpus)} worker(s), GPU seen: {record['worker_sees_gpu']}", flush=True)
    for gname in args.graphs.split(","):
        t = time.perf_counter()
        graph = load(gname)
        record["graphs"][gname] = {"repr": repr(graph), "load_s": time.perf_counter() - t}
        print(f"{gname}: {graph} ({record['graphs'][gname]['load_s']:.1f} s)", flush=True)
        for label, call in queries(gname):
            if time.perf_counter() - start > args.deadline:
                record["rows"].append({"graph": gname, "query": label, "note": "skipped: deadline"})
                continue
            row: dict = {"graph": gname, "query": label}
            row["direct"] = timed(lambda c=call, g=graph: c(g, engine=engine), args.repeat)
            for per in settings:
                with dask.config.set({"nx_gpumine.tasks_per_thread": per}):
                    res = timed(
                        lambda c=call, g=graph: c(g, client=client, engine=engine), args.repeat
                    )
                res["overhead"] = res["median_s"] / row["direct"]["median_s"] - 1
                res["same_as_direct"] = res["result"] == row["direct"]["result"]
                row[f"dask_tasks_per_thread_{per}"] = res
            known = KNOWN.get((gname, label))
            row["known_count"] = known
            row["matches_known"] = None if known is None else row["direct"]["result"] == known
            record["rows"].append(row)
            d = row["direct"]["median_s"]
            parts = [f"{gname} {label}: direct {d:.3f} s"]
            for per in settings:
                r = row[f"dask_tasks_per_thread_{per}"]
                parts.append(
                    f"dask/{per} {r['median_s']:.3f} s ({100 * r['overhead']:+.1f} %, "
                    f"first {r['first_s']:.2f} s, same={r['same_as_direct']})"
                )
            print("; ".join(parts), flush=True)
        del graph
    client.close()
    cluster.close()
    (out_dir / "dask_gpu.json").write_text(json.dumps(record, indent=1, default=str))
    print(f"wrote {out_dir / 'dask_gpu.json'}")
    bad = [
        r
        for r in record["rows"]
        if "direct" in r
        and (
            r["matches_known"] is False
            or not all(r[f"dask_tasks_per_thread_{p}"]["same_as_direct"] for p in settings)
        )
    ]
    if bad:
        raise SystemExit(f"{len(bad)} queries disagree: {[(r['graph'], r['query']) for r in bad]}")


if __name__ == "__main__":
    main()
