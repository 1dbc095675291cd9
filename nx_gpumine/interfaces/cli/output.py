"""The command line's results: one :class:`Report` per command, written as an aligned table,
JSON or CSV (``--format``), to stdout or ``-o FILE``."""

from __future__ import annotations

import argparse
import contextlib
import csv
import errno
import io
import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .common import CliError

__all__ = [
    "Report",
    "TableBuffer",
    "check_writable",
    "open_output",
    "print_table",
    "write_report",
]


@dataclass
class Report:
    """What a command found, in one form for every output format.

    ``rows`` hold raw values (int, float, str, None); the text form formats numbers, JSON
    writes ``data``, CSV writes ``header`` + ``rows`` (or ``csv_table`` when set).
    """

    header: list[str]
    rows: list[list[Any]]
    data: dict
    notes: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    extra: list[tuple[str, list[str], list[list[Any]]]] = field(default_factory=list)
    csv_table: tuple[list[str], list[list[Any]]] | None = None


def _cell(x: Any) -> str:
    import numpy as np

    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int | np.integer):
        return f"{int(x):,}"
    if isinstance(x, float | np.floating):
        return f"{float(x):.3f}"
    return str(x)


_NUMERIC = re.compile(r"-?[\d,]+(\.\d+)?|x[\d.]+")


def print_table(rows: Sequence[Sequence[Any]], header: Sequence[str], out: TextIO) -> None:
    """Print an aligned text table (numbers right-aligned, ints with thousands separators)."""
    cells = [[str(c) for c in header]] + [[_cell(c) for c in r] for r in rows]
    widths = [max(len(r[j]) for r in cells) for j in range(len(header))]
    for i, r in enumerate(cells):
        parts = []
        for j, c in enumerate(r):
            numeric = i > 0 and _NUMERIC.fullmatch(c) is not None
            parts.append(c.rjust(widths[j]) if numeric else c.ljust(widths[j]))
        print("  ".join(parts).rstrip(), file=out)
        if i == 0:
            print("  ".join("-" * w for w in widths), file=out)


def _json_default(x: Any) -> Any:
    import numpy as np

    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    if hasattr(x, "isoformat"):
        return x.isoformat()
    return str(x)


def write_report(report: Report, fmt: str, out: TextIO) -> None:
    """Write ``report`` as ``table`` (aligned text), ``json`` or ``csv``."""
    if fmt == "json":
        json.dump(report.data, out, indent=2, default=_json_default)
        out.write("\n")
        return
    if fmt == "csv":
        header, rows = report.csv_table or (report.header, report.rows)
        w = csv.writer(out, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(["" if c is None else _csv_value(c) for c in r])
        return
    for line in report.notes:
        print(line, file=out)
    if report.header:
        print_table(report.rows, report.header, out)
    for line in report.footer:
        print(line, file=out)
    for title, header, rows in report.extra:
        print(title, file=out)
        print_table(rows, header, out)


def _csv_value(x: Any) -> Any:
    if hasattr(x, "isoformat"):
        return x.isoformat()
    return x


def check_writable(path: str | None, option: str) -> None:
    """Check, before any work, that the file ``path`` given to ``option`` can be written.

    Nothing is created: a missing file needs a writable folder, an existing one write access.
    ``None`` and ``-`` (standard output) pass. A symbolic link to a file is refused: writing
    through it would replace the file it points to (``-o out.json`` where ``out.json`` links to
    ``~/.bashrc``), so results are never written through one; remove the link or name another
    file. A link to a device or a pipe (``/dev/stdout``, ``/dev/null``) is written through.

    Raises
    ------
    CliError
        ``path`` is a symbolic link or a folder, its folder does not exist, or either is not
        writable.
    """
    if path is None or path == "-":
        return
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if _links_to_a_file(target):
        raise _symlink_error(option, path)
    if os.path.isdir(target):
        raise CliError(f"{option} {path!r} is a directory; give a file name")
    if not os.path.isdir(folder):
        raise CliError(f"{option} {path!r}: no such directory {folder!r}")
    if os.path.exists(target):
        if not os.access(target, os.W_OK):
            raise CliError(f"{option} {path!r}: permission denied")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise CliError(f"{option} {path!r}: permission denied (cannot create files in {folder!r})")


@contextlib.contextmanager
def open_output(path: str | None, default: TextIO) -> Iterator[TextIO]:
    """``default`` for no path or ``-``, else the file ``path`` opened for writing.

    The file is opened without following a symbolic link (``O_NOFOLLOW``): a link to a file is
    refused (see :func:`check_writable`), also one made after that check; a link to a device or
    a pipe (``/dev/stdout``) is followed.

    Raises
    ------
    CliError
        The file cannot be opened, or is a symbolic link.
    """
    if path is None or path == "-":
        yield default
        return
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    if _links_to_a_file(path):
        raise _symlink_error("-o", path)
    if not os.path.islink(path):  # a link put there since the checks is refused too (ELOOP)
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _symlink_error("-o", path) from exc
        raise CliError(f"-o {path!r}: {exc.strerror or exc}") from exc
    with open(fd, "w", newline="") as fh:
        yield fh


def _links_to_a_file(path: str) -> bool:
    """Whether ``path`` is a symbolic link to a regular file, or to nothing (writing would
    create a file where it points)."""
    if not os.path.islink(path):
        return False
    return os.path.isfile(path) or not os.path.exists(path)


def _symlink_error(option: str, path: str) -> CliError:
    """The refusal to write results through the symbolic link ``path``."""
    try:
        to = f" (to {os.readlink(path)!r})"
    except OSError:
        to = ""
    return CliError(
        f"{option} {path!r} is a symbolic link{to}; results are not written through links "
        "(that would overwrite the file it points to): remove the link or give another file name"
    )


class TableBuffer:
    """Collects text lines and tables for a report whose text form has several tables."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def line(self, text: str) -> None:
        """Add ``text`` (one or more lines)."""
        self.lines.extend(text.split("\n"))

    def table(self, rows: list[list[Any]], header: list[str]) -> None:
        """Add an aligned table (:func:`print_table`)."""
        s = io.StringIO()
        print_table(rows, header, s)
        self.lines.extend(s.getvalue().rstrip("\n").split("\n"))


def save_plot(args: argparse.Namespace, save: Any, counts: Any, title: str, what: str) -> list[str]:
    """With ``--plot``: write a picture of ``counts`` there with ``save(counts, path,
    title=...)`` (one of :mod:`nx_gpumine.results.plots`' writers), titled with the graph
    file's name and ``title``, the path checked again first (a link may have been made while
    the work ran); a missing matplotlib is a :class:`CliError`.

    Returns
    -------
    list of str
        The report's footer line naming the file (``what`` written to it), or none without
        ``--plot``.
    """
    if not args.plot:
        return []
    check_writable(args.plot, "--plot")
    try:
        save(counts, args.plot, title=f"{Path(str(args.graph)).name}: {title}")
    except ImportError as exc:
        raise CliError(
            "--plot needs matplotlib (pip install 'nx-gpumine[plot]' or matplotlib)"
        ) from exc
    return [f"{what} written to {args.plot}"]
