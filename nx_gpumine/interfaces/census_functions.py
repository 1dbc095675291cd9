"""The static subgraph census: counts of every connected 3-, 4- or 5-node pattern (graphlets,
network motifs), induced or not, in one call."""

from __future__ import annotations

from typing import Any

import networkx as nx

from ..device_limits import device_budget
from ..execution.subgraph_census import graphlet_counts
from ..inputs.options import as_flag
from ..inputs.static_graph import as_static_graph
from ..plan.graphlets import graphlets
from ..results.graphlets import census_frame
from .paramdocs import fill_doc, static_run_options_doc

__all__ = ["subgraph_census", "census_patterns"]


@fill_doc(run_options=static_run_options_doc("each pattern's root-edge ranges from a shared queue"))
def subgraph_census(
    G: Any,
    k: int,
    *,
    induced: bool = True,
    engine: str = "auto",
    as_frame: str | None = None,
    progress: bool = False,
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> Any:
    """Count every connected ``k``-node pattern of ``G`` (the graphlet / network-motif census).

    Undirected graphs take ``k`` = 3, 4 or 5 (2, 6 and 21 patterns), directed graphs ``k`` = 3
    or 4 (13 and 199 weakly connected patterns; a pair of nodes may be joined both ways).
    Self-loops are ignored. Each pattern is counted as distinct subgraphs (not mappings); the
    induced counts follow from these by an exact linear relation (``docs/static.md``, "Subgraph
    census"), in exact integers.

    Parameters
    ----------
    G : networkx.Graph, networkx.DiGraph, StaticGraph or edge frame
        The data graph.
    k : int
        Pattern size.
    induced : bool
        True (default): the node sets whose induced subgraph is each pattern (as igraph's
        ``motifs_randesu`` and ESCAPE count; every connected ``k``-node set counts once);
        False: the subgraphs isomorphic to each pattern (a node set and some of its edges).
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine, as in :func:`~nx_gpumine.count_subgraphs`.
    as_frame : {"pandas", "polars", "pyarrow", "cudf"}, optional
        Return a table (columns ``pattern``, ``nodes``, ``edges``, ``edge_list``, ``count``)
        instead of a dict.
    progress : bool
        A bar over the patterns (needs tqdm).
    {run_options}

    Returns
    -------
    dict or frame
        ``{pattern name: count}`` in census order (by edge count); the names are the
        catalogue's (``"triangle"``, ``"4-cycle"``, ...), NetworkX's graph atlas numbers
        (``"G35"`` is ``networkx.graph_atlas(35)``) or, for directed patterns without one,
        ``"D<k>-<mask>"``; :func:`census_patterns` gives each name's NetworkX graph.

    Raises
    ------
    QueryError
        A ``k`` outside the sizes above.
    CapacityError
        A count past 64 bits.

    Examples
    --------
    >>> import networkx as nx
    >>> subgraph_census(nx.complete_graph(4), 3)
    {{'wedge': 0, 'triangle': 4}}
    """
    induced = as_flag(induced, "induced")
    progress = as_flag(progress, "progress")
    graph = as_static_graph(G)
    graphlets(k, graph.directed)  # checks k before any work
    with device_budget(max_device_bytes):
        gs, counts = graphlet_counts(
            graph, k, induced=induced, engine=engine, progress=progress, client=client,
            devices=devices,
        )  # fmt: skip
    if as_frame is not None:
        return census_frame(gs, counts, as_frame)
    return {g.name: c for g, c in zip(gs, counts, strict=True)}


def census_patterns(k: int, directed: bool = False) -> dict[str, nx.Graph]:
    """The patterns of :func:`subgraph_census`, by name, in census order.

    Parameters
    ----------
    k : int
        Pattern size (3-5 undirected, 3-4 directed).
    directed : bool
        Directed patterns.

    Returns
    -------
    dict
        ``{name: networkx.Graph or networkx.DiGraph}`` on nodes ``0..k-1``.

    Examples
    --------
    >>> sorted(census_patterns(4))
    ['4-clique', '4-cycle', '4-path', '4-star', 'diamond', 'tailed-triangle']
    """
    return {g.name: g.graph() for g in graphlets(k, as_flag(directed, "directed"))}
