"""The static subgraph census: every connected ``k``-node pattern counted, induced or not.

Each graphlet (:func:`~nx_gpumine.plan.graphlets.graphlets`) is counted non-induced, as
distinct subgraphs: the undirected stars and the 4-node path from the degrees
(:func:`closed_form`: a star with ``s`` leaves is ``sum_v C(d_v, s)`` subgraphs, the 4-path
``sum over edges (d_u - 1)(d_v - 1) - 3 T``, ``T`` the triangles), the others by the static
query path (:func:`~nx_gpumine.execution.static.run_static`: any engine, several GPUs or a Dask
cluster; shape kernels and count tails where the plan has them). The induced counts follow by
the exact linear relation of :func:`~nx_gpumine.plan.graphlets.induced_counts`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..inputs.patterns import as_pattern
from ..inputs.static_graph import StaticGraph
from ..plan.graphlets import Graphlet, graphlets, induced_counts
from ..plan.static_plan import static_plan
from .merge import progress_bar
from .static import run_static

__all__ = ["graphlet_counts", "closed_form"]


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
        run = dict(engine=engine, client=client, devices=devices)

        def count(g: Graphlet) -> int:
            # the plan of each graphlet, built once per graph (kept with its derived values)
            plan = graph.derived(
                ("census_plan", g.directed, g.mask, g.k),
                lambda: static_plan(as_pattern(g.graph()), graph, induced=False, distinct=True),
            )
            return int(run_static(graph, plan, "count", **run))

        triangle = graphlets(3, False)[-1]
        try:
            for i, g in enumerate(gs):
                known = closed_form(graph, g, lambda: count(triangle))
                counts[i] = count(g) if known is None else known
                if bar is not None:
                    bar.task_done(i)
        finally:
            if bar is not None:
                bar.close()
    if induced:
        counts = induced_counts(counts, k, graph.directed)
    return gs, counts


def closed_form(graph: StaticGraph, g: Graphlet, triangles: Callable[[], int]) -> int | None:
    """The non-induced count of graphlet ``g`` in ``graph`` from the degrees, where a formula
    has it (None elsewhere): an undirected star with ``s`` leaves, ``sum_v C(d_v, s)``; the
    undirected 4-node path, ``sum over edges {u, v} of (d_u - 1)(d_v - 1) - 3 T`` (every path
    ``a-u-v-b`` with ``a != b``: the pairs with ``a == b`` are the triangles through the edge,
    three per triangle), ``T = triangles()``. Exact (Python integers).

    Parameters
    ----------
    graph : StaticGraph
        The data graph (self-loops are not in its lists).
    g : Graphlet
        The graphlet.
    triangles : callable
        Returns the graph's triangle count (called only for the 4-path).

    Returns
    -------
    int or None
    """
    if g.directed or len(g.edges) != g.k - 1:  # formulas for undirected trees only
        return None
    deg = np.diff(graph.indptr)
    hub = np.bincount(np.ravel(g.edges), minlength=g.k).max()
    if hub == g.k - 1:  # a star: choose its leaves among a centre's neighbours
        return _star_sum(deg, g.k - 1)
    if g.k == 4:  # the path a-u-v-b: its middle edge {u, v}, then a and b
        # sum over edges (d_u - 1)(d_v - 1) = 1/2 sum_u (d_u - 1)(S_u - d_u), S_u = the degree
        # sum of u's neighbours (a running sum over the lists)
        run = np.zeros(len(graph.indices) + 1, dtype=np.int64)
        np.cumsum(deg[graph.indices], out=run[1:])
        s = run[graph.indptr[1:]] - run[graph.indptr[:-1]]
        a, b = deg - 1, s - deg
        if float(np.dot(a.astype(np.float64), b.astype(np.float64))) < 2.0**62:
            twice = int(np.dot(a, b))
        else:  # past int64: Python integers
            twice = int(np.dot(a.astype(object), b.astype(object)))
        return twice // 2 - 3 * triangles()
    return None


def _star_sum(deg: np.ndarray, s: int) -> int:
    """``sum_v C(d_v, s)`` exactly, over the degree histogram (Python integers per distinct
    degree: a few thousand at most, where the nodes are millions)."""
    hist = np.bincount(deg) if len(deg) else np.zeros(0, dtype=np.int64)
    present = np.flatnonzero(hist[s:]) + s  # degrees below s choose nothing
    return sum(int(hist[d]) * math.comb(int(d), s) for d in present.tolist())
