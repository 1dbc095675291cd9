"""Labelled graphs for G2Miner's FSM apps (``fsm_gpu_base``, ``fsm_omp_base``): the label
generator of issue 30 and a writer / reader of G2Miner's binary CSR with vertex labels.

Format (read by ``Graph::Graph`` in the kit's ``src/src/common/graph.cc``, prefix ``DIR/graph``):

- ``graph.meta.txt``: ``n m 4 8 1 2 max_degree 0 L 0`` read with ``>>`` (vertices, directed
  entries ``m = 2|E|``, sizeof vidType int32, eidType int64, vlabel_t uint8, elabel_t uint16,
  exact max degree, feature length, number of vertex label classes ``L``, edge label classes);
- ``graph.vertex.bin``: int64 row pointers (``n + 1``); ``graph.edge.bin``: int32 column ids
  (``m``), symmetric, no self-loops, no duplicates, each row sorted ascending;
- ``graph.vlabel.bin``: one uint8 label per vertex (``n`` bytes). The loader asserts
  ``0 < L < 255`` and that exactly ``L`` distinct labels occur; the FSM apps index
  ``labels_frequency_`` (size ``L + 1``) by label and assert ``label <= L``, and G2Miner's own
  random fallback draws labels ``1..L``. So labels are written 1-based and dense: the sorted
  distinct label values present get codes ``1..L`` (``codes`` below gives code -> value).
  Edge labels are not used by either FSM app (``main.cc`` loads vertex labels only).

usage:
  python3 g2miner_labelled.py EDGELIST OUTDIR --labels L [--seed 30] [--n N]
  python3 g2miner_labelled.py --self-test
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import numpy as np

#: Seed of every label draw of issue 30 (one fresh generator per graph and label count).
LABEL_SEED = 30


def skewed_labels(n: int, num_labels: int, seed: int = LABEL_SEED) -> np.ndarray:
    """Issue 30's vertex labels: ``n`` draws (int64, values ``0 .. num_labels - 1``) of a Zipf
    law with exponent 1, ``P(label = i) = (1 / (i + 1)) / H(num_labels)``, exactly
    ``np.random.default_rng(seed).choice(num_labels, size=n, p=w / w.sum())`` with
    ``w = 1 / np.arange(1, num_labels + 1)``. Label 0 is the most frequent (8 labels: 36.8%
    .. 4.6%; 32 labels: 24.6% .. 0.77%)."""
    w = 1.0 / np.arange(1, num_labels + 1, dtype=np.float64)
    rng = np.random.default_rng(seed)
    return rng.choice(num_labels, size=n, p=w / w.sum()).astype(np.int64)


def symmetric_csr(src: np.ndarray, dst: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Row pointers (int64, ``n + 1``) and sorted column ids (int32) of the undirected simple
    graph of the edges ``src[j] - dst[j]`` (self-loops and duplicates dropped)."""
    s = np.asarray(src, dtype=np.int64)
    d = np.asarray(dst, dtype=np.int64)
    keep = s != d
    s, d = s[keep], d[keep]
    key = np.unique(np.concatenate([s * n + d, d * n + s]))
    rows = key // n
    cols = (key % n).astype(np.int32)
    rowptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=rowptr[1:])
    return rowptr, cols


def write_g2miner(
    outdir: str | os.PathLike,
    src: np.ndarray,
    dst: np.ndarray,
    n: int,
    labels: np.ndarray,
    csr: tuple[np.ndarray, np.ndarray] | None = None,
) -> list:
    """Write ``outdir/graph.{meta.txt,vertex.bin,edge.bin,vlabel.bin}``; returns ``codes``, the
    label value of each G2Miner label ``1..L`` (``codes[c - 1]``). ``csr``: the graph's
    :func:`symmetric_csr`, when already computed (``src``/``dst`` are then not read)."""
    labels = np.asarray(labels)
    if labels.shape != (n,):
        raise ValueError(f"labels must have shape ({n},), got {labels.shape}")
    values, inverse = np.unique(labels, return_inverse=True)
    if not 0 < len(values) < 255:
        raise ValueError(f"G2Miner takes 1..254 vertex labels, got {len(values)}")
    rowptr, cols = csr if csr is not None else symmetric_csr(src, dst, n)
    deg = np.diff(rowptr)
    maxdeg = int(deg.max()) if n else 0
    if not 0 < maxdeg < n:
        raise ValueError(f"G2Miner asserts 0 < max_degree < n, got {maxdeg} and {n}")
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    pre = out / "graph"
    rowptr.astype("<i8").tofile(f"{pre}.vertex.bin")
    cols.astype("<i4").tofile(f"{pre}.edge.bin")
    (inverse.reshape(-1) + 1).astype(np.uint8).tofile(f"{pre}.vlabel.bin")
    Path(f"{pre}.meta.txt").write_text(
        f"{n}\n{len(cols)}\n4 8 1 2\n{maxdeg}\n0\n{len(values)}\n0\n"
    )
    return values.tolist()


