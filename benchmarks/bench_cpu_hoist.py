"""The CPU engine's hoisted candidate sets on and off, in one process (issue 33).

usage: python3 benchmarks/bench_cpu_hoist.py [--kit .peers/stmatch] [--nodes 500]
       [--queries Q3,Q5,Q10,Q11,Q12,Q13] [--repeat 3] [--out FILE.json]

STMatch's induced queries (``uv``: ``KIT/data/pattern/i.g``, unlabelled, induced, mappings) on
the bundled Facebook graph's subgraph induced by nodes ``0 .. NODES-1``. Each query is counted
by the CPU engine as it runs (hoisted sets, :func:`~nx_gpumine.plan.candidate_sources.
hoist_levels`: STMatch's code motion) and with hoisting switched off (every level -1, the walk
before it), in alternation after one warm-up call of each: the median of ``--repeat`` calls
each, the counts of both checked equal, and the ratio reported. Queries with no hoisted level
are listed as such (both walks are then the same).
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

import networkx as nx
import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers" / "stmatch"))

import peer_io  # noqa: E402
from bench_common import facebook_edges  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cpu import static as cpu_static  # noqa: E402
from nx_gpumine.inputs.static_graph import NO_DEFAULT, from_arrays  # noqa: E402
from nx_gpumine.plan.candidate_sources import hoist_levels  # noqa: E402


def _no_hoist(plan, reuse, below) -> np.ndarray:
    """:func:`hoist_levels` switched off: no level takes a hoisted set."""
    return np.full(plan.k, -1, dtype=np.int64)


def _time_count(graph, pattern) -> tuple[int, float]:
    t0 = time.perf_counter()
    c = ng.count_subgraphs(graph, pattern, induced=True, count="mappings", engine="cpu")
    return int(c), time.perf_counter() - t0


def _hoisted(graph, pattern) -> list[int]:
    """The levels that take a hoisted set in this query's plan on ``graph``."""
    from nx_gpumine.execution.static import on_search_copy
    from nx_gpumine.interfaces.functions import _prepare
    from nx_gpumine.plan.candidate_sources import reuse_sources

    labels = (None, None, NO_DEFAULT, NO_DEFAULT)
    g, _, plan = _prepare(graph, pattern, True, False, labels)
    _, plan = on_search_copy(g, plan, "count", "cpu")
    reuse, below = reuse_sources(plan, full=True)
    return [i for i, h in enumerate(hoist_levels(plan, reuse, below)) if h >= 0]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kit", type=Path, default=Path(".peers/stmatch"))
    ap.add_argument("--nodes", type=int, default=500)
    ap.add_argument("--queries", default="Q3,Q5,Q10,Q11,Q12,Q13")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    a, b, _ = facebook_edges()
    keep = (a < args.nodes) & (b < args.nodes)
    graph = from_arrays(a[keep], b[keep], num_nodes=args.nodes)
    rows = []
    for q in args.queries.split(","):
        k, edges, _ = peer_io.read_stmatch_pattern(args.kit / "data" / "pattern" / f"{q[1:]}.g")
        pattern = nx.Graph(edges)
        levels = _hoisted(graph, pattern)
        times: dict[str, list[float]] = {"hoisted": [], "off": []}
        counts: dict[str, int] = {}
        for r in range(args.repeat + 1):  # the first round warms both up (untimed)
            for mode in ("hoisted", "off"):
                cpu_static.hoist_levels = hoist_levels if mode == "hoisted" else _no_hoist
                cpu_static._PLAN_FIELDS.clear()  # the plan's kernel arrays, kept per plan
                try:
                    c, s = _time_count(graph, pattern)
                finally:
                    cpu_static.hoist_levels = hoist_levels
                    cpu_static._PLAN_FIELDS.clear()
                if counts.setdefault(mode, c) != c:
                    raise AssertionError(f"{q} {mode}: count {c} after {counts[mode]}")
                if r:
                    times[mode].append(s)
        if counts["hoisted"] != counts["off"]:
            raise AssertionError(f"{q}: hoisted {counts['hoisted']} != off {counts['off']}")
        on, off = statistics.median(times["hoisted"]), statistics.median(times["off"])
        row = dict(query=q, k=k, count=counts["hoisted"], hoisted_levels=levels)
        row.update(hoisted_s=round(on, 4), off_s=round(off, 4), ratio=round(on / off, 3))
        rows.append(row)
        print(
            f"{q:>4} k={k} levels {levels}: count {row['count']:,}  hoisted {on:.3f} s  "
            f"off {off:.3f} s  ratio {on / off:.3f}",
            flush=True,
        )
    doc = dict(
        graph=f"facebook induced on nodes 0..{args.nodes - 1}",
        edges=int(keep.sum()),
        counted="induced mappings (STMatch uv)",
        repeat=args.repeat,
        threads=numba.get_num_threads(),
        machine=platform.node(),
        cpus=os.cpu_count(),
        command="python3 benchmarks/bench_cpu_hoist.py " + " ".join(sys.argv[1:]),
        rows=rows,
    )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(doc, indent=1) + "\n")
    return doc


if __name__ == "__main__":
    main()
