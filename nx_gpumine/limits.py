"""Resource limits: the memory budget that result sizes are checked against.

A query that lists matches (``find_subgraphs``, ``find_motifs``...) counts them first and
compares the bytes the result needs with :func:`memory_budget`; a result that would not fit
raises :class:`~nx_gpumine.CapacityError` naming the count, before anything of that size is
allocated (``find_subgraphs(complete_graph(1000), "triangle")`` would need ~48 GB).

The budget is, in order: the value given to :func:`set_memory_budget`; the environment
variable ``NX_GPUMINE_MEMORY_BUDGET`` (bytes, a size such as ``"8GiB"`` / ``"500MB"``, or a
percentage of the available memory such as ``"75%"``); else :data:`DEFAULT_FRACTION` of the
memory available when the check runs (``MemAvailable`` on Linux; 4 GiB where it is unknown).

Input files get a limit from the same budget: :func:`input_limit` bytes of (decompressed) text
or parquet at most (``NX_GPUMINE_INPUT_LIMIT``, else :data:`INPUT_FRACTION` of the budget), so
that standard input fed from ``/dev/zero`` or a small gzip "bomb" stops with a clear error instead
of filling the memory. An edge file is also refused, before it is parsed, when the graph built
from its lines would take more than the budget (:func:`graph_build_bytes`: the parsed columns
and :data:`BUILD_BYTES_PER_EDGE` per line).

The device memory the CUDA engines may use is the other budget, :mod:`.device_limits`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from .errors import CapacityError, QueryError

__all__ = [
    "memory_budget",
    "set_memory_budget",
    "available_memory",
    "result_bytes",
    "check_result_rows",
    "grow_rows",
    "check_host_room",
    "budget_rows",
    "input_limit",
    "graph_build_bytes",
    "describe_size",
    "BUDGET_ENV",
    "INPUT_LIMIT_ENV",
    "DEFAULT_FRACTION",
    "INPUT_FRACTION",
    "RESULT_COPIES",
    "BUILD_BYTES_PER_EDGE",
]

BUDGET_ENV = "NX_GPUMINE_MEMORY_BUDGET"
#: Environment variable: most bytes of (decompressed) input one file may hold.
INPUT_LIMIT_ENV = "NX_GPUMINE_INPUT_LIMIT"
#: Share of the memory budget one input file's bytes may take by default: the text, the columns
#: parsed from it and the graph built from them hold about four times the text at the peak.
INPUT_FRACTION = 0.25
#: Bytes per edge that building a graph from its parsed columns takes at the peak, beyond the
#: columns (8 bytes per value), rounded up from peak RSS measured above the columns on 10M random
#: edges over 1.25M integer ids: static 52 (directed 58, with an edge label 79), temporal 68 (with
#: an edge label 80); 67M copies of one edge: 19. A graph with as many nodes as edges takes more
#: (about 40 bytes per node key).
BUILD_BYTES_PER_EDGE = 80
#: Share of the available memory a result may take by default.
DEFAULT_FRACTION = 0.5
#: A result is held about twice at its peak (engine ids, then node keys or a frame).
RESULT_COPIES = 2
_FALLBACK_AVAILABLE = 4 << 30
_UNITS = {
    "": 1,
    "b": 1,
    "k": 10**3,
    "kb": 10**3,
    "m": 10**6,
    "mb": 10**6,
    "g": 10**9,
    "gb": 10**9,
    "t": 10**12,
    "tb": 10**12,
    "kib": 1 << 10,
    "mib": 1 << 20,
    "gib": 1 << 30,
    "tib": 1 << 40,
}
_budget: int | str | None = None


def available_memory() -> int:
    """Bytes of memory available now (``MemAvailable``; 4 GiB where it cannot be read)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return _FALLBACK_AVAILABLE


def _parse(value: int | str, where: str, what: str = "memory budget") -> int:
    """Bytes from an int, a size string (``"8GiB"``) or a percentage (``"75%"``); ``what``
    names the setting in messages."""
    if isinstance(value, bool):
        raise QueryError(f"{where}: a {what} must be a size, got {value!r}")
    if isinstance(value, int):
        if value <= 0:
            raise QueryError(f"{where}: the {what} must be > 0 bytes, got {value}")
        return value
    if not isinstance(value, str):
        raise QueryError(
            f"{where}: a {what} is bytes (int), a size like '8GiB' or a percentage "
            f"like '75%', got {type(value).__name__}"
        )
    text = value.strip().lower()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*%", text)
    if m:
        pct = float(m.group(1))
        if not 0 < pct <= 100:
            raise QueryError(f"{where}: a percentage {what} must be in (0, 100], got {value!r}")
        return max(1, int(available_memory() * pct / 100))
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-z]*)", text)
    if not m or m.group(2) not in _UNITS:
        raise QueryError(f"{where}: cannot read {what} {value!r} (bytes, '500MB', '8GiB' or '75%')")
    size = int(float(m.group(1)) * _UNITS[m.group(2)])
    if size <= 0:
        raise QueryError(f"{where}: the {what} must be > 0 bytes, got {value!r}")
    return size


def set_memory_budget(value: int | str | None) -> None:
    """Set the memory budget for results (process-wide).

    Parameters
    ----------
    value : int, str or None
        Bytes, a size (``"8GiB"``, ``"500MB"``), a percentage of the available memory
        (``"75%"``, evaluated at each check), or None to go back to the default (the
        environment variable, else half of the available memory).

    Raises
    ------
    QueryError
        For a value that is not a positive size.
    """
    global _budget
    if value is not None:
        _parse(value, "set_memory_budget")  # validate now
    _budget = value