def read_g2miner(outdir: str | os.PathLike) -> dict:
    """The files :func:`write_g2miner` wrote, parsed back: ``n``, ``m``, ``max_degree``,
    ``num_labels``, ``rowptr``, ``cols``, ``vlabels`` (G2Miner's 1-based codes)."""
    pre = Path(outdir) / "graph"
    meta = Path(f"{pre}.meta.txt").read_text().split()
    n, m = int(meta[0]), int(meta[1])
    if meta[2:6] != ["4", "8", "1", "2"]:
        raise ValueError(f"unexpected type sizes {meta[2:6]}")
    return {
        "n": n,
        "m": m,
        "max_degree": int(meta[6]),
        "num_labels": int(meta[8]),
        "rowptr": np.fromfile(f"{pre}.vertex.bin", dtype="<i8"),
        "cols": np.fromfile(f"{pre}.edge.bin", dtype="<i4"),
        "vlabels": np.fromfile(f"{pre}.vlabel.bin", dtype=np.uint8),
    }


def self_test() -> None:
    """Round trip on a tiny graph (loops, duplicates, a label value skipped, isolated node)."""
    src = np.array([0, 1, 2, 2, 3, 1, 4, 0])
    dst = np.array([1, 2, 0, 3, 3, 0, 1, 1])
    n = 6
    labels = np.array([7, 3, 3, 9, 7, 3])
    with tempfile.TemporaryDirectory() as tmp:
        codes = write_g2miner(tmp, src, dst, n, labels)
        g = read_g2miner(tmp)
    assert codes == [3, 7, 9], codes
    assert g["n"] == n and g["num_labels"] == 3 and g["m"] == len(g["cols"]) == 10
    assert len(g["rowptr"]) == n + 1 and g["rowptr"][-1] == g["m"]
    got = {(u, int(v)) for u in range(n) for v in g["cols"][g["rowptr"][u] : g["rowptr"][u + 1]]}
    want = {(a, b) for a, b in zip(src.tolist(), dst.tolist(), strict=True) if a != b}
    assert got == want | {(b, a) for a, b in want}, got
    for u in range(n):
        row = g["cols"][g["rowptr"][u] : g["rowptr"][u + 1]]
        assert np.all(np.diff(row) > 0)
    assert g["max_degree"] == int(np.diff(g["rowptr"]).max()) == 3
    assert [codes[c - 1] for c in g["vlabels"]] == labels.tolist()
    lab = skewed_labels(100_000, 8)
    freq = np.bincount(lab, minlength=8) / len(lab)
    assert np.all(np.diff(freq) < 0) and abs(freq[0] - 1 / 2.717857) < 0.01, freq
    assert np.array_equal(skewed_labels(1000, 32), skewed_labels(1000, 32))  # seeded
    print("g2miner_labelled self-test ok")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("edgelist", nargs="?")
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--labels", type=int, default=8)
    ap.add_argument("--seed", type=int, default=LABEL_SEED)
    ap.add_argument("--n", type=int, default=0, help="at least this many vertices")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return
    if not args.edgelist or not args.outdir:
        ap.error("EDGELIST and OUTDIR are required")
    e = np.loadtxt(args.edgelist, dtype=np.int64, comments=("#", "%")).reshape(-1, 2)
    n = max(int(e.max()) + 1, args.n)
    codes = write_g2miner(
        args.outdir, e[:, 0], e[:, 1], n, skewed_labels(n, args.labels, args.seed)
    )
    print(f"{args.edgelist} -> {args.outdir}/graph.*: n={n} labels={len(codes)}")


if __name__ == "__main__":
    main()
