"""Dataframe-agnostic column extraction (pandas, polars, pyarrow, cuDF...) through narwhals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = [
    "frame_columns",
    "frame_namespace",
    "frame_time_zone",
    "is_frame",
    "node_labels_from_columns",
    "series_to_numpy",
]


def is_frame(obj: Any) -> bool:
    """Return True if ``obj`` is a dataframe narwhals understands."""
    try:
        import narwhals as nw
    except ImportError:  # pragma: no cover - narwhals is a core dependency
        return False
    try:
        nw.from_native(obj, eager_only=True)
    except TypeError:
        return False
    return True


def frame_namespace(frame: Any) -> str:
    """Name of the native library of ``frame`` ("pandas", "polars", "pyarrow", "cudf"...)."""
    import narwhals as nw

    df = nw.from_native(frame, eager_only=True)
    return str(nw.get_native_namespace(df).__name__).split(".")[0]


def frame_columns(
    frame: Any, columns: Sequence[str | None], *, what: str = "edge frame"
) -> list[np.ndarray | None]:
    """Extract columns of an eager dataframe as host numpy arrays.

    Parameters
    ----------
    frame : dataframe
        A pandas, polars, pyarrow, cuDF (or any narwhals-supported eager) frame.
    columns : sequence of str or None
        Column names to extract; ``None`` entries give ``None`` back (optional columns).
    what : str
        How to call the frame in error messages.

    Returns
    -------
    list of numpy.ndarray or None
        One array per requested column, in order.

    Raises
    ------
    InputError
        If a column is missing or holds nulls.
    """
    import narwhals as nw

    try:
        df = nw.from_native(frame, eager_only=True)
    except TypeError as exc:
        raise InputError(
            f"{what}: expected a dataframe (pandas, polars, pyarrow, cuDF...), "
            f"got {type(frame).__name__}"
        ) from exc
    present = list(df.columns)
    out: list[np.ndarray | None] = []
    for name in columns:
        if name is None:
            out.append(None)
            continue
        if name not in present:
            raise InputError(f"{what}: column {name!r} is missing (columns are {present})")
        series = df[name]
        nulls = int(series.null_count())
        if nulls:
            raise InputError(f"{what}: column {name!r} holds {nulls} null value(s)")
        arr = series.to_numpy()
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            raise InputError(f"{what}: column {name!r} holds NaN value(s)")
        out.append(np.asarray(arr))
    return out


def series_to_numpy(values: Any) -> tuple[np.ndarray, str | None]:
    """A column-like object as a host numpy array, and its time zone when it is tz-aware.

    pandas / polars Series and pyarrow arrays go through narwhals (a tz-aware datetime series
    becomes ``datetime64`` in UTC, its zone returned beside it); CuPy arrays are copied to the
    host; anything else goes through ``numpy.asarray``.
    """
    if hasattr(values, "get") and type(values).__module__.startswith("cupy"):
        return np.asarray(values.get()), None
    if isinstance(values, np.ndarray | list | tuple):
        return np.asarray(values), None
    import narwhals as nw

    try:
        series = nw.from_native(values, series_only=True)
    except TypeError:
        return np.asarray(values), None
    dtype = series.dtype
    tz = dtype.time_zone if isinstance(dtype, nw.Datetime) else None
    return np.asarray(series.to_numpy()), tz


def frame_time_zone(frame: Any, column: str) -> str | None:
    """Time zone of a tz-aware datetime column (``None`` for naive datetimes or other types).

    :func:`frame_columns` gives such a column as ``datetime64`` in UTC; this says which zone
    the values were shown in, so results can be converted back.
    """
    import narwhals as nw

    df = nw.from_native(frame, eager_only=True)
    if column not in df.columns:
        return None
    dtype = df.schema[column]
    if isinstance(dtype, nw.Datetime):
        return dtype.time_zone
    return None


def node_labels_from_columns(
    frame: Any,
    source: str,
    target: str,
    source_label: str | None = None,
    target_label: str | None = None,
    *,
    what: str = "edge frame",
) -> dict:
    """Node key -> label, read from per-edge label columns of the source and target nodes.

    Each row says "the source node has label ``row[source_label]``" and/or "the target node has
    label ``row[target_label]``"; a node that appears on several rows must get the same label
    on all of them. Nodes seen only in an unnamed role get no entry (unlabelled).

    Parameters
    ----------
    frame : dataframe
        The edge frame (pandas, polars, pyarrow, cuDF...).
    source, target : str
        Endpoint column names.
    source_label, target_label : str, optional
        Columns holding the label of the row's source / target node (at least one).
    what : str
        How to call the frame in error messages.

    Returns
    -------
    dict
        Node key -> label value.

    Raises
    ------
    InputError
        If no label column is named, a column is missing or holds nulls, or a node gets two
        different labels.
    """
    if source_label is None and target_label is None:
        raise InputError(f"{what}: name source_label and/or target_label to read node labels")
    s, d, ls, ld = frame_columns(frame, [source, target, source_label, target_label], what=what)
    labels: dict = {}
    where: dict = {}
    for keys, vals, col in ((s, ls, source_label), (d, ld, target_label)):
        if vals is None or keys is None:
            continue
        for row, (k, v) in enumerate(zip(keys.tolist(), vals.tolist(), strict=True)):
            old = labels.setdefault(k, v)
            if old != v:
                c0, r0 = where[k]
                raise InputError(
                    f"{what}: node {k!r} has two labels, {old!r} (column {c0!r}, row {r0}) "
                    f"and {v!r} (column {col!r}, row {row})"
                )
            where.setdefault(k, (col, row))
    return labels
