"""The static graph container: CSR arrays, a node-key <-> dense-id map, label codes.

One layout serves directed and undirected graphs. Each vertex has one sorted list of
*neighbours* (the union of out- and in-neighbours, self-loops kept apart), and each entry
carries a direction code::

    dircode[e] & 1  -> the edge u -> v exists
    dircode[e] & 2  -> the edge v -> u exists

An undirected graph has code 3 on every entry. Matching a pattern edge then means
``dircode & required == required`` (monomorphism) or ``dircode == required`` (induced), the same
test for both kinds of graph, so the plan and the engines never branch on directedness.
Edge labels are stored per entry for both directions (``out_label`` for u->v, ``in_label`` for
v->u); node labels and self-loops per vertex. Labels are small int codes into a vocabulary
kept here, so patterns are encoded with the same codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from ..errors import InputError, UnsupportedGraphError
from . import graph_base
from .device import host_fallback, is_device_frame, static_from_device
from .frames import frame_columns, is_frame
from .graph_base import IMPOSSIBLE_LABEL, GraphBase
from .labels import (
    NO_DEFAULT,
    UNLABELLED,
    EncodedLabels,
    LabelSpec,
    Unmatchable,
    encode_labels,
    label_attrs,
)
from .options import as_flag, as_limit
from .temporal_graph import _dense_ids, _to_host

__all__ = [
    "StaticGraph",
    "LabelSpec",
    "ABSENT_LABEL",
    "IMPOSSIBLE_LABEL",
    "from_networkx",
    "from_edgelist",
    "from_arrays",
    "as_static_graph",
    "NO_DEFAULT",
    "label_attrs",
    "encode_labels",
    "EncodedLabels",
    "UNLABELLED",
    "build_static_graph",
]

#: Label code meaning "no label" (labels not used, or no edge in that direction).
ABSENT_LABEL = -1


@dataclass(eq=False)
class StaticGraph(GraphBase):
    """A simple graph (directed or not) in CSR form with label codes.

    The key map, label encoding, the cache of derived values (``derived``, ``has_derived``,
    ``forget_derived``) and the store of device data (``device_data``, ``has_device_data``,
    ``forget_device_data``, ``built_on_device``) come from
    :class:`~nx_gpumine.inputs.graph_base.GraphBase`.

    Attributes
    ----------
    directed : bool
        Whether edges have a direction.
    indptr : numpy.ndarray
        int64, length ``n + 1``: neighbour list bounds per dense vertex id.
    indices : numpy.ndarray
        int32: neighbour ids, sorted ascending within each vertex, no self-loops.
    dircode : numpy.ndarray
        uint8 per entry: bit 0 = edge u->v, bit 1 = edge v->u (3 for undirected graphs).
    loop : numpy.ndarray
        uint8 per vertex: 1 if the vertex has a self-loop.
    node_label : numpy.ndarray or None
        int32 label code per vertex.
    out_label, in_label : numpy.ndarray or None
        int32 label code of u->v and of v->u per entry (``ABSENT_LABEL`` where no such edge).
    loop_label : numpy.ndarray or None
        int32 label code of each vertex's self-loop (``ABSENT_LABEL`` if none).
    keys : list
        Dense id -> the user's node key.
    node_label_spec, edge_label_spec : LabelSpec or None
        How labels were read.
    node_vocab, edge_vocab : dict
        Label value -> code.
    """

    __networkx_backend__ = "gpumine"  # NetworkX dispatches calls given a StaticGraph here
    directed: bool
    indptr: np.ndarray
    indices: np.ndarray
    dircode: np.ndarray
    loop: np.ndarray
    keys: list
    node_label: np.ndarray | None = None
    out_label: np.ndarray | None = None
    in_label: np.ndarray | None = None
    loop_label: np.ndarray | None = None
    node_label_spec: LabelSpec | None = None
    edge_label_spec: LabelSpec | None = None
    node_vocab: dict = field(default_factory=dict)
    edge_vocab: dict = field(default_factory=dict)
    _key_to_id: dict | None = field(default=None, repr=False)
    _device_cache: dict = field(default_factory=dict, repr=False)
    _derived: dict = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ basic facts
    @property
    def n(self) -> int:
        """Number of vertices."""
        return len(self.indptr) - 1

    @property
    def num_edges(self) -> int:
        """Number of edges (each undirected edge once, self-loops included)."""
        loops = int(self.loop.sum())
        if self.directed:
            codes = self.dircode
            return int((codes & 1).astype(bool).sum()) + loops
        return len(self.indices) // 2 + loops

    @property
    def degree(self) -> np.ndarray:
        """Number of distinct neighbours per vertex (union of in and out), int64."""
        return np.diff(self.indptr)

    @property
    def max_degree(self) -> int:
        """Largest neighbour-list length (computed once, kept with the graph)."""
        return self.derived(("max_degree",), lambda: int(self.degree.max()) if self.n else 0)

    def is_directed(self) -> bool:
        """NetworkX-style directedness query."""
        return self.directed

    def is_multigraph(self) -> bool:
        """Always False: multigraphs are refused at ingestion."""
        return False

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        labs = []
        if self.node_label_spec is not None:
            labs.append(f"node labels {self.node_label_spec.attr!r}")
        if self.edge_label_spec is not None:
            labs.append(f"edge labels {self.edge_label_spec.attr!r}")
        lab = (", " + ", ".join(labs)) if labs else ""
        return f"StaticGraph({kind}, {self.n} nodes, {self.num_edges} edges{lab})"

    # ------------------------------------------------------------------ device copy
    def device_arrays(self) -> dict:
        """The CSR and label arrays as CuPy arrays on the current device, uploaded once per
        device and cached on the graph (keyed by device id)."""
        import cupy as cp

        def upload() -> dict:
            arrs = {
                "indptr": cp.asarray(self.indptr),
                "indices": cp.asarray(self.indices),
                "dircode": cp.asarray(self.dircode),
                "loop": cp.asarray(self.loop),
            }
            for name in ("node_label", "out_label", "in_label", "loop_label"):
                a = getattr(self, name)
                if a is not None:
                    arrs[name] = cp.asarray(a)
            return arrs

        return self.device_data(("arrays", cp.cuda.runtime.getDevice()), upload)

    # ------------------------------------------------------------------ export
    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """All edges as (src, dst) dense-id arrays (undirected: each once with src <= dst)."""
        src = np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.indptr))
        dst = self.indices.astype(np.int64)
        keep = (self.dircode & 1).astype(bool) if self.directed else src < dst
        loops = np.flatnonzero(self.loop)
        return (np.concatenate([src[keep], loops]), np.concatenate([dst[keep], loops]))

    def to_networkx(self) -> nx.Graph:
        """Convert back to a NetworkX Graph/DiGraph (labels restored under their attribute)."""
        G = nx.DiGraph() if self.directed else nx.Graph()
        inv_node = {c: v for v, c in self.node_vocab.items()}
        inv_edge = {c: v for v, c in self.edge_vocab.items()}
        for i, k in enumerate(self.keys):
            attrs = {}
            if self.node_label is not None and self.node_label_spec is not None:
                attrs.update(label_attrs(self.node_label_spec, inv_node[int(self.node_label[i])]))
            G.add_node(k, **attrs)
        src, dst = self.edges()
        lab = self.edge_label_codes(src, dst)
        for j, (u, v) in enumerate(zip(src.tolist(), dst.tolist(), strict=True)):
            attrs = {}
            if lab is not None and self.edge_label_spec is not None:
                attrs.update(label_attrs(self.edge_label_spec, inv_edge[int(lab[j])]))
            G.add_edge(self.keys[u], self.keys[v], **attrs)
        return G

    def edge_label_codes(self, src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
        """Label codes of the edges ``src[j] -> dst[j]`` (dense ids, each an existing edge).

        Parameters
        ----------
        src, dst : numpy.ndarray
            Edge endpoints, e.g. as :meth:`edges` returns them (self-loops allowed).

        Returns
        -------
        numpy.ndarray or None
            int32 code per edge (the self-loop label for ``u == v``), or None when the graph has
            no edge labels.
        """
        if self.out_label is None:
            return None
        out = np.empty(len(src), dtype=np.int32)
        for j, (u, v) in enumerate(zip(src.tolist(), dst.tolist(), strict=True)):
            if u == v:
                out[j] = self.loop_label[u]
            else:
                lo, hi = self.indptr[u], self.indptr[u + 1]
                pos = lo + np.searchsorted(self.indices[lo:hi], v)
                out[j] = self.out_label[pos]
        return out


# ====================================================================== building


def build_static_graph(
    n: int,
    src: np.ndarray,
    dst: np.ndarray,
    directed: bool,
    keys: list,
    *,
    node_labels: EncodedLabels = UNLABELLED,
    edge_labels: EncodedLabels = UNLABELLED,
    duplicates: str = "raise",
    where: str = "input",
    key_to_id: dict | None = None,
) -> StaticGraph:
    """Build the union-CSR container from dense-id edge arrays (the one place CSR is made).

    Parameters
    ----------
    n : int
        Number of vertices.
    src, dst : numpy.ndarray
        Edge endpoints as dense ids (undirected edges once, self-loops allowed).
    directed : bool
        Whether edges have a direction.
    keys : list
        Node keys; dense id ``i`` is ``keys[i]``.
    node_labels, edge_labels : EncodedLabels
        Label codes per vertex / per edge (aligned with ``src``), their spec and vocabulary
        (default: unlabelled).
    duplicates : {"raise", "drop"}
        A repeated edge or self-loop is an error, or its first occurrence is kept.
    where : str
        What the edges came from, for error messages.
    key_to_id : dict, optional
        The node key -> dense id map, if already built (otherwise built on first use).

    Returns
    -------
    StaticGraph
        The union CSR of the edges, with the label codes given.

    Raises
    ------
    InputError
        Too many vertices for int32 ids, or a bad ``duplicates``.
    UnsupportedGraphError
        A repeated edge or self-loop with ``duplicates="raise"``.
    """
    src = np.asarray(src)
    dst = np.asarray(dst)
    if not src.dtype == dst.dtype == np.int32:  # int32 ids are used as they are
        src, dst = src.astype(np.int64, copy=False), dst.astype(np.int64, copy=False)
    if n >= 2**31 - 1:
        raise InputError(f"{where}: {n} vertices exceed the int32 id range")
    if duplicates not in ("raise", "drop"):
        raise InputError(f"duplicates must be 'raise' or 'drop', got {duplicates!r}")
    codes = edge_labels.codes
    labels = None if codes is None else np.asarray(codes, dtype=np.int32)

    is_loop = src == dst
    loop = np.zeros(n, dtype=np.uint8)
    loop_label = None if labels is None else np.full(n, ABSENT_LABEL, dtype=np.int32)
    lv = src[is_loop]
    if duplicates == "raise" and len(lv):
        repeated = np.flatnonzero(np.bincount(lv, minlength=n) > 1)
        if len(repeated):
            u = int(repeated[0])
            raise UnsupportedGraphError(
                f"{where}: self-loop on node {keys[u]!r} appears more than once; the graph must be"
                " simple (pass duplicates='drop' to keep the first)"
            )
    loop[lv] = 1
    if loop_label is not None:
        # first occurrence wins on duplicates='drop'
        loop_label[lv[::-1]] = labels[is_loop][::-1]

    # each edge u->v contributes entry (u, v, code 1) and (v, u, code 2); undirected: code 3 both;
    # an entry is one sortable key (u * n + v) * 4 + code; self-loops sort last and are cut off
    key = _entry_keys(src, dst, n, directed, is_loop if len(lv) else None)
    cut = len(key) - 2 * len(lv)
    del is_loop, lv
    lab2 = None
    linear = len(key) >= graph_base.LINEAR_SORT_MIN  # radix sorts, O(m) (inputs/csr_order.py)
    if linear:
        from .csr_order import radix_argsort, radix_sort
    if labels is None:
        # equal keys are equal entries: no order to keep
        key = radix_sort(key)[:cut] if linear else np.sort(key)[:cut]
    else:
        # ties in input order: first label wins
        order = (radix_argsort(key) if linear else np.argsort(key, kind="stable"))[:cut]
        key = key[order]
        lab2 = np.concatenate([labels, labels])[order]
        del order
    # a duplicate edge is the same (u, v) with the same direction bit twice: the same key
    new = np.empty(len(key), dtype=bool)
    new[:1] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    if not new.all():
        if duplicates == "raise":
            pair = int(key[int(np.flatnonzero(~new)[0])]) >> 2
            u, v = keys[pair // n], keys[pair % n]
            kind = "edge" if directed else "undirected edge"
            raise UnsupportedGraphError(
                f"{where}: {kind} ({u!r}, {v!r}) appears more than once; multigraphs are not"
                " supported (pass duplicates='drop' to keep the first occurrence)"
            )
        key = key[new]
        if lab2 is not None:
            lab2 = lab2[new]
    del new
    code = key.astype(np.uint8)
    code &= 3
    key >>= 2  # the pair u * n + v
    # merge the out and in entries of one pair (codes 1 then 2, adjacent) into one union entry
    first = np.empty(len(key), dtype=bool)
    first[:1] = True
    np.not_equal(key[1:], key[:-1], out=first[1:])
    if first.all():  # always so for undirected graphs
        pair, dircode, first_lab = key, code, lab2
        second = np.zeros(0, dtype=np.int64)
    else:
        pair, dircode = key[first], code[first]
        first_lab = None if lab2 is None else lab2[first]
        second = np.flatnonzero(~first)  # an in entry whose pair's out entry is just before
    del key, first
    slot = second - np.arange(1, len(second) + 1)  # the union entry of each such in entry
    out_label = in_label = None
    if lab2 is not None:  # each union entry's first entry, then the in entries merged into it
        out_label = np.where(dircode & 1, first_lab, ABSENT_LABEL).astype(np.int32, copy=False)
        in_label = np.where(dircode & 2, first_lab, ABSENT_LABEL).astype(np.int32, copy=False)
        in_label[slot] = lab2[second]
        del first_lab, lab2
    dircode[slot] |= code[second]
    del second, slot, code
    # pairs are sorted by owner u: vertex w's entries start at the first pair >= w * n
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.searchsorted(pair, np.arange(1, n + 1, dtype=np.uint64) * np.uint64(n))
    np.remainder(pair, np.uint64(max(n, 1)), out=pair)
    indices = pair.astype(np.int32)
    del pair
    return StaticGraph(
        directed=directed,
        indptr=indptr,
        indices=indices,
        dircode=dircode,
        loop=loop,
        keys=keys,
        node_label=node_labels.codes,
        out_label=out_label,
        in_label=in_label,
        loop_label=loop_label,
        node_label_spec=node_labels.spec,
        edge_label_spec=edge_labels.spec,
        node_vocab=node_labels.vocab or {},
        edge_vocab=edge_labels.vocab or {},
        _key_to_id=key_to_id,
    )


def _entry_keys(
    src: np.ndarray, dst: np.ndarray, n: int, directed: bool, is_loop: np.ndarray | None
) -> np.ndarray:
    """The union-CSR entries of edges ``src[j] -> dst[j]`` as sortable keys.

    Edge ``u -> v`` gives entry ``(u, v)`` with direction code 1 and entry ``(v, u)`` with code
    2 (code 3 for both when undirected), keyed ``(u * n + v) * 4 + code``: sorting the keys
    sorts the entries by ``(u, v, code)``, as a lexsort of the three would (for ``n < 2**31``
    a key fits in uint64, below the largest uint64, which self-loops get so that they sort
    last). One uint64 array of ``2 * len(src)`` keys is the only allocation.

    Parameters
    ----------
    src, dst : numpy.ndarray
        int32 or int64 dense endpoint ids in ``[0, n)``.
    n : int
        Number of vertices.
    directed : bool
        Whether edges have a direction.
    is_loop : numpy.ndarray or None
        bool per edge: it is a self-loop (None: there are none).

    Returns
    -------
    numpy.ndarray
        uint64 keys: the out entries of the edges in order, then their in entries.
    """
    m = len(src)
    fwd, bwd = (1, 2) if directed else (3, 3)
    key = np.empty(2 * m, dtype=np.uint64)
    for half, a, b, c in ((key[:m], src, dst, fwd), (key[m:], dst, src, bwd)):
        # ids are >= 0: computed in uint64 from int32 or int64 ids without a copy
        np.multiply(a, np.uint64(n), out=half, dtype=np.uint64, casting="unsafe")
        np.add(half, b, out=half, dtype=np.uint64, casting="unsafe")
        half <<= np.uint64(2)
        half |= np.uint64(c)
        if is_loop is not None:
            half[is_loop] = np.iinfo(np.uint64).max
    return key


def from_networkx(
    G: nx.Graph,
    *,
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
    cache: bool = True,
) -> StaticGraph:
    """Convert a NetworkX ``Graph`` or ``DiGraph`` into a :class:`StaticGraph`.

    Parameters
    ----------
    G : networkx.Graph or networkx.DiGraph
        A simple graph; self-loops are kept. Multigraphs are refused.
    node_label, edge_label : str or list of str, optional
        Attribute(s) whose values are the node / edge labels.
    node_label_default, edge_label_default : optional
        Value used where the attribute is missing; without one a missing value is an error.
    cache : bool
        Reuse and store the conversion in ``G.__networkx_cache__["nx_gpumine"]`` when
        ``nx.config.cache_converted_graphs`` is on (NetworkX's switch). NetworkX clears that
        cache on structural mutation; label values changed in place are detected on reuse (one
        pass over the label attributes), so a cached conversion is never stale.

    Returns
    -------
    StaticGraph

    Raises
    ------
    UnsupportedGraphError
        If ``G`` is a multigraph or not a NetworkX graph.
    InputError
        If a label attribute is missing and no default was given.
    """
    if isinstance(G, StaticGraph):
        return G
    if not isinstance(G, nx.Graph):
        raise UnsupportedGraphError(f"expected a networkx Graph or DiGraph, got {type(G).__name__}")
    if G.is_multigraph():
        raise UnsupportedGraphError(
            f"{type(G).__name__} is a multigraph; subgraph matching needs a simple Graph or DiGraph"
            " (convert with nx.Graph(G) / nx.DiGraph(G), or use the temporal API for edge streams)"
        )
    nspec = LabelSpec.of(node_label, node_label_default)
    espec = LabelSpec.of(edge_label, edge_label_default)
    store = _cache_store(G) if as_flag(cache, "cache") else None
    ckey = (nspec, espec)
    if store is not None:
        try:
            hit = store.get(ckey)
        except TypeError:  # unhashable default
            store, hit = None, None
        if hit is not None and _cache_entry_valid(G, hit, nspec, espec):
            return hit.graph
    keys = list(G)
    key_to_id = {k: i for i, k in enumerate(keys)}
    m = G.number_of_edges()
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    encoded_nodes = encoded_edges = UNLABELLED
    if nspec is not None:
        nvals = [nspec.value(d, f"node {k!r}") for k, d in G.nodes(data=True)]
        encoded_nodes = EncodedLabels.encode(nspec, nvals)
    elabels = [] if espec is not None else None
    for j, (u, v, d) in enumerate(G.edges(data=True)):
        src[j] = key_to_id[u]
        dst[j] = key_to_id[v]
        if elabels is not None:
            elabels.append(espec.value(d, f"edge ({u!r}, {v!r})"))
    if elabels is not None:
        encoded_edges = EncodedLabels.encode(espec, elabels)
    g = build_static_graph(
        len(keys),
        src,
        dst,
        G.is_directed(),
        keys,
        node_labels=encoded_nodes,
        edge_labels=encoded_edges,
        where=type(G).__name__,
        key_to_id=key_to_id,
    )
    if store is not None:
        store[ckey] = _CacheEntry(g, len(keys), m, encoded_nodes.codes, encoded_edges.codes)
    return g


#: Key of nx_gpumine's conversions inside ``G.__networkx_cache__`` (NetworkX clears the whole
#: cache on structural mutation; ``nx.config.cache_converted_graphs`` turns caching off).
CACHE_KEY = "nx_gpumine"


@dataclass(frozen=True, eq=False)
class _CacheEntry:
    """A cached conversion and what it was built from (to detect changed attributes)."""

    graph: StaticGraph
    n: int
    m: int
    node_codes: np.ndarray | None
    edge_codes: np.ndarray | None


def _cache_store(G: nx.Graph) -> dict | None:
    """nx_gpumine's part of ``G.__networkx_cache__``, or None when caching is off."""
    if not nx.config.cache_converted_graphs:
        return None
    cache = getattr(G, "__networkx_cache__", None)
    if not isinstance(cache, dict):
        return None
    return cache.setdefault(CACHE_KEY, {})


def _cache_entry_valid(
    G: nx.Graph, entry: _CacheEntry, nspec: LabelSpec | None, espec: LabelSpec | None
) -> bool:
    """True if ``entry`` still describes ``G``.

    NetworkX clears ``__networkx_cache__`` when nodes or edges are added or removed through its
    methods, but not when an attribute dict is changed in place (``G.nodes[v]["color"] = ...``).
    So sizes are compared, and the label values a labelled conversion used are read again and
    encoded with the cached vocabulary: any value that differs (or is new) makes the entry
    stale. This pass reads each attribute once, without rebuilding the CSR arrays.
    """
    if len(G) != entry.n or G.number_of_edges() != entry.m:
        return False
    g = entry.graph
    try:
        if nspec is not None:
            same = _SameCode(g.node_vocab)
            for i, (k, d) in enumerate(G.nodes(data=True)):
                if not same(nspec.value(d, f"node {k!r}"), entry.node_codes[i]):
                    return False
        if espec is not None:
            same = _SameCode(g.edge_vocab)
            for j, (u, v, d) in enumerate(G.edges(data=True)):
                if not same(espec.value(d, f"edge ({u!r}, {v!r})"), entry.edge_codes[j]):
                    return False
    except InputError:
        return False  # a label went missing: convert again (which raises the error)
    return True


class _SameCode:
    """Whether a label value read again still has the code a cached conversion gave it.

    A value matching nothing (an :class:`~nx_gpumine.inputs.labels.Unmatchable`, new at each
    read) had a code of its own: it still does if that code was one of those.
    """

    def __init__(self, vocab: dict) -> None:
        self.vocab = vocab
        self.unmatchable: set | None = None

    def __call__(self, value: Any, code: int) -> bool:
        if type(value) is Unmatchable:
            if self.unmatchable is None:
                self.unmatchable = {c for k, c in self.vocab.items() if type(k) is Unmatchable}
            return int(code) in self.unmatchable
        return self.vocab.get(value, -1) == code


def from_arrays(
    src: Any,
    dst: Any,
    *,
    directed: bool = False,
    num_nodes: int | None = None,
    nodes: Sequence | None = None,
    node_labels: Any = None,
    edge_labels: Any = None,
    duplicates: str = "raise",
) -> StaticGraph:
    """Build a graph from two arrays of edge endpoints (numpy, lists, or CuPy).

    Parameters
    ----------
    src, dst : array-like
        Edge endpoints. Integer arrays with ``num_nodes`` are used as dense ids directly;
        otherwise keys are mapped to dense ids (sorted order, or the order of ``nodes``).
    directed : bool
        Whether edges are directed.
    num_nodes : int, optional
        With integer endpoints in ``[0, num_nodes)``: keep ids as they are (isolated ids kept).
    nodes : sequence, optional
        All node keys (gives id order and isolated nodes).
    node_labels : array-like or mapping, optional
        Per node label (array aligned with ids / ``nodes``, or a mapping key -> label).
    edge_labels : array-like, optional
        Per edge label, aligned with ``src``.
    duplicates : {"raise", "drop"}
        What to do with repeated edges.

    Returns
    -------
    StaticGraph

    Raises
    ------
    QueryError
        ``directed`` is not a bool, or ``num_nodes`` not a non-negative integer.
    InputError
        Endpoint arrays of different shapes, endpoints outside ``[0, num_nodes)``, or labels
        that do not fit the nodes / edges.
    """
    directed = as_flag(directed, "directed")
    num_nodes = as_limit(num_nodes, "num_nodes")
    src = _to_host(src)
    dst = _to_host(dst)
    if src.shape != dst.shape or src.ndim != 1:
        raise InputError(
            f"src and dst must be 1-D of equal length, got {src.shape} and {dst.shape}"
        )
    if num_nodes is not None:
        if src.dtype.kind not in "iu" or dst.dtype.kind not in "iu":
            raise InputError("num_nodes needs integer endpoint arrays")
        if len(src) and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= num_nodes):
            raise InputError(f"edge endpoints must lie in [0, {num_nodes})")
        keys = list(range(num_nodes))
        s, d = src.astype(np.int64), dst.astype(np.int64)
    else:
        s, d, keys = _dense_ids(src, dst, nodes)
    encoded_nodes = encoded_edges = UNLABELLED
    if node_labels is not None:
        if isinstance(node_labels, Mapping):
            try:
                vals = [node_labels[k] for k in keys]
            except KeyError as exc:
                raise InputError(f"node_labels has no label for node {exc.args[0]!r}") from exc
        else:
            vals = _to_host(node_labels).tolist()
            if len(vals) != len(keys):
                raise InputError(f"node_labels has {len(vals)} entries for {len(keys)} nodes")
        encoded_nodes = EncodedLabels.encode(LabelSpec("label"), vals)
    if edge_labels is not None:
        vals = _to_host(edge_labels).tolist()
        if len(vals) != len(s):
            raise InputError(f"edge_labels has {len(vals)} entries for {len(s)} edges")
        encoded_edges = EncodedLabels.encode(LabelSpec("label"), vals)
    return build_static_graph(
        len(keys),
        s,
        d,
        directed,
        keys,
        node_labels=encoded_nodes,
        edge_labels=encoded_edges,
        duplicates=duplicates,
        where="edge arrays",
    )


