"""Issue 38 ("Reliability, round two"): inputs, budgets, interrupts and output files.

Item 2: an edge file with an integer past int64 in its time (or label) column is refused with a
clear error naming the column and the limit, not read as float64 (which rounded
``2**63 - 2 .. 2**63`` to one value: a time-respecting triangle counted 0).
Item 3: reads are bounded: standard input from ``/dev/zero`` stops at once (binary), endless text
and gzip (bzip2, xz, zstd, lz4) "bombs" stop at the input limit (``NX_GPUMINE_INPUT_LIMIT``, else
a quarter of the memory budget) with an error saying how much was read and how to raise it; a
valid compressed file is called damaged only for a codec error, never for the limit or a lack of
memory; a first line over 64 KiB is read whole (a header is still a header).
Item 4: listings check the memory budget as their rows accumulate: the count pass of a
two-pass enumeration stops after its first rounds of chunks, the serial enumeration never takes a
block past the budget, so the ``CapacityError`` comes after a fraction of the full count.
Item 6: a listing holds its rows in bounded blocks (no whole-result copy a Ctrl-C must wait
for): SIGINT raises within 0.5 s and the process exits within 1 s; a Dask query interrupted
with Ctrl-C cancels its tasks, whose running engine calls stop, so the next query on the client
returns at once.
Item 8: ``-o`` / ``--plot`` never write through a symbolic link; a pattern file's lines are
never echoed in an error.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import logging
import lzma
import os
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import CancelledError
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine import limits
from nx_gpumine.engines.cpu import calls
from nx_gpumine.errors import CapacityError, InputError
from nx_gpumine.execution.merge import Merge, stack_rows
from nx_gpumine.inputs import file_bytes, files
from nx_gpumine.inputs.files import FileError, InputTooLargeError, read_columns, read_edge_file
from nx_gpumine.inputs.temporal_graph import load_collegemsg
from nx_gpumine.interfaces import cli
from nx_gpumine.interfaces.cli.common import CliError
from nx_gpumine.interfaces.cli.output import check_writable, open_output

ROOT = Path(__file__).resolve().parent.parent
BIG_TIMES = "0 1 9223372036854775806\n1 2 9223372036854775807\n2 0 9223372036854775808\n"


def run_cli(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    buf = io.StringIO()
    rc = cli.main(argv, out=buf)
    return rc, buf.getvalue(), capsys.readouterr().err


class _Endless(io.RawIOBase):
    """An endless binary stream repeating ``unit`` (counts the bytes handed out)."""

    def __init__(self, unit: bytes) -> None:
        super().__init__()
        self.block = unit * max(1, (1 << 16) // len(unit))
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        n = min(len(buf), len(self.block))
        buf[:n] = self.block[:n]
        self.given += n
        return n


# ====================================================================== item 2
def test_cli_refuses_file_times_past_int64(tmp_path, capsys):
    f = tmp_path / "big.txt"
    f.write_text(BIG_TIMES)
    argv = ["temporal", str(f), "--motif", "triangle", "--delta", "none", "--engine", "cpu"]
    rc, out, err = run_cli([*argv, "--no-progress"], capsys)
    assert rc == 2, (out, err)
    assert "time column 'f2'" in err and "9223372036854775808" in err
    assert "2**63 - 1" in err and "int64" in err
    # the largest times int64 holds: read exactly, and the triangle is there
    f.write_text("0 1 9223372036854775805\n1 2 9223372036854775806\n2 0 9223372036854775807\n")
    rc, out, err = run_cli([*argv, "--no-progress", "--format", "json"], capsys)
    assert rc == 0, err
    assert json.loads(out)["count"] == 1


@pytest.mark.parametrize(
    "text, value",
    [
        (BIG_TIMES, "9223372036854775808"),
        ("0,1,5\n1,2,-9223372036854775809\n2,0,7\n", "-9223372036854775809"),
        ("src dst t\n0 1 1\n1 2 18446744073709551615\n", "18446744073709551615"),
    ],
)
def test_reader_refuses_integers_past_int64(tmp_path, text, value):
    f = tmp_path / "t.txt"
    f.write_text(text)
    with pytest.raises(FileError, match=rf"time column '(f2|t)' holds the integer {value}\b"):
        read_edge_file(f, time_col=2)
    with pytest.raises(InputError, match=r"\[-2\*\*63, 2\*\*63 - 1\]"):
        read_edge_file(f, label_col=2)  # a label column too ("label column")


def test_reader_keeps_int64_limits_and_decimals(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("0 1 9223372036854775807\n1 2 -9223372036854775808\n")
    t = read_edge_file(f, time_col=2).table.column("time")
    assert str(t.type) == "int64" and t.to_pylist() == [2**63 - 1, -(2**63)]
    f.write_text("0 1 1e19\n1 2 2.5\n")  # decimals past 2**63: floats, as written
    t = read_edge_file(f, time_col=2).table.column("time")
    assert str(t.type) == "double" and t.to_pylist() == [1e19, 2.5]
    f.write_text("0 1 1.5\n1 2 9223372036854775807\n")  # a float column; the integer fits
    assert read_edge_file(f, time_col=2).table.num_rows == 2
    # ids past int64 are text ids, exactly (not rounded)
    f.write_text("18446744073709551615 1\n1 2\n")
    ids = read_edge_file(f).table.column("source").to_pylist()
    assert ids == ["18446744073709551615", "1"]


def test_parquet_uint64_times_past_int64(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    f = tmp_path / "t.parquet"
    table = pa.table(
        {
            "s": pa.array([0, 1], pa.int64()),
            "d": pa.array([1, 2], pa.int64()),
            "t": pa.array([1, 2**63], pa.uint64()),
        }
    )
    pq.write_table(table, f)
    with pytest.raises(FileError, match="holds the integer 9223372036854775808"):
        read_edge_file(f, source_col="s", target_col="d", time_col="t")


# ====================================================================== item 3
def test_dev_zero_on_stdin_stops_at_once(tmp_path):
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=str(ROOT))
    t0 = time.monotonic()
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(
            [sys.executable, "-m", "nx_gpumine", "count", "-", "triangle", "--engine", "cpu"],
            stdin=zero, capture_output=True, text=True, timeout=120, env=env,
        )  # fmt: skip
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "'<stdin>': is binary" in proc.stderr
    assert time.monotonic() - t0 < 60


def test_endless_text_stops_at_the_input_limit(monkeypatch, capsys):
    stream = _Endless(b"0 1\n")
    with pytest.raises(InputTooLargeError) as info:
        read_edge_file(stream, max_bytes=3_000_000)
    err = info.value
    assert isinstance(err, FileError) and isinstance(err, CapacityError)
    assert "more than 3,000,000 bytes read" in str(err)
    assert limits.INPUT_LIMIT_ENV in str(err) and limits.BUDGET_ENV in str(err)
    assert stream.given < 3_000_000 + 2 * files.READ_BLOCK
    # the environment variable sets the limit; the CLI reads stdin with it
    monkeypatch.setenv(limits.INPUT_LIMIT_ENV, "2MB")
    assert limits.input_limit() == 2_000_000
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(_Endless(b"0 1\n"))))
    rc, _, err = run_cli(["count", "-", "triangle", "--engine", "cpu", "--no-progress"], capsys)
    assert rc == 2
    assert "'<stdin>': more than 2,000,000 bytes read" in err and "NX_GPUMINE_INPUT_LIMIT" in err


def test_input_limit_follows_the_budget(monkeypatch):
    monkeypatch.delenv(limits.INPUT_LIMIT_ENV, raising=False)
    ng.set_memory_budget("40MB")
    try:
        assert limits.input_limit() == int(40_000_000 * limits.INPUT_FRACTION)
    finally:
        ng.set_memory_budget(None)
    monkeypatch.setenv(limits.INPUT_LIMIT_ENV, "lots")
    with pytest.raises(ng.QueryError, match="input limit"):
        limits.input_limit()


def test_file_past_the_limit_is_refused_before_reading(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("0 1\n1 2\n2 0\n" * 1000)
    with pytest.raises(InputTooLargeError, match="holds 12,000 bytes, past the input limit"):
        read_edge_file(f, max_bytes=5000)
    assert read_edge_file(f, max_bytes=100_000).table.num_rows == 3000


def _compress(codec: str, data: bytes) -> bytes:
    if codec == "gzip":
        return gzip.compress(data, 9)
    if codec == "bzip2":
        return bz2.compress(data, 9)
    if codec == "xz":
        return lzma.compress(data)
    pa = pytest.importorskip("pyarrow")
    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, codec) as out:
        out.write(data)
    return sink.getvalue().to_pybytes()


@pytest.mark.parametrize("codec", ["gzip", "bzip2", "xz", "zstd", "lz4"])
def test_compression_bombs_stop_at_the_limit(codec):
    text = b"0 1\n" * (2 << 20)  # 8 MiB of text
    packed = _compress(codec, text)
    assert len(packed) < len(text) // 50
    with pytest.raises(InputTooLargeError) as info:
        read_edge_file(io.BytesIO(packed), max_bytes=1_000_000)
    msg = str(info.value)
    assert "bytes of decompressed text" in msg and f"of {codec} data" in msg
    assert "damaged" not in msg
    # within the limit, the same data reads (the text, then its two columns)
    ef = read_edge_file(io.BytesIO(packed), max_bytes=len(text) * 6)
    assert ef.table.num_rows == 2 << 20


def test_parse_room_counts_the_columns_of_short_lines():
    text = b"0 1\n" * 100_000  # 400 kB of text, 1.6 MB of int64 columns
    with pytest.raises(InputTooLargeError, match=r"its 100,001 lines would take about"):
        read_edge_file(io.BytesIO(text), max_bytes=1_000_000)


def test_damaged_only_for_codec_errors(monkeypatch):
    packed = gzip.compress(b"0 1\n1 2\n2 0\n" * 10_000)
    with pytest.raises(FileError, match="damaged gzip data"):
        read_edge_file(io.BytesIO(packed[: len(packed) // 2]))  # truncated
    bad = bytearray(packed)
    bad[len(bad) // 2] ^= 0xFF
    with pytest.raises(FileError, match="damaged gzip data"):
        read_edge_file(io.BytesIO(bytes(bad)))

    # memory running out while decompressing a valid file: not "damaged"
    class Starved:
        def __init__(self, *a, **k):
            self.calls = 0

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def read(self, n):
            self.calls += 1
            if self.calls > 2:
                raise MemoryError("Unable to allocate output buffer.")
            return b"0 1\n" * (n // 4)

    monkeypatch.setattr(file_bytes, "_decompressor", Starved)
    with pytest.raises(InputTooLargeError, match="out of memory after reading") as info:
        read_edge_file(io.BytesIO(packed))
    assert "damaged" not in str(info.value)
    monkeypatch.undo()

    # the file failing to read is the file's error, not the codec's
    class Failing(io.RawIOBase):
        def __init__(self):
            super().__init__()
            self.pos = 0

        def readable(self):
            return True

        def readinto(self, buf):
            if self.pos >= 64:
                raise OSError(5, "Input/output error")
            n = min(len(buf), 64 - self.pos)
            buf[:n] = packed[self.pos : self.pos + n]
            self.pos += n
            return n

    with pytest.raises(FileError) as info:
        read_edge_file(io.BufferedReader(Failing(), 16))
    assert "Input/output error" in str(info.value) and "damaged" not in str(info.value)


def test_first_line_longer_than_the_sniffing_window(tmp_path):
    names = ["src", "dst", *(f"extra_column_{i}" for i in range(6000))]
    header = " ".join(names)
    assert len(header) > 64 << 10
    rows = [" ".join([str(i % 3), str((i + 1) % 3), *["7"] * 6000]) for i in range(3)]
    f = tmp_path / "wide.txt"
    f.write_text("\n".join([header, *rows]) + "\n")
    ef = read_edge_file(f)  # detected: a header of usual names over numbers
    assert ef.header and ef.num_columns == 6002 and ef.table.num_rows == 3
    ef = read_edge_file(f, source_col="src", target_col="dst", header=True)
    assert ef.table.column("target").to_pylist() == [1, 2, 0]
    # a first line past MAX_LINE_BYTES is refused clearly
    f.write_text("0 " + "1" * 5000 + "\n1 2\n")
    with pytest.raises(FileError, match=r"data line 1 is longer than 4,096 bytes"):
        _with_max_line(4096, lambda: read_edge_file(f))


def _with_max_line(n: int, call):
    old = files.MAX_LINE_BYTES
    files.MAX_LINE_BYTES = n
    try:
        return call()
    finally:
        files.MAX_LINE_BYTES = old


def test_rows_quoted_short_or_not_at_all(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("0 1\n1 2 " + "secret " * 100 + "\n")
    with pytest.raises(FileError) as info:
        read_edge_file(f)
    assert "line 2" in str(info.value) and len(str(info.value)) < 500
    with pytest.raises(FileError) as info:
        read_columns(f, {"source": 0, "target": 1}, quote_rows=False)
    assert "line 2: expected 2 fields" in str(info.value) and "secret" not in str(info.value)


# ====================================================================== item 4
@pytest.fixture
def small_budget():
    ng.set_memory_budget("1MB")
    yield
    ng.set_memory_budget(None)


def _count_pass_chunks(monkeypatch) -> list:
    """Record the chunks each count round of the CPU engine's two-pass enumeration takes."""
    seen: list = []
    real = calls.run_kernel

    def spy(kernel, *args, stop, parallel=True):
        counting = len(args) > 4 and isinstance(args[0], np.ndarray) and args[-4] == calls.COUNT
        if parallel and counting:
            seen.append(len(args[0]) - 1)
        return real(kernel, *args, stop=stop, parallel=parallel)

    monkeypatch.setattr(calls, "run_kernel", spy)
    return seen


