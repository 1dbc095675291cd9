"""The connected k-node patterns of a static subgraph census, and how their counts relate.

A *graphlet* here is a connected simple graph on ``k`` nodes (undirected, ``k`` = 3..5: 2, 6 and
21 of them; directed, ``k`` = 3..4, weakly connected, mutual edges allowed: 13 and 199). Each is
kept as a bit mask over the node pairs (undirected: ``{a, b}``, ``a < b``; directed: ``(a, b)``,
``a != b``) in its canonical form, the smallest mask over all node orders.

The census counts, for each graphlet ``H``, the node sets ``S`` of the data graph whose induced
subgraph is ``H`` (``I[H]``), or the subgraphs isomorphic to ``H`` (non-induced, ``N[H]``: a node
set and an edge subset). They are tied by one exact linear relation,

    N[H] = sum over graphlets H' of copies(H, H') * I[H'],

``copies(H, H')`` the edge subsets of ``H'`` (on all its ``k`` nodes) that form a graph
isomorphic to ``H``: every subgraph isomorphic to ``H`` lies on one node set, which induces one
``H'``. The matrix is triangular (``H'`` has at least ``H``'s edges; ``copies(H, H) = 1``), so the
induced counts follow from the non-induced ones by back substitution in exact integers
(:func:`induced_counts`): the census counts each graphlet non-induced, which the engines do
fastest (shape kernels, count tails), and derives the rest.

Names: the catalogue's where one matches (``inputs.patterns.CATALOGUE``), else NetworkX's graph
atlas number (``"G7"``: ``networkx.graph_atlas(7)``, undirected) or ``"D{k}-{mask}"`` (directed,
the canonical mask in hex).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from ..errors import QueryError
from ..inputs.patterns import CATALOGUE

__all__ = [
    "Graphlet",
    "graphlets",
    "copies_matrix",
    "induced_counts",
    "noninduced_counts",
    "CENSUS_SIZES",
    "CENSUS_BLOCKS",
    "CYCLE_BLOCKS",
    "LINK_BLOCKS",
    "WALK_BLOCKS",
    "GRAPHLET_BLOCKS",
    "block_formula",
    "from_blocks",
    "graphlet_of",
]

#: The census sizes: undirected, directed.
CENSUS_SIZES = {False: (3, 4, 5), True: (3, 4)}

#: The sums of an undirected graph (``d`` degrees, ``t_e`` the triangles on edge ``e``, ``t_v``
#: those at node ``v``) from which :func:`block_formula` gives graphlet counts without
#: enumerating them (ESCAPE's building blocks); an engine computes those it can
#: (``census_blocks``), exactly: ``stars<s>`` = sum over nodes of C(d_v, s) (s = 2, 3, 4);
#: ``paths3`` = sum over edges {u, v} of (d_u - 1)(d_v - 1); ``triangles``; ``books2`` = sum
#: over edges of C(t_e, 2); ``tailed`` = sum over nodes of t_v (d_v - 2); ``cycles4`` and
#: ``forks`` = sum over nodes of t_v C(d_v - 2, 2); ``doubletails`` = sum over edges {x, y} of
#: t_e (d_x - 2)(d_y - 2); ``tri_arms`` = sum over nodes of t_v S_v (``S_v`` the further edges
#: of ``v``'s neighbours, sum_{u in N(v)} (d_u - 1)); ``tri_pairs`` = sum over nodes of
#: C(t_v, 2); ``books_deg`` = sum over edges {x, y} of C(t_e, 2)(d_x + d_y); ``cycles4`` and
#: ``cliques4``: the 4-cycles and 4-cliques (an engine may count them with the others in one
#: pass, as the CPU engine's per-node orbit counts do; else the query path counts them, as it
#: counts the triangles where an engine does not: :data:`GRAPHLET_BLOCKS`); ``spiders`` and
#: ``arms``: the degree sums of the 5-node trees
#: (:func:`~nx_gpumine.engines.degree_sums.spider_sums`); from each node's 2-paths counted by
#: their far end (``w_vx`` common neighbours, :mod:`nx_gpumine.engines.cpu.census_walks`):
#: ``cycle_tails`` = sum over nodes of c4_v (d_v - 2) (``c4_v = sum_x C(w_vx, 2)``, the
#: 4-cycles through ``v``), ``k23`` = sum over node pairs of C(w_vx, 3), ``house_sum`` = sum
#: over edges of t_e c4_e (``c4_e`` the 4-cycles through ``e``), ``tri_deg`` = sum over edges
#: of t_e sum_{c in T_e} (d_c - 2) (``T_e`` the common neighbours of ``e``'s ends) and
#: ``books3`` = sum over edges of C(t_e, 3); ``cycles5``: the 5-cycles (by the trace of
#: ``A^5``, from the same 2-path counts); from each node's link (the subgraph on its
#: neighbours; :mod:`nx_gpumine.engines.cpu.census_walks`): ``clique_tails``, ``link_paths``,
#: ``diamond_bridges``, ``clique_wings``, ``wheels4`` and ``clique_pairs``.
CENSUS_BLOCKS = (
    "stars2", "stars3", "stars4", "paths3", "triangles", "books2", "tailed", "cycles4",
    "cliques4", "spiders", "arms", "forks", "doubletails", "tri_arms", "tri_pairs", "books_deg",
    "cycle_tails", "k23", "house_sum", "tri_deg", "books3", "cycles5", "clique_tails",
    "link_paths", "diamond_bridges", "clique_wings", "wheels4", "clique_pairs",
)  # fmt: skip
#: The 5-node census's blocks from each node's 2-paths and from each node's link (the engines'
#: walks: :mod:`nx_gpumine.engines.cpu.census_walks`).
CYCLE_BLOCKS = frozenset(
    {"cycles4", "cycle_tails", "k23", "house_sum", "tri_deg", "books3", "cycles5"}
)
LINK_BLOCKS = frozenset(
    {"cliques4", "clique_tails", "link_paths", "diamond_bridges", "clique_wings",
     "clique_pairs", "wheels4"}
)  # fmt: skip
WALK_BLOCKS = CYCLE_BLOCKS | LINK_BLOCKS
#: The blocks that are one graphlet's non-induced count (its name in the census).
GRAPHLET_BLOCKS = {
    "triangles": "triangle", "cycles4": "4-cycle", "cliques4": "4-clique", "cycles5": "5-cycle"
}  # fmt: skip


@dataclass(frozen=True)
class Graphlet:
    """One connected ``k``-node pattern of the census.

    Attributes
    ----------
    name : str
        Its name (catalogue, atlas ``G<i>`` or ``D<k>-<hex mask>``).
    k : int
        Nodes.
    directed : bool
        Directed (weakly connected) or undirected.
    mask : int
        Canonical bit mask over the node pairs (:func:`pairs` order).
    edges : tuple of (int, int)
        Its edges on nodes ``0..k-1``.
    """

    name: str
    k: int
    directed: bool
    mask: int
    edges: tuple[tuple[int, int], ...]

    def edge_text(self) -> str:
        """Its edges as text: ``"0-1 1-2"`` (undirected) or ``"0>1 1>2"`` (directed)."""
        sep = ">" if self.directed else "-"
        return " ".join(f"{a}{sep}{b}" for a, b in self.edges)

    def graph(self) -> nx.Graph:
        """The pattern as a NetworkX graph (a ``DiGraph`` when directed), nodes ``0..k-1``."""
        g = nx.DiGraph() if self.directed else nx.Graph()
        g.add_nodes_from(range(self.k))
        g.add_edges_from(self.edges)
        return g


@functools.cache
def pairs(k: int, directed: bool) -> tuple[tuple[int, int], ...]:
    """The node pairs of ``k`` nodes, one bit each: ``(a, b)`` with ``a < b`` (undirected) or
    ``a != b`` (directed), in lexicographic order."""
    if directed:
        return tuple(itertools.permutations(range(k), 2))
    return tuple(itertools.combinations(range(k), 2))


@functools.cache
def _permuted_bits(k: int, directed: bool) -> tuple[tuple[int, ...], ...]:
    """For each node order ``p``: the bit each pair's bit moves to (pair ``(a, b)`` becomes
    ``(p[a], p[b])``)."""
    ps = pairs(k, directed)
    index = {pr: i for i, pr in enumerate(ps)}
    out = []
    for p in itertools.permutations(range(k)):
        row = []
        for a, b in ps:
            x, y = p[a], p[b]
            row.append(index[(x, y) if directed or x < y else (y, x)])
        out.append(tuple(row))
    return tuple(out)


def _apply(mask: int, moves: tuple[int, ...]) -> int:
    out = 0
    for i, j in enumerate(moves):
        if mask >> i & 1:
            out |= 1 << j
    return out


@functools.cache
def _canonical_table(k: int, directed: bool) -> tuple[int, ...]:
    """The canonical form (smallest mask over node orders) of every mask on ``k`` nodes."""
    nbits = len(pairs(k, directed))
    canon = [-1] * (1 << nbits)
    for mask in range(1 << nbits):
        if canon[mask] != -1:
            continue
        orbit = {_apply(mask, moves) for moves in _permuted_bits(k, directed)}
        low = min(orbit)
        for m in orbit:
            canon[m] = low
    return tuple(canon)


def _connected(mask: int, k: int, directed: bool) -> bool:
    """Whether the mask's graph is (weakly) connected on all ``k`` nodes."""
    ps = pairs(k, directed)
    adj = [0] * k
    for i, (a, b) in enumerate(ps):
        if mask >> i & 1:
            adj[a] |= 1 << b
            adj[b] |= 1 << a
    seen, todo = 1, [0]
    while todo:
        x = todo.pop()
        new = adj[x] & ~seen
        seen |= new
        todo.extend(i for i in range(k) if new >> i & 1)
    return seen == (1 << k) - 1


