"""Results of frequent subgraph mining: one :class:`FrequentPattern` per pattern, or a table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from ..inputs.labels import LabelSpec, label_attrs, label_value
from ..plan.fsm import LabelledPattern
from .graphlets import _frame

__all__ = ["FrequentPattern", "frequent_patterns", "frequent_frame"]


@dataclass(frozen=True)
class FrequentPattern:
    """A frequent pattern and its support.

    Attributes
    ----------
    pattern : networkx.Graph
        The pattern on nodes ``0 .. k - 1``; with node (edge) labels, each node (edge) carries
        its label under the ``node_label`` (``edge_label``) attribute name.
    support : int
        Its minimum image-based support (MNI).
    edges : int
        Its number of edges.
    """

    pattern: nx.Graph
    support: int
    edges: int

    @property
    def nodes(self) -> int:
        """Its number of nodes."""
        return self.pattern.number_of_nodes()

    def edge_text(self) -> str:
        """Its edges as text: ``"0-1 1-2"``, each followed by ``[label]`` with edge labels."""
        return " ".join(_edge_word(self.pattern, a, b) for a, b in self.pattern.edges())

    def node_label_text(self) -> str:
        """Its node labels as text, ``"0:a 1:b"`` (empty without node labels)."""
        return " ".join(f"{v}:{_attrs_text(d)}" for v, d in self.pattern.nodes(data=True) if d)

    def edge_label_text(self) -> str:
        """Its edge labels as text, ``"0-1:x 1-2:y"`` (empty without edge labels)."""
        return " ".join(
            f"{a}-{b}:{_attrs_text(d)}" for a, b, d in self.pattern.edges(data=True) if d
        )

    def __repr__(self) -> str:
        words = [f"edges={self.edges}", f"support={self.support}", repr(self.edge_text())]
        if self.node_label_text():
            words.append(f"nodes={self.node_label_text()!r}")
        return f"FrequentPattern({', '.join(words)})"


def _attrs_text(d: dict) -> str:
    """A node's or edge's label attributes as text (the value alone for one attribute)."""
    if len(d) == 1:
        return str(next(iter(d.values())))
    return ",".join(str(v) for v in d.values())


def _edge_word(g: nx.Graph, a: int, b: int) -> str:
    d = g.edges[a, b]
    return f"{a}-{b}[{_attrs_text(d)}]" if d else f"{a}-{b}"


def frequent_patterns(
    found: Sequence[tuple[LabelledPattern, int]],
    node_values: Sequence | None,
    edge_values: Sequence | None,
    node_spec: LabelSpec | None,
    edge_spec: LabelSpec | None,
) -> list[FrequentPattern]:
    """The mined ``(pattern, support)`` pairs as :class:`FrequentPattern` objects.

    Parameters
    ----------
    found : sequence of (LabelledPattern, int)
        The patterns (label codes) and supports, in result order.
    node_values, edge_values : sequence, optional
        Label value per code (None: no such labels).
    node_spec, edge_spec : LabelSpec, optional
        The label attribute(s) the values go under.

    Returns
    -------
    list of FrequentPattern
    """
    node_attrs = _attrs_by_code(node_values, node_spec)
    edge_attrs = _attrs_by_code(edge_values, edge_spec)
    out = []
    for p, support in found:
        g = nx.Graph()  # (each node and edge gets its own copy of its attribute dict)
        g.add_nodes_from((v, node_attrs(code)) for v, code in enumerate(p.labels))
        g.add_edges_from((a, b, edge_attrs(code)) for a, b, code in p.edges)
        out.append(FrequentPattern(g, int(support), p.num_edges))
    return out


def _attrs_by_code(values: Sequence | None, spec: LabelSpec | None) -> Any:
    """Label code -> its attribute dict (empty without labels), each made once a call."""
    if values is None or spec is None:
        return lambda code: {}
    known: dict[int, dict] = {}

    def attrs(code: int) -> dict:
        if code not in known:
            known[code] = label_attrs(spec, label_value(values[code]))
        return known[code]

    return attrs


def frequent_frame(results: Sequence[FrequentPattern], kind: str) -> Any:
    """The mined patterns as a frame: one row per pattern, columns ``edges``, ``support``,
    ``nodes`` (int64), ``edge_list`` (``"0-1 1-2"``), ``node_labels`` (``"0:a 1:b 2:a"``) and
    ``edge_labels`` (``"0-1:x 1-2:y"``; the label columns empty without labels).

    Parameters
    ----------
    results : sequence of FrequentPattern
        The patterns, in result order.
    kind : str
        Frame library, as :func:`~nx_gpumine.results.graphlets.census_frame` takes it.

    Returns
    -------
    DataFrame or pyarrow.Table
        One row per pattern.
    """
    cols = {
        "edges": np.array([r.edges for r in results], dtype=np.int64),
        "support": np.array([r.support for r in results], dtype=np.int64),
        "nodes": np.array([r.nodes for r in results], dtype=np.int64),
        "edge_list": [" ".join(f"{a}-{b}" for a, b in r.pattern.edges()) for r in results],
        "node_labels": [r.node_label_text() for r in results],
        "edge_labels": [r.edge_label_text() for r in results],
    }
    return _frame(cols, kind)
