"""Temporal motif queries (Everest's generalized temporal motif), the catalogue and a parser.

A :class:`TemporalMotif` is an ordered list of ``l`` directed edges ``(a_i, b_i)`` over motif
nodes ``0..k-1`` (edge ``i`` happens before edge ``i + 1``) plus:

- ``delta``: whole-motif window, ``t_l - t_1 <= delta`` (``None``: unbounded);
- ``gaps``: per-gap limits, ``t_{i+1} - t_i <= gaps[i]`` (``None`` entries: unbounded);
- ``anti_edges``: :class:`AntiEdge` ``(a, b, after, within)``: no graph edge ``f(a) -> f(b)``
  with time in ``(t_after, t_after + within]`` (``within=None``: up to ``t_1 + delta``);
- ``node_labels`` / ``edge_labels``: label equality per motif node / motif edge;
- ``node_where``: numeric comparisons ``(node, op, value)`` on the graph's numeric node attribute
  (Everest's ``node0: f > 500000000``);
- ``tie``: ``"strict"`` (``t_1 < t_2 < ...``, default) or ``"input_order"`` (equal times allowed,
  edges ordered by position after the stable time sort: ``e_1 < e_2 < ...``).

Node maps are injective. A match is the tuple of graph edge ids ``(e_1, ..., e_l)``.
Everest's query text (YAML) is read by :mod:`~nx_gpumine.inputs.everest_query`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import QueryError
from .motif_checks import (
    MAX_MOTIF_EDGES,
    as_time_limit,
    check_size,
    edge_pairs,
    is_int,
    motif_int,
    size_from_name,
    where_conditions,
)
from .times import TimeSpec, check_int64_limit, format_duration, limit_in_units

__all__ = [
    "AntiEdge",
    "TemporalMotif",
    "TIE_POLICIES",
    "MAX_MOTIF_EDGES",
    "CENSUS_KEYS",
    "CENSUS_AXIS",
    "CENSUS_GRID",
    "CENSUS_GRID_ROWS",
    "CENSUS_GRID_COLS",
    "EVEREST_MOTIFS",
    "MOTIF_ALIASES",
    "census_grid_position",
    "census_motif",
    "motif_catalogue",
    "named_motif",
    "parse_motif_edges",
    "motif_in_units",
    "check_motif_limits",
    "as_time_limit",
]

TIE_POLICIES = ("strict", "input_order")


@dataclass(frozen=True)
class AntiEdge:
    """No graph edge ``f(a) -> f(b)`` with time in ``(t_after, t_after + within]``.

    ``within=None`` bounds the forbidden interval by the motif window ``t_1 + delta`` instead
    (unbounded when the motif has no ``delta``).
    """

    a: int
    b: int
    after: int
    within: float | int | np.timedelta64 | None = None


@dataclass(frozen=True)
class TemporalMotif:
    """An ordered temporal motif with optional window, gaps, anti-edges and labels.

    Parameters
    ----------
    edges : sequence of (int, int)
        Motif edges in temporal order over nodes ``0..k-1`` (every node used, no self-loops).
    delta : number, optional
        Window ``t_l - t_1 <= delta``; ``None`` (or ``inf``) for none.
    gaps : sequence of number or None, optional
        ``l - 1`` per-gap limits ``t_{i+1} - t_i <= gaps[i]``.
    anti_edges : sequence of AntiEdge or tuples ``(a, b, after[, within])``
        Forbidden edges (see :class:`AntiEdge`).
    node_labels : mapping, optional
        Motif node -> required label value.
    edge_labels : mapping, optional
        Motif edge index -> required label value.
    node_where : sequence of (int, str, number), optional
        Numeric comparisons on the graph's numeric node attribute.
    tie : {"strict", "input_order"}
        Tie policy.
    name : str, optional
        Display name.

    Raises
    ------
    QueryError
        On any invalid part (non-contiguous nodes, negative window, wrong gap count...).
    """

    edges: tuple
    delta: float | int | None = None
    gaps: tuple | None = None
    anti_edges: tuple = ()
    node_labels: Mapping = field(default_factory=dict)
    edge_labels: Mapping = field(default_factory=dict)
    node_where: tuple = ()
    tie: str = "strict"
    name: str | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        check_size(self.edges, "edges")
        check_size(self.anti_edges, "anti_edges")
        edges = edge_pairs(self.edges)
        if not edges:
            raise QueryError("a temporal motif needs at least one edge")
        nodes = sorted({x for e in edges for x in e})
        k = len(nodes)
        if nodes != list(range(k)):
            raise QueryError(
                f"motif nodes must be numbered 0..k-1 without holes, got {nodes} "
                "(parse_motif_edges renumbers 1-based or sparse ids)"
            )
        for i, (a, b) in enumerate(edges):
            if a == b:
                raise QueryError(f"motif edge {i} ({a} -> {b}) is a self-loop; not supported")
        set_(self, "edges", edges)
        set_(self, "delta", as_time_limit(self.delta, "delta"))
        l_ = len(edges)
        if self.gaps is not None:
            if isinstance(self.gaps, str) or not isinstance(self.gaps, Sequence | np.ndarray):
                raise QueryError(
                    f"gaps must be a sequence of {l_ - 1} gap limits (one per pair of "
                    f"consecutive motif edges, None for no limit), got {self.gaps!r:.60}"
                )
            gaps = tuple(self.gaps)
            if len(gaps) != l_ - 1:
                raise QueryError(
                    f"gaps: a motif with {l_} edges needs {l_ - 1} gap limits, got {len(gaps)}"
                )
            gaps = tuple(as_time_limit(g, f"gaps[{i}]") for i, g in enumerate(gaps))
            set_(self, "gaps", None if all(g is None for g in gaps) else gaps)
        antis = []
        for j, ae in enumerate(self.anti_edges):
            if not isinstance(ae, AntiEdge):
                try:
                    ae = AntiEdge(*ae)
                except TypeError as exc:
                    raise QueryError(
                        f"anti_edges[{j}]: expected (a, b, after[, within]), got {ae!r}"
                    ) from exc
            a = motif_int(ae.a, f"anti_edges[{j}]: node a")
            b = motif_int(ae.b, f"anti_edges[{j}]: node b")
            after = motif_int(ae.after, f"anti_edges[{j}]: after (a motif edge index)")
            if not (0 <= a < k and 0 <= b < k):
                raise QueryError(
                    f"anti_edges[{j}] ({a} -> {b}) names a node outside the motif nodes 0..{k - 1}"
                )
            if a == b:
                raise QueryError(f"anti_edges[{j}] ({a} -> {b}) is a self-loop")
            if not 0 <= after < l_:
                raise QueryError(f"anti_edges[{j}]: after={after} is not a motif edge 0..{l_ - 1}")
            antis.append(AntiEdge(a, b, after, as_time_limit(ae.within, f"anti_edges[{j}].within")))
        set_(self, "anti_edges", tuple(antis))
        for what in ("node_labels", "edge_labels"):
            value = getattr(self, what)
            if value is not None and not isinstance(value, Mapping):
                raise QueryError(f"{what} must be a mapping, got {type(value).__name__}")
        nl = {}
        for v, lab in (self.node_labels or {}).items():
            if not (is_int(v) and 0 <= v < k):
                raise QueryError(f"node_labels: {v!r} is not a motif node 0..{k - 1}")
            nl[int(v)] = lab
        set_(self, "node_labels", nl)
        el = {}
        for i, lab in (self.edge_labels or {}).items():
            if not (is_int(i) and 0 <= i < l_):
                raise QueryError(f"edge_labels: {i!r} is not a motif edge index 0..{l_ - 1}")
            el[int(i)] = lab
        set_(self, "edge_labels", el)
        set_(self, "node_where", where_conditions(self.node_where, k))
        if self.tie not in TIE_POLICIES:
            raise QueryError(f"tie must be one of {TIE_POLICIES}, got {self.tie!r}")

    # ------------------------------------------------------------------ facts
    @property
    def k(self) -> int:
        """Number of motif nodes."""
        return 1 + max(max(e) for e in self.edges)

    @property
    def num_edges(self) -> int:
        """Number of motif edges ``l``."""
        return len(self.edges)

    @property
    def key(self) -> str:
        """Census-style key (``'01 12 20'``) of the edge sequence."""
        return " ".join(f"{a}{b}" for a, b in self.edges)

    def with_(self, **changes: Any) -> TemporalMotif:
        """A copy with some fields replaced (validated again)."""
        kw = {
            "edges": self.edges,
            "delta": self.delta,
            "gaps": self.gaps,
            "anti_edges": self.anti_edges,
            "node_labels": self.node_labels,
            "edge_labels": self.edge_labels,
            "node_where": self.node_where,
            "tie": self.tie,
            "name": self.name,
        }
        kw.update(changes)
        return TemporalMotif(**kw)

    def __repr__(self) -> str:
        parts = [f"edges={list(self.edges)}", f"delta={format_duration(self.delta)}"]
        if self.gaps is not None:
            parts.append(f"gaps={list(self.gaps)}")
        if self.anti_edges:
            parts.append(f"anti_edges={list(self.anti_edges)}")
        if self.node_labels:
            parts.append(f"node_labels={self.node_labels}")
        if self.edge_labels:
            parts.append(f"edge_labels={self.edge_labels}")
        if self.node_where:
            parts.append(f"node_where={list(self.node_where)}")
        parts.append(f"tie={self.tie!r}")
        name = f"{self.name!r}, " if self.name else ""
        return f"TemporalMotif({name}{', '.join(parts)})"


def motif_in_units(motif: TemporalMotif, spec: TimeSpec) -> TemporalMotif:
    """The motif with every limit (window, gaps, anti-edge intervals) as a number in the unit
    of a graph's times (durations converted, numbers checked against the time kind).

    Raises
    ------
    QueryError
        A plain number against datetime / duration times (the message names the unit), or a
        duration against plain-number times.
    """
    delta = limit_in_units(motif.delta, spec, "delta")
    changed = delta is not motif.delta
    gaps = motif.gaps
    if gaps is not None:
        gaps = tuple(limit_in_units(g, spec, f"gaps[{i}]") for i, g in enumerate(motif.gaps))
        changed |= any(a is not b for a, b in zip(gaps, motif.gaps, strict=True))
    antis = []
    for j, ae in enumerate(motif.anti_edges):
        w = limit_in_units(ae.within, spec, f"anti_edges[{j}].within")
        changed |= w is not ae.within
        antis.append(AntiEdge(ae.a, ae.b, ae.after, w))
    if not changed:
        return motif
    return motif.with_(delta=delta, gaps=gaps, anti_edges=antis)


def check_motif_limits(motif: TemporalMotif, span: int | None) -> None:
    """Refuse a window, gap or anti-edge limit of ``2**63 - 1`` or more that falls short of the
    graph's int64 time span (:func:`~nx_gpumine.inputs.times.check_int64_limit`).

    Parameters
    ----------
    motif : TemporalMotif
        The motif, its limits in the graph's time unit (:func:`motif_in_units`).
    span : int or None
        The largest difference between two edge times (None: float times, or no edges).

    Raises
    ------
    QueryError
        For such a limit (the message names it).
    """
    if span is None or span <= 2**63 - 1:
        return  # every limit of 2**63 - 1 or more covers the span: none can fall short
    check_int64_limit(motif.delta, span, "delta")
    for i, g in enumerate(motif.gaps or ()):
        check_int64_limit(g, span, f"gaps[{i}]")
    for j, ae in enumerate(motif.anti_edges):
        check_int64_limit(ae.within, span, f"anti_edges[{j}].within")


# ====================================================================== catalogue
def _census_keys() -> list[str]:
    codes = set()
    for seq in itertools.product(itertools.permutations(range(3), 2), repeat=3):
        lab: dict = {}
        out = []
        for u, v in seq:
            for x in (u, v):
                lab.setdefault(x, len(lab))
            out.append(f"{lab[u]}{lab[v]}")
        codes.add(" ".join(out))
    return sorted(codes)


#: The 36 three-edge motifs on two or three nodes (nodes numbered by first appearance).
CENSUS_KEYS: tuple[str, ...] = tuple(_census_keys())
#: Axis of the key-ordered 6x6 arrangement (``layout="keys"`` of ``motif_census``, and the CLI
#: table): ``table[r, c]`` counts ``'01 R[r] R[c]'`` with ``R = CENSUS_AXIS``.
CENSUS_AXIS: tuple[str, ...] = ("01", "02", "10", "12", "20", "21")

#: Second motif edge of each row of Paranjape et al.'s 6x6 grid ``M_{i,j}`` (row ``i = r + 1``).
CENSUS_GRID_ROWS: tuple[str, ...] = ("21", "12", "20", "02", "10", "01")
#: Third motif edge of each column of that grid (column ``j = c + 1``).
CENSUS_GRID_COLS: tuple[str, ...] = ("01", "10", "02", "20", "12", "21")
#: The ``M_{i,j}`` grid of Paranjape, Benson & Leskovec, "Motifs in Temporal Networks" (WSDM
#: 2017), as SNAP's ``TempMotifCounter::Count3TEdge23Node`` fills it: ``CENSUS_GRID[r][c]`` is the
#: key of ``M_{r+1,c+1}``; the first edge is always ``0 -> 1``, the second edge is fixed along a
#: row, the third along a column. Derived from SNAP's source (snap-adv/temporalmotifs.cpp, cell
#: ``M_{3,1}`` as fixed by SNAP pull request #137) with a line-by-line port of its counting code
#: run beside a brute force on random tie-free graphs: every cell equals exactly one key.
#: Two-node motifs: ``M_{5,1}, M_{5,2}, M_{6,1}, M_{6,2}``; triangles: ``M_{1..2,3..4}`` and
#: ``M_{3..4,5..6}``; the 24 other cells are stars.
CENSUS_GRID: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"01 {row} {col}" for col in CENSUS_GRID_COLS) for row in CENSUS_GRID_ROWS
)


def census_grid_position(key: str) -> tuple[int, int]:
    """``(i, j)``, 1-based, of a census key in Paranjape et al.'s grid (``'01 12 20'`` -> (2, 4)).

    Raises
    ------
    QueryError
        If ``key`` is not one of the 36 census keys.
    """
    for r, row in enumerate(CENSUS_GRID):
        if key in row:
            return r + 1, row.index(key) + 1
    raise QueryError(f"unknown census motif key {key!r}; keys look like '01 12 20'")


#: Everest's M1-M13 and M4-A, 1-based as in its motif files (edge order = temporal order).
EVEREST_MOTIFS: dict[str, tuple] = {
    "M1": ((1, 2), (2, 3), (3, 4)),
    "M2": ((2, 3), (2, 1), (3, 4)),
    "M3": ((1, 2), (2, 3), (3, 4), (4, 2)),
    "M4": ((1, 2), (2, 3), (3, 4), (4, 1)),
    "M5": ((1, 2), (2, 3), (3, 4), (4, 5)),
    "M6": ((1, 2), (3, 2), (3, 4), (5, 4)),
    "M7": ((1, 2), (1, 3), (4, 2), (4, 3)),
    "M8": ((1, 3), (2, 3), (3, 4), (4, 5)),
    "M9": ((1, 2), (2, 3), (3, 4), (3, 1)),
    "M10": ((1, 2), (2, 3), (3, 1), (1, 4), (4, 3)),
    "M11": ((1, 2), (2, 3), (3, 4), (4, 5), (5, 1)),
    "M12": ((1, 2), (2, 3), (3, 4), (4, 5), (5, 2)),
    "M13": ((1, 2), (2, 3), (3, 4), (4, 2), (2, 5)),
}


#: Other names :func:`named_motif` accepts, and the motif each one is (0-based, temporal order).
#: ``temporal-triangle`` / ``temporal-3-cycle``: ``0->1, 1->2, 2->0`` (census key ``'01 12 20'``,
#: Paranjape's ``M_{2,4}``); ``temporal-4-cycle`` / ``fourcycle``: Everest M4 ``0->1, 1->2,
#: 2->3, 3->0``; the Everest paper's Table 4 names ``3-path`` (M1 ``0->1, 1->2, 2->3``),
#: ``tailed-tri`` (M3 ``0->1, 1->2, 2->3, 3->1``), ``diamonds`` (M10 ``0->1, 1->2, 2->0,
#: 0->3, 3->2``).
MOTIF_ALIASES: dict[str, str] = {
    "temporal-triangle": "triangle",
    "temporal-3-cycle": "triangle",
    "temporal-4-cycle": "M4",
    "fourcycle": "M4",
    "3-path": "M1",
    "tailed-tri": "M3",
    "diamonds": "M10",
    "diamond": "M10",
}


def census_motif(key: str, delta: Any = None, tie: str = "strict") -> TemporalMotif:
    """The census motif with key like ``'01 12 20'``."""
    if key not in CENSUS_KEYS:
        raise QueryError(f"unknown census motif key {key!r}; keys look like '01 12 20'")
    edges = [(int(p[0]), int(p[1])) for p in key.split()]
    return TemporalMotif(edges, delta=delta, tie=tie, name=key)


def _renumber(edges: Sequence[tuple[Hashable, Hashable]]) -> list[tuple[int, int]]:
    """Map 1-based (or any sorted integer) node ids to 0..k-1 in sorted order."""
    nodes = sorted({x for e in edges for x in e})
    pos = {x: i for i, x in enumerate(nodes)}
    return [(pos[a], pos[b]) for a, b in edges]


def named_motif(name: str, delta: Any = None, tie: str = "strict", **kw: Any) -> TemporalMotif:
    """A catalogue motif by name.

    Names: ``'M1'`` ... ``'M13'`` and ``'M4-A'`` (Everest; ``M4-A`` has the anti-edge
    ``3 -> 1`` (1-based) after edge 2 with ``within=None`` unless ``anti_within`` is given),
    ``'triangle'`` (``0->1, 1->2, 2->0``), ``'cycle<k>'`` / ``'temporal-<k>-cycle'``
    (temporal ``k``-cycle ``0->1, ..., (k-1)->0``), ``'path<l>'`` (temporal path of ``l``
    edges), any census key like ``'01 12 20'``, Paranjape et al.'s grid names ``'M_{i,j}'``
    (also ``'Mi,j'``; see :data:`CENSUS_GRID`), and the aliases of :data:`MOTIF_ALIASES`
    (``'temporal-triangle'``, ``'temporal-4-cycle'``, ``'fourcycle'``, ``'3-path'``,
    ``'tailed-tri'``, ``'diamonds'``). The motif's ``name`` is the name given.
    Extra keyword arguments go to :class:`TemporalMotif` (``anti_within`` excepted).

    Raises
    ------
    QueryError
        For an unknown name (the message lists the known ones).
    """
    if name in MOTIF_ALIASES:
        return named_motif(MOTIF_ALIASES[name], delta, tie, **kw).with_(name=name)
    m = re.fullmatch(r"M_\{(\d+),(\d+)\}|M(\d+),(\d+)", name)
    if m:
        i, j = (int(x) for x in (m.group(1, 2) if m.group(1) else m.group(3, 4)))
        if not (1 <= i <= 6 and 1 <= j <= 6):
            raise QueryError(f"motif {name!r}: Paranjape's grid has rows and columns 1..6")
        key = CENSUS_GRID[i - 1][j - 1]
        return named_motif(key, delta, tie, **kw).with_(name=name)
    m = re.fullmatch(r"temporal-(\d+)-cycle", name)
    if m and size_from_name(m.group(1), name) >= 2:
        return named_motif(f"cycle{m.group(1)}", delta, tie, **kw).with_(name=name)
    anti_within = kw.pop("anti_within", None)
    if name in CENSUS_KEYS:
        return census_motif(name, delta, tie).with_(**kw) if kw else census_motif(name, delta, tie)
    if name in EVEREST_MOTIFS:
        return TemporalMotif(_renumber(EVEREST_MOTIFS[name]), delta=delta, tie=tie, name=name, **kw)
    if name == "M4-A":
        base = _renumber(EVEREST_MOTIFS["M4"])
        return TemporalMotif(
            base, delta=delta, tie=tie, name=name, anti_edges=[(2, 0, 1, anti_within)], **kw
        )
    if name == "triangle":
        return TemporalMotif([(0, 1), (1, 2), (2, 0)], delta=delta, tie=tie, name=name, **kw)
    m = re.fullmatch(r"cycle(\d+)", name)
    if m and size_from_name(m.group(1), name) >= 2:
        c = int(m.group(1))
        edges = [(i, (i + 1) % c) for i in range(c)]
        return TemporalMotif(edges, delta=delta, tie=tie, name=name, **kw)
    m = re.fullmatch(r"path(\d+)", name)
    if m and size_from_name(m.group(1), name) >= 1:
        edges = [(i, i + 1) for i in range(int(m.group(1)))]
        return TemporalMotif(edges, delta=delta, tie=tie, name=name, **kw)
    raise QueryError(
        f"unknown motif name {name!r}; known: M1..M13, M4-A, triangle, cycle<k>, path<l>, "
        f"temporal-<k>-cycle, {', '.join(MOTIF_ALIASES)}, a census key like '01 12 20' or "
        "a Paranjape grid name like 'M_{2,4}'"
    )


def motif_catalogue() -> list[str]:
    """Names :func:`named_motif` knows (census keys, Everest, triangle, cycle3/4, aliases)."""
    return [*CENSUS_KEYS, *EVEREST_MOTIFS, "M4-A", "triangle", "cycle3", "cycle4", *MOTIF_ALIASES]


# ====================================================================== Everest text
def parse_motif_edges(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """Parse an Everest motif file: one ``src dst [order]`` line per listed edge.

    Everest's files (``inputs/motifs/M*.txt``) are 1-based in both node ids and orders
    (``1 2 1`` / ``2 3 2`` / ...). Node ids may be any contiguous integers (0-based, 1-based...);
    they are renumbered to ``0..k-1`` in sorted order. The order column is optional, but then
    absent on every line (lines are listed in temporal order). When given, the ``l`` order
    values must be exactly ``1..l`` (1-based, as Everest writes them) or ``0..l-1`` (0-based:
    the smallest order is 0), in any line order; lines are sorted by it.

    Returns
    -------
    (edges, orders)
        Renumbered edges in temporal order and the order values (``1..l`` when absent).

    Raises
    ------
    QueryError
        For a malformed line, no edges, a mix of lines with and without an order, order values
        that repeat, are negative, or are not contiguous from 0 or 1, or non-contiguous node ids.
    """
    rows = []
    with_order: list[int] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split()
        if len(parts) not in (2, 3):
            raise QueryError(f"motif line {lineno}: expected 'src dst [order]', got {line!r}")
        try:
            vals = [int(p) for p in parts]
        except ValueError as exc:
            raise QueryError(f"motif line {lineno}: non-integer value in {line!r}") from exc
        if len(vals) == 3:
            with_order.append(lineno)
        rows.append((vals[2] if len(vals) == 3 else len(rows) + 1, vals[0], vals[1]))
        check_size(rows, "lines")
    if not rows:
        raise QueryError("the motif text holds no edges")
    if with_order and len(with_order) != len(rows):
        raise QueryError(
            f"motif lines mix 'src dst order' and 'src dst': {len(with_order)} of {len(rows)} "
            "lines give an order; give it on every line or on none"
        )
    orders = [r[0] for r in rows]
    if len(set(orders)) != len(orders):
        raise QueryError(f"motif order values repeat: {orders}")
    if min(orders) < 0:
        raise QueryError(f"motif order values must not be negative, got {orders}")
    base = min(orders)
    l_ = len(orders)
    if base > 1 or sorted(orders) != list(range(base, base + l_)):
        raise QueryError(
            f"non-contiguous motif order: {l_} edges need the orders 1..{l_} (or 0..{l_ - 1}), "
            f"got {orders}"
        )
    rows.sort()
    nodes = sorted({x for r in rows for x in r[1:]})
    if nodes != list(range(nodes[0], nodes[0] + len(nodes))):
        raise QueryError(f"motif nodes must be contiguous integers, got {nodes}")
    return _renumber([(r[1], r[2]) for r in rows]), [r[0] for r in rows]
