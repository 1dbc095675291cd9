"""The ``nx-gpumine`` command line (also ``python -m nx_gpumine``).

Subcommands::

    nx-gpumine count GRAPH PATTERN [PATTERN ...]   static pattern counts (table of count and time)
    nx-gpumine temporal GRAPH --motif M4 --delta 3600   one temporal motif (or --query FILE)
    nx-gpumine census GRAPH --delta 3600          the 36 three-edge temporal motifs, 6x6 table
    nx-gpumine demo                               bundled graphs, with NetworkX for comparison
    nx-gpumine warmup                             compile the engines once after installing
    nx-gpumine info                               versions, engines, GPU

``GRAPH`` is an edge-list file (CSV / TSV / whitespace text, plain or compressed, parquet; ``-``
for standard input; read by :mod:`nx_gpumine.inputs.files`) or a bundled data set: ``facebook``
(SNAP ego-Facebook, undirected) or ``collegemsg`` (SNAP CollegeMsg, ``src dst time``).
Results go to stdout (or ``-o FILE``) as an aligned table, JSON or CSV (``--format``).

Exit status: 0 success; 1 an unexpected internal error (a bug: a traceback is printed);
2 a user error (one line on stderr); 3 a cross-check failed (``--compare-networkx`` or the demo
found another count than NetworkX: a bug, please report it); 130 interrupted (SIGINT),
143 terminated (SIGTERM). Run as a program, the work runs in a child process that the parent
kills at once on SIGINT / SIGTERM, so the program exits within a fraction of a second even while
an engine call (which holds the interpreter) is running.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

__all__ = ["main", "build_parser", "CliError", "load_static_graph", "load_temporal_graph"]

_DATA = Path(__file__).resolve().parent.parent / "data"
DATASETS = {
    "facebook": _DATA / "facebook_combined.txt",
    "collegemsg": _DATA / "collegemsg.txt",
}
#: nodes of the facebook piece the demo also counts with NetworkX
DEMO_PIECE = range(1000, 1150)

EXIT_OK, EXIT_INTERNAL, EXIT_USER, EXIT_MISMATCH = 0, 1, 2, 3
EXIT_SIGINT, EXIT_SIGTERM = 130, 143


class CliError(Exception):
    """A user error: reported as one line on stderr, exit status 2."""


class MismatchError(Exception):
    """A cross-check against NetworkX failed: exit status 3."""


# ====================================================================== reading files
@dataclass(frozen=True)
class Columns:
    """Which columns of a graph file hold what (names or 0-based indexes) and the header rule."""

    source: str | int = 0
    target: str | int = 1
    time: str | int = 2
    label: str | int | None = None
    header: bool | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Columns:
        """The columns named by ``--source/--target/--time/--label`` and ``--[no-]header``."""
        label = getattr(args, "label", None)
        if label is None and getattr(args, "edge_labels", False):
            label = 2
        return cls(
            _col(getattr(args, "source", None), 0),
            _col(getattr(args, "target", None), 1),
            _col(getattr(args, "time", None), 2),
            _col(label, None),
            getattr(args, "header", None),
        )


def _col(value: str | int | None, default: Any) -> Any:
    if value is None:
        return default
    if isinstance(value, int):
        return value
    return int(value) if re.fullmatch(r"\d+", value) else value


def _graph_source(spec: str, what: str) -> str | Path:
    if spec in DATASETS and not Path(spec).is_file():
        return DATASETS[spec]
    if spec != "-" and not Path(spec).is_file():
        known = ", ".join(DATASETS)
        raise CliError(f"{what} {spec!r}: no such file (bundled data sets: {known}; '-': stdin)")
    return spec


def load_static_graph(
    spec: str,
    *,
    directed: bool = False,
    edge_labels: bool = False,
    node_labels: str | None = None,
    columns: Columns | None = None,
) -> Any:
    """Read ``spec`` (file, ``-`` or bundled name) as a :class:`~nx_gpumine.StaticGraph`.

    Repeated edges are merged (first label kept); self-loops are kept.
    """
    from ..inputs.files import read_edge_file
    from ..inputs.static_graph import LabelSpec, from_edgelist

    cols = columns or Columns(label=2 if edge_labels else None)
    ef = read_edge_file(
        _graph_source(spec, "graph"),
        source_col=cols.source,
        target_col=cols.target,
        label_col=cols.label,
        header=cols.header,
        what="graph file",
    )
    nodes = None
    if node_labels:
        nlabs = _read_labels(node_labels, "node label file")
        seen = _sorted_keys(ef.table)
        missing = [k for k in seen if k not in nlabs]
        if missing:
            raise CliError(f"node label file has no label for node {missing[0]!r}")
        seen_set = set(seen)
        nodes = [*seen, *(k for k in nlabs if k not in seen_set)]
        node_frame = {"node": nodes, "label": [nlabs[k] for k in nodes]}
        import pyarrow as pa

        nodes = pa.table(node_frame)
    g = from_edgelist(
        ef.table,
        source="source",
        target="target",
        edge_label="label" if cols.label is not None else None,
        directed=directed,
        nodes=nodes,
        node_key="node",
        node_label="label" if nodes is not None else None,
        duplicates="drop",
    )
    if nodes is not None:
        g.node_label_spec = LabelSpec("label")
    if cols.label is not None:
        g.edge_label_spec = LabelSpec("label")
    return g


def _sorted_keys(table: Any) -> list:
    import numpy as np

    both = np.concatenate([table.column("source").to_numpy(), table.column("target").to_numpy()])
    return np.unique(both).tolist()


def _read_labels(spec: str, what: str) -> dict:
    """``node label`` lines (or a two-column table) as ``{node: label}``."""
    from ..inputs.files import read_columns

    ef = read_columns(
        _graph_source(spec, what), {"node": 0, "label": 1}, id_roles=("node",), what=what
    )
    keys = ef.table.column("node").to_pylist()
    return dict(zip(keys, ef.table.column("label").to_pylist(), strict=True))


def load_pattern(spec: str, *, directed: bool, node_labels: str | None = None) -> Any:
    """A catalogue pattern name, or an edge-list file ``u v [edge label]`` as a NetworkX graph."""
    import networkx as nx

    from ..inputs.files import read_edge_file
    from ..inputs.patterns import CATALOGUE, MAX_PATTERN_NODES

    if spec in CATALOGUE and not Path(spec).is_file():
        if node_labels:
            raise CliError("--pattern-node-labels needs a pattern file, not a catalogue name")
        return spec
    path = Path(spec)
    if not path.is_file():
        raise CliError(
            f"unknown pattern {spec!r}: not a file and not a catalogue name (known: "
            f"{', '.join(CATALOGUE)})"
        )
    ef = read_edge_file(path, header=False, what="pattern file")
    if ef.num_columns >= 3:
        ef = read_edge_file(path, label_col=2, header=False, what="pattern file")
    if ef.table.num_rows > MAX_PATTERN_NODES**2:
        raise CliError(f"pattern file {spec!r}: {ef.table.num_rows} edges is not a small pattern")
    P = nx.DiGraph() if directed else nx.Graph()
    us = ef.table.column("source").to_pylist()
    vs = ef.table.column("target").to_pylist()
    labs = ef.table.column("label").to_pylist() if "label" in ef.table.column_names else None
    for j, (u, v) in enumerate(zip(us, vs, strict=True)):
        P.add_edge(u, v, **({"label": labs[j]} if labs is not None else {}))
    if node_labels:
        nl = _read_labels(node_labels, "pattern node label file")
        for v in P:
            if v not in nl:
                raise CliError(f"pattern node label file has no label for node {v!r}")
            P.nodes[v]["label"] = nl[v]
    P.graph["name"] = path.name
    return P


def load_temporal_graph(spec: str, columns: Columns | None = None) -> Any:
    """Read ``spec`` (file with ``src dst time`` columns, ``-``, or ``collegemsg``)."""
    from ..inputs.files import read_edge_file
    from ..inputs.temporal_graph import load_collegemsg, temporal_from_frame

    cols = columns or Columns()
    if spec == "collegemsg" and not Path(spec).is_file() and cols == Columns():
        return load_collegemsg()
    ef = read_edge_file(
        _graph_source(spec, "temporal graph"),
        source_col=cols.source,
        target_col=cols.target,
        time_col=cols.time,
        header=cols.header,
        what="temporal graph file",
    )
    return temporal_from_frame(ef.table, "source", "target", "time")


def engine_available(name: str, kind: str) -> bool:
    """Whether engine ``name`` ("cpu"/"cuda") has a module for ``kind`` here (and a GPU)."""
    from ..engines import cuda_available
    from ..engines.contract import ENGINE_MODULES

    if name == "cuda" and not cuda_available():
        return False
    return (kind, name) in ENGINE_MODULES


def resolve_engine(engine: str, kind: str) -> str:
    """``auto`` -> ``cuda`` where a GPU and a CUDA engine for ``kind`` exist, else ``cpu``
    (the library's own rule, :func:`nx_gpumine.engines.resolve_engine_name`).

    Raises
    ------
    CliError
        An unknown name, or ``cuda`` asked for but not available for this kind of problem.
    """
    from ..engines import ENGINE_NAMES, resolve_engine_name
    from ..errors import EngineUnavailableError

    if engine not in ENGINE_NAMES:
        raise CliError(f"--engine must be one of {', '.join(ENGINE_NAMES)}, got {engine!r}")
    try:
        name = resolve_engine_name(engine)
    except EngineUnavailableError:
        name = None
    if name is None or not engine_available(name, kind):
        raise CliError(
            f"the {engine} engine for {kind} problems is not available here (no GPU/CuPy, or not "
            "in this version); use --engine cpu"
        )
    return name


# ====================================================================== output
@dataclass
class Report:
    """What a command found, in one form for every output format.

    ``rows`` hold raw values (int, float, str, None); the text form formats numbers, JSON
    writes ``data``, CSV writes ``header`` + ``rows`` (or ``csv_table`` when set).
    """

    header: list[str]
    rows: list[list[Any]]
    data: dict
    notes: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    extra: list[tuple[str, list[str], list[list[Any]]]] = field(default_factory=list)
    csv_table: tuple[list[str], list[list[Any]]] | None = None


def _cell(x: Any) -> str:
    import numpy as np

    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int | np.integer):
        return f"{int(x):,}"
    if isinstance(x, float | np.floating):
        return f"{float(x):.3f}"
    return str(x)


_NUMERIC = re.compile(r"-?[\d,]+(\.\d+)?|x[\d.]+")


def print_table(rows: Sequence[Sequence[Any]], header: Sequence[str], out: TextIO) -> None:
    """Print an aligned text table (numbers right-aligned, ints with thousands separators)."""
    cells = [[str(c) for c in header]] + [[_cell(c) for c in r] for r in rows]
    widths = [max(len(r[j]) for r in cells) for j in range(len(header))]
    for i, r in enumerate(cells):
        parts = []
        for j, c in enumerate(r):
            numeric = i > 0 and _NUMERIC.fullmatch(c) is not None
            parts.append(c.rjust(widths[j]) if numeric else c.ljust(widths[j]))
        print("  ".join(parts).rstrip(), file=out)
        if i == 0:
            print("  ".join("-" * w for w in widths), file=out)


def _json_default(x: Any) -> Any:
    import numpy as np

    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    if hasattr(x, "isoformat"):
        return x.isoformat()
    return str(x)


def write_report(report: Report, fmt: str, out: TextIO) -> None:
    """Write ``report`` as ``table`` (aligned text), ``json`` or ``csv``."""
    if fmt == "json":
        json.dump(report.data, out, indent=2, default=_json_default)
        out.write("\n")
        return
    if fmt == "csv":
        header, rows = report.csv_table or (report.header, report.rows)
        w = csv.writer(out, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(["" if c is None else _csv_value(c) for c in r])
        return
    for line in report.notes:
        print(line, file=out)
    if report.header:
        print_table(report.rows, report.header, out)
    for line in report.footer:
        print(line, file=out)
    for title, header, rows in report.extra:
        print(title, file=out)
        print_table(rows, header, out)


def _csv_value(x: Any) -> Any:
    if hasattr(x, "isoformat"):
        return x.isoformat()
    return x


@contextlib.contextmanager
def _output(path: str | None, default: TextIO) -> Iterator[TextIO]:
    if path is None or path == "-":
        yield default
        return
    try:
        fh = open(path, "w", newline="")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise CliError(f"-o {path!r}: {exc.strerror or exc}") from exc
    with fh:
        yield fh


class _Status:
    """Progress notes on stderr: tqdm bars come from the library; plain lines without tqdm."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        try:
            import tqdm  # noqa: F401

            self.tqdm = True
        except ImportError:
            self.tqdm = False

    def note(self, msg: str) -> None:
        if self.enabled:
            print(f"[nx-gpumine] {msg}", file=sys.stderr, flush=True)

    @property
    def bars(self) -> bool:
        return self.enabled and self.tqdm


def _progress_default() -> bool:
    return sys.stderr.isatty()


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    r = fn()
    return r, time.perf_counter() - t0


# ====================================================================== NetworkX reference
def networkx_count(G: Any, P: Any, *, induced: bool, distinct: bool, labels: dict) -> int:
    """The same count with NetworkX's VF2 matchers (reference for ``--compare-networkx``)."""
    from networkx.algorithms import isomorphism as iso

    if isinstance(P, str):
        from ..inputs.patterns import CATALOGUE

        P = CATALOGUE[P]()
    nm = iso.categorical_node_match("label", None) if labels.get("node_label") else None
    em = iso.categorical_edge_match("label", None) if labels.get("edge_label") else None
    M = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = M(G, P, node_match=nm, edge_match=em)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    n = sum(1 for _ in it)
    if not distinct:
        return n
    aut = sum(1 for _ in M(P, P, node_match=nm, edge_match=em).isomorphisms_iter())
    if n % aut:
        raise MismatchError(f"NetworkX count {n} is not a multiple of |Aut(P)| = {aut}")
    return n // aut


# ====================================================================== warm-up
def _tiny_static_graph(directed: bool, labels: bool, big: bool = False) -> Any:
    """A small warm-up graph; ``big``: enough root entries (12,000) that engines take their
    parallel path, as they do on real graphs (tiny inputs may run a serial one)."""
    import networkx as nx

    if big:
        G = nx.gnm_random_graph(1500, 6000, seed=1, directed=directed)
    else:
        G = nx.complete_graph(6, create_using=nx.DiGraph if directed else nx.Graph)
    if labels:
        nx.set_node_attributes(G, {v: v % 2 for v in G}, "label")
        nx.set_edge_attributes(G, 0, "label")
    return G


def warm_static(engine: str) -> None:
    """Run tiny static queries through the public API (triggers each engine compile)."""
    import networkx as nx

    from .functions import count_subgraphs, find_subgraphs, has_subgraph

    for directed, big in ((False, False), (True, False), (False, True), (True, True)):
        G = _tiny_static_graph(directed, labels=False, big=big)
        P = nx.DiGraph([(0, 1), (1, 2), (0, 2)]) if directed else "triangle"
        for kind in ("mappings", "subgraphs"):
            for induced in (False, True):
                count_subgraphs(G, P, count=kind, induced=induced, engine=engine)
        find_subgraphs(G, P, engine=engine, limit=5)
        find_subgraphs(G, P, engine=engine)
        has_subgraph(G, P, engine=engine)
    count_subgraphs(_tiny_static_graph(False, False), "4-cycle", count="subgraphs", engine=engine)
    GL = _tiny_static_graph(False, labels=True)
    PL = nx.complete_graph(3)
    nx.set_node_attributes(PL, 0, "label")
    nx.set_edge_attributes(PL, 0, "label")
    count_subgraphs(GL, PL, node_label="label", edge_label="label", engine=engine)


def warm_temporal(engine: str) -> None:
    """Run tiny temporal queries (int and float times, census) through the public API."""
    import numpy as np

    from ..inputs.temporal_graph import temporal_from_arrays
    from .temporal_functions import count_motifs, find_motifs, has_motif, motif_census

    src = np.array([0, 1, 2, 0, 1, 2])
    dst = np.array([1, 2, 0, 2, 0, 1])
    for t in (np.arange(6, dtype=np.int64), np.arange(6, dtype=np.float64)):
        g = temporal_from_arrays(src, dst, t)
        for tie in ("strict", "input_order"):
            count_motifs(g, "triangle", delta=t[3], tie=tie, engine=engine)
            motif_census(g, t[3], tie=tie, engine=engine)
        count_motifs(g, "M4-A", delta=t[5], engine=engine)
        find_motifs(g, "triangle", delta=t[3], engine=engine, output="edge_ids")
        has_motif(g, "triangle", delta=t[3], engine=engine)


def warm_up(engine: str, kinds: Sequence[str] = ("static", "temporal")) -> dict[str, float]:
    """Compile (or load from numba's cache) the engines; seconds per engine family.

    Uses ``nx_gpumine.engines.warmup`` when the engines provide one, else tiny queries through
    the public API, which compiles whatever those calls need however the engines compile.
    """
    from .. import engines

    hook = getattr(engines, "warmup", None)
    resolved = {kind: resolve_engine(engine, kind) for kind in kinds}
    times: dict[str, float] = {}
    if hook is not None:  # the engines' own warm-up
        names = tuple(dict.fromkeys(resolved.values()))
        _, secs = _timed(lambda: hook(engines=names))
        times[f"engines ({', '.join(names)})"] = secs
        return times
    if len(resolved) > 1 and set(resolved.values()) == {"cpu"} and (os.cpu_count() or 1) > 1:
        # numba compiles under a process-wide lock: the families compile side by side in
        # one process each (their kernels live in different modules, so their cache files
        # differ); the on-disk cache they fill serves every later process
        import concurrent.futures
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(len(resolved), mp_context=ctx) as pool:
            futs = {k: pool.submit(_warm_kind, k, e) for k, e in resolved.items()}
            for kind, fut in futs.items():
                times[f"{kind} ({resolved[kind]})"] = fut.result()
        return times
    for kind, eng in resolved.items():
        times[f"{kind} ({eng})"] = _warm_kind(kind, eng)
    return times


def _warm_kind(kind: str, engine: str) -> float:
    """Seconds to warm one engine family (``"static"`` or ``"temporal"``) in this process."""
    fn = warm_static if kind == "static" else warm_temporal
    return _timed(lambda: fn(engine))[1]


# ====================================================================== subcommands
def _static_labels(graph: Any, pattern: Any) -> dict:
    """Which label attributes to match: those the pattern carries (the graph must have them)."""
    import networkx as nx

    labels: dict = {}
    if isinstance(pattern, nx.Graph):
        if any("label" in d for _, d in pattern.nodes(data=True)):
            if graph.node_label is None:
                raise CliError("the pattern has node labels; give the graph's with --node-labels")
            labels["node_label"] = "label"
        if any("label" in d for _, _, d in pattern.edges(data=True)):
            if graph.out_label is None:
                raise CliError("the pattern has edge labels; read the graph with --edge-labels")
            labels["edge_label"] = "label"
    return labels


def cmd_count(args: argparse.Namespace) -> Report:
    """``count``: one row per pattern."""
    from .functions import count_subgraphs

    engine = resolve_engine(args.engine, "static")
    status = _Status(args.progress)
    status.note(f"reading {args.graph}")
    graph, read_s = _timed(
        lambda: load_static_graph(
            args.graph,
            directed=args.directed,
            node_labels=args.node_labels,
            columns=Columns.from_args(args),
        )
    )
    nxg = graph.to_networkx() if args.compare_networkx else None
    kind = "subgraphs" if args.distinct else "mappings"
    match = "induced" if args.induced else "non-induced"
    rows, records = [], []
    for spec in args.patterns:
        pattern = load_pattern(spec, directed=args.directed, node_labels=args.pattern_node_labels)
        labels = _static_labels(graph, pattern)
        status.note(f"counting {spec} ({kind}, {match})")
        count, secs = _timed(
            lambda pattern=pattern, labels=labels: count_subgraphs(
                graph,
                pattern,
                induced=args.induced,
                count=kind,
                engine=engine,
                progress=status.bars,
                **labels,
            )
        )
        nx_count = nx_secs = None
        if nxg is not None:
            status.note(f"counting {spec} with NetworkX (may be slow)")
            nx_count, nx_secs = _timed(
                lambda pattern=pattern, labels=labels: networkx_count(
                    nxg, pattern, induced=args.induced, distinct=args.distinct, labels=labels
                )
            )
            if nx_count != count:
                raise MismatchError(f"{spec}: nx_gpumine counted {count}, NetworkX {nx_count}")
        speed = None if nx_secs is None else f"x{nx_secs / max(secs, 1e-9):.1f}"
        rows.append([spec, match, kind, count, engine, secs, nx_count, nx_secs, speed])
        records.append(
            {
                "pattern": spec,
                "induced": bool(args.induced),
                "kind": kind,
                "count": count,
                "engine": engine,
                "time_s": secs,
                "networkx_count": nx_count,
                "networkx_s": nx_secs,
            }
        )
    header = ["pattern", "match", "kind", "count", "engine", "time_s"]
    header += ["networkx", "networkx_s", "speedup"]
    data = {
        "command": "count",
        "graph": args.graph,
        "nodes": graph.n,
        "edges": graph.num_edges,
        "directed": graph.directed,
        "read_s": read_s,
        "results": records,
    }
    notes = [f"graph {args.graph}: {graph} (read in {read_s:.3f} s)"]
    return Report(header, rows, data, notes=notes)


def parse_delta(text: str | None) -> Any:
    """``--delta``: ``none``, a number (the time column's unit) or a duration such as ``1h``.

    Durations: a number followed by ``ns``, ``us``, ``ms``, ``s``, ``min`` (or ``m``), ``h``,
    ``d`` or ``w`` (``90min``, ``1.5h``, ``3600s``), for times that are timestamps.

    Only the text is checked here (its form, and a duration's size in nanoseconds); the value
    is checked by the library's one window check (:func:`_check_delta`).

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


def _check_delta(delta: Any, graph: Any, spec: str, tie: str) -> None:
    """Check ``--delta`` (and ``--tie``) for ``graph`` before any counting.

    A unitless ``--delta`` against timestamps (or a duration against numbers) is refused with
    the CLI's spelling of the fix; the value itself goes through the library's window check
    (:func:`nx_gpumine.plan.temporal_plan.census_window`), whose ``QueryError`` becomes a
    :class:`CliError` naming ``--delta``.
    """
    from ..errors import QueryError
    from ..inputs.times import is_duration, limit_in_units
    from ..plan.temporal_plan import census_window

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
    from ..inputs.motifs import TemporalMotif, named_motif, parse_everest_query

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
        from ..inputs.motifs import MAX_MOTIF_EDGES

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


def cmd_temporal(args: argparse.Namespace) -> Report:
    """``temporal``: count (and optionally list) one temporal motif."""
    from ..inputs.times import format_duration
    from .temporal_functions import as_motif, count_motifs, find_motifs

    engine = resolve_engine(args.engine, "temporal")
    status = _Status(args.progress)
    motif, qgraph, qlimit = _motif_from_args(args)
    delta = parse_delta(args.delta)
    spec = args.graph or qgraph
    if spec is None:
        raise CliError("name a temporal graph (file or 'collegemsg'), or a query with 'graph:'")
    status.note(f"reading {spec}")
    graph, read_s = _timed(lambda: load_temporal_graph(spec, Columns.from_args(args)))
    kw: dict = {"tie": args.tie}
    if args.delta is not None:
        _check_delta(delta, graph, spec, args.tie)
        kw["delta"] = delta
    motif = as_motif(motif, **kw)
    status.note("counting")
    count, secs = _timed(lambda: count_motifs(graph, motif, engine=engine, progress=status.bars))
    name = motif.name or "motif"
    rows = [[name, count, engine, secs]]
    data: dict = {
        "command": "temporal",
        "graph": spec,
        "nodes": graph.n,
        "edges": graph.m,
        "times": graph.time_spec.describe(),
        "motif": {"name": motif.name, "edges": [list(e) for e in motif.edges]},
        "delta": None if motif.delta is None else format_duration(motif.delta),
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
    from ..inputs.motifs import CENSUS_AXIS

    rows = [[f"01 {a}"] + [counts[f"01 {a} {b}"] for b in CENSUS_AXIS] for a in CENSUS_AXIS]
    return rows, ["edges 1,2 \\ 3", *CENSUS_AXIS]


def cmd_census(args: argparse.Namespace) -> Report:
    """``census``: the 36 three-edge motif counts (and a heatmap with ``--plot``)."""
    import numpy as np

    from ..inputs.motifs import census_grid_position
    from ..inputs.times import format_duration
    from .temporal_functions import motif_census

    engine = resolve_engine(args.engine, "temporal")
    status = _Status(args.progress)
    delta = parse_delta(args.delta)
    status.note(f"reading {args.graph}")
    graph, read_s = _timed(lambda: load_temporal_graph(args.graph, Columns.from_args(args)))
    if args.delta is None:  # the default window: one hour
        delta = 3600 if graph.time_spec.kind == "number" else np.timedelta64(3600, "s")
    _check_delta(delta, graph, args.graph, args.tie)
    status.note("census")
    counts, secs = _timed(lambda: motif_census(graph, delta, tie=args.tie, engine=engine))
    shown = "none" if delta is None else format_duration(delta)
    if args.plot:
        from ..results.plots import save_census_heatmap

        title = f"{Path(str(args.graph)).name}: three-edge motifs, delta={shown}, tie={args.tie}"
        try:
            save_census_heatmap(counts, args.plot, title=title)
        except ImportError as exc:
            raise CliError(
                "--plot needs matplotlib (pip install 'nx-gpumine[plot]' or matplotlib)"
            ) from exc
    listed = [[k, v, *census_grid_position(k)] for k, v in counts.items()]
    data = {
        "command": "census",
        "graph": args.graph,
        "nodes": graph.n,
        "edges": graph.m,
        "times": graph.time_spec.describe(),
        "delta": None if delta is None else format_duration(delta),
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
    footer = [f"total {sum(counts.values()):,} in {secs:.3f} s"]
    if args.plot:
        footer.append(f"heatmap written to {args.plot}")
    csv_table = (["motif", "count", "grid_row", "grid_col"], listed)
    if args.list:
        rows, header = [[k, v] for k, v in counts.items()], ["motif", "count"]
    else:
        rows, header = census_rows(counts)
    return Report(header, rows, data, notes=notes, footer=footer, csv_table=csv_table)


def cmd_demo(args: argparse.Namespace) -> Report:
    """``demo``: facebook triangle/4-cycle counts (+ NetworkX on a piece), CollegeMsg census.

    Engine start-up (numba compile, or loading its on-disk cache; NVRTC for CUDA) is measured
    first on tiny inputs and reported on its own line; the times in the tables, and the
    speed-ups against NetworkX, are of the queries alone.
    """
    import networkx as nx

    from .functions import count_subgraphs
    from .temporal_functions import motif_census

    engine = resolve_engine(args.engine, "static")
    tengine = resolve_engine(args.engine, "temporal")
    status = _Status(args.progress)
    out: list[str] = [f"nx-gpumine demo (engines: static {engine}, temporal {tengine})"]
    status.note("engine start-up (numba compile or cache load)")
    startup = _demo_startup(engine, tengine)
    parts = ", ".join(f"{k} {v:.2f} s" for k, v in startup.items())
    out.append(
        f"engine start-up, not included below (numba compile on a fresh install, then a cache "
        f"load): {parts}"
    )
    data: dict = {"command": "demo", "startup_s": startup}

    status.note("reading facebook")
    fb = load_static_graph("facebook")
    buf = _TableBuffer()
    buf.line(f"\n1. SNAP ego-Facebook: {fb}")
    rows = []
    for p in DEMO_PATTERNS:
        status.note(f"counting {p} on facebook")
        c, s = _timed(
            lambda p=p: count_subgraphs(
                fb, p, count="subgraphs", engine=engine, progress=status.bars
            )
        )
        rows.append([p, c, s])
    buf.table(rows, ["pattern", "subgraphs", "time_s"])
    data["facebook"] = [dict(zip(["pattern", "subgraphs", "time_s"], r, strict=True)) for r in rows]

    piece = nx.Graph(fb.to_networkx().subgraph(DEMO_PIECE))
    buf.line(
        f"\n2. A piece of it (nodes {DEMO_PIECE.start}..{DEMO_PIECE.stop - 1}: "
        f"{piece.number_of_nodes()} nodes, {piece.number_of_edges()} edges), "
        "against NetworkX's GraphMatcher"
    )
    rows = []
    for p in DEMO_PATTERNS:
        status.note(f"counting {p} on the piece (nx_gpumine and NetworkX)")
        c, s = _timed(lambda p=p: count_subgraphs(piece, p, count="subgraphs", engine=engine))
        nc, ns = _timed(
            lambda p=p: networkx_count(piece, p, induced=False, distinct=True, labels={})
        )
        if nc != c:
            raise MismatchError(f"demo: {p} counted {c} here but {nc} by NetworkX")
        rows.append([p, c, s, nc, ns, f"x{ns / max(s, 1e-9):.1f}"])
    head = ["pattern", "subgraphs", "time_s", "networkx", "networkx_s", "speedup"]
    buf.table(rows, head)
    data["piece"] = [dict(zip(head, r, strict=True)) for r in rows]

    status.note("reading collegemsg")
    tg = load_temporal_graph("collegemsg")
    delta = 3600
    buf.line(f"\n3. SNAP CollegeMsg: {tg}; three-edge motif census, delta={delta} s")
    status.note("temporal census on collegemsg")
    counts, s = _timed(lambda: motif_census(tg, delta, engine=tengine))
    rows_c, header = census_rows(counts)
    buf.table(rows_c, header)
    buf.line(f"total {sum(counts.values()):,} motif instances in {s:.3f} s")
    data["collegemsg_census"] = {"delta": delta, "counts": counts, "time_s": s}
    return Report([], [], data, notes=out + buf.lines)


def _demo_startup(engine: str, tengine: str) -> dict[str, float]:
    """Seconds to run the demo's kinds of query once on tiny inputs (compile or cache load)."""
    import numpy as np

    from ..inputs.temporal_graph import temporal_from_arrays
    from .functions import count_subgraphs
    from .temporal_functions import motif_census

    graphs = [_tiny_static_graph(False, False), _tiny_static_graph(False, False, big=True)]
    _, s_static = _timed(
        lambda: [
            count_subgraphs(g, p, count="subgraphs", engine=engine)
            for g in graphs
            for p in DEMO_PATTERNS
        ]
    )
    g = temporal_from_arrays([0, 1, 2, 0], [1, 2, 0, 2], np.arange(4, dtype=np.int64))
    _, s_temporal = _timed(lambda: motif_census(g, 3, engine=tengine))
    return {f"static ({engine})": s_static, f"temporal ({tengine})": s_temporal}


#: static patterns of the demo
DEMO_PATTERNS = ("triangle", "4-cycle")


class _TableBuffer:
    """Collects text lines and tables for a report whose text form has several tables."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def line(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    def table(self, rows: list[list[Any]], header: list[str]) -> None:
        import io

        s = io.StringIO()
        print_table(rows, header, s)
        self.lines.extend(s.getvalue().rstrip("\n").split("\n"))


def cmd_warmup(args: argparse.Namespace) -> Report:
    """``warmup``: compile the engines once (numba writes its cache), report the seconds."""
    times = warm_up(args.engine)
    rows = [[k, v] for k, v in times.items()]
    data = {"command": "warmup", "seconds": times}
    notes = ["engine warm-up (first time after installing: numba compiles; later: cache load)"]
    return Report(["engine", "time_s"], rows, data, notes=notes)


def _version(mod: str) -> str:
    try:
        from importlib.metadata import version

        return version(mod)
    except Exception:
        return "not installed"


def cmd_info(args: argparse.Namespace) -> Report:
    """``info``: versions, engines, GPU, NetworkX backend registration."""
    import platform

    import networkx as nx
    import numpy as np

    from .. import __version__
    from ..engines import cuda_available

    gpu = "none found"
    if cuda_available():
        try:
            import cupy

            props = cupy.cuda.runtime.getDeviceProperties(0)
            name = props["name"]
            name = name.decode() if isinstance(name, bytes) else name
            count = cupy.cuda.runtime.getDeviceCount()
            gpu = f"{count} x {name}"
        except Exception as exc:  # pragma: no cover - depends on the driver
            gpu = f"found, but its properties could not be read ({exc})"
    registered = "gpumine" in nx.utils.backends.backends
    cupy_v = _version("cupy-cuda13x")
    rows = [
        ["nx-gpumine", __version__],
        ["python", platform.python_version()],
        ["networkx", nx.__version__],
        ["numpy", np.__version__],
        ["numba", _version("numba")],
        ["pyarrow", _version("pyarrow")],
        ["cupy", cupy_v if cupy_v != "not installed" else _version("cupy")],
        ["tqdm", _version("tqdm")],
        ["engines", "cpu, cuda" if cuda_available() else "cpu (cuda: no GPU/CuPy)"],
        ["gpu", gpu],
        ["networkx backend", "gpumine registered" if registered else "not registered"],
        ["NX_GPUMINE_ENGINE", os.environ.get("NX_GPUMINE_ENGINE", "(unset: auto)")],
    ]
    return Report(["item", "value"], rows, {"command": "info", **dict(rows)})


# ====================================================================== parser
def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``nx-gpumine``."""
    from .. import __version__

    p = argparse.ArgumentParser(
        prog="nx-gpumine",
        description="Subgraph and temporal motif counting on GPUs and CPUs.",
        epilog="exit status: 0 ok, 1 internal error, 2 user error, 3 cross-check failed, "
        "130 interrupted, 143 terminated",
    )
    p.add_argument("--version", action="version", version=f"nx-gpumine {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(sp: argparse.ArgumentParser, *, formats: tuple = ("table", "json", "csv")) -> None:
        sp.add_argument("--dataset", "--graph", dest="graph_opt", metavar="GRAPH",
                        help="the graph (same as the positional GRAPH)")  # fmt: skip
        sp.add_argument(
            "--engine", choices=("auto", "cpu", "cuda"), default="auto",
            help="engine (auto: CUDA when a GPU is found)",
        )  # fmt: skip
        g = sp.add_mutually_exclusive_group()
        g.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="progress on stderr (default: when stderr is a terminal)")  # fmt: skip
        g.add_argument("--no-progress", dest="progress", action="store_false")
        outputs(sp, formats)

    def outputs(sp: argparse.ArgumentParser, formats: tuple = ("table", "json", "csv")) -> None:
        sp.add_argument("--format", choices=formats, default="table",
                        help="output format (default: an aligned table)")  # fmt: skip
        sp.add_argument("-o", "--output", metavar="FILE", help="write the results to FILE")

    def columns(sp: argparse.ArgumentParser, *, time: bool) -> None:
        sp.add_argument("--source", metavar="COL", help="source column: name or 0-based index (0)")
        sp.add_argument("--target", metavar="COL", help="target column: name or index (1)")
        if time:
            sp.add_argument("--time", metavar="COL", help="time column: name or index (2)")
        h = sp.add_mutually_exclusive_group()
        h.add_argument("--header", dest="header", action="store_true", default=None,
                       help="the first line is a header (default: detected)")  # fmt: skip
        h.add_argument("--no-header", dest="header", action="store_false",
                       help="the first line is an edge")  # fmt: skip

    c = sub.add_parser("count", help="count static pattern matches")
    c.add_argument("graph", nargs="?", help="edge-list file, '-' (stdin), 'facebook', 'collegemsg'")
    c.add_argument("patterns", nargs="*", metavar="PATTERN",
                   help="catalogue name (triangle, 4-cycle, ...) or edge-list file")  # fmt: skip
    c.add_argument("--pattern", action="append", dest="pattern_opts", metavar="PATTERN",
                   help="a pattern (repeatable; same as the positional PATTERNs)")  # fmt: skip
    c.add_argument("--induced", action="store_true", help="node-induced matches")
    c.add_argument("--distinct", action="store_true",
                   help="count distinct subgraphs (default: all mappings)")  # fmt: skip
    c.add_argument("--directed", action="store_true", help="read graph and pattern as directed")
    c.add_argument("--edge-labels", action="store_true",
                   help="the graph's third column (index 2) is an edge label")  # fmt: skip
    c.add_argument("--label", metavar="COL", help="edge label column: name or 0-based index")
    c.add_argument("--node-labels", metavar="FILE", help="graph node labels: 'node label' lines")
    c.add_argument("--pattern-node-labels", metavar="FILE",
                   help="pattern node labels: 'node label' lines")  # fmt: skip
    c.add_argument("--compare-networkx", action="store_true",
                   help="also count with NetworkX's GraphMatcher and report its time")  # fmt: skip
    columns(c, time=False)
    common(c)
    c.set_defaults(func=cmd_count)

    t = sub.add_parser("temporal", help="count one temporal motif")
    t.add_argument("graph", nargs="?", help="'src dst time' file, '-' (stdin), or 'collegemsg'")
    t.add_argument("--motif", help="catalogue name: M1..M13, M4-A, triangle, cycle<k>, path<l>, "
                   "or a census key like '01 12 20'")  # fmt: skip
    t.add_argument("--edges", help="motif edges in temporal order, e.g. '0 1, 1 2, 2 0'")
    t.add_argument("--query", metavar="FILE", help="Everest-style query file (YAML)")
    t.add_argument("--delta", help="window t_last - t_first <= DELTA: a number in the time "
                   "column's unit, a duration (90min, 1h) for timestamps, or 'none'")  # fmt: skip
    t.add_argument("--tie", choices=("strict", "input_order"), default="strict",
                   help="equal timestamps: never ordered (strict) or by input order")  # fmt: skip
    t.add_argument("--find", type=int, metavar="N", help="also list the first N matches")
    columns(t, time=True)
    common(t)
    t.set_defaults(func=cmd_temporal)

    s = sub.add_parser("census", help="the 36 three-edge temporal motifs")
    s.add_argument("graph", nargs="?", help="'src dst time' file, '-' (stdin), or 'collegemsg'")
    s.add_argument("--delta",
                   help="window (default 3600, one hour for timestamps; a duration such as 1h "
                   "for timestamps; 'none': no window)")  # fmt: skip
    s.add_argument("--tie", choices=("strict", "input_order"), default="strict")
    s.add_argument("--list", action="store_true", help="one row per motif instead of 6x6")
    s.add_argument(
        "--plot", metavar="PNG", help="also draw the 6x6 table as a heatmap (matplotlib)"
    )
    columns(s, time=True)
    common(s)
    s.set_defaults(func=cmd_census)

    d = sub.add_parser("demo", help="run on the bundled graphs, with NetworkX for comparison")
    common(d, formats=("table", "json"))
    d.set_defaults(func=cmd_demo)

    w = sub.add_parser("warmup", help="compile the engines once (run after installing)")
    w.add_argument("--engine", choices=("auto", "cpu", "cuda"), default="auto")
    outputs(w)
    w.set_defaults(func=cmd_warmup, progress=False)

    i = sub.add_parser("info", help="versions, engines and GPU")
    outputs(i)
    i.set_defaults(func=cmd_info, progress=False)
    return p


def _run_command(args: argparse.Namespace, out: TextIO) -> int:
    """Run the chosen subcommand and write its report; the exit status."""
    from ..errors import GpumineError

    try:
        report = args.func(args)
        with _output(getattr(args, "output", None), out) as fh:
            write_report(report, getattr(args, "format", "table"), fh)
        return EXIT_OK
    except MismatchError as exc:
        print(f"nx-gpumine {args.command}: cross-check failed: {exc}", file=sys.stderr)
        return EXIT_MISMATCH
    except (CliError, GpumineError, ValueError, OSError, ImportError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        print(f"nx-gpumine {args.command}: error: {msg}", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print("nx-gpumine: interrupted", file=sys.stderr)
        return EXIT_SIGINT


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    args = parser.parse_args(argv)
    if getattr(args, "graph_opt", None):
        if args.graph and args.graph != args.graph_opt:
            if args.command == "count":  # the positional was the first pattern
                args.patterns.insert(0, args.graph)
            else:
                parser.error("give the graph once (positional GRAPH or --dataset)")
        args.graph = args.graph_opt
    if args.command == "count":
        args.patterns = list(args.patterns) + list(args.pattern_opts or [])
        if not args.graph or not args.patterns:
            parser.error("count needs a GRAPH and at least one PATTERN")
    if args.command == "census" and not args.graph:
        parser.error("census needs a GRAPH")
    if getattr(args, "progress", None) is None:
        args.progress = _progress_default()
    return args


def main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    *,
    interruptible: bool | None = None,
) -> int:
    """Run the command line; returns the exit status (see the module docstring).

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments (default ``sys.argv[1:]``).
    out : file, optional
        Where results go (default stdout); notes and errors go to stderr.
    interruptible : bool, optional
        Run the command in a child process that is killed at once on SIGINT / SIGTERM (exit
        130 / 143). Default: on when run as a program (``argv`` not given) on a system with
        ``fork``; calls from Python (tests) run in-process.
    """
    parser = build_parser()
    args = _parse(parser, argv)
    if interruptible is None:
        interruptible = argv is None and out is None
    out = sys.stdout if out is None else out
    if interruptible and hasattr(os, "fork"):
        return _supervised(lambda: _run_command(args, out))
    return _run_command(args, out)


class _Terminated(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _supervised(run: Callable[[], int]) -> int:
    """Run ``run`` in a forked child; on SIGINT / SIGTERM / SIGHUP kill it and return at once.

    An engine call holds the interpreter until it returns, so a signal handler in the process
    doing the work would only run then. The parent does nothing but wait, so it reacts within
    milliseconds. The child ignores SIGINT (the parent owns it) and dies with the parent.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child
        code = EXIT_INTERNAL
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            _die_with_parent()
            code = run()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else EXIT_INTERNAL
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)

    def stop(signum: int, frame: Any) -> None:
        raise _Terminated(signum)

    old = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            old[sig] = signal.signal(sig, stop)
    try:
        _, status = os.waitpid(pid, 0)
    except (KeyboardInterrupt, _Terminated) as exc:
        signum = exc.signum if isinstance(exc, _Terminated) else signal.SIGINT
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        word = "interrupted" if signum == signal.SIGINT else "terminated"
        print(f"nx-gpumine: {word}", file=sys.stderr, flush=True)
        return 128 + int(signum)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def _die_with_parent() -> None:
    """Linux: ask the kernel to kill this child when its parent dies (no orphaned engine)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            os._exit(EXIT_SIGTERM)
    except (OSError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
