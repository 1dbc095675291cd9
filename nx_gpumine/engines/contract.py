"""The engine contract: what every static and temporal engine module provides.

Execution (``nx_gpumine.execution``) validates a query, builds its plan and calls an engine
module through these functions only; engines may add keyword-only switches of their own
(the CUDA engines' ``steal=``, ``max_device_bytes=``, ...), which callers pass by name. An
engine module satisfies a protocol when it has each function with at least the positional
parameters listed here, in this order (``tests/test_engine_contract.py`` checks every module
of :data:`ENGINE_MODULES`).

Besides the protocol functions, an engine module may provide optional hooks
(:class:`EngineHooks`; which ones a kind's callers look for: :data:`OPTIONAL_HOOKS`). Callers
reach them only through :func:`optional_hook`, and :func:`contract_violations` checks the
signature of each one a module has.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "ENGINE_MODULES",
    "STATIC_MIN_K",
    "StaticEngine",
    "TemporalEngine",
    "RefineEngine",
    "LocalCountsEngine",
    "CensusEngine",
    "EngineHooks",
    "OPTIONAL_HOOKS",
    "engine_module",
    "optional_hook",
    "contract_violations",
]

#: The engine modules, by (kind, engine name): the one table ``select_engine`` (the two problem
#: kinds) and the auxiliary engines' callers (colour refinement for graph isomorphism, local
#: counts for the NetworkX backend) read.
ENGINE_MODULES: dict[tuple[str, str], str] = {
    ("static", "cpu"): "nx_gpumine.engines.cpu.static",
    ("static", "cuda"): "nx_gpumine.engines.cuda.static",
    ("temporal", "cpu"): "nx_gpumine.engines.cpu.temporal",
    ("temporal", "cuda"): "nx_gpumine.engines.cuda.temporal",
    ("refine", "cpu"): "nx_gpumine.engines.cpu.refine",
    ("refine", "cuda"): "nx_gpumine.engines.cuda.refine",
    ("local_counts", "cpu"): "nx_gpumine.engines.cpu.local_counts",
    ("local_counts", "cuda"): "nx_gpumine.engines.cuda.local_counts",
    ("census", "cpu"): "nx_gpumine.engines.cpu.census",
    ("census", "cuda"): "nx_gpumine.engines.cuda.census",
}


#: Smallest static plan (pattern nodes) execution hands to an engine. Execution answers 1- and
#: 2-node plans from the plan's masks (``execution.static.small_plan_result``), on every route;
#: called directly with a smaller plan, an engine either walks it or raises ValueError (the
#: CUDA engine raises for k <= 2, the CPU engine for k = 1 and walks k = 2).
STATIC_MIN_K = 3


@runtime_checkable
class StaticEngine(Protocol):
    """Subgraph matching over root (union-CSR) entries ``[lo, hi)`` of a static plan (execution
    passes plans of :data:`STATIC_MIN_K` or more nodes)."""

    def count(self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None) -> int:
        """Number of mappings rooted in ``[lo, hi)`` (exact to 2**128 - 1; ``CapacityError``
        beyond)."""
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


@runtime_checkable
class RefineEngine(Protocol):
    """Colour refinement of two graphs side by side (``interfaces/graph_iso.py``'s isomorphism
    test): the steps its search calls. Arrays are the engine's (NumPy or CuPy)."""

    def verify(self, col: Any, n: int, out_ptr: Any, out_idx: Any, out_lab: Any) -> np.ndarray:
        """Whether the colouring maps graph 1 onto graph 2 edge for edge."""
        ...

    def accumulate(self, arrays: tuple, col: Any) -> Any:
        """Each vertex's hash of its neighbours' colours (one refinement step's input)."""
        ...

    def stable_colours(self, arrays: tuple, col: Any, n: int) -> tuple[Any, int]:
        """Refine ``col`` until stable; the colours and their number."""
        ...

    def scan(
        self,
        arrays: tuple,
        col: Any,
        acc: Any,
        n: int,
        v: int,
        cands: np.ndarray,
        start: int,
        depth: int,
    ) -> tuple[int, Any, int]:
        """Try the candidates of vertex ``v`` from ``start``: the first that refines to a
        consistent colouring, its colours and the steps taken."""
        ...


