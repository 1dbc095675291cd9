"""Jitted helpers both CPU walks (:mod:`.static_walk`, :mod:`.temporal_walk`) call: the binary
search over a sorted slice (also the orbit counters' and :mod:`.fsm_domains`') and the
:class:`~.calls.RootRun` of one chunk of a parallel run.

Each walk module still keeps its own chunk drivers (see :mod:`.calls`); these helpers are
small and settled. numba's on-disk cache checks only the source file of the function it
loads, so after changing one here, touch the modules that call it (or clear their cache).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .calls import WIDE_LIMBS, RootRun

__all__ = ["lower_bound", "chunk_run"]


@njit(cache=True, inline="always")
def lower_bound(arr, lo, hi, x):
    """First position p in [lo, hi) with arr[p] >= x (hi if none)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def chunk_run(bounds, c, mode, out, offsets, stop):
    """The :class:`~.calls.RootRun` of chunk ``c`` of a parallel run: roots
    ``[bounds[c], bounds[c + 1])``, rows ``out[offsets[c]:offsets[c + 1]]`` (a full buffer,
    not a limit), the call's ``stop`` flag and the chunk's own zeroed wide accumulator."""
    wide = np.zeros(WIDE_LIMBS, np.int64)
    return RootRun(
        bounds[c], bounds[c + 1], mode, out, offsets[c], offsets[c + 1], False, stop, wide
    )
