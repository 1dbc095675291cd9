"""``nx-gpumine count``: static pattern counts, optionally checked against NetworkX."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from .common import CliError, MismatchError, Status, resolve_engine, timed
from .output import Report, save_plot
from .reading import Columns, load_pattern, load_static_graph

__all__ = ["count_command", "networkx_count", "cmd_graphlets"]


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
    """``count``: one row per pattern.

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
    """
    from ..functions import count_subgraphs

    engine = resolve_engine(args.engine, "static")
    status = Status(args.progress)
    status.note(f"reading {args.graph}")
    graph, read_s = timed(
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
        labels = static_labels(graph, pattern)
        status.note(f"counting {spec} ({kind}, {match})")
        count, secs = timed(
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
