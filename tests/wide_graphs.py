"""Graphs and patterns of the wide-count tests (``test_wide_counts*.py``): hubs that sit in
a triangle and carry many leaves, and a triangle with leaves on one node, whose counts are
falling factorials and binomials of the leaf count (past 2**64 at a few million leaves,
reachable in milliseconds through the count tails)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from nx_gpumine.inputs.static_graph import StaticGraph, from_arrays


def tri_leaves(leaves: int = 3) -> nx.Graph:
    """A triangle 0-1-2 with ``leaves`` leaves on node 0 (|Aut| = 2 * leaves!)."""
    P = nx.complete_graph(3)
    P.add_edges_from((0, 3 + i) for i in range(leaves))
    return P


def hub_triangle_edges(n_leaves: int, hubs: int = 1) -> tuple[np.ndarray, np.ndarray, int]:
    """``hubs`` disjoint triangles (h, x, y), each hub h with ``n_leaves`` leaves of its own:
    edge endpoint arrays and the node count. Per hub, ``tri_leaves(s)`` has
    ``2 * perm(n_leaves, s)`` mappings and ``comb(n_leaves, s)`` subgraphs."""
    src, dst, base = [], [], 0
    for _ in range(hubs):
        h, x, y = base, base + 1, base + 2
        src += [np.array([h, h, x]), np.full(n_leaves, h)]
        dst += [np.array([x, y, y]), np.arange(base + 3, base + 3 + n_leaves)]
        base += 3 + n_leaves
    return np.concatenate(src).astype(np.int64), np.concatenate(dst).astype(np.int64), base


def hub_triangle(n_leaves: int, hubs: int = 1) -> StaticGraph:
    """:func:`hub_triangle_edges` as a graph."""
    src, dst, n = hub_triangle_edges(n_leaves, hubs)
    return from_arrays(src, dst, num_nodes=n)
