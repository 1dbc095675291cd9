"""Switch probe for the CUDA temporal engine: kernel time with each switch on and off.

usage: python3 benchmarks/probe_temporal.py OUT_DIR [--cells synth10m:M8:86400,...]

For each cell (graph, Everest motif, delta; input-order ties as Everest counts), times
``engines.cuda.temporal.count`` with the default switches and with each variant of
``--variants`` (medians of 3 kernel-event times after a warm-up, and of the engine call's
wall time; every count must equal the default's). A variant sets engine switches (``steal``,
``tail_ms``, ``count_last``, ``expand``) and module settings (``EXPAND_ROOTS``,
``SPLIT_MIN``, ``SPLIT_GATE_ROOTS``, ``ROOT_CHUNK``, ``ROOT_FILTER``, ``ROOT_FILTER_MAX_KEPT``,
and ``PAIR_MIN``, ``MIN_BLOCKS``, ``EARLY_WALK`` and ``LAZY_END_EDGES``, compiled into the
kernel).
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
GKW = {"source": "source", "target": "target", "time": "time"}
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
    "expand_all": {"EXPAND_ROOTS": 1 << 24},
    "split4": {"SPLIT_MIN": 4},
    "split8": {"SPLIT_MIN": 8},
    "split32": {"SPLIT_MIN": 32},
    "split64": {"SPLIT_MIN": 64},
    "chunk128": {"ROOT_CHUNK": 128},
    "chunk64": {"ROOT_CHUNK": 64},
    "split16": {"SPLIT_MIN": 16},
    "chunk512": {"ROOT_CHUNK": 512},
    "pair_direct": {"PAIR_MIN": -1},
    "pair0": {"PAIR_MIN": 0},
    "pair8": {"PAIR_MIN": 8},
    "pair128": {"PAIR_MIN": 128},
    "no_filter": {"ROOT_FILTER": False},
    "filter_always": {"ROOT_FILTER_MAX_KEPT": 1.0},
    "split_always": {"SPLIT_GATE_ROOTS": 0},
    "nocap": {"MIN_BLOCKS": 1},
    "cap5": {"MIN_BLOCKS": 5},
    "cap6": {"MIN_BLOCKS": 6},
    "cap7": {"MIN_BLOCKS": 7},
    "cap8": {"MIN_BLOCKS": 8},
    "no_early_walk": {"EARLY_WALK": False},
    "no_lazy_end": {"LAZY_END_EDGES": 1 << 62},
    "lazy_end": {"LAZY_END_EDGES": 0},
}
#: module settings a variant may change (restored after it)
MODULE_SETTINGS = (
    "EXPAND_ROOTS",
    "SPLIT_MIN",
    "ROOT_CHUNK",
    "PAIR_MIN",
    "ROOT_FILTER",
    "ROOT_FILTER_MAX_KEPT",
    "SPLIT_GATE_ROOTS",
    "MIN_BLOCKS",
    "EARLY_WALK",
    "LAZY_END_EDGES",
)
#: settings compiled into the kernel: a variant with one gets a fresh plan
COMPILED: tuple = ("PAIR_MIN", "MIN_BLOCKS", "EARLY_WALK", "LAZY_END_EDGES")


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
            kw = {k: v for k, v in spec.items() if k not in MODULE_SETTINGS}
            saved = {k: getattr(gpu, k) for k in MODULE_SETTINGS}
            vplan = plan
            try:
                for k in MODULE_SETTINGS:
                    if k in spec:
                        setattr(gpu, k, spec[k])
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
            finally:
                for k, v in saved.items():
                    setattr(gpu, k, v)
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
