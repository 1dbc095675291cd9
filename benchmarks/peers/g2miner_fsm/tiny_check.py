"""G2Miner's FSM apps against ``nx_gpumine.frequent_subgraphs`` on small random labelled graphs
(the "show the difference on a tiny graph" check of issue 30).

usage: python3 tiny_check.py BIN_DIR [--graphs 200] [--apps omp,gpu] [--seed 0] [--show 2]
                             [--deadline S]

For random graphs (8..14 nodes, 3 labels, every label present), supports 1..3 and
``max_edges`` 1..3 (``fsm_gpu_base``: 2 only, see NOTES.md), runs ``BIN_DIR/fsm_<app>_base``
(built with the bench's patches, ``G2_FSM_PRINT=1``) and our CPU engine and compares: patterns
only one side finds and, for ``fsm_gpu_base`` (exact MNI), supports that differ. Prints the
first ``--show`` disagreements per app and ``max_edges`` with their graph, then a summary per
app and ``max_edges``; no new graph is started after ``--deadline`` seconds. Our engine is
checked against a brute-force oracle in the package's tests, so a disagreement here is a
G2Miner difference.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from g2fsm_output import canonical_key, compare, parse_run  # noqa: E402
from g2miner_labelled import write_g2miner  # noqa: E402


def random_graph(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
    """Edge ends, node count and labels of a random graph G2Miner accepts (max degree in
    ``[1, n)``, every label ``0..2`` present)."""
    n = int(rng.integers(8, 15))
    p = float(rng.uniform(0.2, 0.5))
    iu = np.triu_indices(n, 1)
    keep = rng.random(len(iu[0])) < p
    s, d = iu[0][keep], iu[1][keep]
    if len(s) == 0:
        s, d = np.array([0]), np.array([1])
    labels = rng.integers(0, 3, n)
    labels[:3] = [0, 1, 2]
    return s, d, n, labels


def ours(s, d, n, labels, support: int, k: int) -> dict:
    """Our patterns ({canonical key: support}) on the CPU engine."""
    import nx_gpumine as ng
    from nx_gpumine.inputs.static_graph import from_arrays

    g = from_arrays(s, d, num_nodes=n, node_labels=labels)
    found = ng.frequent_subgraphs(g, support, max_edges=k, node_label="label", engine="cpu")
    out = {}
    for r in found:
        p = r.pattern
        key = canonical_key(
            [int(p.nodes[v]["label"]) for v in range(p.number_of_nodes())], list(p.edges())
        )
        out[key] = r.support
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--graphs", type=int, default=200)
    ap.add_argument("--apps", default="omp")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=2)
    ap.add_argument("--deadline", type=float, default=1e9)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    env = dict(os.environ, G2_FSM_PRINT="1", OMP_NUM_THREADS="2")
    stats: dict = {}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for gi in range(args.graphs):
            if time.perf_counter() - t0 > args.deadline:
                print(f"deadline: stopped after {gi} graphs")
                break
            s, d, n, labels = random_graph(rng)
            codes = write_g2miner(tmp, s, d, n, labels)
            for app in args.apps.split(","):
                for k in (1, 2, 3) if app == "omp" else (2,):  # fsm_gpu_base asserts k >= 2
                    for support in (1, 2, 3):
                        want = ours(s, d, n, labels, support, k)
                        run = subprocess.run(
                            [
                                f"{args.bin_dir}/fsm_{app}_base",
                                f"{tmp}/graph",
                                str(k),
                                str(support),
                            ],
                            capture_output=True,
                            text=True,
                            env=env,
                            timeout=60,
                        )
                        st = stats.setdefault(
                            (app, k), {"runs": 0, "equal": 0, "failed": 0, "shown": 0}
                        )
                        st["runs"] += 1
                        if run.returncode != 0:
                            st["failed"] += 1
                            tail = (run.stderr.strip() or run.stdout.strip()).splitlines()
                            st.setdefault(
                                "first_failure",
                                f"rc {run.returncode}: " + (tail[-1][:200] if tail else ""),
                            )
                            continue
                        got = parse_run(run.stdout, codes)
                        c = compare(want, got["patterns"], supports=app == "gpu")
                        ok = c["equal_set"] and c.get("equal_supports", True)
                        ok = ok and got["count"] == len(got["patterns"]) and not got["duplicates"]
                        st["equal"] += ok
                        if not ok and st["shown"] < args.show:
                            st["shown"] += 1
                            print(
                                f"--- graph {gi} app {app} k={k} support={support}: n={n} "
                                f"edges={list(zip(s.tolist(), d.tolist(), strict=True))} "
                                f"labels={labels.tolist()}"
                            )
                            print(
                                f"    count printed {got['count']}, lines "
                                f"{len(got['patterns'])}, dup {got['duplicates']}: {c}"
                            )
    for (app, k), st in sorted(stats.items()):
        print(
            f"fsm_{app}_base max_edges={k}: {st['equal']}/{st['runs']} runs equal to ours, "
            f"{st['failed']} failed" + (f" (first: {st['first_failure']})" if st["failed"] else "")
        )


if __name__ == "__main__":
    main()
