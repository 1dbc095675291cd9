"""``nx-gpumine temporal`` (one temporal motif) and ``nx-gpumine census`` (the 36 three-edge
motifs): their motif and ``--delta`` arguments, and their reports."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any, NamedTuple

from .common import DATASETS, CliError, Status, resolve_engine, timed
from .output import Report, save_plot
from .reading import Columns, load_temporal_graph

__all__ = [
    "census_rows",
    "check_delta",
    "cmd_census",
    "cmd_motif_table",
    "cmd_temporal",
    "delta_number",
    "parse_delta",
]


def parse_delta(text: str | None) -> Any:
    """``--delta``: ``none``, a number (the time column's unit) or a duration such as ``1h``.

    Durations: a number followed by ``ns``, ``us``, ``ms``, ``s``, ``min`` (or ``m``), ``h``,
    ``d`` or ``w`` (``90min``, ``1.5h``, ``3600s``), for times that are timestamps.

    Only the text is checked here (its form, and a duration's size in nanoseconds); the value
    is checked by the library's one window check (:func:`check_delta`).

    Raises
    ------
    CliError
        Anything else, NaN, or a duration beyond 292 years.
    """
    import numpy as np

    if text is None:
        return None
    t = text.strip().lower()
    if t in ("none", "inf", "infinity"):
        return None
    m = re.fullmatch(r"([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(ns|us|µs|ms|s|min|m|h|d|w)?", t)
    if not m:
        raise CliError(
            f"--delta must be a number, a duration such as 3600s, 90min, 1h, 2d, or 'none'; "
            f"got {text!r}"
        )
    v = float(m.group(1))
    if v == float("inf"):
        return None
    unit = m.group(2)
    if unit is None:
        return int(v) if v.is_integer() and abs(v) < 2**62 else v
    ns_per = {"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9, "m": 60e9}
    ns_per.update({"h": 3600e9, "d": 86400e9, "w": 7 * 86400e9})
    ns = v * ns_per[unit]
    if ns >= 2**63:
        raise CliError(f"--delta {text!r} is longer than 292 years; use 'none' for no window")
    return np.timedelta64(int(ns), "ns")


def delta_number(delta: Any) -> int | float | None:
    """The window as JSON writes it: a number in the time column's unit, seconds for a
    duration (timestamps), ``None`` for no window."""
    import numpy as np

    from ...inputs.times import as_duration, is_duration

    if delta is None:
        return None
    if is_duration(delta):
        ns = int(as_duration(delta).astype(np.int64))
        return ns // 10**9 if ns % 10**9 == 0 else ns / 1e9
    return delta.item() if isinstance(delta, np.generic) else delta


def check_delta(delta: Any, graph: Any, spec: str, tie: str) -> None:
    """Check ``--delta`` (and ``--tie``) for ``graph`` before any counting.

    A unitless ``--delta`` against timestamps (or a duration against numbers) is refused with
    the CLI's spelling of the fix; the value itself goes through the library's window check
    (:func:`nx_gpumine.plan.temporal_plan.census_window`), whose ``QueryError`` becomes a
    :class:`CliError` naming ``--delta``.
    """
    from ...errors import QueryError
    from ...inputs.times import is_duration, limit_in_units
    from ...plan.temporal_plan import census_window

    ts = graph.time_spec
    if delta is None:
        return
    if ts.kind != "number" and not is_duration(delta):
        raise CliError(
            f"--delta {delta}: the times of {spec!r} are {ts.describe()}, so the window needs a "
            f"unit: --delta {delta}s for seconds (units: ns, us, ms, s, min, h, d, w)"
        )
    if ts.kind == "number" and is_duration(delta):
        raise CliError(
            f"--delta has a unit but the times of {spec!r} are plain numbers; give it as a "
            "number in the unit of the time column"
        )
    try:
        census_window(graph, limit_in_units(delta, ts, "delta"), tie)
    except QueryError as exc:
        raise CliError(f"--delta: {exc}") from exc


def _motif_from_args(args: argparse.Namespace) -> tuple[Any, str | None, int | None]:
    """(motif, graph named by a query file, enumerate limit of the query)."""
    from ...inputs.everest_query import parse_everest_query
    from ...inputs.motifs import TemporalMotif, named_motif

    given = [x for x in (args.motif, args.edges, args.query) if x]
    if len(given) != 1:
        raise CliError("give exactly one of --motif NAME, --edges 'a b, b c, ...', --query FILE")
    if args.query:
        path = Path(args.query)
        if not path.is_file():
            raise CliError(f"query file {args.query!r}: no such file")
        try:
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CliError(f"query file {args.query!r} is not UTF-8 text") from exc
        q = parse_everest_query(text, base_dir=path.parent, tie=args.tie)
        graph = None
        if q.graph:
            gpath = Path(q.graph)
            graph = str(gpath if gpath.is_absolute() else path.parent / gpath)
            if q.graph in DATASETS:
                graph = q.graph
        return q.motif, graph, q.enumerate
    if args.edges:
        from ...inputs.motifs import MAX_MOTIF_EDGES

        parts = args.edges.replace(";", ",").split(",")
        if len(parts) > MAX_MOTIF_EDGES:
            raise CliError(f"--edges: {len(parts)} edges, at most {MAX_MOTIF_EDGES} are supported")
        pairs = []
        for part in parts:
            toks = part.replace("->", " ").split()
            if len(toks) != 2:
                raise CliError(f"--edges: cannot read {part.strip()!r} (write 'a b' per edge)")
            try:
                pairs.append((int(toks[0]), int(toks[1])))
            except ValueError as exc:
                raise CliError(f"--edges: motif nodes are integers, got {part.strip()!r}") from exc
        return TemporalMotif(pairs, tie=args.tie), None, None
    return named_motif(args.motif, tie=args.tie), None, None


def _is_table(args: argparse.Namespace) -> bool:
    """Several motifs (``--motif M1,M4``) or windows (``--delta 1h,1d``): a motif table."""
    return bool(args.motif and "," in args.motif) or bool(args.delta and "," in args.delta)


class _Windows(NamedTuple):
    """A command's graph, read, and its several ``--delta`` windows, checked for it."""

    graph: Any
    read_s: float
    texts: list[str]
    deltas: list[Any]
    engine: str
    status: Status


def _read_windows(args: argparse.Namespace) -> _Windows:
    """Parse ``--delta D1,D2,...``, read the graph and check each window for it."""
    if args.graph is None:
        raise CliError("name a temporal graph (file or 'collegemsg')")
    engine = resolve_engine(args.engine, "temporal")
    status = Status(args.progress)
    texts = [x.strip() for x in args.delta.split(",")]
    deltas = [parse_delta(x) for x in texts]
    status.note(f"reading {args.graph}")
    graph, read_s = timed(lambda: load_temporal_graph(args.graph, Columns.from_args(args)))
    for d in deltas:
        check_delta(d, graph, args.graph, args.tie)
    return _Windows(graph, read_s, texts, deltas, engine, status)


def _windows_report(
    args: argparse.Namespace, w: _Windows, frame: Any, secs: float, what: str
) -> Report:
    """A row per motif of ``frame`` (a column per window): the table, JSON ``deltas`` and
    ``counts`` (``{motif: {delta text: count}}``)."""
    rows = [
        [str(name), *(int(c) for c in row)]
        for name, row in zip(frame.index, frame.to_numpy().tolist(), strict=True)
    ]
    data: dict = {
        "command": args.command,
        "graph": args.graph,
        "nodes": w.graph.n,
        "edges": w.graph.m,
        "times": w.graph.time_spec.describe(),
        "tie": args.tie,
        "deltas": [delta_number(d) for d in w.deltas],
        "counts": {row[0]: dict(zip(w.texts, row[1:], strict=True)) for row in rows},
        "engine": w.engine,
        "read_s": w.read_s,
        "time_s": secs,
    }
    notes = [
        f"temporal graph {args.graph}: {w.graph} (read in {w.read_s:.3f} s)",
        f"{what} at {len(w.deltas)} windows in {secs:.3f} s, tie={args.tie}, engine={w.engine}",
    ]
    return Report(["motif", *(f"delta {t}" for t in w.texts)], rows, data, notes=notes)


def cmd_motif_table(args: argparse.Namespace) -> Report:
    """``temporal --motif M1,M4 --delta 1h,1d``: the counts of every motif at every window
    (:func:`~nx_gpumine.interfaces.temporal_functions.motif_counts`), one row per motif."""
    from ...inputs.motifs import named_motif
    from ..temporal_functions import motif_counts

    if args.edges or args.query or not args.motif:
        raise CliError(
            "several motifs or windows take --motif NAME,NAME,... (not --edges, --query)"
        )
    if args.delta is None:
        raise CliError(
            "a motif table needs --delta D1,D2,... (durations such as 1h for timestamps)"
        )
    if args.find:
        raise CliError("--find lists the matches of one motif at one window")
    names = [x.strip() for x in args.motif.split(",")]
    for name in names:
        named_motif(name)  # an unknown name is refused before the graph is read
    w = _read_windows(args)
    w.status.note("counting")
    frame, secs = timed(
        lambda: motif_counts(
            w.graph, names, w.deltas, tie=args.tie, engine=w.engine, progress=w.status.bars
        )
    )
    return _windows_report(args, w, frame, secs, f"{len(names)} motifs")


def cmd_temporal(args: argparse.Namespace) -> Report:
    """``temporal``: count (and optionally list) one temporal motif, or a motif table
    (:func:`cmd_motif_table`: several names in ``--motif`` or windows in ``--delta``)."""
    from ...inputs.motif_args import as_motif
    from ..temporal_functions import count_motifs, find_motifs

    if _is_table(args):
        return cmd_motif_table(args)
    engine = resolve_engine(args.engine, "temporal")
    status = Status(args.progress)
    motif, qgraph, qlimit = _motif_from_args(args)
    if args.delta is None and not args.query:
        # no silent default: without a window every later edge extends a match (CollegeMsg M4
        # takes 33 s instead of 1 s), and census's default would not suit every time unit
        raise CliError(
            "temporal needs --delta D, the window t_last - t_first <= D (a number in the time "
            "column's unit, or a duration such as 1h for timestamps); --delta none for no window"
        )
    delta = parse_delta(args.delta)
    spec = args.graph or qgraph
    if spec is None:
        raise CliError("name a temporal graph (file or 'collegemsg'), or a query with 'graph:'")
    status.note(f"reading {spec}")
    graph, read_s = timed(lambda: load_temporal_graph(spec, Columns.from_args(args)))
    kw: dict = {"tie": args.tie}
    if args.delta is not None:
        check_delta(delta, graph, spec, args.tie)
        kw["delta"] = delta
    motif = as_motif(motif, **kw)
    status.note("counting")
    count, secs = timed(lambda: count_motifs(graph, motif, engine=engine, progress=status.bars))
    name = motif.name or "motif"
    rows = [[name, count, engine, secs]]
    data: dict = {
        "command": "temporal",
        "graph": spec,
        "nodes": graph.n,
        "edges": graph.m,
        "times": graph.time_spec.describe(),
        "motif": {"name": motif.name, "edges": [list(e) for e in motif.edges]},
        "delta": delta_number(motif.delta),
        "tie": motif.tie,
        "count": count,
        "engine": engine,
        "read_s": read_s,
        "time_s": secs,
    }
    notes = [f"temporal graph {spec}: {graph} (read in {read_s:.3f} s)", f"motif: {motif}"]
    report = Report(["motif", "count", "engine", "time_s"], rows, data, notes=notes)
    limit = args.find if args.find is not None else qlimit
    if limit:
        frame = find_motifs(graph, motif, limit=limit, engine=engine)
        mrows = frame.to_numpy().tolist()
        mcols = [str(c) for c in frame.columns]
        data["matches"] = [dict(zip(mcols, r, strict=True)) for r in mrows]
        report.extra.append((f"first {len(frame)} matches:", mcols, mrows))
        report.csv_table = (mcols, mrows)
    return report


def census_rows(counts: dict) -> tuple[list[list[Any]], list[str]]:
    """The 6x6 census table: row ``R[r]``, column ``R[c]`` counts motif ``'01 R[r] R[c]'``."""
    from ...inputs.motifs import CENSUS_AXIS

    rows = [[f"01 {a}"] + [counts[f"01 {a} {b}"] for b in CENSUS_AXIS] for a in CENSUS_AXIS]
    return rows, ["edges 1,2 \\ 3", *CENSUS_AXIS]


def _census_windows(args: argparse.Namespace) -> Report:
    """``census --delta 600,3600``: a row per motif key, a column per window."""
    from ..temporal_functions import motif_census

    if args.plot:
        raise CliError("--plot draws the census of one window")
    w = _read_windows(args)
    w.status.note("census")
    frame, secs = timed(lambda: motif_census(w.graph, w.deltas, tie=args.tie, engine=w.engine))
    return _windows_report(args, w, frame, secs, "three-edge motif census")


def cmd_census(args: argparse.Namespace) -> Report:
    """``census``: the 36 three-edge motif counts (and a heatmap with ``--plot``)."""
    import numpy as np

    from ...inputs.motifs import census_grid_position
    from ...inputs.times import format_duration
    from ...results.plots import save_census_heatmap
    from ..temporal_functions import motif_census

    if args.delta and "," in args.delta:
        return _census_windows(args)
    engine = resolve_engine(args.engine, "temporal")
    status = Status(args.progress)
    delta = parse_delta(args.delta)
    status.note(f"reading {args.graph}")
    graph, read_s = timed(lambda: load_temporal_graph(args.graph, Columns.from_args(args)))
    if args.delta is None:  # the default window: one hour
        delta = 3600 if graph.time_spec.kind == "number" else np.timedelta64(3600, "s")
    check_delta(delta, graph, args.graph, args.tie)
    status.note("census")
    counts, secs = timed(lambda: motif_census(graph, delta, tie=args.tie, engine=engine))
    shown = "none" if delta is None else format_duration(delta)
    title = f"three-edge motifs, delta={shown}, tie={args.tie}"
    plotted = save_plot(args, save_census_heatmap, counts, title, "heatmap")
    listed = [[k, v, *census_grid_position(k)] for k, v in counts.items()]
    data = {
        "command": "census",
        "graph": args.graph,
        "nodes": graph.n,
        "edges": graph.m,
        "times": graph.time_spec.describe(),
        "delta": delta_number(delta),
        "tie": args.tie,
        "engine": engine,
        "counts": counts,
        "total": sum(counts.values()),
        "read_s": read_s,
        "time_s": secs,
    }
    notes = [
        f"temporal graph {args.graph}: {graph} (read in {read_s:.3f} s)",
        f"three-edge motif census, delta={shown}, tie={args.tie}, engine={engine}",
    ]
    footer = [f"total {sum(counts.values()):,} in {secs:.3f} s", *plotted]
    csv_table = (["motif", "count", "grid_row", "grid_col"], listed)
    if args.list:
        rows, header = [[k, v] for k, v in counts.items()], ["motif", "count"]
    else:
        rows, header = census_rows(counts)
    return Report(header, rows, data, notes=notes, footer=footer, csv_table=csv_table)
