"""CPU per-node 5-node orbit counts (``orbit_equations5``) against ORCA on the same machine.

The figures of docs/static.md ("Per-node orbit counts") and of the fifteenth session's note:
facebook's nodes below id 1,000 and 2,000 (the induced parts, ids kept) and the power-law graph
``powerlaw_graph.py 8000 40000 2.3 300 1``. Ours: one call after a warm-up (numba's compile),
on the threads numba has (``NUMBA_NUM_THREADS=1`` for one thread). ORCA (``ORCA_BIN``, a
``g++ -O2`` build of thocevar/orca's ``orca.cpp``): ``orca node 5``, its whole process timed,
its rows compared with ours.

usage (repo root):
    [NUMBA_NUM_THREADS=1] [ORCA_BIN=path/to/orca] python3 benchmarks/bench_orbits5_cpu.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import facebook_edges  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

from nx_gpumine.engines.cpu.orbit_equations5 import orbit_counts_5node_equations  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402


def graphs() -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
    """The benchmark graphs as edge arrays and node counts."""
    a, b, _n = facebook_edges()
    out = {}
    for cut in (1000, 2000):
        keep = (a < cut) & (b < cut)
        out[f"facebook<{cut}"] = (a[keep], b[keep], cut)
    pa, pb = generate(8000, 40000, 2.3, 300, 1)
    out["powerlaw 8000/40000"] = (pa, pb, 8000)
    return out


def orca(path: str, a: np.ndarray, b: np.ndarray, n: int) -> tuple[float, np.ndarray]:
    """ORCA's whole-process seconds and its rows (orbits 0..72) for the graph."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "g.in", Path(tmp) / "g.out"
        pairs = {(int(min(u, v)), int(max(u, v))) for u, v in zip(a, b, strict=True) if u != v}
        src.write_text(f"{n} {len(pairs)}\n" + "".join(f"{u} {v}\n" for u, v in sorted(pairs)))
        t = time.perf_counter()
        subprocess.run([path, "node", "5", str(src), str(dst)], check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        secs = time.perf_counter() - t
        return secs, np.loadtxt(dst, dtype=np.int64, ndmin=2)


def main() -> None:
    orca_bin = os.environ.get("ORCA_BIN")
    warm = from_arrays(np.array([0, 1, 2]), np.array([1, 2, 3]), num_nodes=5)
    orbit_counts_5node_equations(warm.indptr, warm.indices)  # compile
    print("| graph | nodes | edges | ours s | ORCA s | ORCA / ours | rows equal |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, (a, b, n) in graphs().items():
        g = from_arrays(a, b, num_nodes=n, duplicates="drop")
        t = time.perf_counter()
        ours = orbit_counts_5node_equations(g.indptr, g.indices)
        secs = time.perf_counter() - t
        theirs = ("", "", "")
        if orca_bin:
            o_secs, rows = orca(orca_bin, a, b, n)
            equal = rows.shape == (n, 73) and bool((rows[:, 15:] == ours).all())
            theirs = (f"{o_secs:.2f}", f"{o_secs / secs:.2f}", str(equal))
        print(f"| {name} | {g.n} | {g.num_edges} | {secs:.2f} | " + " | ".join(theirs) + " |",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
