"""Temporal match results: edge-id arrays -> the columns of ``find_motifs``'s frame."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..inputs.motifs import TemporalMotif
from ..inputs.temporal_graph import TemporalGraph
from . import static
from .static import fill_rows, keys_are_positions, take_rows

__all__ = ["match_columns"]


def match_columns(graph: TemporalGraph, motif: TemporalMotif, ids: np.ndarray) -> dict:
    """The columns of one row per match: input rows, times and node keys.

    Every column is built ``ROW_BLOCK`` rows at a time (:func:`~.static.fill_rows`: a Ctrl-C
    is seen between two blocks) with typed lookups only (no per-row Python objects).

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
        (node key of motif node ``a``, in the dtype NumPy gives the list of those keys:
        int64 for integer keys, ``<U`` for strings, object when nothing else holds them;
        int64 when there are no rows), in that order; each column C-contiguous.
    """
    ids = np.asarray(ids, dtype=np.int64).reshape(-1, len(motif.edges))
    n, width = ids.shape
    data: dict = {}
    for i in range(width):
        data[f"edge_{i}"] = take_rows(graph.rows, ids[:, i])
    for i in range(width):
        data[f"time_{i}"] = fill_rows(n, lambda s, i=i: graph.times_as_input(ids[s, i]))
    first: dict = {}
    for i, (a, b) in enumerate(motif.edges):
        first.setdefault(a, (graph.src, i))
        first.setdefault(b, (graph.dst, i))
    identity = keys_are_positions(graph.keys)
    for a in range(motif.k):
        arr, i = first[a]

        def vertex(s: slice, arr: np.ndarray = arr, i: int = i) -> np.ndarray:
            return arr[ids[s, i]]

        if identity or not n:
            data[f"node_{a}"] = fill_rows(n, vertex, np.int64)
        else:
            data[f"node_{a}"] = _node_keys(graph.keys, n, vertex)
    return data


def _node_keys(keys: Sequence[Any], n: int, vertex: Callable[[slice], np.ndarray]) -> np.ndarray:
    """``np.asarray([keys[v] for v in vertices])`` (object when NumPy refuses the list) for the
    ``n`` vertices given block by block by ``vertex(slice)``, without a list of ``n`` Python
    objects: NumPy infers the same dtype from the distinct keys present (integers that fit
    int64 stay int64, strings get the longest one's width, a mix of numbers and strings becomes
    strings, ...), so those are converted once and looked up."""
    table = np.empty(len(keys), dtype=object)
    table[:] = keys
    used = np.zeros(len(keys), dtype=bool)
    step = static.ROW_BLOCK
    for lo in range(0, n, step):
        used[vertex(slice(lo, min(lo + step, n)))] = True
    present = np.flatnonzero(used)
    try:
        typed = np.asarray(table[present].tolist())
    except (TypeError, ValueError):
        typed = table[present]
    position = np.zeros(len(keys), dtype=np.intp)
    position[present] = np.arange(len(present))
    return fill_rows(n, lambda s: typed[position[vertex(s)]])
