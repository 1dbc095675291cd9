"""Sorted-list set operations of the CPU static walk (:mod:`.static_walk`, numba): lookups,
intersections and differences of sorted id slices (merge, or galloping when one side is much
longer), and the count tail's falling factorial and binomial.

numba's on-disk cache checks only the source file of the function it loads: after changing
one of these, touch :mod:`.static_walk` (or clear its cache).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..checks import INT64_MAX
from .walk_shared import lower_bound

__all__ = [
    "_find", "_start", "_row", "_copy_marked", "_intersect", "_difference", "_falling", "_choose",
]  # fmt: skip

_I64_MAX = np.int64(INT64_MAX)


@njit(cache=True, inline="always")
def _find(arr, lo, hi, x):
    """Position of x in sorted arr[lo:hi], or -1."""
    p = lower_bound(arr, lo, hi, x)
    if p < hi and arr[p] == x:
        return p
    return -1


@njit(cache=True, inline="always")
def _start(arr, lo, hi, trim):
    """lo, or the first position holding an id >= trim when trim >= 0."""
    if trim < 0:
        return lo
    return lower_bound(arr, lo, hi, trim)


@njit(cache=True, inline="always")
def _row(indptr, indices, w, trim, below):
    """Positions ``[lo, hi)`` of vertex ``w``'s neighbours in ``indices``, from the first id
    ``>= trim`` when ``trim >= 0`` (:func:`_start`), before the first id ``>= below`` when
    ``below >= 0``."""
    hi = indptr[w + 1]
    if below >= 0:
        hi = lower_bound(indices, indptr[w], hi, below)
    return _start(indices, indptr[w], hi, trim), hi


@njit(cache=True)
def _copy_marked(src, lo, hi, out, mark, use):
    """Copy src[lo:hi] to out[0:] keeping only marked ids when ``use``; return the count.

    ``out`` may be ``src`` itself with ``lo == 0``.
    """
    n = 0
    if use:
        for i in range(lo, hi):
            x = src[i]
            if mark[x]:
                out[n] = x
                n += 1
    else:
        for i in range(lo, hi):
            out[n] = src[i]
            n += 1
    return n


@njit(cache=True, inline="always")
def _gallop_intersect(short, slo, shi, long, llo, lhi, out, olo):
    """Write sorted short[slo:shi] ∩ long[llo:lhi] to out[olo:]; return the count: each
    element of the short list is found by an exponential probe, then a binary search, in the
    rest of the long one. ``out`` may be either list with ``olo`` at or before its start."""
    n = 0
    p = llo
    for i in range(slo, shi):
        x = short[i]
        step = 1
        q = p
        while q < lhi and long[q] < x:
            p = q + 1
            q = p + step
            step <<= 1
        if q > lhi:
            q = lhi
        p = lower_bound(long, p, q, x)
        if p >= lhi:
            break
        if long[p] == x:
            out[olo + n] = x
            n += 1
            p += 1
    return n


@njit(cache=True)
def _intersect(a, alo, ahi, b, blo, bhi, out, olo):
    """Write sorted a[alo:ahi] ∩ b[blo:bhi] to out[olo:]; return the count.

    ``out`` may be ``a`` itself with ``olo <= alo`` (in-place filtering).
    """
    na = ahi - alo
    nb = bhi - blo
    n = 0
    if na == 0 or nb == 0:
        return 0
    # galloping through the longer list when the sizes are skewed (the intersection is the
    # same either way round)
    if na * 32 < nb:
        return _gallop_intersect(a, alo, ahi, b, blo, bhi, out, olo)
    if nb * 32 < na:
        return _gallop_intersect(b, blo, bhi, a, alo, ahi, out, olo)
    i = alo
    j = blo
    while i < ahi and j < bhi:
        x = a[i]
        y = b[j]
        if x < y:
            i += 1
        elif y < x:
            j += 1
        else:
            out[olo + n] = x
            n += 1
            i += 1
            j += 1
    return n


@njit(cache=True)
def _falling(n, t):
    """n (n-1) ... (n-t+1), 0 when n < t, -1 when it overflows int64."""
    if n < t:
        return np.int64(0)
    r = np.int64(1)
    for i in range(t):
        x = np.int64(n - i)
        if r > _I64_MAX // x:
            return np.int64(-1)
        r *= x
    return r


@njit(cache=True)
def _choose(n, t):
    """C(n, t), -1 when it overflows int64 (every intermediate value is at most the result)."""
    if t < 0 or n < t:
        return np.int64(0)
    if t > n - t:
        t = n - t
    r = np.int64(1)
    for i in range(t):
        # C(n, i+1) = C(n, i) (n-i) / (i+1), with the division done first (exact: i+1 divides
        # C(n, i) (n-i), so (i+1)/gcd divides n-i)
        a = r
        b = np.int64(i + 1)
        while b != 0:
            a, b = b, a % b
        d = np.int64(i + 1) // a
        x = np.int64(n - i) // d
        r //= a
        if r > _I64_MAX // x:
            return np.int64(-1)
        r *= x
    return r


@njit(cache=True)
def _difference(a, alo, ahi, b, blo, bhi, out, olo):
    """Write sorted a[alo:ahi] minus b[blo:bhi] to out[olo:]; return the count (``out`` may
    be ``a`` itself with ``olo <= alo``). Each element of ``a`` is looked up in ``b`` by
    galloping when ``b`` is much longer, else the two are merged."""
    n = 0
    if ahi - alo == 0:
        return 0
    if (ahi - alo) * 32 < bhi - blo:
        p = blo
        for i in range(alo, ahi):
            x = a[i]
            step = 1
            q = p
            while q < bhi and b[q] < x:
                p = q + 1
                q = p + step
                step <<= 1
            if q > bhi:
                q = bhi
            p = lower_bound(b, p, q, x)
            if p >= bhi or b[p] != x:
                out[olo + n] = x
                n += 1
        return n
    j = blo
    for i in range(alo, ahi):
        x = a[i]
        while j < bhi and b[j] < x:
            j += 1
        if j >= bhi or b[j] != x:
            out[olo + n] = x
            n += 1
    return n
