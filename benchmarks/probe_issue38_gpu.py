"""Issue 38, item 5 on the GPU: the census and census-motif counts on many parallel edges, and
K30 in K32, timed on the installed tree or another one (``PYTHONPATH=.ab/old``).

usage: [PROBE_WITHOUT=1] python3 benchmarks/probe_issue38_gpu.py LABEL OUT.json [--timeout S]
       [--cases NAME,NAME]
(``PROBE_ENGINE=cpu`` runs the same cases on the CPU engine; ``PROBE_WITHOUT=1`` runs them
without item 5's GPU changes: the census kernel on every graph, no size pruning. A
``PYTHONPATH`` does not reach past an editable install, so an old tree is not a way.)

Each case runs in its own process (``--timeout`` seconds at most: the cubic walk of the old
census on thousands of parallel edges, or K30 in K32 without size pruning, may not finish);
the first call of a case warms it up (kernel compile, graph upload), the second is timed.
Writes ``{case: {"result": ..., "seconds": ...} or {"timeout": S}}`` to OUT.json.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

SETUP = """
import os, time, numpy as np, networkx as nx, nx_gpumine as ng
ENGINE = os.environ.get("PROBE_ENGINE", "cuda")
if os.environ.get("PROBE_WITHOUT"):  # this tree without item 5's GPU changes (the old paths)
    import numpy
    from nx_gpumine.engines.cuda import static_build, temporal as cuda_temporal
    cuda_temporal.HOST_CENSUS_TRIPLES = float("inf")  # the census kernel walks every triple
    static_build.size_needs = lambda plan: numpy.zeros(plan.k, dtype=numpy.int64)  # no cut
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays, load_collegemsg

def parallel(m):
    src = np.zeros(m, dtype=np.int64); dst = np.ones(m, dtype=np.int64)
    src[1::2], dst[1::2] = 1, 0
    t = np.arange(m, dtype=np.int64)
    return temporal_from_arrays(np.r_[src, 1, 2, 0], np.r_[dst, 2, 0, 3],
                                np.r_[t, m // 3, m // 2, 2 * m // 3])

def timed(f):
    f()
    t = time.perf_counter(); r = f(); return r, time.perf_counter() - t
"""

CASES = {
    **{
        f"census_parallel_{m}": f"g = parallel({m}); "
        "r, s = timed(lambda: sum(ng.motif_census(g, None, engine=ENGINE).values()))"
        for m in (1000, 2000, 4000, 4_000_000)
    },
    **{
        f"count_{motif.replace(' ', '_')}_parallel_{m}": f"g = parallel({m}); "
        f"r, s = timed(lambda: ng.count_motifs(g, '{motif}', delta=None, engine=ENGINE))"
        for motif in ("01 10 01", "01 01 12")
        for m in (2000, 4000, 4_000_000)
    },
    **{
        f"census_collegemsg_{d}": "g = load_collegemsg(); "
        f"r, s = timed(lambda: sum(ng.motif_census(g, {d}, engine=ENGINE).values()))"
        for d in (3600, 86400)
    },
    "K30_in_K32": "r, s = timed(lambda: ng.count_subgraphs(nx.complete_graph(32), "
    "nx.complete_graph(30), count='subgraphs', engine=ENGINE))",
    "K12_in_K14_mappings": "r, s = timed(lambda: ng.count_subgraphs(nx.complete_graph(14), "
    "nx.complete_graph(12), engine=ENGINE))",
}


def main() -> None:
    label, out = sys.argv[1], sys.argv[2]
    limit = float(sys.argv[sys.argv.index("--timeout") + 1]) if "--timeout" in sys.argv else 60
    only = sys.argv[sys.argv.index("--cases") + 1].split(",") if "--cases" in sys.argv else None
    res: dict = {}
    for name, body in CASES.items():
        if only is not None and name not in only:
            continue
        code = SETUP + textwrap.dedent(body) + "\nprint(repr(r), s)\n"
        t = time.perf_counter()
        try:
            p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               timeout=limit)  # fmt: skip
        except subprocess.TimeoutExpired:
            res[name] = {"timeout": limit}
            print(f"{label} {name}: timeout after {limit:.0f} s", flush=True)
            continue
        if p.returncode != 0:
            res[name] = {"error": p.stderr.strip().splitlines()[-1:]}
            print(f"{label} {name}: error {res[name]['error']}", flush=True)
            continue
        r, s = p.stdout.split()[-2:]
        res[name] = {"result": r, "seconds": float(s), "process_s": time.perf_counter() - t}
        print(f"{label} {name}: {r} in {float(s):.4f} s", flush=True)
    with open(out, "w") as f:
        json.dump({"label": label, "cases": res}, f, indent=1)


if __name__ == "__main__":
    main()
