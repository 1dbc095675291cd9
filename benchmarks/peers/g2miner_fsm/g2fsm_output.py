"""Reading G2Miner FSM's output and comparing its patterns with ours.

G2Miner's ``fsm_omp_base`` / ``fsm_gpu_base`` print, as published, only
``Number of frequent patterns: N`` (all levels, 1..k edges, together) and their timers
(``runtime [omp_base] = X sec``, ``runtime [gpu_base] = X sec``). With the bench's patch
``patches/02-fsm-print-patterns.patch`` and ``G2_FSM_PRINT=1`` they also print one line per
frequent pattern:

- ``fsm_omp_base``: ``FSM_PATTERN <edges> f,t,fl,tl f,t,fl,tl ...``, the pattern's minimum DFS
  code (gSpan): DFS vertex ids ``f -> t`` and labels; the first element carries both labels,
  a forward element (``f < t``, ``t`` new) the label of ``t``, other labels are 255
  (``label_t(-1)``). No support: its support test stops once every domain has ``minsup``
  vertices.
- ``fsm_gpu_base``: ``FSM_GPU_PATTERN 1 a b S`` (edge, labels ``a <= b``) and
  ``FSM_GPU_PATTERN 2 c x y S`` (wedge, centre ``c``, leaves ``x >= y``), ``S`` its exact MNI
  (popcounts of full domain bitmaps).

Labels printed are G2Miner's 1-based codes; ``codes[c - 1]`` maps them back (see
``g2miner_labelled.write_g2miner``). :func:`canonical_key` makes patterns comparable:
the lexicographically least ``(labels, sorted edges)`` over all node orders.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

Key = tuple[tuple, tuple]

_COUNT = re.compile(r"^Number of frequent patterns: (\d+)", re.M)
_RUNTIME = re.compile(r"^runtime \[(gpu_base|omp_base)\] = ([0-9.eE+-]+) sec", re.M)
_THREADS = re.compile(r"^OpenMP FSM \((\d+) threads\)", re.M)


def canonical_key(labels: Sequence, edges: Sequence[tuple[int, int]]) -> Key:
    """``(labels, edges)`` of the node order giving the least such pair: equal exactly for
    isomorphic labelled patterns (brute force, fine for the <= 4 nodes mined here)."""
    k = len(labels)
    best = None
    for perm in itertools.permutations(range(k)):
        lab = [None] * k
        for v, p in enumerate(perm):
            lab[p] = labels[v]
        es = tuple(sorted((min(perm[a], perm[b]), max(perm[a], perm[b])) for a, b in edges))
        cand = (tuple(lab), es)
        if best is None or cand < best:
            best = cand
    return best


def dfs_code_pattern(code: Sequence[tuple[int, int, int, int]]) -> tuple[list, list]:
    """Node labels (G2Miner codes) and edges of a gSpan DFS code ``[(from, to, fl, tl), ...]``."""
    labels: dict[int, int] = {}
    edges = []
    for i, (f, t, fl, tl) in enumerate(code):
        if i == 0:
            labels[f], labels[t] = fl, tl
        elif f < t:
            if t in labels:
                raise ValueError(f"forward element to a known vertex in {code}")
            labels[t] = tl
        edges.append((f, t))
    n = len(labels)
    if sorted(labels) != list(range(n)):
        raise ValueError(f"DFS code vertices not 0..{n - 1}: {code}")
    return [labels[v] for v in range(n)], edges


def parse_run(text: str, codes: Sequence | None = None) -> dict:
    """What a G2Miner FSM run printed: ``count`` (its ``Number of frequent patterns``),
    ``runtime_ms`` (its own timer), ``threads`` (OpenMP), ``patterns`` ({key: support or
    None}) and ``duplicates`` (pattern lines naming an already seen pattern); ``codes`` maps
    label codes back to label values (identity when None)."""

    def lab(c: int):
        return codes[c - 1] if codes is not None else c

    out: dict = {"count": None, "runtime_ms": None, "threads": None, "patterns": {}}
    m = _COUNT.findall(text)
    if m:
        out["count"] = int(m[-1])
    m = _RUNTIME.findall(text)
    if m:
        out["runtime_ms"] = float(m[-1][1]) * 1000.0
    m = _THREADS.findall(text)
    if m:
        out["threads"] = int(m[-1])
    dup = 0
    pats: dict = out["patterns"]
    for line in text.splitlines():
        if line.startswith("FSM_PATTERN "):
            words = line.split()
            code = [tuple(int(x) for x in w.split(",")) for w in words[2:]]
            if len(code) != int(words[1]):
                raise ValueError(f"bad pattern line {line!r}")
            labels, edges = dfs_code_pattern(code)
            key, support = canonical_key([lab(c) for c in labels], edges), None
        elif line.startswith("FSM_GPU_PATTERN "):
            w = [int(x) for x in line.split()[1:]]
            if w[0] == 1 and len(w) == 4:
                key = canonical_key([lab(w[1]), lab(w[2])], [(0, 1)])
            elif w[0] == 2 and len(w) == 5:
                key = canonical_key([lab(w[1]), lab(w[2]), lab(w[3])], [(0, 1), (0, 2)])
            else:
                raise ValueError(f"bad pattern line {line!r}")
            support = w[-1]
        else:
            continue
        if key in pats:
            dup += 1
        pats[key] = support
    out["duplicates"] = dup
    return out


def compare(ours: dict, theirs: dict, supports: bool) -> dict:
    """``ours`` and ``theirs`` ({key: support}) compared: ``equal_set``, ``missing`` (ours
    only), ``extra`` (theirs only), and with ``supports`` ``equal_supports`` and the first
    differing supports."""
    a, b = set(ours), set(theirs)
    res = {
        "equal_set": a == b,
        "ours_only": len(a - b),
        "theirs_only": len(b - a),
        "ours_only_examples": [fmt_key(k) + f" s={ours[k]}" for k in sorted(a - b)[:5]],
        "theirs_only_examples": [fmt_key(k) for k in sorted(b - a)[:5]],
    }
    if supports:
        diff = [k for k in sorted(a & b) if ours[k] != theirs[k]]
        res["equal_supports"] = a == b and not diff
        res["support_diff_examples"] = [
            f"{fmt_key(k)} ours={ours[k]} theirs={theirs[k]}" for k in diff[:5]
        ]
    return res


def fmt_key(key: Key) -> str:
    """A key as text: ``"a b c | 0-1 0-2"``."""
    labels, edges = key
    return " ".join(map(str, labels)) + " | " + " ".join(f"{a}-{b}" for a, b in edges)


def self_test() -> None:
    """The parsers on hand-written lines (facebook-like output, both apps)."""
    omp = "\n".join(
        [
            "OpenMP FSM (16 threads)",
            "FSM_PATTERN 1 0,1,1,2",
            "FSM_PATTERN 2 0,1,1,2 1,2,255,1",
            "FSM_PATTERN 3 0,1,1,1 1,2,255,1 2,0,255,255",
            "runtime [omp_base] = 0.5 sec",
            "Number of frequent patterns: 3",
        ]
    )
    r = parse_run(omp, codes=["x", "y"])
    assert r["count"] == 3 and r["threads"] == 16 and r["runtime_ms"] == 500.0, r
    want = {
        canonical_key(["x", "y"], [(0, 1)]),
        canonical_key(["y", "x", "x"], [(0, 1), (0, 2)]),  # path x-y-x, centre y
        canonical_key(["x"] * 3, [(0, 1), (1, 2), (0, 2)]),  # triangle
    }
    assert set(r["patterns"]) == want, r["patterns"]
    gpu = "FSM_GPU_PATTERN 1 1 2 40\nFSM_GPU_PATTERN 2 2 1 1 30\nruntime [gpu_base] = 0.001 sec"
    r = parse_run(gpu + "\nNumber of frequent patterns: 2\n", codes=["x", "y"])
    assert r["patterns"] == {
        canonical_key(["x", "y"], [(1, 0)]): 40,
        canonical_key(["x", "y", "x"], [(1, 0), (1, 2)]): 30,
    }, r
    assert canonical_key([1, 2, 1], [(0, 1), (1, 2)]) == canonical_key([2, 1, 1], [(0, 1), (0, 2)])
    assert canonical_key([1, 2, 1], [(0, 1), (1, 2)]) != canonical_key([1, 1, 2], [(0, 1), (1, 2)])
    c = compare({want.pop(): 5}, {}, supports=True)
    assert not c["equal_set"] and c["ours_only"] == 1
    print("g2fsm_output self-test ok")


if __name__ == "__main__":
    self_test()
