"""Brute-force references for the reliability and fuzz tests (Python ints: no overflow)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence


def motif_matches(
    src: Sequence[int],
    dst: Sequence[int],
    time: Sequence[int | float],
    edges: Sequence[tuple[int, int]],
    delta: int | float | None = None,
    gaps: Sequence[int | float | None] | None = None,
    anti_edges: Sequence[tuple[int, int, int, int | float | None]] = (),
) -> list[tuple[int, ...]]:
    """Every match (tuple of input rows) of a temporal motif, strict time order.

    Semantics of ``docs/temporal.md``: ``t_1 < t_2 < ...``, ``t_l - t_1 <= delta``,
    ``t_{i+1} - t_i <= gaps[i]``, node map injective, anti-edge ``(a, b, after, within)``: no
    edge ``f(a) -> f(b)`` with time in ``(t_after, t_after + within]`` (``within=None``: up to
    ``t_1 + delta``, unbounded without ``delta``).
    """
    m = len(src)
    times = [int(x) if float(x).is_integer() else float(x) for x in time]
    k = 1 + max(max(e) for e in edges)
    out = []
    for rows in itertools.product(range(m), repeat=len(edges)):
        ts = [times[r] for r in rows]
        if any(ts[i] >= ts[i + 1] for i in range(len(ts) - 1)):
            continue
        if delta is not None and ts[-1] - ts[0] > delta:
            continue
        if gaps is not None and any(
            g is not None and ts[i + 1] - ts[i] > g for i, g in enumerate(gaps)
        ):
            continue
        f: dict[int, int] = {}
        ok = True
        for (a, b), r in zip(edges, rows, strict=True):
            for x, v in ((a, src[r]), (b, dst[r])):
                if f.setdefault(x, v) != v:
                    ok = False
        if not ok or len(set(f.values())) != k:
            continue
        for a, b, after, within in anti_edges:
            lo = ts[after]
            if within is not None:
                hi = lo + within
            elif delta is not None:
                hi = ts[0] + delta
            else:
                hi = None
            for r in range(m):
                if src[r] == f[a] and dst[r] == f[b] and times[r] > lo:
                    if hi is None or times[r] <= hi:
                        ok = False
        if ok:
            out.append(tuple(rows))
    return out
