"""Time the 5-node census's 2-path walk on the GPU (``census.cu``'s ``census_walk2``) against
the host walk (numba, all cores), and check their blocks are equal.

usage (GPU machine): python3 benchmarks/probe_census_walk.py OUT [--graphs facebook,pl1m,pl10m]
[--host facebook,pl1m] [--link pl10m]

Per graph: load, the per-entry triangles, the 2-path blocks and the 5-cycle
(:data:`~nx_gpumine.plan.graphlets.CYCLE_BLOCKS`) from the device rows (on the first graph a
first call that compiles, then a timed one: whole call and kernel time) and, for ``--host``
graphs, from the host walk; for ``--link`` graphs also the host link walk's time. Writes
``OUT/census_walk.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_static_peers import load_graph  # noqa: E402

from nx_gpumine.engines.cpu.census_walks import walk_blocks  # noqa: E402
from nx_gpumine.engines.cpu.orbit_counts import edge_triangle_counts  # noqa: E402
from nx_gpumine.engines.cuda.census import device_cycle_rows  # noqa: E402
from nx_gpumine.plan.graphlets import CYCLE_BLOCKS, LINK_BLOCKS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--graphs", default="facebook,pl1m,pl10m")
    ap.add_argument("--host", default="facebook,pl1m")
    ap.add_argument("--link", default="pl10m")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    for name in [g for g in args.graphs.split(",") if g]:
        row: dict = {"graph": name}
        g, info = load_graph(name)
        row.update(info)
        t0 = time.perf_counter()
        t = edge_triangle_counts(g.indptr, g.indices, check=False)
        row["triangles_s"] = time.perf_counter() - t0
        for run in ("first", "timed") if not rows else ("timed",):
            stats: dict = {}

            def device(edge_terms: bool, trace5: bool, g=g, t=t, stats: dict = stats):
                return device_cycle_rows(g, t, edge_terms, trace5, stats)

            t0 = time.perf_counter()
            got = walk_blocks(g.indptr, g.indices, t, CYCLE_BLOCKS, device)
            row[f"device_{run}_s"] = time.perf_counter() - t0
            row[f"device_{run}_kernel_ms"] = stats.get("kernel_ms")
        row["device_blocks"] = got
        if name in args.host.split(","):
            t0 = time.perf_counter()
            host = walk_blocks(g.indptr, g.indices, t, CYCLE_BLOCKS)
            row["host_s"] = time.perf_counter() - t0
            row["host_blocks"] = host
            row["equal"] = host == got
        if name in args.link.split(","):
            t0 = time.perf_counter()
            row["link_blocks"] = walk_blocks(g.indptr, g.indices, t, LINK_BLOCKS)
            row["link_s"] = time.perf_counter() - t0
        print(json.dumps(row, default=str), flush=True)
        rows.append(row)
        (out / "census_walk.json").write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
