"""Edge files in every format the CLI reads, every output format, exit codes and signals.

Counts are checked against oracles: NetworkX's matcher for static counts, and the library on
the same arrays for temporal counts (the library itself is checked against brute force in
``test_cli.py`` and ``test_temporal_differential.py``).
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.inputs.files import read_edge_file
from nx_gpumine.interfaces import cli

pa = pytest.importorskip("pyarrow")

ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    rc = cli.main(argv, out=buf)
    return rc, buf.getvalue()


def run_err(argv: list[str], capsys) -> tuple[int, str]:
    rc = cli.main(argv, out=io.StringIO())
    return rc, capsys.readouterr().err


def subprocess_run(argv, input_bytes=None, timeout=300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "nx_gpumine", *argv],
        input=input_bytes,
        capture_output=True,
        timeout=timeout,
        env=env,
    )


# ---------------------------------------------------------------------- data
def _temporal_edges(seed: int = 3, n: int = 60, nodes: int = 7) -> list[tuple[str, str, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        u, v = rng.sample(range(nodes), 2)
        out.append((f"n{u}", f"n{v}", rng.randrange(0, 20_000)))
    return out


EDGES = _temporal_edges()
G_STATIC = nx.Graph((u, v) for u, v, _ in EDGES)
TRIANGLES = sum(
    1 for _ in iso.GraphMatcher(G_STATIC, nx.complete_graph(3)).subgraph_monomorphisms_iter()
)


def _temporal_oracle(delta) -> int:
    src = np.array([u for u, _, _ in EDGES], dtype=object)
    dst = np.array([v for _, v, _ in EDGES], dtype=object)
    t = np.array([x for _, _, x in EDGES])
    return ng.count_motifs((src, dst, t), "triangle", delta=delta, engine="cpu")


def _text(sep: str, header: str | None, quote: bool = False) -> str:
    rows = [header] if header else []
    for u, v, t in EDGES:
        f = [f'"{u}"', f'"{v}"', str(t)] if quote else [u, v, str(t)]
        rows.append(sep.join(f))
    return "\n".join(rows) + "\n"


def _messy_whitespace() -> str:
    lines = ["# SNAP-style comment", "% another comment", ""]
    for i, (u, v, t) in enumerate(EDGES):
        lines.append(f"  {u} \t {v}    {t}  ")
        if i == 10:
            lines.append("# a comment in the middle")
    return "\n".join(lines) + "\n"


def _parquet_bytes() -> bytes:
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "from": [u for u, _, _ in EDGES],
            "to": [v for _, v, _ in EDGES],
            "when": [t for *_, t in EDGES],
        }
    )
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def _zstd(data: bytes) -> bytes:
    if not pa.Codec.is_available("zstd"):
        pytest.skip("pyarrow built without zstd")
    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, "zstd") as f:
        f.write(data)
    return sink.getvalue().to_pybytes()


#: name -> (file name, bytes, extra CLI arguments)
FILES = {
    "whitespace": ("e.txt", lambda: _text(" ", None).encode(), []),
    "whitespace header": ("e.txt", lambda: _text(" ", "src dst time").encode(), []),
    "messy whitespace + comments": ("e.txt", lambda: _messy_whitespace().encode(), []),
    "tsv header": ("e.tsv", lambda: _text("\t", "source\ttarget\ttime").encode(), []),
    "csv quoted header": ("e.csv", lambda: _text(",", '"src","dst","t"', quote=True).encode(), []),
    "csv spaces after commas": ("e.csv", lambda: _text(", ", None).encode(), []),
    "csv BOM": ("e.csv", lambda: b"\xef\xbb\xbf" + _text(",", "src,dst,time").encode(), []),
    "utf-16": ("e.txt", lambda: _text(" ", "src dst time").encode("utf-16"), []),
    "crlf": ("e.csv", lambda: _text(",", "a,b,c").replace("\n", "\r\n").encode(), ["--header"]),
    "gzip": ("e.txt.gz", lambda: gzip.compress(_text(" ", None).encode()), []),
    "bzip2": ("e.bz2", lambda: bz2.compress(_text(",", "src,dst,time").encode()), []),
    "xz": ("e.xz", lambda: lzma.compress(_text("\t", None).encode()), []),
    "zstd": ("e.zst", lambda: _zstd(_text(" ", None).encode()), []),
    "parquet": (
        "e.parquet",
        _parquet_bytes,
        ["--source", "from", "--target", "to", "--time", "when"],
    ),
    "parquet no suffix": (
        "e.bin",
        _parquet_bytes,
        ["--source", "0", "--target", "1", "--time", "2"],
    ),
    "columns by name, reordered": (
        "e.csv",
        lambda: ("t,dst,src\n" + "".join(f"{t},{v},{u}\n" for u, v, t in EDGES)).encode(),
        ["--source", "src", "--target", "dst", "--time", "t"],
    ),
    "columns by index, reordered": (
        "e.txt",
        lambda: "".join(f"{t} {v} x {u}\n" for u, v, t in EDGES).encode(),
        ["--source", "3", "--target", "1", "--time", "0"],
    ),
}


@pytest.mark.parametrize("name", list(FILES))
def test_file_formats_temporal_and_static(name, tmp_path):
    fname, make, extra = FILES[name]
    path = tmp_path / fname
    path.write_bytes(make())
    rc, out = run(
        [
            "temporal",
            str(path),
            "--motif",
            "triangle",
            "--delta",
            "5000",
            "--format",
            "json",
            *extra,
        ]
    )
    assert rc == 0, out
    doc = json.loads(out)
    assert doc["edges"] == len(EDGES) and doc["nodes"] == len({x for e in EDGES for x in e[:2]})
    assert doc["count"] == _temporal_oracle(5000)
    static_extra = list(extra)
    if "--time" in static_extra:  # the static count reads no time column
        i = static_extra.index("--time")
        del static_extra[i : i + 2]
    rc, out = run(["count", str(path), "triangle", "--format", "csv", *static_extra])
    assert rc == 0, out
    row = next(csv.DictReader(io.StringIO(out)))
    assert int(row["count"]) == TRIANGLES


def test_stdin_plain_and_compressed():
    data = _text(",", "src,dst,time").encode()
    for payload in (data, gzip.compress(data)):
        proc = subprocess_run(
            ["temporal", "-", "--motif", "triangle", "--delta", "5000", "--format", "json"], payload
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["count"] == _temporal_oracle(5000)


def test_iso_timestamps_need_a_unit(tmp_path, capsys):
    base = np.datetime64("2024-05-01T00:00:00", "s")
    lines = ["src,dst,when"] + [f"{u},{v},{base + np.timedelta64(t, 's')}Z" for u, v, t in EDGES]
    path = tmp_path / "iso.csv"
    path.write_text("\n".join(lines) + "\n")
    want = _temporal_oracle(3600)
    for delta in ("1h", "60min", "3600s", "3600000ms"):
        rc, out = run(
            [
                "temporal",
                str(path),
                "--time",
                "when",
                "--motif",
                "triangle",
                "--delta",
                delta,
                "--format",
                "json",
            ]
        )
        assert rc == 0, out
        doc = json.loads(out)
        assert doc["count"] == want and doc["times"] == "datetime64[s, UTC]"
    rc, err = run_err(
        ["temporal", str(path), "--time", "when", "--motif", "triangle", "--delta", "3600"], capsys
    )
    assert rc == 2 and "needs a unit" in err and "datetime64[s, UTC]" in err
    rc, out = run(["census", str(path), "--time", "when", "--delta", "1h", "--format", "json"])
    assert rc == 0, out
    assert json.loads(out)["counts"]["01 12 20"] == want
    rc, out = run(["census", str(path), "--time", "when", "--format", "json"])  # default: one hour
    assert rc == 0 and json.loads(out)["delta"] == 3600  # JSON: seconds, a number
    rc, out = run(
        [
            "temporal",
            str(path),
            "--time",
            "when",
            "--motif",
            "triangle",
            "--delta",
            "1h",
            "--find",
            "2",
            "--format",
            "csv",
        ]
    )
    assert rc == 0, out
    first = next(csv.DictReader(io.StringIO(out)))
    assert first["time_0"].startswith("2024-05-01T") and first["time_0"].endswith("+00:00")


def test_unit_on_plain_numbers_is_an_error(tmp_path, capsys):
    path = tmp_path / "t.txt"
    path.write_text(_text(" ", None))
    rc, err = run_err(["temporal", str(path), "--motif", "triangle", "--delta", "1h"], capsys)
    assert rc == 2 and "plain numbers" in err


@pytest.mark.parametrize(
    "content, header, ids",
    [
        (
            "src dst\nalice bob\nbob carol\ncarol alice\n",
            True,
            "text",
        ),  # issue 14: text header over text ids
        ("alice bob\nbob carol\ncarol alice\n", False, "text"),
        ("1 2\n2 3\n3 1\n", False, "int"),
        ("from,to\n1,2\n2,3\n3,1\n", True, "int"),
        ("a b\n1 2\n2 3\n3 1\n", True, "int"),  # text above numbers
        ("1 2\n2 x\nx 1\n", False, "text"),  # one text id: every id is text, no type mix
        ("\ufeff1 2\n2 3\n3 1\n", False, "int"),  # BOM: issue 15
    ],
)
def test_header_detection_and_id_types(content, header, ids, tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(content, encoding="utf-8")
    ef = read_edge_file(path)
    assert ef.header is header
    src = ef.table.column("source")
    assert pa.types.is_integer(src.type) if ids == "int" else pa.types.is_string(src.type)
    rc, out = run(["count", str(path), "triangle", "--format", "json"])
    assert rc == 0, out
    assert json.loads(out)["results"][0]["count"] == 6


def test_string_id_in_one_column_is_not_a_type_error(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("1 2\n2 3\n3 1\n3 a\n")  # issue 15: was "mixed, unorderable types"
    rc, out = run(["count", str(path), "triangle", "wedge", "--format", "json"])
    assert rc == 0, out
    G = nx.Graph([("1", "2"), ("2", "3"), ("3", "1"), ("3", "a")])
    got = {r["pattern"]: r["count"] for r in json.loads(out)["results"]}
    for p, P in (("triangle", nx.complete_graph(3)), ("wedge", nx.path_graph(3))):
        assert got[p] == sum(1 for _ in iso.GraphMatcher(G, P).subgraph_monomorphisms_iter())


@pytest.mark.parametrize(
    "argv, content, words",
    [
        (["count", "{f}", "triangle"], b"\x00\x01\x02\x03binary", "is binary, not an edge list"),
        (["count", "{f}", "triangle"], b"PK\x03\x04zipdata", "zip archive"),
        (["count", "{f}", "triangle"], b"\xff\xfa\xfb 1 2\n", "not UTF-8"),
        (["count", "{f}", "triangle"], gzip.compress(b"1 2\n", mtime=0)[:-6], "damaged gzip"),
        (["count", "{f}", "triangle"], b"", "holds no rows"),
        (["count", "{f}", "triangle"], b"# only comments\n", "holds no rows"),
        (["count", "{f}", "triangle", "--source", "src"], b"1 2\n", "header holds ['1', '2']"),
        (["count", "{f}", "triangle", "--source", "a", "--no-header"], b"1 2\n", "no header"),
        (["count", "{f}", "triangle", "--source", "who"], b"src dst\n1 2\n", "no column 'who'"),
        (["count", "{f}", "triangle", "--target", "7"], b"1 2\n", "index 7 is out of range"),
        (["temporal", "{f}", "--motif", "triangle", "--delta", "nan"], b"1 2 3\n", "--delta"),
        (["temporal", "{f}", "--motif", "triangle", "--delta", "-5"], b"1 2 3\n", ">= 0"),
        (["census", "{f}", "--delta", "-5"], b"1 2 3\n", "--delta: delta must be >= 0"),
        (
            ["temporal", "{f}", "--motif", "triangle", "--delta", "9"],
            b"1,2,01/02/2024\n",
            "holds text",
        ),
        (["temporal", "{f}", "--motif", "cycle999999999"], b"1 2 3\n", "at most 64"),
        (["temporal", "{f}", "--motif", "path" + "9" * 5000], b"1 2 3\n", "at most 64"),
        (["census", "{f}", "--delta", "1h"], b"1 2 3\n", "plain numbers"),
    ],
)
def test_errors_name_the_problem(argv, content, words, tmp_path, capsys):
    path = tmp_path / "input.dat"
    path.write_bytes(content)
    t0 = time.perf_counter()
    rc, err = run_err([a.replace("{f}", str(path)) for a in argv], capsys)
    assert rc == 2, err
    assert words in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1
    if "is binary" in words or "zip" in words:
        assert str(path) in err
    assert time.perf_counter() - t0 < 30  # the size caps refuse at once, nothing grows


def test_output_formats_and_file(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(_text(" ", None))
    rc, table = run(["census", str(path), "--delta", "5000"])
    assert rc == 0 and "total" in table
    rc, js = run(["census", str(path), "--delta", "5000", "--format", "json"])
    counts = json.loads(js)["counts"]
    rc, text = run(["census", str(path), "--delta", "5000", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 36 and {r["motif"]: int(r["count"]) for r in rows} == counts
    assert counts["01 12 20"] == _temporal_oracle(5000)
    out_file = tmp_path / "out.json"
    rc, stdout = run(["count", str(path), "triangle", "--format", "json", "-o", str(out_file)])
    assert rc == 0 and stdout == ""
    assert json.loads(out_file.read_text())["results"][0]["count"] == TRIANGLES
    rc, info = run(["info", "--format", "json"])
    assert rc == 0 and json.loads(info)["nx-gpumine"] == ng.__version__


def test_cross_check_failure_exits_3(tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.txt"
    path.write_text("1 2\n2 3\n3 1\n")
    monkeypatch.setattr(cli, "networkx_count", lambda *a, **k: 5)
    rc, err = run_err(["count", str(path), "triangle", "--compare-networkx"], capsys)
    assert rc == 3 and "cross-check failed" in err


def test_census_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "census.png"
    rc, out = run(["census", "collegemsg", "--delta", "600", "--plot", str(png), "--engine", "cpu"])
    assert rc == 0, out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_census_heatmap_table_matches_snap_layout():
    pytest.importorskip("matplotlib")
    from nx_gpumine.results.plots import census_grid_table, census_heatmap

    src = np.array([u for u, _, _ in EDGES], dtype=object)
    dst = np.array([v for _, v, _ in EDGES], dtype=object)
    g = ng.inputs.temporal_graph.temporal_from_arrays(src, dst, [t for *_, t in EDGES])
    counts = ng.motif_census(g, 5000, engine="cpu")
    table = ng.motif_census(g, 5000, engine="cpu", as_table=True)
    assert (census_grid_table(counts) == table).all()
    ax = census_heatmap(table, title="t")
    assert len(ax.texts) == 36 and ax.get_title() == "t"
    with pytest.raises(ValueError, match="6x6"):
        census_grid_table(np.zeros((3, 3)))


def test_warmup_command():
    rc, out = run(["warmup", "--engine", "cpu", "--format", "json"])
    assert rc == 0, out
    secs = json.loads(out)["seconds"]
    want = {"static (cpu)", "temporal (cpu)", "estimate (cpu)"}
    assert set(secs) == want or next(iter(secs)).startswith("engines")
    assert all(v >= 0 for v in secs.values())


def test_demo_reports_startup_apart():
    rc, out = run(["demo", "--engine", "cpu", "--no-progress", "--format", "json"])
    assert rc == 0, out
    doc = json.loads(out)
    assert doc["startup_s"] and all(v >= 0 for v in doc["startup_s"].values())
    for row in doc["piece"]:
        assert row["subgraphs"] == row["networkx"]
        assert row["speedup"] == f"x{row['networkx_s'] / max(row['time_s'], 1e-9):.1f}"


# ---------------------------------------------------------------------- signals
def _alive_with_marker(marker: str) -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if marker in (d / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(d.name))
            except OSError:
                pass
    return pids


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc").is_dir(), reason="POSIX/Linux")
@pytest.mark.parametrize(
    "argv, sig, code",
    [
        (
            ["count", "facebook", "5-clique", "5-cycle", "--induced", "--engine", "cpu"],
            signal.SIGINT,
            130,
        ),
        (
            ["temporal", "collegemsg", "--motif", "path5", "--delta", "none", "--engine", "cpu"],
            signal.SIGINT,
            130,
        ),
        (
            ["count", "facebook", "5-clique", "5-cycle", "--induced", "--engine", "cpu"],
            signal.SIGTERM,
            143,
        ),
    ],
    ids=["count-SIGINT", "temporal-SIGINT", "count-SIGTERM"],
)
def test_signal_exits_within_a_second(argv, sig, code, tmp_path):
    """Issue 15: without a terminal the CLI must exit 130 within 1 s of SIGINT."""
    marker = str(tmp_path / "never-written.json")
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "nx_gpumine", *argv, "--progress", "-o", marker],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        # wait until the engine is at work (the first progress note of the query)
        seen = b""
        deadline = time.monotonic() + 120
        while b"counting" not in seen and time.monotonic() < deadline:
            seen += proc.stderr.read1(4096) if hasattr(proc.stderr, "read1") else b""
            if proc.poll() is not None:
                break
        assert proc.poll() is None, f"finished before the signal: {seen!r}"
        time.sleep(1.0)  # well inside the engine call
        t0 = time.monotonic()
        proc.send_signal(sig)
        proc.wait(timeout=10)
        latency = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == code
    assert latency <= 1.0, latency
    time.sleep(0.2)
    assert _alive_with_marker(marker) == []  # the worker died with it
