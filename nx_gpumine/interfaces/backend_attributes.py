"""Node attributes of converted graphs: ``set_node_attributes`` and ``get_node_attributes``.

A :class:`~nx_gpumine.inputs.backend_graph.GpumineGraph` keeps only the node attributes a call
needed; these two let a later call label with an attribute set after conversion. No engine
runs here.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedGraphError
from ..inputs.backend_graph import GpumineGraph, as_backend_graph

__all__ = ["set_node_attributes", "get_node_attributes"]


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
