"""CUDA temporal motif engine (Everest), through CuPy.

Interface (``docs/temporal.md``)::

    count(graph, plan, lo=0, hi=None) -> int
    enumerate_matches(graph, plan, lo=0, hi=None, limit=None) -> np.ndarray  # (n, l) edge ids
    exists(graph, plan, lo=0, hi=None) -> bool
    census(graph, delta, tie="strict", lo=0, hi=None) -> np.ndarray  # (36,) int64

How it walks the plan (kernels ``kernels/temporal_dfs.cu`` and ``kernels/temporal_census.cu``,
design and figures in ``docs/cuda_temporal.md``):

* **Motif-specific code.** The plan's structure (per level: motif nodes, which endpoint is new,
  where candidates come from; which nodes/edges carry label or numeric conditions; anti-edges)
  is packed into integer macros and compiled by NVRTC (cached per structure, time type, tie
  policy and mode); label codes and time limits are run-time arguments. Only validated
  integers reach the compiler, never user strings.
* **Chronological DFS per thread** with candidate-edge caching: entering a level finds its
  candidate range once (lower bound on edge ids, galloping window end); backtracking resumes
  from the cached position. The thread context lives in registers.
* **Load balance.** Warps take root edges 32 at a time from a global cursor. When no roots are
  left, idle lanes steal the upper half of a busy lane's cached range (intra-warp work
  stealing, ``steal``). Once a warp has run out of work, every warp still busy ``tail_ms``
  later dumps its unexplored cached ranges and exits; the host relaunches over those ranges,
  one candidate per work item (tail-warp redistribution), doubling the timeout each round.
* **Fewer roots, fewer relaunches** (count and exists on more than ``EXPAND_ROOTS`` roots):
  a first kernel keeps only the roots whose level-1 list holds its next edge within level 1's
  limit (from 32-bit gaps built once per graph and list), where the gap quantiles say it keeps
  at most ``ROOT_FILTER_MAX_KEPT`` of them; heavy roots are split off for a second launch only
  where at least ``SPLIT_GATE_ROOTS`` roots have ``SPLIT_MIN`` candidates or more.
* Counts are 64-bit per thread and summed with an overflow check; ``exists`` stops every warp
  at the first match; enumeration counts first and fills an exact device buffer (root ranges
  split when the result exceeds ``max_buffer_rows``; rows copied to the host per piece), or,
  with a ``limit``, fills a ``limit``-row buffer and stops when it is full.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import CapacityError, EngineUnavailableError
from ...inputs.temporal_graph import TemporalGraph
from ...limits import check_host_room, check_result_rows
from ...plan.temporal_plan import (
    CENSUS_TABLE,
    TIE_INPUT_ORDER,
    TIE_STRICT,
    TemporalPlan,
    census_window,
    encode_limit,
    split_root_edges,
    time_reach,
    time_span,
)
from ..checks import checked_limit, checked_range, checked_total, overflow_error
from . import memory
from ._runtime import (
    current_device,
    import_cupy,
    load_module,
    oom_retry,
    persistent_blocks,
    request_stop,
    sm_count,
    wait_event,
)

__all__ = [
    "count",
    "exists",
    "enumerate_matches",
    "census",
    "unsupported",
    "upload",
    "release",
    "device_need",
    "structure_defines",
    "walk_arrays",
    "last_run",
    "MAX_EDGES",
    "MAX_NODES",
    "MAX_ANTI",
]

#: Largest motif the kernels take (4-bit fields per level / node / anti-edge).
MAX_EDGES = 15
MAX_NODES = 15
MAX_ANTI = 15
WPB = 8  # warps per block (kernels/temporal_common.cuh)
SCAN_TILE = WPB * 32 * 8  # values per block of the prefix-sum kernels (temporal_dfs.cu)
_D2H = 2  # cudaMemcpyDeviceToHost (the control block's copy after the launches)
(C_COUNT, C_FLAGS, C_CURSOR, C_OUTCUR, C_NDUMP, C_EXITED, C_NSTEAL, C_NTAIL, C_NREC, C_NROOT) = (
    range(10)
)
F_OVERFLOW, F_FOUND, F_OUTFULL, F_DUMPFULL = 1, 2, 4, 8
MODES = {"count": 0, "exists": 1, "enumerate": 2}  # the kernel's MODE_* values
#: At most this many roots: expand level 1 before the DFS (one work item per level-1
#: candidate). More roots: one root per work item, and roots with a long level-1 range split
#: off as records (at most this many; see SPLIT_MIN).
EXPAND_ROOTS = memory.TEMPORAL_EXPAND_ROOTS
#: A root whose level-1 range holds at least this many candidates is split off (0: never);
#: motifs of four edges or more (with three, a level-1 candidate leads to one counted level:
#: too little work to move).
SPLIT_MIN = 8
#: Splitting runs only where at least this many roots have SPLIT_MIN or more edges of level 1's
#: list within level 1's limit (found once per graph from the gap between each edge and the
#: SPLIT_MIN-th next edge of that list; 0: always): for a few dozen roots the second launch and
#: its read-back cost more than walking them in place.
SPLIT_GATE_ROOTS = 1024
#: A both-mapped level walks the pair index's group f(src) -> f(dst) (every entry a match)
#: instead of the shorter adjacency list when that list's window holds more than this many
#: candidates (compiled into the kernel; negative: always, without the list's window).
PAIR_MIN = 32
#: Resident blocks per SM the DFS kernel is compiled for (``__launch_bounds__``): above 1 it
#: caps the kernel's registers at 65536 / (256 * MIN_BLOCKS) (compiled in).
MIN_BLOCKS = 6
#: Where the DFS kernel compiled for ``MIN_BLOCKS`` keeps more than this many bytes of local
#: memory per thread (spilled values), it is compiled for one block per SM fewer: measured on
#: the H200 (kernel ms, sk10m and synth10m; benchmarks/results/temporal_probe_2026-11-26_seventh/
#: lazy_end_steal_close.json), 40 registers with 16-32 bytes spilled beat 48 with none (M3, M7,
#: M8, M13: 3-7% faster), and 48 beat 40 with 40 bytes spilled (M11: 5-7%; M12: 1%).
SPILL_MAX = 32
#: Enter a level whose list's vertex is an endpoint of an earlier (not the previous) motif edge by
#: galloping from that edge's walk-index position instead of a binary search of the whole list
#: (compiled in; a probe setting).
EARLY_WALK = True
#: On graphs of more edges than this, a level's window end is left open until a candidate
#: falls outside it instead of being searched for on entry (compiled in: kernels/
#: temporal_dfs.cu LAZY_END). Smaller graphs, whose level 1 is expanded and whose last
#: milliseconds are worked by stealing (which needs exact ranges: every steal round closes
#: them), search on entry. H200, kernel ms (temporal_probe_2026-11-26_seventh/
#: lazy_both_and_last.json): the 10M-edge graphs 1-25% faster open (sk10m M11 at 1 day 4.39
#: against 5.47), CollegeMsg at 1 day M12 and M13 18-30% slower.
LAZY_END_EDGES = 1 << 21
#: Count and exists on more than ``EXPAND_ROOTS`` roots: a first kernel keeps only the roots
#: whose level-1 window holds the first edge after them in level 1's list (``temporal_roots``),
#: and the DFS launch takes those alone.
ROOT_FILTER = True
#: A call shape run a second time replays its opening launches (control block reset, root
#: filter, level-1 expansion, split and record launches, prefix sums) as one CUDA graph, captured
#: then and kept with the plan: one launch for the host to enqueue instead of up to seven.
GRAPHS = True
#: The root filter runs only where it is expected to keep at most this share of the roots (from
#: the quantiles of the gap between each edge and the next edge of level 1's list): where most
#: roots pass, its pass costs more than it saves (H100, kernel time: sk10m at 55-59% kept 0-3%
#: slower; synth10m at 1 h, 5% kept, 2.6x faster; at 1 day, 23% kept, 2-11% faster).
ROOT_FILTER_MAX_KEPT = 0.5
#: Root edges a warp takes at a time from the launch's cursor (record items: RECORD_CHUNK).
ROOT_CHUNK = 32
RECORD_CHUNK = 32
#: Root edges per census launch (the census kernel does not poll flags; see census()).
CENSUS_CHUNK = 1 << 18

#: Statistics of the last call in this process: kernel time (CUDA events), launches, steals...
last_run: dict[str, Any] = {}


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
        **_type_defines(graph, plan.tie, plan.delta_on),
    }


def kernel_defines(plan: TemporalPlan, graph: TemporalGraph) -> dict[str, int]:
    """The macros the DFS module of ``plan`` on ``graph`` is first compiled with: the plan's
    structure (:func:`structure_defines`) and this module's compiled-in settings (``PAIR_MIN``,
    ``MIN_BLOCKS``, ``EARLY_WALK``, ``LAZY_END`` from ``LAZY_END_EDGES``), read when the plan is
    first run (``MIN_BLOCKS`` drops by one where that build spills more than ``SPILL_MAX``
    bytes a thread)."""
    return {
        **structure_defines(plan, graph),
        "PAIR_MIN": int(PAIR_MIN),
        "MIN_BLOCKS": int(MIN_BLOCKS),
        "EARLY_WALK": int(bool(EARLY_WALK)),
        "LAZY_END": int(graph.m > LAZY_END_EDGES),
    }


def _anti_levels(plan: TemporalPlan) -> np.ndarray:
    ptr = np.asarray(plan.anti_ptr)
    return np.repeat(np.arange(plan.l), np.diff(ptr))


def _type_defines(graph: TemporalGraph, tie: int, delta_on: bool) -> dict[str, int]:
    return {
        "TFLOAT": int(not graph.integer_times),
        "IDX64": int(_wide_ids(graph)),
        "TIE": int(tie),
        "DELTA_ON": int(bool(delta_on)),
    }


def _wide_ids(graph: TemporalGraph) -> bool:
    return graph.m >= 2**31 - 1


# ====================================================================== device data
def _device_cache(graph: TemporalGraph) -> dict:
    """The graph's cache of device data for the current device (keyed by device id)."""
    return graph.device_data(("cuda_temporal", current_device()), dict)


