"""Edge-list files: CSV / TSV / whitespace text (plain or compressed), parquet, stdin.

Tokenising and type inference are pyarrow's (``pyarrow.csv``, ``pyarrow.parquet``); this module
only decides *how* to call it and checks what comes back:

- **source**: a path, ``"-"`` for standard input, or a binary file object;
- **compression**: detected from the first bytes (gzip, bzip2, xz, zstd, lz4 frame), so
  ``edges.txt.gz`` and ``zcat edges.txt.gz |`` both work;
- **parquet**: detected from its magic bytes (``PAR1``) or a ``.parquet`` / ``.pq`` name;
- **text**: a UTF-8 byte-order mark is dropped, UTF-16 text is re-encoded; lines starting with
  ``#`` or ``%`` are comments; the delimiter is a comma when the first data line has one, else a
  tab when it has one and no run of spaces, else runs of spaces and tabs (collapsed first);
  fields may be quoted (``"a b",c``);
- **header**: ``header=None`` decides from the first data line: it is a header when one of the
  selected columns holds text there but numbers or ISO timestamps on the lines below it, or when
  every field of it is a usual column name (``src``, ``dst``, ``source``, ``target``, ``time``,
  ``label``...). ``header=True`` / ``False`` decide explicitly; naming a column by name needs one;
- **columns**: each role (source, target, time, label) is a column name or a 0-based index;
- **node ids**: integers when every id in both endpoint columns is an integer, else text (so a
  ``src dst`` header over text ids, or one text id among numbers, can never mix types);
- **times**: integers, decimals, or ISO-8601 timestamps (``2024-01-01T10:00:00``, with
  ``Z`` / ``+01:00`` offsets: then UTC); other text is an error that names the column;
- **memory**: text is parsed block by block (:data:`CSV_BLOCK_SIZE`), numeric columns going
  into one numpy array each: the peak is about the file's bytes plus the columns read.

Binary data, a row with another number of fields, or a missing column raise :class:`FileError`
naming the file (and the line where one is known). The bytes are read by :mod:`.file_bytes`:
decompressed as they come, refused past the input limit
(:func:`~nx_gpumine.limits.input_limit`, :class:`InputTooLargeError`) or as soon as they look
binary; an edge list (:func:`read_edge_file`) whose lines would build a graph past the memory
budget is refused before it is parsed (:func:`~nx_gpumine.limits.graph_build_bytes`, the same
error). An integer column is never read as float64 behind the user's back: a time or label past
the int64 range is an error naming the column.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from .file_bytes import (
    _SAMPLE,
    READ_BLOCK,
    FileError,
    InputTooLargeError,
    _as_text,
    _check_build_room,
    _check_parse_room,
    _fail,
    _read_input,
)

__all__ = [
    "FileError",
    "InputTooLargeError",
    "EdgeFile",
    "read_edge_file",
    "read_columns",
    "COMMON_HEADER_NAMES",
    "CSV_BLOCK_SIZE",
    "READ_BLOCK",
    "MAX_LINE_BYTES",
]

#: Field names that make a first line a header even when the ids below are text too.
COMMON_HEADER_NAMES = frozenset(
    """src dst source target from to u v i j node node1 node2 node_1 node_2 id id1 id2 fromnodeid
    tonodeid sender receiver recipient from_id to_id source_id target_id user user1 user2
    time t ts timestamp date datetime unixts unix_time epoch weight w label labels type kind
    value edge edge_label color colour""".split()
)

#: Longest line the reader sniffs (a first line, or header, longer than this is refused with
#: a clear error; rows are parsed by pyarrow, in blocks of up to 16 MiB).
MAX_LINE_BYTES = 1 << 24
#: Characters of a line quoted in an error message at most.
_QUOTED = 200
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?")


@dataclass
class EdgeFile:
    """What :func:`read_edge_file` read.

    Attributes
    ----------
    table : pyarrow.Table
        One column per requested role (``"source"``, ``"target"``, and ``"time"`` /
        ``"label"`` when asked for), in that order; endpoint columns are both int64 or both
        text.
    columns : dict
        Role -> the column's name in the file (``f0``, ``f1``... without a header).
    header : bool
        Whether the first data line was read as a header.
    name : str
        How the file is called in messages.
    num_columns : int
        Number of columns in the file.
    """

    table: Any
    columns: dict
    header: bool
    name: str
    num_columns: int


def _strip_comments(data: bytes) -> bytes:
    if (b"#" in data or b"%" in data) and re.search(rb"(?m)^[ \t]*[#%]", data):
        data = re.sub(rb"(?m)^[ \t]*[#%][^\n]*(\n|$)", b"", data)
    return data


def _collapse_whitespace(data: bytes) -> bytes:
    """Runs of spaces and tabs -> one space; none at line starts or ends (only when needed)."""
    if b"\t" in data or b"  " in data:
        data = re.sub(rb"[ \t]{2,}|\t", b" ", data)
    if data.startswith(b" ") or b"\n " in data or b" \n" in data or b" \r" in data:
        data = re.sub(rb"(?m)^ | (?=\r?$)", b"", data)
    return data


def _first_lines(data: bytes, name: str, what: str, n: int = 50) -> list[str]:
    """The first ``n`` non-blank lines, each whole, read until about :data:`_SAMPLE` bytes (at
    least two lines, so that a header longer than that is compared with a row below it).

    Raises
    ------
    FileError
        A line before the sample's end is longer than :data:`MAX_LINE_BYTES`.
    """
    lines: list[str] = []
    pos, end = 0, len(data)
    while pos < end and len(lines) < n and (pos < _SAMPLE or len(lines) < 2):
        nl = data.find(b"\n", pos, pos + MAX_LINE_BYTES + 1)
        if nl < 0:
            if end - pos > MAX_LINE_BYTES:
                raise _fail(
                    name, what, f"data line {len(lines) + 1} is longer than "
                    f"{MAX_LINE_BYTES:,} bytes (no line end in its first "
                    f"{MAX_LINE_BYTES >> 20} MiB): not an edge list of lines?",
                )  # fmt: skip
            nl = end
        s = data[pos:nl].decode("utf-8", "replace").strip("\r")
        if s.strip():
            lines.append(s)
        pos = nl + 1
    return lines


def _delimiter(lines: list[str]) -> str:
    """Comma, tab or whitespace, from the data lines (the first one may be a header)."""
    sample = lines[1:20] or lines[:1]
    if all("," in s for s in sample):
        return ","
    if all("\t" in s and not re.search(r" {2,}| \t|\t ", s.strip()) for s in sample):
        return "\t"
    return " "


def _split(line: str, delim: str) -> list[str]:
    return next(csv.reader([line], delimiter=delim, skipinitialspace=delim == ","), [])


def _is_value(tok: str) -> bool:
    t = tok.strip()
    return bool(_NUMBER.fullmatch(t) or _ISO.fullmatch(t))


def _decide_header(lines: list[list[str]], picks: Sequence[int]) -> bool:
    first = lines[0]
    rest = lines[1:]
    for j in picks:
        if j >= len(first):
            continue
        below = [r[j] for r in rest if j < len(r)]
        if below and not _is_value(first[j]) and all(_is_value(t) for t in below):
            return True
    names = [t.strip().strip('"').lower() for t in first if t.strip()]
    return bool(names) and all(n in COMMON_HEADER_NAMES for n in names)


def _resolve(
    spec: str | int, names: list[str], header: bool, role: str, name: str, what: str
) -> str:
    if isinstance(spec, int) or (isinstance(spec, str) and re.fullmatch(r"\d+", spec)):
        j = int(spec)
        if j >= len(names):
            raise _fail(
                name, what, f"{role} column index {j} is out of range: the file has {len(names)} "
                f"column(s) (indexes are 0-based)",
            )  # fmt: skip
        return names[j]
    if not header:
        raise _fail(name, what, f"{role} column {spec!r} is named, but the file has no header")
    if spec not in names:
        raise _fail(name, what, f"no column {spec!r} for the {role} (the header holds {names})")
    return spec


def _id_columns(table: Any, id_roles: Sequence[str], name: str, what: str, typed: bool) -> Any:
    """Id columns as all int64 or all text (text ids from CSV cast to int if all are)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    cols = [table.column(r) for r in id_roles]
    as_int = all(pa.types.is_integer(c.type) for c in cols)
    if as_int:
        try:
            cols = [c.cast(pa.int64()) for c in cols]
        except pa.ArrowInvalid:  # uint64 ids past int64 (parquet): text ids, exact
            as_int = False
    if not as_int:
        cols = [c.cast(pa.string()) for c in cols]
        if not typed:  # text from CSV: integers when every id is one
            cols = [pc.utf8_trim_whitespace(c) for c in cols]
            try:
                cols = [pc.cast(c, pa.int64()) for c in cols]
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                pass
    for role, col in zip(id_roles, cols, strict=True):
        if col.null_count:
            raise _fail(name, what, f"the {role} column holds {col.null_count} empty value(s)")
        table = table.set_column(table.column_names.index(role), role, col)
    return table


