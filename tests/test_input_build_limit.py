"""Issue 38, item 3 (residual): the graph build after a read is bounded by the memory budget.

A 255 KB gzip of 256 MiB of ``0 1`` lines passed the input limit (a quarter of the budget:
reader peak 1.4 GiB) and the static build after it peaked at 8.5 GiB for its 67M edges (lexsort
of (u, v, code) and ``numpy.unique`` with its inverse: ~120 bytes per edge). Now

- an edge file whose lines would build a graph past the memory budget is refused before it is
  parsed (:func:`~nx_gpumine.limits.graph_build_bytes`), with an error naming the lines, the
  bytes, the budget and how to raise it; normal files still load under the default settings;
- the build takes less: one sort of uint64 keys ``(u * n + v) * 4 + code`` instead of a lexsort,
  integer node ids mapped through a table instead of ``numpy.unique``, intermediates freed as
  they go. Results are the old ones exactly: compared here with the old code (kept below as the
  reference) on random inputs with duplicates, self-loops, labels, directed and undirected.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine import limits
from nx_gpumine.errors import CapacityError, UnsupportedGraphError
from nx_gpumine.inputs import static_graph, temporal_graph
from nx_gpumine.inputs.files import FileError, InputTooLargeError, read_columns, read_edge_file
from nx_gpumine.inputs.labels import EncodedLabels, LabelSpec
from nx_gpumine.interfaces import cli
from nx_gpumine.interfaces.cli.common import DATASETS
from nx_gpumine.interfaces.cli.reading import load_static_graph, load_temporal_graph

pa = pytest.importorskip("pyarrow")


# ====================================================================== the old code (reference)
def _old_dense_ids(src_keys: np.ndarray, dst_keys: np.ndarray) -> tuple:
    """``_dense_ids(src, dst, None)`` before this change: ``numpy.unique`` with its inverse."""
    both = np.concatenate([src_keys, dst_keys])
    uniq, inv = np.unique(both, return_inverse=True)
    n = len(src_keys)
    return inv[:n].astype(np.int64), inv[n:].astype(np.int64), uniq.tolist()


def _old_build(
    n: int, src: Any, dst: Any, directed: bool, keys: list, labels: Any, duplicates: str
) -> dict:
    """The CSR arrays ``build_static_graph`` made before this change (lexsort of (u, v, code)).

    The self-loop error names the smallest node whose loop repeats (the old code named
    ``lv[i]`` for a position ``i`` of the *sorted* loops, sometimes a node looped once).
    """
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    labels = None if labels is None else np.asarray(labels, dtype=np.int32)
    is_loop = src == dst
    loop = np.zeros(n, dtype=np.uint8)
    loop_label = None if labels is None else np.full(n, -1, dtype=np.int32)
    lv = src[is_loop]
    if len(np.unique(lv)) != len(lv) and duplicates == "raise":
        slv = np.sort(lv)
        u = int(slv[np.flatnonzero(np.diff(slv) == 0)[0]])
        raise UnsupportedGraphError(
            f"input: self-loop on node {keys[u]!r} appears more than once; the graph must be"
            " simple (pass duplicates='drop' to keep the first)"
        )
    loop[lv] = 1
    if loop_label is not None:
        loop_label[lv[::-1]] = labels[is_loop][::-1]
    s, d = src[~is_loop], dst[~is_loop]
    lab = None if labels is None else labels[~is_loop]
    fwd_code, bwd_code = (1, 2) if directed else (3, 3)
    key_u = np.concatenate([s, d])
    key_v = np.concatenate([d, s])
    code = np.concatenate(
        [np.full(len(s), fwd_code, np.uint8), np.full(len(s), bwd_code, np.uint8)]
    )
    order = np.lexsort((code, key_v, key_u))
    key_u, key_v, code = key_u[order], key_v[order], code[order]
    if lab is not None:
        lab2 = np.concatenate([lab, lab])[order]
    same = (key_u[1:] == key_u[:-1]) & (key_v[1:] == key_v[:-1])
    dup = same & ((code[1:] & code[:-1]) != 0)
    if dup.any():
        if duplicates == "raise":
            i = int(np.flatnonzero(dup)[0])
            u, v = keys[int(key_u[i])], keys[int(key_v[i])]
            kind = "edge" if directed else "undirected edge"
            raise UnsupportedGraphError(
                f"input: {kind} ({u!r}, {v!r}) appears more than once; multigraphs are not"
                " supported (pass duplicates='drop' to keep the first occurrence)"
            )
        keep = np.ones(len(key_u), dtype=bool)
        keep[1:][dup] = False
        key_u, key_v, code = key_u[keep], key_v[keep], code[keep]
        if lab is not None:
            lab2 = lab2[keep]
    first = np.ones(len(key_u), dtype=bool)
    first[1:] = (key_u[1:] != key_u[:-1]) | (key_v[1:] != key_v[:-1])
    group = np.cumsum(first) - 1
    m = int(first.sum())
    dircode = np.zeros(m, dtype=np.uint8)
    np.bitwise_or.at(dircode, group, code)
    out_label = in_label = None
    if lab is not None:
        out_label = np.full(m, -1, dtype=np.int32)
        in_label = np.full(m, -1, dtype=np.int32)
        is_out = (code & 1).astype(bool)
        is_in = (code & 2).astype(bool)
        out_label[group[is_out]] = lab2[is_out]
        in_label[group[is_in]] = lab2[is_in]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(indptr, key_u[first] + 1, 1)
    np.cumsum(indptr, out=indptr)
    return {
        "indptr": indptr,
        "indices": key_v[first].astype(np.int32),
        "dircode": dircode,
        "loop": loop,
        "out_label": out_label,
        "in_label": in_label,
        "loop_label": loop_label,
    }


def _old_from_arrays(src: Any, dst: Any, directed: bool, labels: Any, duplicates: str) -> dict:
    s, d, keys = _old_dense_ids(np.asarray(src), np.asarray(dst))
    codes = None
    if labels is not None:
        codes = EncodedLabels.encode(LabelSpec("label"), list(labels)).codes
    return {"keys": keys, **_old_build(len(keys), s, d, directed, keys, codes, duplicates)}


def _same_graph(g: ng.StaticGraph, ref: dict) -> None:
    assert g.keys == ref["keys"]
    assert [type(k) for k in g.keys] == [type(k) for k in ref["keys"]]
    for name, want in ref.items():
        if name == "keys":
            continue
        got = getattr(g, name)
        if want is None:
            assert got is None, name
        else:
            assert got.dtype == want.dtype, name
            np.testing.assert_array_equal(got, want, err_msg=name)


def _outcome(build: Any) -> Any:
    """The graph built, or the message of the error refusing it."""
    try:
        return build()
    except UnsupportedGraphError as exc:
        return str(exc).split(": ", 1)[1]  # without where the edges came from


def _random_ids(rng: np.random.Generator, kind: str, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Endpoint keys of ``m`` random edges: few nodes (many duplicates and self-loops)."""
    n = int(rng.integers(1, 40))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if kind == "dense":  # ids 0..n-1, maybe with gaps
        return src, dst
    if kind == "offset32":  # negative int32 ids
        return (src - 17).astype(np.int32), (dst - 17).astype(np.int32)
    if kind == "uint64":
        return src.astype(np.uint64) + np.uint64(2**63), dst.astype(np.uint64) + np.uint64(2**63)
    if kind == "sparse":  # spread out: numpy.unique
        return src * 1_000_003 - 5, dst * 1_000_003 - 5
    if kind == "mixed":  # int64 with uint64: floats to numpy
        return src, dst.astype(np.uint64)
    if kind == "text":
        return src.astype(str).astype(object), dst.astype(str).astype(object)
    return src.astype(np.float64) / 2, dst.astype(np.float64) / 2  # "float"


