"""The static subgraph census: counts of every connected 3-, 4- or 5-node pattern (graphlets,
network motifs), induced or not, in one call."""

from __future__ import annotations

from typing import Any

import networkx as nx

from ..device_limits import device_budget
from ..engines import resolve_engine_name
from ..errors import EngineUnavailableError, QueryError
from ..execution.subgraph_census import graphlet_counts
from ..inputs.options import as_flag
from ..inputs.static_graph import as_static_graph
from ..plan.graphlets import graphlets
from ..plan.orbits import ORBIT_SIZES, orbit_names
from ..results.graphlets import census_frame, orbit_frame
from .paramdocs import fill_doc, static_run_options_doc

__all__ = ["subgraph_census", "census_patterns", "graphlet_orbits"]


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
    per_node: bool = False,
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
    per_node : bool
        Count per node instead: :func:`graphlet_orbits` (``G``, ``k``, ``engine``,
        ``as_frame``; undirected, ``k`` <= 5, induced).

    Returns
    -------
    dict or frame
        ``{pattern name: count}`` in census order (by edge count); the names are the
        catalogue's (``"triangle"``, ``"4-cycle"``, ...), NetworkX's graph atlas numbers
        (``"G35"`` is ``networkx.graph_atlas(35)``) or, for directed patterns without one,
        ``"D<k>-<mask>"``; :func:`census_patterns` gives each name's NetworkX graph. With
        ``per_node``, what :func:`graphlet_orbits` returns.

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
    if as_flag(per_node, "per_node"):
        if not induced:
            raise QueryError("per-node counts are induced (ORCA's orbits): drop induced=False")
        return graphlet_orbits(G, k, engine=engine, as_frame=as_frame)
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


def graphlet_orbits(
    G: Any, k: int = 4, *, engine: str = "auto", as_frame: str | None = None
) -> Any:
    """Per-node graphlet orbit counts (graphlet degree vectors, as ORCA counts them).

    For each node ``v`` and each *orbit* ``o`` (a class of pattern nodes an automorphism maps
    onto each other) of the connected graphlets on 2 to ``k`` nodes: the node sets ``S``
    containing ``v`` whose induced subgraph is ``o``'s graphlet with ``v`` in ``o``. Orbits in
    ORCA's numbering (``docs/static.md``, "Per-node orbit counts"): 0 the degree; 1, 2 the
    wedge's end and centre; 3 the triangle; 4-14 the 4-node graphlets' orbits; 15-72 the
    5-node graphlets' orbits. Summed over the nodes, an orbit's counts are its graphlet's
    induced count (:func:`subgraph_census`) times the orbit's size. Orbits 0-14 are computed
    from each edge's triangles, per-node 4-cycles and 4-cliques and degree sums, then the exact
    per-node relation between non-induced and induced counts; orbits 15-72 from the connected
    4-node sets completed by common-neighbour counts and a triangular system of equations per
    node (Hočevar and Demšar's approach, ``docs/static.md``).

    Parameters
    ----------
    G : networkx.Graph, StaticGraph or edge frame
        Undirected data graph (self-loops are ignored).
    k : int
        Largest graphlet size: 2, 3, 4 or 5 (1, 4, 15 or 73 orbits).
    engine : {"auto", "cpu"}
        The CPU engine computes them (numba, all cores); ``"auto"`` picks it.
    as_frame : {"pandas", "polars", "pyarrow", "cudf"}, optional
        Return a table: a ``node`` column, then one int64 column per orbit (named
        ``"edge:end"``, ``"wedge:end"``, ``"wedge:centre"``, ...:
        :func:`nx_gpumine.plan.orbits.orbit_names`).

    Returns
    -------
    dict or frame
        ``{node: tuple of counts}`` (ORCA's row per node), or the frame.

    Raises
    ------
    QueryError, EngineUnavailableError, CapacityError
        A directed graph or ``k`` outside 2-5; ``engine="cuda"`` (the orbit counts run on the
        CPU engine); a count past 64 bits.

    Examples
    --------
    >>> import networkx as nx
    >>> graphlet_orbits(nx.path_graph(3), 3)
    {0: (1, 1, 0, 0), 1: (2, 0, 1, 0), 2: (1, 1, 0, 0)}
    """
    if isinstance(k, bool) or not isinstance(k, int) or k not in ORBIT_SIZES:
        raise QueryError(f"per-node orbit counts take k in {ORBIT_SIZES}, got {k!r}")
    if resolve_engine_name(engine) != "cpu" and engine != "auto":
        raise EngineUnavailableError(
            "per-node orbit counts run on the CPU engine: use engine='cpu' or 'auto'"
        )
    graph = as_static_graph(G)
    if graph.directed:
        raise QueryError("per-node orbit counts are defined for undirected graphs")
    if k == 5:
        from ..engines.cpu.orbit_equations5 import node_orbit_counts5  # numba, on first use

        counts = node_orbit_counts5(graph.indptr, graph.indices)
    else:
        from ..engines.cpu.orbit_counts import node_orbit_counts  # numba, on first use

        counts = node_orbit_counts(graph.indptr, graph.indices, k)
    if as_frame is not None:
        return orbit_frame(graph.keys, counts, orbit_names(k), as_frame)
    return dict(zip(graph.keys, map(tuple, counts.tolist()), strict=True))
