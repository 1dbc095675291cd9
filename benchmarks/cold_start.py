"""First-call times of the CPU engines, each in a fresh process: cold (empty numba cache) and warm.

Every case runs in its own Python process with ``NUMBA_CACHE_DIR`` pointing at a cache folder:

* ``cold``: a new empty folder per case, so numba compiles everything the call needs;
* ``warm``: one folder filled first by ``python -m nx_gpumine warmup`` (what the install docs
  name), then each case loads its kernels from there.

The time reported is the first call itself (import excluded, given apart), on a small graph, so it
is almost all compile or cache-load time; its process CPU time is given too (on a shared,
loaded machine the wall time overstates it). Usage::

    PYTHONPATH=. python benchmarks/cold_start.py [--mode cold warm] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

CASES = {
    "count_subgraphs": "ng.count_subgraphs(G, 'triangle', engine='cpu')",
    "count_subgraphs 4-cycle distinct": (
        "ng.count_subgraphs(G, '4-cycle', count='subgraphs', engine='cpu')"
    ),
    "find_subgraphs": "ng.find_subgraphs(G, 'triangle', limit=10, engine='cpu')",
    "has_subgraph": "ng.has_subgraph(G, '4-clique', engine='cpu')",
    "count_motifs int": "ng.count_motifs(Ti, 'triangle', delta=50, engine='cpu')",
    "count_motifs float": "ng.count_motifs(Tf, 'triangle', delta=50.0, engine='cpu')",
    "find_motifs int": "ng.find_motifs(Ti, 'triangle', delta=50, limit=10, engine='cpu')",
    "motif_census int": "ng.motif_census(Ti, 50, engine='cpu')",
    "motif_census float": "ng.motif_census(Tf, 50.0, engine='cpu')",
}

SETUP = """
import time
t0 = time.perf_counter()
import numpy as np
import networkx as nx
import nx_gpumine as ng
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
t_import = time.perf_counter() - t0
G = nx.gnm_random_graph(300, 1500, seed=1)
rng = np.random.default_rng(1)
src = rng.integers(0, 50, 2000); dst = (src + rng.integers(1, 50, 2000)) % 50
t = np.sort(rng.integers(0, 10_000, 2000))
Ti = temporal_from_arrays(src, dst, t)
Tf = temporal_from_arrays(src, dst, t.astype(float))
t1 = time.perf_counter()
c1 = time.process_time()
CALL
t_call = time.perf_counter() - t1
c_call = time.process_time() - c1
t2 = time.perf_counter()
CALL
t_second = time.perf_counter() - t2
print('RESULT', t_import, t_call, t_second, c_call)
"""


def run_case(call: str, cache_dir: str) -> dict:
    """One fresh process: import time, first call, second call (seconds)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    code = SETUP.replace("CALL", call)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"case failed:\n{proc.stderr}")
    out = proc.stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("RESULT"))
    imp, first, second, cpu = map(float, line.split()[1:])
    return {
        "import_s": imp,
        "first_call_s": first,
        "first_call_cpu_s": cpu,
        "second_call_s": second,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", nargs="+", default=["cold", "warm"], choices=["cold", "warm"])
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    results: dict = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "cases": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        if "warm" in args.mode:
            warm_dir = os.path.join(tmp, "warm")
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "nx_gpumine", "warmup", "--engine", "cpu"],
                env=dict(os.environ, NUMBA_CACHE_DIR=warm_dir),
                check=True,
                capture_output=True,
            )
            results["warmup_s"] = time.perf_counter() - t0
            print(f"warmup (fills the cache): {results['warmup_s']:.1f} s", flush=True)
        for name in args.cases:
            row = {}
            for mode in args.mode:
                cache = os.path.join(tmp, f"cold-{len(results['cases'])}")
                if mode == "warm":
                    cache = warm_dir
                row[mode] = run_case(CASES[name], cache)
            results["cases"][name] = row
            cells = "  ".join(
                f"{m}: first {r['first_call_s']:.2f} s (cpu {r['first_call_cpu_s']:.2f} s, "
                f"import {r['import_s']:.2f} s, "
                f"second {r['second_call_s']:.3f} s)"
                for m, r in row.items()
            )
            print(f"{name:34s} {cells}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
