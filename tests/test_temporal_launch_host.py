"""The CUDA temporal engine's launch layer, run on the host: what every kernel is handed.

A NumPy stand-in for CuPy (arrays with a ``data.ptr``, streams, events and CUDA-graph capture
that record instead of running) and kernels that record their arguments: the packed graph views
(``TGraph``) and launch structs (``TLaunch``) are decoded field by field and compared with the
buffers and values each opening path (level-1 expansion, root filter, split roots, tail rounds,
enumeration, the census) must pass, and a repeated call must replay the launches kept with the
plan. The kernels themselves run in the GPU suite (tests/test_cuda_temporal.py).
"""

from __future__ import annotations

import ctypes
import sys
import types

import numpy as np
import pytest

from nx_gpumine.engines.cuda import temporal, temporal_data, temporal_launch, temporal_stream
from nx_gpumine.engines.cuda.temporal_build import (
    C_NDUMP,
    GRAPH_VIEW,
    LAUNCH,
    MODES,
    WPB,
    record_words,
)
from nx_gpumine.inputs.generators import skewed_temporal_graph
from nx_gpumine.inputs.motifs import named_motif
from nx_gpumine.plan.temporal_plan import build_temporal_plan

BLOCKS = 3  # the persistent grid of the stand-in


class Arr(np.ndarray):
    """A host array that CuPy's code paths take for a device array."""

    @property
    def data(self):
        return types.SimpleNamespace(ptr=self.ctypes.data)

    def get(self):
        return np.asarray(self)


def _arr(a, dtype=None):
    return np.ascontiguousarray(a, dtype).view(Arr)


def _wrap(r):
    if isinstance(r, tuple):
        return tuple(map(_wrap, r))
    return r.view(Arr) if isinstance(r, np.ndarray) and r.ndim else r


class Event:
    done = True

    def record(self, stream=None):
        pass

    def synchronize(self):
        pass


class Kernel:
    """A kernel that records its launches (and, for ``temporal_dfs``, runs ``on_dfs``)."""

    num_regs = 40
    local_size_bytes = 0

    def __init__(self, name, log, hooks):
        self.name, self.log, self.hooks = name, log, hooks

    def __call__(self, grid, block, args):
        self.log.append((self.name, grid, block, args))
        if self.name in self.hooks:
            self.hooks[self.name](args)


class Stream:
    """Capture records the launches enqueued meanwhile; the graph replays their records."""

    ptr = 0
    capturing: list | None = None

    def __init__(self, non_blocking=False):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def begin_capture(self):
        self.mark = len(LOG)

    def end_capture(self):
        captured = LOG[self.mark :]
        del LOG[self.mark :]
        return types.SimpleNamespace(
            launch=lambda stream=None: LOG.extend(captured), calls=captured
        )


LOG: list = []


@pytest.fixture
def fake(monkeypatch):
    """CuPy replaced by NumPy stand-ins; kernels record into ``fake.log``."""
    hooks: dict = {}
    LOG.clear()
    module = types.SimpleNamespace(
        kernel=lambda name: Kernel(name, LOG, hooks), compile_seconds=0.0
    )
    cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(
            getDevice=lambda: 0,
            memsetAsync=lambda ptr, v, n, s: ctypes.memset(ptr, v, n),
            memcpyAsync=lambda dst, src, n, kind, s: ctypes.memmove(dst, src, n),
            memGetInfo=lambda: (1 << 34, 1 << 35),
        ),
        Event=Event,
        Stream=Stream,
        get_current_stream=lambda: Stream(),
        get_elapsed_time=lambda a, b: 0.0,
        alloc_pinned_memory=bytearray,
        memory=types.SimpleNamespace(OutOfMemoryError=MemoryError),
    )

    class Cupy(types.ModuleType):
        def __getattr__(self, name):  # NumPy's, whose arrays come back as stand-ins
            f = getattr(np, name)
            if not callable(f) or isinstance(f, type):
                return f
            return lambda *a, **k: _wrap(f(*a, **k))

    cp = Cupy("cupy")
    cp.cuda = cuda
    cp.asarray = _arr
    cp.zeros = lambda n, dtype=float: _arr(np.zeros(n, dtype))
    cp.empty = lambda n, dtype=float: _arr(np.zeros(n, dtype))
    cp.full = lambda n, v, dtype=None: _arr(np.full(n, v, dtype))
    cp.asnumpy = np.asarray
    monkeypatch.setitem(sys.modules, "cupy", cp)
    monkeypatch.setattr(temporal_data, "load_module", lambda *a, **k: module)
    monkeypatch.setattr(temporal_launch, "load_module", lambda *a, **k: module)
    monkeypatch.setattr(temporal_launch, "persistent_blocks", lambda *a, **k: BLOCKS)
    monkeypatch.setattr(temporal_stream, "lanes_estimate", lambda: 8 * BLOCKS * WPB * 32)
    return types.SimpleNamespace(log=LOG, hooks=hooks)


