"""``nx-gpumine warmup`` leaves numba's cache holding what the isomorphism paths compile.

Issue 37: after the warm-up, the first backend ``is_isomorphic`` / ``could_be_isomorphic`` and
the first drop-in ``GraphMatcher`` iteration of a new process still compiled for 7-9 s each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# CPU seconds (not wall: CI machines are shared) of each first call in a fresh process
FIRST_CALLS = """
import json, time
import networkx as nx
from nx_gpumine.isomorphism import GraphMatcher

def cpu_seconds(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0

G1 = nx.cycle_graph(7)
G2 = nx.relabel_nodes(G1, {v: (3 * v) % 7 for v in G1})
print(json.dumps({
    "is_isomorphic": cpu_seconds(lambda: nx.is_isomorphic(G1, G2, backend="gpumine")),
    "could_be_isomorphic": cpu_seconds(
        lambda: nx.could_be_isomorphic(G1.copy(), G2.copy(), backend="gpumine")
    ),
    "GraphMatcher": cpu_seconds(
        lambda: list(GraphMatcher(nx.complete_graph(5), nx.complete_graph(3))
                     .subgraph_isomorphisms_iter())
    ),
}))
"""


def _cache_files(cache: Path) -> set[Path]:
    return {p for p in cache.rglob("*") if p.is_file()}


def test_warmup_compiles_the_isomorphism_paths(tmp_path):
    """Warm the static family (where the isomorphism calls are warmed) in one process, then
    in a second process with the same fresh cache the first calls compile nothing."""
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "NX_GPUMINE_ENGINE": "cpu",
        # this checkout, whichever copy of the package is installed
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    # the static family only: the temporal one compiles other modules and would only add
    # CI time; ``nx-gpumine warmup`` runs this same function for both families
    warm = "from nx_gpumine.interfaces.cli.warmup import warm_up; warm_up('cpu', ('static',))"
    proc = subprocess.run(
        [sys.executable, "-c", warm], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    before = _cache_files(tmp_path / "numba")
    assert before
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", FIRST_CALLS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    seconds = json.loads(proc.stdout)
    compiled = sorted(p.name for p in _cache_files(tmp_path / "numba") - before)
    assert not compiled, f"first calls compiled after the warm-up: {compiled}"
    # compiling them took 5-9 CPU s each; loading from the cache well under one
    assert all(s < 2.0 for s in seconds.values()), seconds
