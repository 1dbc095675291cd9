"""The ``nx-gpumine`` command line (also ``python -m nx_gpumine``).

Subcommands::

    nx-gpumine count GRAPH PATTERN [PATTERN ...]   static pattern counts (table of count and time)
    nx-gpumine temporal GRAPH --motif M4 --delta 3600   one temporal motif (or --query FILE)
    nx-gpumine census GRAPH --delta 3600          the 36 three-edge temporal motifs, 6x6 table
    nx-gpumine demo                               bundled graphs, with NetworkX for comparison
    nx-gpumine info                               versions, engines, GPU

``GRAPH`` is an edge-list file (whitespace or comma separated, ``#``/``%`` comments, an optional
header line) or a bundled data set: ``facebook`` (SNAP ego-Facebook, undirected) or
``collegemsg`` (SNAP CollegeMsg, ``src dst time``). Errors (missing file, unknown pattern, bad
option) print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

__all__ = ["main", "build_parser", "CliError", "load_static_graph", "load_temporal_graph"]

_DATA = Path(__file__).resolve().parent.parent / "data"
DATASETS = {
    "facebook": _DATA / "facebook_combined.txt",
    "collegemsg": _DATA / "collegemsg.txt",
}
#: nodes of the facebook piece the demo also counts with NetworkX
DEMO_PIECE = range(1000, 1150)


class CliError(Exception):
    """A user error: reported as one line on stderr, exit status 2."""


# ====================================================================== reading files
def _dataset_or_file(spec: str, what: str) -> Path:
    if spec in DATASETS:
        return DATASETS[spec]
    path = Path(spec)
    if not path.is_file():
        known = ", ".join(DATASETS)
        raise CliError(f"{what} {spec!r}: no such file (bundled data sets: {known})")
    return path


def _is_number(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


def read_table(path: Path, min_cols: int, what: str) -> list[list[str]]:
    """Rows of a whitespace/comma separated text file (comments and a header line skipped).

    Raises
    ------
    CliError
        If a row has fewer than ``min_cols`` columns or the file cannot be read.
    """
    try:
        text = path.read_text()
    except OSError as exc:
        raise CliError(f"{what} {str(path)!r}: {exc.strerror or exc}") from exc
    rows: list[list[str]] = []
    linenos: list[int] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s[0] in "#%":
            continue
        rows.append(s.replace(",", " ").split())
        linenos.append(lineno)
    # a header line ("src dst time") is a non-numeric first row above numeric rows
    if len(rows) >= 2:
        first, second = rows[0][:min_cols], rows[1][:min_cols]
        if not any(_is_number(t) for t in first) and all(_is_number(t) for t in second):
            rows, linenos = rows[1:], linenos[1:]
    for toks, lineno in zip(rows, linenos, strict=True):
        if len(toks) < min_cols:
            raise CliError(
                f"{what} {str(path)!r} line {lineno}: expected at least {min_cols} columns, "
                f"got {' '.join(toks)!r}"
            )
    if not rows:
        raise CliError(f"{what} {str(path)!r} holds no edges")
    return rows


def _keys(tokens: list[str]) -> np.ndarray:
    """Node keys: int64 when every token is an integer, else strings."""
    try:
        return np.asarray([int(t) for t in tokens], dtype=np.int64)
    except ValueError:
        return np.asarray(tokens, dtype=object)


def _value(tok: str) -> Any:
    for conv in (int, float):
        try:
            return conv(tok)
        except ValueError:
            pass
    return tok


def _read_labels(path_spec: str, what: str) -> dict:
    rows = read_table(_dataset_or_file(path_spec, what), 2, what)
    keys = _keys([r[0] for r in rows]).tolist()
    return {k: _value(r[1]) for k, r in zip(keys, rows, strict=True)}


def load_static_graph(
    spec: str,
    *,
    directed: bool = False,
    edge_labels: bool = False,
    node_labels: str | None = None,
) -> Any:
    """Read ``spec`` (file or bundled name) as a :class:`~nx_gpumine.StaticGraph`.

    Repeated edges are merged (first label kept); self-loops are kept.
    """
    from ..inputs.static_graph import LabelSpec, from_arrays

    path = _dataset_or_file(spec, "graph")
    rows = read_table(path, 3 if edge_labels else 2, "graph")
    src = _keys([r[0] for r in rows])
    dst = _keys([r[1] for r in rows])
    if src.dtype != dst.dtype:
        src, dst = src.astype(object), dst.astype(object)
    labs = None
    if edge_labels:
        labs = np.empty(len(rows), dtype=object)
        labs[:] = [_value(r[2]) for r in rows]
    nlabs = _read_labels(node_labels, "node label file") if node_labels else None
    nodes = None
    if nlabs is not None:
        seen = dict.fromkeys(sorted(set(src.tolist()) | set(dst.tolist()), key=_sort_key))
        nodes = list(seen)
        missing = [k for k in nodes if k not in nlabs]
        if missing:
            raise CliError(f"node label file has no label for node {missing[0]!r}")
        nodes += [k for k in nlabs if k not in seen]
    g = from_arrays(
        src, dst, directed=directed, nodes=nodes, node_labels=nlabs, edge_labels=labs,
        duplicates="drop",
    )  # fmt: skip
    if nlabs is not None:
        g.node_label_spec = LabelSpec("label")
    return g


def _sort_key(k: Any) -> tuple:
    return (type(k).__name__, k)


def load_pattern(spec: str, *, directed: bool, node_labels: str | None = None) -> Any:
    """A catalogue pattern name, or an edge-list file ``u v [edge label]`` as a NetworkX graph."""
    import networkx as nx

    from ..inputs.patterns import CATALOGUE

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
    rows = read_table(path, 2, "pattern file")
    P = nx.DiGraph() if directed else nx.Graph()
    keys_u = _keys([r[0] for r in rows]).tolist()
    keys_v = _keys([r[1] for r in rows]).tolist()
    for u, v, r in zip(keys_u, keys_v, rows, strict=True):
        attrs = {"label": _value(r[2])} if len(r) > 2 else {}
        P.add_edge(u, v, **attrs)
    labeled = [len(r) > 2 for r in rows]
    if any(labeled) and not all(labeled):
        raise CliError(f"pattern file {spec!r}: give an edge label on every line or on none")
    if node_labels:
        labs = _read_labels(node_labels, "pattern node label file")
        for v in P:
            if v not in labs:
                raise CliError(f"pattern node label file has no label for node {v!r}")
            P.nodes[v]["label"] = labs[v]
    P.graph["name"] = path.name
    return P


def load_temporal_graph(spec: str) -> Any:
    """Read ``spec`` (file with ``src dst time`` columns, or ``collegemsg``)."""
    from ..inputs.temporal_graph import load_collegemsg, temporal_from_arrays

    if spec == "collegemsg":
        return load_collegemsg()
    path = _dataset_or_file(spec, "temporal graph")
    rows = read_table(path, 3, "temporal graph")
    src = _keys([r[0] for r in rows])
    dst = _keys([r[1] for r in rows])
    try:
        t = np.asarray([float(r[2]) for r in rows])
    except ValueError as exc:
        raise CliError(f"temporal graph {spec!r}: the third column must be a time ({exc})") from exc
    if np.all(t == np.round(t)) and np.all(np.abs(t) < 2**53):
        t = t.astype(np.int64)
    return temporal_from_arrays(src, dst, t, what=f"temporal graph {spec!r}")


def engine_available(name: str, kind: str) -> bool:
    """Whether engine ``name`` ("cpu"/"cuda") has a module for ``kind`` here (and a GPU)."""
    import importlib.util

    from ..engines import cuda_available

    if name == "cuda" and not cuda_available():
        return False
    return importlib.util.find_spec(f"nx_gpumine.engines.{name}.{kind}") is not None


def resolve_engine(engine: str, kind: str) -> str:
    """``auto`` -> ``cuda`` where a GPU and a CUDA engine for ``kind`` exist, else ``cpu``.

    Raises
    ------
    CliError
        ``cuda`` asked for but not available for this kind of problem.
    """
    from ..engines import ENGINE_NAMES

    if engine not in ENGINE_NAMES:
        raise CliError(f"--engine must be one of {', '.join(ENGINE_NAMES)}, got {engine!r}")
    if engine == "auto":
        return "cuda" if engine_available("cuda", kind) else "cpu"
    if not engine_available(engine, kind):
        raise CliError(
            f"the {engine} engine for {kind} problems is not available here (no GPU/CuPy, or not "
            "in this version); use --engine cpu"
        )
    return engine


# ====================================================================== output helpers
def _fmt_int(x: Any) -> str:
    return "-" if x is None else f"{int(x):,}"


def _fmt_s(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


_NUMERIC = re.compile(r"-?[\d,]+(\.\d+)?|x[\d.]+")


def print_table(rows: Sequence[Sequence[Any]], header: Sequence[str], out: TextIO) -> None:
    """Print an aligned text table (numbers right-aligned)."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[j]) for r in cells) for j in range(len(header))]
    for i, r in enumerate(cells):
        parts = []
        for j, c in enumerate(r):
            numeric = i > 0 and _NUMERIC.fullmatch(c) is not None
            parts.append(c.rjust(widths[j]) if numeric else c.ljust(widths[j]))
        print("  ".join(parts).rstrip(), file=out)
        if i == 0:
            print("  ".join("-" * w for w in widths), file=out)


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
        raise CliError(f"NetworkX count {n} is not a multiple of |Aut(P)| = {aut}")
    return n // aut


