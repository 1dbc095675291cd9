"""The engine contract: what every static and temporal engine module provides.

Execution (``nx_gpumine.execution``) validates a query, builds its plan and calls an engine
module through these functions only; engines may add keyword-only switches of their own
(the CUDA engines' ``steal=``, ``max_device_bytes=``, ...), which callers pass by name. An
engine module satisfies a protocol when it has each function with at least the positional
parameters listed here, in this order (``tests/test_engine_contract.py`` checks every module
of :data:`ENGINE_MODULES`).
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "ENGINE_MODULES",
    "StaticEngine",
    "TemporalEngine",
    "engine_module",
    "contract_violations",
]

#: The engine modules, by (problem kind, engine name): the one table ``select_engine`` reads.
ENGINE_MODULES: dict[tuple[str, str], str] = {
    ("static", "cpu"): "nx_gpumine.engines.cpu.static",
    ("static", "cuda"): "nx_gpumine.engines.cuda.static",
    ("temporal", "cpu"): "nx_gpumine.engines.cpu.temporal",
    ("temporal", "cuda"): "nx_gpumine.engines.cuda.temporal",
}


@runtime_checkable
class StaticEngine(Protocol):
    """Subgraph matching over root (union-CSR) entries ``[lo, hi)`` of a static plan."""

    def count(self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None) -> int:
        """Number of mappings rooted in ``[lo, hi)`` (64-bit; ``CapacityError`` beyond)."""
        ...

    def exists(self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None) -> bool:
        """Whether some mapping is rooted in ``[lo, hi)``."""
        ...

    def enumerate_matches(
        self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None, limit: int | None = None
    ) -> np.ndarray:
        """The mappings rooted in ``[lo, hi)`` as rows (at most ``limit``)."""
        ...


@runtime_checkable
class TemporalEngine(Protocol):
    """Temporal motif matching over root edge ids ``[lo, hi)``, plus the 3-edge census."""

    def count(self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None) -> int:
        """Number of matches whose first edge is in ``[lo, hi)``."""
        ...

    def exists(self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None) -> bool:
        """Whether some match starts in ``[lo, hi)``."""
        ...

    def enumerate_matches(
        self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None, limit: int | None = None
    ) -> np.ndarray:
        """The matches starting in ``[lo, hi)`` as rows of edge ids (at most ``limit``)."""
        ...

    def census(
        self, graph: Any, delta: Any, tie: str = "strict", lo: int = 0, hi: int | None = None
    ) -> np.ndarray:
        """Counts of the 36 three-edge motifs rooted in ``[lo, hi)``."""
        ...


_PROTOCOLS = {"static": StaticEngine, "temporal": TemporalEngine}


def engine_module(kind: str, name: str) -> ModuleType:
    """Import the engine module of ``kind`` ("static" / "temporal") and engine ``name``."""
    try:
        path = ENGINE_MODULES[(kind, name)]
    except KeyError:
        raise ValueError(f"no {kind} engine named {name!r}") from None
    return importlib.import_module(path)


def contract_violations(module: ModuleType, kind: str) -> list[str]:
    """What ``module`` lacks to satisfy the protocol of ``kind`` (empty: it satisfies it).

    Each protocol function must exist and accept the protocol's positional parameters, by
    name and in order, with the same defaults; further parameters must have defaults.
    """
    proto = _PROTOCOLS[kind]
    problems = []
    if not isinstance(module, proto):
        problems.append(f"{module.__name__}: not a {proto.__name__}")
    for name in ("count", "exists", "enumerate_matches", "census"):
        want_fn = getattr(proto, name, None)
        if want_fn is None:
            continue
        have_fn = getattr(module, name, None)
        if have_fn is None:
            problems.append(f"{module.__name__}.{name} is missing")
            continue
        want = list(inspect.signature(want_fn).parameters.values())[1:]  # without self
        have = list(inspect.signature(have_fn).parameters.values())
        for i, p in enumerate(want):
            if i >= len(have) or have[i].name != p.name:
                problems.append(f"{module.__name__}.{name}: parameter {i} should be {p.name!r}")
                break
            if have[i].kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                problems.append(f"{module.__name__}.{name}: {p.name!r} must be positional")
            if have[i].default != p.default:
                problems.append(
                    f"{module.__name__}.{name}: {p.name!r} defaults to {have[i].default!r},"
                    f" the contract says {p.default!r}"
                )
        for extra in have[len(want) :]:
            if extra.default is inspect.Parameter.empty and extra.kind not in (
                extra.VAR_POSITIONAL,
                extra.VAR_KEYWORD,
            ):
                problems.append(f"{module.__name__}.{name}: extra parameter {extra.name!r}")
    return problems
