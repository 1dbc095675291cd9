"""Edge times as users hold them, and the numbers the engines take.

Engines compare int64 or float64 times and int64 / float64 limits (window, gaps, anti-edge
intervals) *in the same unit*. This module is where user values become those numbers:

- plain numbers (int, float, numpy numeric) stay as they are: ``kind="number"``, no unit;
  limits must then be plain numbers in the same unit;
- datetimes (``datetime64`` of any unit, tz-aware or naive, pandas / polars / pyarrow
  timestamps, Python ``datetime`` / ``date`` objects) become int64 counts of their unit since
  the Unix epoch, in UTC: ``kind="datetime"``. Units ``s``, ``ms``, ``us`` and ``ns`` are kept;
  coarser ones (``D``, ``h``, ``m``...) become seconds;
- durations (``timedelta64``, ``datetime.timedelta``, ``pd.Timedelta``) as times likewise
  become int64 counts of their unit: ``kind="duration"``.

Against datetime or duration times, limits must be durations (``pd.Timedelta``,
``datetime.timedelta``, ``np.timedelta64``); a plain number is refused with an error naming the
unit, since ``delta=3600`` against nanosecond times would silently mean 3.6 microseconds.
Against plain numbers a duration is refused the same way. :class:`TimeSpec` records the kind,
unit and time zone so results can be given back in the input's type.
"""

from __future__ import annotations

import datetime as _dt
import math
import numbers
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, QueryError

__all__ = [
    "TimeSpec",
    "NUMBER_TIMES",
    "as_duration",
    "is_duration",
    "normalise_times",
    "limit_in_units",
    "times_for_output",
    "format_duration",
    "check_int64_limit",
]

#: Units kept as they are; coarser datetime64 units are converted to seconds.
_KEPT_UNITS = ("s", "ms", "us", "ns")
_NS_PER = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
_NS_PER_UNIT = {"W": 7 * 86_400 * 10**9, "D": 86_400 * 10**9, "h": 3_600 * 10**9}
_NS_PER_UNIT.update({"m": 60 * 10**9, **_NS_PER})
_SUB_NS = {"ps": 10**3, "fs": 10**6, "as": 10**9}


@dataclass(frozen=True)
class TimeSpec:
    """What the int64 / float64 engine times of a temporal graph stand for.

    Attributes
    ----------
    kind : {"number", "datetime", "duration"}
        Plain numbers, instants (counts of ``unit`` since 1970-01-01 UTC) or durations.
    unit : {"s", "ms", "us", "ns"} or None
        Unit of the counts (``None`` for plain numbers).
    tz : str or None
        Time zone of tz-aware datetime input (times are stored in UTC; results are converted
        back to this zone).
    """

    kind: str = "number"
    unit: str | None = None
    tz: str | None = None

    @property
    def numpy_dtype(self) -> np.dtype | None:
        """``datetime64[unit]`` / ``timedelta64[unit]``, or None for plain numbers."""
        if self.kind == "datetime":
            return np.dtype(f"datetime64[{self.unit}]")
        if self.kind == "duration":
            return np.dtype(f"timedelta64[{self.unit}]")
        return None

    def describe(self) -> str:
        """Human-readable form for messages: ``datetime64[s, UTC]``, ``plain numbers``..."""
        if self.kind == "number":
            return "plain numbers"
        base = "datetime64" if self.kind == "datetime" else "timedelta64"
        tz = f", {self.tz}" if self.tz else ""
        return f"{base}[{self.unit}{tz}]"


#: The spec of plain numeric times.
NUMBER_TIMES = TimeSpec()


# ====================================================================== durations (limits)
def is_duration(x: Any) -> bool:
    """True for ``timedelta64``, ``datetime.timedelta`` (incl. ``pd.Timedelta``), pyarrow
    duration scalars."""
    if isinstance(x, np.timedelta64 | _dt.timedelta):
        return True
    return type(x).__name__ == "DurationScalar"


