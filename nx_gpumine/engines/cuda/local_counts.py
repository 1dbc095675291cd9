"""GPU per-node pattern counts: the same integers as :mod:`nx_gpumine.engines.cpu.local_counts`
from sparse matrix products (``cupyx.scipy.sparse``, cuSPARSE).

The functions take the array and sparse modules as arguments, so the very same code also runs
with numpy and ``scipy.sparse`` (how it is tested on machines without a GPU).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["modules", "triangle_counts", "directed_triangle_counts", "square_counts"]


def modules() -> tuple[ModuleType, ModuleType]:
    """``(cupy, cupyx.scipy.sparse)``."""
    import cupy
    import cupyx.scipy.sparse as sparse

    return cupy, sparse


def _matrix(xp: ModuleType, sp: ModuleType, indptr: Any, indices: Any, data: Any = None) -> Any:
    n = len(indptr) - 1
    indptr = xp.asarray(indptr)
    indices = xp.asarray(indices)
    if data is None:
        data = xp.ones(len(indices), dtype=xp.float64)
    else:
        data = xp.asarray(data, dtype=xp.float64)
    return sp.csr_matrix((data, indices, indptr), shape=(n, n))


def _rows(xp: ModuleType, m: Any) -> Any:
    return xp.asarray(m.sum(axis=1)).ravel()


def _int(xp: ModuleType, x: Any) -> Any:
    """float64 sums of small integers back to int64 on the host (exact below 2**53)."""
    out = xp.rint(x).astype(xp.int64)
    return out.get() if hasattr(out, "get") else out


def triangle_counts(indptr: Any, indices: Any, xp: ModuleType = None, sp: ModuleType = None) -> Any:
    """``t[v] = ((A @ A) * A)[v].sum()`` (twice v's triangles); see the CPU module."""
    if len(indptr) <= 1:  # no vertex (cuSPARSE's pointwise product divides by the shape)
        return np.zeros(0, dtype=np.int64)
    if xp is None:
        xp, sp = modules()
    A = _matrix(xp, sp, indptr, indices)
    return _int(xp, _rows(xp, (A @ A).multiply(A)))


def directed_triangle_counts(
    indptr: Any, indices: Any, weight: Any, xp: ModuleType = None, sp: ModuleType = None
) -> Any:
    """``T[i] = ((W @ W) * W)[i].sum()``, ``W`` the direction-count matrix; see the CPU module."""
    if len(indptr) <= 1:
        return np.zeros(0, dtype=np.int64)
    if xp is None:
        xp, sp = modules()
    W = _matrix(xp, sp, indptr, indices, weight)
    return _int(xp, _rows(xp, (W @ W).multiply(W)))


def square_counts(
    indptr: Any, indices: Any, xp: ModuleType = None, sp: ModuleType = None
) -> tuple[Any, Any]:
    """Squares and square-clustering denominators from ``C = A @ A``; see the CPU module."""
    if len(indptr) <= 1:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if xp is None:
        xp, sp = modules()
    A = _matrix(xp, sp, indptr, indices)
    deg = xp.diff(xp.asarray(indptr)).astype(xp.float64)
    C = (A @ A).tocsr()
    diag = C.diagonal()
    sq_all = _rows(xp, C.multiply(C)) - _rows(xp, C)  # sum over x of c(x)(c(x)-1), x = v too
    sq = (sq_all - (diag * diag - diag)) / 2
    tri = _rows(xp, C.multiply(A))
    uw = (A @ deg) * (deg - 1)
    pot = uw - deg * (deg - 1) - tri - sq
    small = deg - 1 <= 0
    sq = xp.where(small, 0, sq)
    pot = xp.where(small, 0, pot)
    return _int(xp, sq), _int(xp, pot)
