"""Host-resident arrays the kernels read directly (out-of-core static engine).

Two placements of a NumPy array, both returned as a ``cupy.ndarray`` the kernels take unchanged:

* ``"managed"``: CUDA managed memory advised to live on the host (``cudaMemAdvise``: preferred
  location CPU, accessed-by the device, so device reads go over the bus without migrating
  pages); the *hot* entry ranges given are advised to the device instead and prefetched there
  (a device-side cache of the hot vertices' lists, GAMMA-style).
* ``"pinned"``: page-locked host memory (``cudaHostAlloc``) mapped into the device's address
  space (zero-copy under unified addressing); no device copy at all.
"""

from __future__ import annotations

import ctypes
import logging
from typing import Any

import numpy as np

from ._runtime import import_cupy

__all__ = ["PLACEMENTS", "host_array", "hot_blocks"]

logger = logging.getLogger("nx_gpumine")

PLACEMENTS = ("managed", "pinned")
_ADV_PREFERRED = 3  # cudaMemAdviseSetPreferredLocation
_ADV_ACCESSED_BY = 5  # cudaMemAdviseSetAccessedBy
_CPU = -1  # cudaCpuDeviceId
_PAGE = 4096
#: Granularity (entries) of the hot/cold split of per-entry arrays.
BLOCK_ENTRIES = 1 << 19


def hot_blocks(indptr: np.ndarray, hot_entries: int, block: int | None = None) -> np.ndarray:
    """Entry blocks to keep on the device, hottest first, covering at most ``hot_entries``.

    A list of vertex ``v`` is read about ``deg(v)`` times per level (once per neighbour that
    becomes a backward neighbour), so an entry's heat is the degree of its owner and a block's
    heat is the sum of ``deg(v)**2`` over the lists in it.

    Returns
    -------
    numpy.ndarray
        Block indices (int64): block ``b`` holds entries ``[b * block, (b + 1) * block)``
        (``block``: :data:`BLOCK_ENTRIES` by default).
    """
    block = int(BLOCK_ENTRIES if block is None else block)
    nnz = int(indptr[-1]) if len(indptr) else 0
    if nnz == 0 or hot_entries < block:
        return np.zeros(0, dtype=np.int64)
    deg = np.diff(indptr).astype(np.float64)
    # cumulative heat over entries, evaluated at block boundaries (lists split across blocks
    # count in proportion to their entries there)
    cum_v = np.concatenate([[0.0], np.cumsum(deg * deg)])
    bounds = np.minimum(np.arange(0, nnz + block, block, dtype=np.int64), nnz)
    bounds = np.unique(bounds)
    v = np.searchsorted(indptr, bounds, side="right") - 1
    v = np.minimum(v, len(deg) - 1)
    inside = (bounds - indptr[v]).astype(np.float64)
    heat_at = cum_v[v] + inside * deg[v]
    heat = np.diff(heat_at)
    order = np.argsort(-heat, kind="stable")
    take = int(hot_entries // block)
    return np.sort(order[:take]).astype(np.int64)


def host_array(
    a: np.ndarray, placement: str = "managed", hot: np.ndarray | None = None
) -> tuple[Any, int]:
    """``a`` in host memory the device reads directly, as a ``cupy.ndarray``.

    Parameters
    ----------
    a : numpy.ndarray
        1-D array (copied).
    placement : {"managed", "pinned"}
        See the module notes.
    hot : numpy.ndarray, optional
        Entry blocks (:func:`hot_blocks`) kept and prefetched on the device ("managed" only).

    Returns
    -------
    (cupy.ndarray, int)
        The array and the bytes placed on the device (hot blocks).
    """
    cp = import_cupy()
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")
    a = np.ascontiguousarray(a).ravel()
    nbytes = max(a.nbytes, 1)
    dev = cp.cuda.runtime.getDevice()
    on_device = 0
    if placement == "managed":
        mp = cp.cuda.malloc_managed(nbytes)
        ptr = int(mp.ptr)
        rt = cp.cuda.runtime
        try:
            rt.memAdvise(ptr, nbytes, _ADV_PREFERRED, _CPU)
            rt.memAdvise(ptr, nbytes, _ADV_ACCESSED_BY, dev)
        except Exception as exc:  # noqa: BLE001 - e.g. a runtime without the int-device API
            logger.warning("nx_gpumine: cudaMemAdvise failed (%s); using pinned memory", exc)
            del mp
            placement = "pinned"
    if placement == "pinned":
        # Under unified addressing, cudaHostAlloc memory is mapped into every device's address
        # space at the same pointer value: the kernels read it over the bus (zero-copy).
        mem = cp.cuda.alloc_pinned_memory(nbytes)
        host = np.frombuffer(mem, dtype=a.dtype, count=a.size)
        host[...] = a
        um = cp.cuda.UnownedMemory(int(mem.ptr), nbytes, mem, dev)
        return cp.ndarray(a.shape, a.dtype, cp.cuda.MemoryPointer(um, 0)), 0
    view = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(ptr))
    view[: a.nbytes] = a.view(np.uint8)
    if hot is not None and len(hot) and a.size:
        stream = cp.cuda.get_current_stream()
        for lo, hi in _byte_ranges(hot, a.itemsize, nbytes):
            rt.memAdvise(ptr + lo, hi - lo, _ADV_PREFERRED, dev)
            rt.memPrefetchAsync(ptr + lo, hi - lo, dev, stream.ptr)
            on_device += hi - lo
        stream.synchronize()
    return cp.ndarray(a.shape, a.dtype, mp), on_device


def _byte_ranges(blocks: np.ndarray, itemsize: int, nbytes: int) -> list[tuple[int, int]]:
    """Byte ranges of entry ``blocks`` in an array of ``nbytes``: adjacent blocks merged, ends
    aligned to 4 KiB pages (what the driver advises and migrates), clipped to the array."""
    out: list[tuple[int, int]] = []
    step = BLOCK_ENTRIES * itemsize
    for b in np.sort(np.asarray(blocks, dtype=np.int64)).tolist():
        lo = (b * step) // _PAGE * _PAGE
        hi = min(-(-((b + 1) * step) // _PAGE) * _PAGE, nbytes)
        if hi <= lo:
            continue
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out