def as_duration(x: Any, what: str = "limit") -> np.timedelta64:
    """A duration as ``np.timedelta64`` in nanoseconds (exact for every supported input).

    Raises
    ------
    QueryError
        If ``x`` is not a duration, is NaT, negative or beyond the int64 nanosecond range.
    """
    if type(x).__name__ == "DurationScalar":  # pyarrow
        x = x.as_py()
    if isinstance(x, _dt.timedelta):
        # pd.Timedelta subclasses timedelta and carries nanoseconds
        value = getattr(x, "value", None)
        if isinstance(value, int | np.integer) and type(x).__name__ == "Timedelta":
            ns = int(value)
        else:
            ns = (x.days * 86_400 + x.seconds) * 10**9 + x.microseconds * 1000
    elif isinstance(x, np.timedelta64):
        if np.isnat(x):
            raise QueryError(f"{what} is NaT")
        unit, mult = np.datetime_data(x.dtype)
        if unit in ("Y", "M"):
            raise QueryError(
                f"{what}={x!r}: months and years have no fixed length; give days or smaller units"
            )
        count = int(x.astype(np.int64)) * int(mult)
        if unit in _SUB_NS:
            ns = count // _SUB_NS[unit]
        else:
            ns = count * _NS_PER_UNIT[unit]
    else:
        raise QueryError(f"{what} must be a duration, got {x!r}")
    if ns < 0:
        raise QueryError(f"{what} must be >= 0, got {x!r}")
    if ns >= 2**63:
        raise QueryError(f"{what}={x!r} exceeds the nanosecond range")
    return np.timedelta64(ns, "ns")


def limit_in_units(x: Any, spec: TimeSpec, what: str) -> int | float | None:
    """A window / gap / anti-edge limit as a number in the graph's time unit.

    Parameters
    ----------
    x : number, duration or None
        The user's limit (already validated as >= 0 and not NaN by the motif).
    spec : TimeSpec
        The graph's times.
    what : str
        The limit's name for messages (``"delta"``, ``"gaps[1]"``...).

    Returns
    -------
    int, float or None
        ``None`` stays ``None``; a duration becomes the floor of its length in ``spec.unit``
        (exact for integer times: ``t2 - t1 <= d`` iff ``t2 - t1 <= floor(d)``); a number is
        returned unchanged for plain-number times.

    Raises
    ------
    QueryError
        A plain number against datetime / duration times (the message names the unit), or a
        duration against plain-number times.
    """
    if x is None:
        return None
    if is_duration(x):
        if spec.kind == "number":
            raise QueryError(
                f"{what}={_show(x)} is a duration but the graph's times are plain numbers; give "
                f"{what} as a number in the unit of the time column"
            )
        ns = int(as_duration(x, what).astype(np.int64))
        return ns // _NS_PER[spec.unit]
    if spec.kind != "number":
        raise QueryError(
            f"{what}={x!r} is a plain number but the graph's times are {spec.describe()}; "
            f"give {what} as a duration such as pd.Timedelta(seconds={x!r}), "
            f"datetime.timedelta(seconds={x!r}) or np.timedelta64({x!r}, 's') "
            f"(a number here would count {_UNIT_WORDS[spec.unit]})"
        )
    return x


def check_int64_limit(x: Any, span: int | None, what: str) -> None:
    """Refuse an int64 time limit of ``2**63 - 1`` or more that does not cover the graph's span.

    The engines hold int64 limits below ``2**63 - 1``: a larger one stands for "no limit",
    which is right only where it covers every time difference of the graph (``span``). Int64
    times may lie up to ``2**64 - 1`` apart, so a limit of ``2**63 - 1`` (or more) can fall
    short of ``span``: it is refused then, with this reason.

    Parameters
    ----------
    x : int, float or None
        The limit in the graph's time unit (``None``: no limit; NaN, negative or non-numeric
        limits are left to the limit's own checks).
    span : int or None
        The largest difference between two edge times (None: float times, or no edges).
    what : str
        The limit's name for messages (``"delta"``, ``"gaps[1]"``...).

    Raises
    ------
    QueryError
        If ``x`` is ``2**63 - 1`` or more and less than ``span``.
    """
    if span is None or isinstance(x, bool) or not isinstance(x, numbers.Real):
        return  # no limit, or not a number: the limit's own checks judge it
    if not math.isfinite(x):
        return
    v = math.floor(x) if isinstance(x, float | np.floating) else int(x)
    if _INT64_MAX <= v < span:
        raise QueryError(
            f"{what}={v} is not supported with int64 times spanning {span}: a time limit of "
            f"2**63 - 1 ({_INT64_MAX}) or more stands for no limit, and this graph has times "
            "further apart; give a smaller limit or None"
        )


_INT64_MAX = 2**63 - 1
_UNIT_WORDS = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}