def test_static_listing_stops_counting_past_the_budget(monkeypatch):
    g = ng.from_networkx(nx.gnm_random_graph(3000, 150000, seed=1))
    ng.find_subgraphs(nx.complete_graph(8), "4-cycle", engine="cpu")  # compile / load
    t = time.monotonic()
    full = ng.count_subgraphs(g, "4-cycle", engine="cpu")
    t_count = time.monotonic() - t
    assert full > 10**7
    seen = _count_pass_chunks(monkeypatch)
    ng.set_memory_budget("1MB")
    try:
        t = time.monotonic()
        with pytest.raises(CapacityError, match=r"at least [\d,]+ matches .*memory budget"):
            ng.find_subgraphs(g, "4-cycle", engine="cpu")
        t_find = time.monotonic() - t
        t = time.monotonic()
        with pytest.raises(CapacityError, match=r"at least [\d,]+ matches"):
            ng.find_subgraphs(g, "4-cycle", engine="cpu", limit=10**12)  # serial blocks
        t_limit = time.monotonic() - t
    finally:
        ng.set_memory_budget(None)
    # the count pass stopped after at most three rounds (1 + 2 + 4 chunks per thread, of 16)
    assert seen and sum(seen) <= 7 * calls.numba.get_num_threads(), seen
    assert t_find < t_count, (t_find, t_count)  # a fraction of the (cheaper) full count
    assert t_limit < t_count / 4, (t_limit, t_count)


