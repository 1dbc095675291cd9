"""Host time of ``count_subgraphs(..., engine="cuda")`` above the engine on pl1m, no GPU.

usage (from a directory outside the repo, so that PYTHONPATH picks the package):
    PYTHONPATH=/path/to/repo/.ab/old python3 host_path_pl1m_stub.py old
    PYTHONPATH=/path/to/repo        python3 host_path_pl1m_stub.py new [PATTERN]  (+ a profile)

As ``benchmarks/host_front_ab.py``, on pl1m (``powerlaw_graph.generate(200000, 1000000, 2.3,
2000, 1)``): the engine is a stub whose ``count`` returns at once and ``resolve_engine_name``
answers "cuda", so what is timed is the interface, inputs, plan, job and executor layers.
Medians (us) of 300 calls, twice per pattern.
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

import numpy as np

BENCH = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(BENCH))

from bench_common import t_dfs_pattern  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402

STUB = types.ModuleType("stub")
STUB.count = lambda graph, plan, lo=0, hi=None, **kw: 7


def _stub() -> None:
    for name in ("execution.static", "execution.jobs.static"):
        with contextlib.suppress(ImportError):  # an older package may lack some
            importlib.import_module(f"nx_gpumine.{name}")
    for name, mod in list(sys.modules.items()):
        if not name.startswith("nx_gpumine"):
            continue
        if getattr(mod, "select_engine", None) is not None:
            mod.select_engine = lambda engine, kind, plan=None: STUB
        if getattr(mod, "resolve_engine_name", None) is not None:
            mod.resolve_engine_name = lambda engine: "cuda"


def _median_us(call, n: int = 300) -> float:
    t = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        call()
        t.append(time.perf_counter_ns() - t0)
    return float(np.median(t)) / 1e3


def _pattern(name: str):
    return t_dfs_pattern(name) if name.startswith("P") else name


def main() -> None:
    a, b = generate(200000, 1000000, 2.3, 2000, 1)
    graph = from_arrays(a, b, num_nodes=200000)
    _stub()
    out = []
    for name in ("triangle", "4-cycle", "P1", "P2", "P7"):
        pat = _pattern(name)

        def call(pat=pat):
            return ng.count_subgraphs(graph, pat, engine="cuda")

        for _ in range(50):
            call()
        out.append(f"{name}: {_median_us(call):.1f}/{_median_us(call):.1f}")
    print(sys.argv[1], " | ".join(out), "us")
    if len(sys.argv) > 2:
        pat = _pattern(sys.argv[2])
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(500):
            ng.count_subgraphs(graph, pat, engine="cuda")
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