def from_edgelist(
    frame: Any,
    *,
    source: str = "source",
    target: str = "target",
    edge_label: str | None = None,
    directed: bool = False,
    nodes: Any = None,
    node_key: str = "node",
    node_label: str | None = None,
    duplicates: str = "raise",
) -> StaticGraph:
    """Build a graph from an edge frame (pandas, polars, pyarrow, cuDF... via narwhals).

    Parameters
    ----------
    frame : dataframe
        One row per edge. A cuDF frame (or a mapping of column name -> CuPy / device array)
        with numeric endpoints and no labels is built on the GPU and stays there (see
        :mod:`nx_gpumine.inputs.device`).
    source, target : str
        Endpoint column names.
    edge_label : str, optional
        Column holding edge labels.
    directed : bool
        Whether edges are directed.
    nodes : dataframe, optional
        Node frame with a ``node_key`` column (and ``node_label`` column); gives isolated nodes
        and node labels.
    node_key, node_label : str
        Columns of ``nodes``.
    duplicates : {"raise", "drop"}
        What to do with repeated edges.

    Returns
    -------
    StaticGraph
        Node keys are the endpoint values (and ``nodes``' keys); built on the device for
        device columns as above.

    Raises
    ------
    InputError
        If a column is missing or holds nulls.
    QueryError
        ``directed`` is not a bool.
    """
    directed = as_flag(directed, "directed")
    if is_device_frame(frame):
        if edge_label is None and nodes is None and node_label is None:
            g = static_from_device(
                frame,
                StaticGraph,
                source=source,
                target=target,
                directed=directed,
                duplicates=duplicates,
            )
            if g is not None:  # built on the device (cuDF / CuPy numeric columns)
                return g
        frame = host_fallback(frame)
    s, d, lab = frame_columns(frame, [source, target, edge_label])
    node_list = node_labels = None
    if nodes is not None:
        keys, nl = frame_columns(nodes, [node_key, node_label], what="node frame")
        node_list = keys.tolist()
        if nl is not None:
            node_labels = dict(zip(node_list, nl.tolist(), strict=True))
    elif node_label is not None:
        raise InputError("node_label needs a node frame: pass nodes=<frame>")
    g = from_arrays(
        s,
        d,
        directed=directed,
        nodes=node_list,
        node_labels=node_labels,
        edge_labels=lab,
        duplicates=duplicates,
    )
    if node_label is not None:
        g.node_label_spec = LabelSpec(node_label)
    if edge_label is not None:
        g.edge_label_spec = LabelSpec(edge_label)
    return g


