"""Dispatch of the ``gpumine`` backend: which calls it serves, and ``can_run``/``should_run``.

NetworkX asks :func:`can_run` before converting anything; it binds the call with the installed
NetworkX function's own signature (:func:`bind_call`) and refuses, cheaply and with a reason,
what the backend does not serve: unknown functions or keywords, an engine that is not
available, graphs that did not keep the attributes a call labels with, multigraph or mixed
calls NetworkX's own rules decide, disconnected or too large subgraph patterns (see
``docs/backend.md``). NetworkX then falls back where allowed; on a ``backend="gpumine"`` call
the refusal is raised with its reason (:func:`can_run`), and an unknown engine name is a
``ValueError``. :func:`should_run` declines, under automatic dispatch only, the calls of cheap
functions on graphs so small that NetworkX answers sooner (:data:`MIN_WORTHWHILE_SIZE`). The
engine a call runs on is chosen here too (:func:`call_engine`, from
``nx.config.backends.gpumine.engine``).
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import sys
import time
from typing import Any

import networkx as nx

from ..errors import QueryError
from ..inputs.backend_graph import MULTI_DATA, GpumineGraph, attr_names
from ..inputs.static_graph import NO_DEFAULT, LabelSpec, StaticGraph
from .backend_info import BACKEND_NAME, ENGINE_ENV

__all__ = [
    "SERVED",
    "ISO_FUNCTIONS",
    "SUBGRAPH_FUNCTIONS",
    "COUNT_FUNCTIONS",
    "COULD_FUNCTIONS",
    "ATTR_FUNCTIONS",
    "MAX_SUBGRAPH_NODES",
    "MIN_WORTHWHILE_SIZE",
    "BoundCall",
    "bind_call",
    "configured_engine",
    "call_engine",
    "log_first_use",
    "can_run",
    "should_run",
]

logger = logging.getLogger("nx_gpumine")

#: Largest ``SG`` (nodes) the subgraph functions take: the engines' patterns are small
#: (:data:`nx_gpumine.inputs.patterns.MAX_PATTERN_NODES`); larger ones are refused by can_run.
MAX_SUBGRAPH_NODES = 64

# ====================================================================== served functions
#: Dispatched functions served here, by family: graph isomorphism.
ISO_FUNCTIONS = (
    "is_isomorphic",
    "vf2pp_is_isomorphic",
    "vf2pp_isomorphism",
    "vf2pp_all_isomorphisms",
)
#: The subgraph dispatchables of NetworkX's development version: (induced, what is returned).
SUBGRAPH_FUNCTIONS: dict[str, tuple[bool, str]] = {
    "vf2pp_subgraph_is_isomorphic": (True, "bool"),
    "vf2pp_subgraph_isomorphism": (True, "first"),
    "vf2pp_all_subgraph_isomorphisms": (True, "all"),
    "vf2pp_is_monomorphic": (False, "bool"),
    "vf2pp_monomorphism": (False, "first"),
    "vf2pp_all_monomorphisms": (False, "all"),
}
#: Per-node counts (one graph argument).
COUNT_FUNCTIONS = (
    "triangles",
    "transitivity",
    "clustering",
    "average_clustering",
    "square_clustering",
)
#: The invariant checks: degree, triangle and maximal-clique sequences compared.
COULD_FUNCTIONS = (
    "could_be_isomorphic",
    "fast_could_be_isomorphic",
    "faster_could_be_isomorphic",
)
#: Node attribute helpers on converted graphs (no engine: they read or edit the kept data).
ATTR_FUNCTIONS = ("set_node_attributes", "get_node_attributes")
#: Every dispatched function the backend serves (``get_info`` documents the same names).
SERVED = (
    *ISO_FUNCTIONS,
    *SUBGRAPH_FUNCTIONS,
    *COUNT_FUNCTIONS,
    *COULD_FUNCTIONS,
    *ATTR_FUNCTIONS,
)


# ====================================================================== binding
@functools.cache
def _signature(name: str) -> inspect.Signature | None:
    """The installed NetworkX function's own signature (None if NetworkX lacks it)."""
    from networkx.utils.backends import _registered_algorithms

    func = _registered_algorithms.get(name)
    if func is None:
        return None
    return inspect.signature(func)


class BoundCall(dict):
    """A dispatched call's arguments by parameter name (defaults applied).

    Attributes
    ----------
    graphs : tuple
        The graph arguments: the first two parameters (one for the counts and the attribute
        helpers).
    extra : dict
        The backend keywords (``backend_kwargs``, e.g. ``engine``).
    """

    graphs: tuple
    extra: dict