def test_temporal_listing_stops_counting_past_the_budget(monkeypatch):
    tg = load_collegemsg()
    ng.find_motifs(tg, "path3", delta=60, output="edge_ids", engine="cpu")
    t = time.monotonic()
    full = ng.count_motifs(tg, "path3", delta=2592000, engine="cpu")
    t_count = time.monotonic() - t
    assert full > 10**8
    seen = _count_pass_chunks(monkeypatch)
    ng.set_memory_budget("1MB")
    try:
        for limit in (None, 10**12):
            t = time.monotonic()
            with pytest.raises(CapacityError, match=r"at least [\d,]+ matches"):
                ng.find_motifs(tg, "path3", delta=2592000, engine="cpu", limit=limit)
            assert time.monotonic() - t < t_count, (limit, time.monotonic() - t, t_count)
    finally:
        ng.set_memory_budget(None)
    # at most three rounds (1 + 2 + 4 chunks per thread) of the 16 chunks per thread
    assert seen and sum(seen) <= 7 * calls.numba.get_num_threads(), seen


def test_rounds_and_blocks_give_the_same_rows(monkeypatch):
    G = nx.gnm_random_graph(400, 6000, seed=3)
    want = ng.find_subgraphs(G, "4-cycle", engine="cpu")
    n, k = want.shape
    assert n > 1 << 17  # past the first serial block
    # a budget that just holds the result: the count runs in geometric rounds to the end
    ng.set_memory_budget(limits.result_bytes(n, k))
    try:
        assert np.array_equal(ng.find_subgraphs(G, "4-cycle", engine="cpu"), want)
        # serial blocks (limit): same rows, same order, blocks bounded
        monkeypatch.setattr(calls, "MAX_BLOCK_BYTES", 8 * k * 5000)
        got = ng.find_subgraphs(G, "4-cycle", engine="cpu", limit=10**12)
        assert np.array_equal(got, want)
        ng.set_memory_budget(limits.result_bytes(n - 1, k))
        with pytest.raises(CapacityError, match=f"^{n:,} matches"):  # cheap: the exact count
            ng.find_subgraphs(G, "4-cycle", engine="cpu", limit=10**12)
        with pytest.raises(CapacityError, match=f"^{n:,} matches"):
            ng.find_subgraphs(G, "4-cycle", engine="cpu")
    finally:
        ng.set_memory_budget(None)


