"""Entries of a compressed sparse row put in order in O(m), for graphs of 10^8-10^9 edges.

* :func:`csr_order` (temporal graphs): a stable sort of ``m`` owner ids (``np.argsort(kind=
  "stable")``, O(m log m)) was most of the time of building a temporal graph (3.5 of 5.3 s for
  10M edges on a 2-core machine); the ids are dense (``0..n-1``), so a counting sort places
  every edge at once: the row pointers from ``np.bincount``, then each edge, in id order, at the
  next free slot of its owner's row. Past :data:`BUCKET_MIN_OWNERS` owners that scatter misses
  the caches on every edge, as does ``np.bincount`` (a 10^9-edge graph of 10^8 nodes took 195 s
  to build on the H200's host), so the edges are first dealt, in id order, into about
  :data:`BUCKETS` ranges of owners with their owners' offsets (a few thousand sequential write
  streams); each range then counts its rows and places its edges on its own, its counters
  small enough to stay in cache, the ranges in parallel.
* :func:`dense_ranks` (both graph kinds): a key's rank among the present keys of a span, the
  table look-ups of every endpoint in parallel (two random reads an edge).
* :func:`radix_sort` and :func:`radix_argsort` (static graphs): the union CSR's entry keys
  (``(u * n + v) * 4 + code``, uint64) sorted by a least-significant-digit radix sort, 11 bits a
  pass over the bits the largest key uses (four passes for two million nodes), each pass stable:
  ``np.sort`` took 1.4 of the 1.7 s of building a 10M-edge graph.

One pass each, compiled by numba and kept in its cache; callers use them past a size where
loading numba (about a second, once per process) pays.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["csr_order", "dense_ranks", "radix_sort", "radix_argsort"]

#: Bits of a radix pass (2048 buckets: the counts stay in the first cache levels).
RADIX_BITS = 11

#: Owners past which :func:`csr_order` deals the edges into ranges of owners first.
BUCKET_MIN_OWNERS = 1 << 20

#: About how many ranges of owners :func:`csr_order` deals the edges into.
BUCKETS = 1 << 12


@njit(cache=True, nogil=True)
def _place(owner, ptr):
    slot = ptr[:-1].copy()
    order = np.empty(len(owner), np.int64)
    for e in range(len(owner)):
        o = owner[e]
        order[slot[o]] = e
        slot[o] += 1
    return order


@njit(cache=True, nogil=True)
def _deal(owner, shift, nb, deal, local):
    """The edges in id order dealt into ranges of ``2^shift`` owners (range ``b`` fills
    ``deal[start[b] : start[b + 1]]``), each with its owner's offset in the range (``local``);
    returns ``start``. Two sequential passes: the ranges' sizes, then the deal."""
    start = np.zeros(nb + 1, np.int64)
    for e in range(len(owner)):
        start[(owner[e] >> shift) + 1] += 1
    for b in range(nb):
        start[b + 1] += start[b]
    pos = start[:-1].copy()
    for e in range(len(owner)):
        o = owner[e]
        b = o >> shift
        p = pos[b]
        deal[p] = e
        local[p] = o - (b << shift)
        pos[b] = p + 1
    return start


@njit(cache=True, nogil=True, parallel=True)
def _place_ranges(start, shift, deal, local, ptr, order):
    """Per range, in parallel (each writes only its own rows): its owners' row sizes and
    pointers, then its edges, in id order, at their owners' next free slots."""
    n = len(ptr) - 1
    for b in prange(len(start) - 1):
        first = min(np.int64(b) << shift, n)  # int64: prange's index may be unsigned
        width = min((np.int64(b) + 1) << shift, n) - first
        slot = np.zeros(width + 1, np.int64)
        for j in range(start[b], start[b + 1]):
            slot[local[j] + 1] += 1
        slot[0] = start[b]
        for i in range(width):
            slot[i + 1] += slot[i]
        ptr[first : first + width] = slot[:width]
        for j in range(start[b], start[b + 1]):
            o = local[j]
            order[slot[o]] = deal[j]
            slot[o] += 1
    ptr[n] = len(deal)


