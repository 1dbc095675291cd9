"""Checks shared by every engine and the execution layer: root ranges and the 64-bit rule.

Counts are exact Python ints summed from 64-bit partial counts. Every engine and every merge
(tasks, partitions, devices, Dask workers) applies the same rule: a total above
:data:`INT64_MAX` (2**63 - 1, the largest count NumPy, pandas and the C API can hold) raises
:class:`~nx_gpumine.errors.CapacityError`, on every engine alike.

Every engine entry point and task splitter takes a half-open range ``[lo, hi)`` of root
positions (union-CSR entries of a static graph, edge ids of a temporal one) and checks it with
:func:`checked_range`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import CapacityError

__all__ = [
    "INT64_MAX",
    "checked_limit",
    "checked_range",
    "checked_sum",
    "checked_total",
    "overflow_error",
]

#: Largest count any engine returns; one more raises CapacityError.
INT64_MAX = 2**63 - 1


def overflow_error(total: int | None = None, what: str = "match count") -> CapacityError:
    """The error of a count above :data:`INT64_MAX`.

    Parameters
    ----------
    total : int, optional
        The count, when known (it is named in the message).
    what : str
        What was counted, for the message (``"match count"``, ``"census count"``).

    Returns
    -------
    CapacityError
        The error to raise.
    """
    if total is None:
        return CapacityError(f"the {what} overflows a 64-bit integer (more than 2**63 - 1)")
    return CapacityError(f"{what} {total} overflows a 64-bit integer")


def checked_total(total: int, what: str = "match count") -> int:
    """``total`` itself, once it is known to fit :data:`INT64_MAX`.

    Parameters
    ----------
    total : int
        An exact (Python int) count.
    what : str
        What was counted, for the message of :func:`overflow_error`.

    Returns
    -------
    int
        ``total``.

    Raises
    ------
    CapacityError
        ``total`` exceeds :data:`INT64_MAX`.
    """
    if total > INT64_MAX:
        raise overflow_error(total, what)
    return total


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
    return checked_total(sum(parts))


def checked_range(lo: int, hi: int | None, m: int) -> tuple[int, int]:
    """The root range ``[lo, hi)`` as ints, checked to lie within ``[0, m)``.

    Parameters
    ----------
    lo : int
        First root position.
    hi : int or None
        One past the last root position (None: ``m``).
    m : int
        Number of root positions (entries of a union CSR, or edges of a temporal graph).

    Returns
    -------
    (int, int)
        ``(lo, hi)`` with ``0 <= lo <= hi <= m``.

    Raises
    ------
    ValueError
        The range does not lie within ``[0, m)``.
    """
    hi = m if hi is None else int(hi)
    lo = int(lo)
    if not (0 <= lo <= hi <= m):
        raise ValueError(f"root range [{lo}, {hi}) is outside [0, {m})")
    return lo, hi


def checked_limit(limit: int | None) -> int | None:
    """An enumeration's row limit as an int (or None: no limit), checked to be ``>= 0``.

    Parameters
    ----------
    limit : int or None
        Most rows wanted.

    Returns
    -------
    int or None
        ``int(limit)``, or None.

    Raises
    ------
    ValueError
        ``limit`` is negative.
    """
    if limit is None:
        return None
    limit = int(limit)
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    return limit
