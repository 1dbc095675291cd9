"""Host time of the public call path above the engine, old package vs new, without a GPU.

usage: PYTHONPATH=.ab/old python3 benchmarks/host_front_ab.py old [--pl1m [PATTERN]]
       PYTHONPATH=.      python3 benchmarks/host_front_ab.py new [--pl1m [PATTERN]]  (alternate)

The engine is replaced by a stub whose ``count`` returns at once, so what is timed is the
interface, the inputs and plan (cached), the job and the executor layers: ``count_motifs`` of
M3 (delta 3600) on CollegeMsg and ``count_subgraphs`` of triangle, 4-cycle and house on a
2,000-node power-law graph, ``engine="cuda"``. Medians (us) of 300 (static) / 3,000 (temporal)
calls, three times. ``ab_temporal.sh prepare REV`` puts an older package in ``.ab/old``.
``--pl1m`` times ``count_subgraphs`` of triangle, 4-cycle, P1, P2 and P7 on pl1m instead
(``powerlaw_graph.generate(200000, 1000000, 2.3, 2000, 1)``, as the static peer benchmark), and
with a pattern name after it also profiles 500 calls of that pattern (cProfile, cumulative).
``resolve_engine_name`` answers "cuda", so the script runs without a GPU.
"""

from __future__ import annotations

import contextlib
import cProfile
import importlib
import pstats
import sys
import time
import types
from pathlib import Path

import networkx as nx
import numpy as np

import nx_gpumine as ng
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.inputs.temporal_graph import load_collegemsg

STUB = types.ModuleType("nx_gpumine.engines.cuda.stub")
STUB.count = lambda graph, plan, lo=0, hi=None, **kw: 7


def _stub_engines() -> None:
    """Every module that imported ``select_engine`` gets one that returns the stub, and every
    one that imported ``resolve_engine_name`` one that answers "cuda" (no GPU needed)."""
    for name, mod in list(sys.modules.items()):
        if not name.startswith("nx_gpumine"):
            continue
        if getattr(mod, "select_engine", None) is not None:
            mod.select_engine = lambda engine, kind, plan=None: STUB
        if getattr(mod, "resolve_engine_name", None) is not None:
            mod.resolve_engine_name = lambda engine: "cuda"


def _median_us(call, n: int) -> float:
    t = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        call()
        t.append(time.perf_counter_ns() - t0)
    return float(np.median(t)) / 1e3


def _pl1m_cells() -> tuple[dict, object]:
    """``count_subgraphs`` on pl1m of the static peer benchmark's light patterns."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_common import t_dfs_pattern
    from powerlaw_graph import generate

    from nx_gpumine.inputs.static_graph import from_arrays

    a, b = generate(200000, 1000000, 2.3, 2000, 1)
    graph = from_arrays(a, b, num_nodes=200000)

    def call(name: str):
        pat = t_dfs_pattern(name) if name.startswith("P") else name
        return lambda: ng.count_subgraphs(graph, pat, engine="cuda")

    cells = {f"pl1m {p}": (call(p), 300) for p in ("triangle", "4-cycle", "P1", "P2", "P7")}
    return cells, call


def main() -> None:
    args = sys.argv[1:]
    label = args[0] if args else ""
    pl1m = "--pl1m" in args
    if pl1m:
        cells, call_of = _pl1m_cells()
    else:
        T = load_collegemsg()
        S = as_static_graph(nx.powerlaw_cluster_graph(2000, 5, 0.3, seed=1))
        cells = {
            "temporal M3": (lambda: ng.count_motifs(T, "M3", delta=3600, engine="cuda"), 3000),
            **{
                f"static {p}": ((lambda p=p: ng.count_subgraphs(S, p, engine="cuda")), 300)
                for p in ("triangle", "4-cycle", "house")
            },
        }
    for name in ("execution.static", "execution.temporal", "execution.jobs.static",
                 "execution.jobs.temporal"):  # fmt: skip
        with contextlib.suppress(ImportError):  # an older package may lack some
            importlib.import_module(f"nx_gpumine.{name}")
    _stub_engines()
    out = []
    for name, (call, n) in cells.items():
        for _ in range(100):
            call()
        out.append(f"{name}: " + "/".join(f"{_median_us(call, n):.2f}" for _ in range(3)))
    print(label, " | ".join(out), "us")
    rest = args[args.index("--pl1m") + 1 :] if pl1m else []
    if rest:  # a pattern to profile
        call = call_of(rest[0])
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(500):
            call()
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