def _column_max(col: Any) -> int:
    """The largest value of an integer column, as a Python int."""
    import pyarrow.compute as pc

    return int(pc.max(col).as_py())


def _check_time(table: Any, name: str, what: str, col_name: str) -> None:
    import pyarrow as pa

    if "time" not in table.column_names:
        return
    t = table.column("time")
    if pa.types.is_unsigned_integer(t.type) and len(t) and _column_max(t) > _INT_MAX:
        raise _fail(
            name, what, f"the time column {col_name!r} holds the integer {_column_max(t)}, outside "
            f"the 64-bit range [-2**63, 2**63 - 1] = [{_INT_MIN}, {_INT_MAX}]",
        )  # fmt: skip
    if not (pa.types.is_integer(t.type) or pa.types.is_floating(t.type)) and not (
        pa.types.is_timestamp(t.type) or pa.types.is_date(t.type) or pa.types.is_duration(t.type)
    ):
        bad = next((v for v in t.to_pylist() if v is not None and not _is_value(str(v))), None)
        raise _fail(
            name,
            what,
            f"the time column {col_name!r} holds text ({_clip(str(bad))}), not numbers or "
            "ISO-8601 timestamps such as 2024-01-01T10:00:00",
        )


def read_edge_file(
    source: str | Path | BinaryIO,
    *,
    source_col: str | int = 0,
    target_col: str | int = 1,
    time_col: str | int | None = None,
    label_col: str | int | None = None,
    header: bool | None = None,
    what: str = "graph file",
    block_size: int | None = None,
    max_bytes: int | None = None,
    quote_rows: bool = True,
) -> EdgeFile:
    """Read an edge list with pyarrow.

    Parameters
    ----------
    source : str, pathlib.Path or binary file object
        The file; ``"-"`` reads standard input.
    source_col, target_col : str or int
        Endpoint columns, by name (needs a header) or 0-based index.
    time_col, label_col : str or int, optional
        Time and edge-label columns, when wanted.
    header : bool, optional
        Whether the first data line is a header (``None``: decide, see the module docstring).
    what : str
        How to call the file in messages (``"graph file"``, ``"pattern file"``...).
    block_size : int, optional
        Bytes of text parsed at a time (default :data:`CSV_BLOCK_SIZE`); text files are read
        block by block (see :func:`read_columns`).
    max_bytes : int, optional
        Most bytes of (decompressed) input to read (default
        :func:`~nx_gpumine.limits.input_limit`: ``NX_GPUMINE_INPUT_LIMIT``, else a quarter of
        the memory budget).
    quote_rows : bool
        Whether an error about a malformed row quotes the row (else it gives its line number
        and field count only: for a file that may be any file, such as a pattern file named on
        a command line, whose lines must not be echoed).

    Returns
    -------
    EdgeFile
        Roles ``source``, ``target`` (both int64 or both text), ``time`` and ``label`` where
        asked for.

    Raises
    ------
    FileError
        Missing, unreadable, binary or damaged file, a named column that does not exist, a row
        with another number of fields, empty ids, a time column holding text, an integer
        outside the 64-bit range in a time or label column, or a first line longer than
        :data:`MAX_LINE_BYTES`.
    InputTooLargeError
        More than ``max_bytes`` of input (decompressed), more lines than a graph built from them
        could hold within the memory budget (:func:`~nx_gpumine.limits.graph_build_bytes`,
        checked before parsing), or more than the memory could hold (a :class:`FileError` and a
        :class:`~nx_gpumine.CapacityError`).
    """
    roles: dict = {"source": source_col, "target": target_col}
    if time_col is not None:
        roles["time"] = time_col
    if label_col is not None:
        roles["label"] = label_col
    ef = read_columns(
        source, roles, id_roles=("source", "target"), header=header, what=what,
        block_size=block_size, max_bytes=max_bytes, quote_rows=quote_rows, graph=True,
    )  # fmt: skip
    if ef.columns["source"] == ef.columns["target"]:
        raise _fail(ef.name, what, "the source and target must be two different columns")
    return ef