def _nx_graph(sg: Any) -> Any:
    return sg.to_networkx()


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


def cmd_count(args: argparse.Namespace, out: TextIO) -> int:
    """``count``: one table row per pattern."""
    from .functions import count_subgraphs

    engine = resolve_engine(args.engine, "static")
    status = _Status(args.progress)
    status.note(f"reading {args.graph}")
    graph = load_static_graph(
        args.graph,
        directed=args.directed,
        edge_labels=args.edge_labels,
        node_labels=args.node_labels,
    )
    print(f"graph {args.graph}: {graph}", file=out)
    nxg = _nx_graph(graph) if args.compare_networkx else None
    kind = "subgraphs" if args.distinct else "mappings"
    rows = []
    for spec in args.patterns:
        pattern = load_pattern(spec, directed=args.directed, node_labels=args.pattern_node_labels)
        labels = _static_labels(graph, pattern)
        status.note(f"counting {spec} ({kind}, {'induced' if args.induced else 'non-induced'})")
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
                raise CliError(f"{spec}: nx_gpumine counted {count}, NetworkX {nx_count}")
        speed = None if nx_secs is None else f"x{nx_secs / max(secs, 1e-9):.1f}"
        rows.append(
            [
                spec,
                "induced" if args.induced else "non-induced",
                kind,
                _fmt_int(count),
                engine,
                _fmt_s(secs),
                _fmt_int(nx_count),
                _fmt_s(nx_secs),
                speed or "-",
            ]
        )
    header = ["pattern", "match", "kind", "count", "engine", "time_s"]
    header += ["networkx", "networkx_s", "speedup"]
    print_table(rows, header, out)
    return 0


