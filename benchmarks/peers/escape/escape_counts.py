"""ESCAPE (Pinar, Seshadhri and Vishal, WWW 2017) beside our static census (issue 31).

ESCAPE's source is not in this repository (its licence is not stated). A copy is at
https://github.com/cgradwohl/escape_code (a mirror of https://bitbucket.org/seshadhri/escape);
``prepare`` copies its sources from a checkout or a bare git mirror into a folder (e.g. the
ignored ``.escape``, carried to the device machine) and builds ``exe/count_{three,four,five}``
with its own Makefile (``g++ -O3``, one thread).

usage:
  python3 benchmarks/peers/escape/escape_counts.py prepare SRC DEST   (SRC: checkout or git dir)
  python3 benchmarks/peers/escape/escape_counts.py run DEST GRAPH K OUT.tsv [--timeout S]
      [--name NAME]
      GRAPH: facebook, pl1m, pl10m (benchmarks/bench_static_peers.py's graphs) or an edge file
  python3 benchmarks/peers/escape/escape_counts.py check DEST   (mapping + counts on small graphs)
  python3 benchmarks/peers/escape/escape_counts.py compare DEST GRAPH K [--engine cpu]
      (ESCAPE and our non-induced census of GRAPH, both timed, counts compared)

ESCAPE prints the *non-induced* counts of every k-node pattern (connected or not; 4, 11 and 34
for k = 3, 4, 5) as doubles, computed in double arithmetic: exact below 2**53. Which of its
patterns is which of our graphlets is derived, not typed: on small random graphs its count
vectors are matched against our CPU engine's non-induced census (``subgraph_census(...,
induced=False)``); each connected pattern must match exactly one graphlet. ``run`` writes one
row: graph, k, seconds (ESCAPE's process wall time, loading included), status, and the
non-induced counts by our graphlet names (JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

#: The ESCAPE files the counting executables need.
SOURCES = (
    "Escape", "Graph.cpp", "GraphIO.cpp", "TriangleProgram.cpp", "Makefile", "common.mk",
    "exe/Makefile", "exe/count_three.cpp", "exe/count_four.cpp", "exe/count_five.cpp",
)  # fmt: skip
#: out.txt lines per size after n and m: count_three 3; count_four 3, 4; count_five 3, 4, 5.
SIZES = {3: 4, 4: 11, 5: 34}
EXE = {3: "count_three", 4: "count_four", 5: "count_five"}
#: ESCAPE's connected patterns as our graphlets (by index in its output), as
#: :func:`derive_mapping` finds them (``check`` derives them again and compares).
MAPPING = {
    3: {2: "wedge", 3: "triangle"},
    4: {5: "4-star", 6: "4-path", 7: "tailed-triangle", 8: "4-cycle", 9: "diamond",
        10: "4-clique"},
    5: {13: "G29", 14: "G30", 15: "G31", 16: "G34", 17: "G36", 18: "G35", 19: "G37",
        20: "5-cycle", 21: "G42", 22: "G41", 23: "G40", 24: "house", 25: "G44", 26: "G46",
        27: "G45", 28: "G47", 29: "G48", 30: "G50", 31: "G49", 32: "G51", 33: "5-clique"},
}  # fmt: skip


def prepare(src: Path, dest: Path) -> None:
    """Copy ESCAPE's sources from ``src`` (a checkout, or a bare git directory: ``git
    archive``) into ``dest`` and build the three counting executables."""
    dest.mkdir(parents=True, exist_ok=True)
    if (src / "Escape").is_dir():
        for name in SOURCES:
            subprocess.run(["cp", "-r", str(src / name), str(dest / name)], check=True)
    else:
        archive = subprocess.run(
            ["git", "-C", str(src), "archive", "HEAD", *SOURCES], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    for stale in dest.rglob("*.gch"):
        stale.unlink()
    subprocess.run(["make", "-C", str(dest), "libescape.a"], check=True, capture_output=True)
    subprocess.run(["make", "-C", str(dest / "exe"), *EXE.values()], check=True,
                   capture_output=True)  # fmt: skip


def write_escape(path: Path, src: np.ndarray, dst: np.ndarray, n: int) -> int:
    """The graph in ESCAPE's format: ``n m``, then each undirected edge once (no loops)."""
    a, b = np.minimum(src, dst), np.maximum(src, dst)
    keep = a != b
    pairs = np.unique(np.stack([a[keep], b[keep]], axis=1), axis=0)
    with path.open("w") as f:
        f.write(f"{n} {len(pairs)}\n")
        np.savetxt(f, pairs, fmt="%d")
    return len(pairs)


def run_counts(dest: Path, graph_file: Path, k: int, timeout: float) -> tuple[list[float], float]:
    """ESCAPE's non-induced counts of every ``k``-node pattern and its wall seconds."""
    with tempfile.TemporaryDirectory() as work:  # it writes out.txt in its working directory
        t = time.perf_counter()
        exe = (dest / "exe" / EXE[k]).resolve()
        subprocess.run([str(exe), str(graph_file.resolve())], cwd=work, check=True,
                       capture_output=True, timeout=timeout)  # fmt: skip
        seconds = time.perf_counter() - t
        values = [float(x) for x in Path(work, "out.txt").read_text().split()]
    skip = 2 + sum(SIZES[s] for s in SIZES if s < k)
    return values[skip : skip + SIZES[k]], seconds