def test_serial_blocks_stay_bounded(monkeypatch):
    """No block past MAX_BLOCK_BYTES (but for a root with more matches than one holds); stacking
    copies block by block."""
    sizes: list[int] = []
    real = calls.stack_blocks

    def spy(blocks, rows, width):
        sizes.extend(b.nbytes for b in blocks)
        return real(blocks, rows, width)

    monkeypatch.setattr(calls, "stack_blocks", spy)
    monkeypatch.setattr(calls, "MAX_BLOCK_BYTES", 1 << 16)
    G = nx.gnm_random_graph(300, 3000, seed=5)
    want = ng.find_subgraphs(G, "triangle", engine="cpu")
    got = ng.find_subgraphs(G, "triangle", engine="cpu", limit=10**9)
    assert np.array_equal(got, want)
    assert len(sizes) > 2 and max(sizes) <= 1 << 16, sizes
    # blocks of 10 rows: roots with more matches than a block get a bigger one
    monkeypatch.setattr(calls, "MAX_BLOCK_BYTES", 8 * 3 * 10)
    star = nx.star_graph(60)  # 60 * 59 wedges through the centre
    want = ng.find_subgraphs(star, "wedge", engine="cpu")
    assert np.array_equal(ng.find_subgraphs(star, "wedge", engine="cpu", limit=10**9), want)


