"""Frequent subgraph mining, level by level: GAMMA's extension, aggregation and filtering.

Level 1 is counted directly from the graph's entries (:func:`edge_supports`). Each further
level grows every frequent pattern by one edge (extension,
:func:`~nx_gpumine.plan.fsm.one_edge_larger`, only with frequent labelled edges), dedupes the
candidates by their canonical form (aggregation), drops those with an infrequent
one-edge-smaller connected sub-pattern (anti-monotone pruning) and keeps those whose support
reaches ``min_support`` (filtering, :func:`pattern_support`).

The support is the minimum image-based support (MNI): over the pattern's nodes, the least
number of distinct data nodes the node is mapped to by the embeddings (subgraph
monomorphisms). Nodes of one automorphism orbit have the same images, so one byte map per orbit
over the data nodes holds them; it is filled by existence searches, one per candidate vertex
not yet known (:func:`pattern_support`), never by listing every embedding. Stars (all of
level 2) have closed forms over the entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import Any

import numpy as np

from ..errors import CapacityError
from ..inputs.labels import Unmatchable
from ..inputs.static_graph import StaticGraph
from ..plan.fsm import (
    LabelledPattern,
    edge_pattern,
    neighbour_types,
    one_edge_larger,
    one_edge_smaller,
    orbits,
    query_pattern,
    star_centre,
)
from .merge import progress_bar

__all__ = ["GraphCodes", "edge_supports", "pattern_support", "mine_frequent"]


def _values(vocab: dict) -> tuple[list, np.ndarray]:
    """A vocabulary's values by code, and which codes match something (not NaN and alike)."""
    values: list = [None] * len(vocab)
    ok = np.ones(max(1, len(vocab)), dtype=bool)
    for value, code in vocab.items():
        values[code] = value
        ok[code] = type(value) is not Unmatchable
    return values, ok


@dataclass
class GraphCodes:
    """A graph's entries with the label codes mining reads, computed once per call.

    The arrays live where the level-1 and star supports are computed: host memory (NumPy,
    the CPU engine) or the current GPU (CuPy, the CUDA engine: every level-1 and 2 support is
    a few device passes over the entries); :meth:`host` gives the existence searches' host
    copies.

    Attributes
    ----------
    graph : StaticGraph
        The (undirected) data graph.
    xp : module
        ``numpy`` or ``cupy``: where the arrays below are.
    label : array
        int64 node label code per vertex (0 everywhere without node labels).
    src, dst, elabel : array
        int64 per union-CSR entry (both orientations of each edge): its vertex, its neighbour
        and the edge's label code (0 without edge labels).
    usable : array
        bool per entry: both node labels and the edge label match something.
    node_values, edge_values : list or None
        Label value per code (None: the graph has no such labels).
    """

    graph: StaticGraph
    xp: ModuleType
    label: Any
    src: Any
    dst: Any
    elabel: Any
    usable: Any
    node_values: list | None
    edge_values: list | None
    _type_order: Any = field(default=None, repr=False)
    _sorted_types: Any = field(default=None, repr=False)
    _counts: dict = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, graph: StaticGraph, xp: ModuleType = np) -> GraphCodes:
        """The codes of ``graph``, as ``xp`` arrays (``numpy``, or ``cupy`` on the current
        device, where the graph's arrays are uploaded once and kept with it)."""
        n = graph.n
        if xp is np:
            indptr, indices = graph.indptr, graph.indices
            node_label, out_label = graph.node_label, graph.out_label
        else:
            arr = graph.device_arrays()
            indptr, indices = arr["indptr"], arr["indices"]
            node_label, out_label = arr.get("node_label"), arr.get("out_label")
        nnz = len(indices)
        src = xp.searchsorted(indptr, xp.arange(nnz, dtype=xp.int64), side="right") - 1
        dst = indices.astype(xp.int64)
        usable = xp.ones(nnz, dtype=bool)
        node_values = edge_values = None
        if node_label is None:
            label = xp.zeros(n, dtype=xp.int64)
        else:
            label = node_label.astype(xp.int64)
            node_values, ok = _values(graph.node_vocab)
            ok = xp.asarray(ok)
            usable &= ok[label[src]] & ok[label[dst]]
        if out_label is None:
            elabel = xp.zeros(nnz, dtype=xp.int64)
        else:
            elabel = out_label.astype(xp.int64)
            edge_values, ok = _values(graph.edge_vocab)
            usable &= xp.asarray(ok)[elabel]
        return cls(graph, xp, label, src, dst, elabel, usable, node_values, edge_values)

    @cached_property
    def num_edge_labels(self) -> int:
        """One more than the largest edge label code."""
        return int(self.elabel.max()) + 1 if len(self.elabel) else 1

    @cached_property
    def host(self) -> tuple[np.ndarray, ...]:
        """What the existence searches read, on the host: the CSR, the node and entry label
        codes and the usable entries (the same arrays on every call: the CUDA search keeps
        its upload while they are passed again)."""
        g = self.graph
        arrays = (self.label, self.elabel, self.usable)
        if self.xp is not np:
            arrays = tuple(self.xp.asnumpy(a) for a in arrays)
        return (g.indptr, g.indices, *arrays)

    def to_host(self, a: Any) -> np.ndarray:
        """``a`` (an array of this module) as a NumPy array."""
        return a if self.xp is np else self.xp.asnumpy(a)

    def entry_types(self) -> Any:
        """Per entry, the code of ``(neighbour's label, edge label)``."""
        return self.label[self.dst] * self.num_edge_labels + self.elabel

    def type_entries(self, lab: int, el: int) -> Any:
        """The usable entries whose neighbour has label ``lab`` and edge label ``el``."""
        xp = self.xp
        if self._type_order is None:
            types = self.entry_types()
            order = xp.flatnonzero(self.usable)
            self._type_order = order[xp.argsort(types[order])]
            self._sorted_types = types[self._type_order]
        t = lab * self.num_edge_labels + el
        lo, hi = self.to_host(xp.searchsorted(self._sorted_types, xp.asarray([t, t + 1])))
        return self._type_order[int(lo) : int(hi)]

    def neighbour_count(self, lab: int, el: int) -> Any:
        """Per vertex, how many neighbours with label ``lab`` it has through edges labelled
        ``el`` (kept for the call)."""
        key = (lab, el)
        if key not in self._counts:
            entries = self.type_entries(lab, el)
            self._counts[key] = self.xp.bincount(self.src[entries], minlength=self.graph.n)
        return self._counts[key]

    def eligible(self, p: LabelledPattern) -> list[Any]:
        """Per pattern node, the vertices it may map to by label and neighbourhood: the node's
        label, and at least as many neighbours of each (label, edge label) as the node has (a
        superset of its images)."""
        out = []
        for v, needs in enumerate(neighbour_types(p)):
            mask = self.label == p.labels[v]
            for (lab, el), m in needs.items():
                mask &= self.neighbour_count(lab, el) >= m
            out.append(mask)
        return out


