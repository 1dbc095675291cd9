"""Results of the static subgraph census: a table of graphlets and counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ..plan.graphlets import Graphlet
from .static import FRAME_KINDS

__all__ = ["census_frame", "orbit_frame"]


def census_frame(graphlets: Sequence[Graphlet], counts: Sequence[int], kind: str) -> Any:
    """The census as a tidy frame: one row per graphlet, columns ``pattern`` (its name),
    ``nodes``, ``edges`` (how many), ``edge_list`` (its edges on nodes ``0..k-1``, as text) and
    ``count`` (int64).

    Parameters
    ----------
    graphlets : sequence of Graphlet
        The census's graphlets.
    counts : sequence of int
        A count each.
    kind : {"pandas", "polars", "pyarrow", "cudf"}
        Frame library.

    Returns
    -------
    DataFrame or pyarrow.Table
    """
    cols = {
        "pattern": [g.name for g in graphlets],
        "nodes": np.array([g.k for g in graphlets], dtype=np.int64),
        "edges": np.array([len(g.edges) for g in graphlets], dtype=np.int64),
        "edge_list": [g.edge_text() for g in graphlets],
        "count": np.array([int(c) for c in counts], dtype=np.int64),
    }
    return _frame(cols, kind)


def orbit_frame(keys: Sequence[Any], counts: np.ndarray, names: Sequence[str], kind: str) -> Any:
    """Per-node orbit counts as a frame: a ``node`` column (the graph's node keys), then one
    int64 column per orbit (``names``, ORCA's order).

    Parameters
    ----------
    keys : sequence
        Node keys, one per row of ``counts``.
    counts : numpy.ndarray
        int64 ``[n, len(names)]``.
    names : sequence of str
        Column names.
    kind : {"pandas", "polars", "pyarrow", "cudf"}
        Frame library.

    Returns
    -------
    DataFrame or pyarrow.Table
    """
    cols: dict[str, Any] = {"node": list(keys)}
    for j, name in enumerate(names):
        cols[name] = np.ascontiguousarray(counts[:, j])
    return _frame(cols, kind)


def _frame(cols: dict[str, Any], kind: str) -> Any:
    """``cols`` as a ``kind`` frame (through narwhals: one path for every frame library)."""
    if kind not in FRAME_KINDS:
        raise InputError(f"as_frame must be one of {FRAME_KINDS} or None, got {kind!r}")
    import narwhals as nw

    return nw.from_dict(cols, backend=kind).to_native()
