"""The static subgraph census: every connected ``k``-node pattern counted, induced or not.

Each graphlet (:func:`~nx_gpumine.plan.graphlets.graphlets`) is counted non-induced, as
distinct subgraphs. Where :func:`~nx_gpumine.plan.graphlets.block_formula` has a formula
(stars, paths, the triangle, the 4-cycle, the diamond, the 4-clique and every 5-node graphlet
but the 5-clique), from the building blocks the engine computes in one pass (``census_blocks``:
degree sums, each edge's triangles, each node's 2-paths and link); the others (the 5-clique,
and the blocks that are one graphlet's count where the engine leaves them out) by the static
query path (:func:`~nx_gpumine.execution.static.run_static`: shape kernels and count tails
where the plan has them, any engine, several GPUs or a Dask cluster). With a Dask client or
several devices only the degree blocks are computed here (on the host) and the triangles
counted on that route; the patterns of the other blocks take the query path too. Induced and
non-induced counts follow from each other by the exact linear relations of
:func:`~nx_gpumine.plan.graphlets.induced_counts` and ``noninduced_counts``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engines import resolve_engine_name
from ..engines.contract import engine_module
from ..inputs.patterns import as_pattern
from ..inputs.static_graph import StaticGraph
from ..plan.graphlets import (
    GRAPHLET_BLOCKS,
    Graphlet,
    block_formula,
    from_blocks,
    graphlet_of,
    graphlets,
    induced_counts,
)
from ..plan.static_plan import static_plan
from .merge import progress_bar
from .static import run_static

__all__ = ["census_count", "graphlet_counts", "last_census", "CENSUS_ROUTE_MIN_EDGES"]

#: Edges from which :func:`census_count` answers an induced 5-node count from the census
#: (below, the walk takes milliseconds and needs no census).
CENSUS_ROUTE_MIN_EDGES = 10_000

#: Statistics of this process's last census: ``engine``, ``kernel_ms`` (device time of all its
#: kernels, CUDA engine), ``blocks`` (the building blocks computed), ``by_pattern``
#: (``"formula"`` or ``"query"`` per graphlet name) and ``query_kernel_ms`` (the
#: device time of each queried graphlet's count).
last_census: dict[str, Any] = {}

_DEGREE_BLOCKS = frozenset({"stars2", "stars3", "stars4", "paths3", "spiders", "arms"})


def graphlet_counts(
    graph: StaticGraph,
    k: int,
    *,
    induced: bool = True,
    engine: str = "auto",
    progress: bool = False,
    client: Any = None,
    devices: Any = None,
) -> tuple[tuple[Graphlet, ...], list[int]]:
    """The census of ``graph``: its graphlets of ``k`` nodes and their counts.

    Parameters
    ----------
    graph : StaticGraph
        The data graph (directed graphlets for a directed graph; self-loops are ignored).
    k : int
        Pattern size (:data:`~nx_gpumine.plan.graphlets.CENSUS_SIZES`).
    induced : bool
        Count node sets inducing each graphlet (True) or subgraphs isomorphic to it.
    engine, client, devices
        Where each count runs (:func:`~nx_gpumine.execution.static.run_static`).
    progress : bool
        A bar over the graphlets (needs tqdm).

    Returns
    -------
    tuple
        ``(graphlets, counts)``: the graphlets in census order and an exact count each.
    """
    gs = graphlets(k, graph.directed)
    counts = [0] * len(gs)
    local = client is None and devices is None and engine != "dask"
    name = resolve_engine_name(engine) if local else "cpu"
    stats: dict[str, Any] = {"engine": name if local else engine, "kernel_ms": 0.0}
    if graph.n >= k:
        wanted = {b for g in gs for _, b in block_formula(g) or ()}
        # elsewhere than here, the host computes the degree sums; the triangles are a count on
        # the query path (below), the other blocks not needed
        asked = wanted if local else wanted & _DEGREE_BLOCKS
        blocks = engine_module("census", name).census_blocks(graph, asked, stats)
        bar = progress_bar(len(gs), f"subgraph census k={k}") if progress else None
        run = dict(engine=engine, client=client, devices=devices)
        by_pattern: dict[str, str] = {}
        query_ms: dict[str, float] = {}

        def count(g: Graphlet) -> int:
            # the plan of each graphlet, built once per graph (kept with its derived values)
            plan = graph.derived(
                ("census_plan", g.directed, g.mask, g.k),
                lambda: static_plan(as_pattern(g.graph()), graph, induced=False, distinct=True),
            )
            c = int(run_static(graph, plan, "count", **run))
            if name == "cuda" and local:
                ms = float(_cuda_last_run().get("kernel_ms", 0.0))
                stats["kernel_ms"] += ms
                query_ms[g.name] = ms
            return c

        # a block that is one graphlet's count, that the engine did not compute (the triangles
        # elsewhere than here, the 4-cycles on the GPU) and that another graphlet's formula
        # needs, its other blocks at hand: counted on the query path
        named = {g.name: g for size in (3, 4, 5) for g in graphlets(size, False)}
        needed = set()
        for g in gs:
            terms = {b for _, b in block_formula(g) or ()}
            if all(b in blocks or b in GRAPHLET_BLOCKS for b in terms):
                needed |= {b for b in terms if GRAPHLET_BLOCKS.get(b) not in (None, g.name)}
        for block, graphlet in GRAPHLET_BLOCKS.items():
            if block in needed and block not in blocks:
                blocks[block] = count(named[graphlet])
        try:
            for i, g in enumerate(gs):
                known = from_blocks(g, blocks)
                by_pattern[g.name] = "query" if known is None else "formula"
                counts[i] = count(g) if known is None else known
                if bar is not None:
                    bar.task_done(i)
        finally:
            if bar is not None:
                bar.close()
        stats.update(blocks=blocks, by_pattern=by_pattern, query_kernel_ms=query_ms)
    last_census.clear()
    last_census.update(stats)
    if induced:
        counts = induced_counts(counts, k, graph.directed)
    return gs, counts


def _cuda_last_run() -> dict:
    """The CUDA static engine's statistics of its last call."""
    return engine_module("static", "cuda").last_run


