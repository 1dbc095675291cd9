"""What several benchmarks share: T-DFS's patterns, the power-law graphs, the bundled Facebook
graph, the number format of their tables and the CPU machine's description.

Imported by the scripts beside it (``python3 benchmarks/X.py`` puts this folder on
``sys.path``); it imports nothing from ``nx_gpumine`` until a function needs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent

#: The T-DFS paper's patterns P1..P7 as edge lists (distinct subgraphs are counted).
T_DFS_EDGES = {
    "P1": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)],  # diamond (T-DFS pattern 1)
    "P2": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],  # 4-clique
    "P3": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3)],
    "P4": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 4), (3, 4)],
    "P5": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)],
    "P6": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (3, 4)],
    "P7": [(a, b) for a in range(5) for b in range(a + 1, 5)],  # 5-clique
}

#: ``powerlaw_graph.generate`` arguments (n, m, gamma, degree cap, seed) of the named graphs.
POWERLAW = {
    "pl1m": (200000, 1000000, 2.3, 2000, 1),
    "pl10m": (2000000, 10000000, 2.3, 3000, 1),
    "pl100m": (20000000, 100000000, 2.3, 6000, 1),
}

#: The bundled SNAP ego-Facebook edge list, relative to the repository root.
FACEBOOK_SOURCE = "nx_gpumine/data/facebook_combined.txt"


def t_dfs_pattern(name: str) -> Any:
    """T-DFS pattern ``name`` (``"P1"``..``"P7"``) as an ``nx_gpumine`` Pattern."""
    import networkx as nx

    from nx_gpumine.inputs.patterns import Pattern

    return Pattern.from_networkx(nx.Graph(T_DFS_EDGES[name]), name=name)


def facebook_edges() -> tuple[np.ndarray, np.ndarray, int]:
    """The Facebook graph's edge ends (int64) and its number of nodes (largest id + 1)."""
    e = np.loadtxt(HERE.parent / FACEBOOK_SOURCE, dtype=np.int64)
    return e[:, 0], e[:, 1], int(e.max()) + 1


def powerlaw_source(spec: tuple) -> str:
    """How a power-law graph of ``spec`` (see :data:`POWERLAW`) was made, for the results."""
    return "powerlaw_graph.py " + " ".join(map(str, spec))


def fmt(v: Any, spec: str) -> str:
    """``v`` formatted by ``spec`` for a table cell; empty for None."""
    return "" if v is None else format(v, spec)


def search_order_from_env() -> str:
    """Set the order counts search in from ``BENCH_SEARCH_ORDER`` (``degree`` or ``id``,
    :data:`nx_gpumine.execution.static.SEARCH_ORDER`; unset: the library's default) and return
    the order in force, for the results' header (issue 33's A/B in one device call)."""
    import os

    from nx_gpumine.execution import static

    order = os.environ.get("BENCH_SEARCH_ORDER")
    if order:
        if order not in ("degree", "id"):
            raise SystemExit(f"BENCH_SEARCH_ORDER must be 'degree' or 'id', not {order!r}")
        static.SEARCH_ORDER = order
    return static.SEARCH_ORDER


def static_tuning_from_env() -> dict:
    """Swap in the CUDA static engine's tuning that ``BENCH_STATIC_TUNING`` names (``field=value``
    pairs, comma-separated: ``full_raw_reuse=1``; unset: the default) and return its fields
    that differ from the default, for the results' header (an A/B in one device call)."""
    import dataclasses
    import os

    from nx_gpumine.engines.cuda import static_build

    base = static_build.DEFAULT_TUNING
    text = os.environ.get("BENCH_STATIC_TUNING", "")
    changes = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if not hasattr(base, name):
            raise SystemExit(f"BENCH_STATIC_TUNING: StaticTuning has no field {name!r}")
        kind = type(getattr(base, name))
        changes[name] = bool(int(value)) if kind is bool else kind(value)
    if changes:
        static_build.SLOT.set(dataclasses.replace(base, **changes))
    return changes


def cpu_machine() -> dict:
    """The host a CPU benchmark ran on: platform, cores (``nproc``: those this process may
    use), numba's threads, Python, memory and the CPU model (from ``/proc/cpuinfo``)."""
    import os
    import platform
    import sys

    import numba

    info = {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "nproc": len(os.sched_getaffinity(0)),
        "numba_threads": numba.get_num_threads(),
        "python": sys.version.split()[0],
        "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
    }
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return info
