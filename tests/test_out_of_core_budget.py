"""CPU tests of the device memory budget (issue 12): estimates, the in-memory / out-of-core
choice, partitioning for streaming, argument validation. No GPU needed."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine import device_limits
from nx_gpumine.engines.cuda import memory
from nx_gpumine.errors import CapacityError


@pytest.fixture(autouse=True)
def _clean_config(monkeypatch):
    monkeypatch.setitem(device_limits.CONFIG, "max_device_bytes", None)
    monkeypatch.delenv(device_limits.ENV, raising=False)


def test_check_budget_validates():
    assert device_limits.check_budget(None) is None
    assert device_limits.check_budget(np.int64(5)) == 5
    for bad in (0, -1):
        with pytest.raises(ValueError, match="max_device_bytes must be > 0"):
            device_limits.check_budget(bad)
    for bad in (1.5, "1GB", True):
        with pytest.raises(TypeError, match="int number of bytes"):
            device_limits.check_budget(bad)


def test_budget_precedence_call_config_env(monkeypatch):
    free, total = 10 << 30, 80 << 30
    # nothing set: the device's capacity, total memory minus max(5% of total, 256 MiB),
    # whatever is free now (other processes' use must not push a query out of core)
    assert device_limits.resolve_budget(None, free, total) == (total - (4 << 30), False)
    assert device_limits.resolve_budget(None, 100, total) == (total - (4 << 30), False)
    assert device_limits.resolve_budget(None, 100, 100 << 20)[0] == 0
    monkeypatch.setenv(device_limits.ENV, "3000")
    assert device_limits.resolve_budget(None, free, total) == (3000, True)
    ng.set_max_device_bytes(2000)
    assert device_limits.resolve_budget(None, free, total) == (2000, True)
    with ng.device_budget(1000):
        assert device_limits.resolve_budget(None, free, total) == (1000, True)
        assert device_limits.resolve_budget(500, free, total) == (500, True)
        with ng.device_budget(None):  # None keeps the enclosing block's budget in force
            assert device_limits.resolve_budget(None, free, total) == (1000, True)
    with ng.device_budget(None):  # and outside any block, the configured default
        assert device_limits.resolve_budget(None, free, total) == (2000, True)
    assert device_limits.current_budget() == 2000
    with pytest.raises(ValueError):
        ng.set_max_device_bytes(0)
    monkeypatch.setenv(device_limits.ENV, "lots")
    ng.set_max_device_bytes(None)
    with pytest.raises(ValueError, match=device_limits.ENV):
        device_limits.current_budget()


def test_public_functions_validate_the_budget():
    import networkx as nx

    G = nx.complete_graph(5)
    with pytest.raises(ValueError, match="max_device_bytes"):
        ng.count_subgraphs(G, "triangle", engine="cpu", max_device_bytes=0)
    with pytest.raises(TypeError, match="max_device_bytes"):
        ng.has_subgraph(G, "triangle", engine="cpu", max_device_bytes=2.5)
    # the CPU engine ignores a valid budget
    assert ng.count_subgraphs(G, "triangle", engine="cpu", max_device_bytes=1) == 60
    assert len(ng.find_subgraphs(G, "triangle", engine="cpu", max_device_bytes=1)) == 60
    edges = np.array([(0, 1, 1), (1, 2, 2), (2, 0, 3)])
    with pytest.raises(ValueError, match="max_device_bytes"):
        ng.count_motifs(edges, "triangle", delta=10, engine="cpu", max_device_bytes=-5)
    assert ng.count_motifs(edges, "triangle", delta=10, engine="cpu", max_device_bytes=1) == 1


def test_static_need_parts_and_choice(caplog):
    need = memory.static_need(1000, 20000, k=4, max_degree=3000, nwarps=1024)
    assert need["total"] == sum(need[p] for p in ("vertex", "entry", "roots", "work", "shape"))
    assert need["entry"] == 10 * 20000 and need["shape"] == 0
    labelled = memory.static_need(
        1000, 20000, k=4, max_degree=3000, nwarps=1024, node_labels=True, edge_labels=True
    )
    assert labelled["entry"] - need["entry"] == 8 * 20000
    assert labelled["vertex"] - need["vertex"] == 8 * 1000
    shaped = memory.static_need(1000, 20000, k=4, max_degree=3000, nwarps=1024, shape=True)
    assert shaped["total"] > need["total"]
    with caplog.at_level(logging.DEBUG, logger="nx_gpumine"):
        c = memory.choose("static count", need["total"], need["total"], 10, True)
        assert c.mode == "in_memory" and not c.out_of_core
        c = memory.choose("static count", need["total"], need["total"] - 1, 10, True)
        assert c.out_of_core
    assert "in device memory" in caplog.text and "out of core" in caplog.text
    with pytest.raises(CapacityError, match="even out of core"):
        memory.choose("static count", 100, 5, 10, True)


def test_static_ooc_settings_fit_the_budget():
    kw = dict(vertex_bytes=26 << 20, k=5, max_degree=3000, nwarps=8448)
    for budget in (64 << 20, 256 << 20, 4 << 30):
        st = memory.static_ooc_settings(budget, **kw)
        page = 4 << 10
        maxpg = -(-3000 // 1024)
        used = (
            kw["vertex_bytes"]
            + (1 << 20)
            + st["pool_cap"] * page
            + 4 * 2 * 5 * maxpg * st["nwarps"]
            + 2 * 4 * st["dump_rows"] * 6
            + memory.ROOT_BYTES * st["chunk"]
            + 16 * st["trie_budget"]
            + st["hot_bytes"]
        )
        assert used <= budget * 1.01, (budget, st)
        assert st["nwarps"] % 8 == 0 and 8 <= st["nwarps"] <= 8448
        assert st["pool_pages"] <= st["pool_cap"]
        assert st["pool_pages"] >= 2 * 3 * st["nwarps"]
        assert st["trie_budget"] >= 3000
    small = memory.static_ooc_settings(64 << 20, **kw)
    big = memory.static_ooc_settings(4 << 30, **kw)
    assert small["chunk"] < big["chunk"] and small["nwarps"] <= big["nwarps"]
    assert memory.static_ooc_settings(4 << 30, hot_cache=False, **kw)["hot_bytes"] == 0
    with pytest.raises(CapacityError, match="at least"):
        memory.static_ooc_settings(20 << 20, **kw)


def test_temporal_edge_budget_and_stream_partitions():
    lanes = 132 * 8 * 256
    # the tail-dump buffers (~60 MiB on an H100, any graph) stay only under budgets >= 8x them
    assert 60 << 20 < memory.tail_bytes(l=3, lanes=lanes) < 70 << 20
    for budget, tail in ((256 << 20, False), (1 << 30, True)):
        assert memory.stream_tail(budget, l=3, lanes=lanes) == tail
        e = memory.temporal_edge_budget(budget, n=10000, l=3, lanes=lanes)
        kw = dict(l=3, lanes=lanes, tail=tail)
        need = memory.temporal_need(10000, e, slots=2, **kw)["total"]
        assert need <= budget < memory.temporal_need(10000, 4 * e, **kw)["total"]
        assert memory.temporal_need(10000, 0, **kw)["work"] == (
            memory.tail_bytes(l=3, lanes=lanes) if tail else 0
        )
    # a budget of a few MiB streams a 3-edge motif (the fixed cost is the per-vertex arrays)
    assert memory.temporal_edge_budget(4 << 20, n=10000, l=3, lanes=lanes) > 10_000
    with pytest.raises(CapacityError, match="per-vertex"):
        memory.temporal_edge_budget(64 << 10, n=10000, l=3, lanes=lanes)

    rng = np.random.default_rng(3)
    time = np.sort(rng.integers(0, 10000, 5000))
    time[100:160] = time[100]  # ties
    reach = 50
    for lo, hi, cap in ((0, 5000, 300), (700, 4100, 120), (0, 5000, 5000)):
        parts = memory.stream_partitions(time, reach, lo, hi, cap)
        assert parts[0][0] == lo and parts[-1][1] == hi
        for (a, b, e1), nxt in zip(parts, parts[1:] + [None], strict=True):
            assert a < b <= e1 and e1 - a <= cap
            # every edge within reach of the partition's last root is inside
            assert e1 == np.searchsorted(time, time[b - 1] + reach, side="right") or e1 == b
            if nxt is not None:
                assert nxt[0] == b
    assert len(memory.stream_partitions(time, reach, 0, 5000, 5000)) == 1
    assert memory.stream_partitions(time, None, 4000, 5000, 1000) == [(4000, 5000, 5000)]
    with pytest.raises(CapacityError, match="time reach"):
        memory.stream_partitions(time, None, 0, 5000, 1000)
    assert memory.stream_partitions(time, reach, 10, 10, 100) == []


def test_hot_blocks_pick_the_hub_lists():
    from nx_gpumine.engines.cuda import hostmem

    deg = np.full(4000, 3, dtype=np.int64)
    deg[2500] = 5000  # a hub in the middle of the entry range
    indptr = np.concatenate([[0], np.cumsum(deg)])
    hot = hostmem.hot_blocks(indptr, 2048, block=1024)
    assert len(hot) == 2
    hub_lo, hub_hi = indptr[2500], indptr[2501]
    assert all(hub_lo // 1024 <= b <= hub_hi // 1024 for b in hot.tolist())
    assert len(hostmem.hot_blocks(indptr, 100, block=1024)) == 0
    assert len(hostmem.hot_blocks(indptr, 10**9, block=1024)) == -(-int(indptr[-1]) // 1024)


def test_stream_pipeline_with_host_stand_ins(monkeypatch):
    """The streaming loop of the CUDA temporal engine, run on the host: a NumPy stand-in for
    CuPy (streams and events as no-ops) and the CPU engine for each partition's kernels. Checks
    the partition bookkeeping (two slots, staged slices, root ranges, id shifts, early stops):
    every slot's arrays equal its slice, and counts, rows, existence and limits equal the
    whole-graph CPU answers. The GPU run of the same loop is in tests/test_out_of_core.py."""
    import dataclasses
    import sys
    import types

    from nx_gpumine.engines.cpu import temporal as ct
    from nx_gpumine.inputs.temporal_graph import _build

    LISTS = ("next_id", "out_ptr", "out_edges", "in_ptr", "in_edges")
    from nx_gpumine.engines.cuda import temporal as gt
    from nx_gpumine.engines.cuda import temporal_stream
    from nx_gpumine.inputs.generators import skewed_temporal_graph
    from nx_gpumine.inputs.motifs import named_motif
    from nx_gpumine.plan.temporal_plan import build_temporal_plan

    class Arr(np.ndarray):
        def set(self, h, stream=None):
            self[...] = h

    class Stream:
        def __init__(self, non_blocking=False):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def wait_event(self, event):
            pass

    class Event:
        def record(self, stream=None):
            pass

        def synchronize(self):
            pass

    def arr(a, dtype=None):
        return np.asarray(a, dtype).view(Arr)

    fake = types.SimpleNamespace(
        empty=lambda n, dtype=None: np.empty(n, dtype).view(Arr),
        zeros=lambda n, dtype=None: np.zeros(n, dtype).view(Arr),
        asarray=arr,
        int32=np.int32,
        int64=np.int64,
        arange=np.arange,
        cumsum=np.cumsum,
        argsort=np.argsort,
        searchsorted=np.searchsorted,
        cuda=types.SimpleNamespace(
            runtime=types.SimpleNamespace(
                memGetInfo=lambda: (1 << 34, 1 << 35), getDevice=lambda: 0
            ),
            alloc_pinned_memory=bytearray,
            Stream=Stream,
            Event=Event,
            get_elapsed_time=lambda a, b: 0.0,
        ),
    )
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setattr(temporal_stream, "lanes_estimate", lambda: 4000)
    slices = []

    def host(g):
        """The partition as the CPU engine reads it: the arrays built "on the device" (NumPy
        here), checked against the host build of the same edge slice (``edge_slice``)."""
        d = g.device_data(("cuda_temporal", 0))["g"]  # keyed by device id
        ref = _build(g.src.astype(np.int64), g.dst.astype(np.int64), g.time, g.rows, g.keys)
        full = {k: np.asarray(d[k]) for k in temporal_stream.SLOT_ARRAYS + LISTS}
        for k, v in full.items():
            assert np.array_equal(v, getattr(ref, k)), k
        assert full["out_edges"].dtype == np.int32  # 32-bit ids on the device
        return dataclasses.replace(g, **{k: full[k].astype(np.int64) for k in LISTS})

    # the streamer runs each partition through the launch layer: the CPU engine stands in
    def part_count(g, plan, lo, hi, **kw):
        slices.append(g.m)
        return ct.count(host(g), plan, lo, hi)

    def part_exists(g, plan, lo, hi, **kw):
        return ct.exists(host(g), plan, lo, hi)

    def part_rows(g, plan, lo, hi, limit, **kw):
        return ct.enumerate_matches(host(g), plan, lo, hi, limit=limit)

    monkeypatch.setattr(temporal_stream, "count_range", part_count)
    monkeypatch.setattr(temporal_stream, "exists_range", part_exists)
    monkeypatch.setattr(temporal_stream, "enumerate_range", part_rows)
    g = skewed_temporal_graph(n=3000, m=60_000, seed=3)
    for name, delta in (("M1", 600), ("M4", 3600)):
        plan = build_temporal_plan(named_motif(name, delta), g)
        kw = dict(l=int(plan.l), lanes=4000, tail=False)  # tail buffers > 1/8 of the budget
        per = (
            memory.temporal_need(g.n, 1, slots=2, **kw)["total"]
            - memory.temporal_need(g.n, 0, **kw)["total"]
        )
        budget = (
            memory.temporal_need(g.n, 0, **kw)["total"] * 2
            - memory.temporal_need(g.n, 0, **kw)["work"]
        )
        budget += per * 7000
        assert not memory.stream_tail(budget, l=int(plan.l), lanes=4000)
        assert memory.temporal_edge_budget(budget, n=g.n, l=int(plan.l), lanes=4000) == 7000
        want = ct.count(g, plan)
        slices.clear()
        assert gt.count(g, plan, max_device_bytes=budget) == want
        assert gt.last_run["out_of_core"] and gt.last_run["partitions"] == len(slices) >= 9
        assert max(slices) <= 7000
        lo, hi = 10_000, 31_000
        assert gt.count(g, plan, lo, hi, max_device_bytes=budget) == ct.count(g, plan, lo, hi)
        assert gt.exists(g, plan, max_device_bytes=budget) == (want > 0)
        rows = gt.enumerate_matches(g, plan, max_device_bytes=budget)
        assert np.array_equal(rows, ct.enumerate_matches(g, plan))
        first = gt.enumerate_matches(g, plan, limit=5, max_device_bytes=budget)
        assert len(first) == min(5, want)


def test_hot_byte_ranges_merge_and_align():
    from nx_gpumine.engines.cuda import hostmem

    # blocks of 1000 entries; int32: 4000 bytes; uint8: 1000 bytes (several blocks share a page)
    ranges = hostmem._byte_ranges
    assert ranges(np.array([3, 1, 2, 7]), 4, 10**6, 1000) == [(0, 16384), (24576, 32768)]
    assert ranges(np.array([0, 5]), 1, 5500, 1000) == [(0, 5500)]  # touching: merged
    assert ranges(np.array([0, 9]), 1, 10**6, 1000) == [(0, 4096), (8192, 12288)]
    assert ranges(np.array([9]), 4, 30000, 1000) == []


def test_mem_location_codes():
    """CUDA 13 advise/prefetch take a location {type, id}: host = 2, device = 1 (not id -1)."""
    from nx_gpumine.engines.cuda import hostmem

    assert hostmem.location(-1) == (2, 0)
    assert hostmem.location(3) == (1, 3)
    loc = hostmem._MemLocation(*hostmem.location(0))
    assert (loc.type, loc.id) == (1, 0) and ctypes_size(loc) == 8


def ctypes_size(obj):
    import ctypes

    return ctypes.sizeof(obj)


def _partitions_per_root(time, reach, lo, hi, max_edges):
    """Reference: every root's reach computed (what stream_partitions did before)."""
    m = len(time)
    if reach is None:
        ends = np.full(hi - lo, m, dtype=np.int64)
    else:
        ends = np.searchsorted(time, time[lo:hi] + reach, side="right").astype(np.int64)
    ends = np.maximum(ends, np.arange(lo + 1, hi + 1, dtype=np.int64))
    parts, r0 = [], lo
    while r0 < hi:
        r1 = lo + int(np.searchsorted(ends, r0 + int(max_edges), side="right"))
        if r1 <= r0:
            return None
        r1 = min(r1, hi)
        parts.append((r0, r1, int(ends[r1 - 1 - lo])))
        r0 = r1
    return parts