def _show(x: Any) -> str:
    return str(x) if isinstance(x, _dt.timedelta) else repr(x)


# ====================================================================== edge times
def _datetime_unit(dtype: np.dtype) -> str:
    unit = np.datetime_data(dtype)[0]
    if unit in _KEPT_UNITS:
        return unit
    if unit in ("ps", "fs", "as"):
        return "ns"
    return "s"


def _from_datetime64(t: np.ndarray, what: str, tz: str | None) -> tuple[np.ndarray, TimeSpec]:
    kind = "datetime" if t.dtype.kind == "M" else "duration"
    if np.isnat(t).any():
        raise InputError(
            f"{what}: times hold {int(np.isnat(t).sum())} NaT value(s) (first at row "
            f"{int(np.flatnonzero(np.isnat(t))[0])})"
        )
    unit = _datetime_unit(t.dtype)
    if np.datetime_data(t.dtype)[0] != unit:
        base = "datetime64" if kind == "datetime" else "timedelta64"
        if np.datetime_data(t.dtype)[0] in ("Y", "M") and kind == "duration":
            raise InputError(f"{what}: durations in months or years have no fixed length")
        conv = t.astype(f"{base}[{unit}]")
        back = conv.astype(t.dtype)
        if unit != "ns" and not np.array_equal(back, t):
            raise InputError(f"{what}: times do not fit {base}[{unit}]")
        t = conv
    return t.view(np.int64).copy(), TimeSpec(kind, unit, tz)


def _from_objects(vals: list, what: str) -> tuple[np.ndarray, TimeSpec] | None:
    """Python / pandas datetime, date or timedelta objects (None if they are something else)."""
    if not vals:
        return None
    if all(isinstance(x, _dt.datetime) for x in vals):
        aware = [x.tzinfo is not None and x.utcoffset() is not None for x in vals]
        if any(aware) and not all(aware):
            raise InputError(f"{what}: times mix tz-aware and naive datetimes")
        zones = {str(x.tzinfo) for x in vals} if all(aware) else set()
        fine = any(getattr(x, "nanosecond", 0) for x in vals)
        unit = "ns" if fine else "us"
        out = np.empty(len(vals), dtype=f"datetime64[{unit}]")
        for i, x in enumerate(vals):
            if x.tzinfo is not None and x.utcoffset() is not None:
                x = x.astimezone(_dt.UTC).replace(tzinfo=None)
            out[i] = x.to_datetime64() if hasattr(x, "to_datetime64") else np.datetime64(x, unit)
        tz = zones.pop() if len(zones) == 1 else ("UTC" if zones else None)
        return _from_datetime64(out, what, tz)
    if all(isinstance(x, _dt.date) and not isinstance(x, _dt.datetime) for x in vals):
        return _from_datetime64(np.array(vals, dtype="datetime64[D]"), what, None)
    if all(isinstance(x, _dt.timedelta | np.timedelta64) for x in vals):
        ns = np.array([int(as_duration(x, what).astype(np.int64)) for x in vals], dtype=np.int64)
        return _from_datetime64(ns.view("timedelta64[ns]"), what, None)
    if any(isinstance(x, _dt.date | _dt.timedelta | np.timedelta64 | np.datetime64) for x in vals):
        raise InputError(f"{what}: times mix datetimes or durations with other values")
    return None


#: Text read as a datetime: ISO 8601 starting with a calendar date (``2024-01-31``, then
#: optionally a time, ``T`` or a space before it, and a UTC offset or ``Z``).
_ISO_DATE = re.compile(r"\s*[+-]?\d{4,}-\d{2}-\d{2}")


def _from_text(vals: list, what: str) -> tuple[np.ndarray, TimeSpec]:
    """Text times (``str`` / ``bytes``) read as ISO 8601 datetimes, or refused.

    Digit strings such as ``"10"`` are not read as numbers: text times are datetimes or an
    error, so a column of numbers stored as text is never silently taken for numbers.

    Raises
    ------
    InputError
        A value that is not ISO 8601 date text, or text mixed with other values.
    """
    parsed = []
    for row, x in enumerate(vals):
        text = x.decode("ascii", "replace") if isinstance(x, bytes) else x
        if not isinstance(text, str):
            raise InputError(
                f"{what}: times must be numeric or datetimes, got text mixed with other values "
                f"({vals[0]!r:.40} and {x!r:.40} at row {row})"
            )
        value = None
        if _ISO_DATE.match(text):
            try:
                value = _dt.datetime.fromisoformat(text.strip())
            except ValueError:
                value = None
        if value is None:
            raise InputError(
                f"{what}: times must be numeric or datetimes, got text ({x!r:.40} at row "
                f"{row}); text is read as datetimes only in ISO 8601 form, such as '2024-01-31' "
                "or '2024-01-31 12:00:00', and never as numbers"
            )
        parsed.append(value)
    got = _from_objects(parsed, what)
    assert got is not None  # every value is a datetime
    return got


