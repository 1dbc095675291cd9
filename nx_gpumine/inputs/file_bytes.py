"""The bytes of an input file (:mod:`.files`): opened, decompressed and bounded.

- **source**: a path, ``"-"`` for standard input, or a binary file object;
- **compression**: detected from the first bytes (gzip, bzip2, xz, zstd, lz4 frame) and
  decompressed block by block as it is read;
- **limit**: at most :func:`~nx_gpumine.limits.input_limit` bytes (``NX_GPUMINE_INPUT_LIMIT``,
  else a quarter of the memory budget) are read, decompressed bytes counted as they come: past
  it, :class:`InputTooLargeError` says how much was read and how to raise the limit (standard
  input fed from ``/dev/zero``, or a small gzip "bomb", stops there instead of filling the
  memory); the text and the columns parsed from it are checked against the same limit
  (:func:`_check_parse_room`), and the lines of an edge file, before they are parsed, against
  the memory budget that building a graph from them needs (:func:`_check_build_room`);
- **binary data**: refused as soon as the first :data:`_SAMPLE` bytes are in (a NUL byte, a zip
  archive), parquet and UTF-16 text aside;
- **damaged data**: only an error of the codec (a bad header or checksum, truncated data) is
  called damaged; the limit, a lack of memory or a failing file get their own messages.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import stat
import sys
import zlib
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import CapacityError, InputError

__all__ = ["FileError", "InputTooLargeError", "READ_BLOCK"]

#: Bytes at the start of an input that are checked for binary data (and sniffed as text).
_SAMPLE = 1 << 16
_MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"\x04\x22\x4d\x18", "lz4"),
)


class FileError(InputError):
    """An edge file that cannot be read: names the file and, where known, the line."""


def _fail(name: str, what: str, msg: str) -> FileError:
    return FileError(f"{what} {name!r}: {msg}")


#: Bytes read (or decompressed) at a time; the input limit is checked after each.
READ_BLOCK = 1 << 20


class InputTooLargeError(FileError, CapacityError):
    """An input file past the input limit (:func:`~nx_gpumine.limits.input_limit`), or one the
    memory at hand could not hold: says how much was read and how to raise the limit. Both an
    :class:`~nx_gpumine.InputError` (a :class:`FileError`) and a
    :class:`~nx_gpumine.CapacityError`."""


class _SourceError(Exception):
    """The underlying file could not be read (an ``OSError`` of the file, not of the codec)."""


class _Counted(io.RawIOBase):
    """The compressed bytes of ``stream``, ``head`` (already read to sniff the codec) first;
    counts what it hands out and tells read errors of the file from those of the codec."""

    def __init__(self, head: bytes, stream: Any) -> None:
        super().__init__()
        self.head = head
        self.stream = stream
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        view = memoryview(buf).cast("B")
        if self.head:
            n = min(len(view), len(self.head))
            view[:n] = self.head[:n]
            self.head = self.head[n:]
        else:
            try:
                chunk = self.stream.read(len(view))
            except OSError as exc:
                raise _SourceError(exc.strerror or str(exc)) from exc
            n = len(chunk or b"")
            view[:n] = chunk or b""
        self.count += n
        return n


def _open_source(source: str | Path | BinaryIO, what: str) -> tuple[Any, str, bool]:
    """``(binary stream, name for messages, whether this call opened it)``."""
    if hasattr(source, "read"):
        return source, getattr(source, "name", "<stream>"), False
    if str(source) == "-":
        return sys.stdin.buffer, "<stdin>", False
    path = Path(source)
    if not path.is_file():
        raise _fail(str(source), what, "no such file")
    try:
        return open(path, "rb"), str(source), True  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise _fail(str(source), what, exc.strerror or str(exc)) from exc


def _read_head(stream: Any, n: int, name: str, what: str) -> bytes:
    """The first ``n`` bytes (fewer at the end of the stream), however the stream hands them."""
    head = b""
    try:
        while len(head) < n:
            chunk = stream.read(n - len(head))
            if not chunk:
                break
            head += chunk
    except OSError as exc:
        raise _fail(name, what, exc.strerror or str(exc)) from exc
    return head


def _codec_text(codec: str | None, packed: int) -> str:
    if codec is None:
        return "bytes"
    return f"bytes of decompressed text (from {packed:,} bytes of {codec} data)"


class _Collect:
    """The bytes of one input as they are read: counted against the input limit, their start
    checked for binary data as soon as :data:`_SAMPLE` bytes are in (``/dev/zero`` stops at
    once), kept in one ``io.BytesIO`` whose buffer is handed over at the end (no second copy).
    """

    def __init__(self, name: str, what: str, limit: int, codec: str | None = None) -> None:
        self.name, self.what, self.limit, self.codec = name, what, limit, codec
        self.buf = io.BytesIO()
        self.got = 0
        self.packed = 0  # compressed bytes read so far (for messages)
        self.checked = False

    def add(self, chunk: bytes) -> None:
        """Keep ``chunk``.

        Raises
        ------
        InputTooLargeError
            Past the limit.
        FileError
            The input starts like binary data (see :func:`_check_start`).
        """
        self.got += len(chunk)
        if self.got > self.limit:
            raise self.too_large()
        self.buf.write(chunk)
        if not self.checked and self.got >= _SAMPLE:
            self.check()

    def check(self) -> None:
        """Check the start of the input (once)."""
        self.checked = True
        with self.buf.getbuffer() as view:
            sample = bytes(view[:_SAMPLE])
        _check_start(sample, "any", self.name, self.what)

    def value(self) -> bytes:
        """Everything read (the collector is spent)."""
        if not self.checked:
            self.check()
        data = self.buf.getvalue()
        self.buf = io.BytesIO()
        return data

    def too_large(self, whole: int | None = None) -> InputTooLargeError:
        """The error of an input past the limit (``whole``: the size of a file refused
        before reading it)."""
        if whole is not None:
            detail = f"holds {whole:,} bytes"
        else:
            detail = (
                f"more than {self.limit:,} {_codec_text(self.codec, self.packed)} read (the "
                f"read stopped at {self.got:,})"
            )
        return _limit_error(self.name, self.what, detail, self.limit)

    def out_of_memory(self) -> InputTooLargeError:
        """The error of an input the memory could not hold (valid as far as it was read)."""
        from ..limits import INPUT_LIMIT_ENV

        return InputTooLargeError(
            f"{self.what} {self.name!r}: out of memory after reading {self.got:,} "
            f"{_codec_text(self.codec, self.packed)}: the data read so far is valid but does not "
            f"fit the memory at hand; free memory, or read a smaller file (a lower input limit, "
            f"{INPUT_LIMIT_ENV}, stops such reads earlier)"
        )


def _limit_error(name: str, what: str, detail: str, limit: int) -> InputTooLargeError:
    """:class:`InputTooLargeError`: ``what name: detail``, the limit and how to raise it."""
    from ..limits import BUDGET_ENV, INPUT_LIMIT_ENV, describe_size

    return InputTooLargeError(
        f"{what} {name!r}: {detail}, past the input limit of {limit:,} bytes "
        f"({describe_size(limit)}); raise it with the environment variable {INPUT_LIMIT_ENV} "
        f"(e.g. {INPUT_LIMIT_ENV}=20GiB), or raise the memory budget it follows by default "
        f"({BUDGET_ENV}, nx_gpumine.set_memory_budget)"
    )


def _check_parse_room(data: bytes, ncols: int, limit: int, name: str, what: str) -> int:
    """Refuse text whose parsed columns would take the read past ``limit`` bytes.

    The text is held while its ``ncols`` chosen columns are parsed, 8 bytes per value and line
    (text ids take more): short lines (``0 1``) take four times their text as columns.

    Returns
    -------
    int
        The number of lines (an upper bound on the rows).
    """
    rows = data.count(b"\n") + 1
    need = len(data) + rows * 8 * max(ncols, 1)
    if need > limit:
        from ..limits import describe_size

        detail = (
            f"its {rows:,} lines would take about {describe_size(need)} to read "
            f"({describe_size(len(data))} of text and {describe_size(need - len(data))} of "
            f"{ncols} parsed column(s))"
        )
        raise _limit_error(name, what, detail, limit)
    return rows


def _check_build_room(rows: int, ncols: int, name: str, what: str, unit: str = "lines") -> None:
    """Refuse an edge list whose graph would not fit the memory budget, before it is parsed.

    Building a graph holds the ``ncols`` parsed columns and takes about
    :data:`~nx_gpumine.limits.BUILD_BYTES_PER_EDGE` more per edge at its peak
    (:func:`~nx_gpumine.limits.graph_build_bytes`); a short file of many lines (a small gzip
    "bomb" of ``0 1`` lines) would otherwise pass the input limit and fill the memory in the build.

    Parameters
    ----------
    rows : int
        Lines (or rows) of the file: its edges at most.
    ncols : int
        Columns parsed per line.
    name, what : str
        The file and how to call it, for the message.
    unit : str
        What ``rows`` counts, for the message (``"lines"``, ``"rows"``).

    Raises
    ------
    InputTooLargeError
        Naming the lines, the estimated bytes, the budget and how to raise it.
    """
    from ..limits import (
        BUDGET_ENV,
        BUILD_BYTES_PER_EDGE,
        describe_size,
        graph_build_bytes,
        memory_budget,
    )

    need = graph_build_bytes(rows, ncols)
    budget = memory_budget()
    if need <= budget:
        return
    need_s, budget_s = describe_size(need), describe_size(budget)
    if need_s == budget_s:  # just past the budget: rounded, both read the same
        need_s, budget_s = f"{need:,} bytes", f"{budget:,} bytes"
    build = rows * BUILD_BYTES_PER_EDGE
    enough = -(-need // (1 << 30))  # GiB, rounded up
    raise InputTooLargeError(
        f"{what} {name!r}: its {rows:,} {unit} would take about {need_s} to build into a graph "
        f"({describe_size(need - build)} of {ncols} parsed column(s) and {describe_size(build)} "
        f"for the build), more than the memory budget of {budget_s}; raise the budget with the "
        f"environment variable {BUDGET_ENV} (e.g. {BUDGET_ENV}={enough}GiB) or "
        "nx_gpumine.set_memory_budget(...), or read a smaller file"
    )


def _check_start(sample: bytes, kind: str, name: str, what: str) -> None:
    """Refuse an input whose first bytes are a zip archive or binary data (a NUL byte), unless
    it is parquet or UTF-16 text (which hold NUL bytes; ``kind`` ``"any"``: an input not yet
    known to be text)."""
    if kind == "any" and (
        sample.startswith((b"PAR1", b"\xff\xfe", b"\xfe\xff")) or name.endswith((".parquet", ".pq"))
    ):
        return
    if sample.startswith(b"PK\x03\x04"):
        raise _fail(name, what, "is a zip archive; unzip it first (gzip, bzip2, xz, zstd work)")
    nul = sample.find(b"\x00")
    if nul >= 0:
        raise _fail(
            name,
            what,
            f"is binary, not an edge list (a NUL byte at offset {nul}); expected CSV / TSV / "
            "whitespace-separated text, parquet, or such text compressed with gzip, bzip2, xz, "
            "zstd or lz4",
        )


def _read_input(
    source: str | Path | BinaryIO, what: str, max_bytes: int | None
) -> tuple[bytes, str, int]:
    """The input's bytes, decompressed, its name for messages and the limit applied.

    Read in blocks of :data:`READ_BLOCK` bytes (decompressed as they come), stopping with
    :class:`InputTooLargeError` once more than ``max_bytes`` (default
    :func:`~nx_gpumine.limits.input_limit`) have been read, and with :class:`FileError` as
    soon as the first :data:`_SAMPLE` bytes look binary: standard input fed from ``/dev/zero``
    or a small gzip "bomb" stops there instead of filling the memory. Compressed data is called
    damaged only for an error of its codec (a bad header or checksum, truncated data), never
    for the limit or a lack of memory.
    """
    from ..limits import input_limit

    limit = input_limit() if max_bytes is None else int(max_bytes)
    if limit < 1:
        raise ValueError(f"max_bytes must be >= 1, got {max_bytes}")
    stream, name, owned = _open_source(source, what)
    try:
        head = _read_head(stream, 6, name, what)
        codec = next((c for magic, c in _MAGIC if head.startswith(magic)), None)
        into = _Collect(name, what, limit, codec)
        if codec is None:
            size = _file_size(stream) if owned else None
            if size is not None and size > limit:
                raise into.too_large(whole=size)
            _read_plain(head, stream, into)
        else:
            _read_compressed(head, stream, codec, into)
        return into.value(), name, limit
    finally:
        if owned:
            stream.close()


def _file_size(stream: Any) -> int | None:
    """Bytes of a regular file (None for a pipe, a device, a stream without a descriptor)."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def _read_plain(head: bytes, stream: Any, into: _Collect) -> None:
    try:
        into.add(head)
        while True:
            chunk = stream.read(READ_BLOCK)
            if not chunk:
                return
            into.add(chunk)
    except OSError as exc:
        raise _fail(into.name, into.what, exc.strerror or str(exc)) from exc
    except MemoryError as exc:
        raise into.out_of_memory() from exc


