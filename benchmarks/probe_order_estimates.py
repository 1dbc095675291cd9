"""Issue 33: does the sampled work estimate (partial matches, ``ng.estimate``) predict in which
vertex order (the graph's ids or its degree-ordered copy) the GPU counted STMatch's kit queries
faster? CPU only; reads the kit's pattern files (the peer kit copied to ``.peers``).

usage: python3 benchmarks/probe_order_estimates.py [KIT]   (KIT: .peers/stmatch)

The GPU figures are kernel ms on pl1m (H200): ids from ``results/issue33_2026-11-27`` (run3,
run1b), degree order from ``results/session22_2026-11-28/call3_search_order``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "peers" / "stmatch")]

import networkx as nx  # noqa: E402
import pandas as pd  # noqa: E402
import peer_io as pio  # noqa: E402
from bench_common import POWERLAW  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.execution import static as static_execution  # noqa: E402

#: (set, query) -> (kernel ms on ids, kernel ms in degree order); uv = induced, ue = not.
GPU_MS = {
    ("uv", 1): (4660, 30000),  # degree order: past the 30 s cell timeout
    ("uv", 2): (3578, 7919),
    ("uv", 3): (186, 366),
    ("uv", 4): (509, 517),
    ("uv", 5): (89, 66),
    ("uv", 6): (475, 48),
    ("uv", 7): (23, 20),
    ("uv", 9): (4600, 4081),
    ("ue", 1): (4476, 817),
    ("ue", 2): (3774, 6525),
    ("ue", 3): (201, 60),
    ("ue", 4): (20, 20),
    ("ue", 5): (94, 5.1),
    ("ue", 6): (572, 68),
    ("ue", 7): (64, 1.9),
    ("ue", 9): (174, 18),
}


def main() -> None:
    kit = Path(sys.argv[1] if len(sys.argv) > 1 else ".peers/stmatch")
    a, b = generate(*POWERLAW["pl1m"])
    S = ng.from_edgelist(pd.DataFrame({"source": a, "target": b}))
    for (kind, i), (t_id, t_deg) in GPU_MS.items():
        _, edges, _ = pio.read_stmatch_pattern(kit / "data" / "pattern" / f"{i}.g")
        work = {}
        for order in ("id", "degree"):
            static_execution.SEARCH_ORDER = order
            est = ng.estimate(S, nx.Graph(edges), induced=kind == "uv", count="subgraphs", seed=1)
            work[order] = est.work
        print(
            f"{kind} Q{i}: estimated work ids {work['id']:.3g}, degree {work['degree']:.3g} "
            f"(ratio {work['degree'] / work['id']:.2f}); GPU time ratio {t_deg / t_id:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
