"""The NetworkX backend's graph type: :class:`GpumineGraph`, a graph converted for ``gpumine``.

NetworkX converts a graph for a dispatched call with the backend's ``convert_from_nx``
(:mod:`nx_gpumine.interfaces.backend`), which builds a :class:`GpumineGraph`: the edge list as
dense ids, the node keys and only the node/edge attributes the call needs. The engines' forms,
:class:`~nx_gpumine.StaticGraph` and :class:`~nx_gpumine.Pattern`, are built from it on demand,
once per label choice. A multigraph is collapsed to one edge per adjacent pair carrying its
multiplicity (:data:`MULTIPLICITY`), which the isomorphism search matches as an edge label.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

import networkx as nx
import numpy as np

from ..errors import InputError
from .patterns import Pattern
from .static_graph import (
    UNLABELLED,
    EncodedLabels,
    LabelSpec,
    StaticGraph,
    build_static_graph,
    label_attrs,
)

__all__ = [
    "GpumineGraph",
    "MULTIPLICITY",
    "MULTI_DATA",
    "as_backend_graph",
    "attr_names",
]

#: Edge attribute holding the number of parallel edges of a collapsed multigraph edge: two
#: multigraphs are isomorphic exactly when their collapsed simple graphs are, with equal
#: multiplicities on matched edges (and self-loops), so multiplicity is matched as an edge label.
MULTIPLICITY = "__nx_gpumine_multiplicity__"
#: Edge attribute holding a collapsed multigraph edge's ``{key: data}`` dict (kept when the
#: call needs edge data: an ``edge_match`` callable receives it, as NetworkX passes ``G[u][v]``).
MULTI_DATA = "__nx_gpumine_multi_data__"


class GpumineGraph:
    """A graph converted for the ``gpumine`` backend.

    Holds the edge list (dense ids), the node keys and the node/edge attributes that were kept
    at conversion; the engine's :class:`~nx_gpumine.StaticGraph` and
    :class:`~nx_gpumine.Pattern` forms are built from it on demand, once per label choice.

    Parameters
    ----------
    directed : bool
        Whether edges have a direction.
    keys : list
        Node keys; dense id ``i`` is ``keys[i]``.
    src, dst : array-like of int
        Edge endpoints as dense ids (each undirected edge once, self-loops allowed).
    node_data : list of dict, optional
        Kept attributes per node (aligned with ``keys``).
    edge_data : list of dict, optional
        Kept attributes per edge (aligned with ``src``/``dst``).
    node_attrs_kept, edge_attrs_kept : bool or frozenset
        Which attributes were kept: ``True`` all of them, otherwise the names kept (a name in the
        set but absent from a node's dict means the node lacks it).
    graph : dict, optional
        Graph attributes.
    multigraph : bool
        Converted from a multigraph: each edge stands for ``edge_data[j][MULTIPLICITY]``
        parallel edges.
    """

    __networkx_backend__ = "gpumine"  # BACKEND_NAME: NetworkX dispatches calls given one here

    def __init__(
        self,
        *,
        directed: bool,
        keys: list,
        src: Any,
        dst: Any,
        node_data: list[dict] | None = None,
        edge_data: list[dict] | None = None,
        node_attrs_kept: bool | frozenset = frozenset(),
        edge_attrs_kept: bool | frozenset = frozenset(),
        graph: dict | None = None,
        multigraph: bool = False,
    ) -> None:
        self.directed = bool(directed)
        self.multigraph = bool(multigraph)
        self.keys = list(keys)
        self.src = np.asarray(src, dtype=np.int64)
        self.dst = np.asarray(dst, dtype=np.int64)
        self.node_data = node_data
        self.edge_data = edge_data
        self.node_attrs_kept = node_attrs_kept
        self.edge_attrs_kept = edge_attrs_kept
        self.graph = dict(graph or {})
        self.__networkx_cache__: dict = {}
        self._static: dict = {}
        self._patterns: dict = {}
        self._facts: dict = {}

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_networkx(
        cls,
        G: nx.Graph,
        *,
        node_attrs: bool | set | frozenset | None = True,
        edge_attrs: bool | set | frozenset | None = True,
        graph_attrs: bool = True,
    ) -> GpumineGraph:
        """Convert a NetworkX ``Graph``/``DiGraph``, keeping the named attributes.

        Parameters
        ----------
        G : networkx.Graph or networkx.DiGraph
            A simple graph.
        node_attrs, edge_attrs : bool or set of str, optional
            ``True`` keeps every attribute, a set keeps those names, ``None``/``False`` none.
        graph_attrs : bool
            Keep ``G.graph``.

        Returns
        -------
        GpumineGraph

        Notes
        -----
        A ``MultiGraph``/``MultiDiGraph`` is collapsed to one edge per adjacent (ordered, when
        directed) pair carrying its multiplicity as edge attribute :data:`MULTIPLICITY`; other
        edge attributes of multigraphs are not kept.
        """
        if G.is_multigraph():
            return cls._from_multigraph(G, node_attrs, graph_attrs, edge_attrs)
        keys = list(G)
        key_to_id = {k: i for i, k in enumerate(keys)}
        nkeep = _keep_spec(node_attrs)
        ekeep = _keep_spec(edge_attrs)
        m = G.number_of_edges()
        src = np.empty(m, dtype=np.int64)
        dst = np.empty(m, dtype=np.int64)
        edge_data: list[dict] | None = None if ekeep == frozenset() else []
        for j, (u, v, d) in enumerate(G.edges(data=True)):
            src[j] = key_to_id[u]
            dst[j] = key_to_id[v]
            if edge_data is not None:
                edge_data.append(_subset(d, ekeep))
        node_data = None
        if nkeep != frozenset():
            node_data = [_subset(d, nkeep) for _, d in G.nodes(data=True)]
        g = cls(
            directed=G.is_directed(),
            keys=keys,
            src=src,
            dst=dst,
            node_data=node_data,
            edge_data=edge_data,
            node_attrs_kept=nkeep,
            edge_attrs_kept=ekeep,
            graph=dict(G.graph) if graph_attrs else None,
        )
        g._facts["key_to_id"] = key_to_id
        return g

    @classmethod
    def _from_multigraph(
        cls, G: nx.Graph, node_attrs: Any, graph_attrs: bool, edge_attrs: Any = None
    ) -> GpumineGraph:
        keys = list(G)
        key_to_id = {k: i for i, k in enumerate(keys)}
        directed = G.is_directed()
        ekeep = _keep_spec(edge_attrs)
        mult: dict[tuple[int, int], int] = {}
        data: dict[tuple[int, int], dict] = {}
        for u, v, key, d in G.edges(keys=True, data=True):
            a, b = key_to_id[u], key_to_id[v]
            if not directed and a > b:
                a, b = b, a
            mult[(a, b)] = mult.get((a, b), 0) + 1
            if ekeep != frozenset():
                data.setdefault((a, b), {})[key] = _subset(d, ekeep)
        pairs = np.asarray(list(mult), dtype=np.int64).reshape(-1, 2)
        nkeep = _keep_spec(node_attrs)
        node_data = None
        if nkeep != frozenset():
            node_data = [_subset(d, nkeep) for _, d in G.nodes(data=True)]
        g = cls(
            directed=directed,
            keys=keys,
            src=pairs[:, 0],
            dst=pairs[:, 1],
            node_data=node_data,
            edge_data=[
                {MULTIPLICITY: c, MULTI_DATA: data[p]} if data else {MULTIPLICITY: c}
                for p, c in mult.items()
            ],
            node_attrs_kept=nkeep,
            edge_attrs_kept=frozenset({MULTIPLICITY} | ({MULTI_DATA} if data else set())),
            graph=dict(G.graph) if graph_attrs else None,
            multigraph=True,
        )
        g._facts["key_to_id"] = key_to_id
        return g

    @classmethod
    def from_static(cls, sg: StaticGraph) -> GpumineGraph:
        """Wrap a :class:`~nx_gpumine.StaticGraph` (its labels become attributes).

        Parameters
        ----------
        sg : StaticGraph
            The graph; its label attribute(s) count as kept.

        Returns
        -------
        GpumineGraph
        """
        src, dst = sg.edges()
        node_data = edge_data = None
        nkept: bool | frozenset = frozenset()
        ekept: bool | frozenset = frozenset()
        if sg.node_label is not None and sg.node_label_spec is not None:
            inv = {c: v for v, c in sg.node_vocab.items()}
            node_data = [label_attrs(sg.node_label_spec, inv[int(c)]) for c in sg.node_label]
            nkept = frozenset(attr_names(sg.node_label_spec.attr))
        if sg.out_label is not None and sg.edge_label_spec is not None:
            inv = {c: v for v, c in sg.edge_vocab.items()}
            codes = sg.edge_label_codes(src, dst)
            edge_data = [label_attrs(sg.edge_label_spec, inv[int(c)]) for c in codes]
            ekept = frozenset(attr_names(sg.edge_label_spec.attr))
        return cls(
            directed=sg.directed,
            keys=sg.keys,
            src=src,
            dst=dst,
            node_data=node_data,
            edge_data=edge_data,
            node_attrs_kept=nkept,
            edge_attrs_kept=ekept,
        )

    # ------------------------------------------------------------------ NetworkX-like facts
    def is_directed(self) -> bool:
        """Whether edges have a direction."""
        return self.directed

    def is_multigraph(self) -> bool:
        """Whether the graph was converted from a multigraph."""
        return self.multigraph

    def number_of_nodes(self) -> int:
        """Number of nodes."""
        return len(self.keys)

    def number_of_edges(self) -> int:
        """Number of edges, self-loops and parallel edges included (as NetworkX counts them)."""
        if self.multigraph:
            return sum(d[MULTIPLICITY] for d in self.edge_data)
        return len(self.src)

    @property
    def edges(self) -> list[tuple]:
        """The edges as NetworkX iterates ``G.edges``: ``(u, v)``, ``(u, v, key)`` for multigraphs.

        A multigraph converted without its edge data numbers parallel edges 0, 1, ... (the keys
        :meth:`to_networkx` gives them).
        """
        keys = self.keys
        pairs = zip(self.src.tolist(), self.dst.tolist(), strict=True)
        if not self.multigraph:
            return [(keys[u], keys[v]) for u, v in pairs]
        out = []
        for (u, v), d in zip(pairs, self.edge_data, strict=True):
            multi = d.get(MULTI_DATA)
            ekeys = list(multi) if multi is not None else range(d[MULTIPLICITY])
            out.extend((keys[u], keys[v], k) for k in ekeys)
        return out

    def order(self) -> int:
        """Number of nodes."""
        return len(self.keys)

    def __len__(self) -> int:
        return len(self.keys)

    def __iter__(self) -> Iterator:
        return iter(self.keys)

    def __contains__(self, node: Any) -> bool:
        return node in self.key_to_id

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        return f"GpumineGraph({kind}, {len(self.keys)} nodes, {len(self.src)} edges)"

    @property
    def key_to_id(self) -> dict:
        """Node key -> dense id."""
        if "key_to_id" not in self._facts:
            self._facts["key_to_id"] = {k: i for i, k in enumerate(self.keys)}
        return self._facts["key_to_id"]

    def has_node_attr(self, attr: Any) -> bool:
        """Whether node attribute ``attr`` (or every name of a tuple) was kept."""
        return _kept(self.node_attrs_kept, attr)

    def has_edge_attr(self, attr: Any) -> bool:
        """Whether edge attribute ``attr`` (or every name of a tuple) was kept."""
        return _kept(self.edge_attrs_kept, attr)

    def is_connected(self) -> bool:
        """Whether the graph is (weakly) connected (an empty graph is not)."""
        if "connected" not in self._facts:
            self._facts["connected"] = _csr_connected(self.static_graph())
        return self._facts["connected"]

    def degree_signature(self) -> np.ndarray:
        """Sorted per-node (out-degree, in-degree, self-loop) rows: an isomorphism invariant."""
        if "degsig" not in self._facts:
            n = len(self.keys)
            s, d = self.src, self.dst
            loop = np.zeros(n, dtype=np.int64)
            np.add.at(loop, s[s == d], 1)
            nl = s != d
            outd = np.bincount(s[nl], minlength=n)
            ind = np.bincount(d[nl], minlength=n)
            if not self.directed:
                outd = ind = outd + ind
            rows = np.stack([outd, ind, loop], axis=1)
            self._facts["degsig"] = rows[np.lexsort(rows.T[::-1])]
        return self._facts["degsig"]

    # ------------------------------------------------------------------ engine forms
    def static_graph(
        self,
        node_label: Any = None,
        node_label_default: Any = None,
        edge_label: Any = None,
        edge_label_default: Any = None,
    ) -> StaticGraph:
        """The engine's :class:`~nx_gpumine.StaticGraph`, labeled with the given attributes.

        Labels are ``data.get(attr, default)`` per node / edge (NetworkX's categorical rule).
        The graph is cached per label choice (unless a default is unhashable).

        Parameters
        ----------
        node_label, edge_label : str or tuple of str, optional
            Kept attribute(s) giving node / edge labels; None for unlabeled.
        node_label_default, edge_label_default : optional
            Label of nodes / edges without the attribute.

        Returns
        -------
        StaticGraph

        Raises
        ------
        nx_gpumine.InputError
            A label value is not hashable, or an attribute was not kept at conversion.
        """
        nspec = LabelSpec.of(node_label, node_label_default)
        espec = LabelSpec.of(edge_label, edge_label_default)
        key = _cache_key(nspec, espec)
        hit = self._static.get(key) if key is not None else None
        if hit is not None:
            return hit
        encoded_nodes = encoded_edges = UNLABELLED
        if nspec is not None:
            encoded_nodes = EncodedLabels.encode(nspec, self.node_values(nspec))
        if espec is not None:
            encoded_edges = EncodedLabels.encode(espec, self.edge_values(espec))
        g = build_static_graph(
            len(self.keys),
            self.src,
            self.dst,
            self.directed,
            self.keys,
            node_labels=encoded_nodes,
            edge_labels=encoded_edges,
            where="GpumineGraph",
            key_to_id=self.key_to_id,
        )
        if key is not None:
            self._static[key] = g
        return g

    @property
    def _gpumine_graph(self) -> StaticGraph:
        """The unlabeled :class:`~nx_gpumine.StaticGraph` (lets the library functions take it)."""
        return self.static_graph()

    def pattern(
        self,
        node_label: Any = None,
        node_label_default: Any = None,
        edge_label: Any = None,
        edge_label_default: Any = None,
    ) -> Pattern:
        """This graph as a :class:`~nx_gpumine.Pattern` (pattern node ``i`` is ``keys[i]``).

        Labels are chosen as in :meth:`static_graph`; the pattern is cached per label choice.

        Returns
        -------
        Pattern
        """
        nspec = LabelSpec.of(node_label, node_label_default)
        espec = LabelSpec.of(edge_label, edge_label_default)
        key = _cache_key(nspec, espec)
        hit = self._patterns.get(key) if key is not None else None
        if hit is not None:
            return hit
        k = len(self.keys)
        s, d = self.src, self.dst
        nl = s != d
        code = np.zeros((k, k), dtype=np.uint8)
        if self.directed:
            code[s[nl], d[nl]] |= 1
            code[d[nl], s[nl]] |= 2
        else:
            code[s[nl], d[nl]] = 3
            code[d[nl], s[nl]] = 3
        loops = np.zeros(k, dtype=bool)
        loops[s[~nl]] = True
        code.setflags(write=False)
        loops.setflags(write=False)
        node_labels = None if nspec is None else tuple(self.node_values(nspec))
        edge_labels = None
        if espec is not None:
            edge_labels = {}
            for a, b, lab in zip(s.tolist(), d.tolist(), self.edge_values(espec), strict=True):
                edge_labels[(a, b)] = lab
                if not self.directed:
                    edge_labels[(b, a)] = lab
        p = Pattern(tuple(self.keys), self.directed, code, loops, node_labels, edge_labels)
        if key is not None:
            self._patterns[key] = p
        return p

    def node_values(self, spec: LabelSpec) -> list:
        """The label of every node under ``spec`` (``data.get(attr, default)``), by dense id.

        Parameters
        ----------
        spec : LabelSpec
            Attribute(s) and default.

        Returns
        -------
        list

        Raises
        ------
        nx_gpumine.InputError
            The attribute was not kept at conversion, a node lacks it and there is no default,
            or a value is not hashable.
        """
        if not self.has_node_attr(spec.attr):
            raise InputError(f"node attribute {spec.attr!r} was not kept when converting the graph")
        data = self.node_data or [{}] * len(self.keys)
        return [spec.value(dd, f"node {k!r}") for k, dd in zip(self.keys, data, strict=True)]

    def edge_values(self, spec: LabelSpec) -> list:
        """The label of every edge under ``spec``, aligned with ``src``/``dst`` (parameters,
        result and errors as for :meth:`node_values`)."""
        if not self.has_edge_attr(spec.attr):
            raise InputError(f"edge attribute {spec.attr!r} was not kept when converting the graph")
        data = self.edge_data or [{}] * len(self.src)
        keys = self.keys
        return [
            spec.value(dd, f"edge ({keys[u]!r}, {keys[v]!r})")
            for u, v, dd in zip(self.src.tolist(), self.dst.tolist(), data, strict=True)
        ]

    def clear_derived(self) -> None:
        """Drop the cached engine forms (StaticGraphs, Patterns, NetworkX's conversion cache).

        Called after the kept attributes change (``set_node_attributes``): labels are read
        again on the next use. Structural facts (connectivity, degrees) stay valid.
        """
        self._static.clear()
        self._patterns.clear()
        self.__networkx_cache__.clear()

    # ------------------------------------------------------------------ back to NetworkX
    def to_networkx(self) -> nx.Graph:
        """A NetworkX graph of the original kind with the kept attributes."""
        if self.multigraph:
            G = nx.MultiDiGraph() if self.directed else nx.MultiGraph()
            G.graph.update(self.graph)
            if self.node_data is None:
                G.add_nodes_from(self.keys)
            else:
                G.add_nodes_from(
                    (k, dict(d)) for k, d in zip(self.keys, self.node_data, strict=True)
                )
            for u, v, d in zip(self.src.tolist(), self.dst.tolist(), self.edge_data, strict=True):
                multi = d.get(MULTI_DATA)
                if multi is not None:
                    for key, dd in multi.items():
                        G.add_edge(self.keys[u], self.keys[v], key, **dd)
                    continue
                for _ in range(d[MULTIPLICITY]):
                    G.add_edge(self.keys[u], self.keys[v])
            return G
        G = nx.DiGraph() if self.directed else nx.Graph()
        G.graph.update(self.graph)
        if self.node_data is None:
            G.add_nodes_from(self.keys)
        else:
            G.add_nodes_from((k, dict(d)) for k, d in zip(self.keys, self.node_data, strict=True))
        keys = self.keys
        pairs = zip(self.src.tolist(), self.dst.tolist(), strict=True)
        if self.edge_data is None:
            G.add_edges_from((keys[u], keys[v]) for u, v in pairs)
        else:
            G.add_edges_from(
                (keys[u], keys[v], dict(d)) for (u, v), d in zip(pairs, self.edge_data, strict=True)
            )
        return G


def _keep_spec(attrs: Any) -> bool | frozenset:
    if attrs is True:
        return True
    if attrs is None or attrs is False:
        return frozenset()
    return frozenset(attrs)


def _subset(d: dict, keep: bool | frozenset) -> dict:
    if keep is True:
        return dict(d)
    return {a: d[a] for a in keep if a in d}


def attr_names(attr: Any) -> tuple:
    """The attribute names of a label choice: ``attr`` itself if a tuple, else ``(attr,)``.

    Parameters
    ----------
    attr : hashable or tuple
        An attribute name, or a tuple of names (a label made of several attributes).

    Returns
    -------
    tuple
    """
    return attr if isinstance(attr, tuple) else (attr,)


def _kept(kept: bool | frozenset, attr: Any) -> bool:
    if kept is True:
        return True
    return all(a in kept for a in attr_names(attr))


def _cache_key(nspec: Any, espec: Any) -> Hashable | None:
    key = (nspec, espec)
    try:
        hash(key)
    except TypeError:  # unhashable default: build every time
        return None
    return key


def _csr_connected(sg: Any) -> bool:
    """Weak connectivity from the union CSR by vectorised breadth-first search."""
    n = sg.n
    if n == 0:
        return False
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    frontier = np.array([0], dtype=np.int64)
    indptr, indices = sg.indptr, sg.indices
    while frontier.size:
        starts = indptr[frontier]
        lens = indptr[frontier + 1] - starts
        total = int(lens.sum())
        if total == 0:
            break
        pos = np.repeat(starts - np.cumsum(lens) + lens, lens) + np.arange(total)
        nb = np.unique(indices[pos])
        nb = nb[~seen[nb]]
        seen[nb] = True
        frontier = nb.astype(np.int64)
    return bool(seen.all())


def as_backend_graph(G: Any) -> GpumineGraph:
    """Any graph the backend takes as a :class:`GpumineGraph`.

    Parameters
    ----------
    G : GpumineGraph, StaticGraph or networkx.Graph
        A converted graph (returned as is), a StaticGraph (wrapped, its labels becoming
        attributes) or any NetworkX graph (converted keeping every attribute).

    Returns
    -------
    GpumineGraph

    Raises
    ------
    NotImplementedError
        ``G`` is none of these.
    """
    if isinstance(G, GpumineGraph):
        return G
    if isinstance(G, StaticGraph):
        return GpumineGraph.from_static(G)
    if isinstance(G, nx.Graph):
        return GpumineGraph.from_networkx(G)
    raise NotImplementedError(f"the gpumine backend cannot use a {type(G).__name__}")