def csr_order(owner: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(ptr, order)``: row ``v`` of the CSR holds ``order[ptr[v]:ptr[v + 1]]``, the positions
    ``e`` with ``owner[e] == v`` in increasing order (what a stable argsort of ``owner`` gives).

    Parameters
    ----------
    owner : numpy.ndarray
        Integer owner id of each position, in ``0..n-1``.
    n : int
        Number of owners (rows).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        int64 ``ptr`` (``n + 1``) and ``order`` (``len(owner)``).

    Examples
    --------
    >>> import numpy as np
    >>> ptr, order = csr_order(np.array([2, 0, 2, 1, 0]), 3)
    >>> ptr.tolist(), order.tolist()
    ([0, 2, 3, 5], [1, 4, 3, 0, 2])
    """
    owner = np.asarray(owner)
    m = len(owner)
    if m == 0 or n < BUCKET_MIN_OWNERS:
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(owner, minlength=n), out=ptr[1:])
        return ptr, (_place(owner, ptr) if m else np.zeros(0, dtype=np.int64))
    shift = max(0, (n - 1).bit_length() - BUCKETS.bit_length() + 1)
    deal = np.empty(m, np.int32 if m <= np.iinfo(np.int32).max else np.int64)
    local = np.empty(m, np.int32)  # an owner's offset in its range (below 2^shift <= 2^31)
    start = _deal(owner, shift, ((n - 1) >> shift) + 1, deal, local)
    ptr = np.empty(n + 1, dtype=np.int64)
    order = np.empty(m, np.int64)
    _place_ranges(start, shift, deal, local, ptr, order)
    return ptr, order


@njit(cache=True, nogil=True, parallel=True)
def _mark(keys, lo, present):
    for i in prange(len(keys)):
        present[keys[i] - lo] = True  # every thread writes True: no race that matters


@njit(cache=True, nogil=True, parallel=True)
def _look_up(keys, lo, ids, out):
    for i in prange(len(keys)):
        out[i] = ids[keys[i] - lo]


def dense_ranks(
    src: np.ndarray, dst: np.ndarray, lo: int, span: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Each endpoint's rank among the keys present (integer keys in ``lo .. lo + span - 1``),
    as ``numpy.unique(..., return_inverse=True)`` gives it, by a table over the span.

    Parameters
    ----------
    src, dst : numpy.ndarray
        int64 endpoint keys.
    lo, span : int
        The smallest key and the number of values from it to the largest.

    Returns
    -------
    tuple or None
        ``(src ranks, dst ranks, present keys)``: ranks int32 (int64 past its range), the
        sorted present keys int64; None when every value of the span is present and ``lo`` is
        0 (the keys are their own ranks).

    Examples
    --------
    >>> import numpy as np
    >>> s, d, keys = dense_ranks(np.array([7, 3]), np.array([3, 9]), 3, 7)
    >>> s.tolist(), d.tolist(), keys.tolist()
    ([1, 0], [0, 2], [3, 7, 9])
    """
    present = np.zeros(span, dtype=np.bool_)
    for k in (src, dst):
        _mark(k, lo, present)
    if lo == 0 and present.all():
        return None
    ids = np.cumsum(present, dtype=np.int32 if span <= np.iinfo(np.int32).max else np.int64)
    ids -= 1
    keys = np.flatnonzero(present)
    del present
    keys += lo
    out = []
    for k in (src, dst):
        r = np.empty(len(k), ids.dtype)
        _look_up(k, lo, ids, r)
        out.append(r)
    return out[0], out[1], keys


@njit(cache=True, nogil=True)
def _radix(keys, with_order):
    """LSD radix sort of uint64 ``keys``: the sorted keys and, if ``with_order``, the stable
    permutation (else an empty one)."""
    m = len(keys)
    top = np.uint64(0)
    for i in range(m):
        if keys[i] > top:
            top = keys[i]
    bits = 0
    while bits < 64 and (top >> np.uint64(bits)) != 0:
        bits += RADIX_BITS
    a = keys.copy()
    b = np.empty_like(a)
    oa = np.arange(m) if with_order else np.empty(0, np.int64)
    ob = np.empty_like(oa)
    mask = np.uint64((1 << RADIX_BITS) - 1)
    count = np.empty((1 << RADIX_BITS) + 1, np.int64)
    shift = 0
    while shift < bits:
        count[:] = 0
        sh = np.uint64(shift)
        for i in range(m):
            count[((a[i] >> sh) & mask) + 1] += 1
        for j in range(1 << RADIX_BITS):
            count[j + 1] += count[j]
        for i in range(m):
            d = (a[i] >> sh) & mask
            p = count[d]
            b[p] = a[i]
            if with_order:
                ob[p] = oa[i]
            count[d] = p + 1
        a, b = b, a
        oa, ob = ob, oa
        shift += RADIX_BITS
    return a, oa


def radix_sort(keys: np.ndarray) -> np.ndarray:
    """``np.sort(keys)`` for uint64 ``keys``, in O(m) passes (a new array).

    Examples
    --------
    >>> import numpy as np
    >>> radix_sort(np.array([9, 3, 2**40, 3], dtype=np.uint64)).tolist()
    [3, 3, 9, 1099511627776]
    """
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    return _radix(keys, False)[0]


def radix_argsort(keys: np.ndarray) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` for uint64 ``keys`` (int64), in O(m) passes.

    Examples
    --------
    >>> import numpy as np
    >>> radix_argsort(np.array([9, 3, 2**40, 3], dtype=np.uint64)).tolist()
    [1, 3, 0, 2]
    """
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    return _radix(keys, True)[1]
