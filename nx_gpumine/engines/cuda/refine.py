"""GPU colour refinement (CuPy) for the graph-isomorphism search.

The same contract as :mod:`nx_gpumine.engines.cpu.refine` (union graph of ``2n`` nodes, uint64
colours, refinement to a stable colouring, halves compared after every round), computed with
whole-array operations: a round gathers the neighbours' colour hashes, sums them per row with
a prefix sum and hashes again; the halves are compared exactly (sorted), and the number of
distinct colours is counted on the sorted first half (equal halves have the same classes), both
read back in one transfer. The search itself (which pair to individualise next)
stays on the host. Every function takes the array module, so the same code runs with numpy
(how it is tested on machines without a GPU).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ..refine_hash import GOLDEN, MIX_M1, MIX_M2

__all__ = ["accumulate", "scan", "verify", "stable_colours"]


def _xp() -> ModuleType:
    import cupy

    return cupy


def _mix(x: Any) -> Any:
    x = (x ^ (x >> np.uint64(30))) * MIX_M1
    x = (x ^ (x >> np.uint64(27))) * MIX_M2
    return x ^ (x >> np.uint64(31))


class _Device:
    """The union's arrays on the device, with each entry's row."""

    def __init__(self, arrays: tuple, xp: ModuleType) -> None:
        out_ptr, out_idx, out_lab, in_ptr, in_idx, in_lab = arrays
        self.xp = xp
        self.lists = [(xp.asarray(out_ptr), xp.asarray(out_idx), xp.asarray(out_lab), 1)]
        if len(in_ptr):
            self.lists.append((xp.asarray(in_ptr), xp.asarray(in_idx), xp.asarray(in_lab), 2))

    def acc(self, col: Any) -> Any:
        xp = self.xp
        total = xp.zeros(len(col), dtype=xp.uint64)
        for ptr, idx, lab, tag in self.lists:
            m1, m2 = (MIX_M1, MIX_M2) if tag == 1 else (MIX_M2, MIX_M1)
            h = _mix(col[idx] * m1 + lab.astype(xp.uint64) * m2 + np.uint64(tag))
            cs = xp.concatenate([xp.zeros(1, dtype=xp.uint64), xp.cumsum(h, dtype=xp.uint64)])
            total += cs[ptr[1:]] - cs[ptr[:-1]]
        return total


_CACHE: dict = {}


def _device(arrays: tuple, xp: ModuleType) -> _Device:
    # CuPy copies live on one device: the current device id is part of the key
    dev = int(xp.cuda.runtime.getDevice()) if hasattr(xp, "cuda") else -1
    key = (id(arrays), id(xp), dev)
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not arrays:
        _CACHE.clear()
        hit = _CACHE[key] = (arrays, _Device(arrays, xp))
    return hit[1]


def _classes(xp: ModuleType, col: Any, n: int) -> int:
    """The number of colour classes of ``col`` if its halves hold the same colours (as
    multisets), else -1: both from the sorted halves, with one transfer to the host."""
    first, second = xp.sort(col[:n]), xp.sort(col[n:])
    same = xp.all(first == second)
    cnt = xp.count_nonzero(first[1:] != first[:-1]) + 1 if n else 0
    both = xp.stack([xp.asarray(same, dtype=xp.int64), xp.asarray(cnt, dtype=xp.int64)])
    same, cnt = both.tolist()
    return cnt if same else -1


def _refine(dev: _Device, col: Any, n: int) -> tuple[Any, int]:
    xp = dev.xp
    cnt = _classes(xp, col, n)
    while cnt >= 0:
        col = _mix(col * GOLDEN + dev.acc(col))
        new = _classes(xp, col, n)
        if new == cnt:
            return col, cnt
        cnt = new
    return col, -1


def stable_colours(
    arrays: tuple, col: np.ndarray, n: int, xp: ModuleType | None = None
) -> tuple[Any, int]:
    """Refine an initial colouring to a stable one (see the CPU module); -1: halves differ."""
    xp = xp or _xp()
    dev = _device(arrays, xp)
    return _refine(dev, xp.asarray(col, dtype=xp.uint64).copy(), n)


def accumulate(arrays: tuple, col: Any, xp: ModuleType | None = None) -> Any:
    """Every node's neighbourhood hash (kept for the CPU module's interface)."""
    xp = xp or _xp()
    return _device(arrays, xp).acc(xp.asarray(col))


def verify(col: Any, n: int, out_ptr: Any, out_idx: Any, out_lab: Any) -> np.ndarray:
    """The colour bijection of a discrete colouring if it is an isomorphism (on the host)."""
    from ..cpu.refine import verify as host_verify

    col = col.get() if hasattr(col, "get") else np.asarray(col)
    return host_verify(col, n, np.asarray(out_ptr), np.asarray(out_idx), np.asarray(out_lab))


def scan(
    arrays: tuple, col: Any, acc: Any, n: int, v: int, cands: np.ndarray, start: int, depth: int,
    xp: ModuleType | None = None,
) -> tuple[int, Any, int]:  # fmt: skip
    """``RefineEngine.scan`` (``engines/contract.py``) on the device: pair ``G1`` node ``v``
    with each candidate from ``cands[start:]``, individualise, refine on the device, verify
    discrete colourings on the host (``xp``: the array module, CuPy by default)."""
    xp = xp or _xp()
    dev = _device(arrays, xp)
    with np.errstate(over="ignore"):
        mark = _mix(np.uint64(depth + 1) * MIX_M2 + np.uint64(int(col[v])))
    for i in range(start, len(cands)):
        w = int(cands[i])
        c = col.copy()
        c[v] = mark
        c[n + w] = mark
        c, cnt = _refine(dev, c, n)
        if cnt < 0:
            continue
        if cnt == n and len(verify(c, n, *arrays[:3])) == 0:
            continue
        return i, c, cnt
    return -1, None, 0