def _decompressor(codec: str, raw: Any) -> Any:
    """A file object of the decompressed bytes of ``raw`` (a binary file object)."""
    if codec == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if codec == "bzip2":
        return bz2.BZ2File(raw)
    if codec == "xz":
        return lzma.LZMAFile(raw)
    import pyarrow as pa

    return pa.CompressedInputStream(pa.PythonFile(raw, mode="r"), codec)


def _read_compressed(head: bytes, stream: Any, codec: str, into: _Collect) -> None:
    """Decompress block by block into ``into`` (which counts the decompressed bytes)."""
    raw = _Counted(head, stream)
    name, what = into.name, into.what
    try:
        with _decompressor(codec, io.BufferedReader(raw, READ_BLOCK)) as dec:
            while True:
                chunk = dec.read(READ_BLOCK)
                into.packed = raw.count
                if not chunk:
                    return
                into.add(chunk)
    except FileError:  # the limit, or binary data inside
        raise
    except _SourceError as exc:
        raise _fail(name, what, str(exc)) from exc
    except MemoryError as exc:  # pyarrow's ArrowMemoryError too
        raise into.out_of_memory() from exc
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
        if isinstance(exc.__cause__ or exc.__context__, _SourceError):
            raise _fail(name, what, str(exc.__cause__ or exc.__context__)) from exc
        raise _fail(name, what, f"damaged {codec} data ({exc})") from exc
    except Exception as exc:  # pyarrow's ArrowInvalid and friends: the codec's errors
        if isinstance(exc.__cause__ or exc.__context__, _SourceError):
            raise _fail(name, what, str(exc.__cause__ or exc.__context__)) from exc
        raise _fail(name, what, f"damaged {codec} data ({exc})") from exc


def _as_text(data: bytes, name: str, what: str) -> bytes:
    """UTF-8 bytes without a BOM; binary data is an error naming the file."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as exc:
            raise _fail(name, what, f"damaged UTF-16 text ({exc.reason})") from exc
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    sample = data[:_SAMPLE]
    _check_start(sample, "", name, what)
    cut = sample if len(data) <= _SAMPLE else sample[: sample.rfind(b"\n") + 1]
    try:
        cut.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(
            name,
            what,
            f"is not UTF-8 text (byte {exc.start}: {cut[exc.start : exc.start + 4]!r}); save it "
            "as UTF-8",
        ) from exc
    return data