def edge_supports(codes: GraphCodes) -> dict[LabelledPattern, int]:
    """The MNI support of every labelled one-edge pattern the graph holds.

    For the pattern joining labels ``x`` and ``y`` by an edge labelled ``c``, the ``x`` node's
    images are the distinct vertices ``u`` of the entries ``u -> v`` with labels ``(x, y)`` and
    edge label ``c``, and the ``y`` node's those of the entries with labels ``(y, x)``; with
    ``x == y`` both nodes map to either end, and both sets are that of the entries ``(x, x)``.

    Returns
    -------
    dict
        ``{one-edge pattern: support}``.
    """
    use = codes.usable
    src, dst, el = codes.src[use], codes.dst[use], codes.elabel[use]
    if not len(src):
        return {}
    # one int64 key per (label of u, label of v, edge label, u); distinct keys = distinct u
    nl = int(codes.label.max()) + 1
    ne = codes.num_edge_labels
    if nl * nl * ne * max(codes.graph.n, 1) >= 2**62:
        raise CapacityError(f"{nl} node labels x {ne} edge labels x {codes.graph.n} nodes: "
                            "too many to key one int64 per (labels, node)")  # fmt: skip
    kind = (codes.label[src] * nl + codes.label[dst]) * ne + el
    xp = codes.xp
    keys = xp.unique(kind * codes.graph.n + src)
    kinds, distinct = xp.unique(keys // codes.graph.n, return_counts=True)
    images = {}
    for code, c in zip(kinds.tolist(), distinct.tolist(), strict=True):
        xy, e = divmod(code, ne)
        images[(*divmod(xy, nl), e)] = c
    out: dict[LabelledPattern, int] = {}
    for (x, y, c), count in images.items():
        if x <= y:
            out[edge_pattern(x, y, c)] = min(count, images[(y, x, c)])
    return out


def _star_support(codes: GraphCodes, p: LabelledPattern, centre: int) -> int:
    """MNI of a star: the centre's images are the vertices with enough neighbours of each
    leaf kind (exactly :meth:`GraphCodes.eligible`), a leaf's those neighbours of such a
    vertex with the leaf's kind (the leaves of one kind form one orbit)."""
    xp = codes.xp
    centres = codes.eligible(p)[centre]
    support = int(xp.count_nonzero(centres))
    for lab, el in neighbour_types(p)[centre]:
        entries = codes.type_entries(lab, el)
        leaves = xp.zeros(codes.graph.n, dtype=bool)
        leaves[codes.dst[entries[centres[codes.src[entries]]]]] = True
        support = min(support, int(xp.count_nonzero(leaves)))
    return support


def pattern_support(
    codes: GraphCodes,
    p: LabelledPattern,
    min_support: int,
    engine: str = "cpu",
    exact: bool = True,
) -> int:
    """The MNI support of ``p`` when it is at least ``min_support``; otherwise some value
    below ``min_support``.

    A node's images lie among its :meth:`GraphCodes.eligible` vertices, so a pattern with a
    node having fewer than ``min_support`` of them is infrequent without a search. Stars have
    a closed form (:func:`_star_support`). Other patterns: for each automorphism orbit (the
    smallest candidate sets first), each eligible vertex not yet known to be an image is
    tested for one embedding mapping the orbit there (a search that stops at the first one
    found, whose vertices become images of their own orbits too; GraMi's existence checks),
    on ``engine`` (``engines/cpu/fsm_domains.py``, ``engines/cuda/fsm_domains.py``); an orbit
    stops once its images plus its untested candidates fall below ``min_support`` (the
    pattern is infrequent) or, when not ``exact``, once it has ``min_support`` images.

    Parameters
    ----------
    codes : GraphCodes
        The data graph's codes.
    p : LabelledPattern
        The pattern.
    min_support : int
        The threshold.
    engine : {"cpu", "cuda"}
        Engine of the existence searches (a resolved name).
    exact : bool
        Whether a frequent pattern's support must be exact; False: a lower bound, at least
        ``min_support`` (the pattern is frequent all the same).

    Returns
    -------
    int
    """
    graph = codes.graph
    if p.k > graph.n:
        return 0
    centre = star_centre(p)
    if centre is not None:
        return _star_support(codes, p, centre)
    eligible = [codes.to_host(m) for m in codes.eligible(p)]
    groups = orbits(query_pattern(p, codes.node_values, codes.edge_values))
    bound = [int(np.count_nonzero(eligible[g[0]])) for g in groups]
    if min(bound) < min_support:
        return min(bound)
    if engine == "cuda":
        from ..engines.cuda.fsm_domains import orbit_images

        found = orbit_images(*codes.host, p, eligible, groups, min_support, exact, images=False)
    else:
        from ..engines.cpu.fsm_domains import orbit_images

        found = orbit_images(*codes.host, p, eligible, groups, min_support, exact)
    return int(found.support)


def _neighbour_labels(frequent: dict[LabelledPattern, int]) -> dict[int, list[tuple[int, int]]]:
    """Label -> the (neighbour label, edge label) pairs of the frequent one-edge patterns."""
    out: dict[int, list[tuple[int, int]]] = {}
    for p in sorted(frequent):
        (x, y), ((_, _, el),) = p.labels, p.edges
        out.setdefault(x, []).append((y, el))
        if x != y:
            out.setdefault(y, []).append((x, el))
    return out


def mine_frequent(
    graph: StaticGraph,
    min_support: int,
    max_edges: int,
    *,
    engine: str = "cpu",
    progress: bool = False,
    exact: bool = True,
) -> tuple[GraphCodes, list[tuple[LabelledPattern, int]]]:
    """Every connected pattern of 1 to ``max_edges`` edges whose MNI support in ``graph`` is at
    least ``min_support``.

    Parameters
    ----------
    graph : StaticGraph
        Undirected data graph (self-loops are ignored).
    min_support : int
        The threshold (>= 1).
    max_edges : int
        Largest pattern, in edges (>= 1).
    engine : {"cpu", "cuda"}
        Where supports are computed (a resolved name): the level-1 and star passes over the
        entries (NumPy / CuPy arrays) and the existence searches (:func:`pattern_support`).
    progress : bool
        A bar over each level's candidates (needs tqdm).
    exact : bool
        Exact supports (True), or lower bounds of at least ``min_support`` where listing the
        embeddings could stop early (:func:`pattern_support`); the same patterns either way.

    Returns
    -------
    tuple
        ``(codes, found)``: the graph's :class:`GraphCodes` (their label values name the
        patterns' codes) and ``(pattern, support)`` pairs ordered by edges, support
        descending, then pattern.
    """
    xp: ModuleType = np
    if engine == "cuda":  # levels 1 and 2 on the device too (CuPy: the engine resolved)
        import cupy as xp
    codes = GraphCodes.of(graph, xp)
    level = {p: s for p, s in edge_supports(codes).items() if s >= min_support}
    found: list[tuple[LabelledPattern, int]] = list(level.items())
    neighbours = _neighbour_labels(level)
    for m in range(2, max_edges + 1):
        grown: set[LabelledPattern] = set()
        for p in level:
            grown |= one_edge_larger(p, neighbours)
        candidates = sorted(c for c in grown if all(q in level for q in one_edge_smaller(c)))
        bar = progress_bar(len(candidates), f"frequent subgraphs, {m} edges") if progress else None
        nxt: dict[LabelledPattern, int] = {}
        try:
            for i, c in enumerate(candidates):
                s = pattern_support(codes, c, min_support, engine, exact)
                if s >= min_support:
                    nxt[c] = s
                if bar is not None:
                    bar.task_done(i)
        finally:
            if bar is not None:
                bar.close()
        found.extend(nxt.items())
        level = nxt
        if not level:
            break
    found.sort(key=lambda ps: (ps[0].num_edges, -ps[1], ps[0]))
    return codes, found
