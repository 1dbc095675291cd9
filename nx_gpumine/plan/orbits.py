"""The node orbits of the graphlets on 2 to 5 nodes, and how their per-node counts relate.

A *graphlet degree vector* (Pržulj 2007; ORCA, Hočevar and Demšar 2014) gives each node ``v`` of
an undirected graph, for each *orbit* ``o`` (a class of pattern nodes that an automorphism of
the pattern maps onto each other), the number of node sets ``S`` containing ``v`` whose induced
subgraph ``G[S]`` is ``o``'s graphlet with ``v`` in ``o`` (the *induced* count ``I[v, o]``).
The numbering is ORCA's (:func:`orbits`, 15 orbits up to ``k`` = 4, 73 up to ``k`` = 5)::

    k = 2   0  edge                    the edge's ends (the degree)
    k = 3   1  wedge end               2  wedge centre          3  triangle
    k = 4   4  4-path end              5  4-path inner node
            6  4-star leaf             7  4-star centre         8  4-cycle
            9  tailed-triangle tail    10 its two degree-2 triangle nodes   11 its degree-3 node
            12 diamond degree-2 nodes  13 diamond degree-3 nodes            14 4-clique
    k = 5   15..72 the 21 connected 5-node graphlets' orbits (:data:`_TABLE5`, ORCA's numbers)

The engines count the *non-induced* orbits ``N[v, o]``: subgraphs (a node set and a subset of
its edges, spanning all its nodes) isomorphic to ``o``'s graphlet, with ``v`` in ``o``. The two
are tied, node by node, by one exact linear relation,

    N[v, o] = sum over orbits o' of the same size of copies(o, o') * I[v, o'],

``copies(o, o')`` the edge subsets of the graphlet of ``o'`` (on all its nodes) forming a graph
isomorphic to ``o``'s graphlet in which a node of ``o'`` sits in ``o`` (the same for every node
of ``o'``: an automorphism carries one to another). Each subgraph counted by ``N[v, o]`` lies on
one node set, which induces one graphlet with ``v`` in one orbit ``o'``. The matrix
(:func:`orbit_copies_matrix`, found by brute force over the patterns) is upper triangular in
ORCA's order (a graphlet with more edges has larger orbit numbers; ``copies(o, o) = 1``), so
:func:`induced_orbit_counts` recovers the induced counts by back substitution in exact
integers, as :func:`~nx_gpumine.plan.graphlets.induced_counts` does for whole-pattern counts.
For ``k`` = 5 the engine counts induced orbits directly (every connected 5-node set once,
classified by :func:`orbit_lookup5`), so the conversion stops at ``k`` = 4.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import networkx as nx
import numpy as np
from networkx.algorithms.isomorphism import GraphMatcher

from ..errors import QueryError
from .graphlets import graphlets

__all__ = [
    "Orbit",
    "ORBIT_SIZES",
    "n_orbits",
    "orbits",
    "orbit_names",
    "orbit_copies_matrix",
    "induced_orbit_counts",
    "orbit_lookup5",
    "PAIRS5",
]

#: The graphlet sizes with orbit counts.
ORBIT_SIZES = (2, 3, 4, 5)

#: The node pairs of 5 ordered positions, in the bit order of :func:`orbit_lookup5`'s masks.
PAIRS5 = tuple(itertools.combinations(range(5), 2))

_INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Orbit:
    """One node orbit of a graphlet (ORCA's numbering).

    Attributes
    ----------
    index : int
        ORCA's orbit number, 0..72.
    name : str
        A short name: ``"<graphlet>:<role>"``, e.g. ``"4-path:end"``; for 5-node graphlets the
        role is ``"deg<d>"`` (the nodes' degree in the graphlet), with a letter ``a``, ``b``,
        ... in orbit order where the graphlet has several orbits of that degree
        (``"G31:deg2a"``).
    k : int
        Nodes of the graphlet.
    graphlet : str
        The graphlet's name (:func:`~nx_gpumine.subgraph_census`'s for ``k`` >= 3, ``"edge"``).
    edges : tuple of (int, int)
        The graphlet's edges on nodes ``0..k-1``.
    nodes : tuple of int
        The graphlet's nodes in this orbit.
    """

    index: int
    name: str
    k: int
    graphlet: str
    edges: tuple[tuple[int, int], ...]
    nodes: tuple[int, ...]

    def graph(self) -> nx.Graph:
        """The graphlet as a NetworkX graph on nodes ``0..k-1``."""
        return _graph(self.k, self.edges)


_P4 = ((0, 1), (1, 2), (2, 3))
_STAR = ((0, 1), (0, 2), (0, 3))
_C4 = ((0, 1), (1, 2), (2, 3), (0, 3))
_PAW = ((0, 1), (0, 2), (1, 2), (2, 3))  # triangle 0 1 2, tail 2-3
_DIAMOND = ((0, 2), (0, 3), (1, 2), (1, 3), (2, 3))  # K4 less the edge 0-1
_K4 = tuple(itertools.combinations(range(4), 2))
_K5 = tuple(itertools.combinations(range(5), 2))

# (index, role, k, edges, nodes); the graphlet names are filled in from the census's
_TABLE = (
    (0, "end", 2, ((0, 1),), (0, 1)),
    (1, "end", 3, ((0, 1), (1, 2)), (0, 2)),
    (2, "centre", 3, ((0, 1), (1, 2)), (1,)),
    (3, "node", 3, ((0, 1), (0, 2), (1, 2)), (0, 1, 2)),
    (4, "end", 4, _P4, (0, 3)),
    (5, "inner", 4, _P4, (1, 2)),
    (6, "leaf", 4, _STAR, (1, 2, 3)),
    (7, "centre", 4, _STAR, (0,)),
    (8, "node", 4, _C4, (0, 1, 2, 3)),
    (9, "tail", 4, _PAW, (3,)),
    (10, "side", 4, _PAW, (0, 1)),
    (11, "centre", 4, _PAW, (2,)),
    (12, "side", 4, _DIAMOND, (0, 1)),
    (13, "centre", 4, _DIAMOND, (2, 3)),
    (14, "node", 4, _K4, (0, 1, 2, 3)),
)

# ORCA's numbering of the 5-node orbits, derived by benchmarks/peers/orca/derive_orbits5.py from
# ORCA's orca.cpp (Hočevar and Demšar; compiled with g++ -O2): ORCA run on each connected 5-node
# graph of networkx.graph_atlas_g() alone, each node's one nonzero column among 15..72 being its
# orbit. Rows: (atlas number, edges on nodes 0..4, the orbit of nodes 0, 1, 2, 3, 4).
_TABLE5 = (
    (29, ((0, 4), (1, 4), (2, 4), (3, 4)), (22, 22, 22, 22, 23)),
    (30, ((0, 4), (1, 3), (2, 3), (3, 4)), (18, 19, 19, 21, 20)),
    (31, ((0, 1), (0, 4), (1, 2), (2, 3)), (16, 17, 16, 15, 15)),
    (34, ((0, 4), (1, 4), (2, 3), (2, 4), (3, 4)), (31, 31, 32, 32, 33)),
    (35, ((0, 1), (0, 2), (0, 4), (1, 2), (2, 3)), (26, 25, 26, 24, 24)),
    (36, ((0, 4), (1, 2), (1, 3), (2, 3), (3, 4)), (27, 29, 29, 30, 28)),
    (37, ((0, 1), (1, 3), (1, 4), (2, 3), (2, 4)), (35, 38, 36, 37, 37)),
    (38, ((0, 1), (0, 4), (1, 2), (2, 3), (3, 4)), (34, 34, 34, 34, 34)),
    (40, ((0, 1), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4)), (39, 42, 41, 40, 40)),
    (41, ((0, 1), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)), (45, 47, 46, 48, 48)),
    (42, ((0, 1), (0, 4), (1, 4), (2, 3), (2, 4), (3, 4)), (43, 43, 43, 43, 44)),
    (43, ((0, 1), (0, 3), (0, 4), (1, 2), (2, 3), (3, 4)), (53, 51, 51, 53, 52)),
    (44, ((0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)), (50, 50, 49, 49, 49)),
    (45, ((0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)), (56, 57, 57, 57, 58)),
    (46, ((0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)), (54, 54, 54, 55, 55)),
    (47, ((0, 1), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (3, 4)), (59, 61, 59, 60, 60)),
    (48, ((0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 4)), (63, 63, 64, 62, 64)),
    (49, ((0, 1), (0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)), (66, 66, 65, 67, 67)),
    (50, ((0, 1), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (2, 4), (3, 4)), (68, 68, 68, 68, 69)),
    (51, tuple(e for e in _K5 if e != (0, 2)), (70, 71, 70, 71, 71)),
    (52, _K5, (72, 72, 72, 72, 72)),
)


def _graph(k: int, edges: tuple[tuple[int, int], ...]) -> nx.Graph:
    """The graph on nodes ``0..k-1`` with ``edges``."""
    g = nx.Graph()
    g.add_nodes_from(range(k))
    g.add_edges_from(edges)
    return g


def _graphlet_name(k: int, edges: tuple[tuple[int, int], ...]) -> str:
    """The census's name of the graphlet (``"edge"`` for ``k`` = 2)."""
    if k == 2:
        return "edge"
    g = _graph(k, edges)
    for h in graphlets(k, False):
        if nx.is_isomorphic(g, h.graph()):
            return h.name
    raise AssertionError(f"no census graphlet for {edges}")  # pragma: no cover


def _orbits5() -> list[Orbit]:
    """The orbits 15..72 of :data:`_TABLE5`, in ORCA's order, named ``<graphlet>:deg<d>[x]``."""
    out = []
    for _atlas, edges, node_orbits in _TABLE5:
        name = _graphlet_name(5, edges)
        deg = dict(_graph(5, edges).degree)
        by_index = {o: tuple(v for v in range(5) if node_orbits[v] == o) for o in set(node_orbits)}
        for o, nodes in sorted(by_index.items()):
            d = deg[nodes[0]]
            same = sorted(q for q, ns in by_index.items() if deg[ns[0]] == d)
            role = f"deg{d}" + ("" if len(same) == 1 else "abcde"[same.index(o)])
            out.append(Orbit(o, f"{name}:{role}", 5, name, edges, nodes))
    return sorted(out, key=lambda o: o.index)


@functools.cache
def _catalogue() -> tuple[Orbit, ...]:
    out = []
    for index, role, k, edges, nodes in _TABLE:
        name = _graphlet_name(k, edges)
        out.append(Orbit(index, f"{name}:{role}", k, name, edges, nodes))
    out += _orbits5()
    assert [o.index for o in out] == list(range(73))
    return tuple(out)


@functools.cache
def orbit_lookup5() -> np.ndarray:
    """ORCA's orbit of each of 5 ordered positions, for every graph on them.

    Built once from :data:`_TABLE5` by the 120 relabellings of each 5-node graphlet.

    Returns
    -------
    numpy.ndarray
        int64 ``[1024, 5]``, read-only: row ``mask`` (bit ``i`` set when the pair
        :data:`PAIRS5` ``[i]`` is an edge) holds the orbit (15..72) of positions 0..4, or -1
        throughout for a disconnected graph.
    """
    lut = np.full((1 << len(PAIRS5), 5), -1, dtype=np.int64)
    for _atlas, edges, node_orbits in _TABLE5:
        edge_set = {frozenset(e) for e in edges}
        for perm in itertools.permutations(range(5)):  # position i holds graphlet node perm[i]
            mask = 0
            for bit, (i, j) in enumerate(PAIRS5):
                if frozenset((perm[i], perm[j])) in edge_set:
                    mask |= 1 << bit
            lut[mask] = [node_orbits[perm[i]] for i in range(5)]
    lut.setflags(write=False)
    return lut


def n_orbits(k: int) -> int:
    """Orbits of the graphlets on at most ``k`` nodes: 1, 4, 15 or 73 (``k`` = 2, 3, 4, 5;
    another ``k`` raises :class:`~nx_gpumine.errors.QueryError`, as in :func:`orbits`)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or int(k) not in ORBIT_SIZES:
        raise QueryError(f"graphlet orbit counts take k in {ORBIT_SIZES}, got {k!r}")
    return {2: 1, 3: 4, 4: 15, 5: 73}[int(k)]


def orbits(k: int = 4) -> tuple[Orbit, ...]:
    """The orbits of the graphlets on 2..``k`` nodes, in ORCA's order.

    Parameters
    ----------
    k : int
        Largest graphlet size, 2..5.

    Returns
    -------
    tuple of Orbit
        ``n_orbits(k)`` orbits; ``orbits(k)[i].index == i``.

    Raises
    ------
    QueryError
        Another ``k``.
    """
    return _catalogue()[: n_orbits(k)]


def orbit_names(k: int = 4) -> list[str]:
    """The names of :func:`orbits` ``(k)``, a list of str: ``"wedge:centre"``,
    ``"4-clique:node"``, ..."""
    return [o.name for o in orbits(k)]


def _orbit_of(node: int, g: nx.Graph, size_orbits: tuple[Orbit, ...]) -> int | None:
    """The orbit of ``node`` in the graph ``g`` (all its nodes), None where ``g`` is no
    graphlet of the catalogue (disconnected)."""
    for o in size_orbits:
        h = o.graph()
        if h.number_of_edges() != g.number_of_edges():
            continue
        m = GraphMatcher(g, h)
        if m.is_isomorphic():  # any isomorphism: orbits are invariant under automorphisms
            if m.mapping[node] in o.nodes:
                return o.index
    return None


@functools.cache
def orbit_copies_matrix(k: int) -> tuple[tuple[int, ...], ...]:
    """``copies[o][o2]`` over the orbits of :func:`orbits` (``k``): the edge subsets of the
    graphlet of ``o2`` (on all its nodes) forming a graph isomorphic to ``o``'s graphlet in which
    a node of ``o2`` sits in ``o``; 0 across sizes. Upper triangular, ones on the diagonal.

    Parameters
    ----------
    k : int
        As in :func:`orbits`, at most 4 (5-node orbits are counted induced directly).

    Returns
    -------
    tuple of tuple of int
        ``n_orbits(k)`` rows of ``n_orbits(k)``.

    Raises
    ------
    QueryError
        ``k`` outside 2..4.
    """
    if n_orbits(k) > n_orbits(4):
        raise QueryError("the orbit copies matrix is built for k <= 4 (k = 5 is counted induced)")
    obs = orbits(k)
    rows = [[0] * len(obs) for _ in obs]
    for target in obs:
        size_orbits = tuple(o for o in obs if o.k == target.k)
        node = target.nodes[0]
        for r in range(len(target.edges) + 1):
            for sub in itertools.combinations(target.edges, r):
                o = _orbit_of(node, _graph(target.k, sub), size_orbits)
                if o is not None:
                    rows[o][target.index] += 1
    return tuple(tuple(r) for r in rows)


def induced_orbit_counts(noninduced: np.ndarray, k: int) -> np.ndarray:
    """Induced per-node orbit counts from non-induced ones (exact integers).

    Back substitution with :func:`orbit_copies_matrix`, one column at a time. Every induced count
    is at most its non-induced count and every partial result lies between 0 and it, so int64
    input gives int64 output without overflow whenever ``copies`` times the largest count fits
    64 bits; otherwise (and for object input) the arithmetic runs on Python ints.

    Parameters
    ----------
    noninduced : numpy.ndarray
        ``[n, n_orbits(k)]`` integers (int64, or object holding Python ints): ``N[v, o]``.
    k : int
        As in :func:`orbit_copies_matrix` (2..4).

    Returns
    -------
    numpy.ndarray
        ``[n, n_orbits(k)]`` ``I[v, o]``: int64 for integer input, object for object input.

    Raises
    ------
    ValueError
        A shape that does not match ``k``, a non-integer array, or counts no graph has (a
        negative induced count).
    """
    c = np.array(orbit_copies_matrix(k), dtype=object)
    m = len(c)
    arr = np.asarray(noninduced)
    if arr.ndim != 2 or arr.shape[1] != m:
        raise ValueError(f"expected an [n, {m}] array of counts for k={k}, got {arr.shape}")
    if arr.dtype == object:
        work = arr.copy()
        back = None
    elif np.issubdtype(arr.dtype, np.integer):
        top = int(arr.max()) if arr.size else 0
        spread = max(int(sum(c[i, i + 1 :])) for i in range(m)) + 1
        if top <= _INT64_MAX // spread:
            work = arr.astype(np.int64, copy=True)
            c = c.astype(np.int64)
        else:
            work = arr.astype(object)
        back = np.int64
    else:
        raise ValueError(f"orbit counts must be integers, got dtype {arr.dtype}")
    for i in range(m - 1, -1, -1):
        for j in range(i + 1, m):
            if c[i, j]:
                work[:, i] -= c[i, j] * work[:, j]
        if work.size and (work[:, i] < 0).any():
            raise ValueError(
                "the non-induced orbit counts are inconsistent (a negative induced count)"
            )
    return work if back is None else work.astype(back)