def _parse_delta(text: str | None) -> Any:
    if text is None:
        return None
    if text.lower() in ("none", "inf", "infinity"):
        return None
    try:
        v = float(text)
    except ValueError as exc:
        raise CliError(f"--delta must be a number or 'none', got {text!r}") from exc
    return int(v) if v == int(v) else v


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
        q = parse_everest_query(path.read_text(), base_dir=path.parent, tie=args.tie)
        graph = None
        if q.graph:
            gpath = Path(q.graph)
            graph = str(gpath if gpath.is_absolute() else path.parent / gpath)
            if q.graph in DATASETS:
                graph = q.graph
        return q.motif, graph, q.enumerate
    if args.edges:
        pairs = []
        for part in args.edges.replace(";", ",").split(","):
            toks = part.replace("->", " ").split()
            if len(toks) != 2:
                raise CliError(f"--edges: cannot read {part.strip()!r} (write 'a b' per edge)")
            try:
                pairs.append((int(toks[0]), int(toks[1])))
            except ValueError as exc:
                raise CliError(f"--edges: motif nodes are integers, got {part.strip()!r}") from exc
        return TemporalMotif(pairs, tie=args.tie), None, None
    return named_motif(args.motif, tie=args.tie), None, None


def cmd_temporal(args: argparse.Namespace, out: TextIO) -> int:
    """``temporal``: count (and optionally list) one temporal motif."""
    from .temporal_functions import as_motif, count_motifs, find_motifs

    engine = resolve_engine(args.engine, "temporal")
    status = _Status(args.progress)
    motif, qgraph, qlimit = _motif_from_args(args)
    spec = args.graph or qgraph
    if spec is None:
        raise CliError("name a temporal graph (file or 'collegemsg'), or a query with 'graph:'")
    status.note(f"reading {spec}")
    graph = load_temporal_graph(spec)
    kw: dict = {"tie": args.tie}
    if args.delta is not None:
        kw["delta"] = _parse_delta(args.delta)
    motif = as_motif(motif, **kw)
    print(f"temporal graph {spec}: {graph}", file=out)
    print(f"motif: {motif}", file=out)
    status.note("counting")
    count, secs = _timed(lambda: count_motifs(graph, motif, engine=engine, progress=status.bars))
    rows = [[motif.name or "motif", _fmt_int(count), engine, _fmt_s(secs)]]
    print_table(rows, ["motif", "count", "engine", "time_s"], out)
    limit = args.find if args.find is not None else qlimit
    if limit:
        frame = find_motifs(graph, motif, limit=limit, engine=engine)
        print(f"first {min(limit, len(frame))} matches:", file=out)
        print(frame.to_string(index=False), file=out)
    return 0