ID_KINDS = ["dense", "offset32", "uint64", "sparse", "mixed", "text", "float"]


# ====================================================================== results unchanged
@pytest.mark.parametrize("kind", ID_KINDS)
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("labelled", [False, True])
def test_from_arrays_gives_the_old_graph(kind, directed, labelled):
    rng = np.random.default_rng([ID_KINDS.index(kind), int(directed), int(labelled)])
    for trial in range(40):
        m = int(rng.integers(0, 3)) if trial < 3 else int(rng.integers(1, 120))
        if m == 0:
            src = dst = np.zeros(0, dtype=np.int64)
        else:
            src, dst = _random_ids(rng, kind, m)
        labels = rng.integers(0, 3, len(src)) if labelled else None
        for duplicates in ("drop", "raise"):
            new = _outcome(
                lambda src=src, dst=dst, labels=labels, duplicates=duplicates: ng.from_arrays(
                    src, dst, directed=directed, edge_labels=labels, duplicates=duplicates
                )
            )
            old = _outcome(
                lambda src=src, dst=dst, labels=labels, duplicates=duplicates: _old_from_arrays(
                    src, dst, directed, labels, duplicates
                )
            )
            if isinstance(old, str):
                assert new == old
            else:
                _same_graph(new, old)


@pytest.mark.parametrize("directed", [False, True])
def test_from_edgelist_gives_the_old_graph_on_bigger_inputs(directed):
    rng = np.random.default_rng(5)
    for n, m in ((50, 3000), (2000, 3000), (10**6, 5000)):
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        src[:50], dst[:50] = src[50:100], dst[50:100]  # repeated edges
        dst[100:120] = src[100:120]  # self-loops
        labels = rng.integers(0, 4, m)
        frame = pa.table({"source": src, "target": dst, "label": labels})
        for lab in (None, "label"):
            g = static_graph.from_edgelist(
                frame, edge_label=lab, directed=directed, duplicates="drop"
            )
            _same_graph(
                g, _old_from_arrays(src, dst, directed, None if lab is None else labels, "drop")
            )


