"""Edge columns that live on a CUDA device (cuDF, CuPy): graphs built there, never via the host.

A cuDF frame, or a mapping of column name -> device array (CuPy, or anything with
``__cuda_array_interface__``, e.g. a Numba device array), is read column by column as CuPy
arrays (zero-copy views where the library allows). The graph is then built *on the device*
by the same bulk array operations as on the host (:func:`static_arrays` and
:func:`temporal_arrays` take the array module, NumPy or CuPy, as an argument): dense node ids
by ``unique``, the union CSR or the time-sorted edge lists by stable sorts, binary searches and
``cumsum``. Those device arrays become the graph's device cache, so the CUDA engines start
without uploading anything; a host mirror of the built arrays (one device-to-host download)
serves the query planner, which reads the graph on the host. The input columns themselves
never pass through host memory.

The device path takes numeric endpoints (node keys are the distinct endpoint values) and
integer or float times. Other inputs (string keys, edge or node labels, ``nodes=``, datetime
columns) take the host path through narwhals, with one device-to-host copy of the columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import InputError, UnsupportedGraphError

__all__ = [
    "device_columns",
    "host_fallback",
    "is_device_array",
    "is_device_frame",
    "static_arrays",
    "static_from_device",
    "temporal_arrays",
    "temporal_from_device",
]


def is_device_array(obj: Any) -> bool:
    """Whether ``obj`` is a CUDA device array (exposes ``__cuda_array_interface__``)."""
    return hasattr(obj, "__cuda_array_interface__")


def _is_cudf_frame(obj: Any) -> bool:
    return type(obj).__module__.split(".")[0] == "cudf" and hasattr(obj, "columns")


def is_device_frame(obj: Any) -> bool:
    """Whether ``obj`` is a cuDF DataFrame, or a non-empty mapping of device arrays."""
    if _is_cudf_frame(obj):
        return True
    return (
        isinstance(obj, Mapping)
        and len(obj) > 0
        and all(isinstance(k, str) and is_device_array(v) for k, v in obj.items())
    )


def _as_cupy(column: Any, name: str, what: str) -> Any:
    """One device column as a CuPy array (no host copy), or None when it cannot be one."""
    import cupy as cp

    if type(column).__module__.split(".")[0] == "cudf":
        nulls = int(column.null_count)
        if nulls:
            raise InputError(f"{what}: column {name!r} holds {nulls} null value(s)")
        if getattr(column.dtype, "kind", "O") not in "iuf":
            return None  # datetimes, strings, categories: the host path
        return column.to_cupy()
    if not is_device_array(column):
        return None
    arr = cp.asarray(column)
    if arr.ndim != 1 or arr.dtype.kind not in "iuf":
        return None
    return arr


def device_columns(
    frame: Any, names: Sequence[str | None], *, what: str = "edge frame"
) -> list[Any] | None:
    """Columns of a device frame as CuPy arrays, or None when they cannot all stay on the device.

    Parameters
    ----------
    frame : cudf.DataFrame or mapping of str -> device array
        The edge frame.
    names : sequence of str or None
        Columns to read (``None`` entries give ``None``).
    what : str
        How to call the frame in error messages.

    Returns
    -------
    list of cupy.ndarray or None
        One array per name; ``None`` overall when ``frame`` is not on a device or a column is
        not numeric (the caller then reads the frame on the host).

    Raises
    ------
    InputError
        If a column is missing or holds nulls (cuDF) or NaN / inf values (float columns).
    """
    if not is_device_frame(frame):
        return None
    present = [str(c) for c in frame.columns] if _is_cudf_frame(frame) else list(frame)
    out: list[Any] = []
    for name in names:
        if name is None:
            out.append(None)
            continue
        if name not in present:
            raise InputError(f"{what}: column {name!r} is missing (columns are {present})")
        arr = _as_cupy(frame[name], name, what)
        if arr is None:
            return None
        if arr.dtype.kind == "f":
            import cupy as cp

            bad = int((~cp.isfinite(arr)).sum())
            if bad:
                raise InputError(f"{what}: column {name!r} holds {bad} NaN/inf value(s)")
        out.append(arr)
    return out


def _host_frame(frame: Any) -> Any:
    """A mapping of device arrays as a pandas frame (for the host path)."""
    if _is_cudf_frame(frame):
        return frame
    import cupy as cp
    import pandas as pd

    return pd.DataFrame({k: cp.asnumpy(cp.asarray(v)) for k, v in frame.items()})


def _dense(xp: Any, src: Any, dst: Any) -> tuple[Any, Any, Any]:
    """Dense ids (by sorted distinct key) of two endpoint arrays, and the keys."""
    m = len(src)
    both = xp.concatenate([src, dst])
    uniq, inv = xp.unique(both, return_inverse=True)
    inv = inv.reshape(-1).astype(xp.int64)
    return inv[:m], inv[m:], uniq


# ====================================================================== static
def static_arrays(xp: Any, src: Any, dst: Any, directed: bool, duplicates: str = "raise") -> dict:
    """The union CSR of an unlabelled edge list, built with array module ``xp`` (NumPy, CuPy).

    The same arrays as the host builder of :mod:`nx_gpumine.inputs.static_graph` (dense ids by
    sorted distinct key).

    Parameters
    ----------
    xp : module
        ``numpy`` or ``cupy``; every array stays in it.
    src, dst : array
        Numeric endpoint keys, one per edge.
    directed : bool
        Whether edges are directed.
    duplicates : {"raise", "drop"}
        What to do with repeated edges.

    Returns
    -------
    dict
        ``indptr`` (int64), ``indices`` (int32), ``dircode`` (uint8), ``loop`` (uint8),
        ``keys`` (the distinct keys, dense-id order).

    Raises
    ------
    UnsupportedGraphError
        For a repeated edge or self-loop with ``duplicates="raise"``.
    """
    if duplicates not in ("raise", "drop"):
        raise InputError(f"duplicates must be 'raise' or 'drop', got {duplicates!r}")
    s, d, keys = _dense(xp, src, dst)
    n = len(keys)
    if n >= 2**31 - 1:
        raise InputError(f"edge frame: {n} vertices exceed the int32 id range")

    def key(i: Any) -> Any:
        return keys[int(i)].item()

    is_loop = s == d
    lv = s[is_loop]
    loop = xp.zeros(n, dtype=xp.uint8)
    if len(lv) and duplicates == "raise":
        slv = xp.sort(lv)
        rep = xp.flatnonzero(slv[1:] == slv[:-1])
        if len(rep):
            raise UnsupportedGraphError(
                f"edge frame: self-loop on node {key(slv[int(rep[0])])!r} appears more than "
                "once; the graph must be simple (pass duplicates='drop' to keep the first)"
            )
    loop[lv] = 1
    s, d = s[~is_loop], d[~is_loop]
    fwd, bwd = (1, 2) if directed else (3, 3)
    ku = xp.concatenate([s, d])
    kv = xp.concatenate([d, s])
    code = xp.concatenate(
        [xp.full(len(s), fwd, dtype=xp.int64), xp.full(len(s), bwd, dtype=xp.int64)]
    )
    if n <= 2**30:
        order = xp.argsort((ku * n + kv) * 4 + code, kind="stable")
    else:
        order = xp.lexsort(xp.stack([code, kv, ku]))
    ku, kv, code = ku[order], kv[order], code[order]
    same = (ku[1:] == ku[:-1]) & (kv[1:] == kv[:-1])
    dup = same & ((code[1:] & code[:-1]) != 0)
    dup_at = xp.flatnonzero(dup)
    if len(dup_at):
        if duplicates == "raise":
            i = int(dup_at[0])
            kind = "edge" if directed else "undirected edge"
            raise UnsupportedGraphError(
                f"edge frame: {kind} ({key(ku[i])!r}, {key(kv[i])!r}) appears more than once; "
                "multigraphs are not supported (pass duplicates='drop' to keep the first "
                "occurrence)"
            )
        keep = xp.ones(len(ku), dtype=bool)
        keep[1:][dup] = False
        ku, kv, code = ku[keep], kv[keep], code[keep]
    first = xp.ones(len(ku), dtype=bool)
    if len(ku):
        first[1:] = (ku[1:] != ku[:-1]) | (kv[1:] != kv[:-1])
    starts = xp.flatnonzero(first)
    # the codes of one (u, v) group are distinct bits now: their sum is their union
    csum = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(code)])
    ends = xp.concatenate([starts[1:], xp.full(1, len(ku), dtype=starts.dtype)])
    dircode = (csum[ends] - csum[starts]).astype(xp.uint8)
    indptr = row_pointers(xp, ku[starts], n, xp.int64)
    return {
        "indptr": indptr,
        "indices": kv[starts].astype(xp.int32),
        "dircode": dircode,
        "loop": loop,
        "keys": keys,
    }


def static_from_device(
    frame: Any,
    graph_type: type,
    *,
    source: str,
    target: str,
    directed: bool,
    duplicates: str = "raise",
) -> Any:
    """A static graph built on the device from a device frame (None: use the host path).

    ``graph_type`` is :class:`~nx_gpumine.inputs.static_graph.StaticGraph` (passed by its
    module, which imports this one). The device CSR becomes the graph's device cache
    (``graph.device_arrays()``), with a host mirror for planning. Returns None when the
    columns cannot stay on the device.
    """
    cols = device_columns(frame, [source, target])
    if cols is None:
        return None
    import cupy as cp

    arrs = static_arrays(cp, cols[0], cols[1], directed, duplicates)
    host = {k: cp.asnumpy(arrs[k]) for k in ("indptr", "indices", "dircode", "loop")}
    g = graph_type(directed=directed, keys=cp.asnumpy(arrs["keys"]).tolist(), **host)
    # under the key graph.device_arrays() reads: per device id (other GPUs upload the mirror)
    key = ("arrays", cp.cuda.runtime.getDevice())
    g.keep_built_arrays(key, {k: arrs[k] for k in ("indptr", "indices", "dircode", "loop")})
    return g


# ====================================================================== temporal
def temporal_arrays(xp: Any, src: Any, dst: Any, time: Any) -> dict:
    """A temporal graph's arrays from numeric columns, built with array module ``xp``.

    Edges are sorted stably by time (edge id = position); the same arrays as
    :func:`nx_gpumine.inputs.temporal_graph.temporal_from_arrays` gives for numeric input.

    Returns
    -------
    dict
        ``src``, ``dst`` (int32), ``time`` (int64 or float64), ``rows``, ``next_id``,
        ``out_ptr``, ``out_edges``, ``in_ptr``, ``in_edges`` (int64), ``keys``.
    """
    if not (len(src) == len(dst) == len(time)):
        raise InputError(
            f"edge frame: src, dst and time differ in length ({len(src)}, {len(dst)}, {len(time)})"
        )
    if time.dtype.kind not in "iuf":
        raise InputError(f"edge frame: times must be numeric here, got dtype {time.dtype}")
    t = time.astype(xp.float64 if time.dtype.kind == "f" else xp.int64)
    s, d, keys = _dense(xp, src, dst)
    n = len(keys)
    if n > np.iinfo(np.int32).max:
        raise InputError(f"{n} vertices exceed the int32 id range")
    order = xp.argsort(t, kind="stable").astype(xp.int64)
    s, d, t = s[order], d[order], t[order]
    out = {"src": s.astype(xp.int32), "dst": d.astype(xp.int32), "time": t, "rows": order}
    out.update(temporal_index_arrays(xp, s, d, t, n))
    out["keys"] = keys
    return out


def row_pointers(xp: Any, sorted_owner: Any, n: int, dtype: Any) -> Any:
    """CSR row pointers (``n + 1``) of entries whose owners are sorted ascending, below ``n``.

    Binary searches for each row's first entry: scratch of ``n + 1`` words only. (CuPy's
    ``bincount`` runs CUB's histogram, whose temporary storage reached 2.2 GB for a million
    bins, outside any device budget.)
    """
    return xp.searchsorted(sorted_owner, xp.arange(n + 1, dtype=sorted_owner.dtype)).astype(
        dtype, copy=False
    )


def temporal_index_arrays(
    xp: Any, src: Any, dst: Any, time: Any, n: int, dtype: Any = None
) -> dict:
    """``next_id``, ``out_ptr``, ``out_edges``, ``in_ptr``, ``in_edges`` of time-sorted edges
    with dense vertex ids below ``n``, built with array module ``xp`` (``dtype``: of the
    results, int64 by default). The streamed temporal engine builds each time partition's lists
    on the device with it, vertex ids kept global.
    """
    dtype = xp.int64 if dtype is None else dtype
    out = {}
    for name, own in (("out", src), ("in", dst)):
        edges = xp.argsort(own, kind="stable")
        out[f"{name}_ptr"] = row_pointers(xp, own[edges], n, dtype)
        out[f"{name}_edges"] = edges.astype(dtype, copy=False)
    out["next_id"] = xp.searchsorted(time, time, side="right").astype(dtype, copy=False)
    return out


def temporal_from_device(frame: Any, graph_type: type, source: str, target: str, time: str) -> Any:
    """A temporal graph built on the device from a device frame (None: host path).

    ``graph_type`` is :class:`~nx_gpumine.inputs.temporal_graph.TemporalGraph` (passed by its
    module, which imports this one). The device arrays become the graph's device cache
    (``graph.device_arrays()``), with a host mirror for planning and result rows.
    """
    cols = device_columns(frame, [source, target, time])
    if cols is None:
        return None
    import cupy as cp

    arrs = temporal_arrays(cp, *cols)
    names = graph_type.ARRAYS
    host = {k: cp.asnumpy(arrs[k]) for k in names}
    g = graph_type(keys=cp.asnumpy(arrs["keys"]).tolist(), **host)
    dev = {k: arrs[k] for k in names if k != "rows"}
    dev["node_label"] = dev["edge_label"] = None
    g.keep_built_arrays("arrays", dev)  # what the CUDA temporal engine reads (any device id)
    return g


def host_fallback(frame: Any) -> Any:
    """The frame to read on the host when the device path does not apply."""
    if is_device_frame(frame):
        return _host_frame(frame)
    raise UnsupportedGraphError(f"not a device frame: {type(frame).__name__}")