def _name_index(k: int, directed: bool) -> dict[int, str]:
    """Canonical mask -> name, for the catalogue patterns and (undirected) atlas graphs."""
    names: dict[int, str] = {}
    ps = pairs(k, directed)
    canon = _canonical_table(k, directed)

    def mask_of(g: nx.Graph) -> int:
        order = {v: i for i, v in enumerate(g.nodes)}
        m = 0
        for u, v in g.edges:
            a, b = order[u], order[v]
            m |= 1 << ps.index((a, b) if directed or a < b else (b, a))
        return canon[m]

    for name, make in CATALOGUE.items():
        g = make()
        if g.is_directed() == directed and len(g) == k:
            names.setdefault(mask_of(g), name)
    if not directed:
        for i, g in enumerate(nx.graph_atlas_g()):
            if len(g) == k and g.size() and nx.is_connected(g):
                names.setdefault(mask_of(g), f"G{i}")
    return names


@functools.cache
def graphlets(k: int, directed: bool) -> tuple[Graphlet, ...]:
    """The connected ``k``-node patterns of the census, by edge count then canonical mask.

    Parameters
    ----------
    k : int
        Nodes: 3, 4 or 5 (undirected), 3 or 4 (directed).
    directed : bool
        Directed patterns (weakly connected; an edge pair may be mutual).

    Returns
    -------
    tuple of Graphlet

    Raises
    ------
    QueryError
        Another ``k``.
    """
    sizes = CENSUS_SIZES[bool(directed)]
    if isinstance(k, bool) or not isinstance(k, int) or k not in sizes:
        kind = "directed" if directed else "undirected"
        raise QueryError(f"the {kind} subgraph census takes k in {sizes}, got {k!r}")
    canon = _canonical_table(k, directed)
    masks = sorted(
        {c for c in set(canon) if _connected(c, k, directed)}, key=lambda m: (m.bit_count(), m)
    )
    names = _name_index(k, directed)
    ps = pairs(k, directed)
    out = []
    for m in masks:
        edges = tuple(ps[i] for i in range(len(ps)) if m >> i & 1)
        name = names.get(m, f"D{k}-{m:x}" if directed else f"U{k}-{m:x}")
        out.append(Graphlet(name, k, bool(directed), m, edges))
    return tuple(out)