def bind_call(name: str, args: tuple, kwargs: dict) -> BoundCall:
    """Bind a call with the installed NetworkX signature (NetworkX's development version names
    vf2pp's graphs FG, SG).

    Parameters
    ----------
    name : str
        The dispatched function.
    args, kwargs
        The call's arguments, as NetworkX passes them to :func:`can_run`.

    Returns
    -------
    BoundCall

    Raises
    ------
    TypeError
        The arguments do not fit the signature, or NetworkX lacks the function.
    """
    sig = _signature(name)
    if sig is None:
        raise TypeError(f"the installed NetworkX has no dispatchable {name!r}")
    ba = sig.bind(*args, **kwargs)
    ba.apply_defaults()
    out = BoundCall(ba.arguments)
    params = list(sig.parameters)
    ngraphs = 1 if name in COUNT_FUNCTIONS or name in ATTR_FUNCTIONS else 2
    out.graphs = tuple(out[p] for p in params[:ngraphs])
    out.extra = dict(out.pop("backend_kwargs", {}) or {})
    out.pop("backend", None)
    return out


# ====================================================================== engines
def configured_engine() -> str:
    """The configured engine: ``nx.config.backends.gpumine.engine``, else ``NX_GPUMINE_ENGINE``.

    Returns
    -------
    str
        ``"auto"``, ``"cpu"`` or ``"cuda"`` (or whatever was configured: :func:`can_run`
        refuses other values).
    """
    try:
        return nx.config.backends[BACKEND_NAME].engine
    except (AttributeError, KeyError):
        return os.environ.get(ENGINE_ENV, "auto")


def call_engine(engine: str | None) -> str:
    """The engine a call runs on: ``"cpu"`` or ``"cuda"`` (``"auto"`` resolved, logged).

    Parameters
    ----------
    engine : {"auto", "cpu", "cuda"} or None
        The call's ``engine`` keyword; None for the configured one.

    Returns
    -------
    str
    """
    from ..engines import resolve_engine_name

    wanted = engine if engine is not None else configured_engine()
    name = resolve_engine_name(wanted)
    logger.debug("gpumine: engine %r (asked for %r)", name, wanted)
    return name


def _engine_problem(engine: Any) -> str | None:
    """Why the call's engine cannot run here, or None; an unknown engine name raises.

    Raises
    ------
    QueryError
        A ``ValueError``: the ``engine`` keyword or the configured engine is no engine name
        (a typo such as ``engine="gpu"`` is an error, not a refusal to fall back from).
    """
    from ..engines import ENGINE_NAMES, cuda_available

    wanted = engine if engine is not None else configured_engine()
    if not isinstance(wanted, str) or wanted not in ENGINE_NAMES:
        source = (
            "the engine= keyword"
            if engine is not None
            else f"nx.config.backends.{BACKEND_NAME}.engine (or {ENGINE_ENV})"
        )
        raise QueryError(f"{source} must be one of {ENGINE_NAMES}, got {wanted!r}")
    if wanted == "cuda" and not cuda_available():
        return "engine 'cuda' is configured but CuPy sees no CUDA GPU (use 'cpu' or 'auto')"
    return None


_FIRST_USE: set = set()


def log_first_use(what: str, t0: float) -> None:
    """Log the first call of an engine path in this process (numba compiles or loads then).

    Parameters
    ----------
    what : str
        The engine path, e.g. ``"isomorphism search (cpu)"``.
    t0 : float
        ``time.perf_counter()`` when the call began.
    """
    if what not in _FIRST_USE:
        _FIRST_USE.add(what)
        logger.info(
            "gpumine: first use of %s took %.2f s (numba compile or cache load)",
            what,
            time.perf_counter() - t0,
        )


# ====================================================================== can_run
def _graph_problem(G: Any) -> str | None:
    if isinstance(G, GpumineGraph | StaticGraph | nx.Graph):
        return None
    return f"{type(G).__name__} is not a graph the backend converts"


