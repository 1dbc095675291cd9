"""Public temporal motif functions: count, find, exists, census.

``G`` is anything :func:`~nx_gpumine.inputs.temporal_graph.as_temporal_graph` reads (a
``TemporalGraph``, a NetworkX ``DiGraph`` / ``MultiDiGraph`` with a time attribute, an edge frame,
an ``(m, 3)`` array). ``motif`` is a :class:`~nx_gpumine.inputs.motifs.TemporalMotif`, a catalogue
name (``"M4"``, ``"triangle"``, ``"01 12 20"``...), a list of ``(a, b)`` edges, or an
:class:`~nx_gpumine.inputs.everest_query.EverestQuery`. ``delta`` / ``tie`` override the motif's.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..device_limits import device_budget
from ..errors import QueryError
from ..execution.temporal import run_census, run_motif_table, run_temporal
from ..inputs.frames import frame_namespace, is_frame
from ..inputs.motif_args import UNSET, as_motif
from ..inputs.motifs import (
    CENSUS_AXIS,
    CENSUS_GRID,
    CENSUS_KEYS,
    check_motif_limits,
    motif_in_units,
)
from ..inputs.options import as_flag, as_limit
from ..inputs.temporal_graph import TemporalGraph, as_temporal_graph
from ..inputs.times import check_int64_limit, limit_in_units
from ..plan.temporal_plan import temporal_plan, time_span
from ..results.temporal import match_columns
from .paramdocs import devices_doc, fill_doc, max_device_bytes_doc, run_options_doc

__all__ = ["count_motifs", "motif_counts", "find_motifs", "has_motif", "motif_census", "as_motif"]


def _check_columns(graph_kw: Mapping) -> None:
    """Column / attribute name options must be names (a dict for ``node_label`` is refused)."""
    for key in ("source", "target", "time"):
        if not isinstance(graph_kw.get(key), (str, int)):
            raise QueryError(f"{key} must be a column or attribute name, got {graph_kw.get(key)!r}")
    for key in ("edge_label", "node_label"):
        value = graph_kw.get(key)
        if value is not None and not isinstance(value, str | int):
            hint = " (per-node labels go in node_labels=)" if key == "node_label" else ""
            raise QueryError(
                f"{key} must be a column or attribute name (str) or None, got "
                f"{type(value).__name__}{hint}"
            )
    labels = graph_kw.get("node_labels")
    if labels is not None and not isinstance(labels, Mapping):
        raise QueryError(
            f"node_labels must be a mapping node -> label, got {type(labels).__name__}"
        )


#: The column / label arguments every function takes, in the order :func:`_prepare` gets them.
_COLUMN_ARGS = ("source", "target", "time", "edge_label", "node_label", "node_labels")


def _prepare(G: Any, motif: Any, delta: Any, tie: str | None, columns: tuple) -> tuple:
    """The graph, motif (in the graph's time units) and plan of a call; ``columns``: its
    ``source``, ``target``, ``time``, ``edge_label``, ``node_label`` and ``node_labels``, in
    this order. A motif given by catalogue name, with a plain ``delta`` and ``tie``, is read
    once per graph (kept with it: :func:`_asked_key`)."""
    graph_kw = dict(zip(_COLUMN_ARGS, columns, strict=True))
    _check_columns(graph_kw)
    graph = as_temporal_graph(G, **graph_kw)
    key = _asked_key(motif, delta, tie)
    if key is None:
        return graph, *_motif_and_plan(graph, motif, delta, tie)
    m, plan = graph.derived(key, lambda: _motif_and_plan(graph, motif, delta, tie))
    return graph, m, plan


def _motif_and_plan(graph: TemporalGraph, motif: Any, delta: Any, tie: str | None) -> tuple:
    """The motif in ``graph``'s time units, checked against its time span, and its plan."""
    m = motif_in_units(as_motif(motif, delta, tie), graph.time_spec)
    check_motif_limits(m, time_span(graph))
    return m, temporal_plan(m, graph)


#: The types of ``delta`` whose values name the same window wherever they are equal.
_PLAIN_DELTAS = (int, float, str, datetime.timedelta, type(None), type(UNSET))


def _asked_key(motif: Any, delta: Any, tie: Any) -> tuple | None:
    """The key under which a call's motif and plan are kept with its graph: the catalogue
    name, ``delta`` and ``tie`` with their types (``1`` and ``1.0`` stay apart); None for
    anything else (a motif object, edges, query text, which may name a motif file that
    changes, a numpy or pandas delta), which is read anew each call (a call of a few hundred
    microseconds spent 5-8 of them here)."""
    if type(motif) is not str or "pattern:" in motif or type(delta) not in _PLAIN_DELTAS:
        return None
    if tie is not None and type(tie) is not str:
        return None
    return ("asked_motif", motif, type(delta).__name__, delta, tie)


def _is_edge(x: Any) -> bool:
    return (
        isinstance(x, Sequence)
        and not isinstance(x, str)
        and len(x) == 2
        and all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in x)
    )


