"""Validation of the plain options of the public functions (``limit``, ``induced``...).

Every check names the parameter and what was given, and raises :class:`~nx_gpumine.QueryError`
(a ``ValueError``), so a misspelt option is never silently taken for something else
(``limit="3"``, ``limit=1.5``, ``induced="no"`` are refused).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ..errors import QueryError

__all__ = ["as_limit", "as_flag"]


def _shown(value: Any) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def as_limit(limit: Any, name: str = "limit") -> int | None:
    """``limit`` as a Python int >= 0, or None.

    Parameters
    ----------
    limit : int, numpy integer or None
        A match limit. Floats (even ``2.0``), strings and booleans are refused.
    name : str
        Parameter name used in the error message.

    Returns
    -------
    int or None

    Raises
    ------
    QueryError
        For anything but None or a non-negative integer.
    """
    if limit is None:
        return None
    if isinstance(limit, bool | np.bool_) or not isinstance(limit, numbers.Integral):
        raise QueryError(f"{name} must be a non-negative integer or None, got {_shown(limit)}")
    value = int(limit)
    if value < 0:
        raise QueryError(f"{name} must be >= 0, got {value}")
    return value


def as_flag(value: Any, name: str) -> bool:
    """``value`` as a bool: True/False (numpy bools, and the ints 0 and 1, too).

    Raises
    ------
    QueryError
        For anything else (``"no"`` would otherwise be taken as True).
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise QueryError(f"{name} must be True or False, got {_shown(value)}")
