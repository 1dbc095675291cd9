"""Vertices numbered by label: each node label's vertices form one contiguous id range.

Every neighbour list is sorted by id, so in a label-grouped graph the neighbours of one label
are a contiguous part of each list, found by two binary searches. A search that needs a
neighbour of label ``l`` (a labelled pattern node) then walks that part only instead of the
whole list, as label-partitioned matchers (STMatch, GSI) do. :func:`label_grouped` builds the
grouped copy of a labelled graph once (kept with the graph); counts and existence are the same
on both (the copy is isomorphic, labels and edge labels carried along), so execution may count
on the copy (:func:`nx_gpumine.execution.static.run_static`); ids it would return are the
copy's, so listings run on the graph itself. :func:`label_starts` gives the engines the ranges.
"""

from __future__ import annotations

import numpy as np

from .search_order import renumbered
from .static_graph import StaticGraph

__all__ = ["label_grouped", "label_starts"]


def label_starts(graph: StaticGraph) -> np.ndarray | None:
    """First vertex id of each node label code (int32, one entry per code and a last one,
    ``n``), or None when the graph has no node labels or its ids are not grouped by label.

    Label ``l``'s vertices are ids ``[starts[l], starts[l + 1])``. Kept with the graph.
    """
    lab = graph.node_label
    if lab is None or graph.n == 0:
        return None

    def build() -> np.ndarray | None:
        if np.any(lab[1:] < lab[:-1]) or lab[0] < 0:
            return None
        codes = np.arange(max(len(graph.node_vocab), int(lab[-1]) + 1) + 1, dtype=lab.dtype)
        return np.searchsorted(lab, codes).astype(np.int32)

    return graph.derived(("label_starts",), build)


def label_grouped(graph: StaticGraph) -> StaticGraph:
    """``graph`` with its vertices renumbered by (node label, id): each label's vertices one
    contiguous id range, neighbour lists sorted again (see the module docstring).

    Returns the graph itself when it has no node labels or is grouped already; the copy is
    built once and kept with the graph. Node keys, label codes and vocabularies, edge labels,
    directions and self-loops travel with their vertices, so the copy is the same labelled
    graph up to the numbering (its ``keys`` name the original nodes).

    Parameters
    ----------
    graph : StaticGraph
        The data graph (node-labelled or not).

    Returns
    -------
    StaticGraph
        The grouped copy, or ``graph`` itself.
    """
    if graph.node_label is None or label_starts(graph) is not None:
        return graph
    return graph.derived(("label_grouped",), lambda: _regroup(graph))


def _regroup(graph: StaticGraph) -> StaticGraph:
    return renumbered(graph, np.argsort(graph.node_label, kind="stable"))  # new id -> old id
