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
from typing import Any

from ..inputs.backend_graph import (
    GpumineGraph,
    as_backend_graph,
)
from ..inputs.static_graph import StaticGraph
from .backend_counts import (
    average_clustering,
    clustering,
    could_be_isomorphic,
    fast_could_be_isomorphic,
    faster_could_be_isomorphic,
    square_clustering,
    transitivity,
    triangles,
)
from .backend_dispatch import (
    MAX_SUBGRAPH_NODES,
    SERVED,
    can_run,
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