def _labels_problem(G: Any, attr: Any, kind: str, default: Any = None) -> str | None:
    """Whether a backend graph kept the attribute a call labels with (and its default)."""
    if attr is None:
        return None
    if isinstance(G, GpumineGraph):
        ok = G.has_node_attr(attr) if kind == "node" else G.has_edge_attr(attr)
    elif isinstance(G, StaticGraph):
        spec = G.node_label_spec if kind == "node" else G.edge_label_spec
        ok = spec is not None and tuple(attr_names(spec.attr)) == tuple(attr_names(attr))
        if ok:
            return _static_default_problem(spec, attr, default, kind)
    else:
        return None
    if not ok:
        return f"the converted graph did not keep {kind} attribute {attr!r}"
    return None


def _all_data_problem(G: Any, kind: str) -> str | None:
    """A matcher callable needs every attribute: a StaticGraph or a partial conversion lacks it."""
    if isinstance(G, StaticGraph):
        return f"a StaticGraph keeps no {kind} data for a {kind}_match callable"
    if isinstance(G, GpumineGraph):
        kept = G.node_attrs_kept if kind == "node" else G.edge_attrs_kept
        if kept is not True and not (kind == "edge" and G.multigraph and MULTI_DATA in kept):
            return f"the converted graph did not keep all {kind} attributes for {kind}_match"
    return None


def _static_default_problem(spec: Any, attr: Any, default: Any, kind: str) -> str | None:
    """A StaticGraph stores labels with its own default already filled in: a call whose default
    differs could then pair a missing value with a present one, so it is refused."""
    if spec.default is NO_DEFAULT:  # every node/edge had the attribute: no default was used
        return None
    wanted = LabelSpec.of(attr, default).default
    try:
        same = bool(wanted == spec.default)
    except Exception:  # incomparable defaults are treated as different
        same = False
    if same:
        return None
    return (
        f"the StaticGraph filled missing {kind} attribute {attr!r} with {spec.default!r}, "
        f"but the call's default is {default!r}"
    )


def _iso_can_run(name: str, b: BoundCall) -> bool | str:
    G1, G2 = b.graphs
    if G1.is_multigraph() != G2.is_multigraph():
        return "one graph is a multigraph and the other is not (NetworkX's own rules apply)"
    if name == "is_isomorphic":
        from .isomorphism import categorical_label

        for kind, match in (("node", b.get("node_match")), ("edge", b.get("edge_match"))):
            if match is None:
                continue
            cat = categorical_label(match)
            multi_edge = kind == "edge" and G1.is_multigraph()
            for G in (G1, G2):
                if cat is not None and not multi_edge:
                    problem = _labels_problem(G, cat[0], kind, cat[1])
                else:
                    problem = _all_data_problem(G, kind)
                if problem:
                    return problem
        return True
    return _node_label_problem(b, (G1, G2)) or True


def _node_label_problem(b: BoundCall, graphs: tuple, tuples: bool = True) -> str | None:
    """Why ``node_label`` (with ``default_label``) cannot be served on ``graphs``, or None.

    ``tuples``: a tuple may name the attribute (False: the caller matches one attribute).
    """
    attr = b.get("node_label")
    if attr is None:
        return None
    try:
        hash(attr)
    except TypeError:
        return "node_label is not hashable"
    if not tuples and isinstance(attr, tuple):
        return "node_label names a tuple (a single attribute is matched)"
    for G in graphs:
        problem = _labels_problem(G, attr, "node", b.get("default_label"))
        if problem:
            return problem
    return None


def _connected_problem(G: Any) -> str | None:
    if isinstance(G, GpumineGraph):
        ok = len(G) <= 1 or G.is_connected()
    elif isinstance(G, StaticGraph):
        ok = G.n <= 1 or GpumineGraph.from_static(G).is_connected()
    else:
        ok = len(G) <= 1 or (nx.is_weakly_connected(G) if G.is_directed() else nx.is_connected(G))
    return None if ok else "SG is disconnected (the engines match connected patterns)"


def _subgraph_can_run(name: str, b: BoundCall) -> bool | str:
    FG, SG = b.graphs
    if FG.is_multigraph() or SG.is_multigraph():
        return "multigraph subgraph matching is left to NetworkX"
    if len(SG) > MAX_SUBGRAPH_NODES:
        return f"SG has {len(SG)} nodes; the engines take patterns of at most {MAX_SUBGRAPH_NODES}"
    return _node_label_problem(b, (FG, SG), tuples=False) or _connected_problem(SG) or True


def _count_can_run(name: str, b: BoundCall) -> bool | str:
    (G,) = b.graphs
    if G.is_multigraph():
        return f"{name} of a multigraph is left to NetworkX"
    if b.get("weight") is not None:
        return f"weighted {name} is left to NetworkX"
    if G.is_directed() and name in ("triangles", "transitivity", "square_clustering"):
        return f"{name} of a directed graph (successor sets) is left to NetworkX"
    return True


