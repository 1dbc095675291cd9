"""``nx-gpumine count`` with ``--estimate``, ``--max-work``, ``--max-seconds`` and the predicted
time shown with ``--progress`` (issue 35: an honest estimate first)."""

from __future__ import annotations

import argparse
import io
import json
import math
from pathlib import Path

import networkx as nx
import pytest

from nx_gpumine.execution.estimate import ETA_MIN_BOUND
from nx_gpumine.interfaces import cli
from nx_gpumine.interfaces.cli.common import count_arg, seconds_arg

#: 5-cliques in K80 less the edge (0, 1) (a complete graph would be answered in closed form,
#: with nothing to estimate or refuse): C(80, 5) - C(78, 3) subgraphs, 5! mappings each; a
#: work bound of 1.9e7 partial matches (above ETA_MIN_BOUND) for a count of a fraction of a
#: second.
K80_5CLIQUE = (math.comb(80, 5) - math.comb(78, 3)) * 120


@pytest.fixture(scope="module")
def k80(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("k80") / "k80.txt"
    G = nx.complete_graph(80)
    G.remove_edge(0, 1)
    path.write_text("\n".join(f"{u} {v}" for u, v in G.edges) + "\n")
    return path


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[Path, nx.Graph]:
    G = nx.gnm_random_graph(40, 120, seed=11)
    path = tmp_path_factory.mktemp("small") / "g.txt"
    path.write_text("\n".join(f"{u} {v}" for u, v in G.edges) + "\n")
    return path, G


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    buf = io.StringIO()
    rc = cli.main(argv, out=buf)
    return rc, buf.getvalue(), capsys.readouterr().err


def test_estimate_prints_without_counting(small, capsys):
    path, G = small
    argv = ["count", str(path), "triangle", "4-cycle", "--estimate", "--no-progress"]
    rc, out, err = run([*argv, "--format", "json"], capsys)
    assert rc == 0, err
    data = json.loads(out)
    assert data["command"] == "count --estimate" and "results" not in data
    by = {e["pattern"]: e for e in data["estimates"]}
    # 120 root edges, fewer than the default 400 samples: every root counted, the answer exact
    tri = by["triangle"]
    assert tri["exact"] and tri["count"] == sum(nx.triangles(G).values()) * 2
    assert tri["count_low"] == tri["count"] == tri["count_high"]
    for e in by.values():
        assert 0 <= e["work"] <= e["work_bound"] and e["seconds"] >= 0
        assert e["samples"] <= e["roots"] and e["kind"] == "mappings"
    rc, out, err = run([*argv, "--distinct"], capsys)
    assert rc == 0, err
    head = out.splitlines()[1].split()
    for col in ("estimate", "low", "high", "work", "work_bound", "cpu_s", "cpu_time", "sampled"):
        assert col in head
    assert "count" not in head and "estimates, nothing counted" in out
    row = next(line.split() for line in out.splitlines() if line.startswith("triangle"))
    assert row[2] == "subgraphs" and int(row[3].replace(",", "")) == tri["count"] // 6


def test_estimate_refuses_count_only_options(small, capsys):
    path, _ = small
    for extra in (["--compare-networkx"], ["--max-work", "10"], ["--max-seconds", "1"]):
        rc, out, err = run(["count", str(path), "triangle", "--estimate", *extra], capsys)
        assert rc == 2 and out == ""
        assert f"--estimate counts nothing: {extra[0]} does not apply" in err
        assert len(err.strip().splitlines()) == 1


def test_max_work_refuses_with_the_estimate(k80, capsys):
    argv = ["count", str(k80), "5-clique", "--engine", "cpu", "--no-progress"]
    rc, out, err = run([*argv, "--max-work", "10000"], capsys)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("nx-gpumine count: error: 5-clique: refused before counting:")
    assert "partial matches (bound 1.92e+07) > --max-work 10,000" in err
    assert "(estimate: ~" in err and "on the CPU engine" in err
    # the root vertices and edges alone (80 + 3,159) pass the limit: refused unsampled
    rc, _, err = run([*argv, "--max-work", "1000"], capsys)
    assert rc == 2 and "the root edges alone pass the limit" in err
    # within the limit (written 1e9): counted as without it
    rc, out, err = run([*argv, "--max-work", "1e9", "--format", "json"], capsys)
    assert rc == 0, err
    assert json.loads(out)["results"][0]["count"] == K80_5CLIQUE


def test_max_seconds_refuses_on_the_cpu_prediction(k80, capsys):
    argv = ["count", str(k80), "5-clique", "--engine", "cpu", "--no-progress"]
    rc, out, err = run([*argv, "--max-seconds", "0"], capsys)
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "5-clique: refused before counting: estimated ~" in err
    assert "on the CPU engine (" in err and "> --max-seconds 0 (estimate: ~" in err
    rc, out, err = run([*argv, "--max-seconds", "600", "--format", "json"], capsys)
    assert rc == 0, err
    assert json.loads(out)["results"][0]["count"] == K80_5CLIQUE


def test_progress_shows_the_predicted_time(k80, small, capsys):
    rc, out, err = run(["count", str(k80), "5-clique", "--engine", "cpu", "--progress"], capsys)
    assert rc == 0, err
    lines = err.splitlines()
    at = next(i for i, line in enumerate(lines) if "counting 5-clique" in line)
    eta = [line for line in lines if line.startswith("nx_gpumine: estimated ~")]
    assert len(eta) == 1 and "on the CPU engine (" in eta[0] and "partial matches)" in eta[0]
    assert lines.index(eta[0]) > at
    # a count whose work bound is small is not worth an estimate
    path, _ = small
    rc, _, err = run(["count", str(path), "triangle", "--engine", "cpu", "--progress"], capsys)
    assert rc == 0 and "[nx-gpumine] counting triangle" in err and "estimated" not in err
    # none without --progress
    rc, _, err = run(["count", str(k80), "5-clique", "--engine", "cpu", "--no-progress"], capsys)
    assert rc == 0 and "estimated" not in err
    assert ETA_MIN_BOUND < 1.92e7  # the 5-clique in K80's bound: above the threshold


def test_limit_arguments_are_checked(k80):
    assert count_arg("1000") == 1000 and count_arg("1_000") == 1000
    assert count_arg("1e9") == 10**9 and seconds_arg("2.5") == 2.5
    for bad in ("-1", "1.5", "lots", "inf", "nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            count_arg(bad)
    for bad in ("-1", "soon", "nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            seconds_arg(bad)
    for opt, bad in (("--max-work", "-3"), ("--max-seconds", "soon")):
        with pytest.raises(SystemExit) as exc:
            cli.main(["count", str(k80), "triangle", opt, bad], out=io.StringIO())
        assert exc.value.code == 2