def normalise_times(time: Any, what: str, tz: str | None = None) -> tuple[np.ndarray, TimeSpec]:
    """Validate edge times and turn them into engine numbers.

    Parameters
    ----------
    time : array-like
        One time per edge: numbers, ``datetime64`` / ``timedelta64`` (any unit), Python /
        pandas ``datetime``, ``date`` or ``timedelta`` objects, or ISO 8601 datetime text
        (``"2024-01-31 12:00"``, read as Python would with ``datetime.fromisoformat``).
    what : str
        How to call the input in error messages.
    tz : str, optional
        Time zone of ``time`` when it is a UTC ``datetime64`` array taken from a tz-aware column.

    Returns
    -------
    (numpy.ndarray, TimeSpec)
        int64 (integers, datetimes, durations) or float64 times, and what they stand for.

    Raises
    ------
    InputError
        For NaN, NaT, inf, missing or boolean times, non-numeric values, integers beyond int64,
        text that is not an ISO 8601 datetime (``"10"`` included: text is never read as a
        number), or a mix of datetimes with other values.
    """
    t = np.asarray(time)
    if t.ndim != 1:
        raise InputError(f"{what}: times must be one-dimensional, got shape {t.shape}")
    if t.dtype.kind in "US":
        return _from_text(t.tolist(), what)
    if t.dtype == object:
        vals = t.tolist()
        if any(isinstance(x, bool | np.bool_) for x in vals):
            raise InputError(f"{what}: times must be numeric, got booleans")
        if any(isinstance(x, str | bytes) for x in vals):
            return _from_text(vals, what)
        got = _from_objects(vals, what)
        if got is not None:
            return got
        if vals and all(isinstance(x, int | np.integer) for x in vals):
            try:
                return np.array(vals, dtype=np.int64), NUMBER_TIMES
            except OverflowError as exc:
                raise InputError(f"{what}: integer times exceed the int64 range") from exc
        try:
            t = t.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise InputError(f"{what}: times must be numeric or datetimes ({exc})") from exc
    if t.dtype.kind in "mM":
        return _from_datetime64(t, what, tz if t.dtype.kind == "M" else None)
    if t.dtype.kind == "b" or t.dtype.kind not in "iuf":
        raise InputError(f"{what}: times must be numeric or datetimes, got dtype {t.dtype}")
    if t.dtype.kind == "f":
        bad = ~np.isfinite(t)
        if bad.any():
            raise InputError(
                f"{what}: times hold {int(bad.sum())} NaN/inf value(s) (first at row "
                f"{int(np.flatnonzero(bad)[0])})"
            )
        return t.astype(np.float64), NUMBER_TIMES
    if t.dtype.kind == "u" and len(t) and int(t.max()) > np.iinfo(np.int64).max:
        raise InputError(f"{what}: times exceed the int64 range")
    return t.astype(np.int64), NUMBER_TIMES


def times_for_output(values: np.ndarray, spec: TimeSpec) -> np.ndarray:
    """Engine times back in the input's numpy type (``datetime64[unit]`` in UTC for datetimes,
    ``timedelta64[unit]`` for durations, the numbers themselves otherwise)."""
    dtype = spec.numpy_dtype
    if dtype is None:
        return values
    return np.asarray(values, dtype=np.int64).view(dtype)


def format_duration(x: Any) -> str:
    """A duration in its largest exact unit (``1h``, ``90min``, ``1500ms``); other values as
    ``str``."""
    if not is_duration(x):
        return str(x)
    ns = int(as_duration(x).astype(np.int64))
    for unit, size in (("d", 86_400 * 10**9), ("h", 3_600 * 10**9), ("min", 60 * 10**9)):
        if ns and ns % size == 0:
            return f"{ns // size}{unit}"
    for unit, size in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
        if ns % size == 0:
            return f"{ns // size}{unit}"
    return f"{ns}ns"
