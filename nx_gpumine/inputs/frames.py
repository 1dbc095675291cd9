"""Dataframe-agnostic column extraction (pandas, polars, pyarrow, cuDF...) through narwhals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = ["frame_columns", "frame_namespace", "is_frame"]


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
