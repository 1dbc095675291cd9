"""Temporal graphs: directed timestamped edges ``(u, v, t)`` sorted by time once.

Layout (see ``docs/temporal.md``): edges sorted *stably* by time, so an edge id is the position
after that sort and equal times keep input order; ``rows[e]`` is the input row of edge ``e``.
Per vertex, the out- and in-lists hold edge ids in increasing id (= time, ties in input order),
so a time window inside a list is a binary search. ``next_id[e]`` is the first edge id whose time
is strictly greater than ``time[e]`` (the strict-order lower bound in O(1)).

Self-loops ``u -> u`` are kept (ids stay aligned with input rows) but never match: motif nodes
map injectively, so a motif edge ``a -> b`` (``a != b``) or an anti-edge never maps onto a loop.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..errors import InputError, UnsupportedGraphError
from . import graph_base
from .device import host_fallback, is_device_frame, temporal_from_device
from .frames import (
    frame_columns,
    frame_time_zone,
    is_frame,
    node_labels_from_columns,
    series_to_numpy,
)
from .graph_base import IMPOSSIBLE_LABEL, GraphBase
from .labels import Unmatchable, never_equal
from .options import as_limit
from .times import NUMBER_TIMES, TimeSpec, normalise_times, times_for_output

__all__ = [
    "TemporalGraph",
    "temporal_from_arrays",
    "temporal_from_frame",
    "temporal_from_networkx",
    "load_collegemsg",
    "as_temporal_graph",
    "IMPOSSIBLE_LABEL",
]

_DATA = Path(__file__).resolve().parent.parent / "data"


@dataclass(eq=False)
class TemporalGraph(GraphBase):
    """Directed temporal multigraph with edges sorted by time.

    What every graph has (key map, label encoding, derived values, device data) comes from
    :class:`~nx_gpumine.inputs.graph_base.GraphBase`, as for
    :class:`~nx_gpumine.inputs.static_graph.StaticGraph`.

    Attributes
    ----------
    src, dst : numpy.ndarray
        int32 dense endpoint ids per edge id (edge id = position after the stable time sort).
    time : numpy.ndarray
        int64 or float64 times, non-decreasing (datetimes and durations as int64 counts of
        ``time_spec.unit``; see :mod:`nx_gpumine.inputs.times`).
    rows : numpy.ndarray
        int64: input row of each edge id.
    next_id : numpy.ndarray
        int64: first edge id with a time strictly greater than ``time[e]`` (``m`` if none).
    out_ptr, out_edges, in_ptr, in_edges : numpy.ndarray
        int64 CSR-like lists: ``out_edges[out_ptr[v]:out_ptr[v+1]]`` are the ids of edges leaving
        ``v`` in increasing id; same for entering edges.
    keys : list
        Dense id -> the user's node key.
    node_label : numpy.ndarray or None
        int32 label code per vertex (-1 where the vertex has no label).
    edge_label : numpy.ndarray or None
        int32 label code per edge id.
    node_values : numpy.ndarray or None
        float64 numeric node attribute per vertex (NaN where absent), for Everest-style node
        comparisons (``node0: f > 5``).
    node_vocab, edge_vocab : dict
        Label value -> code.
    time_spec : TimeSpec
        What the times stand for: plain numbers, or datetimes / durations with their unit and
        time zone (limits are then given as durations).
    """

    #: The edge arrays every temporal graph holds (build order), what a copy or a device build
    #: carries over.
    ARRAYS: ClassVar[tuple[str, ...]] = (
        "src", "dst", "time", "rows", "next_id", "out_ptr", "out_edges", "in_ptr", "in_edges",
    )  # fmt: skip

    src: np.ndarray
    dst: np.ndarray
    time: np.ndarray
    rows: np.ndarray
    next_id: np.ndarray
    out_ptr: np.ndarray
    out_edges: np.ndarray
    in_ptr: np.ndarray
    in_edges: np.ndarray
    keys: list
    node_label: np.ndarray | None = None
    edge_label: np.ndarray | None = None
    node_values: np.ndarray | None = None
    node_vocab: dict = field(default_factory=dict)
    edge_vocab: dict = field(default_factory=dict)
    time_spec: TimeSpec = NUMBER_TIMES
    _key_to_id: dict | None = field(default=None, repr=False)
    _device_cache: dict = field(default_factory=dict, repr=False)
    _derived: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_edgelist(
        cls,
        frame: Any,
        source: str = "source",
        target: str = "target",
        time: str = "time",
        *,
        edge_label: str | None = None,
        node_labels: Mapping | None = None,
        nodes: Sequence | None = None,
        source_label: str | None = None,
        target_label: str | None = None,
    ) -> TemporalGraph:
        """Build from an edge frame (pandas, polars, pyarrow, cuDF...): one row per edge.

        Also the module function :func:`temporal_from_frame`.

        Parameters
        ----------
        frame : dataframe
            One row per temporal edge. A cuDF frame (or a mapping of column name -> CuPy /
            device array) with numeric endpoints and times and no labels is built on the GPU
            and stays there (see :mod:`nx_gpumine.inputs.device`).
        source, target, time : str
            Column names of the endpoints and the time.
        edge_label : str, optional
            Column holding an edge label.
        node_labels : mapping, optional
            Node key -> label value.
        nodes : sequence, optional
            All node keys in dense-id order.
        source_label, target_label : str, optional
            Columns holding the label of each row's source / target node (instead of
            ``node_labels``); a node must get the same label on every row it appears in.

        Returns
        -------
        TemporalGraph
            One edge per row, edge ids numbering the rows after a stable sort by time.

        Raises
        ------
        InputError
            For missing columns, null/NaN/non-numeric times, a node given two labels, or
            ``node_labels`` together with label columns.
        """
        if source_label is not None or target_label is not None:
            if node_labels is not None:
                raise InputError(
                    "edge frame: give node labels either as node_labels or as "
                    "source_label/target_label columns, not both"
                )
            node_labels = node_labels_from_columns(
                frame, source, target, source_label, target_label
            )
        if is_device_frame(frame):
            if edge_label is None and node_labels is None and nodes is None:
                g = temporal_from_device(frame, cls, source, target, time)
                if g is not None:  # built on the device (cuDF / CuPy numeric columns)
                    return g
            frame = host_fallback(frame)
        s, d, t, lab = frame_columns(frame, [source, target, time, edge_label], what="edge frame")
        return temporal_from_arrays(
            s,
            d,
            t,
            edge_label=lab,
            node_labels=node_labels,
            nodes=nodes,
            what="edge frame",
            time_zone=frame_time_zone(frame, time),
        )

    @property
    def n(self) -> int:
        """Number of vertices."""
        return len(self.out_ptr) - 1

    @property
    def m(self) -> int:
        """Number of temporal edges."""
        return len(self.src)

    @property
    def num_edges(self) -> int:
        """Number of temporal edges (alias of ``m``)."""
        return self.m

    @property
    def integer_times(self) -> bool:
        """True when times are int64 (window arithmetic exact), False for float64."""
        return self.time.dtype.kind == "i"

    def __repr__(self) -> str:
        if self.time_spec.kind != "number":
            kind = self.time_spec.describe()
        else:
            kind = "int" if self.integer_times else "float"
        return f"TemporalGraph({self.n} nodes, {self.m} edges, {kind} times)"

    def times_as_input(self, edge_ids: Any) -> np.ndarray:
        """Times of ``edge_ids`` in the input's numpy type (``datetime64[unit]`` in UTC,
        ``timedelta64[unit]``, or the numbers themselves)."""
        return times_for_output(self.time[np.asarray(edge_ids, dtype=np.int64)], self.time_spec)

    def prefix(self, m: int) -> TemporalGraph:
        """The graph made of the first ``m`` edges *in input order* (labels kept)."""
        return self._edge_subgraph(np.sort(np.flatnonzero(self.rows < m)))

    def edge_slice(self, lo: int, hi: int) -> TemporalGraph:
        """The graph of edge ids ``[lo, hi)`` (ids shifted by ``-lo``; vertices and labels kept).

        A time partition of the edge list (see
        :func:`~nx_gpumine.plan.temporal_plan.time_partitions`): every vertex keeps its dense
        id, so matches found in the slice map back by adding ``lo`` to edge ids.
        """
        lo, hi = int(lo), int(hi)
        if not 0 <= lo <= hi <= self.m:
            raise ValueError(f"edge range [{lo}, {hi}) is outside [0, {self.m})")
        return self._edge_subgraph(slice(lo, hi))

    def _edge_subgraph(self, keep: slice | np.ndarray) -> TemporalGraph:
        """The graph of the edge ids ``keep`` (a slice, or ids in increasing order, so still
        sorted by time), numbered from 0 in that order, over this graph's vertices
        (:meth:`share_vertex_data`)."""
        lab = None if self.edge_label is None else self.edge_label[keep]
        g = _build(
            self.src[keep].astype(np.int64),
            self.dst[keep].astype(np.int64),
            self.time[keep],
            self.rows[keep],
            self.keys,
            edge_label=lab,
        )
        g.share_vertex_data(self)
        return g

    def share_vertex_data(self, other: TemporalGraph) -> None:
        """Use ``other``'s node labels and values, label vocabularies, time spec and key map
        (shared, not copied) as this graph's: for a graph of some of ``other``'s edges over the
        same dense vertex ids (:meth:`edge_slice`, :meth:`prefix`, the CUDA engine's streamed
        partitions).

        Parameters
        ----------
        other : TemporalGraph
            The graph whose vertices this graph shares (its ``keys`` are this graph's).
        """
        self.node_label, self.node_values = other.node_label, other.node_values
        self.node_vocab, self.edge_vocab = other.node_vocab, other.edge_vocab
        self.time_spec = other.time_spec
        self.share_key_map(other)

    def device_arrays(self) -> dict:
        """The arrays as CuPy arrays on the current device, uploaded once per device and
        cached on the graph (keyed by device id)."""
        import cupy as cp

        def upload() -> dict:
            names = [k for k in self.ARRAYS if k != "rows"]  # rows: host only (result rows)
            arrs = {k: cp.asarray(getattr(self, k)) for k in names}
            for k in ("node_label", "edge_label"):
                v = getattr(self, k)
                arrs[k] = None if v is None else cp.asarray(v)
            return arrs

        return self.device_data(("arrays", cp.cuda.runtime.getDevice()), upload)


# ====================================================================== building
def _encode(values: Sequence[Hashable], vocab: dict, what: str) -> np.ndarray:
    """Label codes of ``values`` (``-1`` for None: unlabelled), growing ``vocab``; a value that
    matches nothing (NaN... :func:`~nx_gpumine.inputs.labels.never_equal`) gets a code of its
    own at each occurrence, under an :class:`~nx_gpumine.inputs.labels.Unmatchable`."""
    arr = values if isinstance(values, np.ndarray) else None
    if arr is not None and arr.ndim == 1 and arr.dtype.kind in "iub" and not vocab:
        # numeric labels: one vectorised pass, codes by first appearance as below
        uniq, first, inv = np.unique(arr, return_index=True, return_inverse=True)
        rank = np.empty(len(uniq), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(uniq))
        for val, code in zip(uniq.tolist(), rank.tolist(), strict=True):
            vocab[val] = code
        return rank[inv].astype(np.int32)
    out = np.empty(len(values), dtype=np.int32)
    for i, v in enumerate(values):
        if v is None:
            out[i] = -1
            continue
        try:
            code = vocab.get(v)
        except TypeError as exc:
            raise InputError(f"{what}: unhashable label value {v!r}") from exc
        if code is None:
            key = Unmatchable(v) if never_equal(v) else v
            code = vocab[key] = len(vocab)
        out[i] = code
    return out


def _csr(owner: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    if len(owner) >= graph_base.LINEAR_SORT_MIN:  # a counting sort, O(m)
        from .csr_order import csr_order  # numba: loaded for the first large graph

        return csr_order(owner, n)
    order = np.argsort(owner, kind="stable").astype(np.int64, copy=False)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(owner, minlength=n), out=ptr[1:])
    return ptr, order


def _next_ids(time: np.ndarray) -> np.ndarray:
    """Per edge of the time-sorted ``time``, the first edge id with a strictly later time
    (``searchsorted(time, time, "right")``, in O(m): the end of each run of equal times)."""
    m = len(time)
    if m == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.append(np.flatnonzero(time[1:] != time[:-1]) + 1, m).astype(np.int64)
    return np.repeat(ends, np.diff(ends, prepend=0))


def _build(
    src: np.ndarray,
    dst: np.ndarray,
    time: np.ndarray,
    rows: np.ndarray,
    keys: list,
    *,
    edge_label: np.ndarray | None = None,
) -> TemporalGraph:
    """Build from edges already sorted stably by time."""
    n = len(keys)
    if n > np.iinfo(np.int32).max:
        raise InputError(f"{n} vertices exceed the int32 id range")
    out_ptr, out_edges = _csr(src, n)
    in_ptr, in_edges = _csr(dst, n)
    next_id = _next_ids(time)
    return TemporalGraph(
        src=np.ascontiguousarray(src, dtype=np.int32),
        dst=np.ascontiguousarray(dst, dtype=np.int32),
        time=np.ascontiguousarray(time),
        rows=np.ascontiguousarray(rows, dtype=np.int64),
        next_id=next_id,
        out_ptr=out_ptr,
        out_edges=out_edges,
        in_ptr=in_ptr,
        in_edges=in_edges,
        keys=keys,
        edge_label=edge_label,
    )


def _numeric_ids(keys: Sequence, src_keys: np.ndarray, dst_keys: np.ndarray) -> tuple | None:
    """Vectorised key -> position lookup when keys and endpoints are all integers (else None).

    Keys that are consecutive integers once sorted (``nodes=range(n)``, the usual case) map by
    subtraction, O(m); others by binary search. Duplicate keys raise :class:`InputError`."""
    if not (src_keys.dtype.kind in "iu" and dst_keys.dtype.kind in "iu"):
        return None
    n = len(keys)
    if (isinstance(keys, range) and keys.step == 1) or (
        n and type(keys[0]) is int and type(keys[-1]) is int and _is_range(keys)
    ):
        first, order, consecutive = (keys[0] if n else 0), None, True  # keys[i] == first + i
    else:
        if not all(type(k) is int for k in keys):
            return None
        karr = np.asarray(keys, dtype=np.int64)
        order = np.argsort(karr, kind="stable")  # position in keys of each sorted key
        karr = karr[order]
        if n > 1 and bool((karr[1:] == karr[:-1]).any()):
            raise InputError("nodes: the node list holds duplicate keys")
        first = int(karr[0]) if n else 0
        consecutive = not n or int(karr[-1]) - first == n - 1
    out = []
    for ends in (src_keys, dst_keys):
        ends = ends.astype(np.int64, copy=False)
        if consecutive:  # the rank of a key among the sorted keys: a subtraction
            rank = ends - first
            bad = (rank < 0) | (rank >= n)
        else:
            rank = np.searchsorted(karr, ends)
            bad = rank >= n
            rank[bad] = 0
            bad |= karr[rank] != ends
        if bad.any():
            raise InputError(f"edge endpoint {ends[np.argmax(bad)]!r} is not in the node list")
        out.append(rank if order is None else order[rank])
    return out[0], out[1]


def _is_range(keys: list) -> bool:
    """Whether the int list ``keys`` is ``keys[0], keys[0] + 1, ...`` (O(n))."""
    if keys[-1] - keys[0] != len(keys) - 1:
        return False
    try:
        arr = np.fromiter(keys, dtype=np.int64, count=len(keys))
    except (OverflowError, TypeError):
        return False
    return bool((np.diff(arr) == 1).all())


def _dense_int_ids(src_keys: np.ndarray, dst_keys: np.ndarray) -> tuple | None:
    """:func:`_dense_ids` for integer keys spanning at most twice as many values as there are
    endpoints (node ids of most edge files): a table over the span instead of a sort.

    A key's dense id is its rank among the keys present, as ``numpy.unique`` gives it. The ids
    are int32 (int64 past its range), but keys that are exactly ``0 .. n-1`` are their own ids:
    then the key arrays are returned as int64 (not copied when they are int64). The table takes
    5 bytes per value of the span.

    Parameters
    ----------
    src_keys, dst_keys : numpy.ndarray
        Endpoint keys per edge.

    Returns
    -------
    tuple or None
        ``(src ids, dst ids, sorted keys)`` as :func:`_dense_ids` returns them, or None where
        the keys are not integers, there are none, or they are too spread out.
    """
    if np.result_type(src_keys, dst_keys).kind not in "iu" or not len(src_keys):
        return None  # int64 with uint64 keys are floats to numpy.unique: left to it
    lo = min(int(src_keys.min()), int(dst_keys.min()))
    hi = max(int(src_keys.max()), int(dst_keys.max()))
    span = hi - lo + 1
    if hi > np.iinfo(np.int64).max or span > 2 * (len(src_keys) + len(dst_keys)):
        return None
    ends = [k.astype(np.int64, copy=False) for k in (src_keys, dst_keys)]
    if len(ends[0]) >= graph_base.LINEAR_SORT_MIN:  # numba: the look-ups in parallel
        from .csr_order import dense_ranks

        got = dense_ranks(ends[0], ends[1], lo, span)
        if got is None:  # keys 0 .. n-1: their own ids
            return ends[0], ends[1], list(range(span))
        return got[0], got[1], got[2].tolist()
    present = np.zeros(span, dtype=bool)
    for k in ends:
        present[k - lo if lo else k] = True
    if lo == 0 and present.all():  # keys 0 .. n-1: their own ids
        return ends[0], ends[1], list(range(span))
    ids = np.cumsum(present, dtype=np.int32 if span <= np.iinfo(np.int32).max else np.int64)
    ids -= 1
    keys = np.flatnonzero(present)
    del present
    keys += lo
    s, d = (ids[k - lo if lo else k] for k in ends)
    return s, d, keys.tolist()


def _dense_ids(
    src_keys: np.ndarray, dst_keys: np.ndarray, nodes: Sequence | None
) -> tuple[np.ndarray, np.ndarray, list]:
    """Map arbitrary key arrays to dense ids (order: ``nodes`` if given, else sorted keys);
    the one mapping of static and temporal graphs. The ids are int64, or int32 from the table
    of :func:`_dense_int_ids` (integer keys, not spread out)."""
    if nodes is not None:
        keys = list(nodes)
        ids = _numeric_ids(nodes if isinstance(nodes, range) else keys, src_keys, dst_keys)
        if ids is not None:
            return (*ids, keys)
        key_to_id = {k: i for i, k in enumerate(keys)}
        if len(key_to_id) != len(keys):
            raise InputError("nodes: the node list holds duplicate keys")
        try:
            s = np.fromiter((key_to_id[k] for k in src_keys.tolist()), np.int64, len(src_keys))
            d = np.fromiter((key_to_id[k] for k in dst_keys.tolist()), np.int64, len(dst_keys))
        except KeyError as exc:
            raise InputError(f"edge endpoint {exc.args[0]!r} is not in the node list") from exc
        return s, d, keys
    dense = _dense_int_ids(src_keys, dst_keys)
    if dense is not None:
        return dense
    both = np.concatenate([src_keys, dst_keys])
    try:
        uniq, inv = np.unique(both, return_inverse=True)
    except TypeError as exc:
        kinds = sorted({type(k).__name__ for k in both.tolist()})
        raise InputError(
            f"node keys of mixed, unorderable types ({', '.join(kinds)}); make them one type, "
            "or pass nodes= to give their order"
        ) from exc
    keys = uniq.tolist()
    return inv[: len(src_keys)].astype(np.int64), inv[len(src_keys) :].astype(np.int64), keys


def _node_attrs(g: TemporalGraph, node_labels: Mapping | Sequence | None, what: str) -> None:
    """Attach node labels (mapping key -> value, or a sequence aligned with ``g.keys``)."""
    if node_labels is None:
        return
    if isinstance(node_labels, Mapping):
        vals = [node_labels.get(k) for k in g.keys]
    else:
        vals = list(node_labels)
        if len(vals) != g.n:
            raise InputError(f"{what}: {len(vals)} node labels for {g.n} nodes")
    g.node_label = _encode(vals, g.node_vocab, what)
    num = np.full(g.n, np.nan)
    for i, v in enumerate(vals):
        if isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool):
            num[i] = float(v)
    g.node_values = num


def temporal_from_arrays(
    src: Any,
    dst: Any,
    time: Any,
    *,
    edge_label: Any = None,
    node_labels: Mapping | Sequence | None = None,
    nodes: Sequence | None = None,
    what: str = "edge arrays",
    time_zone: str | None = None,
) -> TemporalGraph:
    """Build a :class:`TemporalGraph` from endpoint and time arrays (one entry per edge).

    Parameters
    ----------
    src, dst : array-like
        Endpoint keys (any orderable hashable values) per edge.
    time : array-like
        Times: numbers (int or float), ``datetime64`` / ``timedelta64`` of any unit, pandas /
        polars / pyarrow datetime or duration series (tz-aware too), or Python ``datetime`` /
        ``date`` / ``timedelta`` objects. NaN, NaT, inf, missing and non-numeric values are
        refused. Against datetime or duration times, limits (``delta``, gaps) are durations.
    edge_label : array-like, optional
        One label value per edge.
    node_labels : mapping or sequence, optional
        Node key -> label value (or values aligned with ``nodes`` / the sorted node keys).
    nodes : sequence, optional
        All node keys, in dense-id order (default: sorted keys seen on edges).
    what : str
        How to call the input in error messages.
    time_zone : str, optional
        Time zone of ``time`` when it is a UTC ``datetime64`` array taken from a tz-aware
        column (results are shown in that zone).

    Returns
    -------
    TemporalGraph

    Raises
    ------
    InputError
        For length mismatches, missing/NaN/non-numeric times, unknown endpoints.
    """
    s = _to_host(src)
    d = _to_host(dst)
    t_host, tz = series_to_numpy(time)
    t, spec = normalise_times(t_host, what, tz=time_zone or tz)
    if not (len(s) == len(d) == len(t)):
        raise InputError(
            f"{what}: src, dst and time differ in length ({len(s)}, {len(d)}, {len(t)})"
        )
    if s.ndim != 1 or d.ndim != 1:
        raise InputError(f"{what}: src and dst must be one-dimensional")
    si, di, keys = _dense_ids(s, d, nodes)
    if len(keys) <= np.iinfo(np.int32).max:  # the graph's ids are int32: sort 4-byte ids
        si, di = si.astype(np.int32, copy=False), di.astype(np.int32, copy=False)
    # already in time order (logs, generators): the identity, found in one O(m) pass
    in_order = len(t) < 2 or bool((t[1:] >= t[:-1]).all())
    order = np.arange(len(t), dtype=np.int64) if in_order else np.argsort(t, kind="stable")
    elab = None
    vocab: dict = {}
    if edge_label is not None:
        lab = (
            list(_to_host(edge_label).tolist()) if not isinstance(edge_label, list) else edge_label
        )
        if len(lab) != len(t):
            raise InputError(f"{what}: {len(lab)} edge labels for {len(t)} edges")
        elab = _encode(lab, vocab, what)[order]
    if not in_order:  # sorted one at a time, each unsorted array freed as its sorted copy is made
        si = si[order]
        di = di[order]
        t = t[order]
    g = _build(si, di, t, order, keys, edge_label=elab)
    g.edge_vocab = vocab
    g.time_spec = spec
    _node_attrs(g, node_labels, what)
    return g


#: :meth:`TemporalGraph.from_edgelist` under a module-level name (one signature, one body).
temporal_from_frame = TemporalGraph.from_edgelist


def temporal_from_networkx(
    G: Any,
    time: str = "time",
    *,
    edge_label: str | None = None,
    node_label: str | None = None,
) -> TemporalGraph:
    """Build a :class:`TemporalGraph` from a NetworkX ``DiGraph`` / ``MultiDiGraph``.

    Every edge (each parallel edge of a multigraph) is one temporal edge with time
    ``data[time]`` (a number, or a ``datetime`` / ``date`` / ``timedelta``, tz-aware datetimes
    included); edge order is NetworkX's ``G.edges`` order (the input row).

    Raises
    ------
    UnsupportedGraphError
        If ``G`` is undirected.
    InputError
        If an edge lacks the time attribute or it is not numeric.
    """
    import networkx as nx

    if not isinstance(G, nx.Graph):
        raise UnsupportedGraphError(f"expected a NetworkX graph, got {type(G).__name__}")
    if not G.is_directed():
        raise UnsupportedGraphError(
            "temporal graphs are directed: pass a DiGraph / MultiDiGraph (or G.to_directed())"
        )
    src, dst, t, lab = [], [], [], []
    for u, v, data in G.edges(data=True):
        if time not in data or data[time] is None:
            raise InputError(f"edge ({u!r}, {v!r}) has no time attribute {time!r}")
        src.append(u)
        dst.append(v)
        t.append(data[time])
        if edge_label is not None:
            if edge_label not in data:
                raise InputError(f"edge ({u!r}, {v!r}) has no label attribute {edge_label!r}")
            lab.append(data[edge_label])
    nodes = list(G.nodes)
    nlab = None
    if node_label is not None:
        nlab = {}
        for v, data in G.nodes(data=True):
            if node_label not in data:
                raise InputError(f"node {v!r} has no label attribute {node_label!r}")
            nlab[v] = data[node_label]
    sk = np.empty(len(src), dtype=object)
    sk[:] = src
    dk = np.empty(len(dst), dtype=object)
    dk[:] = dst
    if t and any(not isinstance(x, int | float | np.integer | np.floating) for x in t):
        tarr = np.empty(len(t), dtype=object)
        tarr[:] = t
    else:
        tarr = np.asarray(t) if t else np.zeros(0, dtype=np.int64)
    return temporal_from_arrays(
        sk,
        dk,
        tarr,
        edge_label=lab if edge_label is not None else None,
        node_labels=nlab,
        nodes=nodes,
        what="NetworkX graph",
    )


def load_collegemsg(n_edges: int | None = None) -> TemporalGraph:
    """The bundled CollegeMsg data set (59,835 messages; header ``src dst time``).

    Parameters
    ----------
    n_edges : int, optional
        Keep only the first ``n_edges`` lines (file order).
    """
    n_edges = as_limit(n_edges, "n_edges")
    a = np.loadtxt(_DATA / "collegemsg.txt", skiprows=1, dtype=np.int64)
    if n_edges is not None:
        a = a[:n_edges]
    return temporal_from_arrays(a[:, 0], a[:, 1], a[:, 2], what="collegemsg")


def _to_host(a: Any) -> np.ndarray:
    """``a`` as a host NumPy array (a CuPy array downloaded, a frame column converted)."""
    if hasattr(a, "get") and type(a).__module__.startswith("cupy"):
        a = a.get()
    if hasattr(a, "to_numpy") and not isinstance(a, np.ndarray):
        a = a.to_numpy()
    return np.asarray(a)


def as_temporal_graph(
    G: Any,
    *,
    source: str | int = "source",
    target: str | int = "target",
    time: str | int = "time",
    edge_label: str | int | None = None,
    node_label: str | int | None = None,
    node_labels: Mapping | None = None,
) -> TemporalGraph:
    """Accept a TemporalGraph, a NetworkX directed graph, an edge frame or an ``(m, 3)`` array.

    An array has exactly three columns, source, target and time: any other width is refused
    (a fourth column would otherwise be dropped unread; labels go in ``node_labels`` or an edge
    frame's ``edge_label`` column).

    Parameters
    ----------
    G : TemporalGraph, networkx.DiGraph, dataframe, array or tuple
        The input (a tuple is ``(src, dst, time)``).
    source, target, time, edge_label, node_label : str or int
        A frame's column names (``source``, ``target``, ``time``, ``edge_label``) or a NetworkX
        graph's attribute names (``time``, ``edge_label``; ``node_label`` of its nodes), as
        the public functions take them.
    node_labels : mapping, optional
        Node key -> label, for frames and arrays.

    Returns
    -------
    TemporalGraph
        ``G`` itself when it is one.

    Raises
    ------
    InputError
        A two-dimensional array without exactly three columns.
    UnsupportedGraphError
        For other objects.
    """
    if isinstance(G, TemporalGraph):
        return G
    import networkx as nx

    if isinstance(G, nx.Graph):
        return temporal_from_networkx(G, time, edge_label=edge_label, node_label=node_label)
    if is_frame(G) or is_device_frame(G):
        return temporal_from_frame(
            G, source, target, time, edge_label=edge_label, node_labels=node_labels
        )
    if isinstance(G, np.ndarray) and G.ndim == 2:
        if G.shape[1] != 3:
            raise InputError(
                f"an edge array must have 3 columns (source, target, time), got shape {G.shape}; "
                "pass (src, dst, time) or an edge frame (with an edge_label column for labels)"
            )
        return temporal_from_arrays(G[:, 0], G[:, 1], G[:, 2], node_labels=node_labels)
    if isinstance(G, tuple) and len(G) == 3:
        return temporal_from_arrays(*G, node_labels=node_labels)
    raise UnsupportedGraphError(
        f"cannot read a temporal graph from {type(G).__name__}: pass a TemporalGraph, a NetworkX "
        "DiGraph/MultiDiGraph with a time attribute, an edge frame, an (m, 3) array or "
        "(src, dst, time)"
    )
