"""Where a repeated ``count_motifs`` spends its host time: phases around the CUDA launches.

usage (GPU machine): python3 benchmarks/host_time_temporal.py OUT_JSON [--repeat 21]
       [--cells collegemsg:M1:3600,sk10m:M11:86400,...] [--waits spin,sync]

Issue 9 asks that a repeated call cost no more than its kernel time + 0.3 ms. For each cell
(graph, motif, delta: the graphs of ``bench_temporal_peers.py``) this makes two warm-up calls,
then ``--repeat`` timed calls of ``count_motifs(T, motif, delta=..., tie="input_order",
engine="cuda")``, with host clocks at the call's edges and around the engine's launch loop
(``temporal_launch.launch_range``; ``temporal._run`` in packages before the engine's split by
role, as ``ab_temporal.sh``'s old side may be) and its wait for the GPU (``wait_event``), and
reports medians (ms) of:

- ``wall``: the whole call; ``kernel``: the engine's CUDA-event time (first launch to last);
- ``pre``: from the call's start to the launch loop (arguments, motif, plan, engine choice);
- ``enqueue``: the launch loop up to its wait (control block reset, launches; the GPU runs
  meanwhile, so most of it lies inside ``kernel``);
- ``wait``, ``post_run`` (from the wait to the loop's return), ``post_call`` (to the caller);
- ``late``: loop start to end of wait, minus ``kernel`` (host work before the first event, and
  the wake-up after the last); ``gap``: ``wall - kernel``, the issue's figure.

``--waits`` also times the wait as CUDA's own ``Event.synchronize`` (``sync``) or a bare
``Event.done`` loop (``query``) instead of the engine's interruptible wait (``spin``).
For an A/B against an older package: ``bash benchmarks/ab_temporal.sh prepare REV`` here, then
``AB_BENCH=host bash benchmarks/ab_temporal.sh run --repeat 21`` on the GPU (carry ``.ab``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import load  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cuda import temporal as gpu  # noqa: E402

DEFAULT_CELLS = (
    "collegemsg:M1:3600,collegemsg:M12:86400,collegemsg:M5:86400,"
    "sk10m:M11:86400,sk10m:M13:86400,sk10m:M12:86400,sk10m:M10:86400,sk10m:M8:86400,"
    "sk10m:M1:86400,sk10m:M13:3600,sk10m:M2:3600,synth10m:M6:3600,synth10m:M8:86400"
)

_marks: dict[str, float] = {}
_wait_how = ["spin"]
#: the module whose launch loop (and its wait) is timed, and the loop's name there
if hasattr(gpu, "_run"):  # a package before the split by role (ab_temporal.sh's old side)
    _hooks, _RUN = gpu, "_run"
else:
    _hooks, _RUN = (
        importlib.import_module("nx_gpumine.engines.cuda.temporal_launch"),
        "launch_range",
    )
_run, _wait = getattr(_hooks, _RUN), _hooks.wait_event


def _run_timed(*args, **kw):
    _marks["run0"] = time.perf_counter()
    h = _run(*args, **kw)
    _marks["run1"] = time.perf_counter()
    return h


def _wait_timed(event, **kw):
    _marks["w0"] = time.perf_counter()
    if _wait_how[0] == "sync":
        event.synchronize()
    elif _wait_how[0] == "query":
        while not event.done:
            pass
    else:
        _wait(event, **kw)
    _marks["w1"] = time.perf_counter()


def time_cell(T, motif: str, delta: int, repeat: int) -> dict:
    """Medians (ms) and every sample of the phases of ``repeat`` calls after two warm-ups."""

    def call():
        return ng.count_motifs(T, motif, delta=delta, tie="input_order", engine="cuda")

    call()
    call()
    rows = []
    for _ in range(repeat):
        _marks.clear()
        t0 = time.perf_counter()
        call()
        wall = 1e3 * (time.perf_counter() - t0)
        kernel = float(gpu.last_run["kernel_ms"])
        m = {k: 1e3 * (v - t0) for k, v in _marks.items()}
        rows.append(
            {
                "wall": wall,
                "kernel": kernel,
                "pre": m["run0"],
                "enqueue": m["w0"] - m["run0"],
                "wait": m["w1"] - m["w0"],
                "post_run": m["run1"] - m["w1"],
                "post_call": wall - m["run1"],
                "late": (m["w1"] - m["run0"]) - kernel,
                "gap": wall - kernel,
            }
        )
    med = {k: float(np.median([r[k] for r in rows])) for k in rows[0]}
    return {"median": med, "all": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--cells", default=DEFAULT_CELLS)
    ap.add_argument("--waits", default="spin")
    a = ap.parse_args()
    setattr(_hooks, _RUN, _run_timed)
    _hooks.wait_event = _wait_timed
    by_graph: dict[str, list] = {}
    for cell in a.cells.split(","):
        g, motif, delta = cell.split(":")
        by_graph.setdefault(g, []).append((motif, int(delta)))
    results = []
    for g, cells in by_graph.items():
        T = load(g)[0]
        for motif, delta in cells:
            for how in a.waits.split(","):
                _wait_how[0] = how
                r = time_cell(T, motif, delta, a.repeat)
                results.append({"graph": g, "motif": motif, "delta": delta, "wait": how, **r})
                med = r["median"]
                print(
                    f"{g:10s} {motif:4s} {delta:6d} {how:5s} "
                    + " ".join(f"{k}={v:.3f}" for k, v in med.items()),
                    flush=True,
                )
                Path(a.out).write_text(json.dumps(results, indent=1))
        del T


if __name__ == "__main__":
    main()