def _graph_device(graph: TemporalGraph) -> dict:
    """The graph's arrays on the current device (once per graph and device; ids 32-bit when
    they fit)."""
    cache = _device_cache(graph)
    if "g" not in cache:
        cp = import_cupy()
        idx = np.int64 if _wide_ids(graph) else np.int32
        dummy = cp.zeros(1, dtype=cp.int32)
        dev = graph.device_data("arrays") if graph.built_on_device else None
        if dev is not None and dev["src"].device.id != cp.cuda.runtime.getDevice():
            dev = None  # built on another GPU: upload the host mirror here

        def put(name: str, dtype: Any) -> Any:
            """The array on the device: as built there (cuDF / CuPy input), else uploaded."""
            if dev is not None:
                return dev[name].astype(dtype, copy=False)
            return cp.asarray(getattr(graph, name).astype(dtype, copy=False))

        cache["g"] = {
            "src": put("src", np.int32),
            "dst": put("dst", np.int32),
            "time": put("time", graph.time.dtype),
            "next_id": put("next_id", idx),
            "out_ptr": put("out_ptr", idx),
            "out_edges": put("out_edges", idx),
            "in_ptr": put("in_ptr", idx),
            "in_edges": put("in_edges", idx),
            "nlab": dummy if graph.node_label is None else cp.asarray(graph.node_label, cp.int32),
            "elab": dummy if graph.edge_label is None else cp.asarray(graph.edge_label, cp.int32),
        }
    return cache["g"]


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


def _walk_device(graph: TemporalGraph) -> tuple:
    """The walk index on the device (built there once per graph, cached)."""
    cache = _device_cache(graph)
    if "walk" not in cache:
        cp = import_cupy()
        g = _graph_device(graph)
        cache["walk"] = walk_arrays(cp, g["src"], g["dst"], g["out_edges"], g["in_edges"])
    return cache["walk"]


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


def _lists_device(graph: TemporalGraph) -> tuple:
    """``(out_l, in_l, pair_l)``: the entries (:func:`list_entries`) of the out-lists, the
    in-lists and the pair index (:func:`pair_index`) on the current device, built there once
    per graph and device and cached, so that a walk along a list reads one entry per candidate
    (its id, other endpoint and time in one sector).
    """
    cache = _device_cache(graph)
    if "lists" not in cache:
        cp = import_cupy()
        g = _graph_device(graph)
        out_e, in_e = g["out_edges"], g["in_edges"]
        pair_ids, pair_dst = pair_index(cp, g["src"], g["dst"], graph.n, out_e.dtype)
        cache["lists"] = (
            list_entries(cp, out_e, g["dst"][out_e], g["time"][out_e]),
            list_entries(cp, in_e, g["src"][in_e], g["time"][in_e]),
            list_entries(cp, pair_ids, pair_dst, g["time"][pair_ids]),
        )
    return cache["lists"]


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


#: The root filter's integer gap meaning "no next edge in the list" (gaps saturate there too).
GAP_NONE = 2**32 - 1


