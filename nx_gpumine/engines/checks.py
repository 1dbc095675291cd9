"""Checks shared by every engine and the execution layer: the one 64-bit overflow rule.

Counts are exact Python ints summed from 64-bit partial counts. Every engine and every merge
(tasks, partitions, devices, Dask workers) applies the same rule: a total above
:data:`INT64_MAX` (2**63 - 1, the largest count NumPy, pandas and the C API can hold) raises
:class:`~nx_gpumine.errors.CapacityError`, on every engine alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import CapacityError

__all__ = ["INT64_MAX", "checked_sum", "overflow_error"]

#: Largest count any engine returns; one more raises CapacityError.
INT64_MAX = 2**63 - 1


def overflow_error(total: int | None = None) -> CapacityError:
    """The error of a count above :data:`INT64_MAX` (``total`` when known)."""
    if total is None:
        return CapacityError("the match count overflows a 64-bit integer (more than 2**63 - 1)")
    return CapacityError(f"match count {total} overflows a 64-bit integer")


def checked_sum(counts: Iterable[int]) -> int:
    """The exact sum of partial counts, where a negative partial marks one that overflowed.

    Raises
    ------
    CapacityError
        A partial count overflowed, or the total exceeds :data:`INT64_MAX`.
    """
    parts = [int(c) for c in (counts.ravel().tolist() if hasattr(counts, "ravel") else counts)]
    if any(c < 0 for c in parts):
        raise overflow_error()
    total = sum(parts)
    if total > INT64_MAX:
        raise overflow_error(total)
    return total
