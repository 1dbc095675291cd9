"""Tuning objects of the CUDA engines: one frozen settings value per engine, swapped whole.

Each engine keeps its settings in one frozen dataclass (``static_build.StaticTuning``,
``temporal_tuning.TemporalTuning``): a value, hashable, and part of the keys of what it shapes
(launches kept with a plan, work buffers, out-of-core copies), so data built under one setting
never meet another. A :class:`TuningSlot` holds an engine's default and the value in force;
the engine reads :meth:`TuningSlot.current` at call time, and probes, tests and benchmarks
swap the whole value (:meth:`TuningSlot.tuned`, :meth:`TuningSlot.set`) instead of patching
module globals.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Iterator
from typing import Generic, TypeVar

__all__ = ["TuningSlot"]

T = TypeVar("T")


class TuningSlot(Generic[T]):
    """An engine's default settings and the settings in force (process-wide, every thread).

    Parameters
    ----------
    default : frozen dataclass
        The measured settings the engine runs with unless a caller swaps them.
    """

    def __init__(self, default: T) -> None:
        self.default = default
        self._current = default
        self._lock = threading.Lock()

    def current(self) -> T:
        """The settings in force (:attr:`default` unless swapped)."""
        return self._current

    def set(self, tuning: T | None = None) -> T:
        """Make ``tuning`` the settings in force (None: :attr:`default`).

        Parameters
        ----------
        tuning : frozen dataclass, optional
            The new settings.

        Returns
        -------
        frozen dataclass
            The settings before, to restore them.
        """
        with self._lock:
            before, self._current = self._current, self.default if tuning is None else tuning
        return before

    @contextlib.contextmanager
    def tuned(self, **changes: object) -> Iterator[T]:
        """Run a block with some settings changed (``with slot.tuned(page_log=8): ...``).

        Parameters
        ----------
        **changes
            Fields of the settings and their values for the block.

        Yields
        ------
        frozen dataclass
            The settings in force inside the block; the ones before are restored after it.
        """
        before = self.set(dataclasses.replace(self.current(), **changes))
        try:
            yield self.current()
        finally:
            self.set(before)
