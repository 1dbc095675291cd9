"""Reading the command line's inputs: graph files (or bundled data sets), patterns, labels.

Files are read by :mod:`nx_gpumine.inputs.files` (CSV / TSV / whitespace text, plain or
compressed, parquet; ``-`` for standard input).
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import DATASETS, CliError

__all__ = [
    "Columns",
    "graph_source",
    "load_pattern",
    "load_static_graph",
    "load_temporal_graph",
]


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


def graph_source(spec: str, what: str) -> str | Path:
    """The file (or ``-``) that graph ``spec`` names: a path, or a bundled data set's file."""
    if spec in DATASETS and not Path(spec).is_file():
        return DATASETS[spec]
    if spec != "-" and not Path(spec).is_file():
        known = ", ".join(DATASETS)
        raise CliError(f"{what} {spec!r}: no such file (bundled data sets: {known}; '-': stdin)")
    return spec


def _read_graph_file(spec: str, what: str, cols: Columns, **role_columns: Any) -> Any:
    """The edge file of graph ``spec`` read with the ``source`` / ``target`` / header rule of
    ``cols`` and the other role columns given (``label_col``, ``time_col``)."""
    from ...inputs.files import read_edge_file

    return read_edge_file(
        graph_source(spec, what),
        source_col=cols.source,
        target_col=cols.target,
        header=cols.header,
        what=f"{what} file",
        **role_columns,
    )


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
    from ...inputs.static_graph import LabelSpec, from_edgelist

    cols = columns or Columns(label=2 if edge_labels else None)
    ef = _read_graph_file(spec, "graph", cols, label_col=cols.label)
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
    from ...inputs.files import read_columns

    ef = read_columns(
        graph_source(spec, what), {"node": 0, "label": 1}, id_roles=("node",), what=what
    )
    keys = ef.table.column("node").to_pylist()
    return dict(zip(keys, ef.table.column("label").to_pylist(), strict=True))


def load_pattern(spec: str, *, directed: bool, node_labels: str | None = None) -> Any:
    """A catalogue pattern name, or an edge-list file ``u v [edge label]`` as a NetworkX graph."""
    import networkx as nx

    from ...inputs.files import read_edge_file
    from ...inputs.patterns import CATALOGUE, MAX_PATTERN_NODES

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
    # a pattern file may be any file named on the command line: errors never quote its lines
    ef = read_edge_file(path, header=False, what="pattern file", quote_rows=False)
    if ef.num_columns >= 3:
        ef = read_edge_file(path, label_col=2, header=False, what="pattern file", quote_rows=False)
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
    from ...inputs.temporal_graph import load_collegemsg, temporal_from_frame

    cols = columns or Columns()
    if spec == "collegemsg" and not Path(spec).is_file() and cols == Columns():
        return load_collegemsg()
    ef = _read_graph_file(spec, "temporal graph", cols, time_col=cols.time)
    return temporal_from_frame(ef.table, "source", "target", "time")
