"""The ``nx-gpumine`` command line: in-process and as a subprocess, answers checked by oracles."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from networkx.algorithms import isomorphism as iso

from nx_gpumine.interfaces import cli

DATA = Path(__file__).parent / "data"


def run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    rc = cli.main(argv, out=buf)
    return rc, buf.getvalue()


def run_subprocess(argv: list[str], timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run(
        [sys.executable, "-m", "nx_gpumine", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def table_value(text: str, row: str, col: str) -> str:
    """Cell of an aligned output table (first table whose header has ``col``)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        head = re.split(r"\s{2,}", line.strip())
        if col in head and i + 1 < len(lines) and set(lines[i + 1].replace(" ", "")) == {"-"}:
            j = head.index(col)
            for data in lines[i + 2 :]:
                cells = re.split(r"\s{2,}", data.strip())
                if cells and cells[0] == row:
                    return cells[j]
    raise AssertionError(f"no cell {row!r}/{col!r} in:\n{text}")


def as_int(cell: str) -> int:
    return int(cell.replace(",", ""))


@pytest.fixture
def small_graph(tmp_path) -> tuple[Path, nx.Graph]:
    G = nx.gnm_random_graph(40, 120, seed=11)
    path = tmp_path / "g.txt"
    lines = ["# a comment", "src dst"] + [f"{u},{v}" for u, v in G.edges]
    path.write_text("\n".join(lines) + "\n")
    return path, G


def nx_count(G: nx.Graph, P: nx.Graph, induced: bool = False, **match) -> int:
    M = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = M(G, P, **match)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    return sum(1 for _ in it)


# ---------------------------------------------------------------------- count
@pytest.mark.parametrize("induced", [False, True])
def test_count_equals_networkx(small_graph, induced):
    path, G = small_graph
    argv = ["count", str(path), "triangle", "4-path", "--engine", "cpu", "--no-progress"]
    rc, out = run(argv + (["--induced"] if induced else []))
    assert rc == 0, out
    assert as_int(table_value(out, "triangle", "count")) == nx_count(
        G, nx.complete_graph(3), induced
    )
    assert as_int(table_value(out, "4-path", "count")) == nx_count(G, nx.path_graph(4), induced)


def test_count_distinct_and_compare(small_graph):
    path, G = small_graph
    rc, out = run(["count", str(path), "4-cycle", "--distinct", "--compare-networkx"])
    assert rc == 0, out
    want = nx_count(G, nx.cycle_graph(4)) // 8
    assert as_int(table_value(out, "4-cycle", "count")) == want
    assert as_int(table_value(out, "4-cycle", "networkx")) == want
    assert table_value(out, "4-cycle", "speedup").startswith("x")


def test_count_directed_pattern_file(tmp_path):
    G = nx.gnm_random_graph(30, 120, seed=5, directed=True)
    gpath = tmp_path / "d.txt"
    gpath.write_text("".join(f"{u} {v}\n" for u, v in G.edges))
    ppath = tmp_path / "ffl.txt"
    ppath.write_text("a b\nb c\na c\n")
    rc, out = run(["count", str(gpath), str(ppath), "--directed", "--engine", "cpu"])
    assert rc == 0, out
    P = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    assert as_int(table_value(out, str(ppath), "count")) == nx_count(G, P)


