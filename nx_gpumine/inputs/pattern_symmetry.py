"""Orbits of a small coloured graph's automorphism group along a stabiliser chain.

The pattern symmetry used by the planner (``|Aut(P)|`` and the Grochow-Kellis conditions) needs,
for nodes ``v_0, v_1, ...`` taken in a given order, the orbit of ``v_i`` under the automorphisms
fixing ``v_0 .. v_{i-1}``. This module computes those orbits the way nauty and bliss do: colour
refinement to an equitable partition, individualisation of one node at a time, and a search tree
over equitable partitions, pruned by the automorphisms already found. A graph is given as an
integer "edge type" matrix (0: no edge; equal types mean equal direction codes and labels) and
an integer base colour per node (self-loop, node label, loop label), so labels and directions are
respected exactly.

The levels are processed from the deepest (largest fixed set) to the first, so that every
automorphism found for a deeper level, which fixes more nodes, also serves the earlier ones
(as in Schreier-Sims): a clique of 64 nodes needs one search per level, not one per node pair.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["SymmetryGraph", "stabilizer_orbits", "group_elements"]


class SymmetryGraph:
    """A graph prepared for refinement: one 0/1 adjacency matrix per edge type.

    Parameters
    ----------
    edge_types : numpy.ndarray
        ``(k, k)`` integers; 0 where there is no edge ``a -> b``, otherwise a type code (equal
        codes for edges that an automorphism may exchange).
    base_colours : numpy.ndarray
        ``(k,)`` integers; nodes of different colours are never exchanged.
    """

    def __init__(self, edge_types: np.ndarray, base_colours: np.ndarray) -> None:
        self.edge_types = np.asarray(edge_types, dtype=np.int64)
        self.base_colours = np.asarray(base_colours, dtype=np.int64)
        self.k = len(self.base_colours)
        types = [int(t) for t in np.unique(self.edge_types) if t != 0]
        # stacked (T * k, k) matrix: one product gives every node's per-type colour counts
        stack = [(self.edge_types == t) for t in types]
        self.adjacency = (
            np.concatenate(stack).astype(np.float64) if stack else np.zeros((0, self.k))
        )
        self.num_types = len(types)

    def refine(self, colours: np.ndarray) -> tuple[np.ndarray, list[bytes]]:
        """The coarsest equitable partition finer than ``colours``, and its trace.

        Colours are ranks of node signatures (own colour, then the number of neighbours of each
        colour through each edge type), so the result depends only on the graph and the input
        colours: an automorphism mapping one coloured graph to another maps the refined colours
        likewise, and equal traces are necessary for such a map to exist.
        """
        k, trace = self.k, []
        ncol = int(colours.max()) + 1
        while True:
            onehot = np.zeros((k, ncol))
            onehot[np.arange(k), colours] = 1.0
            counts = (self.adjacency @ onehot).reshape(self.num_types, k, ncol)
            sig = np.concatenate(
                [colours[:, None].astype(np.float64), counts.transpose(1, 0, 2).reshape(k, -1)],
                axis=1,
            )
            inverse, uniq = _rank_rows(sig)
            trace.append(uniq.tobytes())
            if len(uniq) == ncol:
                return inverse, trace
            colours, ncol = inverse, len(uniq)

    def individualise(self, colours: np.ndarray, node: int) -> tuple[np.ndarray, list[bytes]]:
        """Give ``node`` a cell of its own (placed before the rest of its cell), then refine."""
        split = colours * 2 + 1
        split[node] -= 1
        return self.refine(np.unique(split, return_inverse=True)[1].reshape(-1))

    def is_automorphism(self, perm: np.ndarray) -> bool:
        """Whether ``perm`` (node ``i`` -> ``perm[i]``) keeps colours and edge types."""
        return bool(
            (self.base_colours[perm] == self.base_colours).all()
            and (self.edge_types[np.ix_(perm, perm)] == self.edge_types).all()
        )

    def find_automorphism(self, left: np.ndarray, right: np.ndarray) -> np.ndarray | None:
        """An automorphism mapping each cell of ``left`` onto the same cell of ``right``.

        Both are equitable partitions with equal traces. Individualise the first node of the
        first non-singleton cell on the left, try every node of that cell on the right, recurse;
        a discrete pair gives a candidate map, checked explicitly.
        """
        counts = np.bincount(left)
        if counts.max() == 1:
            perm = np.empty(self.k, dtype=np.int64)
            perm[np.argsort(left)] = np.argsort(right)
            return perm if self.is_automorphism(perm) else None
        cell = int(np.flatnonzero(counts > 1)[0])
        x = int(np.flatnonzero(left == cell)[0])
        next_left, left_trace = self.individualise(left, x)
        for y in np.flatnonzero(right == cell):
            next_right, right_trace = self.individualise(right, int(y))
            if right_trace == left_trace:
                found = self.find_automorphism(next_left, next_right)
                if found is not None:
                    return found
        return None


def _rank_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank of each row among the distinct rows (sorted lexicographically), and those rows.

    ``np.unique(axis=0)`` does the same but costs several times more on these small arrays,
    and refinement calls it once per round.
    """
    order = np.lexsort(rows.T[::-1])
    ordered = rows[order]
    new_row = np.empty(len(rows), dtype=bool)
    new_row[0] = True
    new_row[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    ranks = np.empty(len(rows), dtype=np.int64)
    ranks[order] = np.cumsum(new_row) - 1
    return ranks, ordered[new_row]


def _orbit_of(node: int, generators: list[np.ndarray]) -> set[int]:
    orbit, stack = {node}, [node]
    while stack:
        a = stack.pop()
        for g in generators:
            b = int(g[a])
            if b not in orbit:
                orbit.add(b)
                stack.append(b)
    return orbit


def stabilizer_orbits(
    graph: SymmetryGraph, order: Sequence[int]
) -> tuple[list[list[int]], list[np.ndarray]]:
    """Orbit of each ``order[i]`` under the automorphisms fixing ``order[:i]`` pointwise.

    Parameters
    ----------
    graph : SymmetryGraph
        The coloured graph.
    order : sequence of int
        Distinct nodes (a prefix of a node ordering is enough).

    Returns
    -------
    orbits : list of list of int
        ``orbits[i]`` sorted, containing ``order[i]``; the product of the orbit sizes over a
        full ordering is ``|Aut|``.
    generators : list of numpy.ndarray
        Automorphisms found; over a full ordering they are a strong generating set (those
        fixing ``order[:i]`` generate that whole stabiliser), so they generate the group.
    """
    # partitions[i]: refined partition with order[:i] individualised, in that order
    colours, _ = graph.refine(np.unique(graph.base_colours, return_inverse=True)[1].reshape(-1))
    partitions = [colours]
    for v in order[:-1]:
        colours = partitions[-1]
        if np.bincount(colours).max() == 1:  # discrete: no symmetry left below this level
            break
        partitions.append(graph.individualise(colours, v)[0])
    generators: list[np.ndarray] = []
    orbits: list[list[int]] = [[v] for v in order]
    for i in range(len(partitions) - 1, -1, -1):
        v, base = order[i], partitions[i]
        candidates = [int(w) for w in np.flatnonzero(base == base[v]) if w != v]
        if not candidates:
            continue
        left, left_trace = graph.individualise(base, v)
        orbit = _orbit_of(v, generators)
        excluded: set[int] = set()
        for w in candidates:
            if w in orbit or w in excluded:
                continue
            right, right_trace = graph.individualise(base, w)
            perm = graph.find_automorphism(left, right) if right_trace == left_trace else None
            if perm is None:
                # no automorphism fixing order[:i] sends v to w, nor to w's images under them
                excluded |= _orbit_of(w, generators)
            else:
                generators.append(perm)
                orbit = _orbit_of(v, generators)
        orbits[i] = sorted(orbit)
    return orbits, generators


def group_elements(k: int, generators: list[np.ndarray]) -> list[tuple[int, ...]]:
    """Every element of the permutation group on ``k`` points that ``generators`` generate."""
    identity = tuple(range(k))
    elements, stack = {identity}, [identity]
    while stack:
        g = stack.pop()
        for s in generators:
            h = tuple(int(s[x]) for x in g)
            if h not in elements:
                elements.add(h)
                stack.append(h)
    return sorted(elements)