@pytest.fixture
def graph():
    return skewed_temporal_graph(n=300, m=5000, seed=3)


def _fields(packed: np.ndarray) -> dict:
    return {name: packed[name][0].item() for name in packed.dtype.names}


def _ptr(a) -> int:
    return 0 if a is None else a.data.ptr


def _launches(log, name):
    return [entry for entry in log if entry[0] == name]


def _dfs(log) -> list[dict]:
    out = []
    for _, grid, block, args in _launches(log, "temporal_dfs"):
        assert grid == (BLOCKS,) and block == (WPB * 32,) and len(args) == 2
        view, launch = args
        assert view.dtype.names == GRAPH_VIEW.names and launch.dtype.names == LAUNCH.names
        out.append(_fields(launch))
    return out


def _plan(graph, name):
    return build_temporal_plan(named_motif(name, 3600, tie="input_order"), graph)


def _prep(graph, plan):
    return temporal_data.PLAN_DATA[plan][0][1]


def test_graph_views_address_the_device_arrays(fake, graph):
    plan = _plan(graph, "M4")
    assert temporal.count(graph, plan) == 0  # the stand-in kernels find nothing
    g = temporal_data.graph_arrays(graph)
    walk, lists = temporal_data.walk_device(graph), temporal_data.lists_device(graph)
    prep = _prep(graph, plan)
    view = _fields(fake.log[-1][3][0])  # the DFS launch's view: with the plan's allow
    want = {k: _ptr(g[k]) for k in ("src", "dst", "time", "next_id", "out_ptr", "out_edges")}
    want.update({k: _ptr(g[k]) for k in ("in_ptr", "in_edges", "nlab", "elab")})
    want.update(
        zip(("pos_out", "pos_in", "out_after_in", "in_after_out"), map(_ptr, walk), strict=True)
    )
    want.update(zip(("out_l", "in_l", "pair_l"), map(_ptr, lists), strict=True))
    want.update(allow=_ptr(prep.allow), n=graph.n, m=graph.m)
    assert view == want
    # the graph's own view (kept with its arrays) leaves allow to the plan
    assert _fields(temporal_data.graph_view(graph, indexes=True).value) == {**want, "allow": 0}
    fake.log.clear()
    assert np.array_equal(temporal.census(graph, 600), np.zeros(36, np.int64))
    ((_, grid, _, args),) = _launches(fake.log, "temporal_census")
    cview, delta, lo, hi, table, ctl, counts = args
    assert _fields(cview) == {
        **want,
        **dict.fromkeys(("pos_out", "pos_in", "out_after_in", "in_after_out"), 0),
        **dict.fromkeys(("out_l", "in_l", "pair_l", "allow"), 0),
    }
    assert (delta, lo, hi) == (600, 0, graph.m) and delta.dtype == graph.time.dtype


def test_expanded_level1_then_dfs_and_replay(fake, graph):
    plan = _plan(graph, "M4")
    temporal.count(graph, plan)
    prep = _prep(graph, plan)
    seq = prep.buffers["launches"]
    lanes, rw, m = BLOCKS * WPB * 32, record_words(plan), graph.m
    ((_, _, _, k1),) = _launches(fake.log, "temporal_level1")
    view, a1, rec, lens = k1
    (first,) = _dfs(fake.log)
    assert _fields(a1) == first  # level 1 reads the launch it opens
    assert first == {
        "plab": _ptr(prep.plab),
        "tlim": _ptr(prep.tlim),
        "roots": 0,
        "rec": _ptr(rec),
        "rec_pref": _ptr(prep.buffers["level1_pref"]),
        "ctl": _ptr(seq.ctl),
        "out": 0,
        "dump": _ptr(seq.dumps[1]),
        "split": 0,
        "lo": 0,
        "hi": m,
        "nrec": -(m + 1),
        "outcap": 0,
        "dumpcap": lanes * (plan.l - 1),
        "splitcap": 0,
        "tail_ns": 10_000_000,
        "mode": MODES["count"],
        "steal": 1,
        "lastc": 1,
        "split_min": 0,
        "chunk": temporal.DEFAULT_TUNING.record_chunk,
    }
    assert len(rec) >= m * rw and len(lens) == m
    assert [e[0] for e in fake.log] == [
        "temporal_level1",
        "temporal_scan_tiles",
        "temporal_scan_add",
        "temporal_dfs",
    ]
    assert temporal.last_run["graph"] == 0
    for replay in (1, 1):  # the second call captures the launches, later calls replay them
        fake.log.clear()
        temporal.count(graph, plan)
        assert prep.buffers["launches"] is seq and temporal.last_run["graph"] == replay
        assert [e[0] for e in fake.log][-1] == "temporal_dfs" and _dfs(fake.log) == [first]
    with temporal.tuned(graphs=False):  # another tuning: decided again, launched one by one
        fake.log.clear()
        temporal.count(graph, plan, expand=False)
        assert prep.buffers["launches"] is not seq and temporal.last_run["graph"] == 0
        (plain,) = _dfs(fake.log)
        assert plain["rec"] == plain["rec_pref"] == plain["nrec"] == 0 and plain["hi"] == m
        assert plain["chunk"] == temporal.DEFAULT_TUNING.root_chunk