def memory_budget() -> int:
    """The memory budget in bytes now (see the module docstring for where it comes from)."""
    if _budget is not None:
        return _parse(_budget, "set_memory_budget")
    env = os.environ.get(BUDGET_ENV)
    if env:
        return _parse(env, BUDGET_ENV)
    return max(1, int(available_memory() * DEFAULT_FRACTION))


def input_limit() -> int:
    """Most bytes of (decompressed) input one edge file may hold.

    ``NX_GPUMINE_INPUT_LIMIT`` (bytes, a size such as ``"2GiB"``, or a percentage of the
    available memory) when set, else :data:`INPUT_FRACTION` of :func:`memory_budget` (so
    raising the budget raises it too).

    Returns
    -------
    int
        Bytes (>= 1).

    Raises
    ------
    QueryError
        ``NX_GPUMINE_INPUT_LIMIT`` is not a positive size.
    """
    env = os.environ.get(INPUT_LIMIT_ENV)
    if env:
        return _parse(env, INPUT_LIMIT_ENV, "input limit")
    return max(1, int(memory_budget() * INPUT_FRACTION))


def graph_build_bytes(edges: int, columns: int) -> int:
    """Bytes building a graph from ``edges`` parsed lines of ``columns`` columns takes at the peak.

    The parsed columns (8 bytes per value) are held while the graph is built from them, which
    takes :data:`BUILD_BYTES_PER_EDGE` more per edge (integer node ids; text ids take more).

    Parameters
    ----------
    edges : int
        Number of edges (lines).
    columns : int
        Parsed columns per edge (source, target, and time / label when read).

    Returns
    -------
    int
        Bytes.
    """
    return int(edges) * (8 * max(int(columns), 1) + BUILD_BYTES_PER_EDGE)


def budget_rows(width: int, held: int = 0) -> int:
    """Result rows of ``width`` ids that still fit the memory budget when ``held`` rows are
    already held (:func:`result_bytes` per row; 0 when none fits).

    Parameters
    ----------
    width : int
        Columns per row.
    held : int
        Rows already held.

    Returns
    -------
    int
        Rows (>= 0).
    """
    per_row = result_bytes(1, width)
    return max(0, memory_budget() // per_row - int(held))


def result_bytes(rows: int, width: int, itemsize: int = 8) -> int:
    """Bytes a result of ``rows`` x ``width`` ids needs at its peak (:data:`RESULT_COPIES`)."""
    return int(rows) * max(int(width), 1) * int(itemsize) * RESULT_COPIES


def describe_size(n: float) -> str:
    """``n`` bytes for a message: ``"512 B"``, ``"1.5 MiB"``, ``"6.0 GiB"``."""
    return _size(n)


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} PiB"  # pragma: no cover


def check_result_rows(rows: int, width: int, *, exact: bool = True, what: str = "matches") -> None:
    """Raise :class:`CapacityError` if ``rows`` result rows would exceed the memory budget.

    Parameters
    ----------
    rows : int
        Number of rows (the count, or a lower bound when ``exact`` is False).
    width : int
        Columns per row (pattern nodes or motif edges).
    exact : bool
        Whether ``rows`` is the exact count (else the message says "at least").
    what : str
        What the rows are, for the message.

    Raises
    ------
    CapacityError
        Naming the count, the bytes needed and the budget, and suggesting ``limit=``.
    """
    need = result_bytes(rows, width)
    budget = memory_budget()
    if need <= budget:
        return
    many = f"{rows:,}" if exact else f"at least {rows:,}"
    need_s, budget_s = _size(need), _size(budget)
    if need_s == budget_s:  # just past the budget: rounded, both read the same
        need_s, budget_s = f"{need:,} bytes", f"{budget:,} bytes"
    size = f"about {need_s}" if exact else f"at least {need_s}"
    raise CapacityError(
        f"{many} {what} ({width} columns) would need {size}, more than the memory "
        f"budget of {budget_s}: pass limit=N to list the first N, count them instead, "
        "iterate lazily (iter_subgraph_mappings), or raise the budget with "
        f"nx_gpumine.set_memory_budget(...) or {BUDGET_ENV}"
    )


def grow_rows(cap: int, width: int, limit: int | None, count_rows: Callable[[], int]) -> int:
    """The next size (rows) of a growing output buffer that filled at ``cap`` rows.

    Doubled, up to ``limit``; a size past the memory budget is replaced by the exact number of
    rows wanted, ``count_rows()`` capped by ``limit`` (counting is cheap next to listing), and
    :class:`CapacityError` names that count if even it does not fit.
    """
    bound = (1 << 63) - 1 if limit is None else int(limit)
    new = min(bound, 2 * int(cap))
    if result_bytes(new, width) <= memory_budget():
        return new
    total = int(count_rows())
    want = total if limit is None else min(total, int(limit))
    check_result_rows(want, width)
    return max(want, int(cap) + 1)


def check_host_room(nbytes: int, rows: int, hint: str = "") -> None:
    """Raise :class:`CapacityError` when ``nbytes`` more of results would not fit host memory.

    The GPU engines call it before they copy enumerated rows to the host: the free physical
    memory now (``SC_AVPHYS_PAGES``; no check where it cannot be read), not the budget.

    Parameters
    ----------
    nbytes : int
        Host bytes the copy needs.
    rows : int
        Number of match rows, for the message.
    hint : str
        Appended to the message's advice (e.g. the iterator to use instead).

    Raises
    ------
    CapacityError
        ``nbytes`` exceeds the free host memory.
    """
    try:
        avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return
    if nbytes > avail:
        raise CapacityError(
            f"enumeration output of {rows} matches ({nbytes / 2**30:.1f} GiB) does not fit the"
            f" {avail / 2**30:.1f} GiB of free host memory; pass limit= or iterate in blocks" + hint
        )