def level1_gaps(xp: Any, kind: str, g: dict, walk: tuple, nth: int = 1) -> Any:
    """For every edge ``e``, the time from ``e`` to the ``nth`` edge after it (by id) in the
    list ``kind`` (:func:`level1_list`), 32 bits wide, with array module ``xp``: the root
    filter's input (``nth=1``). Lists are in id (hence time) order, so no later edge of the
    list lies in a window that this one leaves, and a root can start a match only if its gap
    is within level 1's limit; with ``nth=SPLIT_MIN``, a root whose gap is beyond it has fewer
    than ``nth`` level-1 candidates (not split off).

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


def _level1_gaps_device(graph: TemporalGraph, kind: str) -> tuple:
    """``(gaps, quantiles)``: :func:`level1_gaps` on the current device and its
    :func:`gap_quantiles`, for the last list kind asked (cached per graph; the memory estimate
    counts one such array)."""
    cache = _device_cache(graph)
    hit = cache.get("gap1")
    if hit is None or hit[0] != kind:
        cache.pop("gap1", None)
        cp = import_cupy()
        gaps = level1_gaps(cp, kind, _graph_device(graph), _walk_device(graph))
        cache["gap1"] = (kind, gaps, gap_quantiles(cp, gaps))
    return cache["gap1"][1:]


def _split_gate(graph: TemporalGraph, kind: str, nth: int, roots: int) -> float:
    """The ``roots``-th smallest gap from an edge to the ``nth`` next edge of list ``kind``
    (:func:`level1_gaps`; ``inf`` when fewer edges have one): splitting runs only for level-1
    limits at or above it (cached per graph, list kind, ``nth`` and ``roots``)."""
    cache = _device_cache(graph).setdefault("split_gate", {})
    key = (kind, nth, roots)
    if key not in cache:
        cp = import_cupy()
        gaps = level1_gaps(cp, kind, _graph_device(graph), _walk_device(graph), nth)
        gaps = gaps.astype(cp.float64)  # GAP_NONE / inf where no nth edge: never below a limit
        kth = float(cp.partition(gaps, roots - 1)[roots - 1]) if len(gaps) >= roots else None
        cache[key] = float("inf") if kth is None else kth
    return cache[key]


def _level1_limit(plan: TemporalPlan) -> int | float | None:
    """The tightest time limit on level 1 from the root (window, gap), or None (no limit)."""
    lims = []
    if plan.delta_on:
        lims.append(np.asarray(plan.delta).item())
    if plan.l >= 2 and bool(plan.gap_on[1]):
        lims.append(np.asarray(plan.gap[1]).item())
    return min(lims) if lims else None


def upload(graph: TemporalGraph) -> None:
    """Put ``graph`` on the device and build its walk, pair and list indexes now (otherwise done on
    first use). All are cached on the graph; benchmarks call this to time them apart.
    """
    _walk_device(graph)
    _lists_device(graph)


def release(graph: TemporalGraph) -> None:
    """Free the current device's data of ``graph``: its arrays, walk, pair and list indexes,
    and the plan data (work buffers, cached launch arguments) of plans run on it there.
    Rebuilt on next use; other devices' data stay. The multi-device scheduler calls this after
    each time-partition slice when a device budget is in force (``docs/out_of_core.md``).
    """
    dev = current_device()
    graph.forget_device_data("cuda_temporal", dev)
    with _PLAN_LOCK:
        for per_device in list(_PLAN_DATA.values()):
            hit = per_device.get(dev)
            if hit is None:
                continue
            owner = hit[0]()
            if owner is None or owner is graph:
                del per_device[dev]


def _device_args(graph: TemporalGraph) -> list:
    """The graph arguments of the DFS kernels before ``allow``, in their order (they read the
    lists as entries, :func:`_lists_device`)."""
    g = _graph_device(graph)
    return [g[k] for k in ("src", "dst", "time", "next_id", "out_ptr", "in_ptr", "nlab", "elab")]


def _graph_args(graph: TemporalGraph) -> list:
    g = _graph_device(graph)
    return [g[k] for k in ("src", "dst", "time", "next_id", "out_ptr", "out_edges", "in_ptr",
                           "in_edges")]  # fmt: skip


@dataclass
class _Prep:
    """A plan's device data on one device, cached in ``_PLAN_DATA``.

    It refers to its graph and plan weakly: the cache is keyed weakly by the plan, and a strong
    reference from a cached value back to its key would keep the plan, its graph and all their
    device arrays alive for the rest of the process.
    """

    graph_ref: weakref.ref
    plan_ref: weakref.ref
    defines: dict
    plab: Any
    tlim: Any
    allow: Any
    module: Any = None
    built: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    buffers: dict = field(default_factory=dict)
    launch: tuple | None = None  # (grid size, kernel graph arguments), fixed per graph and plan

    @property
    def graph(self) -> TemporalGraph:
        return _alive(self.graph_ref, "graph")

    @property
    def plan(self) -> TemporalPlan:
        return _alive(self.plan_ref, "plan")


def _alive(ref: weakref.ref, what: str) -> Any:
    """The object ``ref`` refers to; RuntimeError naming ``what`` when it was freed."""
    obj = ref()
    if obj is None:  # pragma: no cover - callers hold the graph and plan while they run
        raise RuntimeError(f"the {what} of this prepared plan was freed")
    return obj


#: Per-plan device data (compiled module, label codes, limits, work buffers), freed with the
#: plan, one entry per device id; the entry remembers the graph the plan was built for.
_PLAN_DATA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PLAN_LOCK = threading.Lock()


def _prepare(graph: TemporalGraph, plan: TemporalPlan) -> _Prep:
    dev = current_device()
    with _PLAN_LOCK:
        per_device = _PLAN_DATA.get(plan)
        if per_device is None:
            per_device = _PLAN_DATA[plan] = {}
    hit = per_device.get(dev)
    if hit is not None and hit[0]() is graph:
        prep = hit[1]
        prep.stats = {}
        return prep
    cp = import_cupy()
    if plan.lim_dtype != graph.time.dtype:
        raise ValueError("plan and graph differ in time dtype: build the plan for this graph")
    defines = kernel_defines(plan, graph)
    tdt = graph.time.dtype
    plab = np.concatenate([plan.node_label, plan.edge_label]).astype(np.int32)
    tlim = np.concatenate([[plan.delta], plan.gap, plan.anti_w]).astype(tdt)
    allow = cp.zeros(1, dtype=cp.uint8)
    if defines["ALLOW"]:
        allow = cp.asarray(np.ascontiguousarray(plan.node_allow, dtype=np.uint8).ravel())
    graph_ref = weakref.ref(graph)
    prep = _Prep(graph_ref, weakref.ref(plan), defines, cp.asarray(plab), cp.asarray(tlim), allow)
    per_device[dev] = (graph_ref, prep)
    return prep


def _kernel(prep: _Prep, name: str = "temporal_dfs") -> Any:
    """A kernel of the module specialised for the plan's structure (compiled once)."""
    if prep.module is None:
        module = load_module("temporal_dfs.cu", prep.defines)
        seconds = module.compile_seconds
        blocks = prep.defines.get("MIN_BLOCKS", 1)
        if blocks > 1 and module.kernel("temporal_dfs").local_size_bytes > SPILL_MAX:
            # the register cap spills too much for this shape: one block per SM fewer
            prep.defines = {**prep.defines, "MIN_BLOCKS": blocks - 1}
            module = load_module("temporal_dfs.cu", prep.defines)
            seconds += module.compile_seconds
        prep.module = module
        prep.stats["compile_seconds"] = seconds
        k = module.kernel("temporal_dfs")
        prep.built = {  # what the DFS kernel was built as (the probes report it)
            "min_blocks": prep.defines.get("MIN_BLOCKS", 1),
            "registers": int(k.num_regs),
            "local_bytes": int(k.local_size_bytes),
        }
    if name == "temporal_dfs":
        prep.stats.update(prep.built)
    return prep.module.kernel(name)


def _buffer(prep: _Prep, name: str, size: int, dtype: Any) -> Any:
    """A device work buffer of at least ``size`` elements, kept with the plan."""
    buf = prep.buffers.get(name)
    if buf is None or len(buf) < size:
        cp = import_cupy()
        buf = cp.empty(max(size, 1), dtype=dtype)
        prep.buffers[name] = buf
    return buf


def _zero(a: Any) -> None:
    """Zero the contiguous device array ``a`` on the current stream (a memset, without CuPy's
    kernel launch machinery: this runs on every call)."""
    cp = import_cupy()
    cp.cuda.runtime.memsetAsync(a.data.ptr, 0, a.nbytes, cp.cuda.get_current_stream().ptr)


def _prefix_buffer(prep: _Prep, name: str, n: int) -> Any:
    """``n + 1`` int64 prefix sums kept with the plan, whose first entry is 0 (set when the
    buffer is made; the scans write only the rest)."""
    cp = import_cupy()
    buf = _buffer(prep, name, n + 1, cp.int64)
    if prep.buffers.get(name + ":zeroed") is not buf:
        buf[:1] = 0
        prep.buffers[name + ":zeroed"] = buf
    return buf[: n + 1]


def _drop_buffers(graph: TemporalGraph, plan: TemporalPlan, *args: Any, **kw: Any) -> None:
    """Forget the plan's cached work buffers (after a GPU out-of-memory error)."""
    hit = (_PLAN_DATA.get(plan) or {}).get(current_device())
    if hit is not None:
        hit[1].buffers.clear()


def _null() -> np.uint64:
    return np.uint64(0)


def _record_words(plan: TemporalPlan) -> int:
    return 4 + int(plan.l)


# ====================================================================== the launch loop
@dataclass
class _Launches:
    """The launches that open a call of :func:`_run`: what runs, on which buffers, with which
    arguments, decided once per plan and call shape (``key``) and kept with the plan, so that a
    repeated call only zeroes the control block and enqueues them (issue 9: no per-call host
    work beyond that)."""

    key: tuple
    blocks: int  # DFS grid (persistent blocks)
    rw: int  # words per record
    tail_ns: int  # the first DFS launch's tail time (0: no tail dump)
    dumps: list  # tail record buffers: a launch writes dumps[round % 2]
    ctl: Any  # the control block (16 device words)
    first: tuple  # arguments of the first DFS launch
    #: (grid, list kind, arguments after the gaps) of the root filter (temporal_roots); the gap
    #: array is looked up per call (the TemporalGraph keeps one, of the last list kind asked)
    roots: tuple | None = None
    level1: tuple | None = None  # (grid, arguments, lengths, prefix sums) of temporal_level1
    split: tuple | None = None  # (grid, arguments, lengths, prefix sums) of the split records
    second: tuple | None = None  # arguments of the record launch after a split root launch
    splitcap: int = 0
    #: ``tail_args(round, records, prefix sums, count, tail_ns)``: a tail-record launch's arguments
    tail_args: Callable[[int, Any, Any, int, int], tuple] | None = None
    uses: int = 0  # calls that ran these launches
    graph: Any = None  # the launches captured as a CUDA graph (GRAPHS), from the second use
    graph_gaps: Any = None  # the root filter's gap array the graph reads (kept alive with it)


