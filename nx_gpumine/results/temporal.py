"""Temporal match results: edge-id arrays -> the columns of ``find_motifs``'s frame."""

from __future__ import annotations

import numpy as np

from ..inputs.motifs import TemporalMotif
from ..inputs.temporal_graph import TemporalGraph

__all__ = ["match_columns"]


def match_columns(graph: TemporalGraph, motif: TemporalMotif, ids: np.ndarray) -> dict:
    """The columns of one row per match: input rows, times and node keys.

    Parameters
    ----------
    graph : TemporalGraph
        The graph the edge ids refer to (a time-partition slice works too: its ``rows``,
        ``time`` and endpoints are those of its own edge ids).
    motif : TemporalMotif
        The motif matched (its edges say which endpoint carries each motif node).
    ids : numpy.ndarray
        ``(n, l)`` int64 edge ids of ``graph``.

    Returns
    -------
    dict of str to numpy.ndarray
        ``edge_i`` (input row of motif edge ``i``), ``time_i`` (in the input's type:
        numbers, or UTC ``datetime64`` / ``timedelta64`` of the input's unit) and ``node_a``
        (node key of motif node ``a``), in that order.
    """
    ids = np.asarray(ids, dtype=np.int64).reshape(-1, len(motif.edges))
    rows = graph.rows[ids]
    data: dict = {}
    for i in range(ids.shape[1]):
        data[f"edge_{i}"] = rows[:, i]
    for i in range(ids.shape[1]):
        data[f"time_{i}"] = graph.times_as_input(ids[:, i])
    keys = np.empty(graph.n, dtype=object)
    keys[:] = graph.keys
    first: dict = {}
    for i, (a, b) in enumerate(motif.edges):
        first.setdefault(a, (graph.src, i))
        first.setdefault(b, (graph.dst, i))
    for a in range(motif.k):
        arr, i = first[a]
        vals = keys[arr[ids[:, i]]]
        try:
            vals = np.asarray(vals.tolist()) if len(vals) else np.asarray([], dtype=np.int64)
        except (TypeError, ValueError):
            pass
        data[f"node_{a}"] = vals
    return data
