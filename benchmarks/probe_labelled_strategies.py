"""CUDA strategy probe on STMatch's labelled kit queries (issue 33): each strategy's kernel time.

Counts kit queries Q3, Q7, Q9, Q11, Q13, Q15, Q23 (the peer kit's ``stmatch/data/pattern/i.g``,
vertex i labelled i) on facebook and pl1m with 8 uniform labels (``default_rng([33, 8])``, as
``bench_stmatch_peers.py``), on the label-grouped copy and on the graph itself, with the DFS
(straggler timeouts 5 / 1 / 0.2 / 0 ms, with and without the count tail) and the trie (depth 3 /
2); best of 3 after a warm-up. The measurements behind ``static_build.auto_trie``'s short-list
rule (``benchmarks/results/issue33_2026-11-27/probe_strategies.json``).

``MODE=uv``: the unlabelled induced queries instead (Q1-Q7; distinct plans, as
``count_subgraphs`` counts mappings through them), on the graph itself.

usage (repo root, GPU machine, the peer kit carried as .peers):
    OUT=/tmp/out [MODE=uv] python3 benchmarks/probe_labelled_strategies.py
"""

import json
import os
import sys
import time

import networkx as nx
import numpy as np

sys.path.insert(0, "benchmarks")
from bench_common import POWERLAW, facebook_edges
from powerlaw_graph import generate

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cuda import static as cs
from nx_gpumine.inputs.label_groups import label_grouped
from nx_gpumine.plan.static_plan import static_plan


def readq(i):
    P = nx.Graph()
    for line in open(f".peers/stmatch/data/pattern/{i}.g"):
        t = line.split()
        if t and t[0] == "v":
            P.add_node(int(t[1]), label=int(t[2]))
        if t and t[0] == "e":
            P.add_edge(int(t[1]), int(t[2]))
    return P


variants = [
    ("dfs5", dict(strategy="dfs")),
    ("dfs1", dict(strategy="dfs", timeout_ms=1.0)),
    ("dfs0.2", dict(strategy="dfs", timeout_ms=0.2)),
    ("dfs_notail", dict(strategy="dfs", tail=False)),
    ("trie", dict(strategy="trie")),
    ("trie2", dict(strategy="trie", trie_depth=2)),
    ("dfs_t0", dict(strategy="dfs", timeout_ms=0)),
]
UV = os.environ.get("MODE") == "uv"
QUERIES = (1, 2, 3, 4, 5, 6, 7) if UV else (9, 11, 13, 15, 23, 3, 7)
if UV:  # fewer variants: these calls take 0.1-5 s
    variants = [v for v in variants if v[0] in ("dfs5", "dfs0.2", "trie", "trie2", "dfs_notail")]
res = []
for gname in ("facebook", "pl1m"):
    if gname == "facebook":
        a, b, n = facebook_edges()
    else:
        spec = POWERLAW[gname]
        n = spec[0]
        a, b = generate(*spec)
    lab = np.random.default_rng([33, 8]).integers(0, 8, n).astype(np.int32)
    S = ng.from_arrays(a, b, num_nodes=n, node_labels=None if UV else lab)
    for grouped in (False,) if UV else (True, False):
        G = label_grouped(S) if grouped else S
        for q in QUERIES:
            pat = ng.Pattern.from_networkx(readq(q), node_label=None if UV else "label")
            plan = static_plan(pat, G, induced=UV, distinct=UV)
            row = {
                "graph": gname,
                "grouped": grouped,
                "q": q,
                "order": [int(x) for x in plan.order],
                "tail": int(plan.tail_start),
                "tail_kind": int(plan.tail_kind),
            }
            for name, kw in variants:
                try:
                    c = cs.count(G, plan, **kw)
                    ks = []
                    for _ in range(2 if UV else 3):
                        t = time.perf_counter()
                        c2 = cs.count(G, plan, **kw)
                        w = time.perf_counter() - t
                        ks.append((float(cs.last_run.get("kernel_ms", -1)), w * 1e3))
                    assert c2 == c
                    row[name] = (
                        c,
                        min(k for k, _ in ks),
                        min(w for _, w in ks),
                        {
                            k: v
                            for k, v in cs.last_run.items()
                            if k != "kernel_ms" and isinstance(v, (int, float))
                        },
                    )
                except Exception as e:
                    row[name] = repr(e)[:200]
            print(json.dumps(row), flush=True)
            res.append(row)
json.dump(res, open(os.environ.get("OUT", "/tmp") + "/probe.json", "w"))