def test_count_with_labels(tmp_path):
    G = nx.gnm_random_graph(30, 90, seed=3)
    for u, v in G.edges:
        G.edges[u, v]["label"] = "ab"[(u + v) % 2]
    for v in G:
        G.nodes[v]["label"] = "xyz"[v % 3]
    gpath = tmp_path / "g.txt"
    gpath.write_text("".join(f"{u} {v} {d['label']}\n" for u, v, d in G.edges(data=True)))
    npath = tmp_path / "nodes.txt"
    npath.write_text("".join(f"{v} {d['label']}\n" for v, d in G.nodes(data=True)))
    ppath = tmp_path / "p.txt"
    ppath.write_text("0 1 a\n1 2 b\n")
    pn = tmp_path / "pn.txt"
    pn.write_text("0 x\n1 y\n2 x\n")
    argv = ["count", str(gpath), str(ppath), "--edge-labels", "--node-labels", str(npath)]
    rc, out = run(argv + ["--pattern-node-labels", str(pn), "--compare-networkx"])
    assert rc == 0, out
    P = nx.Graph()
    P.add_edge(0, 1, label="a")
    P.add_edge(1, 2, label="b")
    nx.set_node_attributes(P, {0: "x", 1: "y", 2: "x"}, "label")
    want = nx_count(
        G,
        P,
        node_match=iso.categorical_node_match("label", None),
        edge_match=iso.categorical_edge_match("label", None),
    )
    assert as_int(table_value(out, str(ppath), "count")) == want


# ---------------------------------------------------------------------- temporal
def brute_temporal(edges: list[tuple[int, int, int]], motif: list[tuple[int, int]], delta):
    """Strict-order count by brute force over edge tuples."""
    n = 0
    for combo in itertools.permutations(range(len(edges)), len(motif)):
        es = [edges[i] for i in combo]
        if any(es[i][2] >= es[i + 1][2] for i in range(len(es) - 1)):
            continue
        if delta is not None and es[-1][2] - es[0][2] > delta:
            continue
        f: dict = {}
        ok = True
        for (a, b), (u, v, _) in zip(motif, es, strict=True):
            for x, y in ((a, u), (b, v)):
                if f.setdefault(x, y) != y:
                    ok = False
        if ok and len(set(f.values())) == len(f):
            n += 1
    return n


@pytest.fixture
def temporal_file(tmp_path) -> tuple[Path, list]:
    import random

    rng = random.Random(4)
    edges = []
    for _ in range(25):
        u, v = rng.sample(range(6), 2)
        edges.append((u, v, rng.randrange(100)))
    path = tmp_path / "t.txt"
    path.write_text("src dst time\n" + "".join(f"{u} {v} {t}\n" for u, v, t in edges))
    return path, edges


def test_temporal_count_equals_brute_force(temporal_file):
    path, edges = temporal_file
    rc, out = run(["temporal", str(path), "--motif", "triangle", "--delta", "40", "--find", "2"])
    assert rc == 0, out
    want = brute_temporal(edges, [(0, 1), (1, 2), (2, 0)], 40)
    assert as_int(table_value(out, "triangle", "count")) == want
    rc, out = run(["temporal", str(path), "--edges", "0 1, 1 2", "--delta", "none"])
    assert rc == 0, out
    assert as_int(table_value(out, "motif", "count")) == brute_temporal(
        edges, [(0, 1), (1, 2)], None
    )


def test_temporal_query_file(temporal_file, tmp_path):
    path, edges = temporal_file
    q = tmp_path / "q.yaml"
    q.write_text(
        f"pattern: |\n  0 1\n  1 2\n  2 0\ngraph: {path.name}\nconstraints:\n  delta: 30\n"
    )
    rc, out = run(["temporal", "--query", str(q)])
    assert rc == 0, out
    want = brute_temporal(edges, [(0, 1), (1, 2), (2, 0)], 30)
    assert as_int(table_value(out, "motif", "count")) == want


