"""The static subgraph census on the GPU and the CPU, side by side with G2Miner's motif apps.

usage: python3 benchmarks/bench_graphlets.py OUT_DIR [--graphs facebook,pl1m,pl10m]
       [--ks 3,4,5] [--k5-graphs facebook] [--engines cuda,cpu] [--cpu-graphs facebook]
       [--repeat 3] [--orbits facebook,pl1m,pl10m] [--orbits5 facebook] [--cpu-k5 facebook]
       [--deadline SECONDS]

Times the public call ``nx_gpumine.subgraph_census(graph, k, engine=...)`` (induced counts of
every connected k-node pattern) on a prepared graph: a first call (compiling the kernels of each
pattern), then ``--repeat`` calls (100 when their median is under 5 ms), whole-call wall time
(what a user waits for; the census is several engine calls), median. G2Miner's
``motif_gpu_base`` / ``motif_gpu_formula`` (k = 3, 4) are read from OUT_DIR/g2miner_motif.tsv
(``graph app k counts ms status``, written by ``device_graphlets_peers.sh`` in the same device
call); their counts come in G2Miner's own
pattern order, so they are compared with ours as multisets (and totals). Kernel time: the device
time of the census's kernels (``execution.subgraph_census.last_census["kernel_ms"]``), median.

ORCA (``device_graphlets_peers.sh`` runs it on the host's CPU, one thread, beside the GPU work):
OUT_DIR/orca.tsv (``graph k seconds status``) and its per-node output OUT_DIR/orca/GRAPH.K.out;
``--orbits`` graphs get our CPU engine's per-node orbit counts (k = 4,
``graphlet_orbits``), ``--orbits5`` graphs those of k = 5 too (the 73 orbits), timed and compared
with ORCA's rows node for node, and the census totals (GPU) compared with ORCA's orbit sums.
ESCAPE (``device_graphlets_peers.sh``, ``ESCAPE_RUNS``, one thread, beside the GPU work too):
OUT_DIR/escape.tsv (``benchmarks/peers/escape/escape_counts.py run``: its non-induced counts by
our graphlet names), compared with our census converted exactly to non-induced counts; the
table gives the best of ORCA's and ESCAPE's times over our call.
Writes OUT_DIR/graphlets_peers.json and .md.
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
from nx_gpumine.engines.cpu.orbit_counts import node_orbit_counts  # noqa: E402
from nx_gpumine.engines.cpu.orbit_equations5 import node_orbit_counts5  # noqa: E402
from nx_gpumine.execution.subgraph_census import last_census  # noqa: E402
from nx_gpumine.plan.graphlets import graphlets, noninduced_counts  # noqa: E402
from nx_gpumine.plan.orbits import orbits  # noqa: E402


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


def peer_runs_done(out: Path) -> bool:
    """Whether every ORCA and ESCAPE run that device_graphlets_peers.sh started (its
    OUT_DIR/peer_runs.tsv: ``peer graph k`` per run) has its row in orca.tsv / escape.tsv."""
    p = out / "peer_runs.tsv"
    if not p.exists():
        return True
    done = {"orca": read_orca(out), "escape": read_escape(out)}
    runs = [line.split() for line in p.read_text().splitlines() if line.strip()]
    return all((g, int(k)) in done[peer] for peer, g, k in runs)


def read_orca(out: Path) -> dict:
    """``{(graph, k): (seconds, status)}`` from orca.tsv."""
    got: dict = {}
    p = out / "orca.tsv"
    if p.exists():
        with p.open() as f:
            for row in csv.DictReader(f, delimiter="\t"):
                s = float(row["seconds"]) if row["seconds"] not in ("NA", "") else None
                got[(row["graph"], int(row["k"]))] = (s, row["status"])
    return got


def orbit_totals(per_node: np.ndarray, k: int = 4) -> dict:
    """Induced k-node graphlet totals from per-node orbit counts (one orbit each: its sum over
    the nodes divided by the orbit's nodes in the graphlet)."""
    totals: dict = {}
    for o in orbits(k):
        if o.k == k and o.graphlet not in totals:
            totals[o.graphlet] = int(per_node[:, o.index].sum()) // len(o.nodes)
    return totals


#: A census call faster than this (ms, median of ``--repeat``) is timed over
#: :data:`SMALL_CALL_RUNS` calls: its median then does not hang on a few calls' jitter.
SMALL_CALL_MS = 5.0
SMALL_CALL_RUNS = 100


def time_census(g, k: int, engine: str, repeat: int) -> dict:
    t = time.perf_counter()
    first = ng.subgraph_census(g, k, engine=engine)
    first_s = time.perf_counter() - t
    walls, kms = [], []
    runs = repeat
    while len(walls) < runs:
        t = time.perf_counter()
        again = ng.subgraph_census(g, k, engine=engine)
        walls.append(1e3 * (time.perf_counter() - t))
        kms.append(float(last_census.get("kernel_ms", 0.0)))
        assert again == first
        if len(walls) == repeat and np.median(walls) < SMALL_CALL_MS:
            runs = SMALL_CALL_RUNS  # a call of a millisecond or less: the median of more
    return {"counts": first, "first_s": first_s, "call_ms": float(np.median(walls)),
            "call_ms_all": walls, "kernel_ms": float(np.median(kms)),
            "by_pattern": dict(last_census.get("by_pattern", {})),
            "query_kernel_ms": dict(last_census.get("query_kernel_ms", {}))}  # fmt: skip


def time_orbits(g, gname: str, repeat: int = 2, k: int = 4) -> tuple[dict, np.ndarray]:
    """Our CPU per-node orbit counts (k = 4 or 5) on ``g``: the row and the counts."""

    def run() -> np.ndarray:
        if k == 5:
            return node_orbit_counts5(g.indptr, g.indices)
        return node_orbit_counts(g.indptr, g.indices, 4)

    t = time.perf_counter()
    mine = run()
    first_s = time.perf_counter() - t
    secs = []
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        secs.append(time.perf_counter() - t)
    secs = secs or [first_s]  # repeat 0: the first run (numba's compile takes ~1 s of it)
    row = {"graph": gname, "k": k, "engine": "cpu", "first_s": first_s,
           "seconds": float(np.median(secs)), "totals": orbit_totals(mine, k)}  # fmt: skip
    return row, mine


def read_escape(out: Path) -> dict:
    """``{(graph, k): (seconds, status, non-induced counts by graphlet)}`` from escape.tsv
    (``benchmarks/peers/escape/escape_counts.py run``)."""
    p = out / "escape.tsv"
    found: dict = {}
    if p.exists():
        for line in p.read_text().splitlines()[1:]:
            g, k, sec, status, counts = line.split("\t")
            ok = status == "ok"
            found[(g, int(k))] = (float(sec) if ok else None, status, json.loads(counts))
    return found


def escape_equal(row: dict, escape_counts: dict) -> str:
    """Whether ESCAPE's non-induced counts equal ours (our induced census converted exactly);
    "close" where some count passes 2**53 (ESCAPE counts in doubles) and all agree to 1e-12."""
    gs = graphlets(row["k"], False)
    ours = noninduced_counts([int(row["counts"][g.name]) for g in gs], row["k"], False)
    theirs = [escape_counts.get(g.name) for g in gs]
    if any(t is None for t in theirs):
        return "missing"
    if all(int(t) == o for t, o in zip(theirs, ours, strict=True)):
        return "True"
    close = all(abs(t - o) <= 1e-12 * max(abs(o), 1) for t, o in zip(theirs, ours, strict=True))
    return "close (doubles)" if close and max(ours) > 2**53 else "False"


def compare_orca(row: dict, mine: np.ndarray, out: Path, wait_until: float) -> None:
    """Wait (until ``wait_until``, a ``time.perf_counter`` value) for ORCA's run of the row's
    cell, then compare its per-node rows with ours (``orca_equal``)."""
    gname, k = row["graph"], row["k"]
    while (gname, k) not in read_orca(out) and time.perf_counter() < wait_until:
        time.sleep(1.0)  # ORCA (background, CPU) not done with this graph yet
    p = out / "orca" / f"{gname}.{k}.out"
    if not p.exists():  # k = 5 rows are gzipped (pandas reads either)
        p = p.with_name(p.name + ".gz")
    if p.exists():
        import pandas as pd

        theirs = pd.read_csv(p, sep=" ", header=None).to_numpy(dtype=np.int64)
        row["orca_equal"] = bool(theirs.shape == mine.shape and (theirs == mine).all())
    orca = read_orca(out).get((gname, k))
    if orca is not None:
        row.update(orca_s=orca[0], orca_status=orca[1])


def choose_device_walk(how: str, out: Path) -> bool:
    """Set (and return) the CUDA census's ``DEVICE_WALK`` switch (``--device-walk``)."""
    from nx_gpumine.engines.cuda import census as cuda_census

    if how == "probe":
        p = out / "census_walk.json"
        rows = [r for r in json.loads(p.read_text()) if "host_s" in r] if p.exists() else []
        how = "on" if rows and all(
            r["equal"] and r["device_timed_s"] < r["host_s"] for r in rows
        ) else "off"  # fmt: skip
    if how != "default":
        cuda_census.DEVICE_WALK = how == "on"
    print(f"DEVICE_WALK = {cuda_census.DEVICE_WALK}", flush=True)
    return cuda_census.DEVICE_WALK


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
    ap.add_argument("--cpu-k5", default="", help="graphs that get k = 5 on the CPU engine too")
    ap.add_argument("--orbits", default="facebook,pl1m,pl10m", help="graphs for CPU orbits")
    ap.add_argument("--orbits5", default="facebook", help="graphs for CPU orbits of k = 5 too")
    ap.add_argument("--orbits5-repeat", default=1, help="timed runs after the first (k = 5)")
    ap.add_argument(
        "--device-walk",
        default="default",
        choices=("default", "on", "off", "probe"),
        help="the CUDA census's 2-path walk on the GPU (engines.cuda.census."
        "DEVICE_WALK); probe: on where OUT/census_walk.json (probe_census_walk.py) "
        "shows it equal to the host walk and faster on every graph it timed both",
    )
    args = ap.parse_args()
    out = Path(args.out)
    device_walk = choose_device_walk(args.device_walk, out)
    t_start = time.perf_counter()
    peers = read_g2miner(out)
    machine = {"python": platform.python_version(), "host": platform.node(),
               "device_walk": device_walk}  # fmt: skip
    try:
        import cupy as cp

        machine["gpu"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    except Exception:  # no GPU: CPU rows only
        pass
    rows, graphs, loaded, orbit_rows = [], {}, {}, []
    # every GPU row first, then the CPU rows (a deadline cuts the CPU rows first)
    for engine in filter(None, args.engines.split(",")):  # --engines "": per-node orbits only
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
                k5 = args.cpu_k5 if engine == "cpu" else args.k5_graphs
                if k == 5 and gname not in k5.split(","):
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
                               ratio=ms / max(r["kernel_ms"], 1e-9),
                               ratio_call=ms / r["call_ms"])  # fmt: skip
                orca = read_orca(out).get((gname, k))
                if orca is not None:
                    row.update(orca_s=orca[0], orca_status=orca[1])
                _add_escape(row, out)
                rows.append(row)
                write(out, machine, graphs, rows)
                print(f"{gname:9s} k={k} {engine:4s} call={r['call_ms']:10.3f} ms "
                      f"first={r['first_s']:.2f} s total={sum(r['counts'].values()):,} "
                      f"g2miner={row.get('g2miner_ms')} ratio={row.get('ratio')}",
                      flush=True)  # fmt: skip
    cells = [(gname, 4) for gname in args.orbits.split(",") if gname]
    cells += [(gname, 5) for gname in args.orbits5.split(",") if gname]
    computed = []  # ours first, every cell, then ORCA's (each waits for its run to end)
    for gname, k in cells:
        if time.perf_counter() - t_start > args.deadline:
            continue
        if gname not in loaded:
            loaded[gname], info = load_graph(gname)
            graphs[gname] = {"nodes": loaded[gname].n, "edges": loaded[gname].num_edges, **info}
        r, mine = time_orbits(loaded[gname], gname, repeat=int(args.orbits5_repeat) if k == 5
                              else 2, k=k)  # fmt: skip
        census = next((x for x in rows if x["graph"] == gname and x["k"] == k), None)
        if census is not None:
            r["census_equal"] = r["totals"] == {
                kk: v for kk, v in census["counts"].items() if kk in r["totals"]
            }
        orbit_rows.append(r)
        computed.append(mine)
        print(f"{gname:9s} orbits k={k} cpu {r['seconds']:.3f} s", flush=True)
        write(out, machine, graphs, rows, orbit_rows)
    for r, mine in zip(orbit_rows, computed, strict=True):
        compare_orca(r, mine, out, t_start + args.deadline)
        print(f"{r['graph']:9s} orbits k={r['k']} orca={r.get('orca_s')} "
              f"{r.get('orca_status')} equal={r.get('orca_equal')}", flush=True)  # fmt: skip
        write(out, machine, graphs, rows, orbit_rows)
    while time.perf_counter() - t_start < args.deadline and not peer_runs_done(out):
        time.sleep(1.0)  # the peers' runs still going (k = 5 takes minutes)
    for r in rows:  # the peers' times as they are now (runs finished after a row was written)
        orca = read_orca(out).get((r["graph"], r["k"]))
        if orca is not None:
            r.update(orca_s=orca[0], orca_status=orca[1])
        _add_escape(r, out)
    print(write(out, machine, graphs, rows, orbit_rows))


def _add_escape(row: dict, out: Path) -> None:
    """ESCAPE's time, status and agreement for a census row (when escape.tsv has the cell)."""
    esc = read_escape(out).get((row["graph"], row["k"]))
    if esc is not None:
        row.update(escape_s=esc[0], escape_status=esc[1])
        if esc[1] == "ok":
            row["escape_equal"] = escape_equal(row, esc[2])


def _best_peer_cells(row: dict, ours_s: float) -> tuple[str, str]:
    """ESCAPE's time (or status) and the best of ORCA's and ESCAPE's times over ours."""
    esc = row.get("escape_s")
    best = min((t for t in (row.get("orca_s"), esc) if t), default=None)
    esc_txt = f"{esc:.3f}" if esc else row.get("escape_status", "")
    return esc_txt, (f"{best / ours_s:.1f}" if best else "")


def _orca_cells(row: dict, ours_s: float) -> tuple[str, str]:
    """A row's ORCA time (or status) and ORCA's time over ours, as table text."""
    orca = row.get("orca_s")
    if not orca:
        return row.get("orca_status", ""), ""
    return f"{orca:.3f}", f"{orca / ours_s:.1f}"


def write(out: Path, machine: dict, graphs: dict, rows: list, orbit_rows: list = ()) -> str:
    """Write graphlets_peers.json and .md (after every row: a cut run keeps what it did)."""
    (out / "graphlets_peers.json").write_text(json.dumps(
        {"machine": machine, "graphs": graphs, "rows": rows, "orbits": list(orbit_rows),
         "orca": {f"{g}:{k}": v for (g, k), v in read_orca(out).items()},
         "escape": {f"{g}:{k}": v[:2] for (g, k), v in read_escape(out).items()}},
        indent=1, default=str))  # fmt: skip
    lines = [
        "| graph | k | engine | patterns | total | kernel ms | call ms | G2Miner ms (app) | "
        "kernel ratio | call ratio | counts equal | ORCA s | ORCA / our call | ESCAPE s | "
        "ESCAPE equal | best of ORCA, ESCAPE / our call |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        peer = f"{r['g2miner_ms']:.3f} ({r['g2miner_app']})" if "g2miner_ms" in r else ""
        ratio = f"{r['ratio']:.2f}" if "ratio" in r else ""
        ratio_call = f"{r['ratio_call']:.2f}" if "ratio_call" in r else ""
        orca_txt, orca_ratio = _orca_cells(r, r["call_ms"] / 1e3)
        esc_txt, best_ratio = _best_peer_cells(r, r["call_ms"] / 1e3)
        lines.append(
            f"| {r['graph']} | {r['k']} | {r['engine']} | {len(r['counts'])} | "
            f"{sum(r['counts'].values()):,} | {r.get('kernel_ms', 0.0):.3f} | "
            f"{r['call_ms']:.3f} | {peer} | {ratio} | {ratio_call} | "
            f"{r.get('counts_equal', '')} | {orca_txt} | {orca_ratio} | {esc_txt} | "
            f"{r.get('escape_equal', '')} | {best_ratio} |"
        )
    if orbit_rows:
        lines += ["", "| graph | per-node orbits | our CPU s | ORCA s | ORCA / ours | "
                  "equal to ORCA | totals equal to census |",
                  "|---|---|---:|---:|---:|---|---|"]  # fmt: skip
        for r in orbit_rows:
            orca_txt, orca_ratio = _orca_cells(r, r["seconds"])
            lines.append(
                f"| {r['graph']} | k={r['k']}: {73 if r['k'] == 5 else 15} orbits | "
                f"{r['seconds']:.3f} | {orca_txt} | {orca_ratio} | "
                f"{r.get('orca_equal', '')} | {r.get('census_equal', '')} |"
            )
    text = "\n".join(lines) + "\n"
    (out / "graphlets_peers.md").write_text(text)
    return text


if __name__ == "__main__":
    main()
