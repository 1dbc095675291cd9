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
not yet known (:func:`pattern_support`), never by listing every embedding. Stars have closed
forms over the entries; all the stars of level 2 (every two-edge pattern is one) are counted
together, by one sequence of array passes (:func:`star_supports`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
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
    MiningArrays,
    canonical,
    edge_pattern,
    neighbour_types,
    one_edge_larger,
    one_edge_smaller,
    orbits,
    query_pattern,
    star_centre,
)
from .merge import progress_bar

__all__ = [
    "GraphCodes",
    "edge_supports",
    "star_supports",
    "pattern_support",
    "mine_frequent",
    "last_run",
]

#: What the last :func:`mine_frequent` call of this process did: ``engine``, ``out_of_core``
#: (CUDA: the graph's mining data exceeded the device budget, so levels 1 and 2 ran on the host
#: and the existence searches read the graph from pinned host memory) and ``levels``.
last_run: dict[str, Any] = {}

#: Most (row, entry or vertex) pairs one pass of :func:`star_supports` expands, with NumPy
#: (small passes: their arrays stay in cache and their memory is reused) and with CuPy.
STAR_PAIR_CHUNK_CPU = 2**18
STAR_PAIR_CHUNK_GPU = 2**24
#: Most (vertex, leaf kind) cells one neighbour-count pass of :func:`star_supports` holds.
STAR_COUNT_CHUNK = 2**26


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
    def host(self) -> MiningArrays:
        """What the existence searches read, on the host: the CSR, the node and entry label
        codes and the usable entries (the same arrays on every call: the CUDA search keeps
        its upload while they are passed again)."""
        g = self.graph
        arrays = (self.label, self.elabel, self.usable)
        if self.xp is not np:
            arrays = tuple(self.xp.asnumpy(a) for a in arrays)
        return MiningArrays(g.indptr, g.indices, *arrays)

    @cached_property
    def num_types(self) -> int:
        """How many entry type codes there are (``(max label + 1) * num_edge_labels``)."""
        return (int(self.label.max()) + 1 if len(self.label) else 1) * self.num_edge_labels

    @cached_property
    def kind_index(self) -> tuple[Any, Any]:
        """The usable entries ``v -> w`` sorted by ``(label of v, entry type, w)``: their sort
        keys ``(label[v] * num_types + type) * n + w`` and their vertices ``v``, so that the
        entries of one vertex label and type are one run, by neighbour (what
        :func:`edge_supports` and :func:`star_supports` read; one sort, kept with the codes)."""
        n, nt = self.graph.n, self.num_types
        if nt // self.num_edge_labels * nt * max(n, 1) >= 2**62:
            raise CapacityError(f"{nt} entry types x {n} nodes: too many to key one int64 per "
                                "(vertex label, entry type, neighbour)")  # fmt: skip
        use = self.xp.flatnonzero(self.usable)
        src = self.src[use]
        keys = (self.label[src] * nt + self.entry_types()[use]) * n + self.dst[use]
        order = self.xp.argsort(keys)
        return keys[order], src[order]

    @cached_property
    def label_index(self) -> tuple[Any, Any]:
        """The vertices sorted by label, and their labels."""
        order = self.xp.argsort(self.label)
        return order, self.label[order]

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
            self._counts[key] = bincount(self.xp, self.src[entries], self.graph.n)
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


def graph_codes(graph: StaticGraph, engine: str) -> GraphCodes:
    """The :class:`GraphCodes` of ``graph`` for ``engine`` (CUDA: CuPy arrays on the current
    device, so levels 1 and 2 run there too), built once and kept with the graph like its
    other indexes (with the neighbour counts computed so far), so a repeated mining call
    starts from them. A graph whose mining data exceed the device budget
    (:func:`~nx_gpumine.engines.cuda.fsm_domains.in_memory`) gets host codes under the CUDA
    engine: out of core (:data:`last_run`)."""
    cpu = ("fsm_codes", "cpu")
    if engine != "cuda":
        return graph.derived(cpu, lambda: GraphCodes.of(graph))
    import cupy  # the engine resolved: CuPy is there

    from ..engines.cuda.fsm_domains import in_memory

    if not in_memory(graph.n, len(graph.indices)):
        return graph.derived(cpu, lambda: GraphCodes.of(graph))
    return _device_codes(graph, cupy)


