"""Graph matching served by the ``gpumine`` backend: isomorphism and subgraph functions.

``is_isomorphic`` and ``vf2pp_{is_isomorphic,isomorphism,all_isomorphisms}`` run the colour
refinement and individualisation search of :mod:`nx_gpumine.interfaces.graph_iso`; the six
``vf2pp`` subgraph/monomorphism functions of NetworkX's development version run the static
subgraph engines (SG is the pattern, FG the data graph). The functions here take NetworkX's
arguments, convert the graphs (:func:`~nx_gpumine.inputs.backend_graph.as_backend_graph`),
raise NetworkX's errors and choose the engine; what
:func:`~nx_gpumine.interfaces.backend_dispatch.can_run` refuses never reaches them through
NetworkX.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator
from typing import Any

import networkx as nx
import numpy as np

from ..inputs.backend_graph import GpumineGraph, as_backend_graph
from ..inputs.static_graph import LabelSpec
from .backend_dispatch import (
    MAX_SUBGRAPH_NODES,
    SUBGRAPH_FUNCTIONS,
    call_engine,
    configured_engine,
    log_first_use,
)
from .graph_iso import (
    IsoMatchers,
    IsoProblem,
    invariants_agree,
    isomorphism_problem,
    iter_isomorphisms,
)

__all__ = [
    "is_isomorphic",
    "vf2pp_is_isomorphic",
    "vf2pp_isomorphism",
    "vf2pp_all_isomorphisms",
    "vf2pp_subgraph_is_isomorphic",
    "vf2pp_subgraph_isomorphism",
    "vf2pp_all_subgraph_isomorphisms",
    "vf2pp_is_monomorphic",
    "vf2pp_monomorphism",
    "vf2pp_all_monomorphisms",
]


# ====================================================================== isomorphism
def _iso_problem(G1: Any, G2: Any, matchers: IsoMatchers, engine: str | None) -> IsoProblem | None:
    """The search for ``G1 -> G2`` isomorphisms, or None when cheap invariants differ.

    Raises NetworkX's errors for graphs of different kinds; the engine is chosen here: on
    ``"auto"`` the numba module runs the search (a GPU pays a kernel launch per refinement
    round), ``engine="cuda"`` refines with CuPy.
    """
    g1 = as_backend_graph(G1)
    g2 = as_backend_graph(G2)
    if g1.directed != g2.directed:
        raise nx.NetworkXError("G1 and G2 must have the same directedness")
    if g1.multigraph != g2.multigraph:
        raise NotImplementedError("one graph is a multigraph and the other is not")
    if not invariants_agree(g1, g2):
        return None
    wanted = engine if engine is not None else configured_engine()
    name = call_engine("cpu" if wanted == "auto" else wanted)
    t0 = time.perf_counter()
    prob = isomorphism_problem(g1, g2, matchers, engine=name)
    prob.on_first_result = lambda: log_first_use(f"isomorphism search ({name})", t0)
    return prob


def _iso_args(node_match: Any, edge_match: Any, multigraph: bool) -> IsoMatchers:
    """Categorical matchers become label specs; other callables are called as NetworkX does."""
    from .isomorphism import categorical_label

    nspec = espec = None
    ncall = ecall = None
    cat = categorical_label(node_match)
    if cat is not None:
        nspec = LabelSpec.of(*cat)
    elif node_match is not None:
        ncall = node_match
    cat = categorical_label(edge_match)
    if cat is not None and not multigraph:
        espec = LabelSpec.of(*cat)
    elif edge_match is not None:
        ecall = edge_match
    return IsoMatchers(nspec, espec, ncall, ecall)


def _iter_iso(prob: IsoProblem | None) -> Iterator[dict]:
    return iter(()) if prob is None else iter_isomorphisms(prob)


def is_isomorphic(
    G1: Any, G2: Any, node_match: Any = None, edge_match: Any = None, *, engine: str | None = None
) -> bool:
    """``networkx.is_isomorphic`` on nx_gpumine's engines (refinement + individualisation).

    Parameters
    ----------
    G1, G2 : GpumineGraph, networkx.Graph or StaticGraph
        Graphs of the same kind.
    node_match, edge_match : callable, optional
        Categorical matchers are matched as colours; any other callable is called as NetworkX
        calls it (``edge_match`` of multigraphs gets the ``{key: data}`` dicts).
    engine : {"auto", "cpu", "cuda"}, optional
        Engine; default ``nx.config.backends.gpumine.engine``.

    Returns
    -------
    bool
    """
    if G1.is_directed() != G2.is_directed():
        raise nx.NetworkXError("Graphs G1 and G2 are not of the same type.")
    if len(G1) == 0 and len(G2) == 0:
        return True
    multi = as_backend_graph(G1).multigraph
    prob = _iso_problem(G1, G2, _iso_args(node_match, edge_match, multi), engine)
    return next(_iter_iso(prob), None) is not None


def _vf2pp_iter(
    G1: Any, G2: Any, node_label: Any, default_label: Any, engine: str | None
) -> Iterator[dict]:
    """The isomorphisms of a ``vf2pp_*`` call, lazily; none where a graph is empty (NetworkX's
    answer). The problem is built now, so argument errors are raised at the call."""
    if len(G1) == 0 or len(G2) == 0:
        return iter(())
    nspec = _vf2pp_spec(node_label, default_label)
    return _iter_iso(_iso_problem(G1, G2, IsoMatchers(node_spec=nspec), engine))


def _vf2pp_spec(node_label: Any, default_label: Any) -> LabelSpec | None:
    """The labels of a ``vf2pp_*`` call: NetworkX's vf2pp looks labels up in dicts, so a label
    not equal to itself (NaN) matches the very same object (``by_identity``), not nothing as
    with the categorical matchers' ``==``."""
    if node_label is None:
        return None
    return LabelSpec.of(node_label, default_label, by_identity=True)


