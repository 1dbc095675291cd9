"""Motif tables (issue 32): ``motif_counts`` of M1..M13 at several windows against the single
``count_motifs`` calls of every cell, and against Everest's processing times where the peer kit
ran in the same device call.

usage: python3 benchmarks/bench_motif_table.py [OUT_DIR] [--graphs collegemsg,synth10m,sk10m]
       [--engine cpu|cuda] [--deltas 3600,86400] [--repeat 3] [--cuda-windows]

Graphs as benchmarks/bench_temporal_peers.py loads them; the tie policy is Everest's
(``input_order``). Per graph: one warm-up of each (numba / NVRTC compiles, uploads), then the
median of ``--repeat`` whole calls of the table, and of the loop of its single calls. Everest's
counts and processing times are read from OUT_DIR/everest.tsv (``graph motif delta count us``)
when present; its total is the sum over the cells it ran. Every table cell must equal its single
call (and Everest's count). ``--cuda-windows`` (with ``--engine cuda``) also times the CUDA
engine's one walk per motif over every window (``engines.cuda.temporal.count_windows``, the
table's motifs one after another, each at the widest window with the matches binned by span):
``walks_s``, its counts checked against the single calls. Writes OUT_DIR/motif_table.json
(default OUT_DIR: ``$OUT``, else ``bench_out``).
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

import numba

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import EVEREST_NAME, MOTIFS, load, read_everest  # noqa: E402

import nx_gpumine as ng  # noqa: E402


def median_s(fn, repeat: int) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), value


def window_walks(g, deltas: list[int]):
    """Per motif, the CUDA engine's count_windows at the widest window, rows in ``deltas``'
    order: a call computing the table that way."""
    from nx_gpumine.engines.cuda import temporal as cuda_temporal
    from nx_gpumine.inputs.motifs import named_motif
    from nx_gpumine.plan.temporal_plan import temporal_plan

    ordered = sorted(set(deltas))
    plans = [
        temporal_plan(named_motif(m).with_(delta=ordered[-1], tie="input_order"), g) for m in MOTIFS
    ]

    def walks() -> list[list[int]]:
        rows = []
        for plan in plans:
            counts = cuda_temporal.count_windows(g, plan, ordered[:-1])
            got = dict(zip(ordered, counts, strict=True))
            rows.append([got[d] for d in deltas])
        return rows

    return walks


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=os.environ.get("OUT", "bench_out"))
    ap.add_argument("--graphs", default="collegemsg")
    ap.add_argument("--engine", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--deltas", default="3600,86400")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cuda-windows", action="store_true", help="also time count_windows walks")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    deltas = [int(x) for x in args.deltas.split(",")]
    everest = read_everest(out)
    report: dict = {
        "engine": args.engine,
        "motifs": MOTIFS,
        "deltas": deltas,
        "tie": "input_order",
        "threads": numba.get_num_threads(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "graphs": {},
    }
    for name in args.graphs.split(","):
        g, info = load(name)
        kw = dict(tie="input_order", engine=args.engine)

        def table(g=g, kw=kw):
            return ng.motif_counts(g, MOTIFS, deltas, **kw)

        def singles(g=g, kw=kw):
            return [[ng.count_motifs(g, m, delta=d, **kw) for d in deltas] for m in MOTIFS]

        table(), singles()  # warm-up
        table_s, frame = median_s(table, args.repeat)
        singles_s, cells = median_s(singles, args.repeat)
        rows = frame.to_numpy().tolist()
        ev = {
            (m, d): everest[(EVEREST_NAME[name], m, d)]
            for m in MOTIFS
            for d in deltas
            if (EVEREST_NAME[name], m, d) in everest
        }
        ev_equal = all(
            ev[m, d][0] == rows[i][j]
            for i, m in enumerate(MOTIFS)
            for j, d in enumerate(deltas)
            if (m, d) in ev
        )
        res = {
            **info,
            "table_s": table_s,
            "singles_s": singles_s,
            "table_vs_singles": table_s / singles_s,
            "counts_equal": rows == cells,
            "table": rows,
            "everest_cells": len(ev),
            "everest_s": sum(t for _, t in ev.values()) if ev else None,
            "everest_counts_equal": ev_equal if ev else None,
        }
        if ev:
            res["everest_vs_table"] = res["everest_s"] / table_s
        if args.cuda_windows and args.engine == "cuda":
            walks = window_walks(g, deltas)
            walks()  # warm-up (the binning modules compile)
            walks_s, wrows = median_s(walks, args.repeat)
            res.update(walks_s=walks_s, walks_vs_singles=walks_s / singles_s)
            res["walks_counts_equal"] = wrows == cells
            if ev:
                res["everest_vs_walks"] = res["everest_s"] / walks_s
            print(
                f"{name}: one walk per motif {walks_s:.3f} s ({walks_s / singles_s:.2f}x the "
                f"single calls), counts equal {wrows == cells}",
                flush=True,
            )
        report["graphs"][name] = res
        print(
            f"{name}: table {table_s:.3f} s, {len(MOTIFS) * len(deltas)} single calls "
            f"{singles_s:.3f} s ({res['table_vs_singles']:.2f}x), counts equal {rows == cells}"
            + (f"; Everest {res['everest_s']:.3f} s over {len(ev)} cells" if ev else ""),
            flush=True,
        )
        (out / "motif_table.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
