"""``nx-gpumine count``: static pattern counts, optionally checked against NetworkX."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import Any

from .common import CliError, MismatchError, Status, resolve_engine, timed
from .output import Report, save_plot
from .reading import Columns, load_pattern, load_static_graph

__all__ = ["count_command", "estimate_command", "networkx_count", "cmd_graphlets"]


def networkx_count(G: Any, P: Any, *, induced: bool, distinct: bool, labels: dict) -> int:
    """The same count with NetworkX's VF2 matchers (reference for ``--compare-networkx``)."""
    from networkx.algorithms import isomorphism as iso

    if isinstance(P, str):
        from ...inputs.patterns import CATALOGUE

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


def static_labels(graph: Any, pattern: Any) -> dict:
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


def count_command(
    args: argparse.Namespace, reference: Callable[..., int] = networkx_count
) -> Report:
    """``count``: one row per pattern (with ``--estimate``: its estimate, nothing counted).

    With progress on, a pattern whose work bound is large is estimated first and its
    predicted time printed on stderr (``count_subgraphs(progress=True)``); ``--max-work`` /
    ``--max-seconds`` refuse a pattern past the limit before counting it.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``count`` arguments.
    reference : callable, optional
        The ``--compare-networkx`` counter, called as :func:`networkx_count` is.

    Returns
    -------
    Report
        One row per pattern.

    Raises
    ------
    MismatchError
        ``--compare-networkx`` and ``reference`` counted otherwise.
    CliError
        A pattern refused by ``--max-work`` / ``--max-seconds`` (the message names its
        estimate), or ``--estimate`` with an option that only applies to a count.
    """
    from ...errors import WorkLimitError
    from ..functions import count_subgraphs

    if args.estimate:
        given = [
            opt
            for opt, on in (
                ("--compare-networkx", args.compare_networkx),
                ("--max-work", args.max_work is not None),
                ("--max-seconds", args.max_seconds is not None),
            )
            if on
        ]
        if given:
            raise CliError(f"--estimate counts nothing: {', '.join(given)} does not apply")
        return estimate_command(args)
    engine = resolve_engine(args.engine, "static")
    status = Status(args.progress)
    graph, read_s = _read_graph(args, status)
    nxg = graph.to_networkx() if args.compare_networkx else None
    kind, match = _query_kind(args)
    rows, records = [], []
    for spec, pattern, labels in _each_pattern(args, graph, status, "counting"):
        try:
            count, secs = timed(
                lambda pattern=pattern, labels=labels: count_subgraphs(
                    graph,
                    pattern,
                    induced=args.induced,
                    count=kind,
                    engine=engine,
                    # on also without tqdm: a long count's predicted time goes to stderr
                    progress=status.enabled,
                    max_work=args.max_work,
                    max_seconds=args.max_seconds,
                    **labels,
                )
            )
        except WorkLimitError as exc:
            raise CliError(_refusal(spec, exc.estimate, args)) from None
        nx_count = nx_secs = None
        if nxg is not None:
            status.note(f"counting {spec} with NetworkX (may be slow)")
            nx_count, nx_secs = timed(
                lambda pattern=pattern, labels=labels: reference(
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
    data = _graph_data(args, graph, read_s)
    data["results"] = records
    notes = [f"graph {args.graph}: {graph} (read in {read_s:.3f} s)"]
    return Report(header, rows, data, notes=notes)


def estimate_command(args: argparse.Namespace) -> Report:
    """``count --estimate``: one row per pattern, its :func:`nx_gpumine.estimate` (a sampled
    count with its interval, the work and its bound, the CPU engine's predicted time);
    nothing is counted.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``count`` arguments.

    Returns
    -------
    Report
        One row per pattern.
    """
    from ...execution.estimate import format_seconds
    from ..functions import estimate

    status = Status(args.progress)
    graph, read_s = _read_graph(args, status)
    kind, match = _query_kind(args)
    rows, records = [], []
    for spec, pattern, labels in _each_pattern(args, graph, status, "estimating"):
        est, secs = timed(
            lambda pattern=pattern, labels=labels: estimate(
                graph, pattern, induced=args.induced, count=kind, **labels
            )
        )
        rows.append(
            [
                spec, match, kind, est.count, est.count_low, est.count_high, est.work,
                est.work_bound, est.seconds, format_seconds(est.seconds),
                f"{est.samples:,}/{est.roots:,}", est.exact,
            ]
        )  # fmt: skip
        records.append(
            {
                "pattern": spec,
                "induced": bool(args.induced),
                "kind": kind,
                "count": est.count,
                "count_low": est.count_low,
                "count_high": est.count_high,
                "work": est.work,
                "work_bound": est.work_bound,
                "seconds": est.seconds,
                "samples": est.samples,
                "roots": est.roots,
                "exact": est.exact,
                "extrapolated": est.extrapolated,
                "estimate_s": secs,
            }
        )
    header = ["pattern", "match", "kind", "estimate", "low", "high", "work", "work_bound"]
    header += ["cpu_s", "cpu_time", "sampled", "exact"]
    data = _graph_data(args, graph, read_s)
    data["command"] = "count --estimate"
    data["estimates"] = records
    notes = [f"graph {args.graph}: {graph} (read in {read_s:.3f} s)"]
    footer = [
        "estimates, nothing counted: root edges sampled and counted exactly on the CPU engine; "
        "low..high: three standard errors; work: partial matches the count walks, work_bound: "
        "its upper bound from the degrees; cpu_s: the CPU engine's predicted time (a GPU is "
        "usually much faster)"
    ]
    return Report(header, rows, data, notes=notes, footer=footer)


def _query_kind(args: argparse.Namespace) -> tuple[str, str]:
    """``(kind, match)``: what is counted (``"subgraphs"`` / ``"mappings"``) and how
    (``"induced"`` / ``"non-induced"``)."""
    return "subgraphs" if args.distinct else "mappings", (
        "induced" if args.induced else "non-induced"
    )


def _each_pattern(
    args: argparse.Namespace, graph: Any, status: Status, verb: str
) -> Iterator[tuple[str, Any, dict]]:
    """``(spec, pattern, labels)`` for each pattern argument, announced as ``verb`` (its
    label arguments checked against ``graph`` first)."""
    kind, match = _query_kind(args)
    for spec in args.patterns:
        pattern = load_pattern(spec, directed=args.directed, node_labels=args.pattern_node_labels)
        labels = static_labels(graph, pattern)
        status.note(f"{verb} {spec} ({kind}, {match})")
        yield spec, pattern, labels


def _read_graph(args: argparse.Namespace, status: Status) -> tuple[Any, float]:
    """The ``count`` command's graph (a StaticGraph) and the seconds it took to read."""
    status.note(f"reading {args.graph}")
    return timed(
        lambda: load_static_graph(
            args.graph,
            directed=args.directed,
            node_labels=args.node_labels,
            columns=Columns.from_args(args),
        )
    )


def _graph_data(args: argparse.Namespace, graph: Any, read_s: float) -> dict:
    """The JSON fields of the ``count`` command's graph."""
    return {
        "command": "count",
        "graph": args.graph,
        "nodes": graph.n,
        "edges": graph.num_edges,
        "directed": graph.directed,
        "read_s": read_s,
    }


def _refusal(spec: str, est: Any, args: argparse.Namespace) -> str:
    """The one-line error of a pattern refused by ``--max-work`` or ``--max-seconds``."""
    from ...execution.estimate import format_count

    if args.max_work is not None and est.work > args.max_work:
        why = (
            f"estimated {format_count(est.work)} partial matches (bound "
            f"{format_count(est.work_bound)}) > --max-work {args.max_work:,}"
        )
    else:
        why = f"{est.eta()} > --max-seconds {args.max_seconds:g}"
    if est.samples == 0:  # refused by the root vertices and edges alone: nothing sampled
        return f"{spec}: refused before counting: {why} (the root edges alone pass the limit)"
    return f"{spec}: refused before counting: {why} (estimate: {est})"


def cmd_graphlets(args: argparse.Namespace) -> Report:
    """``graphlets``: the static subgraph census (every connected k-node pattern), one row per
    pattern (and a bar chart with ``--plot``)."""
    from ...plan.graphlets import graphlets
    from ...results.plots import save_graphlet_bars
    from ..census_functions import subgraph_census

    engine = resolve_engine(args.engine, "static")
    status = Status(args.progress)
    status.note(f"reading {args.graph}")
    columns = Columns.from_args(args)
    graph, read_s = timed(
        lambda: load_static_graph(args.graph, directed=args.directed, columns=columns)
    )
    gs = graphlets(args.k, graph.directed)  # checks k before the work
    match = "non-induced" if args.non_induced else "induced"
    status.note(f"subgraph census k={args.k} ({match}, {len(gs)} patterns)")
    counts, secs = timed(
        lambda: subgraph_census(
            graph, args.k, induced=not args.non_induced, engine=engine, progress=status.bars
        )
    )
    title = f"connected {args.k}-node patterns ({match})"
    plotted = save_plot(args, save_graphlet_bars, counts, title, "bar chart")
    rows = [[g.name, len(g.edges), g.edge_text(), counts[g.name]] for g in gs]
    data = {
        "command": "graphlets",
        "graph": args.graph,
        "nodes": graph.n,
        "edges": graph.num_edges,
        "directed": graph.directed,
        "k": args.k,
        "induced": not args.non_induced,
        "engine": engine,
        "counts": counts,
        "read_s": read_s,
        "time_s": secs,
    }
    notes = [
        f"graph {args.graph}: {graph} (read in {read_s:.3f} s)",
        f"connected {args.k}-node patterns ({match}), engine={engine}",
    ]
    total = f"{sum(counts.values()):,} in all, in {secs:.3f} s"
    header = ["pattern", "edges", "edge_list", "count"]
    return Report(header, rows, data, notes=notes, footer=[total, *plotted])
