"""Frequent subgraph mining: small labelled patterns, their canonical form and their growth.

A mined pattern is a :class:`LabelledPattern`: connected, undirected, without self-loops, its
node and edge labels integer codes of the data graph's vocabularies (0 everywhere when the
graph has none). :func:`canonical` gives one representative per isomorphism class (labels
respected), computed once per candidate pattern, never per embedding: the level-wise miner
(:mod:`nx_gpumine.execution.fsm`) dedupes candidates on it (aggregation), grows frequent
patterns by one edge (:func:`one_edge_larger`, extension) and checks a candidate's
one-edge-smaller connected sub-patterns (:func:`one_edge_smaller`) before computing its
support (anti-monotone pruning).

A support is computed by existence checks, one per candidate image of an orbit's
representative (:mod:`nx_gpumine.engines.cpu.fsm_domains`, :mod:`nx_gpumine.engines.cuda.
fsm_domains`): both engines read the graph's :class:`MiningArrays` and walk the matching order
of an :class:`ExistencePlan` (:func:`existence_plan`), a small int32 table whose layout (the
``EXIST_*`` columns) is defined here only.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

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
    "labelled_orbits",
    "ExistencePlan",
    "existence_plan",
    "EXIST_MAX_NODES",
    "EXIST_MAX_ADJ",
    "EXIST_NODE",
    "EXIST_LABEL",
    "EXIST_NADJ",
    "EXIST_ADJ",
    "EXIST_ELAB",
    "EXIST_WIDTH",
    "OrbitSearch",
    "orbit_search",
    "orbit_search_or_bound",
    "MiningArrays",
    "OrbitImages",
    "UNKNOWN",
    "IMAGE",
    "NOT_IMAGE",
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

    That search only compares labels (node labels with node labels, edge labels with edge
    labels), never reads their values: it is run once per *order type* (the labels replaced
    by their ranks among the pattern's labels, :func:`_canonical_of_ranks`, kept in a
    bounded cache) and the ranks mapped back, so a mining level's many candidates of a few
    shapes cost a few searches.

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
    edges = tuple(edges)
    node_values = sorted(set(labels))
    edge_values = sorted({el for _, _, el in edges})
    node_rank = {v: i for i, v in enumerate(node_values)}
    edge_rank = {v: i for i, v in enumerate(edge_values)}
    ranked = _canonical_of_ranks(
        tuple(node_rank[x] for x in labels), tuple((a, b, edge_rank[el]) for a, b, el in edges)
    )
    return LabelledPattern(
        tuple(node_values[x] for x in ranked.labels),
        tuple((a, b, edge_values[el]) for a, b, el in ranked.edges),
    )


@functools.lru_cache(maxsize=2**16)
def _canonical_of_ranks(labels: tuple[int, ...], edges: tuple[Edge, ...]) -> LabelledPattern:
    """:func:`canonical`'s search on a pattern whose labels are ranks (``0 .. r - 1``): at
    most a few thousand order types per pattern size of a mining run, hence the cache."""
    k = len(labels)
    edges = tuple((a, b, el) for a, b, el in edges)
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


def labelled_orbits(p: LabelledPattern) -> list[list[int]]:
    """The automorphism orbits of ``p``'s nodes, node and edge label codes respected (the
    codes stand for the labels: :func:`orbits` of :func:`query_pattern` with each code its own
    value), each sorted; the same groups as ``orbits(query_pattern(p, values...))``."""
    node_values = list(range(max(p.labels) + 1))
    edge_values = list(range(max((el for _, _, el in p.edges), default=0) + 1))
    return orbits(query_pattern(p, node_values, edge_values))


# ---------------------------------------------------------------- existence plans
#: Largest pattern (nodes) an :class:`ExistencePlan` takes: the engines' fixed-width rows.
EXIST_MAX_NODES = 8
#: Earlier steps a step may have to be adjacent to (the width of its adjacency columns).
EXIST_MAX_ADJ = EXIST_MAX_NODES - 1
# Columns of a step's row of :attr:`ExistencePlan.table` (kernels/fsm_domains.cu: T_* mirrors
# them; numba freezes these ints into the compiled kernels: touch
# engines/cpu/fsm_domains.py after changing them).
#: The step's pattern node.
EXIST_NODE = 0
#: The node's label code.
EXIST_LABEL = 1
#: How many earlier steps the step is adjacent to (0 for the root step).
EXIST_NADJ = 2
#: First of :data:`EXIST_MAX_ADJ` columns: those earlier steps (the first is the parent, the
#: step it was reached from in the greedy order), padded with -1.
EXIST_ADJ = 3
#: First of :data:`EXIST_MAX_ADJ` columns: the edge label code of each of those pattern edges,
#: padded with -1.
EXIST_ELAB = EXIST_ADJ + EXIST_MAX_ADJ
#: Columns of a row.
EXIST_WIDTH = EXIST_ELAB + EXIST_MAX_ADJ


@dataclass(frozen=True)
class ExistencePlan:
    """A matching order of a labelled pattern from a chosen root node, for existence checks:
    is there an embedding mapping the root to a given vertex (and which is it)?

    Step 0 maps the root to the given vertex; each step ``i >= 1`` maps one more pattern node
    to a vertex adjacent, through an edge of the right label, to the images of the earlier
    steps it is joined to, with the node's label and distinct from every earlier image. An
    engine takes that vertex from the neighbour list of one of those earlier images (the
    parent's, or the shortest one at run time) and tests the others by a binary search in
    their sorted lists.

    Attributes
    ----------
    root : int
        The pattern node of step 0.
    table : numpy.ndarray
        int32 ``(k, EXIST_WIDTH)``: a row per step, columns :data:`EXIST_NODE`,
        :data:`EXIST_LABEL`, :data:`EXIST_NADJ`, then :data:`EXIST_MAX_ADJ` earlier steps
        (from :data:`EXIST_ADJ`, the parent first) and their edge label codes (from
        :data:`EXIST_ELAB`), padded with -1. Read-only.
    """

    root: int
    table: np.ndarray

    @property
    def k(self) -> int:
        """Number of steps (the pattern's nodes)."""
        return int(self.table.shape[0])

    @property
    def nodes(self) -> np.ndarray:
        """int32 ``[k]``: the pattern node of each step (step -> node)."""
        return self.table[:, EXIST_NODE]

    @property
    def labels(self) -> np.ndarray:
        """int32 ``[k]``: the node label code of each step."""
        return self.table[:, EXIST_LABEL]

    @property
    def parents(self) -> np.ndarray:
        """int32 ``[k]``: the parent step of each step (-1 for step 0)."""
        return self.table[:, EXIST_ADJ]

    def adjacent(self, i: int) -> list[tuple[int, int]]:
        """The ``(earlier step, edge label code)`` pairs step ``i`` is joined to, parent
        first."""
        n = int(self.table[i, EXIST_NADJ])
        row = self.table[i]
        return [(int(row[EXIST_ADJ + a]), int(row[EXIST_ELAB + a])) for a in range(n)]


def existence_plan(
    p: LabelledPattern, root: int, sizes: Sequence[int] | None = None
) -> ExistencePlan:
    """The matching order of ``p`` from ``root`` that existence checks walk.

    Greedy: step 0 is ``root``; each next step is the unplaced node with the most edges to
    the placed ones (the most constrained: its candidates are tested against every such
    edge), ties broken by fewer candidates (``sizes``), then the larger pattern degree, then
    the smaller node. The parent of a step is its earliest placed neighbour.

    Parameters
    ----------
    p : LabelledPattern
        A connected pattern of 2 to :data:`EXIST_MAX_NODES` nodes.
    root : int
        The node step 0 maps (an orbit's representative).
    sizes : sequence of int, optional
        Per node, how many vertices it may map to (e.g. its eligible vertices): ties go to
        the node with fewer.

    Returns
    -------
    ExistencePlan

    Raises
    ------
    ValueError
        ``p`` has fewer than 2 or more than :data:`EXIST_MAX_NODES` nodes, is not connected,
        or ``root`` is not one of its nodes.
    """
    k = p.k
    if not 2 <= k <= EXIST_MAX_NODES:
        raise ValueError(
            f"existence plans take patterns of 2 to {EXIST_MAX_NODES} nodes "
            f"(at most {EXIST_MAX_ADJ} edges for a tree), got {k} nodes"
        )
    if not 0 <= root < k:
        raise ValueError(f"root {root} is not a node of a {k}-node pattern")
    if not _connected(k, p.edges):
        raise ValueError("existence plans take connected patterns")
    adj: list[dict[int, int]] = [{} for _ in range(k)]
    for a, b, el in p.edges:
        adj[a][b] = el
        adj[b][a] = el
    size = list(sizes) if sizes is not None else [0] * k
    deg = p.degrees()
    step = {root: 0}
    order = [root]
    while len(order) < k:
        nxt = max(
            (v for v in range(k) if v not in step),
            key=lambda v: (sum(w in step for w in adj[v]), -size[v], deg[v], -v),
        )
        step[nxt] = len(order)
        order.append(nxt)
    table = np.full((k, EXIST_WIDTH), -1, dtype=np.int32)
    for i, v in enumerate(order):
        earlier = sorted((step[w], el) for w, el in adj[v].items() if step[w] < i)
        table[i, EXIST_NODE] = v
        table[i, EXIST_LABEL] = p.labels[v]
        table[i, EXIST_NADJ] = len(earlier)
        for a, (j, el) in enumerate(earlier):
            table[i, EXIST_ADJ + a] = j
            table[i, EXIST_ELAB + a] = el
    table.setflags(write=False)
    return ExistencePlan(root, table)


# The byte per (orbit, vertex) of an orbit search (both engines' ``state``).
#: Not known yet whether the vertex is an image of the orbit.
UNKNOWN = 0
#: The vertex is an image of the orbit.
IMAGE = 1
#: The vertex is no image of the orbit (not a candidate, or its search failed).
NOT_IMAGE = 2


class MiningArrays(NamedTuple):
    """What both engines' ``orbit_images`` read of the data graph, on the host.

    Attributes
    ----------
    indptr, indices : numpy.ndarray
        The union CSR of the undirected data graph (both orientations of each edge;
        ``StaticGraph.indptr`` / ``indices``), rows sorted.
    label : numpy.ndarray
        int64 node label code per vertex (``GraphCodes.label``; 0 everywhere without node
        labels).
    elabel : numpy.ndarray
        int64 edge label code per CSR entry (``GraphCodes.elabel``; 0 without edge labels).
    usable : numpy.ndarray
        bool per CSR entry: both node labels and the edge label match something
        (``GraphCodes.usable``); an entry that is not is never matched.
    """

    indptr: np.ndarray
    indices: np.ndarray
    label: np.ndarray
    elabel: np.ndarray
    usable: np.ndarray


class OrbitImages(NamedTuple):
    """What an orbit search found (both engines' ``orbit_images``).

    Exact when the pattern is frequent and an exact support was asked for; otherwise
    ``support`` is a bound and some orbits' images are partial.
    """

    #: The MNI support when it is at least ``min_support`` (not exact: a lower bound of it, at
    #: least ``min_support``); otherwise a value below ``min_support`` (an upper bound of it).
    support: int
    #: int64 per orbit (in the order of the groups): its images found; -1 for an orbit never
    #: processed (the pattern was found infrequent before).
    counts: np.ndarray
    #: bool ``[n]`` per orbit: the images found (all of them where the count is exact).
    images: list[np.ndarray]


@dataclass(frozen=True)
class OrbitSearch:
    """What both engines read to find a pattern's orbit images by existence checks
    (:func:`orbit_search`): per automorphism orbit its candidates and the plan rooted at its
    representative.

    Attributes
    ----------
    groups : list of list of int
        The orbits (each sorted); orbit ``g`` is ``groups[g]``, its representative
        ``groups[g][0]``.
    sizes : numpy.ndarray
        int64 per orbit: its candidates, the vertices every node of the orbit is eligible for
        (an upper bound of its images).
    tables : numpy.ndarray
        int32 ``(orbits, k, EXIST_WIDTH)``: the :attr:`ExistencePlan.table` of each orbit's
        representative.
    step_orbits : numpy.ndarray
        int32 ``(orbits, k)``: the orbit of the node of each step of each plan (where an
        embedding's images are marked).
    cands : numpy.ndarray
        int32: every orbit's candidates, ascending, one orbit after the other
        (``cands[cptr[g]:cptr[g + 1]]``).
    cptr : numpy.ndarray
        int64 ``(orbits + 1)``: where each orbit's candidates start.
    order : numpy.ndarray
        int64: the orbits in the order to process them (fewest candidates first: the likeliest
        to end an infrequent pattern's search early).
    """

    groups: list[list[int]]
    sizes: np.ndarray
    tables: np.ndarray
    step_orbits: np.ndarray
    cands: np.ndarray
    cptr: np.ndarray
    order: np.ndarray

    def initial_state(self, n: int, xp: ModuleType = np, cands: Any = None) -> Any:
        """The search's starting ``state``: uint8 ``(orbits, n)``, :data:`UNKNOWN` at each
        orbit's candidates, :data:`NOT_IMAGE` elsewhere.

        Parameters
        ----------
        n : int
            Vertices of the graph.
        xp : module
            numpy, or CuPy for a state on the device.
        cands : array, optional
            :attr:`cands` as an ``xp`` array, when the caller has it there already.

        Returns
        -------
        array
            An ``xp`` array.
        """
        state = xp.full((len(self.groups), n), NOT_IMAGE, dtype=xp.uint8)
        cands = xp.asarray(self.cands) if cands is None else cands
        for g in range(len(self.groups)):
            state[g, cands[int(self.cptr[g]) : int(self.cptr[g + 1])]] = UNKNOWN
        return state


def orbit_search(
    p: LabelledPattern,
    eligible: Sequence[np.ndarray],
    groups: Sequence[Sequence[int]] | None = None,
) -> OrbitSearch:
    """The orbits of ``p``, their candidates and plans (see :class:`OrbitSearch`).

    Parameters
    ----------
    p : LabelledPattern
        A connected pattern of 2 to :data:`EXIST_MAX_NODES` nodes.
    eligible : sequence of numpy.ndarray
        Per pattern node, a bool mask over the vertices that holds its images
        (``GraphCodes.eligible``).
    groups : sequence of sequence of int, optional
        The automorphism orbits of ``p``, labels respected (e.g.
        ``orbits(query_pattern(p, ...))``); :func:`labelled_orbits` when not given.

    Returns
    -------
    OrbitSearch

    Raises
    ------
    ValueError
        Masks of the wrong number or size, groups that do not partition the nodes, or a
        pattern :func:`existence_plan` does not take.
    """
    if len(eligible) != p.k:
        raise ValueError(f"eligible has {len(eligible)} masks for a {p.k}-node pattern")
    groups = labelled_orbits(p) if groups is None else [sorted(int(v) for v in g) for g in groups]
    if sorted(v for g in groups for v in g) != list(range(p.k)):
        raise ValueError(f"groups {groups} do not partition the pattern's nodes")
    n = len(eligible[0])
    cand = []
    orbit_of = np.empty(p.k, dtype=np.int32)
    for gi, g in enumerate(groups):
        mask = np.ones(n, dtype=bool)
        for v in g:
            e = np.asarray(eligible[v], dtype=bool)
            if e.shape != (n,):
                raise ValueError(f"eligible[{v}] has shape {e.shape}, not ({n},)")
            mask &= e
            orbit_of[v] = gi
        cand.append(np.flatnonzero(mask).astype(np.int32))
    sizes = np.array([len(c) for c in cand], dtype=np.int64)
    node_sizes = [int(sizes[orbit_of[v]]) for v in range(p.k)]
    plans = [existence_plan(p, g[0], node_sizes) for g in groups]
    cptr = np.zeros(len(groups) + 1, dtype=np.int64)
    np.cumsum(sizes, out=cptr[1:])
    return OrbitSearch(
        groups=groups,
        sizes=sizes,
        tables=np.ascontiguousarray(np.stack([pl.table for pl in plans])),
        step_orbits=np.ascontiguousarray(np.stack([orbit_of[pl.nodes] for pl in plans])),
        cands=np.concatenate(cand),
        cptr=cptr,
        order=np.argsort(sizes, kind="stable").astype(np.int64),
    )


def orbit_search_or_bound(
    n: int,
    p: LabelledPattern,
    eligible: Sequence[np.ndarray],
    groups: Sequence[Sequence[int]] | None,
    min_support: int,
    images: bool = True,
) -> OrbitSearch | OrbitImages:
    """The orbit search of ``p`` in a graph of ``n`` vertices, or the result without one.

    Parameters
    ----------
    n : int
        Vertices of the graph.
    p : LabelledPattern
        The pattern.
    eligible : sequence of numpy.ndarray
        Per pattern node, a bool mask over the vertices holding its images.
    groups : sequence of sequence of int or None
        The automorphism orbits of ``p`` (computed when None).
    min_support : int
        The threshold of the early exits.
    images : bool
        Whether a result carries the image masks (False: an empty list).

    Returns
    -------
    OrbitSearch or OrbitImages
        :func:`~nx_gpumine.plan.fsm.orbit_search`'s search; or, when ``p`` has more nodes
        than the graph or an orbit has fewer than ``min_support`` candidates, the result:
        that bound (0 for a pattern too large) as the support, every count -1 and every image
        mask all False.

    Raises
    ------
    ValueError
        As :func:`~nx_gpumine.plan.fsm.orbit_search` raises it.
    """
    search = orbit_search(p, eligible, groups)
    ng = len(search.groups)
    bound = 0 if p.k > n else int(search.sizes.min())
    if bound < min_support or p.k > n:
        masks = [np.zeros(n, bool) for _ in range(ng)] if images else []
        return OrbitImages(bound, np.full(ng, -1, np.int64), masks)
    return search
