"""CPU colour refinement (numba) for the graph-isomorphism search.

Both graphs live in one *union* graph of ``2n`` nodes: ``G1`` is nodes ``0..n-1``, ``G2`` is
nodes ``n..2n-1``. A colouring is a ``uint64`` per node. One refinement round gives every node
the hash of its colour and of the multiset of ``(neighbour colour, edge label, direction)``
(summed hashes, so the order of neighbours does not matter). Rounds repeat until the number of
distinct colours stops growing (the partition is stable) or the two halves' colour multisets
differ (then no isomorphism extends the current individualisation).

Every step is a deterministic function of isomorphism-invariant data, so an isomorphism maps
the colouring of ``G1`` onto that of ``G2`` exactly, hash collisions included: the search stays
complete. A collision can only make the partition coarser (more search), and every mapping the
search proposes is verified edge by edge before it is reported: the search stays sound.

Entry points (the CUDA module :mod:`nx_gpumine.engines.cuda.refine` offers the same ones):
:func:`stable_colours`, :func:`accumulate`, :func:`scan` and :func:`verify`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..refine_hash import GOLDEN, MIX_M1, MIX_M2

__all__ = ["accumulate", "scan", "verify", "stable_colours"]

_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
#: Incremental rounds after an individualisation before switching to full rounds.
_WAVE_ROUNDS = 24


class UnionArrays(NamedTuple):
    """The union graph's adjacency, as the kernels take it (the ``arrays`` of the entry
    points): out-lists sorted within each row with their edge label codes, and the same for
    in-lists (empty for undirected graphs, whose out-lists hold both directions)."""

    out_ptr: np.ndarray
    out_idx: np.ndarray
    out_lab: np.ndarray
    in_ptr: np.ndarray
    in_idx: np.ndarray
    in_lab: np.ndarray


@njit(cache=True, inline="always")
def _mix(x: np.uint64) -> np.uint64:
    """splitmix64 finaliser."""
    x = (x ^ (x >> _S30)) * MIX_M1
    x = (x ^ (x >> _S27)) * MIX_M2
    return x ^ (x >> _S31)


@njit(cache=True)
def _count_distinct(col: np.ndarray, table: np.ndarray, used: np.ndarray) -> int:
    """Distinct values of ``col`` by open addressing (``table`` a power of two long)."""
    mask = np.uint64(len(table) - 1)
    used[:] = False
    count = 0
    for i in range(len(col)):
        c = col[i]
        h = _mix(c ^ GOLDEN) & mask
        while used[h] and table[h] != c:
            h = (h + np.uint64(1)) & mask
        if not used[h]:
            used[h] = True
            table[h] = c
            count += 1
    return count


@njit(cache=True)
def _half_sums(col: np.ndarray, n: int) -> tuple:
    """``(a1, b1, a2, b2)``: the sum and the xor of the colour hashes of each half.

    Equal multisets of colours give equal sums; :func:`_scan` updates them as colours change.
    """
    a1 = np.uint64(0)
    b1 = np.uint64(0)
    a2 = np.uint64(0)
    b2 = np.uint64(0)
    for i in range(n):
        x = _mix(col[i] + GOLDEN)
        a1 += x
        b1 ^= _mix(x)
        y = _mix(col[n + i] + GOLDEN)
        a2 += y
        b2 ^= _mix(y)
    return a1, b1, a2, b2


@njit(cache=True)
def _halves_differ(col: np.ndarray, n: int) -> bool:
    """True when the colour multisets of the two halves certainly differ (two hash sums)."""
    a1, b1, a2, b2 = _half_sums(col, n)
    return a1 != a2 or b1 != b2


@njit(cache=True, inline="always")
def _acc(y: int, g: UnionArrays, col: np.ndarray) -> np.uint64:
    """Order-free hash of ``y``'s neighbourhood: (colour, edge label, direction) summed."""
    acc = np.uint64(0)
    for e in range(g.out_ptr[y], g.out_ptr[y + 1]):
        acc += _mix(col[g.out_idx[e]] * MIX_M1 + np.uint64(g.out_lab[e]) * MIX_M2 + np.uint64(1))
    if len(g.in_ptr) > 0:
        for e in range(g.in_ptr[y], g.in_ptr[y + 1]):
            acc += _mix(col[g.in_idx[e]] * MIX_M2 + np.uint64(g.in_lab[e]) * MIX_M1 + np.uint64(2))
    return acc


@njit(cache=True)
def _refine(
    g: UnionArrays,
    col: np.ndarray,
    n: int,
    table: np.ndarray,
    used: np.ndarray,
    tmp: np.ndarray,
) -> int:
    """Refine ``col`` in place to a stable colouring.

    Returns
    -------
    int
        The number of distinct colours, or -1 when the halves' colour multisets differ.
    """
    N = 2 * n
    if _halves_differ(col, n):
        return -1
    cnt = _count_distinct(col, table, used)
    while True:
        for v in range(N):
            tmp[v] = _mix(col[v] * GOLDEN + _acc(v, g, col))
        for v in range(N):
            col[v] = tmp[v]
        if _halves_differ(col, n):
            return -1
        new = _count_distinct(col, table, used)
        if new == cnt:
            return cnt
        cnt = new


