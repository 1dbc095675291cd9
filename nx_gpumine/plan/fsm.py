"""Frequent subgraph mining: small labelled patterns, their canonical form and their growth.

A mined pattern is a :class:`LabelledPattern`: connected, undirected, without self-loops, its
node and edge labels integer codes of the data graph's vocabularies (0 everywhere when the
graph has none). :func:`canonical` gives one representative per isomorphism class (labels
respected), computed once per candidate pattern, never per embedding: the level-wise miner
(:mod:`nx_gpumine.execution.fsm`) dedupes candidates on it (aggregation), grows frequent
patterns by one edge (:func:`one_edge_larger`, extension) and checks a candidate's
one-edge-smaller connected sub-patterns (:func:`one_edge_smaller`) before computing its
support (anti-monotone pruning).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..inputs.patterns import Pattern

__all__ = [
    "LabelledPattern",
    "canonical",
    "edge_pattern",
    "one_edge_larger",
    "one_edge_smaller",
    "neighbour_types",
    "star_centre",
    "query_pattern",
    "orbits",
]

#: An edge of a labelled pattern: ``(a, b, edge label code)`` with ``a < b``.
Edge = tuple[int, int, int]


@dataclass(frozen=True, order=True)
class LabelledPattern:
    """A small connected undirected pattern with label codes, in canonical form when made by
    :func:`canonical` (then equal patterns are exactly the isomorphic ones).

    Attributes
    ----------
    labels : tuple of int
        Node label code of each pattern node ``0 .. k - 1``.
    edges : tuple of (int, int, int)
        ``(a, b, edge label code)`` per edge, ``a < b``, sorted.
    """

    labels: tuple[int, ...]
    edges: tuple[Edge, ...]

    @property
    def k(self) -> int:
        """Number of nodes."""
        return len(self.labels)

    @property
    def num_edges(self) -> int:
        """Number of edges."""
        return len(self.edges)

    def degrees(self) -> list[int]:
        """Degree of each node."""
        deg = [0] * self.k
        for a, b, _ in self.edges:
            deg[a] += 1
            deg[b] += 1
        return deg

    def edge_text(self) -> str:
        """Its edges as text, ``"0-1 1-2"``."""
        return " ".join(f"{a}-{b}" for a, b, _ in self.edges)


def edge_pattern(a: int, b: int, edge_label: int) -> LabelledPattern:
    """The one-edge pattern joining node labels ``a`` and ``b`` (canonical)."""
    return LabelledPattern((min(a, b), max(a, b)), ((0, 1, edge_label),))


def _refined_colours(labels: Sequence[int], adj: list[list[tuple[int, int]]]) -> list[tuple]:
    """Colour refinement from the labels: equal colours for nodes an isomorphism may swap, and
    an order of the colours that every isomorphic copy agrees on."""
    colour: list = [(lab,) for lab in labels]
    for _ in range(len(labels)):
        sig = [
            (colour[v], tuple(sorted((el, colour[w]) for w, el in adj[v])))
            for v in range(len(labels))
        ]
        rank = {s: i for i, s in enumerate(sorted(set(sig)))}
        new = [(labels[v], rank[sig[v]]) for v in range(len(labels))]
        stable = len(set(new)) == len(set(colour))
        colour = new
        if stable:
            break
    return colour


def canonical(labels: Sequence[int], edges: Iterable[Edge]) -> LabelledPattern:
    """The canonical form of a small labelled pattern.

    Nodes are first ordered by their colour after colour refinement (an isomorphism-invariant
    order); among the orders that permute nodes of equal colour only, the one whose sorted edge
    list is smallest is kept. Brute force within colour classes: fine for the few nodes of a
    mined pattern.

    Parameters
    ----------
    labels : sequence of int
        Node label code per node ``0 .. k - 1``.
    edges : iterable of (int, int, int)
        ``(a, b, edge label code)`` per edge, in either orientation.

    Returns
    -------
    LabelledPattern
        Equal for two inputs exactly when they are isomorphic (labels respected).
    """
    k = len(labels)
    edges = [(a, b, el) for a, b, el in edges]
    adj: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for a, b, el in edges:
        adj[a].append((b, el))
        adj[b].append((a, el))
    colour = _refined_colours(labels, adj)
    classes: dict[tuple, list[int]] = {}
    for v in sorted(range(k), key=lambda v: colour[v]):
        classes.setdefault(colour[v], []).append(v)
    groups = list(classes.values())
    best: tuple | None = None
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        pos = [0] * k
        for i, v in enumerate(itertools.chain.from_iterable(parts)):
            pos[v] = i
        code = tuple(sorted((min(pos[a], pos[b]), max(pos[a], pos[b]), el) for a, b, el in edges))
        if best is None or code < best:
            best = code
    order = [v for g in groups for v in g]
    return LabelledPattern(tuple(labels[v] for v in order), best or ())


def one_edge_larger(
    p: LabelledPattern, neighbours: dict[int, list[tuple[int, int]]]
) -> set[LabelledPattern]:
    """The canonical patterns one edge larger than ``p`` (extension).

    Parameters
    ----------
    p : LabelledPattern
        A pattern.
    neighbours : dict
        Node label code -> the ``(neighbour label code, edge label code)`` pairs of the
        frequent one-edge patterns (both orientations): only such edges are added (a pattern
        holding an infrequent edge is infrequent).

    Returns
    -------
    set of LabelledPattern
        ``p`` with a new node joined to one of its nodes, or with an edge closing two of its
        non-adjacent nodes.
    """
    out: set[LabelledPattern] = set()
    k = p.k
    present = {(a, b) for a, b, _ in p.edges}
    for a in range(k):
        for lab, el in neighbours.get(p.labels[a], ()):
            out.add(canonical((*p.labels, lab), (*p.edges, (a, k, el))))
    for a, b in itertools.combinations(range(k), 2):
        if (a, b) in present:
            continue
        for lab, el in neighbours.get(p.labels[a], ()):
            if lab == p.labels[b]:
                out.add(canonical(p.labels, (*p.edges, (a, b, el))))
    return out


def _connected(k: int, edges: Sequence[Edge]) -> bool:
    seen = {0}
    stack = [0]
    adj: list[list[int]] = [[] for _ in range(k)]
    for a, b, _ in edges:
        adj[a].append(b)
        adj[b].append(a)
    while stack:
        for w in adj[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return len(seen) == k


def one_edge_smaller(p: LabelledPattern) -> list[LabelledPattern]:
    """The canonical connected patterns with one edge of ``p`` fewer (a node left without an
    edge is dropped; removing a bridge between two larger parts gives no pattern)."""
    out = []
    deg = p.degrees()
    for i, (a, b, _) in enumerate(p.edges):
        rest = [e for j, e in enumerate(p.edges) if j != i]
        gone = [v for v in (a, b) if deg[v] == 1]
        if len(gone) == 2:  # p is this one edge
            continue
        keep = [v for v in range(p.k) if v not in gone]
        new = {v: j for j, v in enumerate(keep)}
        edges = [(new[x], new[y], el) for x, y, el in rest]
        if gone or _connected(len(keep), edges):
            out.append(canonical([p.labels[v] for v in keep], edges))
    return out


def neighbour_types(p: LabelledPattern) -> list[dict[tuple[int, int], int]]:
    """Per node, how many neighbours of each ``(node label, edge label)`` it has: a data node
    it maps to has at least as many (an upper bound of its image, see
    :func:`nx_gpumine.execution.fsm.pattern_support`)."""
    out: list[dict[tuple[int, int], int]] = [{} for _ in range(p.k)]
    for a, b, el in p.edges:
        for x, y in ((a, b), (b, a)):
            t = (p.labels[y], el)
            out[x][t] = out[x].get(t, 0) + 1
    return out


def star_centre(p: LabelledPattern) -> int | None:
    """The centre of a star of two or more edges (a node joined to every other node, which
    are joined to nothing else), or None."""
    if p.k < 3 or p.num_edges != p.k - 1:
        return None
    deg = p.degrees()
    centre = max(range(p.k), key=lambda v: deg[v])
    return centre if deg[centre] == p.k - 1 else None


def orbits(pattern: Pattern) -> list[list[int]]:
    """The automorphism orbits of ``pattern``'s nodes (labels respected), each sorted."""
    k = pattern.k
    root = list(range(k))

    def find(v: int) -> int:
        while root[v] != v:
            v = root[v]
        return v

    for perm in pattern.automorphisms():
        for v in range(k):
            a, b = find(v), find(perm[v])
            if a != b:
                root[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for v in range(k):
        groups.setdefault(find(v), []).append(v)
    return list(groups.values())


def query_pattern(
    p: LabelledPattern,
    node_values: Sequence | None,
    edge_values: Sequence | None,
) -> Pattern:
    """``p`` as a :class:`~nx_gpumine.inputs.patterns.Pattern` to plan and match.

    Parameters
    ----------
    p : LabelledPattern
        The pattern.
    node_values, edge_values : sequence, optional
        Label value of each node / edge label code (the data graph's vocabularies inverted);
        None: the graph has no such labels.

    Returns
    -------
    Pattern
        Nodes ``0 .. k - 1`` as in ``p``.
    """
    k = p.k
    code = np.zeros((k, k), dtype=np.uint8)
    elab: dict | None = None if edge_values is None else {}
    for a, b, el in p.edges:
        code[a, b] = code[b, a] = 3
        if elab is not None:
            elab[(a, b)] = elab[(b, a)] = edge_values[el]
    loops = np.zeros(k, dtype=bool)
    code.setflags(write=False)
    loops.setflags(write=False)
    nlab = None if node_values is None else tuple(node_values[c] for c in p.labels)
    return Pattern(tuple(range(k)), False, code, loops, nlab, elab)
