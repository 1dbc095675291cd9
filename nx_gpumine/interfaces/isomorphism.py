"""Drop-in ``GraphMatcher`` / ``DiGraphMatcher`` running subgraph matching on nx_gpumine engines.

NetworkX does not dispatch its matcher classes to backends, so these subclasses of NetworkX's
own matchers keep the same constructor and methods::

    from nx_gpumine.isomorphism import GraphMatcher   # instead of networkx.algorithms.isomorphism
    GM = GraphMatcher(G1, G2, node_match=categorical_node_match("color", None))
    GM.subgraph_isomorphisms_iter()   # dicts {G1 node: G2 node}, the same set as NetworkX

The engines run ``subgraph_is_isomorphic``, ``subgraph_isomorphisms_iter``,
``subgraph_is_monomorphic``, ``subgraph_monomorphisms_iter``, and ``is_isomorphic`` /
``isomorphisms_iter`` (induced matching when both graphs have the same number of nodes).
``node_match`` / ``edge_match`` made by NetworkX's ``categorical_node_match`` /
``categorical_edge_match`` are translated into labels. Everything else — any other callable,
multigraphs, a disconnected or empty ``G2``, unhashable label values, or any other method —
is answered by NetworkX's own matcher, transparently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import networkx as nx
from networkx.algorithms import isomorphism as _nxiso

from ..errors import GpumineError
from ..execution.static import iter_static_blocks, run_static
from ..inputs.patterns import Pattern
from ..inputs.static_graph import NO_DEFAULT, from_networkx
from ..plan.static_plan import build_static_plan
from ..results.static import iter_mappings

__all__ = ["GraphMatcher", "DiGraphMatcher", "categorical_label"]

_CATEGORICAL_QUALNAME = "categorical_node_match.<locals>.match"
_CATEGORICAL_MODULE = "networkx.algorithms.isomorphism.matchhelpers"


def categorical_label(match: Callable | None) -> tuple[Any, Any] | None:
    """Recognise a callable made by ``categorical_node_match`` / ``categorical_edge_match``.

    Parameters
    ----------
    match : callable or None
        A ``node_match`` / ``edge_match`` argument.

    Returns
    -------
    tuple or None
        ``(attr, default)`` (``attr`` a string, or a tuple of strings with a tuple of defaults)
        when ``match`` is such a callable; ``None`` otherwise (including ``match=None``).
    """
    if match is None:
        return None
    code = getattr(match, "__code__", None)
    closure = getattr(match, "__closure__", None)
    if (
        code is None
        or closure is None
        or getattr(match, "__qualname__", "") != _CATEGORICAL_QUALNAME
        or getattr(match, "__module__", "") != _CATEGORICAL_MODULE
    ):
        return None
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in closure), strict=True))
    if set(cells) == {"attr", "default"} and isinstance(cells["attr"], str):
        return cells["attr"], cells["default"]
    if set(cells) == {"attrs"}:
        pairs = list(cells["attrs"])
        if not pairs or not all(isinstance(a, str) for a, _ in pairs):
            return None
        return tuple(a for a, _ in pairs), tuple(d for _, d in pairs)
    return None


class _EngineMixin:
    """Engine-backed methods shared by the two matchers (falls back to NetworkX)."""

    _directed: bool = False

    def __init__(
        self,
        G1: nx.Graph,
        G2: nx.Graph,
        node_match: Callable | None = None,
        edge_match: Callable | None = None,
    ) -> None:
        """NetworkX's matcher of ``G1`` and ``G2``, then whether the engines can answer."""
        super().__init__(G1, G2, node_match=node_match, edge_match=edge_match)
        self._gm_engine = "auto"
        self._gm_reason: str | None = None
        nl = categorical_label(node_match)
        el = categorical_label(edge_match)
        G1, G2 = self.G1, self.G2
        if node_match is not None and nl is None:
            self._gm_reason = "node_match is not a categorical_node_match"
        elif edge_match is not None and el is None:
            self._gm_reason = "edge_match is not a categorical_edge_match"
        elif G1.is_multigraph() or G2.is_multigraph():
            self._gm_reason = "multigraph"
        elif len(G2) == 0:
            self._gm_reason = "empty G2"
        elif not (nx.is_weakly_connected(G2) if G2.is_directed() else nx.is_connected(G2)):
            self._gm_reason = "disconnected G2"
        self._gm_labels = {
            "node_label": None if nl is None else nl[0],
            "node_label_default": NO_DEFAULT if nl is None else nl[1],
            "edge_label": None if el is None else el[0],
            "edge_label_default": NO_DEFAULT if el is None else el[1],
        }
        self._gm_cache: dict = {}

    # ------------------------------------------------------------------ engine plumbing
    def _gm_plan(self, induced: bool):
        """(graph, pattern, plan) for the engine, or None to fall back to NetworkX."""
        if self._gm_reason is not None:
            return None
        if induced in self._gm_cache:
            return self._gm_cache[induced]
        try:
            graph = from_networkx(self.G1, **self._gm_labels)
            pattern = Pattern.from_networkx(self.G2, **self._gm_labels)
            plan = build_static_plan(pattern, graph, induced=induced, distinct=False)
        except GpumineError as exc:  # unhashable labels, ...: NetworkX decides
            self._gm_reason = str(exc)
            return None
        self._gm_cache[induced] = (graph, pattern, plan)
        return self._gm_cache[induced]

    def _gm_too_big(self) -> bool:
        # no injective map exists: answer at once (NetworkX's VF2 may search a long time)
        return len(self.G2) > len(self.G1)

    def _gm_iter(self, induced: bool) -> Iterator[dict] | None:
        if self._gm_too_big():
            return iter(())
        prepared = self._gm_plan(induced)
        if prepared is None:
            return None
        graph, pattern, plan = prepared
        return iter_mappings(graph, pattern, iter_static_blocks(graph, plan, self._gm_engine))

    def _gm_first(self, induced: bool) -> bool | None:
        if self._gm_too_big():
            return False
        prepared = self._gm_plan(induced)
        if prepared is None:
            return None
        graph, pattern, plan = prepared
        ids = run_static(graph, plan, "enumerate", engine=self._gm_engine, limit=1)
        if len(ids) == 0:
            return False
        self.mapping = next(iter_mappings(graph, pattern, [ids]))
        return True

    # ------------------------------------------------------------------ public methods
    def subgraph_is_isomorphic(self) -> bool:
        """True if a node-induced subgraph of G1 is isomorphic to G2."""
        res = self._gm_first(True)
        return super().subgraph_is_isomorphic() if res is None else res

    def subgraph_is_monomorphic(self) -> bool:
        """True if a subgraph of G1 is monomorphic to G2 (non-induced)."""
        res = self._gm_first(False)
        return super().subgraph_is_monomorphic() if res is None else res

    def subgraph_isomorphisms_iter(self) -> Iterator[dict]:
        """Induced subgraph isomorphisms as dicts ``{G1 node: G2 node}``."""
        it = self._gm_iter(True)
        return super().subgraph_isomorphisms_iter() if it is None else it

    def subgraph_monomorphisms_iter(self) -> Iterator[dict]:
        """Subgraph monomorphisms as dicts ``{G1 node: G2 node}``."""
        it = self._gm_iter(False)
        return super().subgraph_monomorphisms_iter() if it is None else it

    def is_isomorphic(self) -> bool:
        """True if G1 and G2 are isomorphic."""
        if self._gm_reason is None and len(self.G1) != len(self.G2):
            return False
        res = self._gm_first(True)
        return super().is_isomorphic() if res is None else res

    def isomorphisms_iter(self) -> Iterator[dict]:
        """All isomorphisms G1 -> G2 as dicts ``{G1 node: G2 node}``."""
        if self._gm_reason is None and len(self.G1) != len(self.G2):
            return iter(())
        it = self._gm_iter(True)
        return super().isomorphisms_iter() if it is None else it

    @property
    def uses_engine(self) -> bool:
        """Whether the subgraph methods run on nx_gpumine's engines (else NetworkX's VF2)."""
        return self._gm_reason is None

    @property
    def fallback_reason(self) -> str | None:
        """Why NetworkX's own matcher answers, or None."""
        return self._gm_reason


class GraphMatcher(_EngineMixin, _nxiso.GraphMatcher):
    """Drop-in for :class:`networkx.algorithms.isomorphism.GraphMatcher` (undirected).

    Parameters
    ----------
    G1, G2 : networkx.Graph
        Search for subgraphs of ``G1`` matching ``G2``.
    node_match, edge_match : callable, optional
        As in NetworkX; categorical matchers run on the engines, others on NetworkX.
    """


class DiGraphMatcher(_EngineMixin, _nxiso.DiGraphMatcher):
    """Drop-in for :class:`networkx.algorithms.isomorphism.DiGraphMatcher` (directed): the
    parameters of :class:`GraphMatcher`, with ``networkx.DiGraph`` graphs whose edge directions
    are respected."""