def as_static_graph(
    G: Any,
    *,
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
    source: str = "source",
    target: str = "target",
    directed: bool | None = None,
) -> StaticGraph:
    """Accept any supported input (StaticGraph, NetworkX graph, edge frame) as a StaticGraph.

    Raises
    ------
    InputError
        If a StaticGraph was built with other labels than the ones requested.
    UnsupportedGraphError
        For unsupported objects.
    """
    if isinstance(G, StaticGraph):
        want_n = LabelSpec.of(node_label, node_label_default)
        want_e = LabelSpec.of(edge_label, edge_label_default)
        _check_converted_labels(G.node_label_spec, want_n, "node")
        _check_converted_labels(G.edge_label_spec, want_e, "edge")
        return G
    if isinstance(G, nx.Graph):
        return from_networkx(
            G,
            node_label=node_label,
            edge_label=edge_label,
            node_label_default=node_label_default,
            edge_label_default=edge_label_default,
        )
    if is_frame(G) or is_device_frame(G):
        if node_label is not None:
            raise InputError("node labels of an edge frame come from from_edgelist(nodes=...)")
        directed = False if directed is None else as_flag(directed, "directed")
        return from_edgelist(
            G, source=source, target=target, edge_label=edge_label, directed=directed
        )
    # backend graph objects of our own NetworkX backend wrap a StaticGraph
    inner = getattr(G, "_gpumine_graph", None)
    if isinstance(inner, StaticGraph):
        return inner
    raise UnsupportedGraphError(
        f"cannot use {type(G).__name__} as a graph: pass a networkx Graph/DiGraph, an edge frame,"
        " or a StaticGraph"
    )


def _check_converted_labels(have: LabelSpec | None, want: LabelSpec | None, kind: str) -> None:
    """Refuse a StaticGraph whose ``kind`` ("node" or "edge") labels, read as ``have``, are not
    the attribute ``want`` names (nothing to check when ``want`` is None)."""
    if want is not None and (have is None or have.attr != want.attr):
        raise InputError(
            f"graph was converted without {kind} labels {want.attr!r}; convert it with "
            f"{kind}_label={want.attr!r}"
        )
