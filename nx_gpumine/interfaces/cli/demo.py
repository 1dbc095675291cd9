"""``nx-gpumine demo``: the bundled graphs, with NetworkX for comparison."""

from __future__ import annotations

import argparse

from .common import MismatchError, Status, resolve_engine, timed
from .output import Report, TableBuffer
from .reading import load_static_graph, load_temporal_graph
from .static import networkx_count
from .temporal import census_rows
from .warmup import tiny_static_graph

__all__ = ["DEMO_PATTERNS", "DEMO_PIECE", "cmd_demo"]

#: static patterns of the demo
DEMO_PATTERNS = ("triangle", "4-cycle")
#: nodes of the facebook piece the demo also counts with NetworkX
DEMO_PIECE = range(1000, 1150)


def cmd_demo(args: argparse.Namespace) -> Report:
    """``demo``: facebook triangle/4-cycle counts (+ NetworkX on a piece), CollegeMsg census.

    Engine start-up (numba compile, or loading its on-disk cache; NVRTC for CUDA) is measured
    first on tiny inputs and reported on its own line; the times in the tables, and the
    speed-ups against NetworkX, are of the queries alone.
    """
    import networkx as nx

    from ..functions import count_subgraphs
    from ..temporal_functions import motif_census

    engine = resolve_engine(args.engine, "static")
    tengine = resolve_engine(args.engine, "temporal")
    status = Status(args.progress)
    out: list[str] = [f"nx-gpumine demo (engines: static {engine}, temporal {tengine})"]
    status.note("engine start-up (numba compile or cache load)")
    startup = _demo_startup(engine, tengine)
    parts = ", ".join(f"{k} {v:.2f} s" for k, v in startup.items())
    out.append(
        f"engine start-up, not included below (numba compile on a fresh install, then a cache "
        f"load): {parts}"
    )
    data: dict = {"command": "demo", "startup_s": startup}

    status.note("reading facebook")
    fb = load_static_graph("facebook")
    buf = TableBuffer()
    buf.line(f"\n1. SNAP ego-Facebook: {fb}")
    rows = []
    for p in DEMO_PATTERNS:
        status.note(f"counting {p} on facebook")
        c, s = timed(
            lambda p=p: count_subgraphs(
                fb, p, count="subgraphs", engine=engine, progress=status.bars
            )
        )
        rows.append([p, c, s])
    buf.table(rows, ["pattern", "subgraphs", "time_s"])
    data["facebook"] = [dict(zip(["pattern", "subgraphs", "time_s"], r, strict=True)) for r in rows]

    piece = nx.Graph(fb.to_networkx().subgraph(DEMO_PIECE))
    buf.line(
        f"\n2. A piece of it (nodes {DEMO_PIECE.start}..{DEMO_PIECE.stop - 1}: "
        f"{piece.number_of_nodes()} nodes, {piece.number_of_edges()} edges), "
        "against NetworkX's GraphMatcher"
    )
    rows = []
    for p in DEMO_PATTERNS:
        status.note(f"counting {p} on the piece (nx_gpumine and NetworkX)")
        c, s = timed(lambda p=p: count_subgraphs(piece, p, count="subgraphs", engine=engine))
        nc, ns = timed(
            lambda p=p: networkx_count(piece, p, induced=False, distinct=True, labels={})
        )
        if nc != c:
            raise MismatchError(f"demo: {p} counted {c} here but {nc} by NetworkX")
        rows.append([p, c, s, nc, ns, f"x{ns / max(s, 1e-9):.1f}"])
    head = ["pattern", "subgraphs", "time_s", "networkx", "networkx_s", "speedup"]
    buf.table(rows, head)
    data["piece"] = [dict(zip(head, r, strict=True)) for r in rows]

    status.note("reading collegemsg")
    tg = load_temporal_graph("collegemsg")
    delta = 3600
    buf.line(f"\n3. SNAP CollegeMsg: {tg}; three-edge motif census, delta={delta} s")
    status.note("temporal census on collegemsg")
    counts, s = timed(lambda: motif_census(tg, delta, engine=tengine))
    rows_c, header = census_rows(counts)
    buf.table(rows_c, header)
    buf.line(f"total {sum(counts.values()):,} motif instances in {s:.3f} s")
    data["collegemsg_census"] = {"delta": delta, "counts": counts, "time_s": s}
    return Report([], [], data, notes=out + buf.lines)


def _demo_startup(engine: str, tengine: str) -> dict[str, float]:
    """Seconds to run the demo's kinds of query once on tiny inputs (compile or cache load)."""
    import numpy as np

    from ...inputs.temporal_graph import temporal_from_arrays
    from ..functions import count_subgraphs
    from ..temporal_functions import motif_census

    graphs = [tiny_static_graph(False, False), tiny_static_graph(False, False, big=True)]
    _, s_static = timed(
        lambda: [
            count_subgraphs(g, p, count="subgraphs", engine=engine)
            for g in graphs
            for p in DEMO_PATTERNS
        ]
    )
    g = temporal_from_arrays([0, 1, 2, 0], [1, 2, 0, 2], np.arange(4, dtype=np.int64))
    _, s_temporal = timed(lambda: motif_census(g, 3, engine=tengine))
    return {f"static ({engine})": s_static, f"temporal ({tengine})": s_temporal}
