"""Where a count's first call spends its time: one query, profiled (cProfile), then timed again.

usage: python3 benchmarks/probe_first_call.py EDGELIST OUT.txt [--query q9] [--max-work 2e10]
  [--engine cuda] [--induced]   (--max-work 0: no work check)

Prints the first and second call's wall seconds, the engine's last_run stats and the first
call's 30 most expensive functions (cumulative time) to OUT.txt. Written for STMatch's Q9 on
facebook, whose first call took 38-50 s against a 3 s kernel (issue 33).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

import networkx as nx

import nx_gpumine as ng
from nx_gpumine.inputs.static_graph import as_static_graph

QUERIES = {
    "q9": [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3), (0, 4), (1, 4), (0, 5), (1, 5)],
    "q1": [(0, 1), (0, 2), (1, 2), (0, 3), (0, 4), (3, 4)],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("edgelist")
    ap.add_argument("out")
    ap.add_argument("--query", default="q9", choices=sorted(QUERIES))
    ap.add_argument("--max-work", type=float, default=2e10)
    ap.add_argument("--engine", default="cuda")
    ap.add_argument("--induced", action="store_true")
    a = ap.parse_args()
    G = as_static_graph(nx.read_edgelist(a.edgelist, nodetype=int))
    pat = nx.Graph(QUERIES[a.query])
    kw = dict(induced=a.induced, count="mappings", engine=a.engine)
    if a.max_work > 0:  # 0: no work check
        kw["max_work"] = int(a.max_work)
    prof = cProfile.Profile()
    t = time.perf_counter()
    prof.enable()
    c = ng.count_subgraphs(G, pat, **kw)
    prof.disable()
    first = time.perf_counter() - t
    t = time.perf_counter()
    ng.count_subgraphs(G, pat, **kw)
    second = time.perf_counter() - t
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(30)
    stats = {}
    if a.engine == "cuda":
        from nx_gpumine.engines.cuda import static as gpu

        stats = dict(gpu.last_run)
    text = f"count {c}\nfirst call {first:.2f} s, second {second:.2f} s\nstats {stats}\n\n"
    with open(a.out, "w") as f:
        f.write(text + buf.getvalue())
    print(text)


if __name__ == "__main__":
    main()
