"""Host time of the public call path above the engine, old package vs new, without a GPU.

usage: PYTHONPATH=.ab/old python3 benchmarks/host_front_ab.py old
       PYTHONPATH=.      python3 benchmarks/host_front_ab.py new      (alternate them)

The engine is replaced by a stub whose ``count`` returns at once, so what is timed is the
interface, the inputs and plan (cached), the job and the executor layers: ``count_motifs`` of
M3 (delta 3600) on CollegeMsg and ``count_subgraphs`` of triangle, 4-cycle and house on a
2,000-node power-law graph, ``engine="cuda"``. Medians (us) of 300 (static) / 3,000 (temporal)
calls, three times. ``ab_temporal.sh prepare REV`` puts an older package in ``.ab/old``.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import time
import types

import networkx as nx
import numpy as np

import nx_gpumine as ng
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.inputs.temporal_graph import load_collegemsg

STUB = types.ModuleType("nx_gpumine.engines.cuda.stub")
STUB.count = lambda graph, plan, lo=0, hi=None, **kw: 7


def _stub_engines() -> None:
    """Every module that imported ``select_engine`` gets one that returns the stub."""
    for name, mod in list(sys.modules.items()):
        if name.startswith("nx_gpumine") and getattr(mod, "select_engine", None) is not None:
            mod.select_engine = lambda engine, kind, plan=None: STUB


def _median_us(call, n: int) -> float:
    t = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        call()
        t.append(time.perf_counter_ns() - t0)
    return float(np.median(t)) / 1e3


def main() -> None:
    T = load_collegemsg()
    S = as_static_graph(nx.powerlaw_cluster_graph(2000, 5, 0.3, seed=1))
    for name in ("execution.static", "execution.temporal", "execution.jobs.static",
                 "execution.jobs.temporal"):  # fmt: skip
        with contextlib.suppress(ImportError):  # an older package may lack some
            importlib.import_module(f"nx_gpumine.{name}")
    _stub_engines()
    cells = {
        "temporal M3": (lambda: ng.count_motifs(T, "M3", delta=3600, engine="cuda"), 3000),
        **{
            f"static {p}": ((lambda p=p: ng.count_subgraphs(S, p, engine="cuda")), 300)
            for p in ("triangle", "4-cycle", "house")
        },
    }
    out = []
    for name, (call, n) in cells.items():
        for _ in range(100):
            call()
        out.append(f"{name}: " + "/".join(f"{_median_us(call, n):.2f}" for _ in range(3)))
    print(sys.argv[1] if len(sys.argv) > 1 else "", " | ".join(out), "us")


if __name__ == "__main__":
    main()