def _attr_can_run(name: str, b: BoundCall) -> bool | str:
    (G,) = b.graphs
    if isinstance(G, StaticGraph):
        return f"{name} of a StaticGraph (its labels are fixed) is left to NetworkX"
    if name == "get_node_attributes":
        attr = b["name"]
        try:
            hash(attr)
        except TypeError:
            return "the attribute name is not hashable"
        if isinstance(G, GpumineGraph) and not G.has_node_attr(attr):
            return f"the converted graph did not keep node attribute {attr!r}"
    return True


def can_run(name: str, args: tuple, kwargs: dict) -> bool | str:
    """Whether the backend serves this call (cheap: nothing is searched or counted here).

    Parameters
    ----------
    name : str
        The dispatched function.
    args, kwargs
        The call's arguments (graphs not converted yet).

    Returns
    -------
    bool or str
        True, or why not (NetworkX logs it and falls back where allowed).

    Raises
    ------
    NotImplementedError
        The call is refused and was made with ``backend="gpumine"``: the message gives the
        reason (NetworkX 3.6 would raise its own message without it, see
        :func:`_explicit_backend_call`).
    QueryError
        A ``ValueError``: the engine name (keyword or configured) is not an engine.
    """
    reason = _can_run(name, args, kwargs)
    if reason is not True:
        logger.info("gpumine: not running %s: %s (NetworkX decides on fallback)", name, reason)
        if _explicit_backend_call():
            raise NotImplementedError(
                f"'{name}' is not run by the '{BACKEND_NAME}' backend for the given arguments, "
                f"because: {reason}. No other backend is tried: the call gave "
                f"backend='{BACKEND_NAME}'."
            )
    return reason


#: How many frames above :func:`can_run` NetworkX's dispatcher may be (can_run, the
#: staticmethod call site ``_can_backend_run``, then the dispatcher; a margin for wrappers).
_DISPATCH_FRAME_DEPTH = 6


def _explicit_backend_call() -> bool:
    """Whether NetworkX's dispatcher asks on behalf of a ``backend="gpumine"`` call.

    NetworkX (3.6) keeps ``can_run``'s reason for its debug log only: an explicit
    ``backend="gpumine"`` call it refuses raises a bare "not implemented ... for the given
    arguments". Nothing in ``can_run``'s arguments says whether the backend was named (the
    ``backend`` keyword is taken off before), so this looks for the dispatcher's frame, whose
    ``backend`` parameter holds the name given (never reassigned there). Priority lists,
    graph-type dispatch and NetworkX's test mode pass ``backend=None``: there the reason is
    returned and NetworkX falls back as before. Only refused calls get here, so the frame walk
    costs nothing on calls that run.
    """
    frame = sys._getframe(2)  # above can_run's caller
    for _ in range(_DISPATCH_FRAME_DEPTH):
        if frame is None:
            return False
        code = frame.f_code
        if (
            code.co_name == "_call_if_any_backends_installed"
            and frame.f_globals.get("__name__") == "networkx.utils.backends"
        ):
            return frame.f_locals.get("backend") == BACKEND_NAME
        frame = frame.f_back
    return False


def _can_run(name: str, args: tuple, kwargs: dict) -> bool | str:
    if name not in SERVED:
        return f"{name} is not implemented by the gpumine backend"
    try:
        b = bind_call(name, args, kwargs)
    except TypeError as exc:
        return f"arguments do not bind to {name}: {exc}"
    unknown = set(b.extra) - (set() if name in ATTR_FUNCTIONS else {"engine"})
    if unknown:
        return f"unknown keyword arguments {sorted(unknown)}"
    if name in ATTR_FUNCTIONS:
        return _graph_problem(b.graphs[0]) or _attr_can_run(name, b)
    problem = _engine_problem(b.extra.get("engine"))
    if problem:
        return problem
    for G in b.graphs:
        problem = _graph_problem(G)
        if problem:
            return problem
    if name in COUNT_FUNCTIONS:
        return _count_can_run(name, b)
    if name in COULD_FUNCTIONS:
        return True  # any two graphs: NetworkX's own errors are raised as NetworkX raises them
    if b.graphs[0].is_directed() != b.graphs[1].is_directed() and name in ISO_FUNCTIONS[1:]:
        # NetworkX 3.6's vf2pp has no rule for mixed directedness: leave the call to it
        return "the graphs differ in directedness (NetworkX's own behaviour applies)"
    if name in ISO_FUNCTIONS:
        return _iso_can_run(name, b)
    return _subgraph_can_run(name, b)


