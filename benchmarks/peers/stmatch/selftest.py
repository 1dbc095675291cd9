"""Checks of peer_io.py that need no GPU (run on any machine before a device call).

usage: python3 benchmarks/peers/stmatch/selftest.py [--kit ../shared/peers/stmatch] [--inspect]

1. the converters round-trip (STMatch binary CSR and labels; cuTS text) on a small power-law
   graph and on facebook, and the vectorised text formatter equals plain formatting;
2. the output parsers read every printed form (STMatch's ``%s\\t%f\\t%llu``, cuTS's two lines,
   ``cout``'s scientific notation) and refuse failure output;
3. the kit's STMatch and cuTS pattern files are isomorphic pairs, their |Aut| equals STMatch's
   PatternMultiplicity (as its PatternPreprocessor printed it through stmatch_inspect.cu), and
   STMatch's file order is a connected order;
4. sampled queries: connected, k nodes, reproducible, and :func:`stmatch_order` makes files
   STMatch takes;
5. ``--inspect`` (needs nvcc, no GPU): compiles stmatch_inspect.cu against a copy of the kit and
   checks that STMatch's own reader sees our files exactly (n, m, an FNV-1a hash of the CSR,
   label histogram) and computes the same |Aut|.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

import peer_io as pio  # noqa: E402
from bench_common import facebook_edges  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

#: STMatch's PatternMultiplicity of data/pattern/1.g .. 24.g (stmatch_inspect.cu, table_edge_ulb)
STMATCH_MULTIPLICITY = [8, 2, 2, 4, 4, 8, 12, 120, 8, 4, 8, 2, 2, 12, 48, 720]
STMATCH_MULTIPLICITY += [36, 8, 16, 8, 48, 48, 240, 5040]


def fnv(indptr: np.ndarray, indices: np.ndarray) -> int:
    h, mask = 1469598103934665603, (1 << 64) - 1
    for x in np.concatenate([indptr.astype(np.int64), indices.astype(np.int64)]).tolist():
        h = ((h ^ (x & mask)) * 1099511628211) & mask
    return h


def check_graphs(tmp: Path) -> list[tuple]:
    out = []
    ta, tb = generate(300, 1500, 2.3, 40, 1)
    fa, fb, fn = facebook_edges()
    for name, (a, b, n) in {"tiny": (ta, tb, 300), "facebook": (fa, fb, fn)}.items():
        a2 = np.concatenate([a, b[:5], a[:3]])  # repeated edges and loops are dropped
        b2 = np.concatenate([b, a[:5], a[:3]])
        ip, ix = pio.csr(a2, b2, n)
        assert ip[-1] == 2 * len(np.unique(np.minimum(a, b) * n + np.maximum(a, b)))
        for v in range(0, n, max(1, n // 50)):  # sorted, no loops
            nb = ix[ip[v] : ip[v + 1]]
            assert (np.diff(nb) > 0).all() and v not in nb
        lab = np.random.default_rng(0).integers(0, 32, n)
        pre = pio.write_stmatch_graph(tmp / name, ip, ix, lab)
        ip2, ix2, lab2 = pio.read_stmatch_graph(pre)
        assert (ip2 == ip).all() and (ix2 == ix).all() and (lab2 == lab).all()
        meta = Path(f"{pre}.meta.txt").read_text().split()
        assert meta == [str(n), str(ip[-1]), "4", str(np.diff(ip).max())]
        g = pio.write_cuts_graph(tmp / f"{name}.g", ip, ix)
        n3, s3, d3 = pio.read_cuts_graph(g)
        assert n3 == n and (s3 == np.repeat(np.arange(n), np.diff(ip))).all() and (d3 == ix).all()
        out.append((name, pre, n, int(ip[-1]), fnv(ip, ix), np.bincount(lab, minlength=32)))
        print(f"graph {name}: n={n} m={ip[-1]} round trips ok")
    x = np.array([0, 7, 10, 99, 100, 12345, 4000000000])
    y = np.array([5, 0, 1, 1000, 3, 9, 0])
    want = "".join(f"{u}\t{v}\n" for u, v in zip(x.tolist(), y.tolist(), strict=True))
    assert pio.format_pairs(x, y).decode() == want
    return out


def check_parsers() -> None:
    assert pio.parse_stmatch("./data/pattern/1.g\t12.345678\t987654321\n") == {
        "ms": 12.345678,
        "count": 987654321,
    }
    assert pio.parse_stmatch("STMATCH_CUDA_ERROR an illegal memory access\n") is None
    assert pio.parse_stmatch("x.g\t0.000000\t0\n") == {"ms": 0.0, "count": 0}
    assert pio.parse_cuts("fb.g      1.g      1234.57      8270016\n") == {
        "ms": 1234.57,
        "count": 8270016,
    }
    assert pio.parse_cuts("fb.g      1.g      1.23457e+06      5\n") == {
        "ms": 1234570.0,
        "count": 5,
    }
    out = "start loading graph file from disk to memory...\nfb.g,1.g,15.5ms,42\n"
    assert pio.parse_cuts(out) == {"ms": 15.5, "count": 42}
    assert pio.parse_cuts("an illegal memory access was encountered\n") is None
    assert pio.parse_cuts("out of memory\n") is None
    print("parsers ok")


def check_patterns(kit: Path) -> None:
    import networkx as nx

    for i in range(1, 25):
        k, e, lab = pio.read_stmatch_pattern(kit / "data" / "pattern" / f"{i}.g")
        kc, ec = pio.read_cuts_pattern(kit / "ComparedSystems" / "CuTS" / "pattern" / f"{i}.g")
        assert k == kc and nx.is_isomorphic(nx.Graph(e), nx.Graph(ec)), i
        assert lab == list(range(k)), i  # vertex i has label i: distinct labels
        assert pio.stmatch_ready(k, e), i
        assert pio.automorphisms(k, e) == STMATCH_MULTIPLICITY[i - 1], i
        assert pio.automorphisms(k, e, lab) == 1
    print("kit patterns: 24 isomorphic pairs, |Aut| = STMatch's multiplicity, connected order")


def check_sampling(tmp: Path) -> list[Path]:
    import networkx as nx

    fa, fb, fn = facebook_edges()
    ip, ix = pio.csr(fa, fb, fn)
    files = []
    for k in (8, 10, 12):
        for dense in (True, False):
            nodes, edges = pio.sample_query(
                ip, ix, k, np.random.default_rng([33, k, dense]), dense=dense
            )
            again = pio.sample_query(ip, ix, k, np.random.default_rng([33, k, dense]), dense=dense)
            assert (nodes, edges) == again
            G = nx.Graph(edges)
            assert G.number_of_nodes() == k == len(set(nodes)) and nx.is_connected(G)
            for i, j in edges:  # every query edge is a data edge
                assert nodes[j] in set(ix[ip[nodes[i]] : ip[nodes[i] + 1]].tolist())
            order = pio.stmatch_order(k, edges)
            kk, e2, _ = pio.relabel(k, edges, None, order)
            assert pio.stmatch_ready(kk, e2) and nx.is_isomorphic(nx.Graph(e2), G)
            f = pio.write_stmatch_pattern(tmp / f"S{k}{'ds'[not dense]}.g", kk, e2, None)
            assert pio.read_stmatch_pattern(f)[1] == e2
            if k <= 8:
                files.append(f)
    print("sampled queries: reproducible, connected, data edges, STMatch order ok")
    return files


def check_inspect(kit: Path, tmp: Path, graphs: list[tuple], qfiles: list[Path]) -> None:
    src = tmp / "stmatch"
    shutil.copytree(kit, src, ignore=shutil.ignore_patterns("ComparedSystems", "bin"))
    for p in [src, *src.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    exe = {}
    for variant in ("table_edge_ulb", "table_edge_lb"):
        cfg = src / "src" / "config.h"
        text = cfg.read_text()
        line = next(ln for ln in text.splitlines() if '#include "config_for_ae' in ln)
        cfg.write_text(text.replace(line, f'#include "config_for_ae/{variant}.h"'))
        exe[variant] = tmp / f"inspect_{variant}"
        subprocess.run(
            [
                "nvcc",
                "-std=c++17",
                f"-I{src}",
                str(HERE / "stmatch_inspect.cu"),
                "-o",
                exe[variant],
            ],
            check=True,
        )
    pats = [str(src / "data" / "pattern" / f"{i}.g") for i in range(1, 25)]
    for name, pre, n, m, h, hist in graphs:
        out = subprocess.run(
            [exe["table_edge_lb"], str(pre), *pats[:1]], capture_output=True, text=True, check=True
        ).stdout
        line = out.splitlines()[0]
        assert f"n={n} m={m} " in line and f"fnv={h} " in line, line
        seen = {
            int(t.split(":")[0]): int(t.split(":")[1]) for t in line.split("labels:")[1].split()
        }
        assert seen == {i: int(c) for i, c in enumerate(hist) if c}, (seen, hist)
        out = subprocess.run(
            [exe["table_edge_ulb"], str(pre), *pats], capture_output=True, text=True, check=True
        ).stdout
        mult = [int(ln.split("multiplicity=")[1].split()[0]) for ln in out.splitlines()[1:]]
        assert mult == STMATCH_MULTIPLICITY, mult
        print(f"STMatch's reader on {name}: n, m, CSR hash, labels and |Aut| of Q1..Q24 agree")
    # sampled 8-node queries through the published PAT_SIZE 7 reader would overflow: only the
    # automorphism count is compared, on a PAT_SIZE 10 / MAX_SLOT_NUM 21 copy (build_peers' big)
    cfg = src / "src" / "config.h"
    text = cfg.read_text().replace("PAT_SIZE = 7;", "PAT_SIZE = 10;")
    cfg.write_text(text.replace("MAX_SLOT_NUM = 15;", "MAX_SLOT_NUM = 21;"))
    big = tmp / "inspect_big"
    subprocess.run(
        ["nvcc", "-std=c++17", f"-I{src}", str(HERE / "stmatch_inspect.cu"), "-o", big], check=True
    )
    out = subprocess.run(
        [big, str(graphs[0][1]), *map(str, qfiles)], capture_output=True, text=True, check=True
    ).stdout
    for f, ln in zip(qfiles, out.splitlines()[1:], strict=True):
        k, e, _ = pio.read_stmatch_pattern(f)
        assert int(ln.split("multiplicity=")[1].split()[0]) == pio.automorphisms(k, e), ln
        slots = int(ln.split("slots=")[1].split()[0])
        print(f"  {f.name}: |Aut| agrees, {slots} slots (MAX_SLOT_NUM 21)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kit", default=str(HERE.parents[2].parent / "shared" / "peers" / "stmatch"))
    ap.add_argument("--inspect", action="store_true", help="compile STMatch's readers (nvcc)")
    args = ap.parse_args()
    kit = Path(args.kit)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        graphs = check_graphs(tmp)
        check_parsers()
        check_patterns(kit)
        qfiles = check_sampling(tmp)
        if args.inspect:
            check_inspect(kit, tmp, graphs, qfiles)
    print("selftest ok")


if __name__ == "__main__":
    main()
