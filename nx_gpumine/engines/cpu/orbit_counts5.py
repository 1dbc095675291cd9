"""CPU graphlet orbit counts per node for k = 5 (numba): ORCA's 73-orbit graphlet degree vectors.

:func:`~nx_gpumine.engines.cpu.orbit_equations5.node_orbit_counts5` gives each node of an
undirected simple graph its induced counts of the 73 node orbits of the graphlets on 2..5 nodes
(ORCA's numbering, :mod:`nx_gpumine.plan.orbits`): orbits 0..14 from the k = 4 engine, 15..72
from connected 4-node sets completed by counting (after Hočevar & Demšar 2014, as ORCA does;
about ORCA's speed). :func:`orbit_counts_5node` here, the reference the tests check it against,
counts orbits 15..72
directly: every connected induced 5-node subgraph is enumerated exactly once by ESU (Wernicke
2006): the smallest node id is the root, and the set grows by nodes of larger id taken from an
extension list that receives, with each added node, its neighbours outside the current set's
closed neighbourhood. Each subgraph's 10-bit adjacency mask (binary searches in the sorted CSR
rows, pairs in :data:`~nx_gpumine.plan.orbits.PAIRS5` order) indexes
:func:`~nx_gpumine.plan.orbits.orbit_lookup5`, which gives each of its five nodes its orbit.

Roots are processed in batches from Python (so a KeyboardInterrupt lands between batches), each
batch in parallel over the threads (``prange``), each thread adding into its own row of an
accumulator ``[threads, n, 58]`` that is summed at the end. A count grows by one per enumerated
subgraph, so int64 cannot overflow in any run that finishes.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from ...plan.orbits import orbit_lookup5
from .orbit_counts import _counting_csr
from .walk_shared import lower_bound

__all__ = ["orbit_counts_5node"]

#: Orbits of the 5-node graphlets (15..72).
_N5 = 58


@njit(cache=True, inline="always")
def _adjacent(indptr: np.ndarray, indices: np.ndarray, x: int, y: int) -> bool:
    """Whether ``y`` is in ``x``'s sorted row (binary search in the shorter of the two rows)."""
    if indptr[x + 1] - indptr[x] > indptr[y + 1] - indptr[y]:
        x, y = y, x
    p = lower_bound(indices, indptr[x], indptr[x + 1], y)
    return p < indptr[x + 1] and indices[p] == y


@njit(cache=True, inline="always")
def _cover(indptr: np.ndarray, indices: np.ndarray, w: int, cover: np.ndarray, step: int) -> None:
    """Add ``step`` to ``cover`` on ``w`` and its neighbours (the closed neighbourhood)."""
    cover[w] += step
    for e in range(indptr[w], indptr[w + 1]):
        cover[indices[e]] += step


@njit(cache=True, inline="always")
def _extend(
    indptr: np.ndarray,
    indices: np.ndarray,
    src: np.ndarray,
    start: int,
    stop: int,
    w: int,
    root: int,
    cover: np.ndarray,
    dst: np.ndarray,
) -> int:
    """``dst`` = ``src[start:stop]`` then ``w``'s exclusive neighbours above ``root`` (none in
    the closed neighbourhood of the current set, ``cover`` 0); returns its length."""
    m = 0
    for i in range(start, stop):
        dst[m] = src[i]
        m += 1
    for e in range(indptr[w], indptr[w + 1]):
        u = indices[e]
        if u > root and cover[u] == 0:
            dst[m] = u
            m += 1
    return m