@njit(cache=True)
def verify(
    col: np.ndarray,
    n: int,
    out_ptr: np.ndarray,
    out_idx: np.ndarray,
    out_lab: np.ndarray,
) -> np.ndarray:
    """The colour bijection of a discrete colouring, if it is an isomorphism.

    Parameters
    ----------
    col : numpy.ndarray
        uint64 ``[2n]`` colours, each appearing once per half.
    n : int
        Nodes per graph.
    out_ptr, out_idx, out_lab : numpy.ndarray
        The union's out-adjacency (sorted within each row) and edge label codes.

    Returns
    -------
    numpy.ndarray
        int64 ``[n]``: ``f[i]`` = the ``G2`` node (``0..n-1``) paired with ``G1`` node ``i``,
        or an empty array when that pairing is not an isomorphism.
    """
    o1 = np.argsort(col[:n])
    o2 = np.argsort(col[n:])
    f = np.empty(n, dtype=np.int64)
    for r in range(n):
        if col[o1[r]] != col[n + o2[r]]:
            return np.empty(0, dtype=np.int64)
        f[o1[r]] = o2[r]
    for u in range(n):
        fu = f[u] + n
        if out_ptr[u + 1] - out_ptr[u] != out_ptr[fu + 1] - out_ptr[fu]:
            return np.empty(0, dtype=np.int64)
        for e in range(out_ptr[u], out_ptr[u + 1]):
            t = f[out_idx[e]] + n
            lo = out_ptr[fu]
            hi = out_ptr[fu + 1]
            while lo < hi:  # binary search t in fu's sorted row
                mid = (lo + hi) // 2
                if out_idx[mid] < t:
                    lo = mid + 1
                else:
                    hi = mid
            if lo == out_ptr[fu + 1] or out_idx[lo] != t or out_lab[lo] != out_lab[e]:
                return np.empty(0, dtype=np.int64)
    return f


@njit(cache=True)
def _accumulate(g: UnionArrays, col: np.ndarray) -> np.ndarray:
    N = len(col)
    out = np.empty(N, dtype=np.uint64)
    for y in range(N):
        out[y] = _acc(y, g, col)
    return out


@njit(cache=True, inline="always")
def _stamp(
    idx: np.ndarray,
    lo: int,
    hi: int,
    stamp: np.ndarray,
    tick: int,
    aff: np.ndarray,
    naff: int,
) -> int:
    """Append to ``aff[naff:]`` the nodes of ``idx[lo:hi]`` not stamped ``tick`` yet (stamping
    them); return the new length."""
    for e in range(lo, hi):
        y = idx[e]
        if stamp[y] != tick:
            stamp[y] = tick
            aff[naff] = y
            naff += 1
    return naff


