"""The NetworkX backend ``gpumine``: the backend object and NetworkX's conversion hooks.

NetworkX finds it through two entry points (``pyproject.toml``)::

    networkx.backends      gpumine = nx_gpumine.interfaces.backend:BackendInterface
    networkx.backend_info  gpumine = nx_gpumine.interfaces.backend_info:get_info

The second is a metadata-only module (no numpy, no networkx), so ``import networkx`` stays as
cheap as without the package; this module loads on the first dispatched call.

This module holds :class:`BackendInterface` and the conversion hooks :func:`convert_from_nx` /
:func:`convert_to_nx`; the rest of the backend lives in modules named for their concern:

* :mod:`~nx_gpumine.interfaces.backend_dispatch`: the served functions (:data:`SERVED`),
  binding with the installed NetworkX signature, engine choice, :func:`can_run` and
  :func:`should_run`;
* :mod:`~nx_gpumine.interfaces.backend_matching`: ``is_isomorphic``, the ``vf2pp_*``
  isomorphism functions and the six subgraph/monomorphism functions of NetworkX's development
  version (after 3.6.1);
* :mod:`~nx_gpumine.interfaces.backend_counts`: ``triangles``, ``transitivity``, the clustering
  functions and the ``could_be_isomorphic`` family;
* :mod:`~nx_gpumine.interfaces.backend_attributes`: ``set_node_attributes`` and
  ``get_node_attributes`` on converted graphs;
* :mod:`~nx_gpumine.inputs.backend_graph`: the backend's graph type, :class:`GpumineGraph`;
* :mod:`~nx_gpumine.interfaces.graph_iso`: the isomorphism search (colour refinement and
  individualisation, no automorphism enumeration).

The served functions are importable from here too (``backend.triangles`` ...). Graphs converted
beforehand dispatch here by type: :class:`GpumineGraph` (``BackendInterface.convert_from_nx``)
and :class:`~nx_gpumine.StaticGraph` (``nx_gpumine.from_networkx``) both carry
``__networkx_backend__ = "gpumine"``. A ``StaticGraph`` only knows the label attribute it was
built with, so a call labeling by another attribute, or with another default for missing
values, is refused by :func:`can_run`. What is refused, and why, is in ``docs/backend.md``.
"""

from __future__ import annotations

# isort: off
# get_info first: with an older install whose backend_info entry point names this module,
# `import networkx` (by the modules below) re-enters this module and must find get_info defined
from .backend_info import get_info

# isort: on
from typing import Any

from ..inputs.backend_graph import GpumineGraph
from ..inputs.static_graph import StaticGraph
from .backend_attributes import get_node_attributes, set_node_attributes
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
    :data:`~nx_gpumine.inputs.backend_graph.MULTIPLICITY` (matched as an edge label, so two
    multigraphs are compared as NetworkX compares them); node attributes are kept as above,
    other edge attributes are dropped. A :class:`GpumineGraph` is returned as is; a
    :class:`~nx_gpumine.StaticGraph` is wrapped, its labels becoming attributes.

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
    """Turn backend graphs into NetworkX graphs; pass every other result through.

    Parameters
    ----------
    obj : object
        A dispatched function's result.
    name : str, optional
        The dispatched function's name (unused).

    Returns
    -------
    object
        A NetworkX graph of the original kind for a :class:`GpumineGraph` or
        :class:`~nx_gpumine.StaticGraph`, else ``obj`` itself.
    """
    if isinstance(obj, GpumineGraph):
        return obj.to_networkx()
    if isinstance(obj, StaticGraph):
        return obj.to_networkx()
    return obj


class BackendInterface:
    """The object NetworkX loads for ``backend="gpumine"`` (entry point ``networkx.backends``).

    NetworkX only calls the functions its installed version dispatches: the six subgraph
    functions are reached once the installed NetworkX dispatches them (its development
    version, after 3.6.1).
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
