"""CPU graphlet orbit counts per node (numba): the graphlet degree vectors of ORCA, k = 2..4.

:func:`node_orbit_counts` gives each node of an undirected simple graph its induced counts of
the 15 node orbits of the graphlets on 2..4 nodes (ORCA's numbering,
:mod:`nx_gpumine.plan.orbits`). It counts the orbits *non-induced* (subgraphs, a node set and
some of its edges) from a few per-node and per-edge building blocks, then converts to induced
counts with the exact per-orbit linear relation
(:func:`~nx_gpumine.plan.orbits.induced_orbit_counts`).

Building blocks, for a node ``v`` of degree ``d`` (``d_a`` a neighbour ``a``'s degree):
``S_v = sum_a d_a``; ``t_e`` the triangles on each edge (:func:`edge_triangle_counts`, one per
CSR entry, ``t_va`` that of the edge ``v-a``); ``t_v = sum_a t_va / 2`` the triangles at ``v``.
The non-induced counts, ``C`` the binomial coefficient::

    N0  = d                       N1 = S_v - d                  N2 = C(d, 2)      N3 = t_v
    N4  = sum_a (S_a - d_a) - d (d - 1) - 2 t_v                 (v - a - b - c)
    N5  = (d - 1)(S_v - d) - 2 t_v                               (b - v - a - c)
    N6  = sum_a C(d_a - 1, 2)     N7 = C(d, 3)                  (stars)
    N8  = sum over x != v of C(|N(v) & N(x)|, 2)                (4-cycles through v)
    N9  = sum_a (t_a - t_va)      N10 = sum_a t_va (d_a - 2)    N11 = t_v (d - 2)
    N12 = sum over triangles {v, a, b} of (t_ab - 1)            (diamond, v of degree 2)
    N13 = sum_a C(t_va, 2)        N14 = triangles among N(v)    (4-cliques through v)

The diamond-side term walks the edges among ``N(v)`` once each, oriented from lower to
higher (degree, id); the 4-cycle term counts ``v``'s 2-paths by their far end; the 4-cliques
are listed once each in that orientation and credited to their four nodes.

Inputs are CSR arrays of an undirected graph: both directions stored, each row sorted, ids in
``0..n-1``. :func:`node_orbit_counts` checks this and drops self-loop entries (a
:class:`~nx_gpumine.inputs.static_graph.StaticGraph` keeps self-loops apart, so its
``indptr`` / ``indices`` have none). Counts are exact int64; a graph whose counts could pass
64 bits (by a bound on the intermediate sums checked before counting) raises
:class:`~nx_gpumine.errors.CapacityError`.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from ...errors import QueryError
from ...plan.orbits import induced_orbit_counts, n_orbits
from ..checks import overflow_error
from .local_counts import _pairs_and_reset, _two_paths

__all__ = [
    "edge_triangle_counts",
    "loop_free_csr",
    "node_orbit_counts",
    "noninduced_orbit_counts",
]

#: Largest bound on any intermediate count accepted (2**62: a factor 2 of headroom to 2**63 - 1
#: for the few small terms added to the bounded sums).
_SAFE_BOUND = float(2**62)


# ====================================================================== input checks
@njit(cache=True, parallel=True)
def _csr_problems(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Counts of ``[ids out of range, rows not strictly ascending, entries without their mirror,
    self-loop entries]``."""
    n = len(indptr) - 1
    bad_range = 0
    bad_order = 0
    no_mirror = 0
    loops = 0
    for v in prange(n):
        prev = -1
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            if u < 0 or u >= n:
                bad_range += 1
                continue
            if u <= prev:
                bad_order += 1
            prev = u
            if u == v:
                loops += 1
                continue
            lo = indptr[u]
            hi = indptr[u + 1]
            while lo < hi:  # binary search for v in u's row
                mid = (lo + hi) // 2
                if indices[mid] < v:
                    lo = mid + 1
                else:
                    hi = mid
            if lo == indptr[u + 1] or indices[lo] != v:
                no_mirror += 1
    out = np.empty(4, dtype=np.int64)
    out[0] = bad_range
    out[1] = bad_order
    out[2] = no_mirror
    out[3] = loops
    return out


