"""Counts served by the ``gpumine`` backend: triangles, clustering and the invariant checks.

``triangles``, ``transitivity``, ``clustering``, ``average_clustering`` and ``square_clustering``
come from per-node counts on sorted adjacency arrays (:mod:`nx_gpumine.engines.cpu.local_counts`
or its CUDA twin); ``could_be_isomorphic``, ``fast_could_be_isomorphic`` and
``faster_could_be_isomorphic`` compare the same sorted per-node property tables as NetworkX
(degree, triangles, maximal cliques). Every number equals NetworkX's.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import networkx as nx
import numpy as np

from ..engines.contract import engine_module
from ..inputs.backend_graph import MULTIPLICITY, GpumineGraph, as_backend_graph
from .backend_dispatch import call_engine, log_first_use

__all__ = [
    "triangles",
    "transitivity",
    "clustering",
    "average_clustering",
    "square_clustering",
    "could_be_isomorphic",
    "fast_could_be_isomorphic",
    "faster_could_be_isomorphic",
    "undirected_csr",
]


# ====================================================================== local counts
def _count_engine(engine: str | None) -> tuple[str, ModuleType]:
    name = call_engine(engine)
    return name, engine_module("local_counts", name)


def undirected_csr(g: GpumineGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR of the undirected union without self-loops (sorted rows) and direction counts.

    Parameters
    ----------
    g : GpumineGraph
        A simple graph (parallel edges of a multigraph count once).

    Returns
    -------
    ptr : numpy.ndarray
        int64 row bounds, length ``n + 1``.
    idx : numpy.ndarray
        int64 neighbour ids, ascending within each row.
    w : numpy.ndarray
        int64 per entry: 2 where a directed graph has both ``u -> v`` and ``v -> u``, else 1.
    """
    n = len(g)
    keep = g.src != g.dst
    s, d = g.src[keep], g.dst[keep]
    a = np.concatenate([s, d])
    b = np.concatenate([d, s])
    key = np.unique(a * max(n, 1) + b, return_counts=True)
    rows, cols = np.divmod(key[0], max(n, 1))
    w = key[1] if g.directed else np.ones(len(rows), dtype=np.int64)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=ptr[1:])
    return ptr, cols.astype(np.int64), w.astype(np.int64)


def _node_ids(g: GpumineGraph, nodes: Any) -> tuple[list[int], bool]:
    """Dense ids for NetworkX's ``nodes`` argument and whether one node was named."""
    if nodes is None:
        return list(range(len(g))), False
    try:
        if nodes in g:
            return [g.key_to_id[nodes]], True
    except TypeError:
        pass
    try:
        items = iter(nodes)
    except TypeError as exc:
        raise nx.NetworkXError(f"nbunch is not a node or a sequence of nodes: {nodes!r}") from exc
    ids = []
    k2i = g.key_to_id
    for v in items:  # as Graph.nbunch_iter: nodes not in G are skipped
        try:
            i = k2i.get(v)
        except TypeError as exc:
            raise nx.NetworkXError(f"Node {v} in sequence nbunch is not a valid node.") from exc
        if i is not None:
            ids.append(i)
    return ids, False


def _counts(G: Any, what: str, engine: str | None) -> tuple[GpumineGraph, tuple]:
    g = as_backend_graph(G)
    name, mod = _count_engine(engine)
    ptr, idx, w = undirected_csr(g)
    t0 = time.perf_counter()
    if what == "squares":
        out: tuple = mod.square_counts(ptr, idx)
    elif g.directed:
        out = (mod.directed_triangle_counts(ptr, idx, w),)
    else:
        out = (mod.triangle_counts(ptr, idx),)
    log_first_use(f"{what} counts ({name})", t0)
    deg = np.diff(ptr)
    return g, (deg, *(np.asarray(x) for x in out))


