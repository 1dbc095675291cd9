"""Host-resident arrays the kernels read directly (out-of-core static engine).

Two placements of a NumPy array, both returned as a ``cupy.ndarray`` the kernels take unchanged:

* ``"managed"``: CUDA managed memory advised to live on the host (``cudaMemAdvise``: preferred
  location CPU, accessed-by the device, so device reads go over the bus without migrating
  pages); the *hot* entry ranges given are advised to the device instead and prefetched there
  (a device-side cache of the hot vertices' lists, GAMMA-style).
* ``"pinned"``: page-locked host memory mapped into the device's address space (zero-copy
  under unified addressing); no device copy at all. A C-contiguous array is page-locked where
  it lies (``cudaHostRegister``, mapped and portable), so the graph's CSR is not copied: host
  memory, not twice host memory, bounds the graph an out-of-core call can take. Arrays that
  cannot be registered are copied into ``cudaHostAlloc`` memory.
"""

from __future__ import annotations

import ctypes
import logging
import threading
import weakref
from typing import Any

import numpy as np

from ._runtime import import_cupy

__all__ = ["PLACEMENTS", "host_array", "hot_blocks"]

logger = logging.getLogger("nx_gpumine")

PLACEMENTS = ("managed", "pinned")
_ADV_PREFERRED = 3  # cudaMemAdviseSetPreferredLocation
_ADV_ACCESSED_BY = 5  # cudaMemAdviseSetAccessedBy
_CPU = -1  # cudaCpuDeviceId
_LOC_DEVICE = 1  # CU_MEM_LOCATION_TYPE_DEVICE / cudaMemLocationTypeDevice
_LOC_HOST = 2  # CU_MEM_LOCATION_TYPE_HOST / cudaMemLocationTypeHost
_PAGE = 4096


def hot_blocks(indptr: np.ndarray, hot_entries: int, block: int) -> np.ndarray:
    """Entry blocks to keep on the device, hottest first, covering at most ``hot_entries``.

    A list of vertex ``v`` is read about ``deg(v)`` times per level (once per neighbour that
    becomes a backward neighbour), so an entry's heat is the degree of its owner and a block's
    heat is the sum of ``deg(v)**2`` over the lists in it.

    Returns
    -------
    numpy.ndarray
        Block indices (int64): block ``b`` holds entries ``[b * block, (b + 1) * block)``
        (``block``: the granularity of the hot/cold split, ``StaticTuning.hot_block_entries``;
        :func:`host_array` takes the same).
    """
    block = int(block)
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


_REG_HOST_MAPPED = 0x01 | 0x02  # cudaHostRegisterPortable | cudaHostRegisterMapped
#: Live registrations by (address, bytes): an array registered twice is shared, not re-pinned.
_REGISTERED: dict[tuple[int, int], weakref.ref] = {}
_REG_LOCK = threading.RLock()  # re-entrant: a finalizer may run during a GC inside the lock


class _Registration:
    """Keeps a NumPy array page-locked in place while this object lives (then unregisters)."""

    def __init__(self, a: np.ndarray) -> None:
        cp = import_cupy()
        self.ptr, self.nbytes = int(a.ctypes.data), int(a.nbytes)
        cp.cuda.runtime.hostRegister(self.ptr, self.nbytes, _REG_HOST_MAPPED)
        # the finalizer holds the array, so its memory outlives the registration
        weakref.finalize(self, _unregister, self.ptr, self.nbytes, a)


def _unregister(ptr: int, nbytes: int, a: np.ndarray) -> None:
    with _REG_LOCK:
        _REGISTERED.pop((ptr, nbytes), None)
    try:
        import_cupy().cuda.runtime.hostUnregister(ptr)
    except Exception:  # noqa: BLE001 - interpreter shutdown, or a context already gone
        pass


def _register(a: np.ndarray) -> _Registration | None:
    """``a`` page-locked in place (shared with a live registration of the same buffer), or
    None where it cannot be (not C-contiguous, read-only views of foreign memory, a driver
    refusal): the caller copies instead."""
    if not a.flags.c_contiguous or a.nbytes == 0:
        return None
    key = (int(a.ctypes.data), int(a.nbytes))
    with _REG_LOCK:
        ref = _REGISTERED.get(key)
        reg = ref() if ref is not None else None
        if reg is not None:
            return reg
        try:
            reg = _Registration(a)
        except Exception as exc:  # noqa: BLE001 - e.g. overlapping registration: copy instead
            logger.debug("nx_gpumine: cudaHostRegister failed (%s); copying", exc)
            return None
        _REGISTERED[key] = weakref.ref(reg)
        return reg