def test_merge_stacks_blocks_in_order():
    blocks = [
        np.arange(6).reshape(3, 2),
        np.empty((0, 2), np.int64),
        np.arange(6, 10).reshape(2, 2),
    ]
    assert stack_rows(blocks, 2).tolist() == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]
    assert stack_rows(blocks, 2, limit=4).tolist() == [[0, 1], [2, 3], [4, 5], [6, 7]]
    m = Merge("enumerate", 3, 2, limit=4)
    for i in (2, 0, 1):
        m.add(i, blocks[i])
    assert m.result().tolist() == [[0, 1], [2, 3], [4, 5], [6, 7]]


# ====================================================================== item 6
_HARNESS = textwrap.dedent(
    """
    import json, os, signal, threading, time
    import networkx as nx
    import nx_gpumine as ng
    from nx_gpumine.inputs.temporal_graph import load_collegemsg

    KIND = {kind!r}
    CONTROL = {control!r}
    tg = load_collegemsg()
    g = ng.from_networkx(nx.gnm_random_graph(3000, 90000, seed=1))

    def run(small):
        if KIND == "static-limit":  # serial blocks
            G = nx.complete_graph(8) if small else g
            return ng.find_subgraphs(G, "4-cycle", limit=10**12, engine="cpu")
        delta = 60 if small else None
        if KIND == "temporal-limit":  # serial blocks
            return ng.find_motifs(tg, "path3", delta=delta, output="edge_ids", limit=10**12,
                                  engine="cpu")
        if KIND == "temporal":  # count rounds, then the fill pass
            return ng.find_motifs(tg, "path3", delta=60 if small else 2592000,
                                  output="edge_ids", engine="cpu")
        raise AssertionError(KIND)

    run(True)  # compile / load the kernels
    if CONTROL:  # the same process exiting without an interrupt: its teardown time
        print("SIGNAL", flush=True)
        print(json.dumps(dict(control=True)), flush=True)
        raise SystemExit(0)
    sent = []

    def fire():
        time.sleep(0.5)
        sent.append(time.monotonic())
        print("SIGNAL", flush=True)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=fire, daemon=True).start()
    try:
        run(False)
        print(json.dumps(dict(finished=True)), flush=True)
    except KeyboardInterrupt:
        print(json.dumps(dict(latency=time.monotonic() - sent[0])), flush=True)
    """
)


