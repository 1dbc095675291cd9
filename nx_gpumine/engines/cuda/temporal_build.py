"""Host-side building blocks of the CUDA temporal engine: kernel macros, structs, list layouts.

Everything here is host arithmetic on the plan and the graph's arrays, with any array module
(``xp``: NumPy here and in the tests, CuPy on the device); no device state is kept:

* the constants the kernels share with the host (motif size limits, control-block words, flag
  bits, modes: ``kernels/temporal_common.cuh`` and ``kernels/temporal_dfs.cu``);
* the kernel argument structs (:data:`GRAPH_VIEW`, :data:`LAUNCH`, declared once in
  ``kernels/temporal_common.cuh``), packed per launch by their ``packer``;
* the module macros of a plan: :func:`structure_defines`, :func:`kernel_defines`,
  :func:`type_defines`;
* the indexes the DFS kernels read, as bulk array operations: :func:`walk_arrays`,
  :func:`pair_index`, :func:`list_entries`;
* the root filter's and the split gate's arithmetic: :func:`level1_list`, :func:`level1_gaps`,
  :func:`gap_quantiles`, :func:`kept_share`, :func:`level1_limit`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import EngineUnavailableError
from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import TemporalPlan
from .kernel_args import KernelStruct, temporal_types
from .temporal_tuning import TemporalTuning, current_tuning

__all__ = [
    "C_WIN",
    "CTL_WORDS",
    "MAX_WINDOWS",
    "MAX_EDGES",
    "MAX_NODES",
    "MAX_ANTI",
    "WPB",
    "SCAN_TILE",
    "MODES",
    "GAP_NONE",
    "GRAPH_VIEW",
    "LAUNCH",
    "unsupported",
    "structure_defines",
    "kernel_defines",
    "type_defines",
    "wide_ids",
    "walk_arrays",
    "pair_index",
    "pair_triples",
    "list_entries",
    "level1_list",
    "level1_gaps",
    "gap_quantiles",
    "kept_share",
    "level1_limit",
    "record_words",
]

#: Largest motif the kernels take (4-bit fields per level / node / anti-edge).
MAX_EDGES = 15
MAX_NODES = 15
MAX_ANTI = 15
WPB = 8  # warps per block (kernels/temporal_common.cuh)
SCAN_TILE = WPB * 32 * 8  # values per block of the prefix-sum kernels (temporal_dfs.cu)
(C_COUNT, C_FLAGS, C_CURSOR, C_OUTCUR, C_NDUMP, C_EXITED, C_NSTEAL, C_NTAIL, C_NREC, C_NROOT) = (
    range(10)
)
F_OVERFLOW, F_FOUND, F_OUTFULL, F_DUMPFULL = 1, 2, 4, 8
#: Control words of a DFS call: device_common.cuh's 16, then the 128-bit counts (low, high) of
#: up to MAX_WINDOWS - 1 narrower windows from C_WIN on (temporal_dfs.cu NWIN, count_windows).
C_WIN, MAX_WINDOWS = 16, 9
CTL_WORDS = C_WIN + 2 * (MAX_WINDOWS - 1)
MODES = {"count": 0, "exists": 1, "enumerate": 2}  # the kernel's MODE_* values
#: The root filter's integer gap meaning "no next edge in the list" (gaps saturate there too).
GAP_NONE = 2**32 - 1

#: The graph view every temporal kernel takes by value (``kernels/temporal_common.cuh``).
GRAPH_VIEW = KernelStruct("temporal_common.cuh", "TGraph", temporal_types)
#: A DFS launch's values (``temporal_dfs``; ``temporal_level1`` reads some of them).
LAUNCH = KernelStruct("temporal_common.cuh", "TLaunch", temporal_types)


def unsupported(plan: TemporalPlan) -> str | None:
    """Why the CUDA kernels cannot run ``plan`` (None when they can)."""
    if plan.l > MAX_EDGES:
        return f"the CUDA temporal engine takes motifs of at most {MAX_EDGES} edges (got {plan.l})"
    if plan.k > MAX_NODES:
        return f"the CUDA temporal engine takes motifs of at most {MAX_NODES} nodes (got {plan.k})"
    if len(plan.anti_src) > MAX_ANTI:
        return f"the CUDA temporal engine takes at most {MAX_ANTI} anti-edges"
    return None


# ====================================================================== compile-time structure
def _pack4(values: Any) -> int:
    out = 0
    for i, x in enumerate(np.asarray(values).tolist()):
        x = int(x)
        if not 0 <= x < 16:
            raise ValueError(f"field {x} does not fit 4 bits")
        out |= x << (4 * i)
    return out


def _bits(flags: Any) -> int:
    return sum(1 << i for i, f in enumerate(np.asarray(flags).tolist()) if f)


def structure_defines(plan: TemporalPlan, graph: TemporalGraph) -> dict[str, int]:
    """The NVRTC macros of ``plan`` (motif structure; see ``kernels/temporal_dfs.cu``).

    Every value is an integer computed here from the validated plan arrays, so the module
    cache key is a function of the motif's structure and of the graph's time and id types.
    """
    reason = unsupported(plan)
    if reason:
        raise EngineUnavailableError(reason + "; use engine='cpu'")
    src = np.asarray(plan.source)
    allow_rows = 0
    if plan.node_allow is not None:
        allow_rows = _bits(~np.asarray(plan.node_allow, dtype=bool).all(axis=1))
    return {
        "L": int(plan.l),
        "K": int(plan.k),
        "ESRC": _pack4(plan.esrc),
        "EDST": _pack4(plan.edst),
        "SRCNEW": _bits(plan.src_new),
        "DSTNEW": _bits(plan.dst_new),
        "SOURCE": sum(int(x) << (2 * i) for i, x in enumerate(src.tolist())),
        "GAPS": _bits(plan.gap_on),
        "NLAB": _bits(np.asarray(plan.node_label) != -1),
        "ELAB": _bits(np.asarray(plan.edge_label) != -1),
        "ALLOW": allow_rows,
        "NANTI": len(plan.anti_src),
        "ANTI_A": _pack4(plan.anti_src),
        "ANTI_B": _pack4(plan.anti_dst),
        "ANTI_LO": _pack4(plan.anti_lo_level),
        "ANTI_HI": _pack4(plan.anti_hi_level),
        "ANTI_LEV": _pack4(_anti_levels(plan)),
        "ANTI_WON": _bits(plan.anti_w_on),
        **type_defines(graph, plan.tie, plan.delta_on),
    }


def kernel_defines(
    plan: TemporalPlan, graph: TemporalGraph, tuning: TemporalTuning | None = None
) -> dict[str, int]:
    """The macros the DFS module of ``plan`` on ``graph`` is first compiled with: the plan's
    structure (:func:`structure_defines`) and the tuning's compiled-in settings (``pair_min``,
    ``min_blocks``, ``early_walk``, ``LAZY_END`` from ``lazy_end_edges``; default: the current
    tuning), read when the plan is first run (``MIN_BLOCKS`` drops by one where that build
    spills more than ``spill_max`` bytes a thread)."""
    t = tuning or current_tuning()
    return {
        **structure_defines(plan, graph),
        "PAIR_MIN": int(t.pair_min),
        "MIN_BLOCKS": int(t.min_blocks),
        "EARLY_WALK": int(bool(t.early_walk)),
        "LAZY_END": int(graph.m > t.lazy_end_edges),
    }


def _anti_levels(plan: TemporalPlan) -> np.ndarray:
    ptr = np.asarray(plan.anti_ptr)
    return np.repeat(np.arange(plan.l), np.diff(ptr))


def type_defines(graph: TemporalGraph, tie: int, delta_on: bool) -> dict[str, int]:
    """The macros every temporal module takes: time and id types, tie policy, window on."""
    return {
        "TFLOAT": int(not graph.integer_times),
        "IDX64": int(wide_ids(graph)),
        "TIE": int(tie),
        "DELTA_ON": int(bool(delta_on)),
    }


def wide_ids(graph: TemporalGraph) -> bool:
    """Whether edge ids and list positions need 64 bits on the device (``IDX64``)."""
    return graph.m >= 2**31 - 1


def record_words(plan: TemporalPlan) -> int:
    """Words of one record (level, list kinds, pos, end, the path's edge ids: ``RW``)."""
    return 4 + int(plan.l)


# ====================================================================== indexes
def walk_arrays(xp: Any, src: Any, dst: Any, out_edges: Any, in_edges: Any) -> tuple:
    """The walk index ``(pos_out, pos_in, out_after_in, in_after_out)`` with array module ``xp``.

    ``pos_out[e]`` / ``pos_in[e]``: position of ``e`` in the out-list of ``src[e]`` / in-list of
    ``dst[e]``; ``out_after_in[e]`` / ``in_after_out[e]``: first position in the out-list of
    ``dst[e]`` / in-list of ``src[e]`` holding an id ``> e``. Computed by a segmented
    searchsorted over keys ``vertex * (m + 1) + id``, which increase along each CSR array, so it
    runs as a few bulk operations on the device (NumPy gives the same on the host).
    """
    m = len(src)
    ids = xp.arange(m, dtype=xp.int64)
    src, dst = src.astype(xp.int64), dst.astype(xp.int64)
    res = []
    for lst, own, other in ((out_edges, src, dst), (in_edges, dst, src)):
        edges = lst.astype(xp.int64)
        pos = xp.empty(m, dtype=lst.dtype)
        pos[edges] = ids.astype(lst.dtype)
        keys = own[edges] * (m + 1) + edges
        after = xp.searchsorted(keys, other * (m + 1) + ids, side="right").astype(lst.dtype)
        res.append((pos, after))
    (pos_out, out_after_in), (pos_in, in_after_out) = res
    return pos_out, pos_in, out_after_in, in_after_out


def pair_index(xp: Any, src: Any, dst: Any, n: int, idx_dtype: Any) -> tuple:
    """``(pair_ids, pair_dst)``: edge ids sorted by (source, destination, id), and their
    destinations, with array module ``xp``.

    Each source's entries fill the same segment as its out-list (``out_ptr``); inside it the
    edges to one destination are contiguous with ids (hence times) ascending, so the number of
    edges x -> y in a time window is a few binary searches (``count_pair`` in the kernels).
    """
    key = src.astype(xp.int64) * max(n, 1) + dst.astype(xp.int64)
    ids = xp.argsort(key, kind="stable")  # equal keys keep id order
    return ids.astype(idx_dtype), dst[ids].astype(xp.int32)


def pair_triples(xp: Any, src: Any, dst: Any, n: int) -> float:
    """How many triples of edges join the same two nodes, with array module ``xp``: the sum over
    node pairs ``{a, b}``, ``a != b``, of ``C(p, 3)``, ``p`` the edges between them in either
    direction. The census kernel walks at least that many triples when no window cuts them."""
    keep = src != dst
    key = xp.minimum(src, dst)[keep].astype(xp.int64) * max(n, 1) + xp.maximum(src, dst)[keep]
    del keep
    if len(key) == 0:
        return 0.0
    key.sort()
    head = xp.flatnonzero(key[1:] != key[:-1]) + 1
    ends = xp.concatenate([xp.zeros(1, head.dtype), head, xp.full(1, len(key), head.dtype)])
    p = xp.diff(ends).astype(xp.float64)
    return float((p * (p - 1) * (p - 2) / 6).sum())


def list_entries(xp: Any, ids: Any, other: Any, time: Any) -> Any:
    """The entries of one list as the DFS kernels read them (``LEntry``, kernels/
    temporal_common.cuh), with array module ``xp``: for each position the edge id, its other
    endpoint and its time side by side, as a flat ``int32`` array.

    With 32-bit ids an entry is 4 words, ``[id, other, time (2 words)]`` (16 bytes); with 64-bit
    ids 6, ``[id (2 words), other, padding, time (2 words)]`` (24 bytes, the struct's 8-byte
    alignment). Times (int64 or float64) keep their bits, little-endian as the GPU reads them.
    """
    m = len(ids)
    wide = ids.dtype.itemsize == 8
    words = xp.zeros((m, 6 if wide else 4), dtype=xp.int32)
    t = xp.ascontiguousarray(time).view(xp.int32).reshape(m, 2)
    if wide:
        words[:, 0:2] = xp.ascontiguousarray(ids.astype(xp.int64)).view(xp.int32).reshape(m, 2)
        words[:, 2] = other
        words[:, 4:6] = t
    else:
        words[:, 0] = ids
        words[:, 1] = other
        words[:, 2:4] = t
    return words.ravel()


# ====================================================================== root filter, split gate
def level1_list(defines: dict[str, int]) -> str | None:
    """Where level 1 of a plan with these macros (:func:`structure_defines`) takes its
    candidates from, as seen from the root edge: ``"src_out"``, ``"dst_out"`` (out-list of the
    root's source / destination), ``"src_in"``, ``"dst_in"``, ``"all"`` (every later edge), or
    None (a list of a vertex the root does not touch, or both endpoints mapped: no root filter).
    """
    source = (defines["SOURCE"] >> 2) & 3
    s0, d0 = defines["ESRC"] & 15, defines["EDST"] & 15
    s1, d1 = (defines["ESRC"] >> 4) & 15, (defines["EDST"] >> 4) & 15
    if source == 2:
        return "all"
    if source == 0:
        return {s0: "src_out", d0: "dst_out"}.get(s1)
    if source == 1:
        return {d0: "dst_in", s0: "src_in"}.get(d1)
    return None


def level1_gaps(xp: Any, kind: str, g: dict, walk: tuple, nth: int = 1) -> Any:
    """For every edge ``e``, the time from ``e`` to the ``nth`` edge after it (by id) in the
    list ``kind`` (:func:`level1_list`), 32 bits wide, with array module ``xp``: the root
    filter's input (``nth=1``). Lists are in id (hence time) order, so no later edge of the
    list lies in a window that this one leaves, and a root can start a match only if its gap
    is within level 1's limit; with ``nth`` = the tuning's ``split_min``, a root whose gap is
    beyond it has fewer than ``nth`` level-1 candidates (not split off).

    Integer times: ``uint32``, the exact difference (``t - t0`` as the kernels' window rule
    takes it) saturated at :data:`GAP_NONE`, which also marks an edge with no next edge in that
    list. Float times: ``float32``, the float64 difference rounded down (``inf`` for none), so
    the test ``gap <= lim`` keeps every root that can start a match. ``g`` holds the graph's
    ``src``, ``dst``, ``time``, ``out_ptr``, ``out_edges``, ``in_ptr`` and ``in_edges``;
    ``walk`` is :func:`walk_arrays` of the same graph.
    """
    pos_out, pos_in, out_after_in, in_after_out = walk
    time = g["time"]
    m = len(time)
    if kind == "all":
        pos = xp.arange(nth, m + nth, dtype=xp.int64)
        ok = pos < m
        ids = xp.where(ok, pos, 0)
    else:
        pos, ptr, owner, edges = {
            "src_out": (pos_out + 1, g["out_ptr"], g["src"], g["out_edges"]),
            "dst_out": (out_after_in, g["out_ptr"], g["dst"], g["out_edges"]),
            "dst_in": (pos_in + 1, g["in_ptr"], g["dst"], g["in_edges"]),
            "src_in": (in_after_out, g["in_ptr"], g["src"], g["in_edges"]),
        }[kind]
        pos = pos.astype(xp.int64) + (nth - 1)
        ok = pos < ptr[owner.astype(xp.int64) + 1]
        ids = edges[xp.where(ok, pos, 0)]
    nxt = time[ids]
    if time.dtype.kind == "f":
        gap = nxt - time
        low = gap.astype(xp.float32)
        low = xp.where(low.astype(xp.float64) > gap, xp.nextafter(low, xp.float32(-xp.inf)), low)
        return xp.where(ok, low, xp.float32(xp.inf))
    diff = nxt.view(xp.uint64) - time.view(xp.uint64)  # nxt >= time: exact modulo 2**64
    gap = xp.minimum(diff, xp.uint64(GAP_NONE)).astype(xp.uint32)
    return xp.where(ok, gap, xp.uint32(GAP_NONE))


def gap_quantiles(xp: Any, gaps: Any, points: int = 257) -> np.ndarray:
    """``points`` evenly spaced quantiles (host float64 array, ascending) of the root filter's
    ``gaps`` (:func:`level1_gaps`), from which :func:`kept_share` estimates its yield for any
    limit."""
    if len(gaps) == 0:
        return np.full(points, np.inf)
    ordered = xp.sort(gaps.astype(xp.float64))
    q = ordered[xp.asarray(np.linspace(0, len(gaps) - 1, points).round().astype(np.int64))]
    return np.asarray(q.get() if hasattr(q, "get") else q, dtype=np.float64)


def kept_share(quantiles: np.ndarray, lim: float) -> float:
    """Estimated share of roots whose gap (see :func:`gap_quantiles`) is at most ``lim``."""
    return float(np.searchsorted(quantiles, lim, side="right")) / len(quantiles)


def level1_limit(plan: TemporalPlan) -> int | float | None:
    """The tightest time limit on level 1 from the root (window, gap), or None (no limit)."""
    lims = []
    if plan.delta_on:
        lims.append(np.asarray(plan.delta).item())
    if plan.l >= 2 and bool(plan.gap_on[1]):
        lims.append(np.asarray(plan.gap[1]).item())
    return min(lims) if lims else None
