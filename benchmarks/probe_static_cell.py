"""One static cell of STMatch's query sets, timed alone (for profilers and A/Bs, issue 33).

usage (GPU machine): python3 benchmarks/probe_static_cell.py GRAPH QUERY [--induced]
       [--kit .peers/stmatch] [--repeat 5] [--engine cuda]

GRAPH is a graph of ``bench_stmatch_peers.py`` (facebook, fbN, pl1m, ...), QUERY a kit query
(``Q1`` .. ``Q24``: ``KIT/data/pattern/i.g``). Counts mappings (``--induced``: STMatch's
``uv`` set, else ``ue``) with ``count_subgraphs`` after one compiling call, and prints one JSON
line: the count, the median kernel ms (the engine's CUDA events) and whole-call ms over
``--repeat`` calls, the plan (order, reuse sources, hoisted levels, count tail) of the plan the
engine counts (the distinct sibling, on the search copy where execution moves it) and the
engine's statistics of the last call (strategy, launches); ``BENCH_STATIC_TUNING`` as
``bench_stmatch_peers.py`` reads it; ``--order`` replaces the plan's matching order (an A/B
of the order alone, e.g. STMatch's, which is the query file's). Under
``ncu --kernel-name regex:static --launch-count N`` it profiles the cell's kernels.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import networkx as nx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers" / "stmatch"))

import peer_io  # noqa: E402
from bench_common import static_tuning_from_env  # noqa: E402
from bench_stmatch_peers import graph_arrays  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.execution.static import on_search_copy  # noqa: E402
from nx_gpumine.inputs.patterns import as_pattern  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402
from nx_gpumine.plan import static_plan as static_plan_module  # noqa: E402
from nx_gpumine.plan.candidate_sources import hoist_levels, reuse_sources  # noqa: E402
from nx_gpumine.plan.static_plan import distinct_sibling, static_plan  # noqa: E402


def plan_summary(graph, pattern, induced: bool, engine: str) -> dict:
    """What the engine walks for this cell: the counted plan on the graph it runs on."""
    plan = static_plan(as_pattern(pattern), graph, induced=induced, distinct=False)
    plan = distinct_sibling(plan, graph) or plan
    on, plan = on_search_copy(graph, plan, "count", engine)
    reuse, below = reuse_sources(plan, full=True)
    return {
        "search_copy": on is not graph,
        "order": plan.order.tolist(),
        "reuse": reuse.tolist(),
        "reuse_below": below.tolist(),
        "hoist": hoist_levels(plan, reuse, below).tolist(),
        "tail": [int(plan.tail_start), int(plan.tail_kind)],
        "automorphisms": int(plan.num_automorphisms),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("graph")
    ap.add_argument("query")
    ap.add_argument("--induced", action="store_true")
    ap.add_argument("--kit", type=Path, default=Path(".peers/stmatch"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--engine", default="cuda")
    ap.add_argument("--order", help="the matching order, as pattern nodes (e.g. 0,1,2,3,4: "
                    "STMatch's, the file's order) instead of the plan's own")  # fmt: skip
    a = ap.parse_args()
    if a.order:  # every plan built in this process takes it (symmetry conditions follow it)
        order = [int(v) for v in a.order.split(",")]
        static_plan_module._plan_order = lambda pattern, freq: list(order)
    if a.engine == "cuda":
        static_tuning_from_env()  # BENCH_STATIC_TUNING, as bench_stmatch_peers.py reads it
    src, dst, n, source = graph_arrays(a.graph)
    graph = from_arrays(src, dst, num_nodes=n)
    k, edges, _ = peer_io.read_stmatch_pattern(a.kit / "data" / "pattern" / f"{a.query[1:]}.g")
    pattern = nx.Graph()
    pattern.add_nodes_from(range(k))  # pattern node i is the file's vertex i (for --order)
    pattern.add_edges_from(edges)
    kw = dict(induced=a.induced, count="mappings", engine=a.engine)
    t0 = time.perf_counter()
    count = ng.count_subgraphs(graph, pattern, **kw)
    first_s = time.perf_counter() - t0
    last_run: dict = {}
    if a.engine == "cuda":
        from nx_gpumine.engines.cuda import static as gpu

        last_run = gpu.last_run
    walls, kernels = [], []
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        c = ng.count_subgraphs(graph, pattern, **kw)
        walls.append(1e3 * (time.perf_counter() - t0))
        kernels.append(float(last_run.get("kernel_ms", 0.0)))
        if c != count:
            raise AssertionError(f"count {c} after {count}")
    stats = {k: v for k, v in last_run.items() if isinstance(v, int | float | str | tuple)}
    print(json.dumps({
        "cell": [a.graph, a.query, "uv" if a.induced else "ue"],
        "order_given": a.order,
        "graph_source": source,
        "k": k,
        "count": int(count),
        "first_call_s": round(first_s, 3),
        "kernel_ms": statistics.median(kernels),
        "wall_ms": statistics.median(walls),
        "plan": plan_summary(graph, pattern, a.induced, a.engine),
        "stats": stats,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
