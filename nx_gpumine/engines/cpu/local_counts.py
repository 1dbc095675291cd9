"""CPU per-node pattern counts (numba): triangles, directed triangles, squares, maximal cliques.

Inputs are CSR arrays of a simple graph without self-loops, each row sorted. The counts are
the integers NetworkX's ``networkx.algorithms.cluster`` functions build their answers from;
the backend turns them into NetworkX's values with the same arithmetic.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

__all__ = [
    "triangle_counts",
    "directed_triangle_counts",
    "square_counts",
    "maximal_clique_counts",
]


@njit(cache=True, inline="always")
def _intersect(a0: int, a1: int, b0: int, b1: int, idx: np.ndarray, weight: Any) -> int:
    """The common entries of the sorted ``idx[a0:a1]`` and ``idx[b0:b1]``: how many (``weight``
    None), or the sum of ``weight[i] * weight[j]`` over their positions ``i``, ``j``."""
    c = 0
    i, j = a0, b0
    while i < a1 and j < b1:
        x = idx[i]
        y = idx[j]
        if x == y:
            if weight is None:
                c += 1
            else:
                c += weight[i] * weight[j]
            i += 1
            j += 1
        elif x < y:
            i += 1
        else:
            j += 1
    return c


@njit(cache=True, parallel=True)
def _neighbour_sums(indptr: np.ndarray, indices: np.ndarray, weight: Any) -> np.ndarray:
    """Per node ``v``: the sum over its neighbours ``u`` of ``w_vu * |N(v) & N(u)|`` (the
    intersection weighted as :func:`_intersect`; every ``w`` 1 where ``weight`` is None)."""
    n = len(indptr) - 1
    out = np.zeros(n, dtype=np.int64)
    for v in prange(n):
        t = 0
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            s = _intersect(indptr[v], indptr[v + 1], indptr[u], indptr[u + 1], indices, weight)
            if weight is None:
                t += s
            else:
                t += weight[e] * s
        out[v] = t
    return out


@njit(cache=True)
def triangle_counts(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``t[v] = sum over neighbours u of |N(v) & N(u)|`` (twice v's triangles).

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR (undirected, no self-loops, sorted rows).

    Returns
    -------
    numpy.ndarray
        int64 ``[n]``: ``t[v]``.
    """
    return _neighbour_sums(indptr, indices, None)


@njit(cache=True)
def directed_triangle_counts(
    indptr: np.ndarray, indices: np.ndarray, weight: np.ndarray
) -> np.ndarray:
    """``T[i] = sum over j, k of w_ij w_ik w_jk`` with ``w`` = number of directions (0, 1, 2).

    That is NetworkX's count of directed triangles through ``i`` (Fagiolo): every pair of
    predecessor/successor choices of the three sides.

    Parameters
    ----------
    indptr, indices, weight : numpy.ndarray
        CSR of the undirected union (no self-loops, sorted rows) and each entry's weight.

    Returns
    -------
    numpy.ndarray
        int64 ``[n]``.
    """
    return _neighbour_sums(indptr, indices, weight)


@njit(cache=True, inline="always")
def _two_paths(
    indptr: np.ndarray, indices: np.ndarray, v: int, cnt: np.ndarray, touched: np.ndarray
) -> int:
    """Count the 2-paths ``v - u - x`` (``x != v``) by their far end: ``cnt[x] += 1`` each,
    every ``x`` first reached listed in ``touched``; returns how many are listed (``cnt`` all
    0 before)."""
    nt = 0
    for e in range(indptr[v], indptr[v + 1]):
        u = indices[e]
        for f in range(indptr[u], indptr[u + 1]):
            x = indices[f]
            if x != v:
                if cnt[x] == 0:
                    touched[nt] = x
                    nt += 1
                cnt[x] += 1
    return nt


@njit(cache=True, inline="always")
def _pairs_and_reset(cnt: np.ndarray, touched: np.ndarray, nt: int) -> int:
    """``sum C(cnt[x], 2)`` over the ``nt`` nodes ``x`` of :func:`_two_paths` (the 4-cycles
    through ``v``), setting their ``cnt`` back to 0."""
    sq = np.int64(0)
    for j in range(nt):
        x = touched[j]
        sq += cnt[x] * (cnt[x] - 1) // 2
        cnt[x] = 0
    return sq