@njit(cache=True)
def _scan(
    g: UnionArrays,
    base: np.ndarray,
    acc_base: np.ndarray,
    n: int,
    v: int,
    cands: np.ndarray,
    start: int,
    depth: int,
    col: np.ndarray,
) -> tuple[int, int]:
    """Incremental refinement after individualising (v, w) for each candidate w.

    With ``c0`` the stable parent colouring ``base`` plus the new mark on ``v`` and ``w``, a
    round sets ``c(y) = c0(y)`` where ``y``'s neighbourhood hash still equals its value under
    ``base`` (``acc_base``), else ``hash(c0(y), neighbourhood hash)``. Only neighbours of the
    nodes changed in the last round can change, so a round costs the degrees of that wave, and
    a wrong candidate usually fails after a few small waves. Once a wave covers a quarter of
    the nodes (or after ``_WAVE_ROUNDS`` rounds), full rounds (:func:`_refine`) finish the
    refinement; they stop when the number of colours no longer grows.
    """
    N = 2 * n
    size = 1
    while size < 2 * N:
        size *= 2
    table = np.empty(size, dtype=np.uint64)
    used = np.zeros(size, dtype=np.bool_)
    c0 = np.empty(N, dtype=np.uint64)
    stamp = np.zeros(N, dtype=np.int64)
    aff = np.empty(N, dtype=np.int64)
    newc = np.empty(N, dtype=np.uint64)
    changed = np.empty(N, dtype=np.int64)
    directed = len(g.in_ptr) > 0
    mark = _mix(np.uint64(depth + 1) * MIX_M2 + base[v])
    tick = 0
    for i in range(start, len(cands)):
        w = cands[i]
        for x in range(N):
            c0[x] = base[x]
            col[x] = base[x]
        c0[v] = mark
        c0[n + w] = mark
        col[v] = mark
        col[n + w] = mark
        # sums of the two halves' colour hashes (equal when the multisets are)
        a1, b1, a2, b2 = _half_sums(col, n)
        changed[0] = v
        changed[1] = n + w
        nchanged = 2
        ok = True
        rounds = 0
        while nchanged > 0:
            tick += 1
            naff = 0
            for j in range(nchanged):
                x = changed[j]
                naff = _stamp(g.out_idx, g.out_ptr[x], g.out_ptr[x + 1], stamp, tick, aff, naff)
                if directed:
                    naff = _stamp(g.in_idx, g.in_ptr[x], g.in_ptr[x + 1], stamp, tick, aff, naff)
            for j in range(naff):
                y = aff[j]
                a = _acc(y, g, col)
                if a == acc_base[y]:
                    newc[j] = c0[y]
                else:
                    newc[j] = _mix(c0[y] * GOLDEN + a)
            nchanged = 0
            for j in range(naff):
                y = aff[j]
                if newc[j] != col[y]:
                    ho = _mix(col[y] + GOLDEN)
                    hn = _mix(newc[j] + GOLDEN)
                    if y < n:
                        a1 += hn - ho
                        b1 ^= _mix(ho) ^ _mix(hn)
                    else:
                        a2 += hn - ho
                        b2 ^= _mix(ho) ^ _mix(hn)
                    col[y] = newc[j]
                    changed[nchanged] = y
                    nchanged += 1
            if a1 != a2 or b1 != b2:
                ok = False
                break
            rounds += 1
            if naff > N // 4 or rounds >= _WAVE_ROUNDS:
                break  # large waves: finish with full rounds (they stop on a stable count)
        if not ok:
            continue
        if nchanged > 0:
            cnt = _refine(g, col, n, table, used, newc)
            if cnt < 0:
                continue
        else:
            cnt = _count_distinct(col, table, used)
        if cnt == n and len(verify(col, n, g.out_ptr, g.out_idx, g.out_lab)) == 0:
            continue  # discrete but not an isomorphism
        return i, cnt
    return -1, 0


def accumulate(arrays: tuple, col: np.ndarray) -> np.ndarray:
    """Every node's neighbourhood hash under colouring ``col`` (uint64 ``[2n]``)."""
    return _accumulate(UnionArrays(*arrays), col)


def stable_colours(arrays: tuple, col: np.ndarray, n: int) -> tuple[np.ndarray, int]:
    """Refine an initial colouring of the union to a stable one.

    Parameters
    ----------
    arrays : tuple
        ``(out_ptr, out_idx, out_lab, in_ptr, in_idx, in_lab)`` of the union (``in_*`` empty
        for undirected graphs, whose out-lists hold both directions).
    col : numpy.ndarray
        uint64 ``[2n]`` initial colours (copied).
    n : int
        Nodes per graph.

    Returns
    -------
    (numpy.ndarray, int)
        The stable colouring and its number of distinct colours (-1: the halves differ).
    """
    col = np.array(col, dtype=np.uint64)
    size = 1
    while size < 4 * max(n, 1):
        size *= 2
    table = np.empty(size, dtype=np.uint64)
    used = np.zeros(size, dtype=np.bool_)
    tmp = np.empty(2 * n, dtype=np.uint64)
    cnt = _refine(UnionArrays(*arrays), col, n, table, used, tmp)
    return col, cnt


def scan(
    arrays: tuple,
    col: np.ndarray,
    acc: np.ndarray,
    n: int,
    v: int,
    cands: np.ndarray,
    start: int,
    depth: int,
) -> tuple[int, np.ndarray | None, int]:
    """Try pairing ``G1`` node ``v`` with each ``G2`` candidate from ``cands[start:]``.

    Each try individualises the pair (one new colour for both), refines, and keeps the first
    candidate whose refinement keeps the halves equal (and, when the colouring became discrete,
    whose colour bijection is an isomorphism).

    Parameters
    ----------
    arrays : tuple
        As in :func:`stable_colours`.
    col : numpy.ndarray
        The current stable colouring (not modified).
    acc : numpy.ndarray
        :func:`accumulate` of ``col``.
    n : int
        Nodes per graph.
    v : int
        ``G1`` node (``0..n-1``).
    cands : numpy.ndarray
        int64 ``G2`` nodes (``0..n-1``) of ``v``'s colour.
    start : int
        First position of ``cands`` to try.
    depth : int
        Search depth (makes the individualised colour unique along a branch).

    Returns
    -------
    (int, numpy.ndarray or None, int)
        Position of the accepted candidate (-1: none), its refined colouring, its number of
        distinct colours (``n``: discrete and verified).
    """
    out = np.empty(2 * n, dtype=np.uint64)
    cands = np.asarray(cands, dtype=np.int64)
    i, cnt = _scan(UnionArrays(*arrays), col, acc, n, v, cands, start, depth, out)
    if i < 0:
        return -1, None, 0
    return i, out, cnt
