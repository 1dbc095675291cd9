"""Device memory of the CUDA engines: estimate a query's need, choose in-memory or out-of-core.

The budget the need is compared with (``max_device_bytes``, the configured default, the
device's capacity less a margin) is the policy of :mod:`nx_gpumine.device_limits`. Before a
query the engine estimates its in-memory need (graph arrays, indexes and work
buffers: :func:`static_need`, :func:`temporal_need`) and :func:`choose` picks in-memory when it
fits, else out-of-core (``docs/out_of_core.md``); the choice is logged on the
``"nx_gpumine"`` logger (in memory at DEBUG, out of core at INFO). Everything here is host-side
arithmetic (tested on the CPU).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from ...errors import CapacityError

__all__ = [
    "Choice",
    "choose",
    "static_need",
    "static_ooc_settings",
    "temporal_need",
    "fsm_need",
    "FSM_ENTRY_BYTES",
    "FSM_NODE_BYTES",
    "temporal_edge_budget",
    "stream_partitions",
    "stream_tail",
    "tail_bytes",
    "ROOT_BYTES",
]

logger = logging.getLogger("nx_gpumine")

#: Device bytes per root entry of an out-of-core chunk: entry ids, the root mask, gathered
#: degrees, costs and their argsort (or the trie's first-level bounds and prefix sums).
ROOT_BYTES = 64


# ====================================================================== estimates
def static_need(
    n: int,
    nnz: int,
    *,
    k: int,
    max_degree: int,
    nwarps: int,
    node_labels: bool = False,
    edge_labels: bool = False,
    page_log: int = 10,
    dump_rows: int = 1 << 21,
    trie_budget: int = 1 << 26,
    shape: bool = False,
) -> dict[str, int]:
    """In-memory device need of a static query (bytes, by part).

    Parameters
    ----------
    n, nnz : int
        Vertices and union-CSR entries of the graph.
    k : int
        Pattern size.
    max_degree : int
        Largest union degree (the stack page tables are sized by it).
    nwarps : int
        Warps of the persistent grid (SMs x resident blocks x 8).
    node_labels, edge_labels : bool
        Whether label arrays are uploaded.
    page_log, dump_rows, trie_budget : int
        The engine's tuning values (page size, straggler records, largest trie level).
    shape : bool
        The query may run a shape kernel: add its rank graph (a renumbered copy of the CSR)
        and the scratch of building it on the device.

    Returns
    -------
    dict
        ``vertex`` (per-vertex arrays: indptr, deg, loop, labels), ``entry`` (per-entry
        arrays: indices, dircode, owner, root mask, edge labels), ``roots`` (root task list and
        its sort), ``work`` (stack pages, page tables, record buffers, trie levels), ``shape``
        and ``total``.
    """
    k = max(int(k), 2)
    page = 1 << int(page_log)
    vertex = 8 * (n + 1) + 4 * n + n + (8 * n if node_labels else 0)
    per_entry = 4 + 1 + 4 + 1 + (8 if edge_labels else 0)
    entry = per_entry * nnz
    roots = 32 * nnz  # entry ids + costs (int64) and the argsort's output and scratch
    maxpg = -(-max(int(max_degree), 1) // page)
    nslot = 2 * k
    npages = min(max(nwarps * max(k - 2, 1) * 2, 1024), nwarps * nslot * maxpg)
    work = 4 * nwarps * nslot * maxpg + 4 * npages * page
    work += 2 * 4 * dump_rows * (k + 1)
    trie = 8 * min(int(trie_budget), max(nnz, 1)) * 2  # two int32 columns per level, two levels
    work += trie
    shape_bytes = (36 * n + 44 * nnz) if shape else 0
    total = vertex + entry + roots + work + shape_bytes
    return {
        "vertex": vertex,
        "entry": entry,
        "roots": roots,
        "work": work,
        "shape": shape_bytes,
        "total": total,
    }


#: Device bytes per graph entry (each edge twice) of frequent subgraph mining in memory: the
#: level-1 and 2 codes (int64 owner, neighbour and edge label, a usable flag, the entries
#: sorted by type and their keys: 41) and the existence kernel's copy (int32 neighbour and
#: edge label, a usable byte: 9).
FSM_ENTRY_BYTES = 50
#: Device bytes per vertex: the CSR offsets and labels (both copies), per-type neighbour
#: counts, candidate masks and the search state of a pattern's orbits.
FSM_NODE_BYTES = 64


def fsm_need(n: int, nnz: int) -> int:
    """Estimated device bytes of mining frequent subgraphs of a graph of ``n`` vertices and
    ``nnz`` entries in device memory (:data:`FSM_ENTRY_BYTES`, :data:`FSM_NODE_BYTES`)."""
    return int(nnz) * FSM_ENTRY_BYTES + int(n) * FSM_NODE_BYTES


#: Device scratch bytes per temporal edge while the walk and pair indexes are built (int64
#: keys, ids and endpoints, searchsorted and argsort outputs).
TEMPORAL_SCRATCH_BYTES = 96
#: Roots per level-1 expansion slice of the temporal engine (its record buffers: ``4 + l``
#: words, a length and a prefix sum per root).
TEMPORAL_EXPAND_ROOTS = 1 << 21


def temporal_need(
    n: int,
    m: int,
    *,
    l: int,
    lanes: int,
    wide_ids: bool = False,
    edge_labels: bool = False,
    node_labels: bool = False,
    slots: int = 1,
    tail: bool = True,
) -> dict[str, int]:
    """Device need of a temporal query over ``m`` edges (bytes, by part).

    Parameters
    ----------
    n, m : int
        Vertices and edges (of the whole graph, or of one time partition).
    l : int
        Motif edges.
    lanes : int
        Threads of the persistent grid (tail-dump buffers are sized by them).
    wide_ids : bool
        64-bit edge ids.
    edge_labels, node_labels : bool
        Label arrays uploaded.
    slots : int
        Copies of the edge arrays kept at once (2 when streaming: one computed, one copied).
    tail : bool
        Tail-dump buffers allocated (tail-warp redistribution on; see :func:`stream_tail`).

    Returns
    -------
    dict
        ``vertex``, ``edges`` (copied arrays, times ``slots``), ``index`` (walk index,
        list entries, root filter, build scratch), ``work`` (dump and level-1
        buffers), ``total``.
    """
    w = 2 if wide_ids else 1
    idb = 4 * w
    vertex = 2 * idb * (n + 1) + (4 * n if node_labels else 0)
    per_edge = 4 + 4 + 8 + 3 * idb + (4 if edge_labels else 0)
    edges = slots * per_edge * m
    # the DFS kernels' list entries (temporal._lists_device): id, other endpoint and 8-byte time
    # per position of the out-lists, the in-lists and the pair index; 16 bytes, 24 with 64-bit
    # ids (the struct's 8-byte alignment)
    entries = 3 * (8 + 2 * idb)
    # walk index, the list entries, the root filter (32-bit gaps of one list kind, kept root
    # ids), build scratch
    index = (4 * idb + entries + 4 + idb + TEMPORAL_SCRATCH_BYTES) * m
    rw = 4 + int(l)
    # two tail-dump buffers and a relaunch's prefix sums; level-1 work items with theirs
    work = (tail_bytes(l=l, lanes=lanes) if tail else 0) + min(m, TEMPORAL_EXPAND_ROOTS) * (
        rw * 8 + 24
    )
    total = vertex + edges + index + work
    return {"vertex": vertex, "edges": edges, "index": index, "work": work, "total": total}


@dataclass(frozen=True)
class Choice:
    """The engine's placement decision: ``mode`` ("in_memory" or "out_of_core"), the budget and
    the estimated in-memory ``need`` (bytes)."""

    mode: str
    budget: int
    need: int
    explicit: bool

    @property
    def out_of_core(self) -> bool:
        """True for the out-of-core path."""
        return self.mode == "out_of_core"


def choose(what: str, need: int, budget: int, minimum: int, explicit: bool) -> Choice:
    """In-memory when ``need <= budget``; else out-of-core if ``minimum`` fits; else raise.

    Parameters
    ----------
    what : str
        Name of the query for messages ("static count", "temporal count", ...).
    need : int
        Estimated in-memory need.
    budget : int
        Budget (:func:`resolve_budget`).
    minimum : int
        Smallest device footprint of the out-of-core path.
    explicit : bool
        Whether the budget was set by the user (only for the message).

    Returns
    -------
    Choice

    Raises
    ------
    CapacityError
        Even the out-of-core path does not fit the budget.
    """
    src = "max_device_bytes" if explicit else "the device's total memory minus the safety margin"
    if need <= budget:  # the normal case: DEBUG (INFO announces the out-of-core path)
        logger.debug(
            "nx_gpumine: %s in device memory (need ~%s of %s budget)",
            what,
            _mib(need),
            _mib(budget),
        )
        return Choice("in_memory", budget, need, explicit)
    if minimum > budget:
        raise CapacityError(
            f"{what}: the graph does not fit the device memory budget of {_mib(budget)} ({src})"
            f" even out of core: the out-of-core path needs at least {_mib(minimum)} on the"
            f" device (in memory: ~{_mib(need)}); raise max_device_bytes or use engine='cpu'"
        )
    logger.info(
        "nx_gpumine: %s out of core (in-memory need ~%s > %s budget, %s)",
        what,
        _mib(need),
        _mib(budget),
        src,
    )
    return Choice("out_of_core", budget, need, explicit)


def _mib(b: int) -> str:
    return f"{b / 2**20:.1f} MiB"


def static_ooc_settings(
    budget: int,
    *,
    vertex_bytes: int,
    k: int,
    max_degree: int,
    nwarps: int,
    hot_cache: bool = True,
    page_log: int = 10,
    dump_rows: int = 1 << 21,
    trie_budget: int = 1 << 26,
    warps_per_block: int = 8,
) -> dict[str, int]:
    """Split a budget between the out-of-core static engine's device buffers.

    The per-vertex arrays stay on the device; the rest of the budget (less 1 MiB for the plan
    and control words) goes 40% to the DFS stacks (which bound the warps launched: each gets
    the in-memory engine's initial pages, and the pool may grow once to twice that; a pool
    still too small halves the warps, down to one block, whose longest stacks always fit), 10% to
    straggler records, 30% to root chunks and trie levels (or the enumeration buffer) and 20%
    to the hot-list cache (``hot_cache``; otherwise to root chunks).

    Parameters
    ----------
    budget : int
        Device bytes.
    vertex_bytes : int
        Bytes of the per-vertex arrays (:func:`static_need` ``["vertex"]``).
    k, max_degree, nwarps, page_log, dump_rows, trie_budget : int
        As in :func:`static_need` (``dump_rows``, ``trie_budget``: the caller's values, capped).
    hot_cache : bool
        Reserve a share for hot lists on the device.
    warps_per_block : int
        Warps per block of the kernels.

    Returns
    -------
    dict
        ``nwarps``, ``pool_pages`` (initial), ``pool_cap`` (largest), ``dump_rows``,
        ``chunk`` (root entries per chunk), ``trie_budget``, ``hot_bytes``, ``out_bytes``
        (enumeration buffer) and ``minimum`` (smallest budget the path takes).

    Raises
    ------
    CapacityError
        The budget is below ``minimum``.
    """
    k = max(int(k), 3)
    page = 4 << int(page_log)
    maxpg = -(-max(int(max_degree), 1) // (1 << int(page_log)))
    # one block of warps with every stack slot at its longest never runs the pool dry
    per_warp = page * 2 * k * maxpg + 4 * 2 * k * maxpg
    fixed = vertex_bytes + (1 << 20)
    minimum = fixed + warps_per_block * per_warp + 2 * 4 * (k + 1) + ROOT_BYTES * 1024
    minimum += 2 * 16 * max(int(max_degree), 1)
    if budget < minimum:
        raise CapacityError(
            f"the out-of-core static engine needs at least {_mib(minimum)} of device memory"
            f" (per-vertex arrays {_mib(vertex_bytes)}, one block of DFS stacks); the budget is"
            f" {_mib(budget)}: raise max_device_bytes or use engine='cpu'"
        )
    avail = budget - fixed
    pool_share = int(0.40 * avail)
    dump_share = int(0.10 * avail)
    hot_share = int(0.20 * avail) if hot_cache else 0
    root_share = avail - pool_share - dump_share - hot_share
    pages_per_warp = 2 * max(k - 2, 1)  # the in-memory engine's initial pages per warp
    pt = 4 * 2 * k * maxpg
    # room for every warp's initial pages twice over (one growth of the pool)
    warps = min(int(nwarps), max(pool_share // (pt + 2 * page * pages_per_warp), 1))
    warps = max(warps // warps_per_block * warps_per_block, warps_per_block)
    pool_cap = max((pool_share - pt * warps) // page, pages_per_warp * warps)
    pool_cap = max(pool_cap, warps_per_block * 2 * k * maxpg)
    pool_pages = min(pages_per_warp * warps, pool_cap)
    drows = max(min(int(dump_rows), dump_share // (2 * 4 * (k + 1))), 1)
    chunk = max((root_share // 2) // ROOT_BYTES, 1024)
    tb = max(min(int(trie_budget), (root_share // 2) // 16), int(max_degree), 1)
    return {
        "nwarps": int(warps),
        "pool_pages": int(pool_pages),
        "pool_cap": int(pool_cap),
        "dump_rows": int(drows),
        "chunk": int(chunk),
        "trie_budget": int(tb),
        "hot_bytes": int(hot_share),
        "out_bytes": int(root_share // 2),
        "minimum": int(minimum),
    }


def tail_bytes(*, l: int, lanes: int) -> int:
    """Bytes of the temporal engine's two tail-dump buffers and a relaunch's prefix sums: every
    lane may dump ``l - 1`` records of ``4 + l`` words (about 60 MiB for ``l = 3`` on an H100,
    whatever the graph)."""
    dumps = lanes * max(int(l) - 1, 1)
    return 2 * dumps * (4 + int(l)) * 8 + dumps * 16


def stream_tail(budget: int, *, l: int, lanes: int) -> bool:
    """Whether streamed partitions keep tail-warp redistribution under ``budget``: only when
    its buffers (:func:`tail_bytes`, independent of the graph) take at most 1/8 of the budget;
    otherwise the partitions run without it (``tail_ms=0``) and their edges get that room."""
    return tail_bytes(l=l, lanes=lanes) * 8 <= int(budget)


def temporal_edge_budget(
    budget: int,
    *,
    n: int,
    l: int,
    lanes: int,
    wide_ids: bool = False,
    labels: bool = False,
    tail: bool | None = None,
) -> int:
    """Most edges one streamed time partition may hold under ``budget`` (two copy slots).

    Solves :func:`temporal_need` (``slots=2``, every per-edge term at its largest) for ``m``;
    ``tail``: tail-dump buffers counted (None: :func:`stream_tail` decides).

    Raises
    ------
    CapacityError
        Not even one edge fits beside the per-vertex arrays and the work buffers.
    """
    if tail is None:
        tail = stream_tail(budget, l=l, lanes=lanes)
    kw = dict(l=l, lanes=lanes, wide_ids=wide_ids, tail=tail)
    base = temporal_need(n, 0, node_labels=labels, **kw)
    one = temporal_need(n, 1, edge_labels=labels, node_labels=labels, slots=2, **kw)
    per = one["total"] - base["total"]
    fixed = base["total"] + temporal_need(n, 0, **kw)["vertex"]
    room = budget - fixed
    if room < per:
        raise CapacityError(
            f"temporal streaming needs more than {_mib(budget)} of device memory: the per-vertex"
            f" arrays of two partitions and the work buffers alone take {_mib(fixed)};"
            " raise max_device_bytes or use engine='cpu'"
        )
    return int(room // per)


def stream_partitions(
    time: Any, reach: float | int | None, lo: int, hi: int, max_edges: int
) -> list[tuple[int, int, int]]:
    """Time partitions of roots ``[lo, hi)`` holding at most ``max_edges`` edges each.

    A partition ``(root_lo, root_hi, edge_hi)`` reads edges ``[root_lo, edge_hi)``: its roots
    plus every later edge within ``reach`` of its last root (Everest's major partition and
    minor overlap). Partitions are as long as the edge bound allows.

    Parameters
    ----------
    time : numpy.ndarray
        Edge times, sorted.
    reach : number or None
        :func:`~nx_gpumine.plan.temporal_plan.time_reach` of the plan (None: unbounded).
    lo, hi : int
        Root range.
    max_edges : int
        Edge bound (:func:`temporal_edge_budget`).

    Returns
    -------
    list of (int, int, int)

    Raises
    ------
    CapacityError
        One root's reach alone holds more than ``max_edges`` edges.
    """
    import numpy as np

    m = len(time)
    if hi <= lo:
        return []

    def end(r: int) -> int:
        """One past the last edge root ``r`` reads (nondecreasing in ``r``: times are sorted)."""
        if reach is None:
            e = m
        else:
            e = int(np.searchsorted(time, time[r] + reach, side="right"))
        return max(e, r + 1)

    # each partition: the first root whose reach ends past r0 + max_edges, by binary search
    # over roots (O(log m) lookups per partition, not one per root)
    parts = []
    r0 = lo
    while r0 < hi:
        limit = r0 + int(max_edges)
        a, b = r0, min(hi, limit)  # end(r) > r for all r, so roots from ``limit`` on fail
        while a < b:
            mid = (a + b) // 2
            if end(mid) <= limit:
                a = mid + 1
            else:
                b = mid
        r1 = a
        if r1 <= r0:
            raise CapacityError(
                f"the motif's time reach after edge {r0} spans {end(r0) - r0} edges,"
                f" more than the {max_edges} a partition may hold under the device memory"
                " budget: raise max_device_bytes, narrow delta, or use engine='cpu'"
            )
        parts.append((r0, r1, end(r1 - 1)))
        r0 = r1
    return parts
