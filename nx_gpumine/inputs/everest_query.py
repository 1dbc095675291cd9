"""Everest's query text (YAML): the motif, its window and conditions, and the run options.

:func:`parse_everest_query` reads the text with PyYAML into an :class:`EverestQuery`; a
``pattern:`` naming a file is read by :func:`read_motif_file` (errors name the file and the
line, never its content). See ``docs/temporal.md`` for the keys accepted.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import QueryError
from .motifs import EVEREST_MOTIFS, TemporalMotif, _renumber, named_motif, parse_motif_edges

__all__ = ["EverestQuery", "MAX_MOTIF_FILE_BYTES", "parse_everest_query", "read_motif_file"]


@dataclass(frozen=True)
class EverestQuery:
    """A parsed Everest query: the motif plus the graph and runtime parameters."""

    motif: TemporalMotif
    graph: str | None = None
    enumerate: int | None = None
    gpus: int = 1
    options: dict = field(default_factory=dict)


def _scalar(s: str) -> Any:
    s = s.strip()
    if s.startswith("[") and s.endswith("]"):
        inner = s[1:-1].strip()
        return [] if not inner else [_scalar(x) for x in inner.split(",")]
    low = s.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if low in ("null", "none", "~", ""):
        return None
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        return s[1:-1]
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


_YAML_INT = "tag:yaml.org,2002:int"
_YAML_FLOAT = "tag:yaml.org,2002:float"
_YAML_NULL = "tag:yaml.org,2002:null"


@functools.cache
def _query_loader(yaml: Any) -> Any:
    """PyYAML's ``SafeLoader`` with numbers read as YAML 1.2 (and Python's ``int`` / ``float``) do.

    PyYAML follows YAML 1.1: ``1e3`` and ``1.0e5`` are text, ``010`` is octal 8 and ``1:30``
    is base-60 90. Query files mean decimal numbers, as the earlier hand-written reader read
    them: here ``1e3`` is ``1000.0``, ``010`` is ``10`` and ``1:30`` stays text. ``None`` /
    ``none`` also read as null (as they did before). Everything else is plain ``safe_load``.

    Parameters
    ----------
    yaml : module
        The imported ``yaml`` module.

    Returns
    -------
    type
        A ``yaml.SafeLoader`` subclass (built once, then cached).
    """

    class _QueryLoader(yaml.SafeLoader):
        pass

    _QueryLoader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in pairs if tag not in (_YAML_INT, _YAML_FLOAT)]
        for first, pairs in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _QueryLoader.add_implicit_resolver(
        _YAML_INT, re.compile(r"^[-+]?[0-9][0-9_]*$"), list("-+0123456789")
    )
    _QueryLoader.add_implicit_resolver(
        _YAML_FLOAT,
        re.compile(
            r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?$"
            r"|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$"
        ),
        list("-+0123456789."),
    )
    _QueryLoader.add_implicit_resolver(_YAML_NULL, re.compile(r"^(?:none|None)$"), ["n", "N"])

    def _int(loader: Any, node: Any) -> int:
        return int(loader.construct_scalar(node).replace("_", ""))

    _QueryLoader.add_constructor(_YAML_INT, _int)
    return _QueryLoader


def _load_query_yaml(text: str) -> dict:
    """The top-level mapping of Everest query text, read with PyYAML.

    Parameters
    ----------
    text : str
        The query text (YAML).

    Returns
    -------
    dict
        The document (``{}`` for empty text).

    Raises
    ------
    QueryError
        If PyYAML is not installed, the text is not YAML, or its top level is not a mapping.
    """
    try:
        import yaml
    except ImportError as exc:
        raise QueryError("reading Everest query files needs PyYAML: pip install pyyaml") from exc
    try:
        doc = yaml.load(text, Loader=_query_loader(yaml))  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        parts = [getattr(exc, "context", None), getattr(exc, "problem", None)]
        detail = ", ".join(str(x) for x in parts if x) or str(exc).splitlines()[0]
        raise QueryError(f"query text is not valid YAML ({where}{detail})") from None
    if doc is None:
        return {}
    if not isinstance(doc, dict):
        lines = (ln.strip() for ln in text.splitlines())
        first = next((ln for ln in lines if ln and not ln.startswith("#")), "")
        raise QueryError(f"query: expected 'key: value' lines, got {first!r}")
    return doc


def _is_catalogue_name(text: str) -> bool:
    """Whether ``text`` is a name :func:`named_motif` knows (checked without raising)."""
    try:
        named_motif(text)
    except QueryError:
        return False
    return True


#: Bytes a motif file named by a query's ``pattern:`` may hold (a motif has a few edges).
MAX_MOTIF_FILE_BYTES = 1 << 20


def read_motif_file(path: str | Path) -> list[tuple[int, int]]:
    """The listed edges of the motif file ``path``, named by a query's ``pattern:``.

    A query may name any file (``pattern: /etc/passwd``): an error names the file and the line
    number, never a line of it (:func:`parse_motif_edges` quotes the line it cannot read).

    Parameters
    ----------
    path : str or Path
        An existing file.

    Returns
    -------
    list of (int, int)
        The listed edges in temporal order (as :func:`parse_motif_edges`).

    Raises
    ------
    QueryError
        The file is too large, not UTF-8 text, or not a motif file.
    """
    where = f"pattern file {str(path)!r}"
    try:
        if Path(path).stat().st_size > MAX_MOTIF_FILE_BYTES:
            raise QueryError(
                f"{where} is larger than {MAX_MOTIF_FILE_BYTES:,} bytes: not a motif file"
            )
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise QueryError(f"{where} cannot be read as UTF-8 text ({type(exc).__name__})") from None
    try:
        listed, _ = parse_motif_edges(text)
    except QueryError as exc:
        m = re.match(r"motif line (\d+):", str(exc))
        if m is None:  # orders or node ids that do not fit: integers of a motif file
            raise QueryError(f"{where}: {exc}") from None
        raise QueryError(
            f"{where} is not a motif file: line {m.group(1)} is not 'src dst [order]' "
            "(two or three integers)"
        ) from None
    return listed


_PRED = re.compile(r"^\s*(?:f|value)?\s*(<=|>=|==|!=|<|>|=)\s*(\S+)\s*$")
_LABEL = re.compile(r"^\s*label\s*(?:==|=)?\s*(.+?)\s*$")


def parse_everest_query(
    text: str, *, base_dir: str | Path | None = None, tie: str = "strict"
) -> EverestQuery:
    """Parse Everest query text (YAML) into an :class:`EverestQuery`.

    The text is read with PyYAML (``yaml.safe_load``, numbers as YAML 1.2 reads them: ``1e3`` is
    a float, ``010`` is ten), so any YAML spelling works: quoted strings (``#`` inside quotes is
    no comment), flow lists ``[a, b]`` or block lists (``- a`` lines), ``|`` literal blocks.

    Accepted (both the README's and the paper's spellings)::

        pattern: M4-A.txt        # a motif file (relative to base_dir), a catalogue name, or a
                                 # '|' block of 'src dst [order]' lines
        graph: ethereum.txt      # or in_graph:
        constraints:
          delta: 3600            # or cg_delta: whole-motif window
          temporal: [900, 1800, 1800, 900]   # or fg_delta: one entry between listed edges
          antiEdge: [False, False, True, False, False]   # or anti_edge / anti_edges
          node0: f > 500000000   # numeric comparison (<, <=, >, >=, ==, !=) on node values
          node1: label red       # node label equality
          edge2: label transfer  # edge label equality (index over motif edges, anti excluded)
          tie: input_order       # nx_gpumine extension (default strict)
        options:                 # or runtime_params:
          gpu: 1
          enumerate: 1000        # enumerate at most this many matches

    Anti-edges: a listed edge flagged in ``antiEdge`` is attached to the nearest regular edge
    before it. ``temporal[j]`` bounds listed item ``j + 1`` relative to the last *regular* edge
    at or before listed item ``j``: for a regular item it is the gap limit; for an anti-edge it
    is the anti-edge's window ``within``.

    Parameters
    ----------
    text : str
        The query text.
    base_dir : str or Path, optional
        Where a ``pattern`` file name is looked up (default: the working directory).
    tie : str
        The tie policy unless ``constraints.tie`` gives one.

    Returns
    -------
    EverestQuery

    Raises
    ------
    QueryError
        For anything malformed (text that is not YAML, unknown keys in constraints, wrong list
        lengths...), and when PyYAML is not installed.
    """
    doc = _load_query_yaml(text)
    if "pattern" not in doc:
        raise QueryError("query: the 'pattern' section is missing")
    pat = doc["pattern"]
    if isinstance(pat, str):
        pat = pat.strip()  # a '|' block keeps its last newline
    name = None
    if isinstance(pat, str) and "\n" not in pat and not re.fullmatch(r"[\d\s,]+", pat):
        stem = Path(pat).stem
        path = Path(base_dir) / pat if base_dir is not None else Path(pat)
        if path.is_file():
            listed = read_motif_file(path)
            name = stem
        elif stem not in EVEREST_MOTIFS and stem != "M4-A" and _is_catalogue_name(pat):
            named = named_motif(pat)
            listed = list(named.edges)
            name = named.name or pat
        elif stem in EVEREST_MOTIFS or stem == "M4-A":
            base = EVEREST_MOTIFS.get(stem)
            if base is None:  # M4-A as listed in its file: 1 2, 2 3, [3 1], 3 4, 4 1
                base = ((1, 2), (2, 3), (3, 1), (3, 4), (4, 1))
            listed = _renumber(base)
            name = stem
        else:
            raise QueryError(f"pattern {pat!r}: no such file and not a catalogue motif name")
    else:
        listed, _ = parse_motif_edges(str(pat))
    cons = doc.get("constraints") or {}
    if not isinstance(cons, dict):
        raise QueryError("query: 'constraints' must be a section of key: value lines")
    flags = cons.get("antiEdge", cons.get("anti_edge", cons.get("anti_edges")))
    if flags is None:
        flags = [False] * len(listed)
    if not isinstance(flags, list) or len(flags) != len(listed):
        raise QueryError(
            f"constraints.antiEdge must list one flag per listed edge ({len(listed)}), "
            f"got {flags!r}"
        )
    if flags and flags[0]:
        raise QueryError("constraints.antiEdge: the first listed edge cannot be an anti-edge")
    temporal = cons.get("temporal", cons.get("fg_delta"))
    if temporal is not None and (
        not isinstance(temporal, list) or len(temporal) != len(listed) - 1
    ):
        raise QueryError(
            f"constraints.temporal must hold {len(listed) - 1} entries (one between consecutive "
            f"listed edges), got {temporal!r}"
        )
    delta = cons.get("delta", cons.get("cg_delta"))
    edges: list[tuple[int, int]] = []
    anti: list[tuple] = []
    gaps: list = []
    for j, (e, is_anti) in enumerate(zip(listed, flags, strict=True)):
        lim = temporal[j - 1] if (temporal is not None and j > 0) else None
        if is_anti:
            anti.append((e[0], e[1], len(edges) - 1, lim))
        else:
            if edges:
                gaps.append(lim)
            edges.append(e)
    # anti-edge nodes must be motif nodes; renumber so regular edges use 0..k-1
    used = sorted({x for e in edges for x in e})
    pos = {x: i for i, x in enumerate(used)}
    for a, b, _, _ in anti:
        if a not in pos or b not in pos:
            raise QueryError(f"anti-edge ({a} -> {b}) names a node no regular motif edge uses")
    edges = [(pos[a], pos[b]) for a, b in edges]
    anti = [(pos[a], pos[b], i, w) for a, b, i, w in anti]
    node_labels: dict = {}
    edge_labels: dict = {}
    where: list = []
    known = {"antiEdge", "anti_edge", "anti_edges", "temporal", "fg_delta", "delta", "cg_delta"}
    for key, val in cons.items():
        key = str(key)  # YAML keys may be numbers or booleans
        if key in known:
            continue
        if key == "tie":
            tie = str(val)
            continue
        m = re.fullmatch(r"(node|edge)(\d+)", key)
        if not m:
            raise QueryError(f"constraints: unknown key {key!r}")
        idx = int(m.group(2))
        sval = str(val)
        if m.group(1) == "node":
            if idx not in pos.values():
                raise QueryError(f"constraints.{key}: no motif node {idx} (0-based)")
            lm = _LABEL.match(sval)
            pm = _PRED.match(sval)
            if lm:
                node_labels[idx] = _scalar(lm.group(1))
            elif pm:
                op = "==" if pm.group(1) == "=" else pm.group(1)
                where.append((idx, op, _scalar(pm.group(2))))
            else:
                raise QueryError(f"constraints.{key}: expected 'f OP number' or 'label VALUE'")
        else:
            lm = _LABEL.match(sval)
            if not lm:
                raise QueryError(
                    f"constraints.{key}: only edge label equality ('label VALUE') is supported"
                )
            if not 0 <= idx < len(edges):
                raise QueryError(f"constraints.{key}: no motif edge {idx} (0-based)")
            edge_labels[idx] = _scalar(lm.group(1))
    motif = TemporalMotif(
        edges,
        delta=delta,
        gaps=gaps if any(g is not None for g in gaps) else None,
        anti_edges=anti,
        node_labels=node_labels,
        edge_labels=edge_labels,
        node_where=where,
        tie=tie,
        name=name,
    )
    opts = doc.get("options", doc.get("runtime_params")) or {}
    if not isinstance(opts, dict):
        raise QueryError("query: 'options' must be a section of key: value lines")
    enum = opts.get("enumerate")
    if enum is False:
        enum = None
    if enum is not None and (isinstance(enum, bool) or not isinstance(enum, int) or enum < 0):
        raise QueryError(f"options.enumerate must be a match limit, got {enum!r}")
    graph = doc.get("graph", doc.get("in_graph"))
    gpus = opts.get("gpu", opts.get("gpus", 1))
    return EverestQuery(
        motif=motif,
        graph=None if graph is None else str(graph),
        enumerate=enum,
        gpus=int(gpus),
        options=dict(opts),
    )
