"""TemporalPlan: a temporal motif compiled against a temporal graph into small per-level arrays.

Level ``i`` matches motif edge ``i`` (levels follow the motif's temporal order; level 0 is the
root edge, taken from a task's range of edge ids). Every field is documented in
``docs/temporal.md``; both engines (``engines/cpu/temporal.py``, ``engines/cuda/temporal.py``)
read only these arrays plus the graph's arrays.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import QueryError
from ..inputs.motifs import (
    CENSUS_AXIS,
    CENSUS_KEYS,
    TIE_POLICIES,
    TemporalMotif,
    as_time_limit,
)
from ..inputs.temporal_graph import IMPOSSIBLE_LABEL, TemporalGraph
from .root_split import balanced_bounds, range_costs, sample_grid

__all__ = [
    "TemporalPlan",
    "build_temporal_plan",
    "temporal_plan",
    "SRC_OUT",
    "SRC_IN",
    "SRC_ALL",
    "SRC_BOTH",
    "TIE_STRICT",
    "TIE_INPUT_ORDER",
    "root_costs",
    "sampled_root_costs",
    "split_root_edges",
    "root_range_costs",
    "temporal_total_cost",
    "time_reach",
    "census_window",
    "TimePartition",
    "time_partitions",
    "window_bound",
    "checked_windows",
    "time_span",
    "encode_limit",
    "CENSUS_TABLE",
    "census_position",
]

#: Candidate source codes (``TemporalPlan.source``).
SRC_OUT = 0  # out-list of f(src): src mapped earlier, dst new
SRC_IN = 1  # in-list of f(dst): dst mapped earlier, src new
SRC_ALL = 2  # the whole time-sorted edge list: both endpoints new
SRC_BOTH = 3  # both mapped: out-list of f(src) or in-list of f(dst) (engine's choice)
TIE_STRICT = 0
TIE_INPUT_ORDER = 1


def _ro(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class TemporalPlan:
    """Per-level arrays of a temporal motif on one graph (immutable, read-only numpy).

    ``lim_dtype`` is the graph's time dtype (int64 or float64); every time limit
    (``delta``, ``gap``, ``anti_w``) has that dtype. Limits compare *differences*:
    ``time[x] - time[base] <= limit`` (exact for ints, monotone for floats).

    Window arithmetic (one rule for every engine): int64 times may lie up to 2**64 - 1 apart,
    so a difference is never taken as a plain int64 subtraction. Engines test "``t`` is past
    ``base + lim``" as ``t > base and uint64(t) - uint64(base) > lim`` (CPU
    ``engines/cpu/temporal_walk.py:_past``, CUDA ``kernels/temporal_common.cuh:past``); host code
    adds a limit to a time with :func:`window_bound` (saturating at the int64 maximum).
    """

    motif: TemporalMotif
    k: int
    l: int
    tie: int
    esrc: np.ndarray
    edst: np.ndarray
    src_new: np.ndarray
    dst_new: np.ndarray
    source: np.ndarray
    delta_on: bool
    delta: np.generic
    gap_on: np.ndarray
    gap: np.ndarray
    node_label: np.ndarray
    edge_label: np.ndarray
    node_allow: np.ndarray | None
    anti_ptr: np.ndarray
    anti_src: np.ndarray
    anti_dst: np.ndarray
    anti_lo_level: np.ndarray
    anti_hi_level: np.ndarray
    anti_w_on: np.ndarray
    anti_w: np.ndarray
    impossible: bool

    @property
    def lim_dtype(self) -> np.dtype:
        """dtype of the time limits (the graph's time dtype)."""
        return self.gap.dtype

    def arrays(self) -> dict:
        """All array fields by name (for engines that upload them)."""
        names = [
            "esrc",
            "edst",
            "src_new",
            "dst_new",
            "source",
            "gap_on",
            "gap",
            "node_label",
            "edge_label",
            "anti_ptr",
            "anti_src",
            "anti_dst",
            "anti_lo_level",
            "anti_hi_level",
            "anti_w_on",
            "anti_w",
        ]
        return {n: getattr(self, n) for n in names}


def encode_limit(
    x: float | int | None, integer: bool, span: int | None = None
) -> tuple[bool, int | float]:
    """A time limit as the engines take it: ``(on, value)`` in the graph's time type.

    An int64 limit cannot exceed 2**63 - 1 although int64 times may lie up to 2**64 - 1
    apart: a larger limit is "no limit" when it covers ``span`` (the graph's largest time
    difference, :func:`time_span`; unknown: assumed covered) and refused otherwise.

    Parameters
    ----------
    x : int, float or None
        The limit in the graph's time unit (checked by
        :func:`~nx_gpumine.inputs.motifs.as_time_limit`); None: no limit.
    integer : bool
        Whether the graph's times are int64 (``TemporalGraph.integer_times``); a float limit
        on int times is floored.
    span : int, optional
        The graph's :func:`time_span`.

    Returns
    -------
    (bool, int or float)
        ``on`` (False: no limit, ``value`` then 0) and the limit.

    Raises
    ------
    QueryError
        An int64 limit of 2**63 - 1 or more that does not cover ``span``.
    """
    if x is None:
        return False, 0
    if integer:
        v = int(np.floor(x)) if isinstance(x, float) else int(x)
        if v >= 2**63 - 1:
            if span is not None and v < span:
                raise QueryError(
                    f"a time limit of {v} (2**63 - 1 or more) is not supported with int64 times "
                    f"spanning {span}: give a smaller limit or None"
                )
            return False, 0
        return True, v
    return True, float(x)


def time_span(graph: TemporalGraph) -> int | None:
    """Largest difference between two edge times (exact Python int; None for float times
    or no edges)."""
    if not graph.integer_times or graph.m == 0:
        return None
    return int(graph.time[-1]) - int(graph.time[0])


def census_window(graph: TemporalGraph, delta: Any, tie: str) -> Any:
    """The census window ``delta`` checked for ``graph`` (the one check of every census path).

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    delta : number or None
        The window (in the graph's time units).
    tie : {"strict", "input_order"}
        Tie policy.

    Returns
    -------
    number or None
        ``delta`` as a number.

    Raises
    ------
    QueryError, ValueError
        A window that is not a non-negative number, one the graph's times cannot hold, or an
        unknown tie policy (QueryError, a ValueError).
    """
    delta = as_time_limit(delta, "delta")
    if not isinstance(tie, str) or tie not in TIE_POLICIES:
        raise QueryError(f"tie must be one of {TIE_POLICIES}, got {tie!r}")
    encode_limit(delta, graph.integer_times, time_span(graph))
    return delta


def _census_table() -> np.ndarray:
    table = np.full(81, -1, dtype=np.int64)
    pos = {key: i for i, key in enumerate(CENSUS_KEYS)}
    for a in CENSUS_AXIS:
        for b in CENSUS_AXIS:
            c2 = int(a[0]) * 3 + int(a[1])
            c3 = int(b[0]) * 3 + int(b[1])
            table[c2 * 9 + c3] = pos[f"01 {a} {b}"]
    table.setflags(write=False)
    return table


#: The census engines' key lookup (read-only int64, 81 entries). With the root edge ``0 -> 1``
#: and nodes numbered by first appearance, an edge ``x -> y`` of the match has code
#: ``3 * x + y``; ``CENSUS_TABLE[9 * c2 + c3]`` is the position in ``CENSUS_KEYS`` of the motif
#: whose second and third edges have codes ``c2`` and ``c3`` (-1: no such motif). Both census
#: engines read it (the CUDA one as int32).
CENSUS_TABLE: np.ndarray = _census_table()


def _node_allow(motif: TemporalMotif, graph: TemporalGraph) -> np.ndarray | None:
    if not motif.node_where:
        return None
    if graph.node_values is None:
        raise QueryError(
            "the motif compares node values (node_where) but the graph has no numeric node "
            "labels; build it with node_labels= holding numbers"
        )
    vals = graph.node_values
    allow = np.ones((motif.k, graph.n), dtype=np.uint8)
    ops = {
        "<": np.less,
        "<=": np.less_equal,
        ">": np.greater,
        ">=": np.greater_equal,
        "==": np.equal,
        "!=": np.not_equal,
    }
    with np.errstate(invalid="ignore"):
        for v, op, val in motif.node_where:
            ok = ops[op](vals, val) & ~np.isnan(vals)
            allow[v] &= ok.astype(np.uint8)
    return allow


def _motif_key(motif: TemporalMotif) -> tuple | None:
    """A hashable description of everything a plan reads from ``motif`` (None if a label value
    cannot be hashed: such plans are not cached)."""
    key = (
        motif.edges,
        motif.delta,
        motif.gaps,
        tuple(motif.anti_edges),
        tuple(sorted(motif.node_labels.items(), key=repr)),
        tuple(sorted(motif.edge_labels.items(), key=repr)),
        tuple(motif.node_where),
        motif.tie,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _label_codes(
    wanted: Mapping[int, Any], size: int, graph_has: bool, encode: Callable[[Any], int], side: str
) -> np.ndarray:
    """The label code each motif node / edge asks for (``-1``: any), of ``size`` entries.

    ``wanted``: position -> label value (the motif's ``node_labels`` or ``edge_labels``);
    ``graph_has``: whether the graph has labels on that ``side`` ("node" or "edge");
    ``encode``: the graph's value -> code map for that side (a value the graph never uses
    gets :data:`IMPOSSIBLE_LABEL`).
    """
    codes = np.full(size, -1, dtype=np.int32)
    if wanted:
        if not graph_has:
            raise QueryError(f"the motif asks for {side} labels but the graph has none")
        for i, val in wanted.items():
            codes[i] = encode(val)
    return codes


def temporal_plan(motif: TemporalMotif, graph: TemporalGraph) -> TemporalPlan:
    """:func:`build_temporal_plan`, built once per motif and kept with the graph."""
    key = _motif_key(motif)
    if key is None:
        return build_temporal_plan(motif, graph)
    return graph.derived(("temporal_plan", key), lambda: build_temporal_plan(motif, graph))


def build_temporal_plan(motif: TemporalMotif, graph: TemporalGraph) -> TemporalPlan:
    """Compile ``motif`` for ``graph``.

    Parameters
    ----------
    motif : TemporalMotif
        The query.
    graph : TemporalGraph
        The data graph (label codes and time dtype come from it).

    Returns
    -------
    TemporalPlan

    Raises
    ------
    QueryError
        If the motif needs labels or node values the graph does not have.
    """
    if not isinstance(motif, TemporalMotif):
        raise QueryError(f"expected a TemporalMotif, got {type(motif).__name__}")
    k, l_ = motif.k, motif.num_edges
    integer = graph.integer_times
    tdt = np.int64 if integer else np.float64
    esrc = np.array([a for a, _ in motif.edges], dtype=np.int32)
    edst = np.array([b for _, b in motif.edges], dtype=np.int32)
    intro = np.full(k, -1, dtype=np.int64)
    src_new = np.zeros(l_, dtype=np.uint8)
    dst_new = np.zeros(l_, dtype=np.uint8)
    source = np.zeros(l_, dtype=np.int8)
    for i, (a, b) in enumerate(motif.edges):
        an, bn = intro[a] < 0, intro[b] < 0
        src_new[i], dst_new[i] = an, bn
        if an:
            intro[a] = i
        if bn:
            intro[b] = i
        source[i] = SRC_ALL if (an and bn) else SRC_IN if an else SRC_OUT if bn else SRC_BOTH
    span = time_span(graph)
    delta_on, delta = encode_limit(motif.delta, integer, span)
    gap_on = np.zeros(l_, dtype=np.uint8)
    gap = np.zeros(l_, dtype=tdt)
    if motif.gaps is not None:
        for i, g in enumerate(motif.gaps):
            on, v = encode_limit(g, integer, span)
            gap_on[i + 1], gap[i + 1] = on, v
    # labels
    node_label = _label_codes(
        motif.node_labels, k, graph.node_label is not None, graph.encode_node_label, "node"
    )
    edge_label = _label_codes(
        motif.edge_labels, l_, graph.edge_label is not None, graph.encode_edge_label, "edge"
    )
    impossible = bool(
        (node_label == IMPOSSIBLE_LABEL).any() or (edge_label == IMPOSSIBLE_LABEL).any()
    )
    node_allow = _node_allow(motif, graph)
    if node_allow is not None and not node_allow.any(axis=1).all():
        impossible = True
    # anti-edges, checked at the first level where both endpoints and t_after are known
    per_level: list[list[tuple]] = [[] for _ in range(l_)]
    for ae in motif.anti_edges:
        lev = int(max(ae.after, intro[ae.a], intro[ae.b]))
        if ae.within is not None:
            on, w = encode_limit(ae.within, integer, span)
            hi_level = ae.after
        else:
            on, w = delta_on, delta
            hi_level = 0
        per_level[lev].append((ae.a, ae.b, ae.after, hi_level, on, w))
    anti_ptr = np.zeros(l_ + 1, dtype=np.int32)
    flat = [x for lev in per_level for x in lev]
    np.cumsum([len(x) for x in per_level], out=anti_ptr[1:])
    return TemporalPlan(
        motif=motif,
        k=k,
        l=l_,
        tie=TIE_STRICT if motif.tie == "strict" else TIE_INPUT_ORDER,
        esrc=_ro(esrc),
        edst=_ro(edst),
        src_new=_ro(src_new),
        dst_new=_ro(dst_new),
        source=_ro(source),
        delta_on=bool(delta_on),
        delta=tdt(delta),
        gap_on=_ro(gap_on),
        gap=_ro(gap),
        node_label=_ro(node_label),
        edge_label=_ro(edge_label),
        node_allow=None if node_allow is None else _ro(node_allow),
        anti_ptr=_ro(anti_ptr),
        anti_src=_ro(np.array([x[0] for x in flat], dtype=np.int32)),
        anti_dst=_ro(np.array([x[1] for x in flat], dtype=np.int32)),
        anti_lo_level=_ro(np.array([x[2] for x in flat], dtype=np.int32)),
        anti_hi_level=_ro(np.array([x[3] for x in flat], dtype=np.int32)),
        anti_w_on=_ro(np.array([x[4] for x in flat], dtype=np.uint8)),
        anti_w=_ro(np.array([x[5] for x in flat], dtype=tdt)),
        impossible=impossible,
    )


_TIME_MAX = np.iinfo(np.int64).max


def window_bound(t: Any, lim: float | int) -> Any:
    """``t + lim`` for times ``t`` (scalar or array) and a limit ``lim >= 0``, saturating at the
    int64 maximum for int64 times (so ``searchsorted(time, window_bound(t, lim), "right")`` is
    the end of the window even when ``t + lim`` does not fit)."""
    arr = np.asarray(t)
    if arr.dtype.kind in "iu":
        lim_i = int(lim)
        if lim_i >= _TIME_MAX:
            out = np.full(arr.shape, _TIME_MAX, dtype=np.int64)
        else:
            out = np.minimum(arr.astype(np.int64), _TIME_MAX - lim_i) + np.int64(lim_i)
        return out if out.ndim else out[()]
    return arr + lim


def checked_windows(plan: TemporalPlan, windows: Any, dtype: Any) -> np.ndarray:
    """The narrower windows of a count binned by span (both engines' ``count_windows``), in
    the graph's time ``dtype``: ascending, ``>= 0`` and within the plan's own window.

    Raises
    ------
    ValueError
        Windows not ascending, negative, or beyond the plan's window.
    """
    lims = list(windows)
    checked = np.asarray(lims, dtype=dtype)
    if len(lims) and (
        (np.diff(checked) < 0).any()
        or checked[0] < 0
        or (plan.delta_on and checked[-1] > plan.delta)
    ):
        raise ValueError(
            f"windows must be ascending, >= 0 and within the plan's window, got {lims}"
        )
    return checked


def root_costs(graph: TemporalGraph, delta_on: bool, delta: float | int, lo: int, hi: int):
    """Estimated work of each root edge id in ``[lo, hi)`` (float64).

    With a window: ``1 +`` the number of edges in ``(t_e, t_e + delta]`` (a proxy of the
    search-tree width); without one: ``1 + out/in degrees`` of both endpoints.
    """
    if hi <= lo:
        return np.zeros(0)
    if delta_on:
        t = graph.time
        end = np.searchsorted(t, window_bound(t[lo:hi], delta), side="right")
        return 1.0 + (end - np.arange(lo, hi)).astype(np.float64)
    s, d = graph.src[lo:hi], graph.dst[lo:hi]
    deg = np.diff(graph.out_ptr) + np.diff(graph.in_ptr)
    return 1.0 + deg[s] + deg[d]


def sampled_root_costs(
    graph: TemporalGraph, delta_on: bool, delta: float | int, lo: int, hi: int
) -> tuple[np.ndarray, np.ndarray]:
    """The estimated cost (:func:`root_costs`) of the roots a split of ``[lo, hi)`` is balanced
    on (every root, or at most ~65k sampled ones: :func:`~.root_split.sample_grid`), and where
    each one's stride ends (``lo < hi``)."""
    starts, ends = sample_grid(lo, hi)
    if len(starts) == hi - lo:
        return root_costs(graph, delta_on, delta, lo, hi), ends
    if delta_on:
        t = graph.time
        end = np.searchsorted(t, window_bound(t[starts], delta), side="right")
        return 1.0 + (end - starts).astype(np.float64), ends
    deg = np.diff(graph.out_ptr) + np.diff(graph.in_ptr)
    return 1.0 + deg[graph.src[starts]] + deg[graph.dst[starts]], ends


def split_root_edges(
    graph: TemporalGraph, ntasks: int, delta_on: bool, delta: float | int, lo: int, hi: int
) -> np.ndarray:
    """Boundaries (int64, ``[lo, ..., hi]``) of at most ``ntasks`` root-edge ranges of about equal
    estimated cost (see :func:`root_costs`; estimated on at most ~65k sampled roots; the
    cutting rule of :mod:`.root_split`)."""
    if hi <= lo:
        return np.array([lo, hi], dtype=np.int64)
    cost, ends = sampled_root_costs(graph, delta_on, delta, lo, hi)
    return balanced_bounds(cost, ends, lo, hi, ntasks)


def root_range_costs(
    graph: TemporalGraph, delta_on: bool, delta: float | int, bounds: np.ndarray
) -> np.ndarray:
    """Estimated cost of each root-edge range ``[bounds[j], bounds[j + 1])``: what
    :func:`split_root_edges` balanced on (:func:`sampled_root_costs`), summed per range.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    delta_on, delta
        The plan's window.
    bounds : numpy.ndarray
        Range boundaries, increasing, within ``[0, graph.m]``.

    Returns
    -------
    numpy.ndarray
        float64, one value per range (:func:`~.root_split.range_costs`).
    """
    bounds = np.asarray(bounds, dtype=np.int64)
    if len(bounds) < 2 or bounds[-1] <= bounds[0]:
        return np.zeros(max(0, len(bounds) - 1))
    cost, ends = sampled_root_costs(graph, delta_on, delta, int(bounds[0]), int(bounds[-1]))
    return range_costs(cost, ends, bounds)


def temporal_total_cost(graph: TemporalGraph, delta_on: bool, delta: float | int) -> float:
    """The absolute work estimate of a whole-graph temporal query: ``m + sum d(v)^2 * f``,
    the 2-edge prefixes its roots open (each edge meets ``d(u) + d(v)`` edges at its ends),
    ``f = min(1, delta / span)`` of them within the window if activity were even in time;
    e.g. about 7e7 on the 10M-edge synthetic graph with a window of one day. The degrees'
    sum is kept with the graph.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    delta_on, delta
        The plan's window (``delta_on`` False: no window, ``f = 1``).

    Returns
    -------
    float
    """

    def squares() -> float:
        deg = (np.diff(graph.out_ptr) + np.diff(graph.in_ptr)).astype(np.float64)
        return float(deg @ deg)

    share = 1.0
    if delta_on and graph.m > 1:
        span = float(graph.time[-1]) - float(graph.time[0])
        share = min(1.0, float(delta) / span) if span > 0 else 1.0
    return float(graph.m) + graph.derived(("degree_squares",), squares) * share


def time_reach(plan: TemporalPlan) -> float | int | None:
    """Largest ``t - t_1`` of any edge the search of one root edge can read (None: unbounded).

    Level ``i`` lies within ``R_i`` of the root, ``R_0 = 0`` and
    ``R_i = min(delta, R_{i-1} + gap_i)`` (each term only where that limit is set); an anti-edge
    checked against the interval ``(t_lo, t_hi + w]`` reads up to ``R_hi + w``. Everest's minor
    partitions overlap the next major one by this much.
    """
    inf = float("inf")
    delta = plan.delta.item() if plan.delta_on else inf
    reach = [0]
    for i in range(1, plan.l):
        step = reach[-1] + plan.gap[i].item() if plan.gap_on[i] else inf
        reach.append(min(delta, step))
    far = reach[-1]
    for hi_level, won, w in zip(
        plan.anti_hi_level.tolist(), plan.anti_w_on.tolist(), plan.anti_w.tolist(), strict=True
    ):
        far = max(far, reach[hi_level] + w if won else inf)
    return None if far == inf else far


@dataclass(frozen=True)
class TimePartition:
    """Root edge ids ``[root_lo, root_hi)`` and the edge ids ``[edge_lo, edge_hi)`` their searches
    read (Everest's major partition plus its minor overlap of the time reach)."""

    root_lo: int
    root_hi: int
    edge_lo: int
    edge_hi: int


def time_partitions(graph: TemporalGraph, plan: TemporalPlan, nparts: int) -> list[TimePartition]:
    """Split the edge list chronologically into ``nparts`` independent partitions.

    Roots are cut into contiguous ranges of about equal estimated work
    (:func:`split_root_edges`); each partition also holds the later edges within
    :func:`time_reach` of its last root, so a device given only ``graph.edge_slice(edge_lo,
    edge_hi)`` finds every match rooted in its range without communicating. Without a bounded
    reach every partition runs to the end of the edge list.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    plan : TemporalPlan
        The plan (its window, gaps and anti-edges bound the reach).
    nparts : int
        Number of partitions wanted (fewer come back for short edge lists).

    Returns
    -------
    list of TimePartition
        In time order; their root ranges cover ``[0, m)`` exactly.
    """
    if nparts < 1:
        raise ValueError(f"nparts must be >= 1, got {nparts}")
    m = graph.m
    if m == 0:
        return []
    bounds = split_root_edges(graph, nparts, plan.delta_on, plan.delta, 0, m)
    reach = time_reach(plan)
    parts = []
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        t_end = None if reach is None else window_bound(graph.time[hi - 1], reach)
        if t_end is None or t_end >= graph.time[-1]:
            end = m
        else:
            end = int(np.searchsorted(graph.time, t_end, side="right"))
        parts.append(TimePartition(lo, hi, lo, max(end, hi)))
    return parts


def census_position(plan: TemporalPlan) -> int | None:
    """The position in ``CENSUS_KEYS`` of a plan's motif when its count is a census count: three
    edges on two or three nodes, no self-loop, and nothing else asked (no labels, gaps,
    anti-edges or node conditions); else None.

    Parameters
    ----------
    plan : TemporalPlan
        A plan.

    Returns
    -------
    int or None
    """
    if plan.l != 3:
        return None
    if plan not in _CENSUS_POSITION:
        _CENSUS_POSITION[plan] = _census_key_index(plan)
    return _CENSUS_POSITION[plan]


#: `census_position` of each plan alive (plans are immutable).
_CENSUS_POSITION: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _census_key_index(plan: TemporalPlan) -> int | None:
    if plan.k not in (2, 3) or plan.impossible:
        return None
    if (
        plan.gap_on.any()
        or (plan.node_label != -1).any()
        or (plan.edge_label != -1).any()
        or plan.node_allow is not None
        or len(plan.anti_src)
    ):
        return None
    first: dict[int, int] = {}
    key = []
    for a, b in zip(plan.esrc.tolist(), plan.edst.tolist(), strict=True):
        if a == b:
            return None
        for x in (a, b):
            first.setdefault(x, len(first))
        key.append(f"{first[a]}{first[b]}")
    try:
        return CENSUS_KEYS.index(" ".join(key))
    except ValueError:  # pragma: no cover - every 3-edge motif on 2-3 nodes is a census key
        return None
