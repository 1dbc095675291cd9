"""The NetworkX backend ``gpumine``: dispatched NetworkX calls answered on nx_gpumine's engines.

NetworkX finds it through two entry points (``pyproject.toml``)::

    networkx.backends      gpumine = nx_gpumine.interfaces.backend:BackendInterface
    networkx.backend_info  gpumine = nx_gpumine.interfaces.backend_info:get_info

The second is a metadata-only module (no numpy, no networkx), so ``import networkx`` stays as
cheap as without the package; this module loads on the first dispatched call.

Served (:data:`SERVED`): ``is_isomorphic`` and ``vf2pp_{is_isomorphic,isomorphism,
all_isomorphisms}`` by colour refinement and individualisation
(:mod:`nx_gpumine.execution.graph_iso`; no automorphism enumeration), NetworkX 3.7's six
``vf2pp`` subgraph/monomorphism functions on the static subgraph engines, and ``triangles``,
``transitivity``, ``clustering``, ``average_clustering``, ``square_clustering`` from per-node
counts (:mod:`nx_gpumine.engines.cpu.local_counts`, CUDA twin). Arguments are bound with the
installed NetworkX function's own signature. :func:`can_run` refuses, before any work, what is
not served (see ``docs/backend.md``); under a priority list NetworkX then answers itself.

Graphs converted beforehand dispatch here by type: :class:`GpumineGraph`
(``BackendInterface.convert_from_nx``) and :class:`~nx_gpumine.StaticGraph`
(``nx_gpumine.from_networkx``) both carry ``__networkx_backend__ = "gpumine"``. A ``StaticGraph``
only knows the label attribute it was built with, so a call labeling by another attribute, or
with another default for missing values, is refused by :func:`can_run`.
"""

from __future__ import annotations

# isort: off
# get_info first: with an older install whose backend_info entry point names this module,
# `import networkx` below re-enters this module and must find get_info already defined
from .backend_info import get_info

# isort: on
import logging
import time
from typing import Any

import networkx as nx
import numpy as np

from ..inputs.backend_graph import (
    MULTIPLICITY,
    GpumineGraph,
    as_backend_graph,
)
from ..inputs.static_graph import StaticGraph
from .backend_dispatch import (
    MAX_SUBGRAPH_NODES,
    SERVED,
    call_engine,
    can_run,
    log_first_use,
    should_run,
)
from .backend_matching import (
    is_isomorphic,
    vf2pp_all_isomorphisms,
    vf2pp_all_monomorphisms,
    vf2pp_all_subgraph_isomorphisms,
    vf2pp_is_isomorphic,
    vf2pp_is_monomorphic,
    vf2pp_isomorphism,
    vf2pp_monomorphism,
    vf2pp_subgraph_is_isomorphic,
    vf2pp_subgraph_isomorphism,
)

__all__ = [
    "BackendInterface",
    "GpumineGraph",
    "SERVED",
    "MAX_SUBGRAPH_NODES",
    "get_info",
    "convert_from_nx",
    "convert_to_nx",
    "can_run",
    "should_run",
]

logger = logging.getLogger("nx_gpumine")