@functools.cache
def copies_matrix(k: int, directed: bool) -> tuple[tuple[int, ...], ...]:
    """``copies[i][j]``: the edge subsets of graphlet ``j`` that form a graph isomorphic to
    graphlet ``i`` (:func:`graphlets` order; upper triangular, ones on the diagonal)."""
    gs = graphlets(k, directed)
    pos = {g.mask: i for i, g in enumerate(gs)}
    canon = _canonical_table(k, directed)
    n = len(gs)
    rows = [[0] * n for _ in range(n)]
    for j, g in enumerate(gs):
        sub = g.mask
        while True:  # every sub-mask of g's mask, g's own included
            i = pos.get(canon[sub])
            if i is not None:  # a connected k-node subgraph
                rows[i][j] += 1
            if sub == 0:
                break
            sub = (sub - 1) & g.mask
    return tuple(tuple(r) for r in rows)


def induced_counts(noninduced: list[int], k: int, directed: bool) -> list[int]:
    """The induced counts of the graphlets from their non-induced ones (exact integers).

    Parameters
    ----------
    noninduced : list of int
        ``N[H]`` per graphlet (:func:`graphlets` order): subgraphs isomorphic to ``H``.
    k : int
        Nodes.
    directed : bool
        Directed graphlets.

    Returns
    -------
    list of int
        ``I[H]``: node sets inducing ``H``.
    """
    c = copies_matrix(k, directed)
    n = len(c)
    if len(noninduced) != n:
        raise ValueError(f"expected {n} counts, got {len(noninduced)}")
    induced = [0] * n
    for i in range(n - 1, -1, -1):
        induced[i] = int(noninduced[i]) - sum(c[i][j] * induced[j] for j in range(i + 1, n))
        if induced[i] < 0:  # pragma: no cover - inconsistent input
            raise ValueError("the non-induced counts are inconsistent (a negative induced count)")
    return induced