def test_stream_partitions_binary_search_matches_per_root():
    rng = np.random.default_rng(11)
    for trial in range(200):
        m = int(rng.integers(1, 400))
        time = np.sort(rng.integers(0, int(rng.integers(1, 500)), m))
        reach = None if trial % 7 == 0 else int(rng.integers(0, 60))
        lo = int(rng.integers(0, m))
        hi = int(rng.integers(lo, m + 1))
        cap = int(rng.integers(1, 80))
        want = _partitions_per_root(time, reach, lo, hi, cap)
        if want is None:
            with pytest.raises(CapacityError, match="time reach"):
                memory.stream_partitions(time, reach, lo, hi, cap)
        else:
            assert memory.stream_partitions(time, reach, lo, hi, cap) == want


def test_advise_and_prefetch_pass_locations(monkeypatch):
    """Managed-memory advice goes to the driver's location-based entry points (CUDA 13 has no
    int-device form): preferred location CPU = host location, accessed-by / prefetch = device."""
    from nx_gpumine.engines.cuda import hostmem

    calls = []

    def adv(ptr, n, advice, loc):
        calls.append(("advise", ptr, n, advice, loc.type, loc.id))
        return 0

    def pre(ptr, n, loc, flags, stream):
        calls.append(("prefetch", ptr, n, loc.type, loc.id, flags))
        return 0

    monkeypatch.setattr(hostmem, "_DRIVER", [(adv, pre)])
    hostmem._advise(4096, 8192, hostmem._ADV_PREFERRED, hostmem._CPU)
    hostmem._advise(4096, 8192, hostmem._ADV_ACCESSED_BY, 1)
    hostmem._prefetch(4096, 8192, 1, 0)
    assert calls == [
        ("advise", 4096, 8192, 3, 2, 0),
        ("advise", 4096, 8192, 5, 1, 1),
        ("prefetch", 4096, 8192, 1, 1, 0),
    ]
    monkeypatch.setattr(hostmem, "_DRIVER", [(lambda *a: 1, pre)])
    with pytest.raises(RuntimeError, match="CUresult 1"):
        hostmem._advise(4096, 8192, hostmem._ADV_PREFERRED, hostmem._CPU)


def test_a_budget_block_reaches_the_engine_through_public_functions(monkeypatch):
    """``with device_budget(b)`` caps the public calls inside it: their own
    ``max_device_bytes=None`` keeps the block's budget (it once reset it to the default)."""
    from nx_gpumine.engines.cpu import temporal as cpu_temporal

    seen = []
    real = cpu_temporal.count

    def spy(*a, **k):
        seen.append(device_limits.current_budget())
        return real(*a, **k)

    monkeypatch.setattr(cpu_temporal, "count", spy)
    edges = np.array([(0, 1, 1), (1, 2, 2), (2, 0, 3)])
    with ng.device_budget(12345):
        assert ng.count_motifs(edges, "triangle", delta=10, engine="cpu") == 1
    assert ng.count_motifs(edges, "triangle", delta=10, engine="cpu") == 1
    assert seen == [12345, device_limits.current_budget()]
