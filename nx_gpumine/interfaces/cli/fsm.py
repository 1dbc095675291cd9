"""``nx-gpumine fsm``: frequent subgraph mining (:func:`nx_gpumine.frequent_subgraphs`)."""

from __future__ import annotations

import argparse

from .common import Status, resolve_engine, timed
from .output import Report
from .static import _read_graph

__all__ = ["add_fsm_arguments", "cmd_fsm"]


def add_fsm_arguments(sp: argparse.ArgumentParser) -> None:
    """The ``fsm`` command's own arguments (the graph file's columns and the common options
    are added by the parser)."""
    sp.add_argument("graph", nargs="?", help="edge-list file, '-' (stdin), or 'facebook'")
    sp.add_argument("--min-support", type=int, required=True, metavar="S",
                    help="least MNI support of a pattern reported (>= 1)")  # fmt: skip
    sp.add_argument("--max-edges", type=int, default=3, metavar="K",
                    help="largest patterns, in edges (default 3)")  # fmt: skip
    sp.add_argument("--no-exact-support", dest="exact_support", action="store_false",
                    help="stop listing a pattern's embeddings once it is known frequent (much "
                    "faster; the support column is then a lower bound >= S)")  # fmt: skip
    sp.add_argument("--node-labels", metavar="FILE", help="graph node labels: 'node label' lines")
    sp.add_argument("--edge-labels", action="store_true",
                    help="the graph's third column (index 2) is an edge label")  # fmt: skip
    sp.add_argument("--label", metavar="COL", help="edge label column: name or 0-based index")
    sp.set_defaults(directed=False)  # patterns are undirected: the graph is read so


def cmd_fsm(args: argparse.Namespace) -> Report:
    """``fsm``: one row per frequent pattern (edges, support, nodes, node labels, edge list with
    edge labels), in :func:`~nx_gpumine.frequent_subgraphs`'s order."""
    from ..fsm_functions import frequent_subgraphs

    engine = resolve_engine(args.engine, "static")
    status = Status(args.progress)
    graph, read_s = _read_graph(args, status)  # as ``count`` reads it (undirected)
    labels = {
        "node_label": "label" if graph.node_label is not None else None,
        "edge_label": "label" if graph.out_label is not None else None,
    }
    status.note(f"mining patterns of up to {args.max_edges} edges, support >= {args.min_support}")
    found, secs = timed(
        lambda: frequent_subgraphs(
            graph,
            args.min_support,
            max_edges=args.max_edges,
            engine=engine,
            progress=status.bars,
            exact_support=args.exact_support,
            **labels,
        )
    )
    rows = [[r.edges, r.support, r.nodes, r.node_label_text(), r.edge_text()] for r in found]
    records = [
        {
            "edges": r.edges,
            "support": r.support,
            "nodes": r.nodes,
            "node_labels": r.node_label_text(),
            "edge_list": r.edge_text(),
        }
        for r in found
    ]
    data = {
        "command": "fsm",
        "graph": args.graph,
        "nodes": graph.n,
        "edges": graph.num_edges,
        "min_support": args.min_support,
        "max_edges": args.max_edges,
        "engine": engine,
        "exact_support": args.exact_support,
        "patterns": records,
        "read_s": read_s,
        "time_s": secs,
    }
    notes = [
        f"graph {args.graph}: {graph} (read in {read_s:.3f} s)",
        f"patterns of 1..{args.max_edges} edges with MNI support >= {args.min_support}, "
        f"engine={engine}",
    ]
    footer = [f"{len(found):,} frequent patterns in {secs:.3f} s"]
    if not args.exact_support:
        footer.append(f"--no-exact-support: each support is a lower bound (>= {args.min_support})")
    header = ["edges", "support", "nodes", "node_labels", "edge_list"]
    return Report(header, rows, data, notes=notes, footer=footer)