# ====================================================================== subgraphs
def _iter_subgraph(
    FG: Any, SG: Any, node_label: Any, default_label: Any, induced: bool, engine: str | None
) -> Iterator[dict]:
    """``{FG node: SG node}`` for every (induced) subgraph isomorphism / monomorphism."""
    from ..execution.static import iter_static_blocks
    from ..plan.static_plan import static_plan
    from ..results.static import iter_mappings

    if len(FG) == 0 or len(SG) == 0:
        return iter(())
    fg = as_backend_graph(FG)
    sg = as_backend_graph(SG)
    if fg.directed != sg.directed:
        raise nx.NetworkXError("SG and FG must have the same directedness")
    if len(sg) > len(fg):
        return iter(())
    labels = {}
    if node_label is not None:
        labels = {
            "node_label": _vf2pp_spec(node_label, default_label),
            "node_label_default": default_label,
        }
    name = call_engine(engine)
    if len(sg) == 1:
        return _single_node_matches(fg, sg, labels, induced)
    graph = fg.static_graph(**labels)
    pattern = sg.pattern(**labels)
    t0 = time.perf_counter()
    plan = static_plan(pattern, graph, induced=induced, distinct=False)
    blocks = iter_static_blocks(graph, plan, engine=name)

    def run() -> Iterator[dict]:
        first = True
        for m in iter_mappings(graph, pattern, blocks):
            if first:
                log_first_use(f"subgraph search ({name})", t0)
                first = False
            yield m

    return run()


def _single_node_matches(
    fg: GpumineGraph, sg: GpumineGraph, labels: dict, induced: bool
) -> Iterator[dict]:
    """A one-node SG: FG nodes with its label and a self-loop where SG has one (induced: a
    self-loop exactly where SG has one)."""
    loops_f = np.zeros(len(fg), dtype=bool)
    loops_f[fg.src[fg.src == fg.dst]] = True
    loop_s = bool((sg.src == sg.dst).any())
    want = None
    fvals = None
    if labels:
        spec = LabelSpec.of(labels["node_label"], labels["node_label_default"])
        want = sg.node_values(spec)[0]
        fvals = fg.node_values(spec)
    key = sg.keys[0]
    for i, k in enumerate(fg.keys):
        if (loop_s and not loops_f[i]) or (induced and loops_f[i] and not loop_s):
            continue
        if fvals is not None and fvals[i] != want:
            continue
        yield {k: key}


