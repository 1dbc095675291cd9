"""Switch probe for the CUDA temporal engine: kernel time with each switch on and off.

usage: python3 benchmarks/probe_temporal.py OUT_DIR [--cells synth10m:M8:86400,...]

For each cell (graph, Everest motif, delta; input-order ties as Everest counts), times
``engines.cuda.temporal.count`` with the default switches and with each variant of
``--variants`` (medians of 3 kernel-event times after a warm-up, and of the engine call's
wall time; every count must equal the default's). A variant sets call switches (``steal``,
``tail_ms``, ``count_last``, ``expand``) and tuning fields (``engines.cuda.temporal_tuning.
TemporalTuning``, swapped in with ``tuned``: ``expand_roots``, ``split_min``,
``split_gate_roots``, ``root_chunk``, ``root_filter``, ``root_filter_max_kept``, and
``pair_min``, ``min_blocks``, ``early_walk`` and ``lazy_end_edges``, compiled into the kernel).
Writes OUT_DIR/temporal_probe.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import load  # noqa: E402

from nx_gpumine.engines.cuda import temporal as gpu  # noqa: E402
from nx_gpumine.interfaces.temporal_functions import _prepare  # noqa: E402
from nx_gpumine.plan.temporal_plan import build_temporal_plan  # noqa: E402

#: the column names count_motifs defaults to
GKW = ("source", "target", "time", None, None, None)  # _prepare's column arguments
CELLS = (
    "synth10m:M8:86400,synth10m:M4:86400,synth10m:M11:86400,synth10m:M10:86400,"
    "sk10m:M10:3600,sk10m:M8:86400,sk10m:M7:86400"
)
VARIANTS = {
    "default": {},
    "no_steal": {"steal": False},
    "no_tail": {"tail_ms": 0.0},
    "no_count_last": {"count_last": False},
    "no_steal_no_tail": {"steal": False, "tail_ms": 0.0},
    "no_expand": {"expand": False},
    "expand_all": {"expand_roots": 1 << 24},
    "split4": {"split_min": 4},
    "split8": {"split_min": 8},
    "split32": {"split_min": 32},
    "split64": {"split_min": 64},
    "chunk128": {"root_chunk": 128},
    "chunk64": {"root_chunk": 64},
    "split16": {"split_min": 16},
    "chunk512": {"root_chunk": 512},
    "pair_direct": {"pair_min": -1},
    "pair0": {"pair_min": 0},
    "pair8": {"pair_min": 8},
    "pair128": {"pair_min": 128},
    "no_filter": {"root_filter": False},
    "filter_always": {"root_filter_max_kept": 1.0},
    "split_always": {"split_gate_roots": 0},
    "nocap": {"min_blocks": 1},
    "cap5": {"min_blocks": 5},
    "cap6": {"min_blocks": 6},
    "cap7": {"min_blocks": 7},
    "cap8": {"min_blocks": 8},
    "no_early_walk": {"early_walk": False},
    "no_lazy_end": {"lazy_end_edges": 1 << 62},
    "lazy_end": {"lazy_end_edges": 0},
}
#: a variant's keys that are arguments of the call (the others are tuning fields)
CALL_SWITCHES = ("steal", "tail_ms", "count_last", "expand")
#: tuning fields compiled into the kernel: a variant with one gets a fresh plan
COMPILED: tuple = ("pair_min", "min_blocks", "early_walk", "lazy_end_edges")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cells", default=CELLS)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="names from VARIANTS")
    ap.add_argument("--deadline", type=float, default=1e9, help="stop after this many seconds")
    args = ap.parse_args()
    variants = {name: VARIANTS[name] for name in ["default", *args.variants.split(",")]}
    t_start = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    graphs: dict = {}
    rows = []
    for cell in args.cells.split(","):
        gname, motif, delta = cell.split(":")
        if gname not in graphs:
            graphs.clear()
            graphs[gname] = load(gname)[0]
        if time.perf_counter() - t_start > args.deadline:
            print(f"deadline: stopped before {cell}", flush=True)
            break
        graph, m, plan = _prepare(graphs[gname], motif, int(delta), "input_order", GKW)
        row: dict = {"graph": gname, "motif": motif, "delta": int(delta)}
        base = None
        for label, spec in variants.items():
            kw = {k: v for k, v in spec.items() if k in CALL_SWITCHES}
            settings = {k: v for k, v in spec.items() if k not in CALL_SWITCHES}
            vplan = plan
            with gpu.tuned(**settings):
                if any(k in spec for k in COMPILED):
                    # a compile-time setting: a fresh plan object, so that the engine compiles a
                    # module for it (temporal_plan() returns the plan cached on the graph, whose
                    # module the default already built: before 2026-11-26 every compiled
                    # variant here ran the default's module)
                    vplan = build_temporal_plan(m, graph)
                c = gpu.count(graph, vplan, **kw)  # warm-up (compile)
                if gpu.count(graph, vplan, **kw) != c:  # warm-up (the launches' CUDA graph)
                    raise RuntimeError("count changed between calls")
                kms, calls = [], []
                for _ in range(3):
                    t0 = time.perf_counter()
                    if gpu.count(graph, vplan, **kw) != c:
                        raise RuntimeError("count changed between calls")
                    calls.append((time.perf_counter() - t0) * 1e3)
                    kms.append(float(gpu.last_run.get("kernel_ms", 0.0)))
                stats = dict(gpu.last_run)
            base = c if base is None else base
            row[label] = {
                "kernel_ms": float(np.median(kms)),
                "call_ms": float(np.median(calls)),
                "count": int(c),
                "count_equal": c == base,
                "launches": stats.get("launches"),
                "blocks": stats.get("blocks"),
                "level1_records": stats.get("level1_records"),
                "roots_kept": stats.get("roots_kept"),
                "filter_ms": stats.get("filter_ms"),
                "registers": stats.get("registers"),
                "local_bytes": stats.get("local_bytes"),
                "min_blocks": stats.get("min_blocks"),
            }
        rows.append(row)
        print(json.dumps(row), flush=True)
        (out / "temporal_probe.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