def _harness(kind: str, control: bool) -> tuple[dict, float]:
    """Run the harness; its last JSON line and the seconds from its SIGNAL line to its exit."""
    env = dict(
        os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="ignore", NX_GPUMINE_MEMORY_BUDGET="2GB"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", _HARNESS.format(kind=kind, control=control)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=str(ROOT),
    )  # fmt: skip
    t_sig, last = None, ""
    try:
        for line in proc.stdout:
            if line.startswith("SIGNAL"):
                t_sig = time.monotonic()
            last = line.strip()
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, proc.stderr.read()[-3000:]
    assert t_sig is not None, last
    return json.loads(last), time.monotonic() - t_sig


@pytest.mark.parametrize("kind", ["static-limit", "temporal-limit", "temporal"])
def test_listing_interrupt_raises_fast_and_exits(kind):
    """SIGINT 0.5 s into a listing holding millions of rows: ``KeyboardInterrupt`` within
    0.5 s, and the process exits within 1 s of the signal (on a quiet machine; under load, no
    later than the same process exiting without an interrupt, plus 0.5 s: the interpreter's
    teardown after numba's runtime was loaded takes 0.3-0.6 s idle, more on a busy machine)."""
    res, exit_s = _harness(kind, control=False)
    assert not res.get("finished"), f"{kind} finished before the signal: workload too small"
    assert res["latency"] <= 0.5, res
    if exit_s > 1.0:
        _, teardown = _harness(kind, control=True)
        assert exit_s <= teardown + 0.5, (res, exit_s, teardown)


def test_cancel_when_stops_a_kernel_in_another_thread():
    big = ng.from_networkx(nx.complete_bipartite_graph(150, 150))  # no 5-cycle: a long search
    ng.count_subgraphs(nx.complete_graph(6), "5-cycle", engine="cpu")
    flag = threading.Event()
    box: dict = {}

    def work():
        with calls.cancel_when(flag.is_set):
            try:
                box["value"] = ng.count_subgraphs(big, "5-cycle", engine="cpu")
            except BaseException as exc:
                box["error"] = exc
                box["at"] = time.monotonic()

    th = threading.Thread(target=work)
    th.start()
    time.sleep(0.5)
    t0 = time.monotonic()
    flag.set()
    th.join(10)
    assert not th.is_alive()
    assert isinstance(box.get("error"), CancelledError), box
    assert box["at"] - t0 < 0.5
    # (a 4-cycle: a triangle in K6 is a clique in a complete graph, answered in closed form
    # without any kernel to cancel)
    with calls.cancel_when(flag.is_set), pytest.raises(CancelledError):  # at once when cancelled
        ng.count_subgraphs(nx.complete_graph(6), "4-cycle", engine="cpu")
    with calls.cancel_when(lambda: False):  # not cancelled: the answer
        assert ng.count_subgraphs(nx.complete_graph(6), "4-cycle", engine="cpu") == 360


