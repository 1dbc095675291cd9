"""Drop-in ``TimeRespectingGraphMatcher`` / ``TimeRespectingDiGraphMatcher``.

Same constructor ``(G1, G2, temporal_attribute_name, delta)`` and methods as
:mod:`networkx.algorithms.isomorphism.temporalisomorphvf2`, same results.

NetworkX's time-respecting matchers are VF2 with a *semantic* check run each time a node pair is
added: the dates of the edges between the new G1 node and the already-mapped ones (and of its
mapped neighbours) must span at most ``delta``, and (directed) incoming edges of a node must not
come after its outgoing ones. That check depends on which nodes were mapped before, i.e. on the
order in which VF2 adds nodes. Along any search path that completes, VF2's next G2 node depends
on G2 alone (``candidate_pairs_iter``: the first G2 node, in G2's node order, of the out-, else
in-, else any terminal set; a G1 terminal set is non-empty whenever the G2 one is, since the
mapping completes). So the engines enumerate the structural matches (static plan, induced or
not) and every match is *replayed* through NetworkX's semantic checks in that order
(re-implemented on the ``k`` mapped nodes: the checks only read edges towards already-mapped
nodes), so the accepted set is exactly NetworkX's, whatever the time type (numbers, datetimes),
including its quirk of skipping a falsy new node (e.g. ``0``) in the directed two-hop check.

NetworkX answers directly (fallback) where the static engine cannot run (multigraphs, empty or
disconnected G2 — see :class:`nx_gpumine.interfaces.isomorphism.GraphMatcher`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import networkx as nx
from networkx.algorithms.isomorphism import temporalisomorphvf2 as _nxt

from .isomorphism import DiGraphMatcher as _StaticDiGM
from .isomorphism import GraphMatcher as _StaticGM

__all__ = ["TimeRespectingGraphMatcher", "TimeRespectingDiGraphMatcher", "vf2_g2_order"]


def vf2_g2_order(G2: nx.Graph) -> list:
    """The order in which NetworkX's VF2 adds the nodes of ``G2`` along a completing path."""
    key = {n: i for i, n in enumerate(G2)}
    core: set = set()
    seq: list = []
    directed = G2.is_directed()
    while len(core) < len(G2):
        if directed:
            t = {s for c in core for s in G2.successors(c)} - core
            if not t:
                t = {p for c in core for p in G2.predecessors(c)} - core
        else:
            t = {s for c in core for s in G2[c]} - core
        if not t:
            t = set(G2) - core
        n = min(t, key=key.__getitem__)
        seq.append(n)
        core.add(n)
    return seq


