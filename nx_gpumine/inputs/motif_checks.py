"""Checks of the parts of a temporal motif: node ids and indexes, time limits, sizes, conditions.

:class:`~nx_gpumine.inputs.motifs.TemporalMotif` validates every part through these, so a
value of the wrong kind is refused with its name instead of being converted silently: node
ids, edge indexes and anti-edge positions are integers (``1.9`` is not truncated, ``True`` and
``"0"`` are not numbers), time limits are numbers or durations (``"3600"`` and ``True`` are
refused), and sizes stay below :data:`MAX_MOTIF_EDGES`.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ..errors import QueryError
from .times import as_duration, is_duration

__all__ = [
    "MAX_MOTIF_EDGES",
    "OPS",
    "as_time_limit",
    "check_size",
    "edge_pairs",
    "is_int",
    "motif_int",
    "size_from_name",
    "where_conditions",
]

#: Largest motif accepted (edges, anti-edges included, and nodes): a cap checked where a motif
#: is parsed or built, before anything of that size is allocated (``cycle999999999`` is refused
#: at once instead of growing memory).
MAX_MOTIF_EDGES = 64
#: Comparison operators of ``node_where`` conditions.
OPS = ("<", "<=", ">", ">=", "==", "!=")


def as_time_limit(
    x: Any, what: str, *, allow_none: bool = True
) -> float | int | np.timedelta64 | None:
    """A checked time limit (window, gap, anti-edge bound) as the user gave it.

    Parameters
    ----------
    x : number, duration or None
        The limit. ``inf`` means no limit; a float holding an integer below ``2**62`` becomes
        that int.
    what : str
        The limit's name for messages (``"delta"``, ``"gaps[1]"``...).
    allow_none : bool
        Whether ``None`` (no limit) is accepted.

    Returns
    -------
    int, float, numpy.timedelta64 or None
        A number >= 0, a duration as ``timedelta64[ns]``, or None (no limit).

    Raises
    ------
    QueryError
        A negative, NaN or non-numeric limit, or None where ``allow_none`` is False.
    """
    if x is None:
        if allow_none:
            return None
        raise QueryError(f"{what} must be given")
    if is_duration(x):
        return as_duration(x, what)
    if (
        isinstance(x, bool | np.bool_ | str | bytes)
        or not isinstance(x, int | float)
        and not hasattr(x, "__float__")
    ):
        raise QueryError(f"{what} must be a number, got {x!r} ({type(x).__name__})")
    if isinstance(x, float) or not isinstance(x, int):
        xf = float(x)
        if math.isnan(xf):
            raise QueryError(f"{what} is NaN")
        if xf == math.inf:
            return None
        if xf.is_integer() and abs(xf) < 2**62:
            x = int(xf)
        else:
            x = xf
    if x < 0:
        raise QueryError(f"{what} must be >= 0, got {x}")
    return x


def motif_int(x: Any, what: str) -> int:
    """A motif node id, edge index or anti-edge position: a Python or NumPy integer.

    Booleans, floats (``1.9`` would silently become ``1``, and even ``2.0`` is refused) and
    digit strings are refused.

    Parameters
    ----------
    x : object
        The value given.
    what : str
        What it is, for the error message.

    Returns
    -------
    int

    Raises
    ------
    QueryError
        If ``x`` is not an integer.
    """
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Integral):
        raise QueryError(f"{what} must be an integer, got {x!r} ({type(x).__name__})")
    return int(x)


def edge_pairs(edges: Any) -> tuple[tuple[int, int], ...]:
    """Motif edges as pairs of ints (node ids as :func:`motif_int` takes them).

    Raises
    ------
    QueryError
        An edge that is not a pair, or a node id that is not an integer.
    """
    try:
        items = [tuple(e) for e in edges]
    except TypeError as exc:
        raise QueryError(f"motif edges must be pairs of ints, got {edges!r:.80}") from exc
    out = []
    for i, e in enumerate(items):
        if len(e) != 2:
            raise QueryError(f"motif edges must be pairs of ints, edge {i} is {e!r:.60}")
        what = f"motif edge {i} {e!r:.40}: a node id (0..k-1)"
        out.append((motif_int(e[0], what), motif_int(e[1], what)))
    return tuple(out)


def is_int(x: Any) -> bool:
    """Whether ``x`` is a Python or NumPy integer (not a bool)."""
    return isinstance(x, numbers.Integral) and not isinstance(x, bool | np.bool_)


def check_size(items: Any, what: str) -> None:
    """Refuse more than :data:`MAX_MOTIF_EDGES` motif edges (or anti-edges, or lines).

    Parameters
    ----------
    items : sized or iterable
        The items given (an iterator is not counted here).
    what : str
        What they are, for the message.

    Raises
    ------
    QueryError
        If there are too many.
    """
    try:
        n = len(items)
    except TypeError:
        return  # an iterator: the tuple built from it is checked as "edges" below
    if n > MAX_MOTIF_EDGES:
        raise QueryError(
            f"motif {what}: {n} given, at most {MAX_MOTIF_EDGES} are supported (a temporal motif "
            "is a small pattern; its matches are tuples of that many edges)"
        )


def size_from_name(text: str, name: str) -> int:
    """The size in a catalogue name such as ``cycle12``, checked against the cap."""
    if len(text) > 9:
        raise QueryError(
            f"motif {name[:20]!r}...: {len(text)}-digit size, at most {MAX_MOTIF_EDGES} edges "
            "are supported"
        )
    n = int(text)
    if n > MAX_MOTIF_EDGES:
        raise QueryError(f"motif {name!r}: {n} edges, at most {MAX_MOTIF_EDGES} are supported")
    return n


def where_conditions(items: Any, k: int) -> tuple[tuple[int, str, float], ...]:
    """A motif's ``node_where`` as ``(node, op, value)`` triples with float values.

    Parameters
    ----------
    items : sequence of (int, str, number)
        The conditions given.
    k : int
        Number of motif nodes.

    Returns
    -------
    tuple of (int, str, float)

    Raises
    ------
    QueryError
        A malformed item, a node outside ``0..k-1``, an unknown operator, or a value that is no
        number (booleans and text included) or is NaN.
    """
    nw = []
    for item in items:
        try:
            v, op, val = item
        except (TypeError, ValueError) as exc:
            raise QueryError(f"node_where: expected (node, op, value), got {item!r}") from exc
        if not (is_int(v) and 0 <= v < k):
            raise QueryError(f"node_where: {v!r} is not a motif node 0..{k - 1}")
        if not isinstance(op, str) or op not in OPS:
            raise QueryError(f"node_where: operator {op!r} is not one of {OPS}")
        if isinstance(val, bool | np.bool_ | str | bytes):
            raise QueryError(f"node_where: value {val!r} is not a number")
        try:
            fval = float(val)
        except (TypeError, ValueError) as exc:
            raise QueryError(f"node_where: value {val!r} is not a number") from exc
        if math.isnan(fval):
            raise QueryError("node_where: value is NaN")
        nw.append((int(v), op, fval))
    return tuple(nw)