def _launch_key(*call: Any) -> tuple:
    """What :class:`_Launches` are decided from besides the plan: the call's arguments and the
    module's switches (the tests and probes change them)."""
    return (*call, ROOT_FILTER, ROOT_FILTER_MAX_KEPT, EXPAND_ROOTS, SPLIT_MIN, SPLIT_GATE_ROOTS,
            ROOT_CHUNK, RECORD_CHUNK)  # fmt: skip


def _launches(
    prep: _Prep,
    mode: int,
    lo: int,
    hi: int,
    *,
    steal: bool,
    tail_ms: float,
    out: Any,
    outcap: int,
    expand: bool,
    count_last: bool,
) -> _Launches:
    """Decide and size the opening launches of :func:`_run` (see there) and build their
    arguments."""
    cp = import_cupy()
    kern = _kernel(prep)
    graph, plan = prep.graph, prep.plan
    if prep.launch is None:  # the same for every call on this graph and plan
        gargs = (
            *_device_args(graph),
            prep.allow,
            *_walk_device(graph),
            *_lists_device(graph),
            np.int32(graph.n),
            np.int64(graph.m),
            prep.plab,
            prep.tlim,
        )
        prep.launch = (persistent_blocks(kern, WPB * 32), gargs)
    blocks, gargs = prep.launch
    lanes = blocks * WPB * 32
    rw = _record_words(plan)
    tail_ns = int(tail_ms * 1e6) if tail_ms and tail_ms > 0 and plan.l >= 2 else 0
    dumpcap = lanes * max(plan.l - 1, 1) if tail_ns else 0
    expanding = expand and plan.l >= 3 and 0 < hi - lo <= EXPAND_ROOTS
    kind = level1_list(prep.defines)
    lim1 = _level1_limit(plan)
    filtering = (
        ROOT_FILTER
        and mode != MODES["enumerate"]
        and plan.l >= 2
        and hi - lo > EXPAND_ROOTS
        and kind is not None
        and lim1 is not None
    )
    if filtering and (graph.integer_times and lim1 >= GAP_NONE):
        filtering = False  # beyond the 32-bit gaps
    if filtering:  # built once per graph and list kind
        quantiles = _level1_gaps_device(graph, kind)[1]
        filtering = kept_share(quantiles, lim1) <= ROOT_FILTER_MAX_KEPT
    splitting = expand and plan.l >= 4 and hi - lo > EXPAND_ROOTS and SPLIT_MIN > 0
    if splitting and SPLIT_GATE_ROOTS > 0 and kind is not None and lim1 is not None:
        splitting = lim1 >= _split_gate(graph, kind, SPLIT_MIN, SPLIT_GATE_ROOTS)
    splitcap = min(hi - lo, EXPAND_ROOTS) if splitting else 0
    # record buffers: a launch writes its tail records into dumps[round % 2] while reading the
    # other; the root launch (round 1) also writes its split roots into dumps[1], after room
    # for dumpcap tail records
    dumps = [
        _buffer(prep, "dump0", dumpcap * rw, cp.int64),
        _buffer(prep, "dump1", (dumpcap + splitcap) * rw, cp.int64),
    ]
    ctl = _buffer(prep, "ctl", 16, cp.uint64)[:16]
    threads = WPB * 32
    null = _null()

    def dfs_args(item: tuple, roots: Any, rec: Any, pref: Any, nrec: int, rnd: int, tail: int,
                 split_on: bool) -> tuple:  # fmt: skip
        return (
            *gargs,
            np.int64(item[0]),
            np.int64(item[1]),
            roots if roots is not None and rec is None else null,
            rec if rec is not None else null,
            pref if pref is not None else null,
            np.int64(nrec),
            ctl,
            out if out is not None else null,
            np.int64(outcap),
            dumps[rnd % 2] if tail else null,
            np.int64(dumpcap),
            np.int32(mode),
            np.int32(1 if steal else 0),
            np.int64(tail),
            np.int32(1 if count_last else 0),
            dumps[1][dumpcap * rw :] if split_on else null,
            np.int64(splitcap if split_on else 0),
            np.int32(SPLIT_MIN if split_on else 0),
            np.int32(RECORD_CHUNK if rec is not None else ROOT_CHUNK),
        )

    item = (lo, hi)  # the root launch's work items: roots lo..hi-1
    seq = _Launches((), blocks, rw, tail_ns, dumps, ctl, ())
    roots = rec = pref = None
    nrec = 0
    if filtering:
        # the roots whose level-1 window is not empty, compacted; the root launch takes
        # roots[0 .. kept), reading the count itself (item_hi < 0): no host round trip
        roots = _buffer(prep, "roots", hi - lo, cp.int64 if _wide_ids(graph) else cp.int32)
        lim = np.float64(lim1) if not graph.integer_times else np.int64(lim1)
        grid = (min(blocks * 4, -(-(hi - lo) // threads)),)
        seq.roots = (grid, kind, (lim, np.int64(lo), np.int64(hi), roots, ctl))
        item = (0, -1)
    if expanding:
        # root r's live level-1 range becomes a record (compacted); the count stays on the
        # device (the DFS launch reads ctl[C_NREC]) and the prefix sums run over the whole
        # buffer, whose unused lengths are zero
        cap = hi - lo
        rec = _buffer(prep, "level1", cap * rw, cp.int64)
        lens = _buffer(prep, "level1_len", cap, cp.int64)[:cap]
        pref = _prefix_buffer(prep, "level1_pref", cap)
        grid = (min(blocks * 4, -(-cap // threads)),)
        k1_args = (*gargs, np.int64(lo), np.int64(hi), rec, lens, ctl)
        seq.level1 = (grid, k1_args, lens, _scan_args(prep, lens, pref[1:]))
        nrec = -(cap + 1)
    if splitting:
        # the root launch splits roots off (without a tail dump of its own) and the record
        # launch that takes them follows on the device: their lengths and prefix sums, then
        # the launch, which reads their count (nrec < 0), and dumps its tail
        seq.first = dfs_args(item, roots, rec, pref, nrec, 1, 0, True)
        rec = dumps[1][dumpcap * rw : (dumpcap + splitcap) * rw]
        lens = _buffer(prep, "split_len", splitcap, cp.int64)[:splitcap]
        pref = _prefix_buffer(prep, "split_pref", splitcap)
        grid = (min(blocks * 4, -(-splitcap // threads)),)
        rl_args = (rec, np.int64(splitcap), ctl, lens)
        seq.split = (grid, rl_args, lens, _scan_args(prep, lens, pref[1:]))
        seq.second = dfs_args(item, roots, rec, pref, -(splitcap + 1), 2, tail_ns, False)
        seq.splitcap = splitcap
    else:
        seq.first = dfs_args(item, roots, rec, pref, nrec, 1, tail_ns, False)
    seq.key = _launch_key(mode, lo, hi, steal, tail_ms, expand, count_last)
    seq.tail_args = lambda rnd, rec, pref, nrec, tail: dfs_args(
        item, None, rec, pref, nrec, rnd, tail, False
    )
    return seq


def _events(prep: _Prep) -> tuple:
    """``(start, end, filtered, copied)`` CUDA events, kept with the plan."""
    events = prep.buffers.get("events")
    if events is None:
        cp = import_cupy()
        events = prep.buffers["events"] = tuple(cp.cuda.Event() for _ in range(4))
    return events


def _ctl_host(prep: _Prep) -> np.ndarray:
    """A pinned host copy of the control block, kept with the plan: the copy is enqueued after
    the last launch, so the host reads the words without a synchronous copy of its own."""
    host = prep.buffers.get("ctl_host")
    if host is None:
        cp = import_cupy()
        mem = cp.cuda.alloc_pinned_memory(16 * 8)
        host = prep.buffers["ctl_host"] = np.frombuffer(mem, np.uint64, 16)
    return host


def _scan_args(prep: _Prep, values: Any, out: Any) -> tuple:
    """``(grid, tile arguments, add arguments)``: the prefix-sum kernels writing the inclusive
    sums of ``values`` to ``out`` (``temporal_scan_tiles`` / ``temporal_scan_add``, no
    temporary allocation: capturable)."""
    cp = import_cupy()
    n = len(values)
    tiles = max(-(-n // SCAN_TILE), 1)
    sums = _buffer(prep, "scan_sums", tiles, cp.int64)
    return (tiles,), (values, np.int64(n), out, sums), (out, np.int64(n), sums)


def _scan(prep: _Prep, scan: tuple) -> None:
    grid, tile_args, add_args = scan
    threads = (WPB * 32,)
    _kernel(prep, "temporal_scan_tiles")(grid, threads, tile_args)
    _kernel(prep, "temporal_scan_add")(grid, threads, add_args)


def _open(prep: _Prep, seq: _Launches, gaps: Any, filtered: Any = None) -> None:
    """Enqueue the opening launches ``seq`` on the current stream (``gaps``: the root filter's
    gap array; ``filtered``: an event recorded after the root filter, if any)."""
    threads = (WPB * 32,)
    _zero(seq.ctl)
    if seq.roots is not None:
        grid, _, args = seq.roots
        _kernel(prep, "temporal_roots")(grid, threads, (gaps, *args))
        if filtered is not None:
            filtered.record()
    if seq.level1 is not None:
        grid, args, lens, scan = seq.level1
        _zero(lens)
        _kernel(prep, "temporal_level1")(grid, threads, args)
        _scan(prep, scan)
    kern = _kernel(prep)
    kern((seq.blocks,), threads, seq.first)
    if seq.split is not None:
        grid, args, lens, scan = seq.split
        _kernel(prep, "temporal_record_lengths")(grid, threads, args)
        _scan(prep, scan)
        kern((seq.blocks,), threads, seq.second)


def _capture(prep: _Prep, seq: _Launches, gaps: Any) -> Any:
    """``seq``'s opening launches captured as a CUDA graph (on a stream kept with the plan:
    capture cannot use the legacy default stream); the graph is launched on any stream."""
    cp = import_cupy()
    stream = prep.buffers.get("capture")
    if stream is None:
        stream = prep.buffers["capture"] = cp.cuda.Stream(non_blocking=True)
    with stream:
        stream.begin_capture()
        try:
            _open(prep, seq, gaps)
        finally:
            graph = stream.end_capture()
    return graph


def _run(
    prep: _Prep,
    mode: int,
    lo: int,
    hi: int,
    *,
    steal: bool,
    tail_ms: float,
    out: Any = None,
    outcap: int = 0,
    expand: bool = True,
    count_last: bool = True,
) -> np.ndarray:
    """Run the DFS kernel over roots ``[lo, hi)`` and every record launch after it; return ctl.

    With ``expand`` (motifs of three edges or more): at most ``EXPAND_ROOTS`` roots, a first
    kernel lists the level-1 candidate range of every root that has one, and the DFS launch
    takes one (root, level-1 candidate) pair per work item; more roots, one root per work item,
    and (motifs of four edges or more) the roots whose level-1 range holds ``SPLIT_MIN``
    candidates or more are split off as records for the next launch. Each launch's tail
    redistribution (``tail_ms``) adds records.

    The opening launches (:class:`_Launches`) are built once per plan and call shape, and from
    the shape's second call on replayed as one CUDA graph (:data:`GRAPHS`); a call with an
    output buffer (``out``, enumeration) builds its own and launches them one by one.
    """
    cp = import_cupy()
    kern = _kernel(prep)
    key = _launch_key(mode, lo, hi, steal, tail_ms, expand, count_last)
    seq = prep.buffers.get("launches") if out is None else None
    if seq is None or seq.key != key:
        kw = dict(steal=steal, tail_ms=tail_ms, expand=expand, count_last=count_last)
        seq = _launches(prep, mode, lo, hi, out=out, outcap=outcap, **kw)
        if out is None:  # only the last shape is kept: its buffers are views of the plan's
            prep.buffers["launches"] = seq
    blocks, ctl, rw = seq.blocks, seq.ctl, seq.rw
    grid, threads = (blocks,), (WPB * 32,)
    start, end, filtered, copied = _events(prep)
    host = _ctl_host(prep)
    current = cp.cuda.get_current_stream()
    gaps = _level1_gaps_device(prep.graph, seq.roots[1])[0] if seq.roots is not None else None
    if GRAPHS and out is None:
        seq.uses += 1
        if seq.graph is not None and seq.graph_gaps is not gaps:
            seq.graph = None  # the graph's gap array was replaced (another list kind asked)
        if seq.graph is None and seq.uses >= 2:
            seq.graph, seq.graph_gaps = _capture(prep, seq, gaps), gaps
    replay = GRAPHS and out is None and seq.graph is not None
    start.record()
    if replay:
        seq.graph.launch(stream=current)
    else:
        _open(prep, seq, gaps, filtered)
    rounds = 2 if seq.split is not None else 1
    stream = current.ptr
    tail_ns = seq.tail_ns
    stats = prep.stats
    first = True
    while True:
        end.record()
        # the control words come back in a copy into pinned memory enqueued after the launches
        # (no synchronous copy of its own). Ctrl-C: warps poll their flags (F_FOUND stops
        # them); the launch's results are dropped
        cp.cuda.runtime.memcpyAsync(host.ctypes.data, ctl.data.ptr, 128, _D2H, stream)
        copied.record()
        wait_event(copied, stop=lambda: request_stop(ctl, C_FLAGS, F_FOUND))
        stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + cp.cuda.get_elapsed_time(start, end)
        h = host.copy()
        if first:  # counts of the first launches (the words are reset below)
            first = False
            if seq.roots is not None:
                stats["roots_kept"] = stats.get("roots_kept", 0) + int(h[C_NROOT])
                if not replay:  # a graph has no event between its launches
                    stats["filter_ms"] = stats.get("filter_ms", 0.0) + cp.cuda.get_elapsed_time(
                        start, filtered
                    )
            nsplit = min(int(h[C_NREC]), seq.splitcap) if seq.split else int(h[C_NREC])
            stats["level1_records"] = stats.get("level1_records", 0) + nsplit
        flags = int(h[C_FLAGS])
        if flags & F_DUMPFULL:  # pragma: no cover - capacity is the proven maximum
            raise RuntimeError("internal error: tail dump buffer overflowed")
        if flags & F_OVERFLOW:
            raise overflow_error()
        ndump = int(h[C_NDUMP])
        stats["steals"] = stats.get("steals", 0) + int(h[C_NSTEAL])
        stats["tail_warps"] = stats.get("tail_warps", 0) + int(h[C_NTAIL])
        stats["tail_records"] = stats.get("tail_records", 0) + ndump
        if ndump == 0 or flags & (F_FOUND | F_OUTFULL):
            break
        # the next launch takes every candidate of this launch's tail records as a work item
        rec = seq.dumps[rounds % 2][: ndump * rw]
        recs = rec.reshape(ndump, rw)
        pref = cp.zeros(ndump + 1, dtype=cp.int64)
        cp.cumsum(recs[:, 3] - recs[:, 2], out=pref[1:])
        ctl[C_CURSOR] = 0
        ctl[C_NDUMP:] = 0
        tail_ns *= 2
        rounds += 1
        start.record()
        kern(grid, threads, seq.tail_args(rounds, rec, pref, ndump, tail_ns))  # type: ignore[misc]
    stats["launches"] = stats.get("launches", 0) + rounds
    stats["blocks"] = blocks
    stats["graph"] = int(replay)
    return h


def _finish(prep: _Prep, **kw: Any) -> None:
    last_run.clear()
    last_run.update(prep.stats)
    last_run.update(kw)


# ====================================================================== public API
@oom_retry(on_oom=_drop_buffers, what="count")
def count(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int = 0,
    hi: int | None = None,
    *,
    steal: bool = True,
    tail_ms: float = 10.0,
    expand: bool = True,
    count_last: bool = True,
    max_device_bytes: int | None = None,
) -> int:
    """Count matches whose root edge id is in ``[lo, hi)``.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph (its arrays are uploaded once and cached on it).
    plan : TemporalPlan
        The plan built for ``graph``.
    lo, hi : int
        Root edge id range (default: all edges).
    steal : bool
        Intra-warp work stealing once the root edges are handed out.
    tail_ms : float
        Tail-warp redistribution: milliseconds after the first warp runs out of work at which
        still-busy warps dump their cached ranges for a relaunch (0 disables it).
    expand : bool
        With at most ``EXPAND_ROOTS`` roots, list each root's level-1 candidates first and give
        the DFS one (root, candidate) pair per work item (more parallelism on small graphs);
        with more (motifs of four edges or more), split off the roots with ``SPLIT_MIN`` or more
        level-1 candidates that way, for a second launch. False: one root per work item.
    count_last : bool
        Count the last level's matches from its candidate range and the pair index instead of
        walking them, where the level has no labels, node conditions or anti-edges to check.
    max_device_bytes : int, optional
        Device memory the call may use (default: the configured budget, see :mod:`.memory`;
        None there: total device memory minus a margin). When the estimated need of the whole edge
        stream exceeds it, time partitions sized to the budget are streamed through the GPU,
        copy overlapping compute (``docs/out_of_core.md``).

    Returns
    -------
    int
        Number of edge-id tuples matching the motif.

    Raises
    ------
    CapacityError
        If the count does not fit in 64 bits.
    """
    lo, hi = checked_range(lo, hi, graph.m)
    if plan.impossible or hi <= lo:
        last_run.clear()
        return 0
    kw = dict(steal=steal, tail_ms=tail_ms, expand=expand, count_last=count_last)
    parts = _stream_plan(graph, plan, lo, hi, max_device_bytes, "count", kw)
    if parts is not None:
        return int(_stream(graph, plan, parts, "count", None, kw))
    prep = _prepare(graph, plan)
    h = _run(
        prep,
        MODES["count"],
        lo,
        hi,
        steal=steal,
        tail_ms=tail_ms,
        expand=expand,
        count_last=count_last,
    )
    total = checked_total(int(h[C_COUNT]))
    _finish(prep, mode="count")
    return total


@oom_retry(on_oom=_drop_buffers, what="existence test")
def exists(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int = 0,
    hi: int | None = None,
    *,
    steal: bool = True,
    tail_ms: float = 10.0,
    expand: bool = True,
    count_last: bool = True,
    max_device_bytes: int | None = None,
) -> bool:
    """Whether some match has its root edge id in ``[lo, hi)`` (every warp stops at the first).

    Parameters are those of :func:`count` (streamed partitions stop at the first match).
    """
    lo, hi = checked_range(lo, hi, graph.m)
    if plan.impossible or hi <= lo:
        last_run.clear()
        return False
    kw = dict(steal=steal, tail_ms=tail_ms, expand=expand, count_last=count_last)
    parts = _stream_plan(graph, plan, lo, hi, max_device_bytes, "exists", kw)
    if parts is not None:
        return bool(_stream(graph, plan, parts, "exists", None, kw))
    prep = _prepare(graph, plan)
    h = _run(
        prep,
        MODES["exists"],
        lo,
        hi,
        steal=steal,
        tail_ms=tail_ms,
        expand=expand,
        count_last=count_last,
    )
    _finish(prep, mode="exists")
    return bool(int(h[C_FLAGS]) & F_FOUND)


def _sorted_rows(cp: Any, rows: Any) -> Any:
    """Rows in lexicographic order of (e_1, ..., e_l): the CPU engine's root-then-DFS order."""
    if len(rows) < 2:
        return rows
    order = cp.lexsort(cp.ascontiguousarray(rows.T[::-1]))
    return rows[order]


def _fill(prep: _Prep, lo: int, hi: int, cap: int, steal: bool, tail_ms: float) -> np.ndarray:
    """Enumerate roots ``[lo, hi)`` into a ``cap``-row device buffer (stops when it is full)."""
    cp = import_cupy()
    ncol = int(prep.plan.l)
    try:
        out = cp.empty(max(cap, 1) * ncol, dtype=cp.int64)
    except cp.cuda.memory.OutOfMemoryError as exc:
        raise CapacityError(
            f"an output block of {cap} matches ({8 * cap * ncol} bytes) does not fit on the GPU;"
            " pass a smaller max_buffer_rows or use a limit"
        ) from exc
    h = _run(prep, MODES["enumerate"], lo, hi, steal=steal, tail_ms=tail_ms, out=out, outcap=cap)
    rows = min(int(h[C_OUTCUR]), cap)
    block = _sorted_rows(cp, out[: rows * ncol].reshape(rows, ncol))
    return cp.asnumpy(block)


@oom_retry({"max_buffer_rows": 1 << 25}, on_oom=_drop_buffers, what="listing")
def enumerate_matches(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int = 0,
    hi: int | None = None,
    limit: int | None = None,
    *,
    steal: bool = True,
    tail_ms: float = 10.0,
    max_buffer_rows: int = 1 << 25,
    max_device_bytes: int | None = None,
) -> np.ndarray:
    """All matches (or ``limit`` of them) with root edge id in ``[lo, hi)``.

    Parameters
    ----------
    graph, plan, lo, hi, steal, tail_ms
        As in :func:`count`.
    limit : int, optional
        Return at most this many matches (any ``limit`` distinct matches of the range).
    max_buffer_rows : int
        Largest device output block; a root range with more matches is split (each block is
        copied to the host as it completes), and a single root with more grows the block.
        Streamed partitions (see ``max_device_bytes``) cap it by the budget.
    max_device_bytes : int, optional
        As in :func:`count`.

    Returns
    -------
    numpy.ndarray
        ``(n, l)`` int64 edge ids, column ``i`` = ``e_i``, rows in lexicographic order
        (the CPU engine's order: by root edge, then depth-first).

    Raises
    ------
    CapacityError
        The matches do not fit the free host memory (pass ``limit``).
    """
    lo, hi = checked_range(lo, hi, graph.m)
    ncol = int(plan.l)
    limit = checked_limit(limit)
    if max_buffer_rows < 1:
        raise ValueError("max_buffer_rows must be >= 1")
    empty = np.empty((0, ncol), dtype=np.int64)
    if plan.impossible or hi <= lo or limit == 0:
        last_run.clear()
        return empty
    kw = dict(steal=steal, tail_ms=tail_ms, max_buffer_rows=max_buffer_rows)
    parts = _stream_plan(graph, plan, lo, hi, max_device_bytes, "enumeration", kw)
    if parts is not None:
        budget = memory.current_budget(max_device_bytes) or 0
        # output blocks take 1/16 of the budget (sorting them takes about three times that)
        rows_cap = max(budget // (16 * 8 * ncol), 1) if budget else max_buffer_rows
        kw["max_buffer_rows"] = min(max_buffer_rows, rows_cap)
        return _stream(graph, plan, parts, "enumerate", limit, kw)
    prep = _prepare(graph, plan)
    if limit is not None and limit <= max_buffer_rows:
        rows = _fill(prep, lo, hi, limit, steal, tail_ms)
        _finish(prep, mode="enumerate", blocks=1)
        return rows
    pieces: list[np.ndarray] = []
    got = 0
    todo = [(lo, hi)]
    while todo and (limit is None or got < limit):
        a, b = todo.pop()
        c = int(_run(prep, MODES["count"], a, b, steal=steal, tail_ms=tail_ms)[C_COUNT])
        if (a, b) == (lo, hi):  # the whole range: its count is the result size
            check_result_rows(c if limit is None else min(c, limit), ncol)
        if c == 0:
            continue
        if c > max_buffer_rows and b - a > 1:
            cut = split_root_edges(graph, 2, plan.delta_on, plan.delta, a, b)
            if len(cut) == 3:  # split in two, walk the lower half first
                todo += [(int(cut[1]), b), (a, int(cut[1]))]
                continue
            mid = (a + b) // 2
            todo += [(mid, b), (a, mid)]
            continue
        want = c if limit is None else min(c, limit - got)
        check_host_room(8 * ncol * (got + want) * 2, got + want)
        block = _fill(prep, a, b, want, steal, tail_ms)
        if limit is None and len(block) != c:  # pragma: no cover - engine invariant
            raise RuntimeError("internal error: enumeration pass disagrees with the count pass")
        pieces.append(block)
        got += len(block)
    _finish(prep, mode="enumerate", blocks=len(pieces))
    if not pieces:
        return empty
    rows = np.concatenate(pieces)
    return rows if limit is None else rows[:limit]


# ====================================================================== census
@oom_retry(what="census")
def census(
    graph: TemporalGraph,
    delta: float | int | None,
    tie: str = "strict",
    lo: int = 0,
    hi: int | None = None,
) -> np.ndarray:
    """Counts of the 36 three-edge motifs (``CENSUS_KEYS`` order) with root edge in ``[lo, hi)``.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    delta : number or None
        Window ``t_3 - t_1 <= delta`` (None: unbounded).
    tie : {"strict", "input_order"}
        Tie policy.
    lo, hi : int
        Root edge id range.

    Returns
    -------
    numpy.ndarray
        int64, shape (36,).
    """
    cp = import_cupy()
    delta = census_window(graph, delta, tie)
    lo, hi = checked_range(lo, hi, graph.m)
    if hi <= lo:
        return np.zeros(36, dtype=np.int64)
    on, d = encode_limit(delta, graph.integer_times, time_span(graph))
    tie_code = TIE_STRICT if tie == "strict" else TIE_INPUT_ORDER
    cm = load_module("temporal_census.cu", _type_defines(graph, tie_code, on))
    kern = cm.kernel("temporal_census")
    blocks = persistent_blocks(kern, WPB * 32)
    ctl = cp.zeros(16, dtype=cp.uint64)
    counts = cp.zeros(36, dtype=cp.uint64)
    table = cp.asarray(CENSUS_TABLE.astype(np.int32))
    # the census kernel does not poll flags: bounded launches of CENSUS_CHUNK roots each, with
    # an interruptible wait after each (Ctrl-C lands within one chunk's run time)
    kernel_ms = 0.0
    for a in range(lo, hi, CENSUS_CHUNK):
        b = min(hi, a + CENSUS_CHUNK)
        ctl.fill(0)
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        kern(
            (blocks,),
            (WPB * 32,),
            (
                *_graph_args(graph),
                np.int32(graph.n),
                np.int64(graph.m),
                graph.time.dtype.type(d),
                np.int64(a),
                np.int64(b),
                table,
                ctl,
                counts,
            ),
        )
        end.record()
        wait_event(end)
        kernel_ms += float(cp.cuda.get_elapsed_time(start, end))
    res = counts.get()
    checked_total(int(res.max()), "census count")
    last_run.clear()
    last_run.update(
        kernel_ms=kernel_ms,
        compile_seconds=cm.compile_seconds,
        mode="census",
        blocks=blocks,
    )
    return res.astype(np.int64)


# ====================================================================== out of core (streaming)
def _lanes_estimate() -> int:
    return sm_count() * 8 * WPB * 32


def _stream_plan(
    graph: TemporalGraph, plan: TemporalPlan, lo: int, hi: int, max_device_bytes: int | None,
    what: str, kw: dict,
) -> list[tuple[int, int, int]] | None:  # fmt: skip
    """None (in memory) or the streamed time partitions ``(root_lo, root_hi, edge_hi)``.

    Streaming turns tail-warp redistribution off in ``kw`` (``tail_ms=0``) when its buffers
    would take more than 1/8 of the budget (:func:`memory.stream_tail`).
    """
    if max_device_bytes == _INF_BUDGET:  # a streamed partition: sized to fit already
        return None
    max_device_bytes = memory.check_budget(max_device_bytes)
    cache = graph.device_data(("cuda_temporal", current_device())) or {}
    if memory.current_budget(max_device_bytes) is None and ("g" in cache or _built_here(graph)):
        return None  # already on the device, and no budget set (no device query per call)
    cp = import_cupy()
    free, total = cp.cuda.runtime.memGetInfo()
    budget, explicit = memory.resolve_budget(max_device_bytes, free, total)
    labels = graph.edge_label is not None or graph.node_label is not None
    lanes = _lanes_estimate()
    need = device_need(graph, plan)["total"]
    what = f"temporal {what} of a {plan.l}-edge motif ({graph.m} edges)"
    if need <= budget:
        memory.choose(what, need, budget, 0, explicit)
        return None
    if what.startswith("temporal enumeration"):  # a quarter for the output blocks
        budget = budget * 3 // 4
    tail = memory.stream_tail(budget, l=int(plan.l), lanes=lanes)
    max_edges = memory.temporal_edge_budget(budget, n=graph.n, l=int(plan.l), lanes=lanes,
                                            labels=labels, tail=tail)  # fmt: skip
    if not tail:
        kw["tail_ms"] = 0.0
    parts = memory.stream_partitions(graph.time, time_reach(plan), lo, hi, max_edges)
    memory.choose(what, need, budget, 0, explicit)
    return parts


def _built_here(graph: TemporalGraph) -> bool:
    """Whether ``graph`` was built on the current device (cuDF / CuPy columns)."""
    dev = graph.device_data("arrays") if graph.built_on_device else None
    return dev is not None and dev["src"].device.id == current_device()


def device_need(graph: TemporalGraph, plan: TemporalPlan) -> dict[str, int]:
    """Estimated in-memory device need of ``plan`` on ``graph`` (bytes, by part): the number
    the engine compares with the budget (:func:`memory.temporal_need`)."""
    return memory.temporal_need(
        graph.n,
        graph.m,
        l=int(plan.l),
        lanes=_lanes_estimate(),
        wide_ids=_wide_ids(graph),
        edge_labels=graph.edge_label is not None,
        node_labels=graph.node_label is not None,
    )


#: Arrays copied per streamed partition (its contiguous edge range); the lists and indexes are
#: built from them on the device (:func:`nx_gpumine.inputs.device.temporal_index_arrays`).
_SLOT_ARRAYS = ("src", "dst", "time")


def _slot_dtypes(graph: TemporalGraph) -> dict:
    d = {"src": np.int32, "dst": np.int32, "time": graph.time.dtype}
    if graph.edge_label is not None:
        d["elab"] = np.int32
    return d


class _Partition(TemporalGraph):
    """A streamed partition's host view: the list pointers are computed on first use (only the
    block split of a partition's enumeration reads them on the host)."""

    def _ptr(self, name: str) -> np.ndarray:
        ptr = self.__dict__.get(name)
        if ptr is None:
            own = self.src if name == "_out_ptr" else self.dst
            ptr = np.zeros(self.n + 1, dtype=np.int64)
            if len(own):
                np.cumsum(np.bincount(own, minlength=self.n), out=ptr[1:])
            self.__dict__[name] = ptr
        return ptr

    @property
    def n(self) -> int:
        n = self.__dict__.get("_n")
        return len(self.keys) if n is None else n

    out_ptr = property(lambda self: self._ptr("_out_ptr"),
                       lambda self, v: self.__dict__.__setitem__("_out_ptr", v))  # fmt: skip
    in_ptr = property(lambda self: self._ptr("_in_ptr"),
                      lambda self, v: self.__dict__.__setitem__("_in_ptr", v))  # fmt: skip


def partition_graph(graph: TemporalGraph, lo: int, hi: int) -> TemporalGraph:
    """The graph of edge ids ``[lo, hi)`` as the streamed engine needs it on the host: views
    of the edge columns (no copy; list pointers computed on first use). Its lists and next-id
    array are left empty: the engine builds them on the device (:meth:`_Streamer.attach`).
    Vertex ids stay global, edge ids are shifted by ``-lo`` (as
    :meth:`TemporalGraph.edge_slice`).
    """
    empty = np.zeros(0, dtype=np.int64)
    sub = _Partition(
        src=graph.src[lo:hi],
        dst=graph.dst[lo:hi],
        time=graph.time[lo:hi],
        rows=graph.rows[lo:hi],
        next_id=empty,
        out_ptr=None,
        out_edges=empty,
        in_ptr=None,
        in_edges=empty,
        keys=graph.keys,
        edge_label=None if graph.edge_label is None else graph.edge_label[lo:hi],
    )
    sub.__dict__["_n"] = graph.n
    sub.node_label, sub.node_values = graph.node_label, graph.node_values
    sub.node_vocab, sub.edge_vocab = graph.node_vocab, graph.edge_vocab
    sub.time_spec = graph.time_spec
    sub.share_key_map(graph)
    return sub


class _Streamer:
    """Two copy slots (pinned host + device) and the streams moving partitions through them.

    A partition is a contiguous edge range, so staging it is a copy of its ``src``, ``dst``,
    ``time`` (and edge label) columns into a pinned slot; the copy stream sends them while the
    previous partition computes, and the compute stream builds the partition's lists, next-id
    array, walk index and list entries on the device.
    """

    def __init__(self, graph: TemporalGraph, cap: int) -> None:
        cp = import_cupy()
        self.graph = graph
        self.dtypes = _slot_dtypes(graph)
        self.sizes = dict.fromkeys(self.dtypes, cap)
        self.host = [self._pinned() for _ in range(2)]
        self.dev = [{k: cp.empty(max(self.sizes[k], 1), dt) for k, dt in self.dtypes.items()}
                    for _ in range(2)]  # fmt: skip
        self.copy = cp.cuda.Stream(non_blocking=True)
        self.compute = cp.cuda.Stream(non_blocking=True)
        self.events = [cp.cuda.Event(), cp.cuda.Event()]
        self.starts = [cp.cuda.Event(), cp.cuda.Event()]
        self.dummy = cp.zeros(1, dtype=cp.int32)
        self.nlab = (
            self.dummy if graph.node_label is None else cp.asarray(graph.node_label, cp.int32)
        )
        self.copy_ms = 0.0
        self.stage_ms = 0.0  # host time staging (worker thread, overlapped)
        self.build_ms = 0.0  # host time issuing the device build of the lists

    def _pinned(self) -> dict:
        cp = import_cupy()
        out = {}
        for k, dt in self.dtypes.items():
            size = max(self.sizes[k], 1)
            mem = cp.cuda.alloc_pinned_memory(size * np.dtype(dt).itemsize)
            out[k] = np.frombuffer(mem, dtype=dt, count=size)
        return out

    def stage(self, slot: int, part: tuple[int, int, int]) -> TemporalGraph:
        """Copy partition ``part``'s edge columns into pinned slot ``slot`` (any thread)."""
        t0 = time.perf_counter()
        r0, _, e1 = part
        sub = partition_graph(self.graph, r0, e1)
        h = self.host[slot]
        for k in _SLOT_ARRAYS:
            h[k][: sub.m] = getattr(sub, k)
        if "elab" in h:
            h["elab"][: sub.m] = sub.edge_label
        self.stage_ms += 1e3 * (time.perf_counter() - t0)
        return sub

    def send(self, slot: int, sub: TemporalGraph) -> None:
        """Copy slot ``slot`` to the device on the copy stream; its event marks the end."""
        h, d = self.host[slot], self.dev[slot]
        self.starts[slot].record(self.copy)
        if sub.m:
            for k in self.dtypes:
                d[k][: sub.m].set(h[k][: sub.m], stream=self.copy)
        self.events[slot].record(self.copy)

    def attach(self, slot: int, sub: TemporalGraph) -> None:
        """Make the engine read ``sub`` from slot ``slot``: the compute stream waits for the
        copy, then builds the partition's lists and next-id array there (global vertex ids)."""
        from ...inputs.device import temporal_index_arrays

        cp = import_cupy()
        t0 = time.perf_counter()
        self.compute.wait_event(self.events[slot])
        d = self.dev[slot]
        g = {k: d[k][: sub.m] for k in _SLOT_ARRAYS}
        with self.compute:
            g.update(temporal_index_arrays(cp, g["src"], g["dst"], g["time"], sub.n, cp.int32))
        g["nlab"] = self.nlab
        g["elab"] = d["elab"][: sub.m] if "elab" in d else self.dummy
        _device_cache(sub)["g"] = g  # this device's entry (the slots live on it)
        self.build_ms += 1e3 * (time.perf_counter() - t0)


def _stream(
    graph: TemporalGraph,
    plan: TemporalPlan,
    parts: list[tuple[int, int, int]],
    mode: str,
    limit: int | None,
    kw: dict,
) -> Any:
    """Run ``mode`` over the streamed partitions: partition ``i + 1`` is built on the host and
    copied (pinned buffers, copy stream) while partition ``i`` computes (compute stream)."""
    from concurrent.futures import ThreadPoolExecutor

    cp = import_cupy()
    cap = max(e1 - r0 for r0, _, e1 in parts)
    if cap >= 2**31 - 1:
        raise CapacityError("a streamed partition must hold fewer than 2**31 - 1 edges")
    st = _Streamer(graph, cap)
    total, found, got = 0, False, 0
    blocks: list[np.ndarray] = []
    stats = {
        "partitions": len(parts),
        "partition_edges": cap,
        "kernel_ms": 0.0,
        "copy_ms": 0.0,  # H2D copies (copy stream; overlapping the previous partition's compute)
        "stage_wait_ms": 0.0,  # host time waiting for the next partition's slice
    }
    t0 = cp.cuda.Event()
    t0.record()
    with ThreadPoolExecutor(1) as pool:
        sub0 = st.stage(0, parts[0])
        st.send(0, sub0)
        nxt = pool.submit(st.stage, 1, parts[1]) if len(parts) > 1 else None
        cur = sub0
        for i, (r0, r1, _) in enumerate(parts):
            slot = i % 2
            if nxt is not None:  # partition i + 1: copy now, it overlaps compute i
                w0 = time.perf_counter()
                sub_next = nxt.result()
                stats["stage_wait_ms"] += 1e3 * (time.perf_counter() - w0)
                st.send(1 - slot, sub_next)
            st.events[slot].synchronize()  # copy i done: its pinned slot may be refilled
            stats["copy_ms"] += cp.cuda.get_elapsed_time(st.starts[slot], st.events[slot])
            nxt = None
            if i + 2 < len(parts):
                nxt = pool.submit(st.stage, slot, parts[i + 2])
            st.attach(slot, cur)
            sub_plan = plan  # depends on labels, vocabularies and time type only: the same
            with st.compute:
                if mode == "count":
                    total += count(cur, sub_plan, 0, r1 - r0, max_device_bytes=_INF_BUDGET, **kw)
                    checked_total(total)
                elif mode == "exists":
                    found = exists(cur, sub_plan, 0, r1 - r0, max_device_bytes=_INF_BUDGET, **kw)
                else:
                    left = None if limit is None else limit - got
                    block = enumerate_matches(
                        cur, sub_plan, 0, r1 - r0, left, max_device_bytes=_INF_BUDGET, **kw
                    )
                    blocks.append(block + r0)
                    got += len(block)
            stats["kernel_ms"] += float(last_run.get("kernel_ms", 0.0))
            # walk, pair and list indexes go back to the pool; so do the plan's work buffers
            # and cached launch arguments (the entry holds its plan and the slot arrays)
            release(cur)
            if found or (limit is not None and got >= limit):
                if nxt is not None:
                    nxt.result()
                break
            if i + 1 < len(parts):
                cur = sub_next
    t1 = cp.cuda.Event()
    t1.record()
    t1.synchronize()
    last_run.clear()
    stats["stage_ms"] = st.stage_ms
    stats["build_issue_ms"] = st.build_ms
    last_run.update(stats, out_of_core=True, mode=mode, stream_ms=cp.cuda.get_elapsed_time(t0, t1))
    if mode == "count":
        return total
    if mode == "exists":
        return found
    rows = np.concatenate(blocks) if blocks else np.empty((0, plan.l), np.int64)
    return rows if limit is None else rows[:limit]


#: Budget passed to the per-partition calls: the partition was sized to fit already.
_INF_BUDGET = 1 << 62
