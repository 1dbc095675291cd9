"""Issue 38, item 6 (residual): converting a listing's engine result to user-facing results
(node keys, frame columns) runs in blocks of rows, so a Ctrl-C during the conversion of
millions of matches raises ``KeyboardInterrupt`` within a second (it used to wait for whole-result
fancy indexes and object-array steps, 1.6 s and more), and the blocks give exactly what the
whole-result conversion gave: same dtypes, column order and values, with the key lookup skipped
when the node keys are the dense ids themselves (``0 .. n - 1`` in order).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import nx_gpumine as ng
from nx_gpumine.inputs.motifs import named_motif
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.results import static as static_results
from nx_gpumine.results.static import (
    _column_names,
    key_array,
    keys_are_positions,
    matches_to_frame,
    matches_to_keys,
)
from nx_gpumine.results.temporal import match_columns


# ------------------------------------------------------------- the whole-result conversions
def _old_matches_to_keys(graph, ids):
    return key_array(graph)[ids]


def _old_frame(graph, pattern, ids):
    keys = key_array(graph)[ids]
    return pd.DataFrame({name: keys[:, j] for j, name in enumerate(_column_names(pattern))})


def _old_match_columns(graph, motif, ids):
    ids = np.asarray(ids, dtype=np.int64).reshape(-1, len(motif.edges))
    rows = graph.rows[ids]
    data: dict = {}
    for i in range(ids.shape[1]):
        data[f"edge_{i}"] = rows[:, i]
    for i in range(ids.shape[1]):
        data[f"time_{i}"] = graph.times_as_input(ids[:, i])
    keys = np.empty(graph.n, dtype=object)
    keys[:] = graph.keys
    first: dict = {}
    for i, (a, b) in enumerate(motif.edges):
        first.setdefault(a, (graph.src, i))
        first.setdefault(b, (graph.dst, i))
    for a in range(motif.k):
        arr, i = first[a]
        vals = keys[arr[ids[:, i]]]
        try:
            vals = np.asarray(vals.tolist()) if len(vals) else np.asarray([], dtype=np.int64)
        except (TypeError, ValueError):
            pass
        data[f"node_{a}"] = vals
    return data


def _same_array(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype == object:  # the same objects (types too: 1 is not 1.0 nor True)
        assert [(type(x), x) for x in got.ravel().tolist()] == [
            (type(x), x) for x in want.ravel().tolist()
        ]
    else:
        assert got.tobytes() == want.tobytes()


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 7 rows: many blocks and a ragged last one even for small inputs."""
    monkeypatch.setattr(static_results, "ROW_BLOCK", 7)


# ------------------------------------------------------------------------------ static
_STATIC_NODES = {
    "identity": list(range(40)),
    "ints out of order": list(range(39, -1, -1)),
    "ints shifted": list(range(1, 41)),
    "strings": [f"v{i}" * (1 + i % 3) for i in range(40)],
    "mixed": [1, "a", 2.5, 2**70, -(2**63), np.int64(7), (1, 2), "bb"] * 5,
}


def _static_graph(name: str) -> ng.StaticGraph:
    nodes = _STATIC_NODES[name]
    if name == "mixed":  # distinct keys of mixed types
        nodes = [(i, x) if i >= 8 else x for i, x in enumerate(nodes)]
    G = nx.Graph()
    G.add_nodes_from(nodes)
    G.add_edges_from(zip(nodes[:-1], nodes[1:], strict=True))
    return ng.from_networkx(G)


@pytest.mark.parametrize("name", list(_STATIC_NODES))
@pytest.mark.parametrize("rows", [0, 1, 7, 50])
def test_static_keys_and_frame_equal_the_whole_result_conversion(small_blocks, name, rows):
    graph = _static_graph(name)
    assert keys_are_positions(graph.keys) == (name == "identity")
    ids = np.random.default_rng(rows).integers(0, graph.n, (rows, 4))
    _same_array(matches_to_keys(graph, ids), _old_matches_to_keys(graph, ids))
    pattern = Pattern.named("4-cycle")
    got, want = matches_to_frame(graph, pattern, ids, "pandas"), _old_frame(graph, pattern, ids)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert list(got.dtypes) == list(want.dtypes)
    for col in want:
        _same_array(np.asarray(got[col]), np.asarray(want[col]))


