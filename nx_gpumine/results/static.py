"""Static match results: dense-id arrays -> node keys, frames, NetworkX-style mapping dicts."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from ..errors import InputError
from ..inputs.patterns import Pattern
from ..inputs.static_graph import StaticGraph

__all__ = [
    "key_array",
    "matches_to_keys",
    "matches_to_frame",
    "iter_mappings",
    "FRAME_KINDS",
    "ROW_BLOCK",
    "fill_rows",
    "take_rows",
    "keys_are_positions",
]

FRAME_KINDS = ("pandas", "polars", "pyarrow", "cudf")
_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1

ROW_BLOCK = 1 << 20
"""Rows converted per NumPy call. Python raises a pending ``KeyboardInterrupt`` only between two
such calls, so a Ctrl-C during the conversion of millions of matches is seen within one block
(milliseconds) instead of after one whole-result fancy index (seconds)."""


def fill_rows(n: int, block: Callable[[slice], np.ndarray], dtype: DTypeLike = None) -> np.ndarray:
    """The rows ``block(s)`` of consecutive slices ``s`` of ``range(n)`` (``ROW_BLOCK`` rows
    each), written one block at a time into one array.

    Parameters
    ----------
    n : int
        Rows of the result.
    block : callable
        ``block(s)`` gives the rows of slice ``s`` (``s.stop - s.start`` of them); every block
        must have the same dtype and trailing shape.
    dtype : data-type, optional
        Dtype of the result (rows are cast to it); default: that of ``block(slice(0, 0))``.

    Returns
    -------
    numpy.ndarray
        ``(n, ...)``: what ``np.concatenate([block(s) for s in slices])`` gives.
    """
    first = block(slice(0, 0))
    out = np.empty((n, *first.shape[1:]), dtype=first.dtype if dtype is None else dtype)
    for lo in range(0, n, ROW_BLOCK):
        s = slice(lo, min(lo + ROW_BLOCK, n))
        out[s] = block(s)
    return out


def take_rows(table: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``table[index]`` (same dtype, shape ``index.shape + table.shape[1:]``), computed
    ``ROW_BLOCK`` rows of ``index`` at a time (see :data:`ROW_BLOCK`).

    Parameters
    ----------
    table : numpy.ndarray
        The values looked up (rows of ``table``).
    index : numpy.ndarray
        Integer positions in ``table``; any shape, blocks are taken along its first axis.

    Returns
    -------
    numpy.ndarray
    """
    index = np.asarray(index)
    if index.ndim == 0:
        return table[index]
    out = np.empty(index.shape + table.shape[1:], dtype=table.dtype)
    for lo in range(0, len(index), ROW_BLOCK):
        block = index[lo : lo + ROW_BLOCK]
        if block.size and not -len(table) <= block.min() <= block.max() < len(table):
            raise IndexError(f"index out of bounds for a table of {len(table)} rows")
        # in bounds, mode="wrap" is table[block] written straight into out (mode="raise" goes
        # through a temporary: for object keys, twice the reference counting)
        np.take(table, block, axis=0, out=out[lo : lo + ROW_BLOCK], mode="wrap")
    return out


def keys_are_positions(keys: Sequence[Any]) -> bool:
    """Whether ``keys`` are exactly the Python ints ``0, 1, ..., len(keys) - 1`` in this order
    (dense id ``i`` is node ``i``: matches need no key lookup).

    Parameters
    ----------
    keys : sequence
        Node keys in dense-id order.

    Returns
    -------
    bool
    """
    return all(type(x) is int and x == i for i, x in enumerate(keys))


def key_array(graph: StaticGraph) -> np.ndarray:
    """Dense id -> node key as a numpy array (int64 when every key is an int that fits in 64
    bits, else object: keys such as ``2**63`` come back as the Python ints they are)."""
    keys = graph.keys
    if all(type(x) is int and _I64_MIN <= x <= _I64_MAX for x in keys):
        return np.asarray(keys, dtype=np.int64)
    out = np.empty(len(keys), dtype=object)
    for i, x in enumerate(keys):
        out[i] = x
    return out


def matches_to_keys(graph: StaticGraph, ids: np.ndarray) -> np.ndarray:
    """Replace dense ids by node keys (same shape).

    Parameters
    ----------
    graph : StaticGraph
        Gives node keys.
    ids : numpy.ndarray
        Dense ids (any shape; ``(n, k)`` matches).

    Returns
    -------
    numpy.ndarray
        ``key_array(graph)[ids]``, computed in blocks of rows (a Ctrl-C is seen between two);
        when the keys are the ids themselves (``0 .. n - 1`` in order), ``ids`` as int64
        without a lookup.
    """
    if keys_are_positions(graph.keys):
        return np.asarray(ids, dtype=np.int64)
    return take_rows(key_array(graph), ids)


def _column_names(pattern: Pattern) -> list[str]:
    names: list[str] = []
    seen: set[str] = set()
    for v in pattern.nodes:
        name = str(v)
        while name in seen:
            name = name + "_"
        seen.add(name)
        names.append(name)
    return names


def matches_to_frame(graph: StaticGraph, pattern: Pattern, ids: np.ndarray, kind: str) -> Any:
    """A frame with one column per pattern node (named ``str(node)``), rows = matches.

    Parameters
    ----------
    graph : StaticGraph
        Gives node keys.
    pattern : Pattern
        Gives column names.
    ids : numpy.ndarray
        ``(n, k)`` dense ids.
    kind : {"pandas", "polars", "pyarrow", "cudf"}
        Frame library.
    """
    if kind not in FRAME_KINDS:
        raise InputError(f"as_frame must be one of {FRAME_KINDS} or None, got {kind!r}")
    ids = np.asarray(ids)
    table = None if keys_are_positions(graph.keys) else key_array(graph)
    # each column built contiguous, block by block (a Ctrl-C is seen between two blocks)
    cols = {
        name: fill_rows(len(ids), lambda s, j=j: ids[s, j], np.int64)
        if table is None
        else take_rows(table, ids[:, j])
        for j, name in enumerate(_column_names(pattern))
    }
    if kind == "pandas":
        import pandas as pd

        # the columns are final and not shared: no copy, and no consolidation into one block
        # (a whole-result copy that a Ctrl-C cannot interrupt)
        return pd.DataFrame(cols, copy=False)
    if kind == "polars":
        import polars as pl

        return pl.DataFrame({n: c.tolist() if c.dtype == object else c for n, c in cols.items()})
    if kind == "pyarrow":
        import pyarrow as pa

        return pa.table({n: c.tolist() if c.dtype == object else c for n, c in cols.items()})
    import cudf

    return cudf.DataFrame(cols)


def iter_mappings(graph: StaticGraph, pattern: Pattern, blocks: Any) -> Iterator[dict[Any, Any]]:
    """NetworkX-direction dicts ``{graph node: pattern node}`` from blocks of dense-id matches."""
    keys = graph.keys
    pnodes = pattern.nodes
    for block in blocks:
        for row in np.asarray(block).tolist():
            yield {keys[g]: pnodes[a] for a, g in enumerate(row)}