def _device_codes(graph: StaticGraph, cupy: ModuleType) -> GraphCodes:
    """The graph's :class:`GraphCodes` on the current device (in memory), kept with it."""
    key = ("fsm_codes", "cuda", cupy.cuda.runtime.getDevice())
    return graph.derived(key, lambda: GraphCodes.of(graph, cupy))


def edge_supports(codes: GraphCodes, min_support: int = 1) -> dict[LabelledPattern, int]:
    """The MNI support of every labelled one-edge pattern the graph holds (with
    ``min_support``: of those at least that frequent).

    For the pattern joining labels ``x`` and ``y`` by an edge labelled ``c``, the ``x`` node's
    images are the distinct vertices ``u`` of the entries ``u -> v`` with labels ``(x, y)`` and
    edge label ``c``, and the ``y`` node's those of the entries with labels ``(y, x)``; with
    ``x == y`` both nodes map to either end, and both sets are that of the entries ``(x, x)``.
    Both orientations of each edge being entries, the ``x`` node's images are also the distinct
    neighbours of the entries from label ``y`` of type ``(x, c)``: one run of
    :attr:`GraphCodes.kind_index` (the index :func:`star_supports` reads too), whose distinct
    keys one pass counts into a (label ``y``, label ``x``, edge label ``c``) table; the
    support of ``x - y`` is the least of its cells ``(y, x, c)`` and ``(x, y, c)``, one
    host pass over the table (no Python loop over label pairs).

    Parameters
    ----------
    codes : GraphCodes
        The data graph's codes.
    min_support : int
        Leave out the patterns of smaller support (1: every pattern the graph holds).

    Returns
    -------
    dict
        ``{one-edge pattern: support}``, ordered by ``(x, y, c)``.
    """
    keys, _ = codes.kind_index
    if not len(keys):
        return {}
    xp, n, ne, nt = codes.xp, codes.graph.n, codes.num_edge_labels, codes.num_types
    nl = nt // ne
    first = xp.ones(len(keys), dtype=bool)  # the first entry of each (run, neighbour)
    first[1:] = keys[1:] != keys[:-1]
    # run y * nt + x * ne + c: its distinct neighbours are the images of x in the edge x-y
    images = codes.to_host(bincount(xp, keys[first] // n, nl * nt)).reshape(nl, nl, ne)
    support = np.minimum(images, images.transpose(1, 0, 2))  # [y, x, c]: that of x - y
    y, x, c = np.nonzero(
        (support >= max(min_support, 1))
        & (np.arange(nl)[None, :, None] <= np.arange(nl)[:, None, None])
    )
    order = np.lexsort((c, y, x))
    return {
        edge_pattern(int(x[i]), int(y[i]), int(c[i])): int(support[y[i], x[i], c[i]]) for i in order
    }


def bincount(xp: ModuleType, values: Any, length: int, weights: Any = None) -> Any:
    """``xp.bincount(values, weights, minlength=length)`` for values known to lie in
    ``0 .. length - 1`` (int64 counts, float64 sums of weights; an empty ``values`` gives
    zeros). With CuPy: an atomic add per value into zeros, without ``cupy.bincount``'s checks
    of the values (a minimum and a maximum read back: two synchronisations a call)."""
    if xp is np:
        return np.bincount(values, weights, minlength=length)
    out = xp.zeros(length, dtype=xp.int64 if weights is None else xp.float64)
    count, add = _cupy_bincount_kernels()
    if weights is None:
        count(values, out)
    else:
        add(values, weights, out)
    return out


@functools.cache
def _cupy_bincount_kernels() -> tuple[Any, Any]:
    """:func:`bincount`'s two CuPy kernels (CuPy's own atomics: int64 and float64 adds)."""
    import cupy

    return (
        cupy.ElementwiseKernel("S x", "raw U bin", "atomicAdd(&bin[x], U(1))", "nxg_bincount"),
        cupy.ElementwiseKernel(
            "S x, T w", "raw U bin", "atomicAdd(&bin[x], U(w))", "nxg_bincount_weights"
        ),
    )


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


def _expand(xp: ModuleType, first: np.ndarray, sizes: np.ndarray) -> Iterator[tuple[Any, Any]]:
    """The pairs ``(r, first[r] + i)`` for each row ``r`` and ``i < sizes[r]``, row by row, in
    chunks of at most :data:`STAR_PAIR_CHUNK_CPU` (NumPy) or :data:`STAR_PAIR_CHUNK_GPU`
    (CuPy): each chunk two ``xp`` int64 arrays, the rows and the indices (``first``,
    ``sizes``: int64 host arrays, one value per row)."""
    start = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=start[1:])
    total = int(start[-1])
    shift = xp.asarray(first - start[:-1])
    chunk = STAR_PAIR_CHUNK_CPU if xp is np else STAR_PAIR_CHUNK_GPU
    for p0 in range(0, total, chunk):
        p1 = min(total, p0 + chunk)
        # a pair's row: the last row starting at or before it (never an empty one)
        row = xp.full(p1 - p0, int(np.searchsorted(start, p0, side="right")) - 1, dtype=xp.int64)
        later = start[(start > p0) & (start < p1)] - p0
        if len(later):
            row += xp.cumsum(bincount(xp, xp.asarray(later), p1 - p0))
        yield row, xp.arange(p0, p1, dtype=xp.int64) + shift[row]


def _upload(xp: ModuleType, *arrays: np.ndarray) -> list[Any]:
    """Host int64 arrays as ``xp`` arrays, in one transfer (CuPy: one copy, the arrays views
    of it, instead of a copy and a synchronisation each)."""
    if xp is np:
        return [np.asarray(a, dtype=np.int64) for a in arrays]
    ends = np.cumsum([0, *(len(a) for a in arrays)])
    packed = xp.asarray(np.concatenate(arrays).astype(np.int64, copy=False))
    return [packed[a:b] for a, b in itertools.pairwise(ends)]


def _kind_tests(codes: GraphCodes, column: Any, ncols: int) -> Any:
    """bool ``(n, 2 * ncols)``: per vertex, whether at least one (test ``c``) and at least two
    (test ``ncols + c``) of its usable entries have a type of column ``c`` (``column``: per
    entry type its column, or -1).

    One bincount of the entries per range of vertices of at most :data:`STAR_COUNT_CHUNK`
    counts (their entries are a range of the CSR; no mask of the entries, whose size would be
    read back)."""
    xp, n, indptr = codes.xp, codes.graph.n, codes.graph.indptr
    out = xp.zeros((n, 2 * ncols), dtype=bool)
    col = column[codes.entry_types()]
    keep = codes.usable & (col >= 0)
    step = max(1, STAR_COUNT_CHUNK // ncols)
    for a in range(0, n, step):
        b = min(n, a + step)
        lo, hi = int(indptr[a]), int(indptr[b])
        size = (b - a) * ncols  # the entries left out count in one more cell, dropped
        cells = xp.where(keep[lo:hi], (codes.src[lo:hi] - a) * ncols + col[lo:hi], size)
        count = bincount(xp, cells, size + 1)[:size].reshape(b - a, ncols)
        out[a:b, :ncols] = count >= 1
        out[a:b, ncols:] = count >= 2
    return out


def star_supports(
    codes: GraphCodes, stars: Sequence[LabelledPattern]
) -> dict[LabelledPattern, int]:
    """The MNI supports of many two-edge patterns (stars) together: one sequence of array
    passes (chunked by size, never by star), whatever their number; the values of
    :func:`_star_support`, star by star.

    A two-edge star has a centre labelled ``c`` and two leaves of kinds ``ta <= tb``, a kind
    being an entry type ``leaf label * num_edge_labels + edge label``. With ``cnt[v, t]`` the
    usable entries of vertex ``v`` of type ``t``, the centre's images are the vertices ``v``
    labelled ``c`` with ``cnt[v, ta] >= 1`` and ``cnt[v, tb] >= 1`` (``cnt[v, ta] >= 2``
    when ``ta == tb``), a leaf's the distinct ``w`` of the usable entries ``v -> w`` of its
    kind from such a ``v`` (when ``ta == tb`` both leaves are one orbit, with one set), and
    the support is the least of these counts. The passes:

    1. **Tests.** ``cnt[v, t] >= 1`` and ``cnt[v, t] >= 2``, as a bool ``(n, 2 * kinds)``
       table over the stars' leaf kinds only (:func:`_kind_tests`, bincounts of the entries).
    2. **Centres.** A pair per star and vertex of its centre label having the rarer of its
       two kinds (per kind, the vertices having it: one ``flatnonzero`` of the tests of the
       vertices sorted by label, :attr:`GraphCodes.label_index`, where those of one label are
       a run) that passes when the vertex passes both tests of the star; the centre counts
       are a bincount of the passing pairs' stars.
    3. **Leaves.** A row per leaf set of each star: its centre label, its own kind and the
       other one (the own kind again when ``ta == tb``); a pair per row and usable entry
       ``v -> w`` of that label and type (a run of :attr:`GraphCodes.kind_index`, sorted by
       ``w``) that passes when ``v`` has the other kind (twice, when it is the own one). The
       passing pairs come row by row and, within a row, by ``w``: each whose ``(row, w)``
       differs from the previous one's is a distinct leaf image.

    Each pass expands its pairs from the rows' sizes (:func:`_expand`, in chunks of at most
    :data:`STAR_PAIR_CHUNK_CPU` or :data:`STAR_PAIR_CHUNK_GPU` pairs) and is made of array
    operations that NumPy and CuPy both have (gathers, comparisons, masks, bincount, cumsum,
    searchsorted): it runs where ``codes.xp`` is, with a few host transfers per call and per
    chunk, none per star. The work is the pairs: per star, the vertices of its centre label
    having its rarer leaf kind, and per leaf set, the entries of its kind from its centre
    label.

    Parameters
    ----------
    codes : GraphCodes
        The data graph's codes.
    stars : sequence of LabelledPattern
        Two-edge patterns (three nodes, one joined to the other two).

    Returns
    -------
    dict
        ``{star: MNI support}``.

    Raises
    ------
    ValueError
        A pattern is no two-edge star.
    """
    xp, n, ne, nt = codes.xp, codes.graph.n, codes.num_edge_labels, codes.num_types
    nl = nt // ne  # node label codes
    out = dict.fromkeys(stars, 0)
    # per star (on the host): its centre label and two leaf kinds; -1: a label the graph has not
    centre_label = np.full(len(out), -1, dtype=np.int64)
    kinds = np.zeros((len(out), 2), dtype=np.int64)
    for j, p in enumerate(out):
        centre = star_centre(p)
        if centre is None or p.k != 3:
            raise ValueError(f"{p} is no two-edge star")
        leaves = sorted((p.labels[a + b - centre], el) for a, b, el in p.edges)
        if p.labels[centre] < nl and all(lab < nl and el < ne for lab, el in leaves):
            centre_label[j] = p.labels[centre]
            kinds[j] = [lab * ne + el for lab, el in leaves]
    found = centre_label >= 0
    if n < 3 or not found.any():  # every star is larger than the graph, or has no image
        return out
    stars = [p for p, f in zip(out, found, strict=True) if f]
    centre_label, kinds = centre_label[found], kinds[found]
    m = len(stars)

    # 1. the leaf kinds as columns 0 .. ncols - 1; per star the tests of its two kinds (a
    # kind's column; when ta == tb, "twice": ncols more)
    used, col = np.unique(kinds, return_inverse=True)
    col = col.reshape(m, 2)
    ncols = len(used)
    column = np.full(nt, -1, dtype=np.int64)
    column[used] = np.arange(ncols)
    same = col[:, 0] == col[:, 1]
    test = col + ncols * same[:, None]
    width = 2 * ncols

    # the leaf rows: star j's first leaf set is row j, its second (the first again when
    # ta == tb) row second[j]; per row its run of entries (centre label, own kind) and the
    # test of the other kind
    other = ~same
    group = centre_label[:, None] * nt + kinds
    row_group = np.concatenate([group[:, 0], group[other, 1]])
    row_test = np.concatenate([test[:, 1], test[other, 0]])
    second = np.arange(m)
    second[other] = m + np.arange(int(other.sum()))
    nrows = len(row_group)
    # what the passes read of the stars and rows, in one transfer
    column_d, label, kind_a, kind_b, row_bounds, test_a, test_b, row_test_d, second_d = _upload(
        xp, column, centre_label, col[:, 0] * n, col[:, 1] * n,
        np.concatenate([row_group, row_group + 1]) * n, test[:, 0], test[:, 1], row_test, second,
    )  # fmt: skip
    tests = _kind_tests(codes, column_d, ncols)

    # the vertices' tests in label order; per kind column, the vertices having the kind, as
    # cells column * n + position in label order, ascending (those of one label: a run)
    keys, entry_src = codes.kind_index
    order, sorted_label = codes.label_index
    by_label = tests[order]
    having = xp.flatnonzero(by_label[:, :ncols].T.reshape(-1))

    # one transfer: the rows' runs of entries; the runs of `having` of each star's two kinds
    # within its centre label
    lo, hi = xp.searchsorted(sorted_label, label), xp.searchsorted(sorted_label, label + 1)
    cells = xp.concatenate([kind_a + lo, kind_a + hi, kind_b + lo, kind_b + hi])
    ends = [xp.searchsorted(keys, row_bounds), xp.searchsorted(having, cells)]
    bounds = codes.to_host(xp.concatenate(ends))
    row_lo, row_hi = bounds[:nrows], bounds[nrows : 2 * nrows]
    a_lo, a_hi, b_lo, b_hi = bounds[2 * nrows :].reshape(4, m)
    rarer = a_hi - a_lo <= b_hi - b_lo

    # 2. centres: (star, vertex of its centre label having its rarer kind) pairs that pass
    # both tests of the star
    by_label, tests = by_label.reshape(-1), tests.reshape(-1)  # at vertex * width + test
    centres = xp.zeros(m, dtype=xp.float64)  # (counts by float weights: exact below 2**53)
    first, sizes = np.where(rarer, a_lo, b_lo), np.where(rarer, a_hi - a_lo, b_hi - b_lo)
    for j, i in _expand(xp, first, sizes):
        cell = (having[i] % n) * width
        keep = by_label[cell + test_a[j]] & by_label[cell + test_b[j]]
        centres += bincount(xp, j, m, keep.astype(xp.float64))

    # 3. leaves: (row, entry v -> w of its run) pairs where v passes the other kind's test; a
    # passing pair is a new image when its (row, key) differs from the previous passing pair's
    leaves = xp.zeros(nrows, dtype=xp.float64)
    last_row = last_key = xp.full(1, -1, dtype=xp.int64)  # the last passing pair's
    for r, i in _expand(xp, row_lo, row_hi - row_lo):
        keep = xp.flatnonzero(tests[entry_src[i] * width + row_test_d[r]])
        r, key = r[keep], keys[i[keep]]
        if not len(r):
            continue
        new = (r != xp.concatenate([last_row, r[:-1]])) | (
            key != xp.concatenate([last_key, key[:-1]])
        )
        leaves += bincount(xp, r, nrows, new.astype(xp.float64))
        last_row, last_key = r[-1:], key[-1:]

    support = xp.minimum(xp.minimum(centres, leaves[:m]), leaves[second_d])
    out.update(zip(stars, codes.to_host(support).astype(np.int64).tolist(), strict=True))
    return out


def pattern_support(
    codes: GraphCodes,
    p: LabelledPattern,
    min_support: int,
    *,
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

        found = orbit_images(
            codes.host, p, eligible, groups, min_support, exact, images=False,
            resident=codes.xp is not np,  # host codes under the CUDA engine: out of core
        )  # fmt: skip
    else:
        from ..engines.cpu.fsm_domains import orbit_images

        found = orbit_images(codes.host, p, eligible, groups, min_support, exact)
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


def _two_edge_stars(neighbours: dict[int, list[tuple[int, int]]]) -> list[LabelledPattern]:
    """Level 2's candidates, sorted: per label, the star centred there of each pair of its
    frequent (neighbour label, edge label) kinds (:func:`_neighbour_labels`), alike or not.

    Exactly what growing the frequent edges by one (:func:`one_edge_larger`) and pruning
    (:func:`one_edge_smaller`) give, as every two-edge pattern is such a star and its two
    one-edge sub-patterns are frequent; one canonical form per candidate."""
    return sorted({
        canonical((c, ya, yb), ((0, 1, ea), (0, 2, eb)))
        for c, kinds in neighbours.items()
        for (ya, ea), (yb, eb) in itertools.combinations_with_replacement(kinds, 2)
    })  # fmt: skip


def _supports(
    graph: StaticGraph,
    codes: GraphCodes,
    candidates: list[LabelledPattern],
    min_support: int,
    engine: str,
    exact: bool,
    slots: Sequence[int] | None,
    bar: Any,
) -> list[int]:
    """:func:`pattern_support` of each candidate (a level of three edges or more), in this
    thread, or with ``slots`` one worker thread per device slot taking candidates from a shared
    queue (each device searches on its own copy of the graph's codes; Ctrl-C and errors stop
    every worker, ``executors/devices.py: run_tasks``)."""
    out = [0] * len(candidates)
    if not slots or len(candidates) < 2:
        for i, c in enumerate(candidates):
            out[i] = pattern_support(codes, c, min_support, engine=engine, exact=exact)
            if bar is not None:
                bar.task_done(i)
        return out
    from .executors.devices import device_context, run_tasks, settle

    module = None
    if engine == "cuda":
        from ..engines.cuda import fsm_domains as module

    def work(i: int) -> int:
        # host codes (CPU engine, or out of core: decided once, by graph_codes) are shared by
        # the workers; in memory, each worker's device has its own copy
        here = codes if codes.xp is np else _device_codes(graph, codes.xp)
        return pattern_support(here, candidates[i], min_support, engine=engine, exact=exact)

    def add(i: int, value: int) -> bool:
        out[i] = value
        if bar is not None:
            bar.task_done(i)
        return False

    settle()
    stats = run_tasks(slots, len(candidates), work, add, context=device_context(module))
    last_run["busy_seconds"] = stats.get("busy_seconds")
    return out


def mine_frequent(
    graph: StaticGraph,
    min_support: int,
    max_edges: int,
    *,
    engine: str = "cpu",
    progress: bool = False,
    exact: bool = True,
    slots: Sequence[int] | None = None,
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
    slots : sequence of int, optional
        Device ids (``devices=``, resolved): the candidates of three edges or more are
        searched on all of them (:func:`_supports`); levels 1 and 2 run on the current device.

    Returns
    -------
    tuple
        ``(codes, found)``: the graph's :class:`GraphCodes` (their label values name the
        patterns' codes) and ``(pattern, support)`` pairs ordered by edges, support
        descending, then pattern.
    """
    codes = graph_codes(graph, engine)
    last_run.clear()
    last_run.update(engine=engine, out_of_core=engine == "cuda" and codes.xp is np, levels=1)
    last_run["slots"] = list(slots) if slots else None
    level = edge_supports(codes, min_support)
    found: list[tuple[LabelledPattern, int]] = list(level.items())
    neighbours = _neighbour_labels(level)
    for m in range(2, max_edges + 1):
        if m == 2:  # two-edge stars, made directly
            candidates = _two_edge_stars(neighbours)
        else:
            grown: set[LabelledPattern] = set()
            for p in level:
                grown |= one_edge_larger(p, neighbours)
            candidates = sorted(c for c in grown if all(q in level for q in one_edge_smaller(c)))
        bar = progress_bar(len(candidates), f"frequent subgraphs, {m} edges") if progress else None
        nxt: dict[LabelledPattern, int] = {}
        try:
            # level 2 counted in one go (star_supports); larger levels one candidate at a time
            if m == 2:
                known = star_supports(codes, candidates)
                supports = [known[c] for c in candidates]
                for i in range(len(candidates) if bar is not None else 0):
                    bar.task_done(i)
            else:
                supports = _supports(
                    graph, codes, candidates, min_support, engine, exact, slots, bar
                )
            nxt = {c: s for c, s in zip(candidates, supports, strict=True) if s >= min_support}
        finally:
            if bar is not None:
                bar.close()
        found.extend(nxt.items())
        last_run["levels"] = m
        level = nxt
        if not level:
            break
    found.sort(key=lambda ps: (ps[0].num_edges, -ps[1], ps[0]))
    return codes, found
