"""The static subgraph census: every connected ``k``-node pattern counted, induced or not.

Each graphlet (:func:`~nx_gpumine.plan.graphlets.graphlets`) is counted non-induced, as
distinct subgraphs, by the static query path (:func:`~nx_gpumine.execution.static.run_static`:
any engine, several GPUs or a Dask cluster; shape kernels and count tails where the plan has
them), and the induced counts follow by the exact linear relation of
:func:`~nx_gpumine.plan.graphlets.induced_counts`.
"""

from __future__ import annotations

from typing import Any

from ..inputs.patterns import as_pattern
from ..inputs.static_graph import StaticGraph
from ..plan.graphlets import Graphlet, graphlets, induced_counts
from ..plan.static_plan import static_plan
from .merge import progress_bar
from .static import run_static

__all__ = ["graphlet_counts"]


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
    if graph.n >= k:
        bar = progress_bar(len(gs), f"subgraph census k={k}") if progress else None
        try:
            for i, g in enumerate(gs):
                plan = static_plan(as_pattern(g.graph()), graph, induced=False, distinct=True)
                run = dict(engine=engine, client=client, devices=devices)
                counts[i] = int(run_static(graph, plan, "count", **run))
                if bar is not None:
                    bar.task_done(i)
        finally:
            if bar is not None:
                bar.close()
    if induced:
        counts = induced_counts(counts, k, graph.directed)
    return gs, counts
