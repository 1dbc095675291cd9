"""Dispatch of the ``gpumine`` backend: which calls it serves, and ``can_run``/``should_run``.

NetworkX asks :func:`can_run` before converting anything; it binds the call with the installed
NetworkX function's own signature (:func:`bind_call`) and refuses, cheaply and with a reason,
what the backend does not serve: unknown functions or keywords, an engine that is not
available, graphs that did not keep the attributes a call labels with, multigraph or mixed
calls NetworkX's own rules decide, disconnected or too large subgraph patterns (see
``docs/backend.md``). NetworkX then falls back where allowed. The engine a call runs on is
chosen here too (:func:`call_engine`, from ``nx.config.backends.gpumine.engine``).
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import time
from typing import Any

import networkx as nx

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
#: NetworkX 3.7's subgraph dispatchables: (induced, what is returned).
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
    """Bind a call with the installed NetworkX signature (3.7 names vf2pp's graphs FG, SG).

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
    from ..engines import ENGINE_NAMES, cuda_available

    wanted = engine if engine is not None else configured_engine()
    if wanted not in ENGINE_NAMES:
        return f"engine must be one of {ENGINE_NAMES}, got {wanted!r}"
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
    """
    reason = _can_run(name, args, kwargs)
    if reason is not True:
        logger.info("gpumine: not running %s: %s (NetworkX decides on fallback)", name, reason)
    return reason


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


def should_run(name: str, args: tuple, kwargs: dict) -> bool | str:
    """Whether running here is worthwhile when NetworkX chooses the backend by priority.

    Every call :func:`can_run` accepts is worth running here: the isomorphism search is linear
    in the graph per refinement, the counts are compiled loops.

    Parameters
    ----------
    name : str
        The dispatched function.
    args, kwargs
        The call's arguments.

    Returns
    -------
    bool
    """
    return True
