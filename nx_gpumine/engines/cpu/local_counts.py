"""CPU per-node pattern counts (numba): triangles, directed triangles, squares.

Inputs are CSR arrays of a simple graph without self-loops, each row sorted. The counts are
the integers NetworkX's ``networkx.algorithms.cluster`` functions build their answers from;
the backend turns them into NetworkX's values with the same arithmetic.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["triangle_counts", "directed_triangle_counts", "square_counts"]


@njit(cache=True, inline="always")
def _intersect(a0: int, a1: int, b0: int, b1: int, idx: np.ndarray) -> int:
    c = 0
    i, j = a0, b0
    while i < a1 and j < b1:
        x = idx[i]
        y = idx[j]
        if x == y:
            c += 1
            i += 1
            j += 1
        elif x < y:
            i += 1
        else:
            j += 1
    return c


@njit(cache=True, parallel=True)
def triangle_counts(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``t[v] = sum over neighbours u of |N(v) & N(u)|`` (twice v's triangles).

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR (undirected, no self-loops, sorted rows).

    Returns
    -------
    numpy.ndarray
        int64 ``[n]``.
    """
    n = len(indptr) - 1
    out = np.zeros(n, dtype=np.int64)
    for v in prange(n):
        t = 0
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            t += _intersect(indptr[v], indptr[v + 1], indptr[u], indptr[u + 1], indices)
        out[v] = t
    return out


@njit(cache=True, parallel=True)
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
    n = len(indptr) - 1
    out = np.zeros(n, dtype=np.int64)
    for i in prange(n):
        t = 0
        for e in range(indptr[i], indptr[i + 1]):
            j = indices[e]
            wij = weight[e]
            a = indptr[i]
            b = indptr[j]
            s = 0
            while a < indptr[i + 1] and b < indptr[j + 1]:
                x = indices[a]
                y = indices[b]
                if x == y:
                    s += weight[a] * weight[b]
                    a += 1
                    b += 1
                elif x < y:
                    a += 1
                else:
                    b += 1
            t += wij * s
        out[i] = t
    return out


@njit(cache=True, parallel=True)
def square_counts(indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Squares through each node and the denominator of NetworkX's square clustering.

    With ``c(x)`` = common neighbours of ``v`` and ``x``: squares = ``sum c(x)(c(x)-1) / 2``
    over every ``x != v``; potential = ``sum_u deg(u)(d-1) - d(d-1) - sum_{u in N(v)} c(u)
    - squares``, exactly the terms of ``networkx.square_clustering``.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR (undirected, no self-loops, sorted rows).

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
            nt = 0
            uw = 0
            for e in range(indptr[v], indptr[v + 1]):
                u = indices[e]
                uw += (indptr[u + 1] - indptr[u]) * (d - 1)
                for f in range(indptr[u], indptr[u + 1]):
                    x = indices[f]
                    if x != v:
                        if cnt[x] == 0:
                            touched[nt] = x
                            nt += 1
                        cnt[x] += 1
            tri = 0
            for e in range(indptr[v], indptr[v + 1]):
                tri += cnt[indices[e]]
            sq = 0
            for j in range(nt):
                x = touched[j]
                sq += cnt[x] * (cnt[x] - 1)
                cnt[x] = 0
            sq //= 2
            squares[v] = sq
            potential[v] = uw - d * (d - 1) - tri - sq
    return squares, potential
