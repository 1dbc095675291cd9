"""Static query patterns: a small simple graph (directed or not) with optional labels.

A :class:`Pattern` holds its nodes in a fixed order (pattern node ``i`` is ``nodes[i]``), a
direction-code matrix in the same union convention as :class:`~nx_gpumine.StaticGraph`
(``code[a, b] & 1``: edge a -> b, ``& 2``: edge b -> a; undirected edges have code 3), self-loops,
and raw label values (the values, not codes: codes depend on the data graph). Named patterns come
from :data:`CATALOGUE`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from ..errors import InputError, QueryError, UnsupportedGraphError
from .labels import Unmatchable, label_value
from .pattern_symmetry import SymmetryGraph, group_elements, stabilizer_orbits
from .static_graph import NO_DEFAULT, LabelSpec

__all__ = ["Pattern", "CATALOGUE", "MAX_PATTERN_NODES", "pattern_names", "as_pattern"]

#: Largest pattern accepted, checked before its ``(k, k)`` code matrix is allocated.
MAX_PATTERN_NODES = 64


def _diamond() -> nx.Graph:
    g = nx.cycle_graph(4)
    g.add_edge(0, 2)
    return g


def _tailed_triangle() -> nx.Graph:
    g = nx.complete_graph(3)
    g.add_edge(2, 3)
    return g


#: Named patterns (definitions as in the shared oracle file ``static_counts.json``).
CATALOGUE: dict[str, Any] = {
    "triangle": lambda: nx.complete_graph(3),
    "wedge": lambda: nx.path_graph(3),
    "4-path": lambda: nx.path_graph(4),
    "4-star": lambda: nx.star_graph(3),
    "4-cycle": lambda: nx.cycle_graph(4),
    "diamond": _diamond,
    "tailed-triangle": _tailed_triangle,
    "4-clique": lambda: nx.complete_graph(4),
    "house": lambda: nx.house_graph(),
    "5-cycle": lambda: nx.cycle_graph(5),
    "5-clique": lambda: nx.complete_graph(5),
    "directed-3-cycle": lambda: nx.DiGraph([(0, 1), (1, 2), (2, 0)]),
    "feed-forward-loop": lambda: nx.DiGraph([(0, 1), (1, 2), (0, 2)]),
    "directed-2-path": lambda: nx.DiGraph([(0, 1), (1, 2)]),
}


def pattern_names() -> list[str]:
    """Names of the catalogue patterns."""
    return list(CATALOGUE)


#: The catalogue patterns built so far, by name (:meth:`Pattern.named`).
_NAMED: dict[str, Pattern] = {}


@dataclass(frozen=True, eq=False)
class Pattern:
    """A small query graph.

    Attributes
    ----------
    nodes : tuple
        Pattern node keys; pattern node ``i`` is ``nodes[i]`` (columns of match arrays follow it).
    directed : bool
        Whether edges have a direction.
    code : numpy.ndarray
        ``(k, k)`` uint8 direction codes between distinct nodes (0 = not adjacent).
    loops : numpy.ndarray
        ``(k,)`` bool, True where the node has a self-loop.
    node_labels : tuple or None
        Raw label value per node (None when unlabeled); a value that matches nothing (NaN...)
        is an :class:`~nx_gpumine.inputs.labels.Unmatchable` (see
        :class:`~nx_gpumine.inputs.labels.LabelSpec`).
    edge_labels : dict or None
        ``(a, b) -> value`` for every edge a -> b (both orientations for undirected edges,
        ``(a, a)`` for self-loops); None when unlabeled.
    name : str or None
        Catalogue name, if any.
    """

    nodes: tuple
    directed: bool
    code: np.ndarray
    loops: np.ndarray
    node_labels: tuple | None = None
    edge_labels: dict | None = None
    name: str | None = None
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_networkx(
        cls,
        P: nx.Graph,
        *,
        node_label: Any = None,
        edge_label: Any = None,
        node_label_default: Any = NO_DEFAULT,
        edge_label_default: Any = NO_DEFAULT,
        name: str | None = None,
    ) -> Pattern:
        """Build a pattern from a NetworkX ``Graph`` or ``DiGraph``.

        Parameters
        ----------
        P : networkx.Graph or networkx.DiGraph
            The pattern; self-loops allowed, multigraphs refused.
        node_label, edge_label : str or list of str, optional
            Attribute(s) giving node / edge labels.
        node_label_default, edge_label_default : optional
            Value used where the attribute is missing (otherwise a missing one is an error).
        name : str, optional
            Display name.

        Returns
        -------
        Pattern

        Raises
        ------
        QueryError
            Empty pattern, or a label attribute missing on a pattern node/edge.
        UnsupportedGraphError
            Multigraph or non-graph input.
        """
        if not isinstance(P, nx.Graph):
            raise UnsupportedGraphError(
                f"a pattern must be a networkx Graph/DiGraph, a Pattern or a catalogue name, got "
                f"{type(P).__name__}"
            )
        if P.is_multigraph():
            raise UnsupportedGraphError(
                f"pattern is a {type(P).__name__}; patterns must be simple graphs (Graph or "
                "DiGraph)"
            )
        if P.number_of_nodes() > MAX_PATTERN_NODES:
            raise QueryError(
                f"the pattern has {P.number_of_nodes()} nodes; at most {MAX_PATTERN_NODES} are "
                "supported (a pattern is a small query graph matched node by node)"
            )
        nodes = tuple(P.nodes())
        k = len(nodes)
        if k == 0:
            raise QueryError("the pattern is empty (it has no nodes)")
        idx = {v: i for i, v in enumerate(nodes)}
        directed = P.is_directed()
        code = np.zeros((k, k), dtype=np.uint8)
        loops = np.zeros(k, dtype=bool)
        nspec = LabelSpec.of(node_label, node_label_default)
        espec = LabelSpec.of(edge_label, edge_label_default)
        nlab = None
        elab: dict | None = None
        try:
            if nspec is not None:
                nlab = tuple(nspec.value(P.nodes[v], f"pattern node {v!r}") for v in nodes)
            if espec is not None:
                elab = {}
            for u, v, d in P.edges(data=True):
                a, b = idx[u], idx[v]
                lab = espec.value(d, f"pattern edge ({u!r}, {v!r})") if espec else None
                if a == b:
                    loops[a] = True
                    if elab is not None:
                        elab[(a, a)] = lab
                    continue
                if directed:
                    code[a, b] |= 1
                    code[b, a] |= 2
                    if elab is not None:
                        elab[(a, b)] = lab
                else:
                    code[a, b] = code[b, a] = 3
                    if elab is not None:
                        elab[(a, b)] = elab[(b, a)] = lab
        except InputError as exc:
            raise QueryError(f"unknown label attribute in the pattern: {exc}") from exc
        code.setflags(write=False)
        loops.setflags(write=False)
        return cls(nodes, directed, code, loops, nlab, elab, name)

    @classmethod
    def named(cls, name: str) -> Pattern:
        """A catalogue pattern by name (see :func:`pattern_names`).

        Raises
        ------
        QueryError
            If the name is unknown (the message lists the known names).
        """
        known = _NAMED.get(name)  # built once: a pattern is immutable
        if known is not None:
            return known
        make = CATALOGUE.get(name)
        if make is None:
            raise QueryError(
                f"unknown pattern name {name!r}; known names are: {', '.join(CATALOGUE)}"
            )
        return _NAMED.setdefault(name, cls.from_networkx(make(), name=name))

    # ------------------------------------------------------------------ facts
    def key(self) -> tuple:
        """A hashable value equal for patterns with the same nodes, edges and labels.

        Plans and other derived data are cached under it (two equal keys give equal plans).
        Every label that matches nothing (an :class:`~nx_gpumine.inputs.labels.Unmatchable`,
        new at each conversion) stands as one marker: such labels plan alike.
        """
        if "key" not in self._cache:
            nl = el = None
            if self.node_labels is not None:
                nl = tuple(_key_label(v) for v in self.node_labels)
            if self.edge_labels is not None:
                el = tuple(
                    (ab, _key_label(v))
                    for ab, v in sorted(self.edge_labels.items(), key=lambda kv: kv[0])
                )
            self._cache["key"] = (
                self.nodes,
                self.directed,
                self.code.tobytes(),
                self.loops.tobytes(),
                nl,
                el,
            )
        return self._cache["key"]

    @property
    def k(self) -> int:
        """Number of pattern nodes."""
        return len(self.nodes)

    @property
    def labeled_nodes(self) -> bool:
        """Whether node labels are set."""
        return self.node_labels is not None

    @property
    def labeled_edges(self) -> bool:
        """Whether edge labels are set."""
        return self.edge_labels is not None

    def degree(self) -> np.ndarray:
        """Union degree per node (distinct neighbours, self-loops not counted)."""
        return (self.code != 0).sum(axis=1).astype(np.int64)

    def num_edges(self) -> int:
        """Number of edges (self-loops included)."""
        c = self.code
        if self.directed:
            n = int((c & 1).astype(bool).sum())
        else:
            n = int((c != 0).sum()) // 2
        return n + int(self.loops.sum())

    def is_connected(self) -> bool:
        """Whether the pattern is (weakly) connected."""
        k = self.k
        seen = np.zeros(k, dtype=bool)
        stack = [0]
        seen[0] = True
        while stack:
            a = stack.pop()
            for b in np.flatnonzero(self.code[a]):
                if not seen[b]:
                    seen[b] = True
                    stack.append(int(b))
        return bool(seen.all())

    def edge_label(self, a: int, b: int) -> Hashable:
        """Raw label of edge a -> b (KeyError if the edge does not exist or labels unset)."""
        if self.edge_labels is None:
            raise KeyError("pattern edges are unlabeled")
        return self.edge_labels[(a, b)]

    def to_networkx(self) -> nx.Graph:
        """The pattern as a NetworkX graph (labels under the attribute ``"label"``)."""
        G = nx.DiGraph() if self.directed else nx.Graph()
        for i, v in enumerate(self.nodes):
            if self.node_labels is not None:
                G.add_node(v, label=label_value(self.node_labels[i]))
            else:
                G.add_node(v)
        for a, b in self._edge_pairs():
            attrs = {}
            if self.edge_labels is not None:
                attrs["label"] = label_value(self.edge_labels[(a, b)])
            G.add_edge(self.nodes[a], self.nodes[b], **attrs)
        return G

    def _edge_pairs(self) -> Iterator[tuple[int, int]]:
        k = self.k
        for a in range(k):
            if self.loops[a]:
                yield a, a
            for b in range(k):
                if a == b:
                    continue
                if self.directed and self.code[a, b] & 1:
                    yield a, b
                elif not self.directed and a < b and self.code[a, b]:
                    yield a, b

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        nm = f"{self.name!r}, " if self.name else ""
        labs = ""
        if self.labeled_nodes:
            labs += ", node labels"
        if self.labeled_edges:
            labs += ", edge labels"
        return f"Pattern({nm}{kind}, {self.k} nodes, {self.num_edges()} edges{labs})"

    # ------------------------------------------------------------------ automorphisms
    def automorphisms(self) -> list[tuple[int, ...]]:
        """All automorphisms as permutations ``p`` (node ``i`` -> ``p[i]``).

        Edges, directions, self-loops and node/edge labels are respected. Generated from the
        strong generating set found along the stabiliser chain, and cached; the list has
        ``|Aut(P)|`` entries, so keep it for patterns with small groups.
        """
        if "aut" not in self._cache:
            _, generators = stabilizer_orbits(self._symmetry_graph(), list(range(self.k)))
            self._cache["aut"] = group_elements(self.k, generators)
        return self._cache["aut"]

    def num_automorphisms(self) -> int:
        """``|Aut(P)|`` (labels respected), as the product of the orbit sizes along a
        stabiliser chain (the group itself is never listed)."""
        if "naut" not in self._cache:
            n = 1
            for _, orbit in self.stabilizer_chain(list(range(self.k))):
                n *= len(orbit)
            self._cache["naut"] = n
        return self._cache["naut"]

    def stabilizer_chain(self, order: list[int]) -> list[tuple[int, list[int]]]:
        """Orbits along the stabiliser chain of Aut(P) taken in ``order``.

        For each node ``v`` of ``order`` in turn: its orbit under the automorphisms fixing every
        earlier node of ``order``; only non-trivial orbits are returned, as ``(v, orbit)``.
        Computed by colour refinement and individualisation with pruning by the automorphisms
        found (:func:`~nx_gpumine.inputs.pattern_symmetry.stabilizer_orbits`), so 64-node
        patterns, regular ones and cliques included, take milliseconds.
        """
        key = ("chain", tuple(order))
        if key not in self._cache:
            orbits, _ = stabilizer_orbits(self._symmetry_graph(), list(order))
            self._cache[key] = [(v, o) for v, o in zip(order, orbits, strict=True) if len(o) > 1]
        return self._cache[key]

    def _symmetry_graph(self) -> SymmetryGraph:
        """The pattern as integer edge types and node colours (labels encoded exactly)."""
        if "symmetry_graph" not in self._cache:
            codes: dict = {}

            def encode(value: Hashable) -> int:
                return codes.setdefault(value, len(codes) + 1)

            k, nl, el = self.k, self.node_labels, self.edge_labels
            colours = np.zeros(k, dtype=np.int64)
            for a in range(k):
                colours[a] = encode(
                    (
                        bool(self.loops[a]),
                        nl[a] if nl is not None else None,
                        el[(a, a)] if el is not None and self.loops[a] else None,
                    )
                )
            types = np.zeros((k, k), dtype=np.int64)
            for a, b in zip(*np.nonzero(self.code), strict=True):
                c = int(self.code[a, b])
                fwd = el[(a, b)] if el is not None and c & 1 else None
                bwd = el[(b, a)] if el is not None and c & 2 else None
                types[a, b] = encode(("edge", c, fwd, bwd))
            self._cache["symmetry_graph"] = SymmetryGraph(types, colours)
        return self._cache["symmetry_graph"]


#: What every :class:`~nx_gpumine.inputs.labels.Unmatchable` label is in
#: :meth:`Pattern.key` (it is no value a user can give).
_UNMATCHABLE_KEY = object()


def _key_label(value: Any) -> Any:
    """A label as :meth:`Pattern.key` holds it."""
    return _UNMATCHABLE_KEY if type(value) is Unmatchable else value


def as_pattern(
    pattern: Pattern | str | nx.Graph,
    *,
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
) -> Pattern:
    """Accept a :class:`Pattern`, a catalogue name or a NetworkX graph.

    Label arguments apply to NetworkX patterns; a catalogue pattern has no labels, so naming a
    label attribute with one is an error (use a NetworkX pattern carrying the attribute).

    Raises
    ------
    QueryError
        Unknown name, empty pattern, or a label attribute the pattern does not carry.
    """
    if isinstance(pattern, Pattern):
        if node_label is not None and pattern.node_labels is None:
            raise QueryError(
                f"node_label={node_label!r} was given but the pattern has no node labels"
            )
        if edge_label is not None and pattern.edge_labels is None:
            raise QueryError(
                f"edge_label={edge_label!r} was given but the pattern has no edge labels"
            )
        return pattern
    if isinstance(pattern, str):
        p = Pattern.named(pattern)
        if node_label is not None and node_label_default is NO_DEFAULT:
            raise QueryError(
                f"unknown label attribute {node_label!r}: catalogue pattern {pattern!r} has no "
                "node labels (pass a NetworkX pattern carrying them)"
            )
        if edge_label is not None and edge_label_default is NO_DEFAULT:
            raise QueryError(
                f"unknown label attribute {edge_label!r}: catalogue pattern {pattern!r} has no "
                "edge labels (pass a NetworkX pattern carrying them)"
            )
        if node_label is None and edge_label is None:
            return p
        return Pattern.from_networkx(
            CATALOGUE[pattern](),
            node_label=node_label,
            edge_label=edge_label,
            node_label_default=node_label_default,
            edge_label_default=edge_label_default,
            name=pattern,
        )
    return Pattern.from_networkx(
        pattern,
        node_label=node_label,
        edge_label=edge_label,
        node_label_default=node_label_default,
        edge_label_default=edge_label_default,
    )