def read_columns(
    source: str | Path | BinaryIO,
    roles: dict,
    *,
    id_roles: Sequence[str] = (),
    header: bool | None = None,
    what: str = "file",
    block_size: int | None = None,
    max_bytes: int | None = None,
    quote_rows: bool = True,
    graph: bool = False,
) -> EdgeFile:
    """Read chosen columns of a text or parquet table (see :func:`read_edge_file`).

    Text is parsed in blocks of ``block_size`` bytes (``pyarrow.csv.open_csv``), keeping only
    the chosen columns: int64 and float64 columns go straight into one growing numpy array
    each, so the peak memory is about the file's bytes, the final columns and one block (a
    48.8 MiB file of 4M ``src dst time`` integer lines: peak RSS 166 MiB above the import,
    that is 49 of bytes, 92 of int64 columns and the rest; it was 337 MiB read whole).
    Types are pyarrow's inference over the whole file, as when it is read at once: integer
    ids are read as int64 (an id that is not an integer, or an empty one, re-reads the file
    with text ids); a column whose first block infers integers (or nothing) and a later block
    does not is re-read as int64 / float64, and any other change (text after numbers, say)
    is a whole-file read, so no value is ever truncated or refused.

    The input is read in blocks of :data:`READ_BLOCK` bytes, decompressed as it comes, and
    stops with :class:`InputTooLargeError` past ``max_bytes``. A time or label column of
    integers is never read as float64 silently: pyarrow infers float64 for a column holding an
    integer past the 64-bit range (``9223372036854775808``), and such a value is refused
    (:class:`FileError` naming the column and the limit).

    Parameters
    ----------
    source, header, what, block_size, max_bytes, quote_rows
        As in :func:`read_edge_file`.
    roles : dict
        Role name -> column name or 0-based index; the table's columns are named by role.
    id_roles : sequence of str
        Roles holding node ids: all int64 when every id is an integer, else all text.
    graph : bool
        Whether a graph is built from the rows: then a file whose lines (parquet: rows) would
        build a graph past the memory budget is refused before parsing
        (:func:`~nx_gpumine.limits.graph_build_bytes`).

    Returns
    -------
    EdgeFile

    Raises
    ------
    FileError, InputTooLargeError
        As :func:`read_edge_file` says.
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    data, name, limit = _read_input(source, what, max_bytes)
    if data.startswith(b"PAR1") or str(name).endswith((".parquet", ".pq")):
        return _read_parquet(data, name, what, roles, id_roles, graph)
    utf8 = _as_text(data, name, what)
    nlines = _check_parse_room(utf8, len(roles), limit, name, what)
    if graph:
        _check_build_room(nlines, len(roles), name, what)
    data = re.sub(rb"^(?:[ \t]*\r?\n)+", b"", _strip_comments(utf8))
    lines = _first_lines(data, name, what)
    if not lines:
        raise _fail(name, what, "holds no rows")
    delim = _delimiter(lines)
    if delim == "," and b'"' not in data and (b" ," in data or b", " in data or b"\t" in data):
        data = re.sub(rb"[ \t]*,[ \t]*", b",", data)  # "1, 2" -> "1,2" (nothing is quoted)
        lines = _first_lines(data, name, what)
    if delim == " ":
        data = _collapse_whitespace(data)
        lines = _first_lines(data, name, what)
    first_delim = delim if delim in lines[0] else " "
    rows = [_split(lines[0], first_delim)] + [_split(s, delim) for s in lines[1:]]
    if first_delim == " ":
        rows[0] = lines[0].split()
    picks = [int(v) for v in roles.values() if isinstance(v, int) or str(v).isdigit()]
    named = any(not (isinstance(v, int) or str(v).isdigit()) for v in roles.values())
    if header is None:
        header = named or _decide_header(rows, picks or [0, 1])
    names = [t.strip() for t in rows[0]] if header else [f"f{j}" for j in range(len(rows[0]))]
    cols = {r: _resolve(v, names, header, r, name, what) for r, v in roles.items()}
    if header and len(rows) < 2:
        raise _fail(name, what, "holds a header but no rows")
    bad: list = []

    def on_bad(row: Any) -> str:
        bad.append(row)
        return "error"

    read_opts = pacsv.ReadOptions(
        column_names=names, skip_rows=1 if header else 0, block_size=block_size or CSV_BLOCK_SIZE
    )
    parse_opts = pacsv.ParseOptions(
        delimiter=delim, quote_char='"', invalid_row_handler=on_bad, ignore_empty_lines=True
    )
    reading = _CsvReading(
        data, names, list(dict.fromkeys(cols.values())), [cols[r] for r in id_roles],
        read_opts, parse_opts, bad,
    )  # fmt: skip
    try:
        table = reading.read()
    except MemoryError as exc:  # numpy's and pyarrow's too
        from ..limits import INPUT_LIMIT_ENV

        raise InputTooLargeError(
            f"{what} {name!r}: out of memory parsing its {len(data):,} bytes of text; free "
            f"memory, or read a smaller file (a lower input limit, {INPUT_LIMIT_ENV}, stops "
            "such reads before parsing)"
        ) from exc
    except (pa.ArrowInvalid, pa.ArrowKeyError) as exc:
        if bad:
            row = bad[0]
            text = row.text.strip()
            line = _line_of(utf8, text)
            at = f"line {line}: " if line else ""
            raise _fail(
                name,
                what,
                f"{at}expected {row.expected_columns} fields like the first line, got "
                f"{row.actual_columns}" + (f": {_clip(text)}" if quote_rows else ""),
            ) from exc
        raise _fail(name, what, str(exc).replace("CSV parse error: ", "")) from exc
    _refuse_big_integers(table, reading, cols, id_roles, name, what)
    return _by_role(table, cols, id_roles, name, what, typed=False, header=header, width=len(names))


#: Integers a column may hold: int64's range (pyarrow reads a column holding one past it as
#: float64, which would round it).
_INT_MIN, _INT_MAX = -(1 << 63), (1 << 63) - 1
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")


def _refuse_big_integers(
    table: Any, reading: _CsvReading, cols: dict, id_roles: Sequence[str], name: str, what: str
) -> None:
    """Refuse an integer past the int64 range in a float64 column that is not an id column.

    pyarrow infers float64 for a column of integers with one past int64 (``2**63``), rounding
    every value near it (``2**63 - 2`` and ``2**63`` both become ``9.223372036854775808e18``),
    and the library refuses such times. Only a column with a value of magnitude ``>= 2**63``
    is looked at again, as text: a number written as an integer outside ``[-2**63, 2**63 - 1]``
    is refused, naming the column, its role and the limit; decimals (``1e19``, ``2.5``) stay
    floats. Id columns are not concerned (an id past int64 makes the ids text, exactly).

    Raises
    ------
    FileError
        Naming the role, the column, the value and the int64 range.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    ids = {cols[r] for r in id_roles}
    for role, col in cols.items():
        if col in ids or not pa.types.is_floating(table.column(col).type):
            continue
        values = table.column(col)
        big = pc.greater_equal(pc.abs(values), pa.scalar(2.0**63))
        if not pc.any(big).as_py():
            continue
        text = reading.text_column(col)
        where = np.flatnonzero(big.to_numpy(zero_copy_only=False).astype(bool))
        for i in where.tolist():
            raw = text[i].as_py()
            if raw is not None and _INTEGER.fullmatch(raw) and not _INT_MIN <= int(raw) <= _INT_MAX:
                raise _fail(
                    name, what, f"the {role} column {col!r} holds the integer {raw.strip()}, "
                    f"outside the 64-bit range [-2**63, 2**63 - 1] = [{_INT_MIN}, {_INT_MAX}] "
                    f"(data row {i + 1}); integer {role}s must fit in int64 (read as float64 "
                    "they would be rounded)",
                )  # fmt: skip