def _checked_csr(indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The arrays as contiguous integers, checked (ValueError naming the fault); returns the
    number of self-loop entries too."""
    indptr = np.ascontiguousarray(indptr)
    indices = np.ascontiguousarray(indices)
    if indptr.ndim != 1 or indices.ndim != 1 or len(indptr) < 1:
        raise ValueError("indptr and indices must be 1-d arrays, indptr of length n + 1 >= 1")
    if not (np.issubdtype(indptr.dtype, np.integer) and np.issubdtype(indices.dtype, np.integer)):
        raise ValueError("indptr and indices must be integer arrays")
    indptr = indptr.astype(np.int64, copy=False)
    if indptr[0] != 0 or indptr[-1] != len(indices) or np.any(np.diff(indptr) < 0):
        raise ValueError("indptr must rise from 0 to len(indices)")
    bad_range, bad_order, no_mirror, loops = (int(x) for x in _csr_problems(indptr, indices))
    if bad_range:
        raise ValueError(f"{bad_range} neighbour ids outside 0..n-1")
    if bad_order:
        raise ValueError(f"{bad_order} CSR entries out of ascending order (or repeated)")
    if no_mirror:
        raise ValueError(f"{no_mirror} CSR entries without their mirror: the graph is directed")
    return indptr, indices, loops


def loop_free_csr(indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The checked CSR (:func:`_checked_csr`) without its self-loop entries, as int64 arrays
    (what every per-node orbit counter of this package reads)."""
    return _counting_csr(indptr, indices, check=True)


def _counting_csr(
    indptr: np.ndarray, indices: np.ndarray, check: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The CSR as contiguous int64 arrays: with ``check`` checked (:func:`_checked_csr`) and
    without its self-loop entries, else taken as valid and loop-free (a counter's ``check``)."""
    if check:
        indptr, indices, loops = _checked_csr(indptr, indices)
        if loops:
            indptr, indices, _keep = _without_loops(indptr, indices)
    return (np.ascontiguousarray(indptr, dtype=np.int64),
            np.ascontiguousarray(indices, dtype=np.int64))  # fmt: skip


def _without_loops(indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, ...]:
    """The CSR less its self-loop entries, and the mask of the kept entries."""
    n = len(indptr) - 1
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = indices != rows
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows[keep], minlength=n), out=ptr[1:])
    return ptr, indices[keep], keep


def _chunks(n: int) -> int:
    """Strided node chunks of the parallel loops: a few per thread, for balance."""
    return max(1, min(n, 4 * numba.get_num_threads()))


# ====================================================================== edge triangles
@njit(cache=True, parallel=True)
def _edge_triangles(indptr: np.ndarray, indices: np.ndarray, nchunks: int) -> np.ndarray:
    """``t[e] = |N(v) & N(u)|`` for every entry ``e = (v, u)``.

    Each undirected edge is counted once, at its endpoint later in (degree, id) order: that
    endpoint's neighbours are marked, the other endpoint's (shorter) row is scanned for marks,
    and a binary search there finds the mirror entry. Writes never collide: an entry and its
    mirror belong to the edge, the edge to one node, the node to one chunk.
    """
    n = len(indptr) - 1
    t = np.zeros(len(indices), dtype=np.int64)
    for c in prange(nchunks):
        mark = np.zeros(n, dtype=np.bool_)
        for v in range(c, n, nchunks):
            dv = indptr[v + 1] - indptr[v]
            for e in range(indptr[v], indptr[v + 1]):
                mark[indices[e]] = True
            for e in range(indptr[v], indptr[v + 1]):
                u = indices[e]
                du = indptr[u + 1] - indptr[u]
                if du > dv or (du == dv and u > v):
                    continue  # the edge is u's
                s = np.int64(0)
                for f in range(indptr[u], indptr[u + 1]):  # branch-free
                    s += np.int64(mark[indices[f]])
                lo = indptr[u]
                hi = indptr[u + 1]
                while lo < hi:  # the mirror entry (u, v): binary search in u's row
                    mid = (lo + hi) // 2
                    if indices[mid] < v:
                        lo = mid + 1
                    else:
                        hi = mid
                t[e] = s
                t[lo] = s
            for e in range(indptr[v], indptr[v + 1]):
                mark[indices[e]] = False
    return t


def edge_triangle_counts(indptr: np.ndarray, indices: np.ndarray, check: bool = True) -> np.ndarray:
    """Triangles on each edge: ``t[e] = |N(v) & N(u)|`` for each CSR entry ``e = (v, u)``.

    Each undirected edge is intersected once (at its endpoint of larger degree, scanning the
    other's row against marks) and both of its entries are written.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR of an undirected graph (both directions, sorted rows, no self-loops).
    check : bool
        Check the CSR first (ids in range, rows strictly ascending, every entry mirrored; an
        ``O(m log d)`` pass). Self-loop entries, if any, are then ignored (their count is 0).
        Pass False for arrays known valid without self-loops (a ``StaticGraph``'s).

    Returns
    -------
    numpy.ndarray
        int64 ``[len(indices)]``.

    Raises
    ------
    ValueError
        The CSR is not that of an undirected graph (with ``check``).

    Examples
    --------
    >>> import numpy as np
    >>> edge_triangle_counts(np.array([0, 2, 4, 6]), np.array([1, 2, 0, 2, 0, 1])).tolist()
    [1, 1, 1, 1, 1, 1]
    """
    if not check:
        n = len(indptr) - 1
        return _edge_triangles(indptr, indices, _chunks(n))
    indptr, indices, loops = _checked_csr(indptr, indices)
    n = len(indptr) - 1
    if not loops:
        return _edge_triangles(indptr, indices, _chunks(n))
    ptr, idx, keep = _without_loops(indptr, indices)
    t = np.zeros(len(indices), dtype=np.int64)
    t[keep] = _edge_triangles(ptr, idx, _chunks(n))
    return t


# ====================================================================== per-node blocks
@njit(cache=True, parallel=True)
def _node_sums(indptr: np.ndarray, indices: np.ndarray, t: np.ndarray) -> tuple:
    """Per node: degree ``d``, ``S = sum of neighbour degrees``, triangles ``t_v``, and (as
    float64, for the overflow bound) ``Q = sum of squared neighbour degrees``."""
    n = len(indptr) - 1
    deg = np.empty(n, dtype=np.int64)
    for v in prange(n):
        deg[v] = indptr[v + 1] - indptr[v]
    s = np.zeros(n, dtype=np.int64)
    tri = np.zeros(n, dtype=np.int64)
    q = np.zeros(n, dtype=np.float64)
    for v in prange(n):
        a = 0
        b = 0
        f = 0.0
        for e in range(indptr[v], indptr[v + 1]):
            du = deg[indices[e]]
            a += du
            b += t[e]
            f += float(du) * float(du)
        s[v] = a
        tri[v] = b // 2
        q[v] = f
    return deg, s, tri, q


@njit(cache=True, inline="always")
def _later(deg: np.ndarray, u: int, v: int) -> bool:
    """Whether ``u`` comes after ``v`` in (degree, id) order."""
    return deg[u] > deg[v] or (deg[u] == deg[v] and u > v)


@njit(cache=True, parallel=True)
def _oriented(indptr: np.ndarray, indices: np.ndarray, deg: np.ndarray) -> tuple:
    """Out-CSR of the orientation from lower to higher (degree, id): ``optr``, the targets
    ``oidx`` and each out-entry's position ``opos`` in the full CSR (to read ``t``)."""
    n = len(indptr) - 1
    cnt = np.zeros(n, dtype=np.int64)
    for v in prange(n):
        c = 0
        for e in range(indptr[v], indptr[v + 1]):
            c += _later(deg, indices[e], v)
        cnt[v] = c
    optr = np.zeros(n + 1, dtype=np.int64)
    for v in range(n):
        optr[v + 1] = optr[v] + cnt[v]
    oidx = np.empty(optr[n], dtype=np.int64)
    opos = np.empty(optr[n], dtype=np.int64)
    for v in prange(n):
        k = optr[v]
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            if _later(deg, u, v):
                oidx[k] = u
                opos[k] = e
                k += 1
    return optr, oidx, opos


@njit(cache=True, parallel=True)
def _noninduced(
    indptr: np.ndarray,
    indices: np.ndarray,
    t: np.ndarray,
    sums: tuple,
    orient: tuple,
    k: int,
    nchunks: int,
) -> np.ndarray:
    """The non-induced orbit counts ``[n, 1 | 4 | 15]`` (formulas: the module docstring), all
    but column 14 (the 4-cliques, :func:`_clique4`), left 0.

    ``sums`` = :func:`_node_sums`'s ``(deg, S, t_v, Q)``; ``orient`` = :func:`_oriented`'s
    arrays (unused below ``k`` = 4).
    """
    deg, s, tri, _q = sums
    optr, oidx, opos = orient
    n = len(indptr) - 1
    width = 1 if k == 2 else (4 if k == 3 else 15)
    out = np.zeros((n, width), dtype=np.int64)
    for c in prange(nchunks):
        if k >= 4:
            markv = np.zeros(n, dtype=np.bool_)  # N(v)
            cnt = np.zeros(n, dtype=np.int64)  # 2-paths v - a - x, by x
            touched = np.empty(n, dtype=np.int64)
        else:
            markv = np.zeros(0, dtype=np.bool_)
            cnt = np.zeros(0, dtype=np.int64)
            touched = cnt
        for v in range(c, n, nchunks):
            d = deg[v]
            out[v, 0] = d
            if k == 2:
                continue
            tv = tri[v]
            out[v, 1] = s[v] - d
            out[v, 2] = d * (d - 1) // 2
            out[v, 3] = tv
            if k == 3 or d == 0:
                continue
            n4 = np.int64(0)
            n6 = np.int64(0)
            n9 = np.int64(0)
            n10 = np.int64(0)
            n13 = np.int64(0)
            for e in range(indptr[v], indptr[v + 1]):
                a = indices[e]
                da = deg[a]
                tva = t[e]
                n4 += s[a] - da
                n6 += (da - 1) * (da - 2) // 2
                n9 += tri[a] - tva
                n10 += tva * (da - 2)
                n13 += tva * (tva - 1) // 2
                markv[a] = True
            out[v, 4] = n4 - d * (d - 1) - 2 * tv
            out[v, 5] = (d - 1) * (s[v] - d) - 2 * tv
            out[v, 6] = n6
            out[v, 7] = d * (d - 1) * (d - 2) // 6
            out[v, 9] = n9
            out[v, 10] = n10
            out[v, 11] = tv * (d - 2)
            out[v, 13] = n13
            # 4-cycles: 2-paths v - a - x grouped by x
            nt = _two_paths(indptr, indices, v, cnt, touched)
            out[v, 8] = _pairs_and_reset(cnt, touched, nt)
            # the edges a -> b among N(v) (oriented): the triangles {v, a, b}
            n12 = np.int64(0)
            if tv > 0:
                for e in range(indptr[v], indptr[v + 1]):
                    a = indices[e]
                    for g in range(optr[a], optr[a + 1]):
                        if markv[oidx[g]]:
                            n12 += t[opos[g]] - 1
            out[v, 12] = n12
            for e in range(indptr[v], indptr[v + 1]):
                markv[indices[e]] = False
    return out


@njit(cache=True, parallel=True)
def _clique4(optr: np.ndarray, oidx: np.ndarray, nchunks: int) -> np.ndarray:
    """4-cliques through each node.

    Every 4-clique ``a -> b -> x -> y`` is found once, from its first node ``a`` in (degree, id)
    order (:func:`_oriented`): ``C = N+(a) & N+(b)``, then ``y`` in ``N+(x) & C`` for each ``x``
    in ``C``. Its four nodes are credited in the row of its chunk in an accumulator
    (``[nchunks, n]``: one chunk per thread keeps it small), summed at the end.
    """
    n = len(optr) - 1
    acc = np.zeros((nchunks, n), dtype=np.int64)
    for c in prange(nchunks):
        mark = np.zeros(n, dtype=np.bool_)  # N+(a)
        common = np.zeros(n, dtype=np.bool_)  # N+(a) & N+(b)
        lst = np.empty(n, dtype=np.int64)
        for a in range(c, n, nchunks):
            for g in range(optr[a], optr[a + 1]):
                mark[oidx[g]] = True
            ka = 0
            for g in range(optr[a], optr[a + 1]):
                b = oidx[g]
                nl = 0
                for h in range(optr[b], optr[b + 1]):
                    x = oidx[h]
                    if mark[x]:
                        common[x] = True
                        lst[nl] = x
                        nl += 1
                kb = 0
                for j in range(nl):
                    x = lst[j]
                    kx = 0
                    for h in range(optr[x], optr[x + 1]):  # branch-free: most are hits
                        y = oidx[h]
                        hit = np.int64(common[y])
                        kx += hit
                        acc[c, y] += hit
                    acc[c, x] += kx
                    kb += kx
                acc[c, b] += kb
                ka += kb
                for j in range(nl):
                    common[lst[j]] = False
            acc[c, a] += ka
            for g in range(optr[a], optr[a + 1]):
                mark[oidx[g]] = False
    out = np.zeros(n, dtype=np.int64)
    for x in prange(n):
        s = np.int64(0)
        for i in range(nchunks):
            s += acc[i, x]
        out[x] = s
    return out


def _check_bound(indptr: np.ndarray, indices: np.ndarray, sums: tuple) -> None:
    """Raise CapacityError unless every intermediate sum of :func:`_noninduced` stays below
    :data:`_SAFE_BOUND`: each is at most ``d^3``, ``Q_v``, ``d S_v`` or ``W_v = sum_a S_a``."""
    deg, s, _tri, q = sums
    if len(deg) == 0:
        return
    d = deg.astype(np.float64)
    sf = s.astype(np.float64)
    run = np.zeros(len(indices) + 1, dtype=np.float64)
    np.cumsum(sf[indices], out=run[1:])
    w = run[indptr[1:]] - run[indptr[:-1]]  # W_v = sum_a S_a (to float64 precision)
    bound = max(float((d**3).max()), float(q.max()), float((d * sf).max()), float(w.max()))
    if bound >= _SAFE_BOUND:
        raise overflow_error(what="graphlet orbit count")


def noninduced_orbit_counts(indptr: np.ndarray, indices: np.ndarray, k: int = 4) -> np.ndarray:
    """Non-induced per-node orbit counts (subgraphs, not node sets) of the graphlets on 2..k
    nodes.

    ``N[v, o]``: the subgraphs (a node set and a subset of its edges, spanning it) isomorphic
    to orbit ``o``'s graphlet with ``v`` in ``o`` (:mod:`nx_gpumine.plan.orbits`).

    Parameters
    ----------
    indptr, indices, k
        As in :func:`node_orbit_counts`.

    Returns
    -------
    numpy.ndarray
        int64 ``[n, n_orbits(k)]`` (1, 4 or 15 columns).

    Raises
    ------
    ValueError, QueryError, CapacityError
        As in :func:`node_orbit_counts`.
    """
    width = n_orbits(k)
    if width > n_orbits(4):
        raise QueryError("this engine counts k <= 4; k = 5 is orbit_equations5.node_orbit_counts5")
    indptr, indices = loop_free_csr(indptr, indices)
    n = len(indptr) - 1
    nchunks = _chunks(n)
    if k == 2:
        t = np.zeros(len(indices), dtype=np.int64)
    else:
        t = _edge_triangles(indptr, indices, nchunks)
    sums = _node_sums(indptr, indices, t)
    _check_bound(indptr, indices, sums)
    if k >= 4:
        orient = _oriented(indptr, indices, sums[0])
    else:
        empty = np.zeros(1, dtype=np.int64)
        orient = (empty, empty[:0], empty[:0])
    out = _noninduced(indptr, indices, t, sums, orient, int(k), nchunks)
    if k >= 4:
        threads = max(1, min(n, numba.get_num_threads()))
        out[:, 14] = _clique4(orient[0], orient[1], threads)
    assert out.shape == (n, width)
    return out


def node_orbit_counts(indptr: np.ndarray, indices: np.ndarray, k: int = 4) -> np.ndarray:
    """Per-node graphlet orbit counts (graphlet degree vectors, ORCA's induced counts).

    ``I[v, o]``: the node sets ``S`` containing ``v`` (``|S|`` = the size of orbit ``o``'s
    graphlet) whose induced subgraph is that graphlet with ``v`` in ``o``. Orbits in ORCA's
    numbering (:func:`nx_gpumine.plan.orbits.orbits`): 0 degree; 1, 2 wedge end and centre;
    3 triangle; 4..14 the 4-node graphlets' orbits.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR of an undirected graph (both directions, sorted rows; self-loop entries
        are ignored), e.g. a ``StaticGraph``'s ``indptr`` and ``indices``.
    k : int
        Largest graphlet size: 2, 3 or 4.

    Returns
    -------
    numpy.ndarray
        int64 ``[n, n_orbits(k)]``: 1 (``k`` = 2), 4 (``k`` = 3) or 15 (``k`` = 4) columns.

    Raises
    ------
    ValueError
        The CSR is not that of an undirected graph.
    QueryError
        Another ``k`` (5 included: :mod:`~nx_gpumine.engines.cpu.orbit_counts5`).
    CapacityError
        A count could pass 64 bits.

    Examples
    --------
    >>> import numpy as np
    >>> node_orbit_counts(np.array([0, 2, 4, 6]), np.array([1, 2, 0, 2, 0, 1]), 3).tolist()
    [[2, 0, 0, 1], [2, 0, 0, 1], [2, 0, 0, 1]]
    """
    return induced_orbit_counts(noninduced_orbit_counts(indptr, indices, k), k)