def derive_mapping(dest: Path, k: int, graphs: int = 6) -> dict[int, str]:
    """ESCAPE pattern index -> our graphlet name, for its connected ``k``-node patterns, by
    matching count vectors on small random graphs (each index must match one graphlet)."""
    import nx_gpumine as ng

    rows: dict[int, list[float]] = {}
    ours: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as work:
        for seed in range(graphs):
            G = nx.gnp_random_graph(11 + seed, 0.35 + 0.05 * (seed % 3), seed=100 + seed)
            e = np.array(G.edges(), dtype=np.int64).reshape(-1, 2)
            f = Path(work) / f"g{seed}.txt"
            write_escape(f, e[:, 0], e[:, 1], G.number_of_nodes())
            counts, _ = run_counts(dest, f, k, 60)
            for i, c in enumerate(counts):
                rows.setdefault(i, []).append(c)
            for p, c in ng.subgraph_census(G, k, induced=False, engine="cpu").items():
                ours.setdefault(p, []).append(int(c))  # keyed by graphlet name
    mapping: dict[int, str] = {}
    for i, vec in rows.items():
        hits = [name for name, v in ours.items() if v == [round(x) for x in vec]]
        if len(hits) == 1:
            mapping[i] = hits[0]
        elif hits:
            raise RuntimeError(f"ESCAPE pattern {i} matches {hits}: use more graphs")
    if len(mapping) != len(ours):
        raise RuntimeError(f"{len(mapping)} of {len(ours)} graphlets matched an ESCAPE pattern")
    return mapping


def load_edges(name: str) -> tuple[np.ndarray, np.ndarray, int]:
    """A benchmark graph's edge ends and node count, or an edge file's (two columns)."""
    if Path(name).exists():  # two integer columns (SNAP's and powerlaw_graph.py's text)
        import pandas as pd

        e = pd.read_csv(name, sep=r"\s+", comment="#", header=None, dtype=np.int64).to_numpy()
        return e[:, 0], e[:, 1], int(e.max()) + 1
    from bench_common import POWERLAW, facebook_edges
    from powerlaw_graph import generate

    if name == "facebook":
        return facebook_edges()
    n, m = POWERLAW[name][:2]
    a, b = generate(*POWERLAW[name], device=m >= 50_000_000)
    return np.asarray(a), np.asarray(b), n


def compare(dest: Path, graph: str, k: int, engine: str) -> None:
    """Print ESCAPE's and our census's times on ``graph`` (ours: the first call, compiles
    included) and whether every connected ``k``-node count is equal."""
    import nx_gpumine as ng
    from nx_gpumine.inputs.static_graph import from_arrays

    src, dst, n = load_edges(graph)
    with tempfile.TemporaryDirectory() as work:
        f = Path(work) / "graph.escape"
        write_escape(f, src, dst, n)
        counts, escape_s = run_counts(dest, f, k, 3600)
    theirs = {MAPPING[k][i]: counts[i] for i in MAPPING[k]}
    g = from_arrays(src, dst, num_nodes=n)
    t = time.perf_counter()
    ours = ng.subgraph_census(g, k, induced=False, engine=engine)
    ours_s = time.perf_counter() - t
    equal = all(ours[name] == round(v) for name, v in theirs.items())
    print(f"{graph} k={k}: ESCAPE {escape_s:.3f} s, ours ({engine}) {ours_s:.3f} s, "
          f"counts equal: {equal}", flush=True)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("src", type=Path)
    p.add_argument("dest", type=Path)
    r = sub.add_parser("run")
    r.add_argument("dest", type=Path)
    r.add_argument("graph")
    r.add_argument("k", type=int, choices=(3, 4, 5))
    r.add_argument("out", type=Path)
    r.add_argument("--timeout", type=float, default=600.0)
    r.add_argument("--name", help="the graph's name in OUT.tsv (default: GRAPH)")
    c = sub.add_parser("check")
    c.add_argument("dest", type=Path)
    m = sub.add_parser("compare")
    m.add_argument("dest", type=Path)
    m.add_argument("graph")
    m.add_argument("k", type=int, choices=(3, 4, 5))
    m.add_argument("--engine", default="cpu")
    a = ap.parse_args()
    if a.cmd == "prepare":
        prepare(a.src, a.dest)
        return
    if a.cmd == "check":
        for k in (3, 4, 5):
            got = derive_mapping(a.dest, k)
            print(k, "as MAPPING" if got == MAPPING[k] else f"DIFFERS: {json.dumps(got)}")
        return
    if a.cmd == "compare":
        compare(a.dest, a.graph, a.k, a.engine)
        return
    mapping = MAPPING[a.k]
    src, dst, n = load_edges(a.graph)
    with tempfile.TemporaryDirectory() as work:
        f = Path(work) / "graph.escape"
        write_escape(f, src, dst, n)
        try:
            counts, seconds = run_counts(a.dest, f, a.k, a.timeout)
            status = "ok"
        except subprocess.TimeoutExpired:
            counts, seconds, status = [], a.timeout, f"timeout_{a.timeout:.0f}s"
        except subprocess.CalledProcessError as exc:
            counts, seconds, status = [], float("nan"), f"rc{exc.returncode}"
    by_name = {mapping[i]: counts[i] for i in mapping} if counts else {}
    new = not a.out.exists()
    with a.out.open("a") as f:
        if new:
            f.write("graph\tk\tseconds\tstatus\tcounts\n")
        name = a.name or a.graph
        f.write(f"{name}\t{a.k}\t{seconds:.3f}\t{status}\t{json.dumps(by_name)}\n")
    print(a.name or a.graph, a.k, status, f"{seconds:.3f} s", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    main()
