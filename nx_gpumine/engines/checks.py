"""Checks shared by every engine and the execution layer: root ranges and the count limits.

Counts are exact Python ints summed from partial counts that the engines keep in 64-bit words
and spill, before a word would wrap, into 128-bit ones (two words on the GPU, 32-bit limbs on
the CPU). Every engine and every merge (tasks, partitions, devices, Dask workers) applies the
same rule: a total above :data:`COUNT_MAX` (2**128 - 1) raises
:class:`~nx_gpumine.errors.CapacityError`, on every engine alike. Counts that go into NumPy
arrays (per node, per motif, per pattern of a census) keep the 64-bit limit :data:`INT64_MAX`
(pass ``limit=INT64_MAX``).

Every engine entry point and task splitter takes a half-open range ``[lo, hi)`` of root
positions (union-CSR entries of a static graph, edge ids of a temporal one) and checks it with
:func:`checked_range`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import CapacityError

__all__ = [
    "COUNT_MAX",
    "INT64_MAX",
    "checked_limit",
    "checked_range",
    "checked_sum",
    "checked_total",
    "overflow_error",
]

#: Largest count an engine returns (a Python int); one more raises CapacityError.
COUNT_MAX = 2**128 - 1
#: Largest count a NumPy int64 array holds (per-node, per-motif and census tables).
INT64_MAX = 2**63 - 1


def overflow_error(
    total: int | None = None, what: str = "match count", limit: int = COUNT_MAX
) -> CapacityError:
    """The error of a count above ``limit``.

    Parameters
    ----------
    total : int, optional
        The count, when known (it is named in the message).
    what : str
        What was counted, for the message (``"match count"``, ``"census count"``).
    limit : int
        The limit passed: :data:`COUNT_MAX` (a 128-bit integer) or :data:`INT64_MAX` (a
        64-bit one).

    Returns
    -------
    CapacityError
        The error to raise.
    """
    bits, top = (64, "2**63 - 1") if limit == INT64_MAX else (128, "2**128 - 1")
    if total is None:
        return CapacityError(f"the {what} overflows a {bits}-bit integer (more than {top})")
    return CapacityError(f"{what} {total} overflows a {bits}-bit integer")


def checked_total(total: int, what: str = "match count", limit: int = COUNT_MAX) -> int:
    """``total`` itself, once it is known to fit ``limit``.

    Parameters
    ----------
    total : int
        An exact (Python int) count.
    what : str
        What was counted, for the message of :func:`overflow_error`.
    limit : int
        :data:`COUNT_MAX` (default: a count returned as a Python int) or :data:`INT64_MAX`
        (a count stored in an int64 array).

    Returns
    -------
    int
        ``total``.

    Raises
    ------
    CapacityError
        ``total`` exceeds ``limit``.
    """
    if total > limit:
        raise overflow_error(total, what, limit)
    return total


def checked_sum(counts: Iterable[int]) -> int:
    """The exact sum of partial counts, where a negative partial marks one that overflowed.

    Raises
    ------
    CapacityError
        A partial count overflowed, or the total exceeds :data:`COUNT_MAX`.
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