def test_take_rows_is_fancy_indexing(small_blocks):
    """Negative positions as in ``table[index]``, out-of-range ones still an ``IndexError``."""
    table = np.array(["a", "bb", 3, None, 2.5], dtype=object)
    index = np.random.default_rng(0).integers(-5, 5, (30, 2))
    _same_array(static_results.take_rows(table, index), table[index])
    for bad in (5, -6):
        with pytest.raises(IndexError):
            static_results.take_rows(table, np.array([[0, 1]] * 9 + [[bad, 0]]))


@pytest.mark.parametrize("kind", ["polars", "pyarrow"])
@pytest.mark.parametrize("name", ["identity", "strings"])
def test_other_frame_kinds_unchanged(small_blocks, kind, name):
    lib = pytest.importorskip(kind)
    graph = _static_graph(name)
    ids = np.random.default_rng(2).integers(0, graph.n, (30, 4))
    keys = key_array(graph)[ids]
    cols = {
        n: (keys[:, j].tolist() if keys.dtype == object else keys[:, j])
        for j, n in enumerate(_column_names(Pattern.named("4-cycle")))
    }
    want = lib.DataFrame(cols) if kind == "polars" else lib.table(cols)
    got = matches_to_frame(graph, Pattern.named("4-cycle"), ids, kind)
    assert got.schema == want.schema and got.equals(want)


def test_find_subgraphs_keys_identity_and_strings():
    """The public listing: identity keys come back as the dense ids (int64), string keys as
    the same object array as before."""
    G = nx.gnm_random_graph(60, 300, seed=3)
    ids = ng.find_subgraphs(G, "4-cycle", engine="cpu")
    assert ids.dtype == np.int64 and ids.shape[1] == 4 and len(ids)
    H = nx.relabel_nodes(G, {v: f"n{v}" for v in G})
    keys = ng.find_subgraphs(H, "4-cycle", engine="cpu")
    assert keys.dtype == object
    assert keys.tolist() == [[f"n{v}" for v in row] for row in ids.tolist()]


# ---------------------------------------------------------------------------- temporal
_TEMPORAL_NODES = {
    "identity": list(range(30)),
    "ints shifted": list(range(5, 35)),
    "strings": [f"u{i}" * (1 + i % 4) for i in range(30)],
    "mixed int and str": [i if i % 2 else f"s{i}" for i in range(30)],
    "ints and floats": [i if i % 2 else i + 0.5 for i in range(30)],
    "past int64": [2**63 + i for i in range(30)],
    "past uint64": [2**64 + i if i % 3 == 0 else i for i in range(30)],
    "bools and ints": [True, False, *range(2, 30)],
}


def _temporal_graph(name: str, times: str = "int") -> ng.TemporalGraph:
    nodes = _TEMPORAL_NODES[name]
    rng = np.random.default_rng(len(name))
    src = rng.integers(0, len(nodes), 200)
    dst = (src + rng.integers(1, len(nodes), 200)) % len(nodes)
    t = np.sort(rng.integers(0, 50, 200))
    if times == "float":
        t = t + 0.25
    elif times == "datetime":
        t = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(t, unit="s")
    frame = pd.DataFrame(
        dict(
            source=pd.Series([nodes[i] for i in src], dtype=object),
            target=pd.Series([nodes[i] for i in dst], dtype=object),
            time=t,
        )
    )
    return ng.TemporalGraph.from_edgelist(frame, nodes=nodes)


def _same_columns(got: dict, want: dict) -> None:
    assert list(got) == list(want)
    for name in want:
        _same_array(got[name], want[name])