@njit(cache=True, inline="always")
def _joins(indptr: np.ndarray, indices: np.ndarray, prev: tuple, w: int) -> int:
    """The mask bits of the edges from ``w``, the set's node ``j = len(prev)``, to the nodes
    ``prev`` before it: pair ``(i, j)`` is bit ``i * (7 - i) // 2 + j - 1`` (``PAIRS5``)."""
    j = len(prev)
    b = 0
    for i in range(j):
        if _adjacent(indptr, indices, prev[i], w):
            b |= 1 << (i * (7 - i) // 2 + j - 1)
    return b


@njit(cache=True, inline="always")
def _credit(acc: np.ndarray, t: int, lut: np.ndarray, mask: int, nodes: np.ndarray) -> None:
    """Add one to each of the five ``nodes``' orbit (``lut[mask]``) in thread row ``t``."""
    for i in range(5):
        acc[t, nodes[i], lut[mask, i] - 15] += 1


@njit(cache=True, parallel=True)
def _esu5(
    indptr: np.ndarray,
    indices: np.ndarray,
    lut: np.ndarray,
    lo: int,
    hi: int,
    acc: np.ndarray,
    cover: np.ndarray,
    ext: np.ndarray,
) -> None:
    """Every connected induced 5-node subgraph whose smallest node is in ``lo..hi-1``, credited
    to ``acc[thread, node, orbit - 15]``.

    Thread ``t`` takes the roots ``lo + t``, ``lo + t + T``, ...; ``cover[t]`` (zeros on entry
    and exit) counts, per node, the current set's members it is or neighbours; ``ext[t, j]`` is
    the extension list at depth ``j``. Mask bits follow ``PAIRS5``: (0,1) 0, (0,2) 1, (0,3) 2,
    (0,4) 3, (1,2) 4, (1,3) 5, (1,4) 6, (2,3) 7, (2,4) 8, (3,4) 9 (position 0 the root).
    """
    nthreads = acc.shape[0]
    for t in prange(nthreads):
        cov = cover[t]
        e1 = ext[t, 0]
        e2 = ext[t, 1]
        e3 = ext[t, 2]
        e4 = ext[t, 3]
        nodes = np.empty(5, dtype=np.int64)
        for r in range(lo + t, hi, nthreads):
            nodes[0] = r
            m1 = _extend(indptr, indices, e1, 0, 0, r, r, cov, e1)
            _cover(indptr, indices, r, cov, 1)
            for i1 in range(m1):
                w1 = e1[i1]
                nodes[1] = w1
                m2 = _extend(indptr, indices, e1, i1 + 1, m1, w1, r, cov, e2)
                _cover(indptr, indices, w1, cov, 1)
                for i2 in range(m2):
                    w2 = e2[i2]
                    nodes[2] = w2
                    b2 = 1 | _joins(indptr, indices, (r, w1), w2)
                    m3 = _extend(indptr, indices, e2, i2 + 1, m2, w2, r, cov, e3)
                    _cover(indptr, indices, w2, cov, 1)
                    for i3 in range(m3):
                        w3 = e3[i3]
                        nodes[3] = w3
                        b3 = b2 | _joins(indptr, indices, (r, w1, w2), w3)
                        m4 = _extend(indptr, indices, e3, i3 + 1, m3, w3, r, cov, e4)
                        for i4 in range(m4):
                            w4 = e4[i4]
                            nodes[4] = w4
                            b4 = b3 | _joins(indptr, indices, (r, w1, w2, w3), w4)
                            _credit(acc, t, lut, b4, nodes)
                    _cover(indptr, indices, w2, cov, -1)
                _cover(indptr, indices, w1, cov, -1)
            _cover(indptr, indices, r, cov, -1)


def _batch(n: int, threads: int) -> int:
    """Roots per call of :func:`_esu5`: a few per thread, so an interrupt lands soon."""
    return max(threads, min(n, 16 * threads))


def orbit_counts_5node(indptr: np.ndarray, indices: np.ndarray, check: bool = True) -> np.ndarray:
    """Induced counts of the 58 orbits (15..72) of the connected 5-node graphlets, per node.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR of an undirected graph (both directions, sorted rows; self-loop entries
        are ignored).
    check : bool
        Check the CSR first (as :func:`~nx_gpumine.engines.cpu.orbit_counts.node_orbit_counts`
        does). Pass False only for valid arrays without self-loops (a ``StaticGraph``'s).

    Returns
    -------
    numpy.ndarray
        int64 ``[n, 58]``: column ``j`` is ORCA's orbit ``15 + j``.

    Raises
    ------
    ValueError
        The CSR is not that of an undirected graph (with ``check``).
    """
    indptr, indices = _counting_csr(indptr, indices, check)
    n = len(indptr) - 1
    threads = max(1, min(n, numba.get_num_threads()))
    acc = np.zeros((threads, n, _N5), dtype=np.int64)
    if n == 0:
        return acc.sum(axis=0)
    cover = np.zeros((threads, n), dtype=np.int32)
    ext = np.empty((threads, 4, n), dtype=np.int64)
    lut = orbit_lookup5()
    step = _batch(n, threads)
    for lo in range(0, n, step):  # from Python: Ctrl-C lands between batches
        _esu5(indptr, indices, lut, lo, min(n, lo + step), acc, cover, ext)
    return acc.sum(axis=0)