def census_rows(counts: dict) -> tuple[list[list[str]], list[str]]:
    """The 6x6 census table: row ``R[r]``, column ``R[c]`` counts motif ``'01 R[r] R[c]'``."""
    from ..inputs.motifs import CENSUS_AXIS

    rows = [
        [f"01 {a}"] + [_fmt_int(counts[f"01 {a} {b}"]) for b in CENSUS_AXIS] for a in CENSUS_AXIS
    ]
    return rows, ["edges 1,2 \\ 3", *CENSUS_AXIS]


def cmd_census(args: argparse.Namespace, out: TextIO) -> int:
    """``census``: the 36 three-edge motif counts."""
    from .temporal_functions import motif_census

    engine = resolve_engine(args.engine, "temporal")
    status = _Status(args.progress)
    status.note(f"reading {args.graph}")
    graph = load_temporal_graph(args.graph)
    delta = _parse_delta(args.delta)
    status.note("census")
    counts, secs = _timed(lambda: motif_census(graph, delta, tie=args.tie, engine=engine))
    print(f"temporal graph {args.graph}: {graph}", file=out)
    print(f"three-edge motif census, delta={delta}, tie={args.tie}, engine={engine}", file=out)
    if args.list:
        print_table([[k, _fmt_int(v)] for k, v in counts.items()], ["motif", "count"], out)
    else:
        rows, header = census_rows(counts)
        print_table(rows, header, out)
    print(f"total {sum(counts.values()):,} in {secs:.3f} s", file=out)
    return 0


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    """``demo``: facebook triangle/4-cycle counts (+ NetworkX on a piece), CollegeMsg census."""
    import networkx as nx

    from .functions import count_subgraphs
    from .temporal_functions import motif_census

    engine = resolve_engine(args.engine, "static")
    tengine = resolve_engine(args.engine, "temporal")
    status = _Status(args.progress)
    print(f"nx-gpumine demo (engines: static {engine}, temporal {tengine})", file=out)
    status.note("reading facebook")
    fb = load_static_graph("facebook")
    print(f"\n1. SNAP ego-Facebook: {fb}", file=out)
    rows = []
    for p in ("triangle", "4-cycle"):
        status.note(f"counting {p} on facebook")
        c, s = _timed(
            lambda p=p: count_subgraphs(
                fb, p, count="subgraphs", engine=engine, progress=status.bars
            )
        )
        rows.append([p, _fmt_int(c), _fmt_s(s)])
    print_table(rows, ["pattern", "subgraphs", "time_s"], out)

    piece = nx.Graph(_nx_graph(fb).subgraph(DEMO_PIECE))
    print(
        f"\n2. A piece of it (nodes {DEMO_PIECE.start}..{DEMO_PIECE.stop - 1}: "
        f"{piece.number_of_nodes()} nodes, {piece.number_of_edges()} edges), "
        "against NetworkX's GraphMatcher",
        file=out,
    )
    rows = []
    for p in ("triangle", "4-cycle"):
        status.note(f"counting {p} on the piece (nx_gpumine and NetworkX)")
        c, s = _timed(lambda p=p: count_subgraphs(piece, p, count="subgraphs", engine=engine))
        nc, ns = _timed(
            lambda p=p: networkx_count(piece, p, induced=False, distinct=True, labels={})
        )
        if nc != c:
            raise CliError(f"demo: {p} counted {c} here but {nc} by NetworkX")
        rows.append(
            [p, _fmt_int(c), _fmt_s(s), _fmt_int(nc), _fmt_s(ns), f"x{ns / max(s, 1e-9):.1f}"]
        )
    print_table(rows, ["pattern", "subgraphs", "time_s", "networkx", "networkx_s", "speedup"], out)

    status.note("reading collegemsg")
    tg = load_temporal_graph("collegemsg")
    delta = 3600
    print(f"\n3. SNAP CollegeMsg: {tg}; three-edge motif census, delta={delta} s", file=out)
    status.note("temporal census on collegemsg")
    counts, s = _timed(lambda: motif_census(tg, delta, engine=tengine))
    rows_c, header = census_rows(counts)
    print_table(rows_c, header, out)
    print(f"total {sum(counts.values()):,} motif instances in {s:.3f} s", file=out)
    return 0