def test_duplicate_errors_name_the_same_edge_and_loop():
    with pytest.raises(UnsupportedGraphError, match=r"\(3, 9\) appears more than once"):
        ng.from_arrays([9, 3, 3, 1], [3, 7, 9, 2], duplicates="raise")
    with pytest.raises(UnsupportedGraphError, match=r"edge \(3, 9\) appears more than once"):
        ng.from_arrays([3, 9, 3], [9, 3, 9], directed=True, duplicates="raise")
    ng.from_arrays([3, 9], [9, 3], directed=True, duplicates="raise")  # both directions: fine
    # the repeated loop is named (the old code named node 5, whose loop is there once)
    with pytest.raises(UnsupportedGraphError, match="self-loop on node 3 appears"):
        ng.from_arrays([5, 3, 3], [5, 3, 3], duplicates="raise")


def test_dense_ids_of_integer_keys():
    dense = temporal_graph._dense_ids
    src, dst = np.array([0, 2, 1, 2]), np.array([1, 0, 2, 2])
    s, d, keys = dense(src, dst, None)
    assert s is src and d is dst and keys == [0, 1, 2]  # their own ids: not copied
    for a, b in (
        (np.array([-4, 10, 7]), np.array([7, -4, 3])),
        (np.array([5, 9], dtype=np.uint8), np.array([9, 6], dtype=np.int32)),
        (np.array([2**62, 2**62 + 3]), np.array([2**62 + 3, 2**62 + 1])),
        (np.array([0, 10**12]), np.array([5, 5])),  # spread out: numpy.unique
    ):
        s, d, keys = dense(a, b, None)
        want_s, want_d, want_keys = _old_dense_ids(a, b)
        np.testing.assert_array_equal(s, want_s)
        np.testing.assert_array_equal(d, want_d)
        assert keys == want_keys and all(type(k) is int for k in keys)


def test_temporal_graph_is_the_old_one():
    rng = np.random.default_rng(3)
    for n, m in ((5, 400), (300, 2000), (10**7, 500)):
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        t = rng.integers(0, 50, m)
        labels = rng.integers(0, 3, m)
        g = temporal_graph.temporal_from_arrays(src, dst, t, edge_label=labels)
        si, di, keys = _old_dense_ids(src, dst)
        order = np.argsort(t, kind="stable")
        assert g.keys == keys
        np.testing.assert_array_equal(g.src, si[order].astype(np.int32))
        np.testing.assert_array_equal(g.dst, di[order].astype(np.int32))
        np.testing.assert_array_equal(g.time, t[order])
        np.testing.assert_array_equal(g.rows, order)
        for ptr, edges, owner in ((g.out_ptr, g.out_edges, si), (g.in_ptr, g.in_edges, di)):
            owner = owner[order]
            assert edges.dtype == np.int64 and ptr.dtype == np.int64
            np.testing.assert_array_equal(edges, np.argsort(owner, kind="stable"))
            np.testing.assert_array_equal(np.diff(ptr), np.bincount(owner, minlength=len(keys)))
        np.testing.assert_array_equal(g.next_id, np.searchsorted(t[order], t[order], "right"))
        assert g.src.dtype == g.dst.dtype == np.int32


# ====================================================================== the build is bounded
def _bomb(tmp_path: Any, lines: int, line: bytes = b"0 1\n", name: str = "bomb.txt.gz") -> Any:
    """A gzip of ``lines`` copies of ``line`` (a few kB for a few MB of text)."""
    f = tmp_path / name
    f.write_bytes(gzip.compress(line * lines, mtime=0))
    return f


@pytest.fixture
def no_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail if a graph is built: a refused file must stop before."""

    def fail(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a graph was built from a refused file")

    monkeypatch.setattr(static_graph, "build_static_graph", fail)
    monkeypatch.setattr(static_graph, "from_edgelist", fail)
    monkeypatch.setattr(temporal_graph, "temporal_from_frame", fail)


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 50 MB budget, the input limit raised past it (only the build check can refuse)."""
    monkeypatch.setenv(limits.BUDGET_ENV, "50MB")
    monkeypatch.setenv(limits.INPUT_LIMIT_ENV, "1GB")


