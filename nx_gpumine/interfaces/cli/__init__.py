"""The ``nx-gpumine`` command line (also ``python -m nx_gpumine``): parser and entry point.

Subcommands::

    nx-gpumine count GRAPH PATTERN [PATTERN ...]   static pattern counts (table of count and time;
                                                  --estimate: the estimates, nothing counted)
    nx-gpumine temporal GRAPH --motif M4 --delta 3600   one temporal motif (or --query FILE);
                                                  --motif M1,M4 --delta 3600,86400: a table
    nx-gpumine census GRAPH [--delta 3600]        the 36 three-edge temporal motifs, 6x6 table
    nx-gpumine graphlets GRAPH -k 4               every connected k-node pattern (static census)
    nx-gpumine fsm GRAPH --min-support S          frequent subgraph mining (MNI support)
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
141 the reader of the output went away (a closed pipe, as ``| head`` does: no message),
143 terminated (SIGTERM). Run as a program, the work runs in a child process that the parent
kills at once on SIGINT / SIGTERM, so the program exits within a fraction of a second even while
an engine call (which holds the interpreter) is running.

The subcommands live in this package's modules: :mod:`.static` (``count``, ``graphlets``),
:mod:`.temporal` (``temporal``, ``census``), :mod:`.fsm` (``fsm``), :mod:`.demo`, :mod:`.warmup`
(``warmup``, ``info``); the inputs are read by :mod:`.reading`, the results written by
:mod:`.output`, and :mod:`.process` runs a command in a child process that a signal stops at
once.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from .common import (
    DATASETS,
    EXIT_MISMATCH,
    EXIT_OK,
    EXIT_SIGINT,
    EXIT_SIGPIPE,
    EXIT_USER,
    CliError,
    MismatchError,
    count_arg,
    engine_available,
    progress_default,
    resolve_engine,
    seconds_arg,
)
from .demo import cmd_demo
from .fsm import add_fsm_arguments, cmd_fsm
from .output import Report, check_writable, open_output, print_table, write_report
from .process import run_supervised
from .reading import Columns, load_pattern, load_static_graph, load_temporal_graph
from .static import cmd_graphlets, count_command, networkx_count
from .temporal import census_rows, cmd_census, cmd_temporal, parse_delta
from .warmup import cmd_info, cmd_warmup, warm_up

__all__ = [
    "main",
    "build_parser",
    "CliError",
    "MismatchError",
    "DATASETS",
    "Columns",
    "Report",
    "census_rows",
    "cmd_count",
    "engine_available",
    "load_pattern",
    "load_static_graph",
    "load_temporal_graph",
    "networkx_count",
    "parse_delta",
    "print_table",
    "resolve_engine",
    "warm_up",
    "write_report",
]


#: ``--delta`` of ``temporal`` and ``census``: one description, then each command's default
DELTA_HELP = (
    "window t_last - t_first <= DELTA: a number in the time column's unit, a duration "
    "(90min, 1h) for timestamps, or 'none' for no window"
)


def cmd_count(args: argparse.Namespace) -> Report:
    """``count`` (:func:`~.static.count_command`) with this package's :func:`networkx_count` as
    its ``--compare-networkx`` reference, looked up at call time: replacing
    ``cli.networkx_count`` replaces the reference."""
    return count_command(args, reference=networkx_count)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``nx-gpumine``."""
    from ... import __version__

    p = argparse.ArgumentParser(
        prog="nx-gpumine",
        description="Subgraph and temporal motif counting on GPUs and CPUs.",
        epilog="exit status: 0 ok, 1 internal error, 2 user error, 3 cross-check failed, "
        "130 interrupted, 141 output pipe closed, 143 terminated",
    )
    p.add_argument("--version", action="version", version=f"nx-gpumine {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(
        sp: argparse.ArgumentParser,
        *,
        formats: tuple = ("table", "json", "csv"),
        graph: bool = True,
    ) -> None:
        if graph:  # commands without a GRAPH (demo) must not offer one
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
    c.add_argument("--estimate", action="store_true",
                   help="print each pattern's estimate (count, interval, work, bound, predicted "
                   "CPU time) instead of counting")  # fmt: skip
    c.add_argument("--max-work", type=count_arg, metavar="N",
                   help="refuse, before counting, a pattern whose estimated work exceeds N "
                   "partial matches (exit status 2)")  # fmt: skip
    c.add_argument("--max-seconds", type=seconds_arg, metavar="S",
                   help="refuse, before counting, a pattern whose predicted time on the CPU "
                   "engine exceeds S seconds (exit status 2)")  # fmt: skip
    columns(c, time=False)
    common(c)
    c.set_defaults(func=cmd_count)

    t = sub.add_parser("temporal", help="count one temporal motif")
    t.add_argument("graph", nargs="?", help="'src dst time' file, '-' (stdin), or 'collegemsg'")
    t.add_argument("--motif", help="catalogue name: M1..M13, M4-A, triangle, cycle<k>, path<l>, "
                   "or a census key like '01 12 20'; several, comma-separated (M1,M4,M13), "
                   "count as one table")  # fmt: skip
    t.add_argument("--edges", help="motif edges in temporal order, e.g. '0 1, 1 2, 2 0'")
    t.add_argument("--query", metavar="FILE", help="Everest-style query file (YAML)")
    t.add_argument("--delta", help=f"{DELTA_HELP}; required with --motif and --edges "
                   "(with --query, the query's delta unless given); several, comma-separated "
                   "(1h,1d), count as one table")  # fmt: skip
    t.add_argument("--tie", choices=("strict", "input_order"), default="strict",
                   help="equal timestamps: never ordered (strict) or by input order")  # fmt: skip
    t.add_argument("--find", type=int, metavar="N", help="also list the first N matches")
    columns(t, time=True)
    common(t)
    t.set_defaults(func=cmd_temporal)

    s = sub.add_parser("census", help="the 36 three-edge temporal motifs")
    s.add_argument("graph", nargs="?", help="'src dst time' file, '-' (stdin), or 'collegemsg'")
    s.add_argument("--delta",
                   help=f"{DELTA_HELP} (default 3600, or 1h for timestamps); several, "
                   "comma-separated (600,3600): a row per motif, a column per window")  # fmt: skip
    s.add_argument("--tie", choices=("strict", "input_order"), default="strict")
    s.add_argument("--list", action="store_true", help="one row per motif instead of 6x6")
    s.add_argument(
        "--plot", metavar="PNG", help="also draw the 6x6 table as a heatmap (matplotlib)"
    )
    columns(s, time=True)
    common(s)
    s.set_defaults(func=cmd_census)

    gl = sub.add_parser("graphlets", help="count every connected k-node pattern (static census)")
    gl.add_argument("graph", nargs="?", help="edge-list file, '-' (stdin), or 'facebook'")
    gl.add_argument("-k", type=int, default=4, choices=(3, 4, 5),
                    help="pattern size (default 4; 5 for undirected graphs only)")  # fmt: skip
    gl.add_argument("--non-induced", action="store_true",
                    help="count subgraphs isomorphic to each pattern (default: node sets "
                    "inducing it)")  # fmt: skip
    gl.add_argument("--directed", action="store_true", help="read the graph as directed")
    gl.add_argument("--plot", metavar="PNG", help="also draw the counts as bars (matplotlib)")
    columns(gl, time=False)
    common(gl)
    gl.set_defaults(func=cmd_graphlets)

    f = sub.add_parser("fsm", help="frequent subgraph mining: patterns with MNI support >= S")
    add_fsm_arguments(f)
    columns(f, time=False)
    common(f)
    f.set_defaults(func=cmd_fsm)

    d = sub.add_parser("demo", help="run on the bundled graphs, with NetworkX for comparison")
    common(d, formats=("table", "json"), graph=False)
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
    from ...errors import GpumineError

    try:
        # the files to write are checked before the work, which may take hours
        check_writable(getattr(args, "output", None), "-o")
        check_writable(getattr(args, "plot", None), "--plot")
        report = args.func(args)
        with open_output(getattr(args, "output", None), out) as fh:
            write_report(report, getattr(args, "format", "table"), fh)
        return EXIT_OK
    except BrokenPipeError:
        return _output_closed(out)
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


def _output_closed(out: TextIO) -> int:
    """The reader of ``out`` went away (``| head``): exit quietly with 128 + SIGPIPE.

    Python's documented pattern: point the output's descriptor at ``os.devnull`` so that the
    flush at exit does not raise (and print) the same error again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's StringIO)
        pass
    return EXIT_SIGPIPE


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
    if args.command in ("census", "graphlets", "fsm") and not args.graph:
        parser.error(f"{args.command} needs a GRAPH")
    if getattr(args, "progress", None) is None:
        args.progress = progress_default()
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
        return run_supervised(lambda: _run_command(args, out))
    return _run_command(args, out)
