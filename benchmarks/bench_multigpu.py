"""Several GPUs of one host (issues 11, 34): whole-call times on 1, 2, 4, 8 devices, speed-up vs 1.

usage (on the GPU machine, from the repo root):

    python3 benchmarks/bench_multigpu.py [--out OUT_DIR] [--devices 1,2,4,8] [--virtual]
        [--graphs pl10m,pl100m,synth10m,synth100m] [--patterns triangle,4-cycle,P1,...]
        [--big-patterns triangle,4-cycle,P1,P2,P7] [--motifs M1,M4,M8] [--delta 86400]
        [--repeat 3] [--warmups 4] [--deadline SECONDS] [--parts-sweep 2,4,8]

Dry run without a GPU (checks the script; the CPU engine on plain threads, small graphs):
``--dry-run``.

Queries are the public calls: ``count_subgraphs(G, P, engine="cuda", devices=D)`` on pl10m
(``powerlaw_graph.generate(2_000_000, 10_000_000, 2.3, 3000, 1)``, as bench_static_peers.py)
and pl100m (``generate(20_000_000, 100_000_000, 2.3, 6000, 1)``, drawn on the GPU), T-DFS
patterns and the triangle / 4-cycle, mappings; ``count_motifs(T, M, delta=86400,
tie="input_order", engine="cuda", devices=D)`` on synth10m (``gen_temporal.py --seed 1``: 10M
edges, 1M nodes, as bench_temporal_peers.py), synth100m (``gen_temporal.generate(100M
edges, 10M nodes, seed 1)``) and synth1b (1B edges, 100M nodes, seed 1). ``D`` is None (one
device, the single-device path) and then 2, 4, 8 devices, only as many as CuPy sees;
``--virtual`` also runs ``[0] * N`` (the split and merge of N devices on GPU 0, taking turns:
the overhead of splitting).

Each cell: ``--warmups`` calls (NVRTC compile, uploads to every device; the first is reported
as ``first_call_s``; the later ones let the placement rule time the query both ways, see
docs/multigpu.md), then the median of ``--repeat`` whole calls (host clock; a query's columns
take turns, one call each per round), with the last call's placement (``multigpu``: split or
not, why, per-device busy seconds). ``--parts-sweep`` adds 2-device cells of the
``--sweep-patterns`` queries with that many ``count_part`` parts per device
(``parts_per_device``; the default is ``COUNT_PARTS_PER_DEVICE``). Counts must equal the
one-device count (``counts_equal``). The targets (``target``, :data:`TARGET`): for a query
taking 100 ms or more on one device a speed-up of 1.9 or more on 2 devices (issue 34), 3.6 on
4 and 7 on 8 (issue 36); any other query at most 0.2 ms slower than one device (its median
over at least :data:`LIGHT_REPEAT` calls).
Writes OUT_DIR/multigpu.json (after every cell; OUT_DIR defaults to $OUT, else ./bench_out).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import networkx as nx  # noqa: E402
from bench_common import t_dfs_pattern  # noqa: E402
from gen_temporal import generate as gen_temporal  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.execution.executors import devices as mg  # noqa: E402
from nx_gpumine.inputs.patterns import as_pattern  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays  # noqa: E402

#: Speed-up a query of 100 ms or more on one device must reach (issue 34: 2, issue 36: 4 and 8).
TARGET = {2: 1.9, 4: 3.6, 8: 7.0}
#: Most a light query (under 100 ms on one device) may lose on several devices (issues 34, 36).
SLACK_MS = 0.2
#: Light cells (a column's median under LIGHT_MS) take the median of LIGHT_REPEAT calls: their
#: target is a 0.2 ms margin, below the run-to-run spread of 3 calls.
LIGHT_MS, LIGHT_REPEAT = 50.0, 15


def machine() -> dict:
    info = {
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "visible_devices": mg.device_count(),
    }
    if info["visible_devices"]:
        import cupy as cp

        from nx_gpumine.engines.cuda import _runtime

        devs = []
        for d in range(info["visible_devices"]):
            with cp.cuda.Device(d):
                devs.append(_runtime.device_info())
        info["devices"] = devs
    return info


def slot_sets(max_n: int, visible: int, virtual: bool) -> list[tuple[str, object]]:
    """(label, devices argument) per column: one device, then N devices (and [0]*N)."""
    cols: list[tuple[str, object]] = [("1", None)]
    for n in (2, 4, 8):
        if n <= max_n and n <= visible:
            cols.append((str(n), n))
    if virtual:
        for n in (2, 4, 8):
            if n <= max_n:
                cols.append((f"{n}v", [0] * n))
    return cols


def warm(fn, warmups: int) -> dict:
    """The first call (compile, uploads) and ``warmups - 1`` more (placement timing)."""
    mg.last_run.clear()
    t = time.perf_counter()
    first = fn()
    first_s = time.perf_counter() - t
    for _ in range(warmups - 1):
        fn()
    return {"count": first, "first_call_s": first_s}


def timed_round_robin(fns: dict, repeat: int) -> dict:
    """Whole-call times of the warm calls ``fns`` (label -> call), taken in turns (one call of
    each per round: drift of the host or the GPUs' clocks falls on every column alike);
    ``repeat`` rounds, :data:`LIGHT_REPEAT` where a column's median is under :data:`LIGHT_MS`
    (one slow call, e.g. a device set's first split, does not cut a light query's rounds)."""
    walls: dict = {k: [] for k in fns}
    values: dict = {k: [] for k in fns}
    runs: dict = {}
    n = 0
    while n < repeat or (
        n < LIGHT_REPEAT and min(statistics.median(w) for w in walls.values()) < LIGHT_MS
    ):
        for label, fn in fns.items():
            mg.last_run.clear()  # one-device calls leave it empty
            t = time.perf_counter()
            values[label].append(fn())
            walls[label].append(1e3 * (time.perf_counter() - t))
            runs[label] = {k: v for k, v in mg.last_run.items() if k != "slots"}
        n += 1
    return {
        k: {
            "values": values[k],
            "wall_ms": statistics.median(walls[k]),
            "wall_ms_all": walls[k],
            "multigpu": runs[k],
        }
        for k in fns
    }


def timed(fn, repeat: int, warmups: int = 2) -> dict:
    """One call's :func:`warm` and :func:`timed_round_robin` alone."""
    cell = warm(fn, warmups)
    got = timed_round_robin({"": fn}, repeat)[""]
    cell["consistent"] = all(v == cell["count"] for v in got.pop("values"))
    return {**cell, **got}


STATIC_SPECS = {
    "pl10m": (2_000_000, 10_000_000, 2.3, 3000, 1),
    "pl100m": (20_000_000, 100_000_000, 2.3, 6000, 1),
}
TEMPORAL_SPECS = {
    "synth10m": (10_000_000, 1_000_000),
    "synth100m": (100_000_000, 10_000_000),
    "synth1b": (1_000_000_000, 100_000_000),  # issue 36: about 24 GB drawn, 53 GB built
}


def static_graph(name: str, dry: bool):
    t = time.perf_counter()
    if dry:
        G = nx.gnm_random_graph(3000, 30000, seed=1)
        a, b = (np.array(x) for x in zip(*G.edges, strict=True))
        g, src = from_arrays(a, b, num_nodes=3000), "gnm_random_graph(3000, 30000, seed=1)"
    else:
        spec = STATIC_SPECS[name]
        a, b = generate(*spec, device=True)
        g = from_arrays(a, b, num_nodes=spec[0])
        src = "powerlaw_graph.py " + " ".join(map(str, spec))
    return g, {"source": src, "build_s": time.perf_counter() - t}


def temporal_graph(name: str, dry: bool):
    t = time.perf_counter()
    if dry:
        s, d, tt = gen_temporal(edges=50_000, nodes=5_000, seed=1)
        g = temporal_from_arrays(s, d, tt, nodes=range(5_000))
        src = "gen_temporal.generate(edges=50000, nodes=5000, seed=1)"
    else:
        m, n = TEMPORAL_SPECS[name]
        s, d, tt = gen_temporal(edges=m, nodes=n, seed=1, device=True)
        g = temporal_from_arrays(s, d, tt, nodes=range(n))
        src = f"gen_temporal.py --edges {m} --nodes {n} --seed 1"
    return g, {"source": src, "build_s": time.perf_counter() - t}


def static_call(g, pat, devices, dry: bool):
    if not dry:
        return lambda: ng.count_subgraphs(g, pat, engine="cuda", devices=devices)
    from nx_gpumine.execution.jobs.static import StaticJob
    from nx_gpumine.execution.runner import run_on_devices
    from nx_gpumine.execution.static import run_static
    from nx_gpumine.plan.static_plan import static_plan

    plan = static_plan(pat, g, induced=False, distinct=True)
    aut = plan.num_automorphisms
    if devices is None:
        return lambda: aut * run_static(g, plan, "count", engine="cpu")
    slots = list(range(devices)) if isinstance(devices, int) else devices
    return lambda: aut * run_on_devices(StaticJob.of(g, plan, "count"), "cpu", slots)


def temporal_call(g, motif: str, delta: int, devices, dry: bool):
    kw = dict(delta=delta, tie="input_order")
    if not dry:
        return lambda: ng.count_motifs(g, motif, engine="cuda", devices=devices, **kw)
    from nx_gpumine.execution.jobs.temporal import TemporalJob
    from nx_gpumine.execution.runner import run_on_devices
    from nx_gpumine.execution.temporal import run_temporal
    from nx_gpumine.inputs.motifs import named_motif
    from nx_gpumine.plan.temporal_plan import temporal_plan

    plan = temporal_plan(named_motif(motif).with_(**kw), g)
    if devices is None:
        return lambda: run_temporal(g, plan, "count", engine="cpu")
    slots = list(range(devices)) if isinstance(devices, int) else devices
    return lambda: run_on_devices(TemporalJob.of(g, plan, "count"), "cpu", slots)


def add_speedups(cells: list[dict]) -> None:
    base = next((c for c in cells if c["devices"] == "1" and "wall_ms" in c), None)
    if base is None:
        return
    for c in cells:
        if "wall_ms" not in c:
            continue
        c["speedup"] = base["wall_ms"] / max(c["wall_ms"], 1e-9)
        c["counts_equal"] = c["count"] == base["count"]
        n = int(c["devices"]) if c["devices"].isdigit() else None
        if n in TARGET and base["wall_ms"] >= 100.0:
            c["target"] = "met" if c["speedup"] >= TARGET[n] else "missed"
        elif n is not None and n > 1:
            c["target"] = "met" if c["wall_ms"] <= base["wall_ms"] + SLACK_MS else "missed"
        else:
            c["target"] = "n/a"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT", "bench_out"))
    ap.add_argument("--devices", default="1,2,4,8", help="device counts to try (capped)")
    ap.add_argument("--virtual", action="store_true", help="also [0]*N on GPU 0")
    ap.add_argument("--graphs", default="pl10m,synth10m")
    ap.add_argument("--patterns", default="triangle,4-cycle,P1,P2,P3,P4,P5,P6,P7")
    ap.add_argument("--big-patterns", default="triangle,4-cycle,P1,P2,P7", help="on pl100m")
    ap.add_argument("--motifs", default="M1,M4,M8")
    ap.add_argument("--delta", type=int, default=86400)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--warmups", type=int, default=4)
    ap.add_argument("--deadline", type=float, default=480.0, help="seconds for the whole run")
    ap.add_argument("--dry-run", action="store_true", help="CPU engine, small graphs")
    ap.add_argument("--count-parts", type=int, default=mg.COUNT_PARTS_PER_DEVICE)
    ap.add_argument("--parts-sweep", default="", help="count parts per device to try, e.g. 2,4")
    ap.add_argument("--sweep-patterns", default="P5", help="queries the sweep runs on")
    ap.add_argument("--ranges-per-device", type=int, default=mg.RANGES_PER_DEVICE)
    args = ap.parse_args()
    mg.COUNT_PARTS_PER_DEVICE = args.count_parts  # count_part parts per slot (static counts)
    mg.RANGES_PER_DEVICE = args.ranges_per_device  # root ranges per slot (temporal)
    t_start = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    dry = args.dry_run
    visible = 8 if dry else mg.device_count()
    if not dry and visible < 1:
        raise SystemExit("no CUDA device visible (use --dry-run to check the script)")
    max_n = max(int(x) for x in args.devices.split(","))
    cols = slot_sets(max_n, visible, args.virtual)
    report: dict = {
        "machine": machine(),
        "args": vars(args),
        "columns": [c[0] for c in cols],
        "graphs": {},
        "rows": [],
        "skipped": [],
    }
    path = out / "multigpu.json"

    def save() -> None:
        path.write_text(json.dumps(report, indent=1, default=str))

    def late(what: str) -> bool:
        if time.perf_counter() - t_start > args.deadline:
            report["skipped"].append(what)
            print(f"deadline: {what} skipped", flush=True)
            return True
        return False

    def run_query(row: dict, make) -> None:
        cells, fns = [], {}
        for label, devices in cols:
            if late(f"{row['graph']} {row['query']} on {label}"):
                continue
            fn = make(devices)
            try:
                cell = {"devices": label, **warm(fn, args.warmups)}
                fns[label] = fn
            except Exception as exc:  # recorded: the rest of the run still reports
                cell = {"devices": label, "error": repr(exc)}
            cells.append(cell)
        try:
            times = timed_round_robin(fns, args.repeat) if fns else {}
        except Exception as exc:
            times = {}
            for cell in cells:
                cell.setdefault("error", repr(exc))
        for cell in cells:
            got = times.get(cell["devices"])
            if got is not None:
                cell["consistent"] = all(v == cell["count"] for v in got.pop("values"))
                cell.update(got)
            print(
                f"{row['graph']:9s} {row['query']:9s} devices={cell['devices']:3s} "
                f"{cell.get('wall_ms', float('nan')):10.2f} ms  count={cell.get('count')}"
                f"  {cell.get('multigpu', cell.get('error', ''))}",
                flush=True,
            )
        if "2" in fns and row["query"] in args.sweep_patterns.split(","):
            for k in (int(x) for x in args.parts_sweep.split(",") if x):
                keep = mg.COUNT_PARTS_PER_DEVICE
                mg.COUNT_PARTS_PER_DEVICE = k
                try:
                    more = timed(fns["2"], args.repeat, args.warmups)
                finally:
                    mg.COUNT_PARTS_PER_DEVICE = keep
                cells.append({"devices": "2", "parts_per_device": k, **more})
        add_speedups(cells)
        row["cells"] = cells
        report["rows"].append(row)
        save()

    for gname in args.graphs.split(","):  # in the order given
        if late(gname):
            continue
        if gname in STATIC_SPECS:
            g, info = static_graph(gname, dry)
            report["graphs"][gname] = info
            print(f"== {gname}: n={g.n} entries={len(g.indices)} {info}", flush=True)
            names = args.patterns if gname == "pl10m" else args.big_patterns
            for pname in names.split(","):
                pat = t_dfs_pattern(pname) if pname.startswith("P") else as_pattern(pname)
                row = {"graph": gname, "query": pname, "kind": "mappings"}
                run_query(row, lambda d, pat=pat, g=g: static_call(g, pat, d, dry))
        else:
            g, info = temporal_graph(gname, dry)
            report["graphs"][gname] = info
            print(f"== {gname}: m={g.m} {info}", flush=True)
            for motif in args.motifs.split(","):
                row = {"graph": gname, "query": motif, "delta": args.delta}
                run_query(
                    row, lambda d, motif=motif, g=g: temporal_call(g, motif, args.delta, d, dry)
                )
        del g
    report["total_s"] = time.perf_counter() - t_start
    save()
    print(f"wrote {path}")
    for row in report["rows"]:
        cells = " ".join(
            f"{c['devices']}{'/p' + str(c['parts_per_device']) if 'parts_per_device' in c else ''}"
            f":{c.get('wall_ms', float('nan')):.1f}ms"
            f"(x{c.get('speedup', float('nan')):.2f},{c.get('target', '?')},"
            f"{'=' if c.get('counts_equal') else '!='})"
            for c in row["cells"]
        )
        print(f"{row['graph']} {row['query']}: {cells}")


if __name__ == "__main__":
    main()