def test_bomb_is_refused_before_the_build(tmp_path, small_budget, no_build):
    f = _bomb(tmp_path, 1 << 20)  # 4 MiB of text, a 4 kB gzip; 1M edges: ~100 MB to build
    assert f.stat().st_size < 100_000
    with pytest.raises(InputTooLargeError) as info:
        load_static_graph(str(f))
    err = info.value
    assert isinstance(err, FileError) and isinstance(err, CapacityError)
    msg = str(err)
    need = limits.graph_build_bytes((1 << 20) + 1, 2)
    assert f"its {(1 << 20) + 1:,} lines would take about {limits.describe_size(need)}" in msg
    assert "to build into a graph" in msg and "more than the memory budget of 47.7 MiB" in msg
    assert f"{limits.BUDGET_ENV}=1GiB" in msg and "set_memory_budget" in msg
    # temporal files too
    g = tmp_path / "t.txt.gz"
    g.write_bytes(gzip.compress(b"0 1 5\n" * (1 << 20), mtime=0))
    with pytest.raises(InputTooLargeError, match="3 parsed column"):
        load_temporal_graph(str(g))


def test_bomb_on_the_command_line(tmp_path, small_budget, capsys):
    f = _bomb(tmp_path, 1 << 20)
    rc = cli.main(
        ["count", str(f), "triangle", "--engine", "cpu", "--no-progress"], out=io.StringIO()
    )
    err = capsys.readouterr().err
    assert rc == 2
    assert "to build into a graph" in err and limits.BUDGET_ENV in err


def test_default_input_limit_refuses_it_too(tmp_path, monkeypatch, no_build):
    monkeypatch.setenv(limits.BUDGET_ENV, "50MB")
    monkeypatch.delenv(limits.INPUT_LIMIT_ENV, raising=False)
    with pytest.raises(InputTooLargeError):
        load_static_graph(str(_bomb(tmp_path, 1 << 20)))


def test_parquet_rows_are_counted_before_reading(tmp_path, small_budget, no_build):
    import pyarrow.parquet as pq

    f = tmp_path / "g.parquet"
    zeros = np.zeros(1 << 20, dtype=np.int64)
    pq.write_table(pa.table({"s": zeros, "d": zeros + 1}), f)
    assert f.stat().st_size < 100_000  # a few kB of parquet: 1M rows
    with pytest.raises(InputTooLargeError, match="1,048,576 rows would take about"):
        read_edge_file(f, source_col="s", target_col="d")


def test_a_file_within_the_budget_loads(tmp_path, small_budget):
    f = _bomb(tmp_path, 50_000)  # 50k edges: ~5 MB to build
    g = load_static_graph(str(f))
    assert (g.n, g.num_edges) == (2, 1)
    t = tmp_path / "t.txt"
    t.write_text("".join(f"{i % 100} {(i * 7) % 100} {i}\n" for i in range(50_000)))
    assert load_temporal_graph(str(t)).m == 50_000
    # a column read that builds no graph (a node label file) is not checked
    labels = _bomb(tmp_path, 1 << 20, b"1 a\n", "labels.txt.gz")
    assert read_columns(labels, {"node": 0, "label": 1}).table.num_rows == 1 << 20


SHARED = Path("/work/shared/data")


@pytest.mark.parametrize(
    "facebook, collegemsg",
    [
        (DATASETS["facebook"], DATASETS["collegemsg"]),
        (SHARED / "facebook" / "facebook_combined.txt", SHARED / "collegemsg" / "CollegeMsg.txt"),
    ],
)
def test_bundled_files_load_under_the_default_budget(facebook, collegemsg, monkeypatch):
    if not (facebook.is_file() and collegemsg.is_file()):
        pytest.skip("data set files not here")
    monkeypatch.delenv(limits.BUDGET_ENV, raising=False)
    monkeypatch.delenv(limits.INPUT_LIMIT_ENV, raising=False)
    g = load_static_graph(str(facebook))
    assert (g.n, g.num_edges) == (4039, 88234)
    t = load_temporal_graph(str(collegemsg))
    assert (t.n, t.m) == (1899, 59835)


def test_graph_build_bytes():
    assert limits.graph_build_bytes(1000, 2) == 1000 * (16 + limits.BUILD_BYTES_PER_EDGE)
    assert limits.graph_build_bytes(10, 0) == 10 * (8 + limits.BUILD_BYTES_PER_EDGE)