#: Bytes of text :func:`read_columns` parses at a time (a few blocks' worth of memory at most).
CSV_BLOCK_SIZE = 1 << 20

_CONVERSION = re.compile(r"CSV column #(\d+)\b.*CSV conversion error to (\w+)", re.S)


class _Restart(Exception):
    """A streamed read must start again with other column types (see :class:`_CsvReading`)."""


class _ColumnSink:
    """One column's values, batch after batch: int64 / float64 without nulls into one growing
    numpy array, anything else (text, timestamps, nulls) as arrow chunks."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(capacity, 1)
        self.buf: Any = None
        self.n = 0
        self.chunks: list | None = None
        self.type: Any = None

    def add(self, arr: Any) -> None:
        """Append one batch's column ``arr`` (a ``pyarrow.Array``)."""
        import numpy as np
        import pyarrow as pa

        self.type = arr.type
        dtype = {pa.int64(): np.int64, pa.float64(): np.float64}.get(arr.type)
        if self.chunks is None and dtype is not None and arr.null_count == 0:
            # a view of the batch's values (Array.to_numpy would import pandas)
            values = np.frombuffer(arr.buffers()[1], dtype, len(arr), arr.offset * 8)
            if self.buf is None:
                self.buf = np.empty(max(self.capacity, len(values)), dtype=values.dtype)
            elif self.n + len(values) > len(self.buf):  # more rows than lines counted
                grown = np.empty(max(self.n + len(values), len(self.buf) * 3 // 2), self.buf.dtype)
                grown[: self.n] = self.buf[: self.n]
                self.buf = grown
            self.buf[self.n : self.n + len(values)] = values
            self.n += len(values)
            return
        if self.chunks is None:  # nulls or not numbers: chunks from here on
            self.chunks = [self._numbers()] if self.n else []
            self.buf = None
        self.chunks.append(arr)

    def finish(self, empty_type: Any) -> Any:
        """The column: one array over the numpy buffer (no copy), or the chunks."""
        import pyarrow as pa

        if self.chunks is None:
            if self.buf is None:
                return pa.chunked_array([], type=self.type or empty_type)
            return self._numbers()
        return pa.chunked_array(self.chunks, type=self.type)

    def _numbers(self) -> Any:
        """The numbers so far as a ``pyarrow.Array`` over the numpy buffer (no copy; unlike
        ``pa.array(ndarray)``, this does not import pandas)."""
        import pyarrow as pa

        values = self.buf[: self.n]
        return pa.Array.from_buffers(
            pa.from_numpy_dtype(values.dtype), self.n, [None, pa.py_buffer(values)]
        )


class _CsvReading:
    """Stream the chosen columns of CSV text in blocks (``pyarrow.csv.open_csv``).

    A streaming reader fixes each column's type from the first block; this class gives the
    types a whole-file read would infer:

    - id columns are read as int64; a block with an id that is not an integer (or an empty one)
      re-reads the file with text ids, checked by :func:`_id_columns` as before;
    - a column whose first block gives null or int64 and a later block something else is read
      again as int64, then float64 (pyarrow's own next inference steps for numbers);
    - any other failure (text after numbers, dates after timestamps...) is left to a whole-file
      ``pyarrow.csv.read_csv``, which infers over every block (and raises as it did before).
    """

    def __init__(
        self,
        data: bytes,
        names: list[str],
        include: list[str],
        id_names: list[str],
        read_opts: Any,
        parse_opts: Any,
        bad: list,
    ) -> None:
        self.data = data
        self.names = names
        self.include = include
        self.id_names = id_names
        self.read_opts = read_opts
        self.parse_opts = parse_opts
        self.bad = bad
        self.int_ids = True
        self.types: dict = {}

    def _convert_options(self, id_type: Any, types: dict) -> Any:
        import pyarrow.csv as pacsv

        return pacsv.ConvertOptions(
            include_columns=self.include,
            column_types={**types, **{c: id_type for c in self.id_names}},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        )

    def read(self) -> Any:
        """The columns as a ``pyarrow.Table`` (named as in the file).

        Raises
        ------
        pyarrow.ArrowInvalid
            A bad row or other unreadable text (the caller words the message).
        """
        import pyarrow as pa
        import pyarrow.csv as pacsv

        for _ in range(2 + 2 * len(self.include)):  # each restart loosens one type for good
            try:
                return self._stream()
            except _Restart:
                continue
            except pa.ArrowInvalid as exc:
                if self.bad:  # a row with another number of fields: the caller says which
                    raise
                if not self._loosen(exc):
                    break
        # whole-file inference, text ids (checked and cast by _id_columns), rows up to 16 MB
        self.read_opts.block_size = max(self.read_opts.block_size, 1 << 24)
        return pacsv.read_csv(
            pa.py_buffer(self.data), read_options=self.read_opts, parse_options=self.parse_opts,
            convert_options=self._convert_options(pa.string(), {}),
        )  # fmt: skip

    def text_column(self, col: str) -> Any:
        """Column ``col`` read again as text (the same rows as :meth:`read`'s table).

        Returns
        -------
        pyarrow.ChunkedArray
            One string per row.
        """
        import pyarrow as pa
        import pyarrow.csv as pacsv

        self.read_opts.block_size = max(self.read_opts.block_size, 1 << 24)
        convert = pacsv.ConvertOptions(
            include_columns=[col], column_types={col: pa.string()}, strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        )  # fmt: skip
        return pacsv.read_csv(
            pa.py_buffer(self.data), read_options=self.read_opts,
            parse_options=self.parse_opts, convert_options=convert,
        ).column(col)  # fmt: skip

    def _loosen(self, exc: Exception) -> bool:
        """Whether a conversion error names a column whose type can be loosened (then done)."""
        import pyarrow as pa

        m = _CONVERSION.search(str(exc))
        if not m or int(m.group(1)) >= len(self.names):
            return False
        col, failed = self.names[int(m.group(1))], m.group(2)
        if col in self.id_names:
            if not self.int_ids:
                return False
            self.int_ids = False
            return True
        step = {"null": pa.int64(), "int64": pa.float64()}.get(failed)
        if step is None:
            return False
        self.types[col] = step
        return True

    def _stream(self) -> Any:
        import pyarrow as pa
        import pyarrow.csv as pacsv

        id_type = pa.int64() if self.int_ids else pa.string()
        rows = self.data.count(b"\n") + 1  # at least the number of rows (or grow)
        sinks = {c: _ColumnSink(rows) for c in self.include}
        reader = pacsv.open_csv(
            pa.BufferReader(pa.py_buffer(self.data)), read_options=self.read_opts,
            parse_options=self.parse_opts,
            convert_options=self._convert_options(id_type, self.types),
        )  # fmt: skip
        schema = reader.schema
        for batch in reader:
            for c in self.include:
                arr = batch.column(c)
                if self.int_ids and c in self.id_names and arr.null_count:
                    self.int_ids = False  # an empty or 'NA' id: text ids, as before
                    raise _Restart
                sinks[c].add(arr)
        return pa.table({c: sinks[c].finish(schema.field(c).type) for c in self.include})


def _read_parquet(
    data: bytes, name: str, what: str, roles: dict, id_roles: Sequence[str], graph: bool
) -> EdgeFile:
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(io.BytesIO(data))
    except Exception as exc:  # ArrowInvalid and friends
        raise _fail(name, what, f"is not a readable parquet file ({exc})") from exc
    if graph:  # a few bytes of parquet can hold many rows: checked before they are read
        _check_build_room(pf.metadata.num_rows, len(roles), name, what, "rows")
    names = list(pf.schema_arrow.names)
    cols = {r: _resolve(v, names, True, r, name, what) for r, v in roles.items()}
    table = pf.read(columns=list(dict.fromkeys(cols.values())))
    return _by_role(table, cols, id_roles, name, what, typed=True, header=True, width=len(names))


def _by_role(
    table: Any,
    cols: dict,
    id_roles: Sequence[str],
    name: str,
    what: str,
    *,
    typed: bool,
    header: bool,
    width: int,
) -> EdgeFile:
    """The read ``table`` as an :class:`EdgeFile` with one column per role (``cols``: role ->
    column read), checked: some rows, node ids (``typed``: the columns carry the file's own
    types, as parquet's do, so text ids stay text; see :func:`_id_columns`) and the time
    column; ``width``: the number of columns in the file."""
    import pyarrow as pa

    role_of: dict = {}
    for role, col in cols.items():
        if col in role_of:  # e.g. --time dst: the time would be read as the ids' text
            raise _fail(
                name, what, f"the {role} column {col!r} is also the {role_of[col]} column; "
                "give each its own column",
            )  # fmt: skip
        role_of[col] = role
    table = pa.table({r: table.column(c) for r, c in cols.items()})
    if table.num_rows == 0:
        raise _fail(name, what, "holds no rows")
    table = _id_columns(table, id_roles, name, what, typed=typed)
    _check_time(table, name, what, cols.get("time", ""))
    return EdgeFile(table, cols, header, name, width)


def _clip(text: str) -> str:
    """``text`` quoted for a message, cut to :data:`_QUOTED` characters."""
    if len(text) <= _QUOTED:
        return repr(text)
    return f"{text[:_QUOTED]!r}... ({len(text):,} characters)"


def _line_of(raw: bytes, text: str) -> int | None:
    """1-based line of the first line equal to ``text`` in the (uncompressed) file."""
    needle = text.encode("utf-8")
    for i, line in enumerate(raw.split(b"\n"), 1):
        if line.strip() == needle or re.sub(rb"[ \t]+", b" ", line.strip()) == needle:
            return i
    return None