#: Smallest size (nodes + edges of the first graph) at which the backend, conversion included,
#: answers sooner than NetworkX; :func:`should_run` declines smaller calls under automatic
#: dispatch. Measured (2026-11, 2-core x86 VM, CPU engine warm, NetworkX 3.6.1, min of 5 calls
#: of ``gnm_random_graph`` at average degree 3, 8 and 32, the backend timed through a priority
#: list with the conversion cache cleared): on an idle machine the two times cross at about 700
#: for ``triangles`` (NetworkX's set intersections stay close up to 16k edges: at best 1.6x
#: here), 80-100 for ``clustering``/``transitivity``/``average_clustering`` and
#: ``could_be_isomorphic``, 150 for ``square_clustering``, 320 for ``fast_could_be_isomorphic``;
#: below them NetworkX takes 0.01-0.3 ms against the backend's ~0.1-0.2 ms fixed cost
#: (conversion and an engine launch). While another process holds a core, each parallel numba
#: launch (OpenMP, 2 threads) waits 12-16 ms for its second thread, the 20-40 ms of issue 37.
#: The thresholds are therefore at least twice the idle crossover and no lower than where
#: NetworkX itself takes about 1 ms (triangles 1.0 ms at 1280, clustering 0.7-1.6 ms at
#: 320-640, square_clustering 0.9 ms at 320, could_be_isomorphic 0.8-1.7 ms at 160-320,
#: fast_could_be_isomorphic 1.1 ms at 640): calls NetworkX answers in under a millisecond stay
#: there. ``faster_could_be_isomorphic`` (degree sequences only) was faster in NetworkX at every
#: size (0.01 ms at 8 nodes, 3 ms at 4096, against 0.08 and 17 ms), so it is always declined.
#: The isomorphism and subgraph searches are not listed: the backend led from 16 nodes and
#: NetworkX's search can grow exponentially.
MIN_WORTHWHILE_SIZE: dict[str, int] = {
    "triangles": 1500,
    "clustering": 400,
    "transitivity": 400,
    "average_clustering": 400,
    "square_clustering": 400,
    "could_be_isomorphic": 400,
    "fast_could_be_isomorphic": 800,
}
#: Functions NetworkX answers faster at every measured size (see :data:`MIN_WORTHWHILE_SIZE`).
NEVER_WORTHWHILE = frozenset({"faster_could_be_isomorphic"})


def _size_at_least(G: Any, threshold: int) -> bool:
    """Whether nodes + edges of ``G`` reach ``threshold``, counting edges only on small graphs.

    Counting a NetworkX graph's edges walks its nodes, so a graph with ``threshold`` nodes or
    more is accepted without counting: the check stays cheaper than the smallest call it judges.
    """
    n = len(G)
    if n >= threshold:
        return True
    return n + G.number_of_edges() >= threshold


def should_run(name: str, args: tuple, kwargs: dict) -> bool | str:
    """Whether running here is worthwhile when NetworkX chooses the backend by priority.

    NetworkX asks only on automatic dispatch (a priority list converting NetworkX graphs),
    never for a ``backend="gpumine"`` call or graphs already converted. Cheap functions on
    small graphs are declined (:data:`MIN_WORTHWHILE_SIZE`, :data:`NEVER_WORTHWHILE`): NetworkX
    answers them before the graph is converted here. The searches and larger counts run here.

    Parameters
    ----------
    name : str
        The dispatched function.
    args, kwargs
        The call's arguments (already accepted by :func:`can_run`).

    Returns
    -------
    bool or str
        True, or why NetworkX should run the call (NetworkX logs the reason).
    """
    if name in NEVER_WORTHWHILE:
        return f"NetworkX compares degree sequences faster than {BACKEND_NAME} converts graphs"
    threshold = MIN_WORTHWHILE_SIZE.get(name)
    if threshold is None:
        return True
    try:
        G = bind_call(name, args, kwargs).graphs[0]
    except TypeError:  # can_run refused it already; nothing to judge
        return True
    if _size_at_least(G, threshold):
        return True
    return (
        f"{name} of a graph with fewer than {threshold} nodes + edges is faster in NetworkX "
        "than converting it"
    )
