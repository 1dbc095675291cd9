"""CPU tests of the device memory budget (issue 12): estimates, the in-memory / out-of-core
choice, partitioning for streaming, argument validation. No GPU needed."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.engines.cuda import memory
from nx_gpumine.errors import CapacityError


@pytest.fixture(autouse=True)
def _clean_config(monkeypatch):
    monkeypatch.setitem(memory.CONFIG, "max_device_bytes", None)
    monkeypatch.delenv(memory.ENV, raising=False)


def test_check_budget_validates():
    assert memory.check_budget(None) is None
    assert memory.check_budget(np.int64(5)) == 5
    for bad in (0, -1):
        with pytest.raises(ValueError, match="max_device_bytes must be > 0"):
            memory.check_budget(bad)
    for bad in (1.5, "1GB", True):
        with pytest.raises(TypeError, match="int number of bytes"):
            memory.check_budget(bad)


def test_budget_precedence_call_config_env(monkeypatch):
    free, total = 10 << 30, 80 << 30
    # nothing set: free memory minus max(5% of total, 256 MiB)
    assert memory.resolve_budget(None, free, total) == (free - (4 << 30), False)
    assert memory.resolve_budget(None, 100, total)[0] == 0
    monkeypatch.setenv(memory.ENV, "3000")
    assert memory.resolve_budget(None, free, total) == (3000, True)
    ng.set_max_device_bytes(2000)
    assert memory.resolve_budget(None, free, total) == (2000, True)
    with ng.device_budget(1000):
        assert memory.resolve_budget(None, free, total) == (1000, True)
        assert memory.resolve_budget(500, free, total) == (500, True)
        with ng.device_budget(None):  # None keeps the configured default in force
            assert memory.resolve_budget(None, free, total) == (2000, True)
    assert memory.current_budget() == 2000
    with pytest.raises(ValueError):
        ng.set_max_device_bytes(0)
    monkeypatch.setenv(memory.ENV, "lots")
    ng.set_max_device_bytes(None)
    with pytest.raises(ValueError, match=memory.ENV):
        memory.current_budget()


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
    e = memory.temporal_edge_budget(256 << 20, n=10000, l=3, lanes=lanes)
    need = memory.temporal_need(10000, e, l=3, lanes=lanes, slots=2)["total"]
    assert need <= 256 << 20 < memory.temporal_need(10000, 4 * e, l=3, lanes=lanes)["total"]
    with pytest.raises(CapacityError, match="per-vertex"):
        memory.temporal_edge_budget(1 << 20, n=10000, l=3, lanes=lanes)

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
