"""CPU engine with and without label ranges on STMatch's labelled kit queries (issue 33).

facebook with 8 uniform labels (``default_rng([33, 8])``, as ``bench_stmatch_peers.py``); kit
queries Q3, Q7, Q9, Q15, Q23 (``.peers/stmatch/data/pattern/i.g``, vertex i labelled i): the CPU
engine on the graph itself (``select_engine("cpu", "static").count``, no label ranges) against
``count_subgraphs(..., engine="cpu")`` (the label-grouped copy, lists cut to label ranges),
after a warm-up call; counts must be equal.

usage (repo root, the peer kit copied to .peers): python3 benchmarks/bench_label_ranges_cpu.py
"""

from __future__ import annotations

import sys
import time

import networkx as nx
import numpy as np

sys.path.insert(0, "benchmarks")
from bench_common import facebook_edges  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines import select_engine  # noqa: E402
from nx_gpumine.plan.static_plan import static_plan  # noqa: E402


def kit_query(i: int) -> nx.Graph:
    P = nx.Graph()
    for line in open(f".peers/stmatch/data/pattern/{i}.g"):
        t = line.split()
        if t and t[0] == "v":
            P.add_node(int(t[1]), label=int(t[2]))
        if t and t[0] == "e":
            P.add_edge(int(t[1]), int(t[2]))
    return P


def main() -> None:
    a, b, n = facebook_edges()
    lab = np.random.default_rng([33, 8]).integers(0, 8, n).astype(np.int32)
    S = ng.from_arrays(a, b, num_nodes=n, node_labels=lab)
    cpu = select_engine("cpu", "static")
    for q in (3, 7, 9, 15, 23):
        P = kit_query(q)
        plan = static_plan(ng.Pattern.from_networkx(P, node_label="label"), S,
                           induced=False, distinct=False)  # fmt: skip
        ng.count_subgraphs(S, P, node_label="label", engine="cpu")  # warm-up, builds the copy
        t = time.perf_counter()
        plain = cpu.count(S, plan)
        t_plain = time.perf_counter() - t
        t = time.perf_counter()
        ranged = ng.count_subgraphs(S, P, node_label="label", engine="cpu")
        t_ranged = time.perf_counter() - t
        assert plain == ranged
        print(f"Q{q}: {plain:,} mappings; plain {t_plain:.3f} s, label ranges {t_ranged:.3f} s")


if __name__ == "__main__":
    main()