def test_dask_interrupt_cancels_running_tasks(monkeypatch):
    distributed = pytest.importorskip("distributed")
    from nx_gpumine.execution.executors import dask as dist

    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    )  # fmt: skip
    client = distributed.Client(cluster, set_as_default=False)
    try:
        small = ng.from_networkx(nx.complete_graph(6))
        big = ng.from_networkx(nx.complete_bipartite_graph(150, 150))  # minutes of search
        assert ng.count_subgraphs(small, "triangle", client=client) == 120
        made: list = []
        real_exit = dist._Query.__exit__

        def record_exit(self, *exc):
            made.extend(self._made)
            return real_exit(self, *exc)

        def interrupted_collect(query, merge):
            time.sleep(1.0)  # the engine calls are running on the worker
            raise KeyboardInterrupt

        monkeypatch.setattr(dist._Query, "__exit__", record_exit)
        monkeypatch.setattr(dist, "_collect", interrupted_collect)
        with pytest.raises(KeyboardInterrupt):
            ng.count_subgraphs(big, "5-cycle", client=client)
        monkeypatch.undo()
        assert made and all(f.cancelled() for f in made)

        def executing(dask_worker):
            return [str(k) for k, ts in dask_worker.state.tasks.items() if ts.state != "memory"]

        end = time.monotonic() + 5
        while time.monotonic() < end and any(client.run(executing).values()):
            time.sleep(0.05)
        assert not any(client.run(executing).values()), client.run(executing)
        box: dict = {}
        th = threading.Thread(
            target=lambda: box.update(v=ng.count_subgraphs(small, "triangle", client=client)),
            daemon=True,
        )
        t0 = time.monotonic()
        th.start()
        th.join(30)
        assert box.get("v") == 120 and time.monotonic() - t0 < 10
    finally:
        client.close()
        cluster.close()


# ====================================================================== item 8
def test_output_never_written_through_a_symlink(tmp_path, capsys):
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    link = tmp_path / "out.txt"
    link.symlink_to(target)
    argv = ["count", "facebook", "triangle", "--engine", "cpu", "--no-progress", "-o", str(link)]
    rc, _, err = run_cli(argv, capsys)
    assert rc == 2
    assert "is a symbolic link" in err and "precious.txt" in err
    assert target.read_text() == "precious\n" and link.is_symlink()
    with pytest.raises(CliError, match="symbolic link"):
        check_writable(str(link), "--plot")
    # a link made after the check is refused when opening (O_NOFOLLOW)
    late = tmp_path / "late.txt"
    check_writable(str(late), "-o")
    late.symlink_to(target)
    with pytest.raises(CliError, match="symbolic link"), open_output(str(late), io.StringIO()):
        pass
    assert target.read_text() == "precious\n"
    # a link to nothing would create a file where it points: refused too
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "nowhere.txt")
    with pytest.raises(CliError, match="symbolic link"):
        check_writable(str(dangling), "-o")
    assert not (tmp_path / "nowhere.txt").exists()
    # a link to a device (as /dev/stdout is) is written through
    devnull = tmp_path / "null"
    devnull.symlink_to(os.devnull)
    check_writable(str(devnull), "-o")
    with open_output(str(devnull), io.StringIO()) as fh:
        fh.write("{}")
    # a plain file is written as before
    plain = tmp_path / "plain.json"
    with open_output(str(plain), io.StringIO()) as fh:
        fh.write("{}")
    assert plain.read_text() == "{}"


def test_pattern_file_lines_are_not_echoed(tmp_path, capsys):
    graph = tmp_path / "g.txt"
    graph.write_text("0 1\n1 2\n2 0\n")
    pattern = tmp_path / "p.txt"
    pattern.write_text("0 1\n1 2 top secret words\n")
    rc, _, err = run_cli(["count", str(graph), str(pattern), "--engine", "cpu"], capsys)
    assert rc == 2 and "line 2" in err and "secret" not in err


def test_query_pattern_file_is_not_echoed(tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    graph = tmp_path / "g.txt"
    graph.write_text("0 1 1\n1 2 2\n2 0 3\n")
    query = tmp_path / "q.yaml"
    query.write_text(f"pattern: {secret}\nconstraints:\n  delta: 10\n")
    rc, _, err = run_cli(["temporal", str(graph), "--query", str(query), "--engine", "cpu"], capsys)
    assert rc == 2 and str(secret) in err and "line 1" in err
    assert "root:x" not in err
