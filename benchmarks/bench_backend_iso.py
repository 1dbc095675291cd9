"""NetworkX backend: graph isomorphism, ours vs NetworkX's VF2++ in the same run (issue 13).

usage: python3 benchmarks/bench_backend_iso.py [--engine cpu|cuda] [--nx-timeout 120]
       [--out benchmarks/results/backend_iso_cpu_2026-11-25.json]

Cases: les_miserables vs a relabelled, reshuffled copy; K9 vs a shuffled copy; random 3- and
4-regular graphs (networkx.random_regular_graph, seed 1) of 100, 200 (where NetworkX's VF2++
still finishes), 1000 and 5000 nodes vs a shuffled
copy (isomorphic) and vs another random regular graph of the same size and degree (seed 2: not
isomorphic). Each case times ``nx.vf2pp_is_isomorphic(G1, G2, backend="gpumine")`` (best of 3
after one warm-up call that also pays numba's compile or cache load, reported apart) and
``nx.vf2pp_is_isomorphic(G1, G2)`` (NetworkX, in a subprocess killed after ``--nx-timeout``
seconds: its VF2++ takes minutes on random 3-regular graphs). Answers are checked: every
mapping we return is verified edge by edge; where NetworkX finishes its answer must equal
ours, where it does not, igraph's BLISS ``isomorphic`` is the oracle.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import platform
import random
import sys
import time
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _shuffled(G: nx.Graph, seed: int) -> nx.Graph:
    rng = random.Random(seed)
    nodes = list(G)
    perm = nodes[:]
    rng.shuffle(perm)
    rename = {u: f"x{i}" for i, u in enumerate(perm)}
    H = nx.Graph()
    order = nodes[:]
    rng.shuffle(order)
    H.add_nodes_from(rename[u] for u in order)
    edges = [(rename[u], rename[v]) for u, v in G.edges]
    rng.shuffle(edges)
    H.add_edges_from(edges)
    return H


def cases() -> list[tuple[str, nx.Graph, nx.Graph]]:
    """(name, G1, G2) for every benchmark case."""
    out = []
    L = nx.les_miserables_graph()
    out.append(("les_miserables/relabelled", L, _shuffled(L, 1)))
    K = nx.complete_graph(9)
    out.append(("K9/shuffled", K, _shuffled(K, 1)))
    for n in (100, 200, 1000, 5000):
        for d in (3, 4):
            G = nx.random_regular_graph(d, n, seed=1)
            out.append((f"{d}-regular n={n}/shuffled", G, _shuffled(G, 2)))
            out.append((f"{d}-regular n={n}/other", G, nx.random_regular_graph(d, n, seed=2)))
    return out


def _nx_worker(G1: nx.Graph, G2: nx.Graph, q: mp.Queue) -> None:
    t = time.perf_counter()
    r = nx.vf2pp_is_isomorphic(G1, G2, backend="networkx")
    q.put((r, time.perf_counter() - t))


def time_networkx(G1: nx.Graph, G2: nx.Graph, timeout: float) -> tuple[bool | None, float | None]:
    """NetworkX's VF2++ answer and seconds, or (None, None) past ``timeout``."""
    q: mp.Queue = mp.Queue()
    p = mp.get_context("fork").Process(target=_nx_worker, args=(G1, G2, q))
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.kill()
        p.join()
        return None, None
    return q.get()


def _valid(G1: nx.Graph, G2: nx.Graph, m: dict) -> bool:
    return (
        len(m) == len(G1) == len(G2)
        and len(set(m.values())) == len(G2)
        and G1.number_of_edges() == G2.number_of_edges()
        and all(G2.has_edge(m[u], m[v]) for u, v in G1.edges)
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--nx-timeout", type=float, default=120.0)
    ap.add_argument(
        "--out", default=str(ROOT / "benchmarks/results/backend_iso_cpu_2026-11-25.json")
    )
    a = ap.parse_args()
    import igraph
    import numba

    nx.config.warnings_to_ignore.add("cache")  # graphs are converted once, then reused
    rows = []
    for name, G1, G2 in cases():
        t0 = time.perf_counter()
        first = nx.vf2pp_isomorphism(G1, G2, backend="gpumine", engine=a.engine)
        warm = time.perf_counter() - t0
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            ours = nx.vf2pp_is_isomorphic(G1, G2, backend="gpumine", engine=a.engine)
            times.append(time.perf_counter() - t0)
        assert ours == (first is not None)
        if first is not None:
            assert _valid(G1, G2, first), name
        nx_ans, nx_s = time_networkx(G1, G2, a.nx_timeout)
        if nx_ans is not None:
            assert nx_ans == ours, name
            oracle = "networkx"
        else:
            want = igraph.Graph.from_networkx(G1).isomorphic(igraph.Graph.from_networkx(G2))
            assert want == ours, name
            oracle = "igraph"
        row = {
            "case": name,
            "nodes": len(G1),
            "edges": G1.number_of_edges(),
            "isomorphic": ours,
            "ours_s": min(times),
            "ours_first_call_s": warm,
            "networkx_vf2pp_s": nx_s,
            "networkx_timeout_s": None if nx_s is not None else a.nx_timeout,
            "speedup": None if nx_s is None else nx_s / min(times),
            "checked_against": oracle,
        }
        rows.append(row)
        nxs = f"{nx_s:.3f} s" if nx_s is not None else f"> {a.nx_timeout:.0f} s (killed)"
        print(f"{name:32s} iso={ours!s:5s} ours {min(times):.4f} s  networkx {nxs}", flush=True)
    meta = {
        "benchmark": "benchmarks/bench_backend_iso.py",
        "rerun": f"python3 benchmarks/bench_backend_iso.py --engine {a.engine} "
        f"--nx-timeout {a.nx_timeout:g}",
        "engine": a.engine,
        "machine": platform.platform(),
        "processor": platform.processor(),
        "cpus": mp.cpu_count(),
        "python": platform.python_version(),
        "networkx": nx.__version__,
        "numba": numba.__version__,
        "igraph": igraph.__version__,
        "inputs": "random_regular_graph(d, n, seed=1) vs shuffled copy (seed 2) and vs "
        "random_regular_graph(d, n, seed=2); les_miserables_graph; complete_graph(9)",
        "rows": rows,
    }
    Path(a.out).write_text(json.dumps(meta, indent=2) + "\n")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