def _version(mod: str) -> str:
    try:
        from importlib.metadata import version

        return version(mod)
    except Exception:
        return "not installed"


def cmd_info(args: argparse.Namespace, out: TextIO) -> int:
    """``info``: versions, engines, GPU, NetworkX backend registration."""
    import platform

    import networkx as nx

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
    rows = [
        ["nx-gpumine", __version__],
        ["python", platform.python_version()],
        ["networkx", nx.__version__],
        ["numpy", np.__version__],
        ["numba", _version("numba")],
        [
            "cupy",
            _version("cupy-cuda13x")
            if _version("cupy-cuda13x") != "not installed"
            else _version("cupy"),
        ],  # fmt: skip
        ["tqdm", _version("tqdm")],
        ["engines", "cpu, cuda" if cuda_available() else "cpu (cuda: no GPU/CuPy)"],
        ["gpu", gpu],
        ["networkx backend", "gpumine registered" if registered else "not registered"],
        ["NX_GPUMINE_ENGINE", os.environ.get("NX_GPUMINE_ENGINE", "(unset: auto)")],
    ]
    print_table(rows, ["item", "value"], out)
    return 0


# ====================================================================== parser
def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``nx-gpumine``."""
    from .. import __version__

    p = argparse.ArgumentParser(
        prog="nx-gpumine",
        description="Subgraph and temporal motif counting on GPUs and CPUs.",
    )
    p.add_argument("--version", action="version", version=f"nx-gpumine {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(sp: argparse.ArgumentParser) -> None:
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

    c = sub.add_parser("count", help="count static pattern matches")
    c.add_argument("graph", nargs="?", help="edge-list file, or 'facebook' / 'collegemsg'")
    c.add_argument("patterns", nargs="*", metavar="PATTERN",
                   help="catalogue name (triangle, 4-cycle, ...) or edge-list file")  # fmt: skip
    c.add_argument("--pattern", action="append", dest="pattern_opts", metavar="PATTERN",
                   help="a pattern (repeatable; same as the positional PATTERNs)")  # fmt: skip
    c.add_argument("--induced", action="store_true", help="node-induced matches")
    c.add_argument("--distinct", action="store_true",
                   help="count distinct subgraphs (default: all mappings)")  # fmt: skip
    c.add_argument("--directed", action="store_true", help="read graph and pattern as directed")
    c.add_argument("--edge-labels", action="store_true", help="third graph column = edge label")
    c.add_argument("--node-labels", metavar="FILE", help="graph node labels: 'node label' lines")
    c.add_argument("--pattern-node-labels", metavar="FILE",
                   help="pattern node labels: 'node label' lines")  # fmt: skip
    c.add_argument("--compare-networkx", action="store_true",
                   help="also count with NetworkX's GraphMatcher and report its time")  # fmt: skip
    common(c)
    c.set_defaults(func=cmd_count)

    t = sub.add_parser("temporal", help="count one temporal motif")
    t.add_argument("graph", nargs="?", help="'src dst time' file, or 'collegemsg'")
    t.add_argument("--motif", help="catalogue name: M1..M13, M4-A, triangle, cycle<k>, path<l>, "
                   "or a census key like '01 12 20'")  # fmt: skip
    t.add_argument("--edges", help="motif edges in temporal order, e.g. '0 1, 1 2, 2 0'")
    t.add_argument("--query", metavar="FILE", help="Everest-style query file (YAML)")
    t.add_argument("--delta", help="window t_last - t_first <= DELTA ('none': no window)")
    t.add_argument("--tie", choices=("strict", "input_order"), default="strict",
                   help="equal timestamps: never ordered (strict) or by input order")  # fmt: skip
    t.add_argument("--find", type=int, metavar="N", help="also list the first N matches")
    common(t)
    t.set_defaults(func=cmd_temporal)

    s = sub.add_parser("census", help="the 36 three-edge temporal motifs")
    s.add_argument("graph", nargs="?", help="'src dst time' file, or 'collegemsg'")
    s.add_argument("--delta", default="3600", help="window (default 3600; 'none': no window)")
    s.add_argument("--tie", choices=("strict", "input_order"), default="strict")
    s.add_argument("--list", action="store_true", help="one row per motif instead of 6x6")
    common(s)
    s.set_defaults(func=cmd_census)

    d = sub.add_parser("demo", help="run on the bundled graphs, with NetworkX for comparison")
    common(d)
    d.set_defaults(func=cmd_demo)

    i = sub.add_parser("info", help="versions, engines and GPU")
    i.set_defaults(func=cmd_info, progress=False)
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 user error).

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments (default ``sys.argv[1:]``).
    out : file, optional
        Where results go (default stdout); notes and errors go to stderr.
    """
    from ..errors import GpumineError

    out = sys.stdout if out is None else out
    parser = build_parser()
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
    try:
        return int(args.func(args, out) or 0)
    except (CliError, GpumineError, ValueError, OSError, ImportError) as exc:
        msg = str(exc) or type(exc).__name__
        print(f"nx-gpumine {args.command}: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nx-gpumine: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