#: What each ``vf2pp`` function returns of its lazy matches: whether there is one, the first
#: (or None), or the iterator itself.
_RETURNS = {
    "bool": "bool\n        Whether some {what} of {b} into {a} exists.",
    "first": "dict or None\n        One {what} as ``{{{a} node: {b} node}}``, or None.",
    "all": "iterator of dict\n        Every {what} as ``{{{a} node: {b} node}}``, lazily.",
}


def _vf2pp_function(name: str, kind: str, induced: bool | None) -> Callable:
    """The backend function ``name``: a ``vf2pp`` isomorphism (``induced`` None, graphs
    ``G1``, ``G2``) or subgraph function (graphs ``FG``, ``SG``) returning ``kind`` of
    :data:`_RETURNS`."""

    a, b = ("G1", "G2") if induced is None else ("FG", "SG")  # NetworkX's names
    P = inspect.Parameter
    signature = inspect.Signature(
        [P(a, P.POSITIONAL_OR_KEYWORD), P(b, P.POSITIONAL_OR_KEYWORD)]
        + [P(n, P.POSITIONAL_OR_KEYWORD, default=None) for n in ("node_label", "default_label")]
        + [P("engine", P.KEYWORD_ONLY, default=None)]
    )

    def func(*args: Any, **kwargs: Any) -> Any:
        call = signature.bind(*args, **kwargs)
        call.apply_defaults()
        G1, G2, node_label, default_label, engine = call.arguments.values()
        if induced is None:
            it = _vf2pp_iter(G1, G2, node_label, default_label, engine)
        else:
            it = _iter_subgraph(G1, G2, node_label, default_label, induced, engine)
        if kind == "all":
            return it
        first = next(it, None)
        return first is not None if kind == "bool" else first

    if induced is None:
        what = "isomorphism"
        about = "Node-for-node maps between graphs of the same kind that keep edges and labels."
        graphs = "Graphs of the same kind."
    else:
        what = "induced subgraph isomorphism" if induced else "monomorphism"
        keep = ", keeping edges and non-edges" if induced else ", keeping SG's edges"
        about = (
            f"SG (the smaller graph) is the pattern and FG the data graph; {what}s map every "
            f"SG node to\n    a distinct FG node with equal label{keep} (self-loops included)."
        )
        graphs = (
            f"Graphs of the same directedness; SG connected, at most {MAX_SUBGRAPH_NODES} nodes."
        )
    func.__name__ = func.__qualname__ = name
    func.__signature__ = signature  # type: ignore[attr-defined]
    func.__doc__ = f"""``networkx.{name}`` on nx_gpumine's engines.

    {about}

    Parameters
    ----------
    {a}, {b} : GpumineGraph, networkx.Graph or StaticGraph
        {graphs}
    node_label : str, optional
        Node attribute compared between the graphs (missing -> ``default_label``).
    default_label : optional
        Label of nodes without ``node_label``.
    engine : {{"auto", "cpu", "cuda"}}, optional
        Engine; default ``nx.config.backends.gpumine.engine``.

    Returns
    -------
    {_RETURNS[kind].format(what=what, a=a, b=b)}
    """
    return func


def _subgraph_function(name: str) -> Callable:
    induced, kind = SUBGRAPH_FUNCTIONS[name]
    return _vf2pp_function(name, kind, induced)


vf2pp_is_isomorphic = _vf2pp_function("vf2pp_is_isomorphic", "bool", None)
vf2pp_isomorphism = _vf2pp_function("vf2pp_isomorphism", "first", None)
vf2pp_all_isomorphisms = _vf2pp_function("vf2pp_all_isomorphisms", "all", None)
vf2pp_subgraph_is_isomorphic = _subgraph_function("vf2pp_subgraph_is_isomorphic")
vf2pp_subgraph_isomorphism = _subgraph_function("vf2pp_subgraph_isomorphism")
vf2pp_all_subgraph_isomorphisms = _subgraph_function("vf2pp_all_subgraph_isomorphisms")
vf2pp_is_monomorphic = _subgraph_function("vf2pp_is_monomorphic")
vf2pp_monomorphism = _subgraph_function("vf2pp_monomorphism")
vf2pp_all_monomorphisms = _subgraph_function("vf2pp_all_monomorphisms")