def _as_list(value: Any, one: tuple[type, ...], what: str) -> list:
    """``value`` as a list of items (``one``'s types, and anything not iterable, are one item)."""
    if isinstance(value, one) or not isinstance(value, Sequence | np.ndarray):
        return [value]
    items = list(value)
    if not items:
        raise QueryError(f"{what} is empty")
    return items


#: The ``max_device_bytes`` / ``devices`` / ``client`` entries of the counting functions' docs.
_RUN_OPTIONS = run_options_doc(
    max_device_bytes_doc(
        "an edge stream whose estimated need exceeds it is streamed through the GPU in time "
        "partitions",
        " (each streams its own time partitions when they exceed it)",
    ),
    devices_doc("Everest's time partitions"),
)


def _motif_label(spec: Any, m: Any) -> str:
    """The table's name of a motif: its catalogue name, the text given, else its edges."""
    if m.name:
        return m.name
    if isinstance(spec, str):
        return spec.strip()
    if all(a < 10 and b < 10 for a, b in m.edges):
        return m.key
    return " ".join(f"{a}-{b}" for a, b in m.edges)


@fill_doc(run_options=_RUN_OPTIONS)
def motif_counts(
    G: Any,
    motifs: Any,
    deltas: Any,
    *,
    tie: str | None = None,
    engine: str = "auto",
    progress: bool = False,
    source: str = "source",
    target: str = "target",
    time: str = "time",
    edge_label: str | None = None,
    node_label: str | None = None,
    node_labels: Mapping | None = None,
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> Any:
    """The counts of several temporal motifs at several windows, as one table.

    Each cell is the number :func:`count_motifs` gives for that motif with that window. On the
    CPU engine the table is one pass: the motifs are walked at the widest window, plain ones
    together on their shared prefixes (a motif tree), and every match is binned by its span
    ``t_last - t_first``. On the GPU each motif is one walk at the widest window binning its
    matches by span, the motifs' walks together on streams of their own below 2^25 edges and
    one after another above (motifs do not share prefixes there yet). With ``client`` or
    ``devices`` each cell is counted by its own call.

    Parameters
    ----------
    G : TemporalGraph, networkx.DiGraph, dataframe or array
        The temporal graph.
    motifs : motif or sequence of motifs
        Each as :func:`count_motifs` takes it (a catalogue name such as ``"M4"``, Everest
        text such as ``"01 12 20"``, a list of ``(a, b)`` edges, a ``TemporalMotif``, an
        ``EverestQuery``); a single one is a table of one row. A list of ``(int, int)`` pairs
        is one motif (its edges).
    deltas : window or sequence of windows
        Each a number in the unit of numeric times, a duration for datetime times, or None (no
        window); the motifs' own windows are replaced.
    tie : {"strict", "input_order"}, optional
        Overrides each motif's tie policy.
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine, as in :func:`count_motifs`.
    progress : bool
        A bar over the motifs where each cell is its own call (the GPU); the CPU engine's one
        pass has none.
    source, target, time, edge_label, node_label, node_labels
        As in :func:`count_motifs`.
    {run_options}

    Returns
    -------
    pandas.DataFrame
        One row per motif (index ``motif``: the catalogue name, the text given, else the edges
        as ``"01 12 20"``), one column per window (labelled by the values as given, None for no
        window), int64 counts (Python ints for a count past ``2**63 - 1``).

    Raises
    ------
    QueryError
        An empty list of motifs or windows, two motifs with one name or two equal windows, or
        what :func:`count_motifs` refuses.

    Examples
    --------
    >>> import nx_gpumine as ng
    >>> T = ng.temporal_from_arrays([0, 1, 2, 0], [1, 2, 0, 1], [0, 60, 120, 900])
    >>> ng.motif_counts(T, ["M1", "triangle"], [100, 1000], engine="cpu")  # doctest: +SKIP
    delta     100  1000
    motif
    M1          0     0
    triangle    0     1
    """
    import pandas as pd

    from ..inputs.everest_query import EverestQuery
    from ..inputs.motifs import TemporalMotif

    progress = as_flag(progress, "progress")
    columns = dict(
        zip(_COLUMN_ARGS, (source, target, time, edge_label, node_label, node_labels), strict=True)
    )
    _check_columns(columns)
    graph = as_temporal_graph(G, **columns)
    specs = _as_list(motifs, (str, TemporalMotif, EverestQuery), "motifs")
    if all(_is_edge(x) for x in specs):
        specs = [specs]
    windows = _as_list(deltas, (str,), "deltas")
    span = time_span(graph)
    units = []
    for d in windows:
        u = limit_in_units(d, graph.time_spec, "delta")
        check_int64_limit(u, span, "delta")
        units.append(u)
    if len(set(units)) < len(units):
        raise QueryError(f"deltas holds one window twice: {windows}")
    table, labels = [], []
    for spec in specs:
        m = as_motif(spec, tie=tie)
        labels.append(_motif_label(spec, m))
        m = motif_in_units(m, graph.time_spec)
        check_motif_limits(m, span)
        table.append(m)
    if len(set(labels)) < len(labels):
        raise QueryError(f"two motifs have one name: {labels}")
    run = dict(engine=engine, progress=progress, client=client, devices=devices)
    with device_budget(max_device_bytes):
        rows = run_motif_table(graph, table, units, **run)
    wide = any(abs(c) > np.iinfo(np.int64).max for r in rows for c in r)
    frame = pd.DataFrame(
        rows,
        index=pd.Index(labels, name="motif"),
        columns=pd.Index(windows, dtype=object, name="delta"),  # as given (None stays None)
        dtype=object if wide else np.int64,
    )
    return frame


@fill_doc(run_options=_RUN_OPTIONS)
def count_motifs(
    G: Any,
    motif: Any,
    *,
    delta: Any = UNSET,
    tie: str | None = None,
    engine: str = "auto",
    progress: bool = False,
    source: str = "source",
    target: str = "target",
    time: str = "time",
    edge_label: str | None = None,
    node_label: str | None = None,
    node_labels: Mapping | None = None,
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> int:
    """Number of matches of a temporal motif (tuples of graph edges).

    Parameters
    ----------
    G : TemporalGraph, networkx.DiGraph, dataframe or array
        The temporal graph.
    motif : TemporalMotif, str or sequence of edges
        The motif (see module docstring).
    delta : number, duration or None, optional
        Overrides the motif window: a number in the unit of numeric times, a duration
        (``pd.Timedelta``, ``datetime.timedelta``, ``np.timedelta64``) for datetime times.
    tie : {"strict", "input_order"}, optional
        Overrides the tie policy.
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine. ``"dask"`` runs Everest's time partitions on the workers of a Dask cluster
        (``client``, default: the current ``distributed.Client``), each with its own
        ``"auto"`` engine; see ``docs/dask.md``.
    progress : bool
        Progress bar over root-edge tasks (on Dask: Dask's own bar).
    source, target, time, edge_label : str
        Column names when ``G`` is a frame (``time`` / ``edge_label`` are attribute names for
        NetworkX input).
    node_label : str, optional
        NetworkX node attribute holding labels.
    node_labels : mapping, optional
        Node key -> label (frames and arrays).
    {run_options}

    Returns
    -------
    int
    """
    progress = as_flag(progress, "progress")
    columns = (source, target, time, edge_label, node_label, node_labels)
    graph, _, plan = _prepare(G, motif, delta, tie, columns)
    run = dict(engine=engine, progress=progress, client=client, devices=devices)
    with device_budget(max_device_bytes):
        return int(run_temporal(graph, plan, "count", **run))


def has_motif(
    G: Any,
    motif: Any,
    *,
    delta: Any = UNSET,
    tie: str | None = None,
    engine: str = "auto",
    source: str = "source",
    target: str = "target",
    time: str = "time",
    edge_label: str | None = None,
    node_label: str | None = None,
    node_labels: Mapping | None = None,
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> bool:
    """Whether a match exists (stops at the first). Parameters as :func:`count_motifs`."""
    columns = (source, target, time, edge_label, node_label, node_labels)
    graph, _, plan = _prepare(G, motif, delta, tie, columns)
    with device_budget(max_device_bytes):
        return bool(
            run_temporal(graph, plan, "exists", engine=engine, client=client, devices=devices)
        )


def _frame(data: dict, like: Any, tz: str | None = None, tz_columns: Sequence[str] = ()) -> Any:
    """A frame of ``data`` in the library of ``like`` (pandas otherwise); the ``tz_columns``
    (UTC ``datetime64``) are shown in time zone ``tz``."""
    import narwhals as nw

    backend = frame_namespace(like) if like is not None and is_frame(like) else "pandas"
    if backend not in ("pandas", "polars", "pyarrow", "cudf", "modin"):
        backend = "pandas"
    if backend == "pandas":
        import pandas as pd

        # the columns are final and not shared: no copy into one block (a copy of the whole
        # result that a Ctrl-C cannot interrupt; 3 s for 21M rows)
        df = nw.from_native(pd.DataFrame(data, copy=False), eager_only=True)
    else:
        df = nw.from_dict(data, backend=backend)
    if tz and tz_columns:
        df = df.with_columns(
            nw.col(c).dt.replace_time_zone("UTC").dt.convert_time_zone(tz) for c in tz_columns
        )
    return df.to_native()


def find_motifs(
    G: Any,
    motif: Any,
    *,
    delta: Any = UNSET,
    tie: str | None = None,
    limit: int | None = None,
    output: str = "frame",
    engine: str = "auto",
    progress: bool = False,
    source: str = "source",
    target: str = "target",
    time: str = "time",
    edge_label: str | None = None,
    node_label: str | None = None,
    node_labels: Mapping | None = None,
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> Any:
    """List matches.

    ``G``, ``motif``, ``delta``, ``tie``, ``engine``, ``progress``, ``client``,
    ``max_device_bytes``, ``devices`` and the column / label parameters are those of
    :func:`count_motifs`.

    Parameters
    ----------
    limit : int, optional
        Stop after this many matches (never truncated otherwise).
    output : {"frame", "numpy", "edge_ids", "dask"}
        ``"frame"``: one row per match with columns ``edge_i`` (input row of motif edge ``i``),
        ``time_i`` (in the input's type: numbers, or datetimes / durations of the input's unit
        and time zone) and ``node_a`` (node key of motif node ``a``), in the library of ``G``
        when ``G`` is a frame, else pandas. ``"numpy"``: ``(n, l)`` int64 input rows.
        ``"edge_ids"``: ``(n, l)`` int64 edge ids (positions after the stable time sort).
        ``"dask"`` (Dask engine only): the frame's columns as a dask DataFrame, one pandas
        partition per time partition, enumerated on the workers when computed (with
        ``limit``: one partition, found now).

    Returns
    -------
    dataframe or numpy.ndarray
    """
    limit = as_limit(limit)
    progress = as_flag(progress, "progress")
    if not isinstance(output, str) or output not in ("frame", "numpy", "edge_ids", "dask"):
        raise QueryError(f"output must be 'frame', 'numpy', 'edge_ids' or 'dask', got {output!r}")
    if output == "dask" and client is None and engine != "dask":
        raise ValueError("output='dask' needs engine='dask' or a client")
    columns = (source, target, time, edge_label, node_label, node_labels)
    graph, m, plan = _prepare(G, motif, delta, tie, columns)
    if output == "dask":
        from ..execution.temporal import temporal_frame_dask

        return temporal_frame_dask(graph, plan, client=client, engine=engine, limit=limit)
    run = dict(engine=engine, progress=progress, client=client, devices=devices)
    with device_budget(max_device_bytes):
        ids = run_temporal(graph, plan, "enumerate", limit=limit, **run)
    ids = np.asarray(ids, dtype=np.int64).reshape(-1, plan.l)
    if output == "edge_ids":
        return ids
    if output == "numpy":
        return graph.rows[ids]
    data = match_columns(graph, m, ids)
    spec = graph.time_spec
    tz_cols = [f"time_{i}" for i in range(plan.l)] if spec.kind == "datetime" else []
    return _frame(data, G, spec.tz, tz_cols)


def _census_frame(graph: TemporalGraph, deltas: list, tie: str, run: dict) -> Any:
    """The census at each of ``deltas`` as a DataFrame (a row per ``CENSUS_KEYS`` key, a
    column per window as given); one census pass per window (each counts all 36 motifs)."""
    import pandas as pd

    if not deltas:
        raise QueryError("delta is an empty list")
    units = [limit_in_units(d, graph.time_spec, "delta") for d in deltas]
    if len(set(units)) < len(units):
        raise QueryError(f"delta holds one window twice: {deltas}")
    for u in units:
        check_int64_limit(u, time_span(graph), "delta")
    cols = [run_census(graph, u, tie, **run).tolist() for u in units]
    return pd.DataFrame(
        {i: col for i, col in enumerate(cols)},
        index=pd.Index(CENSUS_KEYS, name="motif"),
    ).set_axis(pd.Index(deltas, dtype=object, name="delta"), axis=1)


def motif_census(
    G: Any,
    delta: Any,
    *,
    tie: str = "strict",
    as_table: bool = False,
    layout: str = "snap",
    engine: str = "auto",
    source: str = "source",
    target: str = "target",
    time: str = "time",
    client: Any = None,
    progress: bool = False,
    devices: Any = None,
) -> dict[str, int] | np.ndarray:
    """Counts of all 36 three-edge temporal motifs on two or three nodes (one pass).

    Parameters
    ----------
    G : TemporalGraph, networkx.DiGraph, dataframe or array
        The temporal graph.
    delta : number, duration, None or a list of them
        Window ``t_3 - t_1 <= delta`` (a duration for datetime times). A list gives a
        DataFrame: a row per motif key, a column per window (labelled as given), one census
        pass per window.
    tie : {"strict", "input_order"}
        Tie policy.
    as_table : bool
        Return a 6x6 int64 table instead of a dict (arrangement chosen by ``layout``).
    layout : {"snap", "keys"}
        ``"snap"``: Paranjape et al.'s grid, as SNAP's ``Count3TEdge23Node`` writes it:
        ``T[i - 1, j - 1]`` counts motif ``M_{i,j}`` = key ``CENSUS_GRID[i - 1][j - 1]``
        (row: second edge ``CENSUS_GRID_ROWS``, column: third edge ``CENSUS_GRID_COLS``).
        ``"keys"``: ``T[r, c]`` counts ``'01 R[r] R[c]'`` with ``R = CENSUS_AXIS =
        ('01', '02', '10', '12', '20', '21')`` (the CLI's table).
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine (every temporal engine has a census kernel: ``census`` is part of the engine
        contract); ``"dask"`` as in :func:`count_motifs` (time partitions of window ``delta``,
        counts summed).
    source, target, time : str
        Column names when ``G`` is a frame.
    client : distributed.Client, optional
        As in :func:`count_motifs`.
    progress : bool
        Dask's progress bar (Dask engine only; the one-process census is one engine call),
        or a bar over time partitions with ``devices``.
    devices : int, list of int or "all", optional
        As in :func:`count_motifs` (time partitions of window ``delta``, counts summed).

    Returns
    -------
    dict, numpy.ndarray or pandas.DataFrame
        ``{key: count}`` in ``CENSUS_KEYS`` order, the (6, 6) int64 table, or (several
        windows) the DataFrame.

    Raises
    ------
    QueryError
        For an unknown tie policy or layout.
    """
    as_table = as_flag(as_table, "as_table")
    progress = as_flag(progress, "progress")
    if not isinstance(layout, str) or layout not in ("snap", "keys"):
        raise QueryError(f"layout must be 'snap' or 'keys', got {layout!r}")
    _check_columns(dict(source=source, target=target, time=time))
    graph: TemporalGraph = as_temporal_graph(G, source=source, target=target, time=time)
    run = dict(engine=engine, client=client, progress=progress, devices=devices)
    if isinstance(delta, Sequence | np.ndarray) and not isinstance(delta, str):
        if as_table:
            raise QueryError("as_table takes one window; several give a DataFrame")
        return _census_frame(graph, list(delta), tie, run)
    delta = limit_in_units(delta, graph.time_spec, "delta")  # tie: checked by run_census
    check_int64_limit(delta, time_span(graph), "delta")
    counts = run_census(graph, delta, tie, **run)
    out = {k: int(c) for k, c in zip(CENSUS_KEYS, counts.tolist(), strict=True)}
    if not as_table:
        return out
    if layout == "snap":
        return np.array([[out[key] for key in row] for row in CENSUS_GRID], dtype=np.int64)
    table = np.zeros((6, 6), dtype=np.int64)
    for r, a in enumerate(CENSUS_AXIS):
        for c, b in enumerate(CENSUS_AXIS):
            table[r, c] = out[f"01 {a} {b}"]
    return table
