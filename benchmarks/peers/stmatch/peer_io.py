"""Inputs and outputs of STMatch and cuTS (the peer kit's ``stmatch/``), made from our arrays.

Everything here is host NumPy / text work, importable without a GPU:

* :func:`csr` — the symmetric, sorted, duplicate- and loop-free adjacency both peers expect,
  built from the same edge arrays ``nx_gpumine.inputs.static_graph.from_arrays`` is given;
* :func:`write_stmatch_graph` — STMatch's binary graph (``graph_converter/compactify.cpp``'s
  output read by ``src/graph.h: read_bin_file``): ``P.meta.txt`` (``n m 4 maxdeg``),
  ``P.vertex.bin`` (``n+1`` int64 row offsets), ``P.edge.bin`` (``m`` int32 column ids),
  ``P.label.bin`` (``n`` int32 labels), with ``P = DIR/snap.txt`` (the path the kit's
  ``test_table*.sh`` pass);
* :func:`write_cuts_graph` — cuTS's text graph (``src/util.cpp: file_reader``): a first line
  ``n``, then one ``u<TAB>v`` line per *directed* edge (both directions of an undirected one,
  as ``graph/wiki-Vote.g`` lists them);
* pattern files of both (read and write): STMatch ``data/pattern/*.g`` (``v id label`` /
  ``e a b 1`` lines, both directions) and cuTS ``pattern/*.g`` (``k`` then ``a<TAB>b`` lines);
* :func:`stmatch_order` — a connected matching order for STMatch, which matches pattern vertices
  in file order (``get_matching_order`` is the identity: "input from dryadic is already
  reordered") and needs vertices 0, 1 adjacent and every later vertex adjacent to an earlier one;
* :func:`sample_query` — 8/10/12-node queries sampled by a random walk (dense: the walk's nodes'
  induced subgraph; sparse: the walk's own edges);
* :func:`parse_stmatch` / :func:`parse_cuts` — the result lines the peers print.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

# ---------------------------------------------------------------------------- data graphs


def csr(a: np.ndarray, b: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric CSR (int64 offsets, int32 sorted neighbour ids) of the undirected edges
    ``a[i] - b[i]``; loops and repeated edges dropped."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    keep = a != b
    s = np.concatenate([a[keep], b[keep]])
    d = np.concatenate([b[keep], a[keep]])
    key = np.sort(s * n + d)  # sort + mask: np.unique is far slower on 10^7 keys here
    key = key[np.concatenate([[True], key[1:] != key[:-1]])] if len(key) else key
    s, d = key // n, key % n
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(s, minlength=n), out=indptr[1:])
    return indptr, d.astype(np.int32)


def write_stmatch_graph(
    directory: Path, indptr: np.ndarray, indices: np.ndarray, labels: np.ndarray | None
) -> Path:
    """Write STMatch's binary graph into ``directory``; returns the ``snap.txt`` prefix path
    to pass to the binaries. ``labels`` (int, < 32: STMatch keeps a label as the bit
    ``1 << label`` of a 32-bit word) default to 0; unlabelled builds never read them."""
    directory.mkdir(parents=True, exist_ok=True)
    prefix = directory / "snap.txt"
    n = len(indptr) - 1
    m = int(indptr[-1])
    maxdeg = int(np.diff(indptr).max()) if n else 0
    lab = np.zeros(n, dtype=np.int32) if labels is None else np.asarray(labels, dtype=np.int32)
    if len(lab) != n or (len(lab) and (lab.min() < 0 or lab.max() > 31)):
        raise ValueError("STMatch labels must be n integers in [0, 31]")
    Path(f"{prefix}.meta.txt").write_text(f"{n}\n{m}\n4\n{maxdeg}\n")
    np.ascontiguousarray(indptr, dtype="<i8").tofile(f"{prefix}.vertex.bin")
    np.ascontiguousarray(indices, dtype="<i4").tofile(f"{prefix}.edge.bin")
    np.ascontiguousarray(lab, dtype="<i4").tofile(f"{prefix}.label.bin")
    return prefix


def read_stmatch_graph(prefix: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, indices, labels)`` back from :func:`write_stmatch_graph`'s files."""
    n, m, vid, _ = (int(x) for x in Path(f"{prefix}.meta.txt").read_text().split())
    assert vid == 4
    indptr = np.fromfile(f"{prefix}.vertex.bin", dtype="<i8", count=n + 1)
    indices = np.fromfile(f"{prefix}.edge.bin", dtype="<i4", count=m)
    labels = np.fromfile(f"{prefix}.label.bin", dtype="<i4", count=n)
    return indptr, indices, labels


