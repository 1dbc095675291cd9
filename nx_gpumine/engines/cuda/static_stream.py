"""Out-of-core path of the CUDA static engine: a host-resident CSR walked in root chunks.

:func:`residency` decides, per call, whether the graph and the work buffers fit the device
memory budget (``docs/out_of_core.md``); when they do not it returns the call's
:class:`~.static_device.Ooc` settings (how the budget is split between stacks, records, root
chunks, trie levels, output and the hot-list cache). The per-entry arrays then stay in host
memory the kernels read directly (:mod:`.hostmem`), and :func:`count_ooc`, :func:`exists_ooc`
and :func:`enumerate_ooc` run the launch layer (:mod:`.static_launch`) over root chunks in turn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device_limits import check_budget, device_spread, resolve_budget
from ...errors import CapacityError
from ...inputs.static_graph import StaticGraph
from . import hostmem, memory
from ._runtime import current_device, import_cupy, sm_count
from .static_build import WPB, chunks, current_tuning, device_need, max_degree
from .static_device import Ooc, graph_device, prepare, resident
from .static_launch import count_chunks, enumerate_chunks, exists_chunks, last_run

__all__ = ["residency", "count_ooc", "exists_ooc", "enumerate_ooc"]


def residency(
    graph: StaticGraph,
    plan: Any,
    max_device_bytes: int | None,
    placement: str,
    what: str,
    *,
    page_log: int | None = None,
    dump_rows: int = 1 << 21,
    trie_budget: int = 1 << 26,
    shape: bool = False,
) -> Ooc | None:
    """None (in memory) or the out-of-core settings of this call (``docs/out_of_core.md``).

    ``shape``: the call may run a shape kernel (a count over the whole root range);
    ``page_log``: default :func:`~.static_build.current_tuning`'s.
    """
    if page_log is None:
        page_log = current_tuning().page_log
    if placement not in hostmem.PLACEMENTS:
        raise ValueError(f"placement must be one of {hostmem.PLACEMENTS}, got {placement!r}")
    max_device_bytes = check_budget(max_device_bytes)
    cp = import_cupy()
    free, total = cp.cuda.runtime.memGetInfo()
    budget, explicit = resolve_budget(max_device_bytes, free, total)
    if not explicit and resident(graph):
        return None  # already on the device
    nnz = len(graph.indices)
    k = int(plan.k)
    need = device_need(
        graph,
        plan,
        page_log=page_log,
        dump_rows=dump_rows,
        trie_budget=trie_budget,
        shape=shape and getattr(plan, "shape", None) is not None,
    )
    what = f"static {what} of a {k}-node pattern ({graph.n} vertices, {nnz} entries)"
    if need["total"] <= budget:
        memory.choose(what, need["total"], budget, 0, explicit)
        return None
    spread = device_spread()
    if spread > 1:
        raise CapacityError(
            f"{what} needs about {need['total']} bytes of device memory, over the"
            f" {budget}-byte budget of device {current_device()}, and the out-of-core static"
            f" path runs on one GPU only (each of the {spread} GPUs of devices= would need its"
            " own host-resident copy of the graph): leave devices= out or pass one device to"
            " run it out of core, or raise max_device_bytes (docs/out_of_core.md)"
        )
    st = memory.static_ooc_settings(
        budget,
        vertex_bytes=need["vertex"],
        k=k,
        max_degree=max_degree(graph),
        nwarps=sm_count() * 8 * WPB,
        hot_cache=placement == "managed",
        page_log=page_log,
        dump_rows=dump_rows,
        trie_budget=trie_budget,
    )
    memory.choose(what, need["total"], budget, st.pop("minimum"), explicit)
    return Ooc(
        placement=placement, budget=budget, block_entries=current_tuning().hot_block_entries, **st
    )


def _ooc_stats(ooc: Ooc, graph: StaticGraph, nchunks: int) -> None:
    g = graph_device(graph, ooc)
    last_run.update(
        out_of_core=True,
        placement=ooc.placement,
        budget=ooc.budget,
        chunks=nchunks,
        ooc_warps=ooc.nwarps,
        hot_device_bytes=g["hot_device_bytes"],
    )


def count_ooc(
    graph: StaticGraph,
    plan: Any,
    ooc: Ooc,
    lo: int,
    hi: int,
    *,
    strategy: str = "auto",
    tail: bool = True,
    timeout_ms: float = 5.0,
    trie_depth: int | None = None,
    page_log: int,
    pool_pages: int | None = None,
    dump_capacity: int = 1 << 21,
    part: tuple[int, int] = (0, 1),
) -> int:
    """Out-of-core count: root entry chunks in turn over the host-resident graph (of each
    chunk, part ``part`` only: :func:`~.static_launch.count_chunks`)."""
    ranges = chunks(lo, hi, ooc.chunk)
    total = count_chunks(
        graph,
        plan,
        ranges,
        strategy=strategy,
        tail=tail,
        timeout_ms=timeout_ms,
        trie_budget=ooc.trie_budget,
        trie_depth=trie_depth,
        page_log=page_log,
        pool_pages=pool_pages,
        dump_capacity=max(min(dump_capacity, ooc.dump_rows), 1),
        ooc=ooc,
        part=part,
    )
    _ooc_stats(ooc, graph, len(ranges))
    return total


def exists_ooc(
    graph: StaticGraph, plan: Any, ooc: Ooc, lo: int, hi: int, *, strategy: str, page_log: int,
    pool_pages: int | None,
) -> bool:  # fmt: skip
    """Out-of-core existence test: root chunks tried in turn until one holds a match."""
    prep = prepare(graph, plan, page_log, ooc=ooc)
    ranges = chunks(lo, hi, ooc.chunk)
    found = exists_chunks(prep, ranges, strategy, ooc.trie_budget, pool_pages)
    _ooc_stats(ooc, graph, len(ranges))
    return found


def enumerate_ooc(
    graph: StaticGraph, plan: Any, ooc: Ooc, lo: int, hi: int, *, limit: int | None,
    buffer_rows: int, max_buffer_rows: int, page_log: int, pool_pages: int | None,
) -> np.ndarray:  # fmt: skip
    """Out-of-core enumeration: root chunks in turn, the output buffer capped by the budget."""
    prep = prepare(graph, plan, page_log, ooc=ooc)
    most = max(ooc.out_bytes // (4 * prep.k), 1)
    ranges = chunks(lo, hi, ooc.chunk)

    def count_range(a: int, b: int) -> int:
        return count_ooc(graph, plan, ooc, a, b, page_log=page_log)

    rows = enumerate_chunks(
        prep, ranges, limit, min(buffer_rows, most), min(max_buffer_rows, most), pool_pages,
        count_range,
    )  # fmt: skip
    _ooc_stats(ooc, graph, len(ranges))
    return rows