def noninduced_counts(induced: list[int], k: int, directed: bool) -> list[int]:
    """The non-induced counts of the graphlets from their induced ones (exact integers):
    ``N[H] = sum_J copies[H][J] I[J]`` (:func:`copies_matrix`), the inverse of
    :func:`induced_counts`."""
    c = copies_matrix(k, directed)
    if len(induced) != len(c):
        raise ValueError(f"expected {len(c)} counts, got {len(induced)}")
    return [sum(c[i][j] * int(induced[j]) for j in range(i, len(c))) for i in range(len(c))]


def block_formula(g: Graphlet) -> tuple[tuple[int, str], ...] | None:
    """The non-induced count of ``g`` as a sum of :data:`CENSUS_BLOCKS` times integer
    coefficients (``((coefficient, block), ...)``), or None where no formula is known.

    Undirected only: a star with ``s`` leaves is ``stars<s>`` (its centre and a choice of
    leaves); the triangle ``triangles``; the 4-node path ``paths3 - 3 triangles`` (a middle edge
    {u, v} and a further neighbour of each end, minus the choices closing a triangle, three
    per triangle); the tailed triangle ``tailed`` (a triangle at ``v`` and a further neighbour
    of ``v``); the diamond ``books2`` (its chord and two of the chord's triangles); the
    4-cycle ``cycles4`` and the 4-clique ``cliques4``. The 5-node trees but the star: the
    spider (a node with three neighbours, one of them with a further one) is ``spiders - 2
    tailed`` (a centre ``c``, an arm ``u``, two more neighbours of ``c`` and a further
    neighbour of ``u``, minus the choices where that neighbour is one of the two: ``d_c - 2``
    per triangle on the edge ``cu``, ``2 tailed`` in all); the 5-node path is ``arms - 2 tailed
    - 3 triangles - 4 cycles4`` (a middle node, two of its neighbours and a further neighbour
    of each, minus the choices where the two neighbours are adjacent, ``d_b + d_d - 3`` per
    such pair, ``2 tailed + 3 triangles`` in all, and those where both further neighbours are
    one node: four per 4-cycle). Triangles with two tails: both at one node ``forks`` (a
    triangle at ``v`` and two of ``v``'s ``d_v - 2`` further neighbours); at two nodes
    ``doubletails - 2 books2`` (a triangle on the edge {x, y} and a further neighbour of each,
    minus the choices where both are one node: a common neighbour of ``x`` and ``y`` but the
    triangle's third, ``t_e - 1`` per triangle on the edge); a triangle with a two-edge tail
    ``tri_arms - 2 tailed - 6 triangles - 4 books2`` (a triangle at ``x``, a neighbour ``a`` of
    ``x`` and a further neighbour of ``a``, minus the choices meeting the triangle: ``a`` one
    of its nodes, ``2 tailed + 6 triangles`` in all, or the tail's end one of them, a common
    neighbour of ``x`` and another triangle node, ``4 books2`` in all). Two triangles at a
    node (the bowtie) ``tri_pairs - 2 books2`` (pairs of triangles at ``v``, minus those sharing
    an edge at ``v``); a diamond with a tail at a chord end ``books_deg - 6 books2`` (the
    chord ``xy``, two of its triangles and one of the ``d_x - 3 + d_y - 3`` further edges).
    From the 4-cycle blocks: the 4-cycle with a tail ``cycle_tails - 2 books2`` (a 4-cycle, one
    of its nodes ``v`` and one of ``v``'s ``d_v - 2`` further neighbours, minus those where
    that neighbour is ``v``'s opposite: two per chord, one chord per diamond); ``K_{2,3}``
    ``k23`` (two hubs and three of their common neighbours); the house ``house_sum - 4 books2``
    (a 4-cycle, one of its edges and a common neighbour of that edge's ends, minus the choices
    where it is a node of the cycle: both chords checked from each of the four edges); the
    diamond with a tail at a side node ``tri_deg - tailed - 12 cliques4`` (a chord ``e``, two of
    its ``t_e`` triangles' third nodes ``a`` and ``b`` and a neighbour of ``a`` other than the
    chord's ends and ``b``: ``sum_e (t_e - 1) sum_{a in T_e} (d_a - 2)``, less twice each
    adjacent pair ``a, b``, six per 4-clique); the book of three pages ``books3``; the
    5-cycle ``cycles5``. From the links: the 4-clique with a tail ``clique_tails``; the fan (a
    hub and a 4-node path among its neighbours) ``link_paths - 12 cliques4`` (each link's
    3-edge paths, ``sum (t_ux - 1)(t_uz - 1)`` over its edges less three per triangle of the
    link, a 4-clique at the hub); ``K_{2,3}`` with an edge between two side nodes
    ``diamond_bridges``; the 4-clique with a node joined to two of its nodes
    ``clique_wings``; the wheel with four spokes ``wheels4``; the 5-clique less an edge
    ``clique_pairs``.
    """
    if g.directed:
        return None
    deg = [0] * g.k
    for a, b in g.edges:
        deg[a] += 1
        deg[b] += 1
    adjacent = set(g.edges) | {(b, a) for a, b in g.edges}
    triangles = sum(1 for a, b in g.edges for c in range(g.k) if c > max(a, b)
                    and (a, c) in adjacent and (b, c) in adjacent)  # fmt: skip
    shape = (len(g.edges), tuple(sorted(deg)), triangles)
    if len(g.edges) == g.k - 1 and max(deg) == g.k - 1 and g.k - 1 <= 4:
        return ((1, f"stars{g.k - 1}"),)
    return {
        (3, (2, 2, 2), 1): ((1, "triangles"),),
        (3, (1, 1, 2, 2), 0): ((1, "paths3"), (-3, "triangles")),
        (4, (1, 2, 2, 3), 1): ((1, "tailed"),),
        (5, (2, 2, 3, 3), 2): ((1, "books2"),),
        (4, (2, 2, 2, 2), 0): ((1, "cycles4"),),
        (6, (3, 3, 3, 3), 4): ((1, "cliques4"),),
        (4, (1, 1, 1, 2, 3), 0): ((1, "spiders"), (-2, "tailed")),
        (4, (1, 1, 2, 2, 2), 0): (
            (1, "arms"), (-2, "tailed"), (-3, "triangles"), (-4, "cycles4")
        ),
        (5, (1, 1, 2, 2, 4), 1): ((1, "forks"),),
        (5, (1, 1, 2, 3, 3), 1): ((1, "doubletails"), (-2, "books2")),
        (5, (1, 2, 2, 2, 3), 1): (
            (1, "tri_arms"), (-2, "tailed"), (-6, "triangles"), (-4, "books2")
        ),
        (6, (2, 2, 2, 2, 4), 2): ((1, "tri_pairs"), (-2, "books2")),
        (6, (1, 2, 2, 3, 4), 2): ((1, "books_deg"), (-6, "books2")),
        (5, (1, 2, 2, 2, 3), 0): ((1, "cycle_tails"), (-2, "books2")),
        (6, (2, 2, 2, 3, 3), 0): ((1, "k23"),),
        (6, (2, 2, 2, 3, 3), 1): ((1, "house_sum"), (-4, "books2")),
        (6, (1, 2, 3, 3, 3), 2): ((1, "tri_deg"), (-1, "tailed"), (-12, "cliques4")),
        (7, (2, 2, 2, 4, 4), 3): ((1, "books3"),),
        (5, (2, 2, 2, 2, 2), 0): ((1, "cycles5"),),
        (7, (1, 3, 3, 3, 4), 4): ((1, "clique_tails"),),
        (7, (2, 2, 3, 3, 4), 3): ((1, "link_paths"), (-12, "cliques4")),
        (7, (2, 3, 3, 3, 3), 2): ((1, "diamond_bridges"),),
        (8, (2, 3, 3, 4, 4), 5): ((1, "clique_wings"),),
        (8, (3, 3, 3, 3, 4), 4): ((1, "wheels4"),),
        (9, (3, 3, 4, 4, 4), 7): ((1, "clique_pairs"),),
    }.get(shape)  # fmt: skip


