"""What every ``nx-gpumine`` subcommand shares: errors and exit codes, the bundled data sets,
the engine choice, progress notes and timing."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "DATASETS",
    "EXIT_OK",
    "EXIT_INTERNAL",
    "EXIT_USER",
    "EXIT_MISMATCH",
    "EXIT_SIGINT",
    "EXIT_SIGPIPE",
    "EXIT_SIGTERM",
    "CliError",
    "MismatchError",
    "Status",
    "count_arg",
    "seconds_arg",
    "engine_available",
    "progress_default",
    "resolve_engine",
    "timed",
]

_DATA = Path(__file__).resolve().parents[2] / "data"
DATASETS = {
    "facebook": _DATA / "facebook_combined.txt",
    "collegemsg": _DATA / "collegemsg.txt",
}

EXIT_OK, EXIT_INTERNAL, EXIT_USER, EXIT_MISMATCH = 0, 1, 2, 3
# 128 + the signal's number, as a shell reports a program the signal ended: SIGINT, SIGPIPE
# (the reader of the output went away, as ``| head`` does), SIGTERM
EXIT_SIGINT, EXIT_SIGPIPE, EXIT_SIGTERM = 130, 141, 143


class CliError(Exception):
    """A user error: reported as one line on stderr, exit status 2."""


class MismatchError(Exception):
    """A cross-check against NetworkX failed: exit status 3."""


def engine_available(name: str, kind: str) -> bool:
    """Whether engine ``name`` ("cpu"/"cuda") has a module for ``kind`` here (and a GPU)."""
    from ...engines import cuda_available
    from ...engines.contract import ENGINE_MODULES

    if name == "cuda" and not cuda_available():
        return False
    return (kind, name) in ENGINE_MODULES


def resolve_engine(engine: str, kind: str) -> str:
    """``auto`` -> ``cuda`` where a GPU and a CUDA engine for ``kind`` exist, else ``cpu``
    (the library's own rule, :func:`nx_gpumine.engines.resolve_engine_name`).

    Raises
    ------
    CliError
        An unknown name, or ``cuda`` asked for but not available for this kind of problem.
    """
    from ...engines import ENGINE_NAMES, resolve_engine_name
    from ...errors import EngineUnavailableError

    if engine not in ENGINE_NAMES:
        raise CliError(f"--engine must be one of {', '.join(ENGINE_NAMES)}, got {engine!r}")
    try:
        name = resolve_engine_name(engine)
    except EngineUnavailableError:
        name = None
    if name is None or not engine_available(name, kind):
        raise CliError(
            f"the {engine} engine for {kind} problems is not available here (no GPU/CuPy, or not "
            "in this version); use --engine cpu"
        )
    return name


class Status:
    """Progress notes on stderr: tqdm bars come from the library; plain lines without tqdm."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        try:
            import tqdm  # noqa: F401

            self.tqdm = True
        except ImportError:
            self.tqdm = False

    def note(self, msg: str) -> None:
        """Print ``msg`` on stderr when notes are on."""
        if self.enabled:
            print(f"[nx-gpumine] {msg}", file=sys.stderr, flush=True)

    @property
    def bars(self) -> bool:
        """Whether the library should draw its tqdm bars."""
        return self.enabled and self.tqdm


def count_arg(text: str) -> int:
    """An argparse ``type``: a whole number >= 0, written ``1000000``, ``1_000_000`` or
    ``1e6``."""
    try:
        value = int(text)
    except ValueError:
        try:
            x = float(text)
        except ValueError:
            x = math.nan
        if not (math.isfinite(x) and x == int(x)):
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        value = int(x)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def seconds_arg(text: str) -> float:
    """An argparse ``type``: a number of seconds >= 0 (``90``, ``2.5``, ``1e3``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}")
    return value


def progress_default() -> bool:
    """Progress notes by default only when stderr is a terminal."""
    return sys.stderr.isatty()


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """``fn()`` and the seconds it took."""
    t0 = time.perf_counter()
    r = fn()
    return r, time.perf_counter() - t0