@njit(cache=True, parallel=True)
def square_counts(indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Squares through each node and the denominator of NetworkX's square clustering.

    With ``c(x)`` = common neighbours of ``v`` and ``x``: squares = ``sum c(x)(c(x)-1) / 2``
    over every ``x != v``; potential = ``sum_u deg(u)(d-1) - d(d-1) - sum_{u in N(v)} c(u)
    - squares``, exactly the terms of ``networkx.square_clustering``.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR, as for :func:`triangle_counts`.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        int64 ``squares[n]`` and ``potential[n]``.
    """
    n = len(indptr) - 1
    squares = np.zeros(n, dtype=np.int64)
    potential = np.zeros(n, dtype=np.int64)
    nchunks = min(max(n, 1), 256)
    for c in prange(nchunks):
        cnt = np.zeros(n, dtype=np.int64)  # common-neighbour counts, reset after each node
        touched = np.empty(n, dtype=np.int64)
        for v in range(c, n, nchunks):
            d = indptr[v + 1] - indptr[v]
            if d - 1 <= 0:
                continue
            nt = _two_paths(indptr, indices, v, cnt, touched)
            uw = 0
            tri = 0
            for e in range(indptr[v], indptr[v + 1]):
                u = indices[e]
                uw += indptr[u + 1] - indptr[u]
                tri += cnt[u]
            uw *= d - 1
            sq = _pairs_and_reset(cnt, touched, nt)
            squares[v] = sq
            potential[v] = uw - d * (d - 1) - tri - sq
    return squares, potential


@njit(cache=True, inline="always")
def _mark(mark: np.ndarray, indptr: np.ndarray, indices: np.ndarray, v: int, on: bool) -> None:
    """Set (``on``) or clear the marks of ``v``'s neighbours."""
    for e in range(indptr[v], indptr[v + 1]):
        mark[indices[e]] = on


@njit(cache=True, inline="always")
def _gather(buf: np.ndarray, lo: int, n: int, at: int, mark: np.ndarray, marked: bool) -> int:
    """Copy the nodes of ``buf[lo:lo + n]`` (-1: a node gone from the set, skipped) whose mark
    is ``marked`` to ``buf[at:]``; returns how many."""
    c = 0
    for q in range(lo, lo + n):
        x = buf[q]
        if x >= 0 and mark[x] == marked:
            buf[at + c] = x
            c += 1
    return c


@njit(cache=True)
def _pivot_candidates(
    buf: np.ndarray,
    p0: int,
    pl: int,
    x0: int,
    xl: int,
    c0: int,
    indptr: np.ndarray,
    indices: np.ndarray,
    mark: np.ndarray,
) -> int:
    """Tomita's pivot: the node of ``P | X`` with most neighbours in ``P``; writes ``P``
    minus the pivot's neighbours at ``buf[c0:]`` and returns how many."""
    best = -1
    pivot = buf[p0]
    for half in range(2):
        a0 = p0 if half == 0 else x0
        al = pl if half == 0 else xl
        for t in range(a0, a0 + al):
            u = buf[t]
            _mark(mark, indptr, indices, u, True)
            c = 0
            for q in range(p0, p0 + pl):
                if mark[buf[q]]:
                    c += 1
            _mark(mark, indptr, indices, u, False)
            if c > best:
                best = c
                pivot = u
    _mark(mark, indptr, indices, pivot, True)
    nc = _gather(buf, p0, pl, c0, mark, False)
    _mark(mark, indptr, indices, pivot, False)
    return nc


@njit(cache=True)
def maximal_clique_counts(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Number of maximal cliques through each node (as ``Counter(chain(*find_cliques(G)))``).

    Bron-Kerbosch with pivoting (Tomita et al.) from each node ``v`` in ascending-degree order,
    over its neighbours later in that order (``P``) and earlier (``X``), so every maximal
    clique is reported once, from its earliest node (Eppstein, Loeffler and Strash). An
    isolated node is a maximal clique of its own, as in NetworkX. The search keeps its own
    stack (frames of ``P``, ``X`` and the candidates in one growing buffer), no recursion.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR, as for :func:`triangle_counts` (isolated nodes count too).

    Returns
    -------
    numpy.ndarray
        int64 ``[n]``: the maximal cliques each node is in.
    """
    n = len(indptr) - 1
    counts = np.zeros(n, dtype=np.int64)
    deg = indptr[1:] - indptr[:-1]
    order = np.argsort(deg, kind="mergesort")
    rank = np.empty(n, dtype=np.int64)
    for i in range(n):
        rank[order[i]] = i
    mark = np.zeros(n, dtype=np.bool_)
    maxdeg = 0
    for v in range(n):
        maxdeg = max(maxdeg, deg[v])
    R = np.empty(maxdeg + 2, dtype=np.int64)
    # per stack level: P start/length, X start/length (X grows in place), candidates
    fp = np.empty(maxdeg + 2, dtype=np.int64)
    fpl = np.empty(maxdeg + 2, dtype=np.int64)
    fx = np.empty(maxdeg + 2, dtype=np.int64)
    fxl = np.empty(maxdeg + 2, dtype=np.int64)
    fc = np.empty(maxdeg + 2, dtype=np.int64)
    fcl = np.empty(maxdeg + 2, dtype=np.int64)
    fci = np.empty(maxdeg + 2, dtype=np.int64)
    buf = np.empty(max(16, 4 * maxdeg + 4), dtype=np.int64)
    for v in order:
        d = indptr[v + 1] - indptr[v]
        if d == 0:
            counts[v] += 1
            continue
        R[0] = v
        # level 0: P = later neighbours, X = earlier ones (room for P's moving into X)
        pl = 0
        for e in range(indptr[v], indptr[v + 1]):
            if rank[indices[e]] > rank[v]:
                buf[pl] = indices[e]
                pl += 1
        x0 = pl
        xl = 0
        for e in range(indptr[v], indptr[v + 1]):
            if rank[indices[e]] < rank[v]:
                buf[x0 + xl] = indices[e]
                xl += 1
        if pl == 0:
            continue  # every neighbour is earlier: the cliques through v were found there
        c0 = x0 + xl + pl
        fp[0] = 0
        fpl[0] = pl
        fx[0] = x0
        fxl[0] = xl
        fc[0] = c0
        fcl[0] = _pivot_candidates(buf, 0, pl, x0, xl, c0, indptr, indices, mark)
        fci[0] = 0
        top = 0
        while top >= 0:
            if fci[top] == fcl[top]:
                top -= 1
                continue
            w = buf[fc[top] + fci[top]]
            fci[top] += 1
            R[top + 1] = w
            p0, pl, x0, xl = fp[top], fpl[top], fx[top], fxl[top]
            base = fc[top] + fcl[top]
            need = base + 3 * pl + xl + 1
            if need > buf.size:
                grown = np.empty(max(2 * buf.size, need), dtype=np.int64)
                grown[: buf.size] = buf
                buf = grown
            # the new frame's P and X: the nodes of this frame's adjacent to w
            _mark(mark, indptr, indices, w, True)
            npl = _gather(buf, p0, pl, base, mark, True)
            nx0 = base + npl
            nxl = _gather(buf, x0, xl, nx0, mark, True)
            _mark(mark, indptr, indices, w, False)
            # w leaves P for X in this frame
            for q in range(p0, p0 + pl):
                if buf[q] == w:
                    buf[q] = -1
            buf[x0 + xl] = w
            fxl[top] = xl + 1
            if npl == 0:
                if nxl == 0:
                    for i in range(top + 2):
                        counts[R[i]] += 1
                continue
            nc0 = nx0 + nxl + npl
            top += 1
            fp[top] = base
            fpl[top] = npl
            fx[top] = nx0
            fxl[top] = nxl
            fc[top] = nc0
            fcl[top] = _pivot_candidates(buf, base, npl, nx0, nxl, nc0, indptr, indices, mark)
            fci[top] = 0
    return counts