def test_census_list_equals_brute_force(temporal_file):
    path, edges = temporal_file
    rc, out = run(["census", str(path), "--delta", "50", "--list"])
    assert rc == 0, out
    for key in ("01 12 20", "01 10 01", "01 02 12"):
        motif = [(int(p[0]), int(p[1])) for p in key.split()]
        assert as_int(table_value(out, key, "count")) == brute_temporal(edges, motif, 50)


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "argv, words",
    [
        (["count", "/no/such/file.txt", "triangle"], "no such file"),
        (["count", "facebook", "hexagon"], "unknown pattern"),
        (["temporal", "collegemsg", "--motif", "M99"], "unknown motif"),
        (["temporal", "collegemsg", "--motif", "M4", "--delta", "soon"], "--delta"),
        (["temporal", "collegemsg"], "exactly one"),
        (["census", "/no/such/file.txt"], "no such file"),
    ],
)
def test_errors_exit_2(argv, words, capsys):
    rc = cli.main(argv, out=io.StringIO())
    err = capsys.readouterr().err
    assert rc == 2
    assert words in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_bad_file_content(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n3\n")
    assert cli.main(["count", str(bad), "triangle"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "line 2: expected 2 fields like the first line, got 1: '3'" in err
    assert str(bad) in err


def test_argparse_errors_exit_2():
    with pytest.raises(SystemExit) as exc:
        cli.main(["frobnicate"])
    assert exc.value.code == 2


# ---------------------------------------------------------------------- subprocess
def test_subprocess_info():
    proc = run_subprocess(["info"])
    assert proc.returncode == 0, proc.stderr
    assert "nx-gpumine" in proc.stdout and "networkx backend" in proc.stdout
    assert "gpumine registered" in proc.stdout


def test_subprocess_count_and_error(small_graph):
    path, G = small_graph
    proc = run_subprocess(["count", str(path), "triangle", "--engine", "cpu"])
    assert proc.returncode == 0, proc.stderr
    assert as_int(table_value(proc.stdout, "triangle", "count")) == nx_count(
        G, nx.complete_graph(3)
    )
    proc = run_subprocess(["count", "missing.txt", "triangle"])
    assert proc.returncode == 2
    assert "no such file" in proc.stderr and "Traceback" not in proc.stderr


def test_subprocess_demo():
    proc = run_subprocess(["demo", "--engine", "cpu", "--no-progress"], timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    fb = nx.read_edgelist(cli.DATASETS["facebook"], nodetype=int)
    assert as_int(table_value(out, "triangle", "subgraphs")) == sum(nx.triangles(fb).values()) // 3
    # the census equals the shared brute-force oracle (all 59,835 edges, delta 3600, strict)
    oracle = json.loads((DATA / "temporal_census_collegemsg.json").read_text())
    case = next(
        c
        for c in oracle["cases"]
        if c["edges"].startswith("all") and c["delta"] == 3600 and c["policy"] == "strict"
    )
    axis = ["01", "02", "10", "12", "20", "21"]
    for a in axis:
        for b in axis:
            cell = table_value(out, f"01 {a}", b)
            assert as_int(cell) == case["census"][f"01 {a} {b}"]


def test_dataset_and_pattern_options(small_graph):
    path, G = small_graph
    rc, out = run(["count", "--dataset", str(path), "--pattern", "triangle", "--engine", "cpu"])
    assert rc == 0, out
    want = nx_count(G, nx.complete_graph(3))
    assert as_int(table_value(out, "triangle", "count")) == want
    rc, out = run(["count", "triangle", "--graph", str(path), "--engine", "cpu"])
    assert rc == 0, out
    assert as_int(table_value(out, "triangle", "count")) == want
    with pytest.raises(SystemExit) as exc:
        cli.main(["count", str(path)])
    assert exc.value.code == 2


def test_progress_notes_on_stderr(small_graph, capsys):
    path, _ = small_graph
    rc = cli.main(["count", str(path), "triangle", "--progress", "--engine", "cpu"], io.StringIO())
    assert rc == 0
    err = capsys.readouterr().err
    assert "[nx-gpumine] reading" in err and "[nx-gpumine] counting triangle" in err


def test_engine_resolution_by_kind():
    from nx_gpumine.engines import cuda_available

    assert cli.resolve_engine("cpu", "temporal") == "cpu"
    for kind in ("static", "temporal"):
        want = "cuda" if cli.engine_available("cuda", kind) else "cpu"
        assert cli.resolve_engine("auto", kind) == want
    if not cuda_available():
        with pytest.raises(cli.CliError):
            cli.resolve_engine("cuda", "static")