def graphlet_of(pattern: Any) -> Graphlet | None:
    """The census graphlet a pattern is (its node order canonical), or None: a pattern that is
    directed, labelled, looped, disconnected or of a size the census does not take.

    The one test of whether a query is a census graphlet, so that an engine can count it non-
    induced by :func:`block_formula` (the CPU engine's ``count``).

    Parameters
    ----------
    pattern : Pattern
        The query pattern.

    Returns
    -------
    Graphlet or None
    """
    k = int(pattern.k)
    if (
        pattern.directed
        or pattern.node_labels is not None
        or pattern.edge_labels is not None
        or bool(np.asarray(pattern.loops).any())
        or k not in CENSUS_SIZES[False]
    ):
        return None
    ps = pairs(k, False)
    mask = 0
    for i, (a, b) in enumerate(ps):
        if pattern.code[a, b]:
            mask |= 1 << i
    canon = _canonical_table(k, False)[mask]
    return next((g for g in graphlets(k, False) if g.mask == canon), None)  # None: disconnected


def from_blocks(g: Graphlet, blocks: dict[str, int]) -> int | None:
    """``g``'s non-induced count from the ``blocks`` computed (None when :func:`block_formula`
    has none or needs a block that is missing)."""
    formula = block_formula(g)
    if formula is None or any(name not in blocks for _, name in formula):
        return None
    return sum(c * int(blocks[name]) for c, name in formula)
