"""A motif argument of the public temporal functions made one :class:`TemporalMotif`.

:func:`as_motif` is to motifs what :func:`~nx_gpumine.inputs.patterns.as_pattern` is to static
patterns: it accepts a :class:`~nx_gpumine.inputs.motifs.TemporalMotif`, a catalogue name
(``"M4"``, ``"triangle"``, ``"01 12 20"``...), Everest query text, a list of ``(a, b)`` edges or
an :class:`~nx_gpumine.inputs.everest_query.EverestQuery`, and applies the call's ``delta`` /
``tie``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ..errors import QueryError
from .everest_query import EverestQuery, parse_everest_query
from .motifs import TemporalMotif, named_motif

__all__ = ["UNSET", "as_motif"]

#: Default of ``delta=``: keep the motif's own window (``None`` would remove it).
UNSET: Any = object()


def as_motif(motif: Any, delta: Any = UNSET, tie: str | None = None) -> TemporalMotif:
    """Turn ``motif`` (object, name, edge list, EverestQuery) into a TemporalMotif.

    A catalogue name with the same ``delta`` (of the same type) and ``tie`` gives the same kept
    motif object on every call (motifs are immutable): a repeated call by name builds no motif.

    Parameters
    ----------
    motif : TemporalMotif, str, sequence of (int, int) or EverestQuery
        The query; a string is a catalogue name or Everest query text (holding ``pattern:``).
    delta : number, duration or None, optional
        Replaces the motif's window when given (``None`` removes it).
    tie : {"strict", "input_order"}, optional
        Replaces the motif's tie policy when given.

    Returns
    -------
    TemporalMotif

    Raises
    ------
    QueryError
        An unknown name, unreadable query text, or a ``motif`` of another type.
    """
    if isinstance(motif, EverestQuery):
        motif = motif.motif
    if isinstance(motif, str):
        if "pattern:" in motif:  # Everest query text (it may name a motif file: read each time)
            motif = parse_everest_query(motif).motif
        else:
            try:
                return _catalogue_motif(motif, delta, tie)
            except TypeError:  # an unhashable delta: not kept (with_ judges it)
                motif = named_motif(motif)
    elif not isinstance(motif, TemporalMotif):
        if isinstance(motif, Sequence):
            motif = TemporalMotif(list(motif))
        else:
            raise QueryError(
                f"motif must be a TemporalMotif, a catalogue name or a list of edges, "
                f"got {type(motif).__name__}"
            )
    return _with(motif, delta, tie)


def _with(motif: TemporalMotif, delta: Any, tie: str | None) -> TemporalMotif:
    changes: dict = {}
    if delta is not UNSET:
        changes["delta"] = delta
    if tie is not None:
        changes["tie"] = tie
    return motif.with_(**changes) if changes else motif


@functools.lru_cache(maxsize=256, typed=True)
def _catalogue_motif(name: str, delta: Any, tie: str | None) -> TemporalMotif:
    """A catalogue motif with the call's window and tie policy, kept (motifs are immutable): a
    repeated call by name then builds no motif (issue 9's per-call host time)."""
    return _with(named_motif(name), delta, tie)