def test_root_filter_then_dfs(fake, graph):
    plan = _plan(graph, "M1")
    with temporal.tuned(expand_roots=0, root_filter_max_kept=1.0):
        temporal.exists(graph, plan, 100, 4000)
    prep = _prep(graph, plan)
    ((_, grid, _, (gaps, lim, lo, hi, roots, ctl)),) = _launches(fake.log, "temporal_roots")
    assert (lim, lo, hi) == (3600, 100, 4000) and len(gaps) == graph.m
    (first,) = _dfs(fake.log)
    assert first["roots"] == _ptr(roots) and first["ctl"] == _ptr(ctl) == _ptr(prep.buffers["ctl"])
    assert (first["lo"], first["hi"], first["rec"], first["mode"]) == (0, -1, 0, MODES["exists"])
    assert first["chunk"] == temporal.DEFAULT_TUNING.root_chunk


def test_split_roots_then_record_launch(fake, graph):
    plan = _plan(graph, "M4")
    with temporal.tuned(expand_roots=100, split_gate_roots=0):
        temporal.count(graph, plan, tail_ms=0.5)
    seq = _prep(graph, plan).buffers["launches"]
    rw, dumpcap = record_words(plan), BLOCKS * WPB * 32 * (plan.l - 1)
    split_at = _ptr(seq.dumps[1]) + 8 * dumpcap * rw
    first, second = _dfs(fake.log)
    assert (first["split"], first["splitcap"], first["split_min"]) == (split_at, 100, 8)
    assert (first["dump"], first["tail_ns"], first["rec"]) == (0, 0, 0)
    ((_, _, _, (rec, cap, ctl, lens)),) = _launches(fake.log, "temporal_record_lengths")
    assert _ptr(rec) == second["rec"] == split_at and cap == 100 and len(lens) == 100
    assert second["nrec"] == -101 and second["dump"] == _ptr(seq.dumps[0])
    assert second["tail_ns"] == 500_000 and second["split"] == second["splitcap"] == 0
    assert (second["lo"], second["hi"]) == (0, graph.m)


def test_tail_round_takes_the_dumped_records(fake, graph):
    plan = _plan(graph, "M4")
    rw = record_words(plan)

    def dump_two(args):  # the first launch dumps two records of 3 and 4 candidates
        a = _fields(args[1])
        if a["rec"] or a["nrec"]:
            return
        dump = np.ctypeslib.as_array((ctypes.c_int64 * (2 * rw)).from_address(a["dump"]))
        dump[:] = 0
        dump[2], dump[3], dump[rw + 2], dump[rw + 3] = 10, 13, 20, 24
        ctl = np.ctypeslib.as_array((ctypes.c_uint64 * 16).from_address(a["ctl"]))
        ctl[C_NDUMP] = 2

    fake.hooks["temporal_dfs"] = dump_two
    with temporal.tuned(record_chunk=64):  # root items 32 at a time, record items 64
        temporal.count(graph, plan, expand=False)
    seq = _prep(graph, plan).buffers["launches"]
    first, tail = _dfs(fake.log)
    assert tail["nrec"] == 2 and tail["rec"] == first["dump"] == _ptr(seq.dumps[1])
    assert tail["dump"] == _ptr(seq.dumps[0]) and tail["tail_ns"] == 2 * first["tail_ns"]
    pref = np.ctypeslib.as_array((ctypes.c_int64 * 3).from_address(tail["rec_pref"]))
    assert pref.tolist() == [0, 3, 7]
    assert (first["chunk"], tail["chunk"], tail["roots"]) == (32, 64, 0)
    changed = ("rec", "rec_pref", "nrec", "dump", "tail_ns", "chunk")
    assert {k: v for k, v in first.items() if k not in changed} == {
        k: v for k, v in tail.items() if k not in changed
    }
    assert temporal.last_run["tail_records"] == 2 and temporal.last_run["launches"] == 2


def test_enumeration_fills_its_own_buffer(fake, graph):
    plan = _plan(graph, "M1")
    rows = temporal.enumerate_matches(graph, plan, 0, 3000, limit=7)
    assert rows.shape == (0, 3)
    (fill,) = _dfs(fake.log)
    assert fill["out"] != 0 and fill["outcap"] == 7 and fill["mode"] == MODES["enumerate"]
    assert "launches" not in _prep(graph, plan).buffers  # an output buffer: not kept