# ====================================================================== conversion
def convert_from_nx(
    graph: Any,
    edge_attrs: dict | None = None,
    node_attrs: dict | None = None,
    preserve_edge_attrs: bool = False,
    preserve_node_attrs: bool = False,
    preserve_graph_attrs: bool = False,
    name: str | None = None,
    graph_name: str | None = None,
) -> GpumineGraph:
    """Convert a NetworkX graph for the backend (NetworkX's ``convert_from_nx`` protocol).

    Only the attributes the call needs are kept: all of them where ``preserve_*_attrs`` is
    true (``is_isomorphic`` with a ``node_match``/``edge_match`` callable), the names in
    ``node_attrs``/``edge_attrs`` otherwise (``vf2pp_*`` with ``node_label``). Defaults are not
    filled in here: each function applies its own default at call time.

    A ``MultiGraph``/``MultiDiGraph`` is collapsed to one edge per adjacent (ordered, when
    directed) pair, carrying its number of parallel edges as edge attribute
    :data:`MULTIPLICITY` (matched as an edge label, so two multigraphs are compared as NetworkX
    compares them); node attributes are kept as above, other edge attributes are dropped. A
    :class:`GpumineGraph` is returned as is; a :class:`~nx_gpumine.StaticGraph` is wrapped,
    its labels becoming attributes.

    Parameters
    ----------
    graph : networkx.Graph, GpumineGraph or StaticGraph
        The graph to convert (any of NetworkX's four graph classes).
    edge_attrs, node_attrs : dict, optional
        Attribute name -> default, as NetworkX passes them; only the names are used.
    preserve_edge_attrs, preserve_node_attrs, preserve_graph_attrs : bool
        Keep every edge / node attribute, or the graph attributes.
    name, graph_name : str, optional
        The dispatched function's and the graph argument's names (unused).

    Returns
    -------
    GpumineGraph
    """
    if isinstance(graph, GpumineGraph):
        return graph
    if isinstance(graph, StaticGraph):
        return GpumineGraph.from_static(graph)
    nkeep = True if preserve_node_attrs is True else set(node_attrs or ())
    ekeep = True if preserve_edge_attrs is True else set(edge_attrs or ())
    return GpumineGraph.from_networkx(
        graph, node_attrs=nkeep, edge_attrs=ekeep, graph_attrs=bool(preserve_graph_attrs)
    )


def convert_to_nx(obj: Any, *, name: str | None = None) -> Any:
    """Turn backend graphs into NetworkX graphs; pass every other result through."""
    if isinstance(obj, GpumineGraph):
        return obj.to_networkx()
    if isinstance(obj, StaticGraph):
        return obj.to_networkx()
    return obj


# ====================================================================== local counts
def _count_engine(engine: Any) -> tuple[str, Any]:
    name = call_engine(engine)
    if name == "cuda":
        from ..engines.cuda import local_counts as mod
    else:
        from ..engines.cpu import local_counts as mod
    return name, mod