def host_array(
    a: np.ndarray, placement: str = "managed", hot: np.ndarray | None = None, block: int = 0
) -> tuple[Any, int]:
    """``a`` in host memory the device reads directly, as a ``cupy.ndarray``.

    Parameters
    ----------
    a : numpy.ndarray
        1-D array (copied, except with ``"pinned"`` where it can be page-locked in place:
        then the caller must not write to it while the returned array is in use).
    placement : {"managed", "pinned"}
        See the module notes.
    hot : numpy.ndarray, optional
        Entry blocks (:func:`hot_blocks`) kept and prefetched on the device ("managed" only).
    block : int
        Entries per block of ``hot`` (the ``block`` :func:`hot_blocks` was given).

    Returns
    -------
    (cupy.ndarray, int)
        The array and the bytes placed on the device (hot blocks).
    """
    cp = import_cupy()
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")
    if hot is not None and len(hot) and int(block) < 1:
        raise ValueError(f"hot blocks need their size in entries (block >= 1), got {block}")
    a = np.ascontiguousarray(a).ravel()
    nbytes = max(a.nbytes, 1)
    dev = cp.cuda.runtime.getDevice()
    on_device = 0
    if placement == "managed":
        mp = cp.cuda.malloc_managed(nbytes)
        ptr = int(mp.ptr)
        try:
            _advise(ptr, nbytes, _ADV_PREFERRED, _CPU)
            _advise(ptr, nbytes, _ADV_ACCESSED_BY, dev)
        except Exception as exc:  # noqa: BLE001 - no usable advise entry point
            logger.warning("nx_gpumine: cudaMemAdvise failed (%s); using pinned memory", exc)
            del mp
            placement = "pinned"
    if placement == "pinned":
        # Under unified addressing, registered and cudaHostAlloc memory is mapped into every
        # device's address space at the same pointer value: the kernels read it over the bus
        # (zero-copy).
        reg = _register(a)
        if reg is not None:
            um = cp.cuda.UnownedMemory(reg.ptr, reg.nbytes, reg, dev)
            return cp.ndarray(a.shape, a.dtype, cp.cuda.MemoryPointer(um, 0)), 0
        mem = cp.cuda.alloc_pinned_memory(nbytes)
        host = np.frombuffer(mem, dtype=a.dtype, count=a.size)
        host[...] = a
        um = cp.cuda.UnownedMemory(int(mem.ptr), nbytes, mem, dev)
        return cp.ndarray(a.shape, a.dtype, cp.cuda.MemoryPointer(um, 0)), 0
    view = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(ptr))
    view[: a.nbytes] = a.view(np.uint8)
    if hot is not None and len(hot) and a.size:
        stream = cp.cuda.get_current_stream()
        try:
            for lo, hi in _byte_ranges(hot, a.itemsize, nbytes, block):
                _advise(ptr + lo, hi - lo, _ADV_PREFERRED, dev)
                _prefetch(ptr + lo, hi - lo, dev, stream.ptr)
                on_device += hi - lo
        except Exception as exc:  # noqa: BLE001 - the cold advice holds; no device cache
            logger.warning("nx_gpumine: hot-block prefetch failed (%s); reading from host", exc)
        stream.synchronize()
    return cp.ndarray(a.shape, a.dtype, mp), on_device


def _byte_ranges(
    blocks: np.ndarray, itemsize: int, nbytes: int, block: int
) -> list[tuple[int, int]]:
    """Byte ranges of entry ``blocks`` (of ``block`` entries each) in an array of ``nbytes``:
    adjacent blocks merged, ends aligned to 4 KiB pages (what the driver advises and
    migrates), clipped to the array."""
    out: list[tuple[int, int]] = []
    step = int(block) * itemsize
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


# ---------------------------------------------------------------- advise / prefetch entry points
# CUDA 12.2 added location-based cuMemAdvise_v2 / cuMemPrefetchAsync_v2 (a CUmemLocation
# {type, id} instead of an int device, -1 meaning the CPU); CUDA 13 made them the only form of
# cudaMemAdvise / cudaMemPrefetchAsync, so an int device passed through a wrapper of the old
# runtime signature is rejected (cudaErrorInvalidValue). The driver keeps exporting the _v2
# symbols, so they are called here with an explicit location; older drivers take the runtime's
# int-device form.


class _MemLocation(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]


_DRIVER: list = []


def _driver() -> Any:
    """``(cuMemAdvise_v2, cuMemPrefetchAsync_v2)`` from libcuda, or None (not there)."""
    if not _DRIVER:
        fns = None
        for name in ("libcuda.so.1", "libcuda.so"):
            try:
                lib = ctypes.CDLL(name)
                adv, pre = lib.cuMemAdvise_v2, lib.cuMemPrefetchAsync_v2
            except (OSError, AttributeError):
                continue
            adv.argtypes = [ctypes.c_uint64, ctypes.c_size_t, ctypes.c_int, _MemLocation]
            adv.restype = ctypes.c_int
            pre.argtypes = [ctypes.c_uint64, ctypes.c_size_t, _MemLocation, ctypes.c_uint,
                            ctypes.c_void_p]  # fmt: skip
            pre.restype = ctypes.c_int
            fns = (adv, pre)
            break
        _DRIVER.append(fns)
    return _DRIVER[0]


def location(device: int) -> tuple[int, int]:
    """``(type, id)`` of the memory location of ``device`` (``-1``: the host)."""
    return (_LOC_HOST, 0) if int(device) < 0 else (_LOC_DEVICE, int(device))


def _check(rc: int, what: str) -> None:
    if rc != 0:
        raise RuntimeError(f"{what} failed (CUresult {rc})")


def _advise(ptr: int, nbytes: int, advice: int, device: int) -> None:
    """``cudaMemAdvise`` with ``device`` (``-1``: the CPU) as a location where supported."""
    fns = _driver()
    if fns is not None:
        _check(fns[0](ptr, nbytes, advice, _MemLocation(*location(device))), "cuMemAdvise_v2")
        return
    import_cupy().cuda.runtime.memAdvise(ptr, nbytes, advice, device)


def _prefetch(ptr: int, nbytes: int, device: int, stream: int) -> None:
    """``cudaMemPrefetchAsync`` of a range to ``device`` on ``stream`` (see :func:`_advise`)."""
    fns = _driver()
    if fns is not None:
        loc = _MemLocation(*location(device))
        _check(fns[1](ptr, nbytes, loc, 0, ctypes.c_void_p(int(stream) or None)), "prefetch")
        return
    import_cupy().cuda.runtime.memPrefetchAsync(ptr, nbytes, device, stream)