class _TemporalMixin:
    """Engine enumeration + replay of NetworkX's semantic checks (see module docstring)."""

    _static_cls: type = _StaticGM
    _nx_cls: type = _nxt.TimeRespectingGraphMatcher

    def __init__(
        self, G1: nx.Graph, G2: nx.Graph, temporal_attribute_name: str, delta: Any
    ) -> None:
        """NetworkX's matcher, then the engine-backed static matcher of ``G1`` and ``G2``."""
        super().__init__(G1, G2, temporal_attribute_name, delta)
        self._tr_static = self._static_cls(self.G1, self.G2)
        self._tr_order = vf2_g2_order(self.G2)

    @property
    def uses_engine(self) -> bool:
        """Whether matches come from nx_gpumine's engines (else NetworkX's VF2 alone)."""
        return self._tr_static.uses_engine

    @property
    def fallback_reason(self) -> str | None:
        """Why NetworkX answers, or None."""
        return self._tr_static.fallback_reason

    def _tr_accept(self, mapping: dict) -> bool:
        """NetworkX's semantic checks, replayed in VF2's order on the mapped nodes only.

        Equivalent to calling ``semantic_feasibility(n1, n2)`` with ``core_1`` = the nodes
        mapped before (it only looks at edges towards ``core_1``), but reads the dates of the
        ``k x k`` node pairs once instead of scanning whole neighbour lists.
        """
        inv = {v: k for k, v in mapping.items()}
        nodes = [inv[n2] for n2 in self._tr_order]
        k = len(nodes)
        G1, attr = self.G1, self.temporal_attribute_name
        adj = G1._adj
        dates: dict = {}
        for i, u in enumerate(nodes):
            nbrs = adj[u]
            for j, v in enumerate(nodes):
                if v in nbrs:
                    dates[i, j] = nbrs[v][attr]
        check = self._tr_check_directed if G1.is_directed() else self._tr_check_undirected
        return all(check(x, nodes, dates) for x in range(k))

    def _tr_check_undirected(self, x: int, nodes: list, dates: dict) -> bool:
        core = range(x)
        nb = [n for n in core if (x, n) in dates]
        if not self._tr_span_ok([dates[x, n] for n in nb]):
            return False
        for v in nb:
            ds = [dates[v, n] for n in core if (v, n) in dates] + [dates[v, x]]
            if not self._tr_span_ok(ds):
                return False
        return True

    def _tr_span_ok(self, ds: list) -> bool:
        if any(d is None for d in ds):
            raise ValueError("Datetime not supplied for at least one edge.")
        return not ds or max(ds) - min(ds) <= self.delta

    def _tr_check_directed(self, x: int, nodes: list, dates: dict) -> bool:
        core = range(x)
        truthy = bool(nodes[x])  # NetworkX appends the new node only when it is truthy
        pred = [n for n in core if (n, x) in dates]
        succ = [n for n in core if (x, n) in dates]
        if not self._tr_ego_ok([dates[p, x] for p in pred], [dates[x, s] for s in succ]):
            return False
        for p in pred:
            pd = [dates[q, p] for q in core if (q, p) in dates]
            sd = [dates[p, s] for s in core if (p, s) in dates]
            if truthy:
                sd.append(dates[p, x])
            if not self._tr_ego_ok(pd, sd):
                return False
        for s in succ:
            pd = [dates[q, s] for q in core if (q, s) in dates]
            if truthy:
                pd.append(dates[x, s])
            sd = [dates[s, r] for r in core if (s, r) in dates]
            if not self._tr_ego_ok(pd, sd):
                return False
        return True

    def _tr_ego_ok(self, pred_dates: list, succ_dates: list) -> bool:
        ds = pred_dates + succ_dates
        if any(d is None for d in ds):
            raise ValueError("Date or datetime not supplied for at least one edge.")
        ds.sort()
        if ds and not (ds[-1] - ds[0] <= self.delta):
            return False
        pred_dates.sort()
        succ_dates.sort()
        return not (succ_dates and pred_dates and succ_dates[0] < pred_dates[-1])

    def _tr_filter(self, it: Iterator[dict]) -> Iterator[dict]:
        for mapping in it:
            if self._tr_accept(mapping):
                yield mapping

    def _tr_first(self, it: Iterator[dict]) -> bool:
        for mapping in self._tr_filter(it):
            self.mapping = dict(mapping)
            return True
        return False

    def subgraph_isomorphisms_iter(self) -> Iterator[dict]:
        """Time-respecting induced subgraph isomorphisms ``{G1 node: G2 node}``."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_isomorphisms_iter(self)
        return self._tr_filter(self._tr_static.subgraph_isomorphisms_iter())

    def subgraph_monomorphisms_iter(self) -> Iterator[dict]:
        """Time-respecting subgraph monomorphisms ``{G1 node: G2 node}``."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_monomorphisms_iter(self)
        return self._tr_filter(self._tr_static.subgraph_monomorphisms_iter())

    def isomorphisms_iter(self) -> Iterator[dict]:
        """Time-respecting isomorphisms G1 -> G2."""
        if not self.uses_engine:
            return self._nx_cls.isomorphisms_iter(self)
        if len(self.G1) != len(self.G2):
            return iter(())
        return self._tr_filter(self._tr_static.isomorphisms_iter())

    def subgraph_is_isomorphic(self) -> bool:
        """True if a time-respecting induced subgraph of G1 is isomorphic to G2."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_is_isomorphic(self)
        return self._tr_first(self._tr_static.subgraph_isomorphisms_iter())

    def subgraph_is_monomorphic(self) -> bool:
        """True if a time-respecting subgraph of G1 is monomorphic to G2."""
        if not self.uses_engine:
            return self._nx_cls.subgraph_is_monomorphic(self)
        return self._tr_first(self._tr_static.subgraph_monomorphisms_iter())

    def is_isomorphic(self) -> bool:
        """True if G1 and G2 are time-respecting isomorphic."""
        if not self.uses_engine:
            return self._nx_cls.is_isomorphic(self)
        if len(self.G1) != len(self.G2):
            return False
        if sorted(d for _, d in self.G1.degree()) != sorted(d for _, d in self.G2.degree()):
            return False
        return self._tr_first(self.isomorphisms_iter())


class TimeRespectingGraphMatcher(_TemporalMixin, _nxt.TimeRespectingGraphMatcher):
    """Drop-in for NetworkX's ``TimeRespectingGraphMatcher`` (undirected).

    Parameters
    ----------
    G1, G2 : networkx.Graph
        Search for time-respecting subgraphs of ``G1`` matching ``G2``.
    temporal_attribute_name : str
        Edge attribute holding the date/time.
    delta : number or timedelta
        Time threshold, as in NetworkX.
    """

    _static_cls = _StaticGM
    _nx_cls = _nxt.TimeRespectingGraphMatcher


class TimeRespectingDiGraphMatcher(_TemporalMixin, _nxt.TimeRespectingDiGraphMatcher):
    """Drop-in for NetworkX's ``TimeRespectingDiGraphMatcher`` (directed): the parameters of
    :class:`TimeRespectingGraphMatcher`, with ``networkx.DiGraph`` graphs."""

    _static_cls = _StaticDiGM
    _nx_cls = _nxt.TimeRespectingDiGraphMatcher