def census_count(
    graph: StaticGraph, plan: Any, engine: str = "auto", progress: bool = False
) -> int | None:
    """The distinct count of an induced 5-node plan read off the graph's census, or None.

    An induced, unlabelled, loop-free 5-node pattern (a census graphlet,
    :func:`~nx_gpumine.plan.graphlets.graphlet_of`) on an undirected graph without
    self-loops of :data:`CENSUS_ROUTE_MIN_EDGES` edges or more, counted by the CPU engine in
    this process: its count is the census's (:func:`graphlet_counts`, induced), computed once
    per graph and kept with it. The induced walk cannot end in a count tail and lists every
    match; the census sums degree, triangle, 2-path and link blocks and inverts the
    non-induced counts (2 cores, ``powerlaw_cluster_graph(40000, 5, 0.3)``: the induced
    5-cycle 1.35 s with the census, 49.8 s by the walk; then the house and the bowtie 0.01 s
    each, 2.2 s and 2.1 s by the walk; ``benchmarks/bench_cpu_routes.py --parts census
    --paper-sizes``). The CUDA engine keeps its walk (the route is not measured there).

    Parameters
    ----------
    graph, plan
        As in :func:`~nx_gpumine.execution.static.run_static` (any plan: one the census does
        not answer gives None).
    engine : str
        The engine asked for (the route is the CPU engine's: ``"cpu"``, or ``"auto"`` where
        it resolves to it).
    progress : bool
        A bar over the census's graphlets.

    Returns
    -------
    int or None
    """
    if (
        plan.k != 5
        or not plan.induced
        or plan.impossible
        or graph.directed
        or len(graph.indices) < 2 * CENSUS_ROUTE_MIN_EDGES
        or engine not in ("auto", "cpu")
        or resolve_engine_name(engine) != "cpu"
        or bool(np.asarray(graph.loop).any())
    ):
        return None
    g = graphlet_of(plan.pattern)
    if g is None:
        return None
    gs, counts = graph.derived(
        ("induced_census", 5),
        lambda: graphlet_counts(graph, 5, induced=True, engine="cpu", progress=progress),
    )
    return int(counts[gs.index(g)])