def triangles(G: Any, nodes: Any = None, *, engine: str | None = None) -> int | dict:
    """``networkx.triangles`` on nx_gpumine's engines.

    Parameters
    ----------
    G : GpumineGraph, networkx.Graph or StaticGraph
        Undirected simple graph (self-loops ignored, as NetworkX does).
    nodes : node or iterable of nodes, optional
        One node (an int comes back) or several (a dict); default every node.
    engine : {"auto", "cpu", "cuda"}, optional
        Engine; default ``nx.config.backends.gpumine.engine``.

    Returns
    -------
    int or dict
        Triangles through each node.
    """
    g, (_, t2) = _counts(G, "triangles", engine)
    ids, one = _node_ids(g, nodes)
    if one:
        return int(t2[ids[0]]) // 2
    keys = g.keys
    return {keys[i]: int(t2[i]) // 2 for i in ids}


def transitivity(G: Any, *, engine: str | None = None) -> float:
    """``networkx.transitivity`` (undirected) on nx_gpumine's engines.

    Parameters
    ----------
    G : GpumineGraph, networkx.Graph or StaticGraph
        Undirected simple graph.
    engine : {"auto", "cpu", "cuda"}, optional
        Engine.

    Returns
    -------
    float
        ``3 * triangles / connected triples`` (0 without triangles).
    """
    if len(G) == 0:
        return 0
    _, (deg, t2) = _counts(G, "triangles", engine)
    tri = int(t2.sum())
    contri = int((deg * (deg - 1)).sum())
    return 0 if tri == 0 else tri / contri


def _clustering_values(
    G: Any, nodes: Any, engine: str | None
) -> tuple[GpumineGraph, list, list, bool]:
    g, (deg, t) = _counts(G, "triangles", engine)
    ids, one = _node_ids(g, nodes)
    vals: list = []
    if g.directed:
        ptr, idx, w = undirected_csr(g)
        bi = np.bincount(np.repeat(np.arange(len(g)), np.diff(ptr))[w == 2], minlength=len(g))
        dtot = np.zeros(len(g), dtype=np.int64)
        np.add.at(dtot, np.repeat(np.arange(len(g)), np.diff(ptr)), w)
        for i in ids:
            ti, dt, db = int(t[i]), int(dtot[i]), int(bi[i])
            vals.append(0 if ti == 0 else ti / ((dt * (dt - 1) - 2 * db) * 2))
    else:
        for i in ids:
            ti, d = int(t[i]), int(deg[i])
            vals.append(0 if ti == 0 else ti / (d * (d - 1)))
    return g, ids, vals, one


def clustering(
    G: Any, nodes: Any = None, weight: Any = None, *, engine: str | None = None
) -> float | dict:
    """``networkx.clustering`` (unweighted; directed graphs too) on nx_gpumine's engines.

    Parameters
    ----------
    G : GpumineGraph, networkx.Graph or StaticGraph
        Simple graph (self-loops ignored).
    nodes : node or iterable of nodes, optional
        One node (a number comes back) or several (a dict); default every node.
    weight : None
        Weighted clustering is refused by can_run (NetworkX computes it).
    engine : {"auto", "cpu", "cuda"}, optional
        Engine.

    Returns
    -------
    float or dict
    """
    if weight is not None:
        raise NotImplementedError("weighted clustering is left to NetworkX")
    g, ids, vals, one = _clustering_values(G, nodes, engine)
    if one:
        return vals[0]
    keys = g.keys
    return {keys[i]: v for i, v in zip(ids, vals, strict=True)}


def average_clustering(
    G: Any,
    nodes: Any = None,
    weight: Any = None,
    count_zeros: bool = True,
    *,
    engine: str | None = None,
) -> float:
    """``networkx.average_clustering`` (unweighted) on nx_gpumine's engines.

    Parameters
    ----------
    G, nodes, weight, engine
        As in :func:`clustering`.
    count_zeros : bool
        Include nodes of clustering 0 in the average.

    Returns
    -------
    float

    Raises
    ------
    ZeroDivisionError
        No node to average over (as NetworkX).
    """
    if weight is not None:
        raise NotImplementedError("weighted clustering is left to NetworkX")
    _, _, c, one = _clustering_values(G, nodes, engine)
    if one:  # NetworkX averages over the values of a dict; a single node gives its number
        raise TypeError("'float' object has no attribute 'values'")
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def square_clustering(G: Any, nodes: Any = None, *, engine: str | None = None) -> float | dict:
    """``networkx.square_clustering`` (undirected) on nx_gpumine's engines.

    Parameters
    ----------
    G : GpumineGraph, networkx.Graph or StaticGraph
        Undirected simple graph (self-loops ignored).
    nodes : node or iterable of nodes, optional
        One node (a number comes back) or several (a dict); default every node.
    engine : {"auto", "cpu", "cuda"}, optional
        Engine.

    Returns
    -------
    float or dict
    """
    g, (_, sq, pot) = _counts(G, "squares", engine)
    ids, one = _node_ids(g, nodes)
    vals = [int(sq[i]) / int(pot[i]) if pot[i] > 0 else 0 for i in ids]
    if one:
        return vals[0]
    keys = g.keys
    return {keys[i]: v for i, v in zip(ids, vals, strict=True)}


# ====================================================================== invariant checks
def _degrees(g: GpumineGraph) -> np.ndarray:
    """NetworkX's ``G.degree()`` per dense id (in + out; a self-loop counts twice)."""
    n = len(g)
    w = None
    if g.multigraph:
        w = np.fromiter((d[MULTIPLICITY] for d in g.edge_data), dtype=np.int64, count=len(g.src))
    deg = np.bincount(g.src, weights=w, minlength=n) + np.bincount(g.dst, weights=w, minlength=n)
    return deg.astype(np.int64)


def _sorted_rows(cols: list[np.ndarray]) -> np.ndarray:
    table = np.stack(cols, axis=1) if cols else np.zeros((0, 0), dtype=np.int64)
    return table[np.lexsort(table.T[::-1])] if len(cols) else table


def _not_directed(g: GpumineGraph) -> None:
    # nx.triangles and nx.find_cliques are @not_implemented_for("directed")
    if g.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")


def _triangles_of(g: GpumineGraph, engine: str | None) -> np.ndarray:
    """Triangles through each node (undirected; parallel edges and self-loops ignored)."""
    name, mod = _count_engine(engine)
    ptr, idx, _ = undirected_csr(g)
    t0 = time.perf_counter()
    t2 = np.asarray(mod.triangle_counts(ptr, idx))
    log_first_use(f"triangles counts ({name})", t0)
    return t2 // 2


def _cliques_of(g: GpumineGraph) -> np.ndarray:
    """Maximal cliques through each node (numba on every engine: the search is sequential)."""
    cpu_counts = engine_module("local_counts", "cpu")  # a CPU-only extra of that engine
    ptr, idx, _ = undirected_csr(g)
    t0 = time.perf_counter()
    out = np.asarray(cpu_counts.maximal_clique_counts(ptr, idx))
    log_first_use("maximal clique counts (cpu)", t0)
    return out


def could_be_isomorphic(
    G1: Any, G2: Any, *, properties: str = "dtc", engine: str | None = None
) -> bool:
    """``networkx.could_be_isomorphic`` on nx_gpumine's engines.

    The per-node property table (degree ``"d"``, triangles ``"t"``, maximal cliques ``"c"``)
    of both graphs is compared as a sorted multiset, property by property in that order, as
    NetworkX does; triangles run on the chosen engine, maximal cliques (Bron-Kerbosch with
    pivoting) on the numba module.

    Parameters
    ----------
    G1, G2 : GpumineGraph, networkx.Graph or StaticGraph
        Any two graphs (multigraph degrees count parallel edges).
    properties : str
        Which properties to compare; other characters are ignored.
    engine : {"auto", "cpu", "cuda"}, optional
        Engine for the triangle counts; default ``nx.config.backends.gpumine.engine``.

    Returns
    -------
    bool
        False if the graphs are certainly not isomorphic.

    Raises
    ------
    networkx.NetworkXNotImplemented
        ``"t"`` or ``"c"`` is reached for a directed graph (as NetworkX).
    """
    g1, g2 = as_backend_graph(G1), as_backend_graph(G2)
    if len(g1) != len(g2):
        return False
    wanted = set(properties)
    cols1: list[np.ndarray] = []
    cols2: list[np.ndarray] = []
    steps = (
        ("d", _degrees, False),
        ("t", lambda g: _triangles_of(g, engine), True),
        ("c", _cliques_of, True),
    )
    for key, prop, undirected_only in steps:
        if key not in wanted:
            continue
        for g, cols in ((g1, cols1), (g2, cols2)):
            if undirected_only:
                _not_directed(g)
            cols.append(prop(g))
        if not np.array_equal(_sorted_rows(cols1), _sorted_rows(cols2)):
            return False
    return True


def fast_could_be_isomorphic(G1: Any, G2: Any, *, engine: str | None = None) -> bool:
    """``networkx.fast_could_be_isomorphic``: degree and triangle sequences compared.

    Parameters
    ----------
    G1, G2 : GpumineGraph, networkx.Graph or StaticGraph
        Undirected graphs.
    engine : {"auto", "cpu", "cuda"}, optional
        Engine for the triangle counts.

    Returns
    -------
    bool

    Raises
    ------
    networkx.NetworkXNotImplemented
        A graph is directed (as NetworkX, once the orders agree).
    """
    g1, g2 = as_backend_graph(G1), as_backend_graph(G2)
    if len(g1) != len(g2):
        return False
    tables = []
    for g in (g1, g2):
        deg = _degrees(g)
        _not_directed(g)
        tables.append(_sorted_rows([deg, _triangles_of(g, engine)]))
    return bool(np.array_equal(*tables))


def faster_could_be_isomorphic(G1: Any, G2: Any, *, engine: str | None = None) -> bool:
    """``networkx.faster_could_be_isomorphic``: degree sequences compared.

    Parameters
    ----------
    G1, G2 : GpumineGraph, networkx.Graph or StaticGraph
        Any two graphs.
    engine : {"auto", "cpu", "cuda"}, optional
        Unused (degrees come from the edge list); accepted like the other functions'.

    Returns
    -------
    bool
    """
    g1, g2 = as_backend_graph(G1), as_backend_graph(G2)
    if len(g1) != len(g2):
        return False
    return bool(np.array_equal(np.sort(_degrees(g1)), np.sort(_degrees(g2))))