@runtime_checkable
class LocalCountsEngine(Protocol):
    """Per-vertex triangle and square counts of an undirected CSR (the NetworkX backend's
    ``triangles``, ``clustering``, ``square_clustering``)."""

    def triangle_counts(self, indptr: Any, indices: Any) -> Any:
        """Triangles through each vertex."""
        ...

    def directed_triangle_counts(self, indptr: Any, indices: Any, weight: Any) -> Any:
        """Directed triangles through each vertex (``weight``: direction counts per entry)."""
        ...

    def square_counts(self, indptr: Any, indices: Any) -> tuple[Any, Any]:
        """Squares through each vertex, and the normalising pair counts."""
        ...


@runtime_checkable
class CensusEngine(Protocol):
    """The subgraph census's building blocks (:data:`nx_gpumine.plan.graphlets.CENSUS_BLOCKS`:
    degree sums, triangles and the sums over each edge's triangles) of an undirected graph."""

    def census_blocks(self, graph: Any, names: Any, stats: dict) -> dict[str, int]:
        """The wanted blocks ``names`` this engine computes, as exact ints (device time, where
        there is one, added to ``stats["kernel_ms"]``)."""
        ...


class EngineHooks(Protocol):
    """Optional engine functions: a module may have any of them (:data:`OPTIONAL_HOOKS` says
    which ones callers of each kind look for); callers fall back when one is absent."""

    def unsupported(self, plan: Any) -> str | None:
        """Why this engine cannot run ``plan`` (None: it can); ``select_engine`` then refuses
        it, or with ``engine="auto"`` picks the CPU engine (CUDA engines: size limits)."""
        ...

    def iter_matches(
        self, graph: Any, plan: Any, lo: int = 0, hi: int | None = None
    ) -> Iterator[np.ndarray]:
        """The mappings rooted in ``[lo, hi)`` as bounded blocks of rows, produced lazily
        (static; the CPU engine). Without it, lazy iteration lists each task at once."""
        ...

    def whole_range_count(self, graph: Any, plan: Any) -> bool:
        """Whether ``count`` over all roots runs one whole-range kernel that cannot be split,
        so a multi-device caller runs it whole on one device (static; the CUDA engine's book
        and bowtie kernels, the CPU engine's census block formulas)."""
        ...

    def count_part(self, graph: Any, plan: Any, part: int, parts: int) -> int:
        """Part ``part`` of ``parts`` of ``count`` over all roots, the parts of about equal
        work and adding up to the whole count (static; the CUDA engine deals its heavy-first
        work lists out in turn). Without it, a multi-device count splits into root ranges."""
        ...

    def search_order(self, graph: Any, plan: Any) -> str:
        """The vertex order this engine counts ``plan`` on ``graph`` fastest in: ``"degree"``
        (the degree-ordered copy, :func:`nx_gpumine.inputs.search_order.search_ordered`) or
        ``"id"`` (the graph's own ids); static. Without it, ``"degree"`` for every plan with
        symmetry conditions (``execution.static.on_search_copy``)."""
        ...

    def count_table(self, graph: Any, motifs: Any, windows: Any) -> list[list[int]]:
        """Per motif (``TemporalMotif`` values in the graph's time unit, each with the table's
        widest window), its counts within each of the ascending ``windows`` and then its own
        count, all in one pass (temporal; the CPU engine walks plain motifs together on their
        shared prefixes and bins each match by its span). Without it, a motif table counts
        each (motif, window) in its own call."""
        ...

    def release(self, graph: Any) -> None:
        """Free the current device's data of ``graph`` (temporal; the CUDA engine), called by
        the multi-device scheduler after each time-partition slice under a device budget."""
        ...


#: The optional hooks (:class:`EngineHooks`) callers look for, by problem kind.
OPTIONAL_HOOKS: dict[str, tuple[str, ...]] = {
    "static": ("unsupported", "iter_matches", "whole_range_count", "count_part", "search_order"),
    "temporal": ("unsupported", "release", "count_table"),
    "refine": (),
    "local_counts": (),
    "census": (),
}