def _sym_csr(g: GpumineGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR of the undirected union without self-loops (sorted rows) and direction counts."""
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


def _counts(G: Any, what: str, engine: Any) -> tuple[GpumineGraph, tuple]:
    g = as_backend_graph(G)
    name, mod = _count_engine(engine)
    ptr, idx, w = _sym_csr(g)
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


def _clustering_values(G: Any, nodes: Any, engine: Any) -> tuple[GpumineGraph, list, list, bool]:
    g, (deg, t) = _counts(G, "triangles", engine)
    ids, one = _node_ids(g, nodes)
    vals: list = []
    if g.directed:
        ptr, idx, w = _sym_csr(g)
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


def _triangles_of(g: GpumineGraph, engine: Any) -> np.ndarray:
    """Triangles through each node (undirected; parallel edges and self-loops ignored)."""
    name, mod = _count_engine(engine)
    ptr, idx, _ = _sym_csr(g)
    t0 = time.perf_counter()
    t2 = np.asarray(mod.triangle_counts(ptr, idx))
    log_first_use(f"triangles counts ({name})", t0)
    return t2 // 2


def _cliques_of(g: GpumineGraph) -> np.ndarray:
    """Maximal cliques through each node (numba on every engine: the search is sequential)."""
    from ..engines.cpu.local_counts import maximal_clique_counts

    ptr, idx, _ = _sym_csr(g)
    t0 = time.perf_counter()
    out = np.asarray(maximal_clique_counts(ptr, idx))
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


# ====================================================================== node attributes
def set_node_attributes(G: Any, values: Any, name: Any = None) -> None:
    """``networkx.set_node_attributes`` on a converted graph (a :class:`GpumineGraph`).

    Sets the attributes NetworkX would set, so that later calls can label with them; an
    attribute the conversion had not kept becomes usable once every node has it. Cached
    engine forms of the graph are dropped.

    Parameters
    ----------
    G : GpumineGraph
        The converted graph (NetworkX converts a ``networkx.Graph`` first, keeping all node
        attributes, when ``backend="gpumine"`` is given).
    values : scalar, dict or dict of dict
        A value for every node, ``{node: value}`` (with ``name``) or ``{node: {attr: value}}``
        (without); nodes not in ``G`` are ignored.
    name : str, optional
        Attribute to set when ``values`` is a scalar or ``{node: value}``.

    Raises
    ------
    nx_gpumine.UnsupportedGraphError
        ``G`` is not a :class:`GpumineGraph` (a NetworkX graph is edited by NetworkX itself).
    """
    if not isinstance(G, GpumineGraph):
        from ..errors import UnsupportedGraphError

        raise UnsupportedGraphError(
            f"set_node_attributes edits a GpumineGraph, not a {type(G).__name__}"
        )
    g = G
    if g.node_data is None:
        g.node_data = [{} for _ in g.keys]
    data = g.node_data
    k2i = g.key_to_id
    covered: dict[Any, set] = {}
    if name is not None:
        try:
            items = values.items()
        except AttributeError:  # one value for every node
            for d in data:
                d[name] = values
            covered[name] = set(range(len(data)))
        else:
            done = covered.setdefault(name, set())
            for n, _ in items:
                i = k2i.get(n)
                if i is not None:
                    data[i][name] = values[n]
                    done.add(i)
    else:
        for n, d in values.items():
            i = k2i.get(n)
            if i is not None:
                data[i].update(d)
                for a in d:
                    covered.setdefault(a, set()).add(i)
    kept = g.node_attrs_kept
    if kept is not True:
        full = {a for a, ids in covered.items() if len(ids) == len(data)}
        g.node_attrs_kept = frozenset(kept) | full
    g.clear_derived()


def get_node_attributes(G: Any, name: Any, default: Any = None) -> dict:
    """``networkx.get_node_attributes`` of a converted graph.

    Parameters
    ----------
    G : GpumineGraph or networkx.Graph
        A graph that kept attribute ``name`` (``can_run`` refuses one that did not).
    name : str
        Attribute name.
    default : optional
        Value for nodes without the attribute; with None such nodes are left out.

    Returns
    -------
    dict
        ``{node: value}``.
    """
    g = as_backend_graph(G)
    data = g.node_data or [{} for _ in g.keys]
    pairs = zip(g.keys, data, strict=True)
    if default is not None:
        return {k: d.get(name, default) for k, d in pairs}
    return {k: d[name] for k, d in pairs if name in d}


class BackendInterface:
    """The object NetworkX loads for ``backend="gpumine"`` (entry point ``networkx.backends``).

    NetworkX only calls the functions its installed version dispatches: the six subgraph
    functions are reached on NetworkX 3.7 and later.
    """

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)

    is_isomorphic = staticmethod(is_isomorphic)
    vf2pp_is_isomorphic = staticmethod(vf2pp_is_isomorphic)
    vf2pp_isomorphism = staticmethod(vf2pp_isomorphism)
    vf2pp_all_isomorphisms = staticmethod(vf2pp_all_isomorphisms)
    vf2pp_subgraph_is_isomorphic = staticmethod(vf2pp_subgraph_is_isomorphic)
    vf2pp_subgraph_isomorphism = staticmethod(vf2pp_subgraph_isomorphism)
    vf2pp_all_subgraph_isomorphisms = staticmethod(vf2pp_all_subgraph_isomorphisms)
    vf2pp_is_monomorphic = staticmethod(vf2pp_is_monomorphic)
    vf2pp_monomorphism = staticmethod(vf2pp_monomorphism)
    vf2pp_all_monomorphisms = staticmethod(vf2pp_all_monomorphisms)
    triangles = staticmethod(triangles)
    transitivity = staticmethod(transitivity)
    clustering = staticmethod(clustering)
    average_clustering = staticmethod(average_clustering)
    square_clustering = staticmethod(square_clustering)
    could_be_isomorphic = staticmethod(could_be_isomorphic)
    fast_could_be_isomorphic = staticmethod(fast_could_be_isomorphic)
    faster_could_be_isomorphic = staticmethod(faster_could_be_isomorphic)
    set_node_attributes = staticmethod(set_node_attributes)
    get_node_attributes = staticmethod(get_node_attributes)
