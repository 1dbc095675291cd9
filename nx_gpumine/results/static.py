"""Static match results: dense-id arrays -> node keys, frames, NetworkX-style mapping dicts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import InputError
from ..inputs.patterns import Pattern
from ..inputs.static_graph import StaticGraph

__all__ = ["key_array", "matches_to_keys", "matches_to_frame", "iter_mappings", "FRAME_KINDS"]

FRAME_KINDS = ("pandas", "polars", "pyarrow", "cudf")
_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


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
    """Replace dense ids by node keys (same shape)."""
    return key_array(graph)[ids]


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
    keys = matches_to_keys(graph, ids)
    cols = {name: keys[:, j] for j, name in enumerate(_column_names(pattern))}
    if kind == "pandas":
        import pandas as pd

        return pd.DataFrame(cols)
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