_PROTOCOLS = {
    "static": StaticEngine,
    "temporal": TemporalEngine,
    "refine": RefineEngine,
    "local_counts": LocalCountsEngine,
    "census": CensusEngine,
}


def _protocol_functions(proto: type) -> list[str]:
    """The functions a protocol requires, in the order it declares them."""
    return [k for k, v in vars(proto).items() if not k.startswith("_") and callable(v)]


_HOOK_NAMES = frozenset(name for names in OPTIONAL_HOOKS.values() for name in names)


def engine_module(kind: str, name: str) -> ModuleType:
    """Import the engine module of ``kind`` ("static" / "temporal") and engine ``name``.

    Parameters
    ----------
    kind : {"static", "temporal", "refine", "local_counts", "census"}
        Which problem (or auxiliary engine).
    name : {"cpu", "cuda"}
        A resolved engine name (``"auto"`` is :func:`nx_gpumine.engines.select_engine`'s).

    Returns
    -------
    module
        The module :data:`ENGINE_MODULES` names, imported on first use.

    Raises
    ------
    ValueError
        No such engine in the table.
    """
    module = _IMPORTED.get((kind, name))
    if module is None:  # first use (later calls skip the import machinery)
        try:
            path = ENGINE_MODULES[(kind, name)]
        except KeyError:
            raise ValueError(f"no {kind} engine named {name!r}") from None
        module = _IMPORTED[(kind, name)] = importlib.import_module(path)
    return module


#: The engine modules imported so far, by ``(kind, name)``.
_IMPORTED: dict[tuple[str, str], ModuleType] = {}


def optional_hook(module: ModuleType, name: str) -> Callable[..., Any] | None:
    """The optional hook ``name`` of an engine module, or None when the module lacks it.

    Parameters
    ----------
    module : module
        An engine module (as ``select_engine`` returns it).
    name : str
        One of the hooks of :class:`EngineHooks`.

    Returns
    -------
    callable or None
        The module's function (looked up at call time, so a patched one is seen).

    Raises
    ------
    ValueError
        ``name`` is not a declared hook (a typo would otherwise read as "absent").
    """
    if name not in _HOOK_NAMES:
        raise ValueError(f"{name!r} is not an optional engine hook ({sorted(_HOOK_NAMES)})")
    return getattr(module, name, None)


def _signature_problems(module: ModuleType, name: str, want_fn: Any, have_fn: Any) -> list[str]:
    """How ``have_fn`` departs from the positional parameters of the protocol's ``want_fn``."""
    problems = []
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


def contract_violations(module: ModuleType, kind: str) -> list[str]:
    """What ``module`` lacks to satisfy the protocol of ``kind`` (empty: it satisfies it).

    Parameters
    ----------
    module : module
        The engine module to check.
    kind : {"static", "temporal", "refine", "local_counts", "census"}
        Which protocol (:class:`StaticEngine`, :class:`TemporalEngine`, :class:`RefineEngine`
        or :class:`LocalCountsEngine`).

    Returns
    -------
    list of str
        One line per problem. Each protocol function must exist and accept the protocol's
        positional parameters, by name and in order, with the same defaults; further
        parameters must have defaults. Each optional hook of ``kind``
        (:data:`OPTIONAL_HOOKS`) the module has is held to :class:`EngineHooks` the same way.
    """
    proto = _PROTOCOLS[kind]
    problems = []
    if not isinstance(module, proto):
        problems.append(f"{module.__name__}: not a {proto.__name__}")
    for name in _protocol_functions(proto):
        want_fn = getattr(proto, name)
        have_fn = getattr(module, name, None)
        if have_fn is None:
            problems.append(f"{module.__name__}.{name} is missing")
            continue
        problems += _signature_problems(module, name, want_fn, have_fn)
    for name in OPTIONAL_HOOKS[kind]:
        have_fn = getattr(module, name, None)
        if have_fn is not None:
            problems += _signature_problems(module, name, getattr(EngineHooks, name), have_fn)
    return problems