@pytest.mark.parametrize("name", list(_TEMPORAL_NODES))
@pytest.mark.parametrize("motif", ["path3", "cycle3"])
@pytest.mark.parametrize("rows", [0, 1, 7, 60])
def test_match_columns_equal_the_whole_result_conversion(small_blocks, name, motif, rows):
    graph = _temporal_graph(name)
    assert keys_are_positions(graph.keys) == (name == "identity")
    m = named_motif(motif)
    ids = np.random.default_rng(rows).integers(0, graph.m, (rows, len(m.edges)))
    _same_columns(match_columns(graph, m, ids), _old_match_columns(graph, m, ids))


@pytest.mark.parametrize("times", ["float", "datetime"])
def test_match_columns_keep_the_time_type(small_blocks, times):
    graph = _temporal_graph("strings", times)
    m = named_motif("path3")
    ids = np.random.default_rng(1).integers(0, graph.m, (40, 3))
    got = match_columns(graph, m, ids)
    _same_columns(got, _old_match_columns(graph, m, ids))
    assert got["time_0"].dtype.kind == ("M" if times == "datetime" else "f")


def test_find_motifs_frame_unchanged():
    """The public listing's frame, from the block-wise columns."""
    graph = _temporal_graph("strings")
    got = ng.find_motifs(graph, "path3", delta=10, engine="cpu")
    ids = ng.find_motifs(graph, "path3", delta=10, output="edge_ids", engine="cpu")
    assert len(got) == len(ids) > 0
    want = pd.DataFrame(_old_match_columns(graph, named_motif("path3"), ids))
    pd.testing.assert_frame_equal(got, want, check_exact=True)


# --------------------------------------------------------------------- Ctrl-C latency
def _conversions() -> dict[str, Callable[[], object]]:
    """Conversions of a few million synthetic rows (no engine call: nothing else runs)."""
    rng = np.random.default_rng(0)
    n_static = 3_000_000
    G = nx.relabel_nodes(nx.path_graph(3000), {v: f"node-{v}" for v in range(3000)})
    sg = ng.from_networkx(G)
    sids = rng.integers(0, sg.n, (n_static, 4))
    pattern = Pattern.named("4-cycle")
    tg = _temporal_graph("strings")
    motif = named_motif("path3")
    tids = rng.integers(0, tg.m, (2_000_000, 3))
    return {
        "matches_to_keys": lambda: matches_to_keys(sg, sids),
        "matches_to_frame": lambda: matches_to_frame(sg, pattern, sids, "pandas"),
        "match_columns": lambda: match_columns(tg, motif, tids),
    }


def _interrupt_after(convert: Callable[[], object], delay: float) -> float | None:
    """Run ``convert`` with a Ctrl-C ``delay`` s in; the seconds from the signal to the
    ``KeyboardInterrupt``, or None when the conversion finished first.

    The signal is SIGALRM from a kernel timer, handled as Python handles SIGINT
    (``signal.default_int_handler``): it is delivered on time whoever holds the GIL (a timer
    thread would wait for the GIL behind the very NumPy call whose length is measured)."""
    due = time.monotonic() + delay
    end = None
    try:
        signal.setitimer(signal.ITIMER_REAL, delay)
        try:
            convert()
        except KeyboardInterrupt:
            return time.monotonic() - due
        end = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, 0)  # finished first: cancel
    except KeyboardInterrupt:
        # raised just after the conversion returned: Python handles a signal that came during
        # one long NumPy call at a later check, here after the call
        if end is None or due < end:
            return time.monotonic() - due
    return None


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs signal.setitimer")
@pytest.mark.parametrize("what", ["matches_to_keys", "matches_to_frame", "match_columns"])
def test_ctrl_c_during_conversion_raises_within_a_second(what):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are delivered to the main thread only")
    convert = _conversions()[what]
    previous = signal.signal(signal.SIGALRM, signal.default_int_handler)
    try:
        t0 = time.monotonic()
        convert()  # warm up; its length sets when to interrupt (whatever the machine's speed)
        full = time.monotonic() - t0
        latency = None
        for frac in (0.3, 0.1, 0.02):  # a busy machine may run faster than the warm-up
            latency = _interrupt_after(convert, max(frac * full, 0.001))
            if latency is not None:
                break
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert latency is not None, f"{what} finished before every signal ({full:.2f} s in all)"
    assert latency <= 1.0, (what, latency, full)