def _digits(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ASCII digits of non-negative ints ``x`` as a (len, w) uint8 array with a keep mask
    (leading zeros dropped, the last digit always kept)."""
    w = max(1, len(str(int(x.max())))) if len(x) else 1
    p = 10 ** np.arange(w - 1, -1, -1, dtype=np.int64)
    dig = (x[:, None] // p[None, :]) % 10
    keep = np.cumsum(dig != 0, axis=1) > 0
    keep[:, -1] = True
    return (dig + 48).astype(np.uint8), keep


def format_pairs(a: np.ndarray, b: np.ndarray, sep: bytes = b"\t") -> bytes:
    """``b"a0<sep>b0\\na1<sep>b1\\n..."`` for non-negative int arrays (vectorised)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    if not len(a):
        return b""
    da, ka = _digits(a)
    db, kb = _digits(b)
    col = lambda c: np.full((len(a), len(c)), np.frombuffer(c, np.uint8))  # noqa: E731
    chars = np.concatenate([da, col(sep), db, col(b"\n")], axis=1)
    ones = lambda c: np.ones((len(a), len(c)), dtype=bool)  # noqa: E731
    keep = np.concatenate([ka, ones(sep), kb, ones(b"\n")], axis=1)
    return chars[keep].tobytes()


def write_cuts_graph(path: Path, indptr: np.ndarray, indices: np.ndarray) -> Path:
    """Write cuTS's text graph (every directed entry of the symmetric CSR, in CSR order)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    n = len(indptr) - 1
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    with open(path, "wb") as f:
        f.write(f"{n}\n".encode())
        step = 1 << 21
        for i in range(0, len(src), step):
            f.write(format_pairs(src[i : i + step], indices[i : i + step]))
    return path


def read_cuts_graph(path: Path) -> tuple[int, np.ndarray, np.ndarray]:
    """``(n, src, dst)`` of a cuTS text graph (as ``file_reader`` reads it: lines without a
    tab are skipped)."""
    with open(path) as f:
        n = int(f.readline())
        rows = [ln.split("\t") for ln in f if "\t" in ln]
    e = np.array(rows, dtype=np.int64).reshape(-1, 2)
    return n, e[:, 0], e[:, 1]


# ---------------------------------------------------------------------------- patterns

Edges = list[tuple[int, int]]


def _norm(edges) -> Edges:
    return sorted({(min(a, b), max(a, b)) for a, b in edges if a != b})


def read_stmatch_pattern(path: Path) -> tuple[int, Edges, list[int]]:
    """``(k, edges (a < b), labels)`` of an STMatch pattern file."""
    labels: dict[int, int] = {}
    edges = []
    for ln in Path(path).read_text().splitlines():
        t = ln.split()
        if not t or t[0] == "#":
            continue
        if t[0] == "v":
            labels[int(t[1])] = int(t[2])
        elif t[0] == "e":
            edges.append((int(t[1]), int(t[2])))
    k = len(labels)
    assert sorted(labels) == list(range(k)), path
    return k, _norm(edges), [labels[i] for i in range(k)]


def read_cuts_pattern(path: Path) -> tuple[int, Edges]:
    """``(k, edges (a < b))`` of a cuTS pattern file."""
    lines = Path(path).read_text().splitlines()
    k = int(lines[0])
    edges = [tuple(int(x) for x in ln.split("\t")) for ln in lines[1:] if "\t" in ln]
    return k, _norm(edges)


def write_stmatch_pattern(path: Path, k: int, edges: Edges, labels: list[int] | None) -> Path:
    """STMatch pattern file in the kit's layout: ``# t 0``, ``v i label`` lines, and each edge
    as ``e a b 1`` and ``e b a 1`` (edge label 1: STMatch's automorphism count tests
    ``adj == 1``). Unlabelled builds read every label as 1 whatever is written."""
    labels = [0] * k if labels is None else list(labels)
    out = ["# t 0"] + [f"v {i} {labels[i]}" for i in range(k)]
    for a, b in _norm(edges):
        out += [f"e {b} {a} 1", f"e {a} {b} 1"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")
    return path


def write_cuts_pattern(path: Path, k: int, edges: Edges) -> Path:
    """cuTS pattern file: ``k``, then ``a<TAB>b`` for both directions of each edge."""
    out = [str(k)]
    for a, b in _norm(edges):
        out += [f"{a}\t{b}", f"{b}\t{a}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")
    return path


def stmatch_order(k: int, edges: Edges) -> list[int]:
    """A connected vertex order: highest degree first, then repeatedly the vertex with the
    most edges to those already placed (ties: higher degree, then lower id). ``order[i]`` is
    the original vertex put at position ``i``."""
    adj = [set() for _ in range(k)]
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    order = [max(range(k), key=lambda v: (len(adj[v]), -v))]
    placed = set(order)
    while len(order) < k:
        cand = [v for v in range(k) if v not in placed and adj[v] & placed]
        if not cand:
            raise ValueError("pattern is not connected")
        v = max(cand, key=lambda v: (len(adj[v] & placed), len(adj[v]), -v))
        order.append(v)
        placed.add(v)
    return order


def relabel(k: int, edges: Edges, labels: list[int] | None, order: list[int]):
    """The pattern with vertex ``order[i]`` renamed ``i``."""
    pos = {v: i for i, v in enumerate(order)}
    new_edges = _norm((pos[a], pos[b]) for a, b in edges)
    new_labels = None if labels is None else [labels[v] for v in order]
    return k, new_edges, new_labels


def stmatch_ready(k: int, edges: Edges) -> bool:
    """Whether STMatch can take the file order as it is (0-1 adjacent, every later vertex
    adjacent to an earlier one)."""
    es = set(edges)
    if k >= 2 and (0, 1) not in es:
        return False
    return all(any((u, v) in es for u in range(v)) for v in range(1, k))


def automorphisms(k: int, edges: Edges, labels: list[int] | None = None) -> int:
    """``|Aut(P)|`` (labels respected) by brute force over a backtracking search (k <= 12)."""
    adj = [[False] * k for _ in range(k)]
    for a, b in edges:
        adj[a][b] = adj[b][a] = True
    lab = [0] * k if labels is None else labels
    deg = [sum(r) for r in adj]
    count = 0
    img: list[int] = []
    used = [False] * k

    def rec(i: int) -> None:
        nonlocal count
        if i == k:
            count += 1
            return
        for w in range(k):
            if used[w] or deg[w] != deg[i] or lab[w] != lab[i]:
                continue
            if all(adj[i][j] == adj[w][img[j]] for j in range(i)):
                used[w] = True
                img.append(w)
                rec(i + 1)
                img.pop()
                used[w] = False

    rec(0)
    return count


# ---------------------------------------------------------------------------- sampled queries


def sample_query(
    indptr: np.ndarray, indices: np.ndarray, k: int, rng: np.random.Generator, *, dense: bool
) -> tuple[list[int], Edges]:
    """A ``k``-node query from a random walk on the graph: ``(data nodes, edges)`` with the
    edges over positions ``0..k-1`` of ``data nodes``. Dense: every graph edge among the
    nodes (induced); sparse: only the edges the walk stepped along (connected, tree-like).
    The walk restarts from a fresh random node when it has not grown within 50*k steps."""
    n = len(indptr) - 1
    deg = np.diff(indptr)
    starts = np.flatnonzero(deg >= 2)
    for _ in range(1000):
        v = int(rng.choice(starts))
        nodes = [v]
        pos = {v: 0}
        walk: set[tuple[int, int]] = set()
        steps = 0
        while len(nodes) < k and steps < 50 * k:
            steps += 1
            nb = indices[indptr[v] : indptr[v + 1]]
            w = int(nb[rng.integers(len(nb))])
            if w not in pos:
                pos[w] = len(nodes)
                nodes.append(w)
            walk.add((min(pos[v], pos[w]), max(pos[v], pos[w])))
            v = w
        if len(nodes) == k:
            break
    else:
        raise RuntimeError(f"no {k}-node walk found in a graph of {n} nodes")
    if dense:
        sub = set(nodes)
        edges = []
        for i, u in enumerate(nodes):
            for w in indices[indptr[u] : indptr[u + 1]]:
                w = int(w)
                if w in sub and pos[w] > i:
                    edges.append((i, pos[w]))
        return nodes, _norm(edges)
    return nodes, _norm(walk)


def ball(indptr: np.ndarray, indices: np.ndarray, seeds: list[int], size: int) -> np.ndarray:
    """Up to ``size`` nodes around ``seeds`` (all seeds, then breadth-first, nearest first;
    a layer that would overflow is cut in id order). Sorted node ids."""
    seen = dict.fromkeys(seeds)
    frontier = list(seeds)
    while frontier and len(seen) < size:
        nxt = []
        for u in frontier:
            for w in indices[indptr[u] : indptr[u + 1]]:
                w = int(w)
                if w not in seen:
                    seen[w] = None
                    nxt.append(w)
                    if len(seen) >= size:
                        break
            if len(seen) >= size:
                break
        frontier = nxt
    return np.array(sorted(seen), dtype=np.int64)


def induced_edges(
    indptr: np.ndarray, indices: np.ndarray, nodes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Edges (a < b, renumbered 0..len(nodes)-1 in ``nodes`` order) of the induced subgraph."""
    nodes = np.asarray(nodes, dtype=np.int64)
    n = len(indptr) - 1
    new = np.full(n, -1, dtype=np.int64)
    new[nodes] = np.arange(len(nodes))
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = (new[src] >= 0) & (new[indices] >= 0) & (src < indices)
    return new[src[keep]], new[indices[keep].astype(np.int64)]


# ---------------------------------------------------------------------------- outputs

_FLOAT = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf"


def parse_stmatch(text: str) -> dict | None:
    """STMatch's result line ``printf("%s\\t%f\\t%llu\\n", pattern, ms, count)`` (cu_test.cu):
    ``{"ms", "count"}`` from the last such line, or None."""
    found = None
    for ln in text.splitlines():
        parts = ln.rstrip("\r").split("\t")
        if len(parts) != 3:
            continue
        if re.fullmatch(_FLOAT, parts[1].strip()) and parts[2].strip().isdigit():
            found = {"ms": float(parts[1]), "count": int(parts[2])}
    return found


def parse_cuts(text: str) -> dict | None:
    """cuTS's result line (``src/host_funcs.cu``): ``search`` prints
    ``data<6 spaces>query<6 spaces>ms<6 spaces>count`` (ms through ``cout``: 6 significant
    digits, maybe ``1.23457e+06``); ``search_dfs_bfs_strategy`` (third argument: trunks) prints
    ``data,query,<ms>ms,count``. ``{"ms", "count"}`` from the last such line, or None."""
    found = None
    for ln in text.splitlines():
        ln = ln.strip()
        m = re.fullmatch(rf"(\S+),(\S+),({_FLOAT})ms,(\d+)", ln)
        if m:
            found = {"ms": float(m.group(3)), "count": int(m.group(4))}
            continue
        parts = ln.split()
        if len(parts) == 4 and re.fullmatch(_FLOAT, parts[2]) and parts[3].isdigit():
            found = {"ms": float(parts[2]), "count": int(parts[3])}
    return found
