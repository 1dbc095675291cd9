"""The NetworkX backend ``gpumine``: isomorphism tests dispatched to nx_gpumine's engines.

NetworkX finds this module through two entry points (``pyproject.toml``)::

    networkx.backends      gpumine = nx_gpumine.interfaces.backend:BackendInterface
    networkx.backend_info  gpumine = nx_gpumine.interfaces.backend:get_info

and then runs ``nx.is_isomorphic(G1, G2, backend="gpumine")`` (or any call, when
``NETWORKX_BACKEND_PRIORITY=gpumine`` / ``nx.config.backend_priority.algos = ["gpumine"]``) here.

How an isomorphism test becomes a subgraph-matching problem: two graphs with the same number of
nodes and of edges (self-loops included) are isomorphic exactly when an injective,
edge-preserving map G2 -> G1 exists (it is then a bijection on nodes and on edges, so non-edges
map to non-edges). The engines search that map with G2 as the pattern and G1 as the data graph;
the mapping comes back in NetworkX's direction ``{G1 node: G2 node}``.

:meth:`BackendInterface.can_run` says yes only where the engine gives NetworkX's exact answer:
simple graphs (``Graph``/``DiGraph``) of the same directedness, ``node_match``/``edge_match``
either ``None`` or made by ``categorical_node_match`` / ``categorical_edge_match`` (translated
into label codes). A disconnected ``G2`` is matched component by component. Two multigraphs
(``MultiGraph``/``MultiDiGraph``) are served too: parallel edges are collapsed into one edge
whose multiplicity (:data:`MULTIPLICITY`) is matched as an edge label, which is exactly how
NetworkX compares them. Everything else (a multigraph against a simple graph, ``edge_match`` on
multigraphs, other callables, unhashable label values, patterns whose automorphism group is too
large to enumerate) is left to NetworkX: with ``nx.config.fallback_to_nx`` or NetworkX graphs as
inputs, NetworkX then answers itself.

Graphs converted beforehand dispatch here by type, with no ``backend=`` and no priority list:
:class:`GpumineGraph` (``BackendInterface.convert_from_nx``) and
:class:`~nx_gpumine.StaticGraph` (``nx_gpumine.from_networkx``) both carry
``__networkx_backend__ = "gpumine"``. A ``StaticGraph`` only knows the label attribute it was
built with, so a call labeling by another attribute, or with another default for missing values,
is refused by :func:`can_run`.

This module is imported by ``import networkx`` (for :func:`get_info`), so it imports nothing
heavy at module level: numba and the engines load on the first dispatched call.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterator
from typing import Any

import networkx as nx
import numpy as np

__all__ = ["BackendInterface", "GpumineGraph", "get_info", "convert_from_nx", "convert_to_nx"]

BACKEND_NAME = "gpumine"

#: Largest graph (nodes) the backend takes: the pattern side holds a dense k x k code matrix and
#: the plan builder is quadratic in k, so beyond this NetworkX's VF2++ is the better tool.
MAX_NODES = 2000
#: Largest automorphism group of ``G2`` the plan builder may enumerate (``|Aut(G2)|``); beyond it
#: the call goes back to NetworkX (``nx.complete_graph(9)`` already has 362880).
MAX_AUTOMORPHISMS = 20_000
#: Node placements the automorphism enumeration may try before giving the call back to NetworkX
#: (each automorphism costs about ``k`` placements).
MAX_AUTOMORPHISM_WORK = 1_000_000
#: Above this many nodes ``should_run`` says no: the plan builder is quadratic in the pattern
#: size, so NetworkX's VF2++ is usually faster there (``backend="gpumine"`` still runs it).
SHOULD_RUN_MAX_NODES = 500
#: ``vf2pp_all_isomorphisms`` of a disconnected ``G2`` recurses over its components.
MAX_COMPONENTS = 300

_ENGINE_ENV = "NX_GPUMINE_ENGINE"
#: Edge attribute holding the number of parallel edges of a collapsed multigraph edge: two
#: multigraphs are isomorphic exactly when their collapsed simple graphs are, with equal
#: multiplicities on matched edges (and self-loops), so multiplicity is matched as an edge label.
MULTIPLICITY = "__nx_gpumine_multiplicity__"

_COMMON_DOCS = (
    "Runs on nx_gpumine's engines (numba CPU, or CUDA when CuPy sees a GPU): equal node and edge\n"
    "counts and degree sequences are checked first, then one edge-preserving injective map\n"
    "G2 -> G1 is searched by depth-first backtracking over sorted adjacency lists.\n"
    "Served: simple Graph/DiGraph pairs of the same kind with at most\n"
    f"{MAX_NODES} nodes; other inputs fall back to NetworkX (see nx.config.fallback_to_nx)."
)
_ENGINE_PARAM = {
    'engine : {"auto", "cpu", "cuda"}, optional': (
        'Engine to run on; default nx.config.backends.gpumine.engine ("auto": CUDA when a GPU '
        "is found, else CPU)."
    ),
}

_FUNCTIONS: dict[str, dict[str, Any]] = {
    "is_isomorphic": {
        "additional_docs": _COMMON_DOCS + "\nnode_match/edge_match: None or made by "
        "categorical_node_match / categorical_edge_match.",
        "additional_parameters": _ENGINE_PARAM,
    },
    "vf2pp_is_isomorphic": {
        "additional_docs": _COMMON_DOCS,
        "additional_parameters": _ENGINE_PARAM,
    },
    "vf2pp_isomorphism": {"additional_docs": _COMMON_DOCS, "additional_parameters": _ENGINE_PARAM},
    "vf2pp_all_isomorphisms": {
        "additional_docs": _COMMON_DOCS + "\nMappings are produced lazily, one block of root "
        "edges at a time.",
        "additional_parameters": _ENGINE_PARAM,
    },
}

# positional order of each dispatched function's parameters (for can_run)
_SIGNATURES: dict[str, tuple[str, ...]] = {
    "is_isomorphic": ("G1", "G2", "node_match", "edge_match"),
    "vf2pp_is_isomorphic": ("G1", "G2", "node_label", "default_label"),
    "vf2pp_isomorphism": ("G1", "G2", "node_label", "default_label"),
    "vf2pp_all_isomorphisms": ("G1", "G2", "node_label", "default_label"),
}


def get_info() -> dict[str, Any]:
    """Backend metadata for NetworkX (target of the ``networkx.backend_info`` entry point).

    Returns
    -------
    dict
        ``backend_name``, ``project``, ``package``, ``url``, ``short_summary``, ``functions``
        (per dispatched function: ``additional_docs`` and ``additional_parameters``, also under
        the older names ``extra_docstring`` / ``extra_parameters``) and ``default_config``
        (``engine``: ``"auto"``, or the ``NX_GPUMINE_ENGINE`` environment variable).
    """
    functions = {}
    for name, info in _FUNCTIONS.items():
        functions[name] = {
            "additional_docs": info["additional_docs"],
            "additional_parameters": dict(info["additional_parameters"]),
            "extra_docstring": info["additional_docs"],
            "extra_parameters": dict(info["additional_parameters"]),
        }
    return {
        "backend_name": BACKEND_NAME,
        "project": "nx-gpumine",
        "package": "nx_gpumine",
        "url": "https://pypi.org/project/nx-gpumine/",
        "short_summary": "Subgraph isomorphism and temporal motifs on GPUs (CUDA) and CPUs.",
        "functions": functions,
        "default_config": {"engine": os.environ.get(_ENGINE_ENV, "auto")},
    }


# ====================================================================== backend graph
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

    __networkx_backend__ = BACKEND_NAME

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
            return cls._from_multigraph(G, node_attrs, graph_attrs)
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
    def _from_multigraph(cls, G: nx.Graph, node_attrs: Any, graph_attrs: bool) -> GpumineGraph:
        keys = list(G)
        key_to_id = {k: i for i, k in enumerate(keys)}
        directed = G.is_directed()
        mult: dict[tuple[int, int], int] = {}
        for u, v in G.edges():
            a, b = key_to_id[u], key_to_id[v]
            if not directed and a > b:
                a, b = b, a
            mult[(a, b)] = mult.get((a, b), 0) + 1
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
            edge_data=[{MULTIPLICITY: c} for c in mult.values()],
            node_attrs_kept=nkeep,
            edge_attrs_kept=frozenset({MULTIPLICITY}),
            graph=dict(G.graph) if graph_attrs else None,
            multigraph=True,
        )
        g._facts["key_to_id"] = key_to_id
        return g

    @classmethod
    def from_static(cls, sg: Any) -> GpumineGraph:
        """Wrap a :class:`~nx_gpumine.StaticGraph` (its labels become attributes)."""
        from ..inputs.static_graph import _label_attrs

        src, dst = sg.edges()
        node_data = edge_data = None
        nkept: bool | frozenset = frozenset()
        ekept: bool | frozenset = frozenset()
        if sg.node_label is not None and sg.node_label_spec is not None:
            inv = {c: v for v, c in sg.node_vocab.items()}
            node_data = [_label_attrs(sg.node_label_spec, inv[int(c)]) for c in sg.node_label]
            nkept = frozenset(_attr_names(sg.node_label_spec.attr))
        if sg.out_label is not None and sg.edge_label_spec is not None:
            inv = {c: v for v, c in sg.edge_vocab.items()}
            codes = sg._edge_label_codes(src, dst)
            edge_data = [_label_attrs(sg.edge_label_spec, inv[int(c)]) for c in codes]
            ekept = frozenset(_attr_names(sg.edge_label_spec.attr))
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
        """Number of edges, self-loops included (multigraphs: parallel edges counted once)."""
        return len(self.src)

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

    def components(self) -> list[np.ndarray]:
        """Dense ids of each (weakly) connected component, ascending, by smallest id."""
        n = len(self.keys)
        lab = np.arange(n, dtype=np.int64)
        s, d = self.src, self.dst
        while True:
            new = lab.copy()
            np.minimum.at(new, s, lab[d])
            np.minimum.at(new, d, lab[s])
            new = new[new]
            if np.array_equal(new, lab):
                break
            lab = new
        order = np.argsort(lab, kind="stable")
        cuts = np.flatnonzero(np.diff(lab[order])) + 1
        return np.split(order, cuts)

    def subgraph(self, ids: np.ndarray) -> GpumineGraph:
        """The subgraph induced by dense ids ``ids`` (attributes kept as here)."""
        ids = np.asarray(ids, dtype=np.int64)
        remap = np.full(len(self.keys), -1, dtype=np.int64)
        remap[ids] = np.arange(len(ids))
        keep = np.flatnonzero((remap[self.src] >= 0) & (remap[self.dst] >= 0))
        return GpumineGraph(
            directed=self.directed,
            keys=[self.keys[i] for i in ids.tolist()],
            src=remap[self.src[keep]],
            dst=remap[self.dst[keep]],
            node_data=None if self.node_data is None else [self.node_data[i] for i in ids],
            edge_data=None if self.edge_data is None else [self.edge_data[j] for j in keep],
            node_attrs_kept=self.node_attrs_kept,
            edge_attrs_kept=self.edge_attrs_kept,
            multigraph=self.multigraph,
        )

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
    ) -> Any:
        """The engine's :class:`~nx_gpumine.StaticGraph`, labeled with the given attributes.

        Labels are ``data.get(attr, default)`` per node / edge (NetworkX's categorical rule).

        Raises
        ------
        nx_gpumine.InputError
            A label value is not hashable, or an attribute was not kept at conversion.
        """
        from ..inputs.static_graph import LabelSpec, _build, _encode

        nspec = LabelSpec.of(node_label, node_label_default)
        espec = LabelSpec.of(edge_label, edge_label_default)
        key = _cache_key(nspec, espec)
        hit = self._static.get(key) if key is not None else None
        if hit is not None:
            return hit
        nvocab: dict = {}
        evocab: dict = {}
        ncodes = ecodes = None
        if nspec is not None:
            ncodes = _encode(self._node_values(nspec), nvocab)
        if espec is not None:
            ecodes = _encode(self._edge_values(espec), evocab)
        g = _build(
            len(self.keys),
            self.src,
            self.dst,
            self.directed,
            self.keys,
            node_label_codes=ncodes,
            edge_label_codes=ecodes,
            node_label_spec=nspec,
            edge_label_spec=espec,
            node_vocab=nvocab,
            edge_vocab=evocab,
            where="GpumineGraph",
        )
        g._key_to_id = self.key_to_id
        if key is not None:
            self._static[key] = g
        return g

    @property
    def _gpumine_graph(self) -> Any:
        """The unlabeled :class:`~nx_gpumine.StaticGraph` (lets the library functions take it)."""
        return self.static_graph()

    def pattern(
        self,
        node_label: Any = None,
        node_label_default: Any = None,
        edge_label: Any = None,
        edge_label_default: Any = None,
    ) -> Any:
        """This graph as a :class:`~nx_gpumine.Pattern` (pattern node ``i`` is ``keys[i]``)."""
        from ..inputs.patterns import Pattern
        from ..inputs.static_graph import LabelSpec

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
        node_labels = None if nspec is None else tuple(self._node_values(nspec))
        edge_labels = None
        if espec is not None:
            edge_labels = {}
            for a, b, lab in zip(s.tolist(), d.tolist(), self._edge_values(espec), strict=True):
                edge_labels[(a, b)] = lab
                if not self.directed:
                    edge_labels[(b, a)] = lab
        p = Pattern(tuple(self.keys), self.directed, code, loops, node_labels, edge_labels)
        if key is not None:
            self._patterns[key] = p
        return p

    def _node_values(self, spec: Any) -> list:
        from ..errors import InputError

        if not self.has_node_attr(spec.attr):
            raise InputError(f"node attribute {spec.attr!r} was not kept when converting the graph")
        data = self.node_data or [{}] * len(self.keys)
        return [spec.value(dd, f"node {k!r}") for k, dd in zip(self.keys, data, strict=True)]

    def _edge_values(self, spec: Any) -> list:
        from ..errors import InputError

        if not self.has_edge_attr(spec.attr):
            raise InputError(f"edge attribute {spec.attr!r} was not kept when converting the graph")
        data = self.edge_data or [{}] * len(self.src)
        keys = self.keys
        return [
            spec.value(dd, f"edge ({keys[u]!r}, {keys[v]!r})")
            for u, v, dd in zip(self.src.tolist(), self.dst.tolist(), data, strict=True)
        ]

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


def _attr_names(attr: Any) -> tuple:
    return attr if isinstance(attr, tuple) else (attr,)


def _kept(kept: bool | frozenset, attr: Any) -> bool:
    if kept is True:
        return True
    return all(a in kept for a in _attr_names(attr))


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


# ====================================================================== conversion
def convert_from_nx(
    graph: Any,
    edge_attrs: dict | None = None,
    node_attrs: dict | None = None,
    preserve_edge_attrs: bool = False,
    preserve_node_attrs: bool = False,
    preserve_graph_attrs: bool = False,
    name: str | None = None,
    graph_name: str | None = None,
) -> GpumineGraph:
    """Convert a NetworkX graph for the backend (NetworkX's ``convert_from_nx`` protocol).

    Only the attributes the call needs are kept: all of them where ``preserve_*_attrs`` is
    true (``is_isomorphic`` with a ``node_match``/``edge_match`` callable), the names in
    ``node_attrs``/``edge_attrs`` otherwise (``vf2pp_*`` with ``node_label``). Defaults are not
    filled in here: each function applies its own default at call time.

    A ``MultiGraph``/``MultiDiGraph`` is collapsed to one edge per adjacent (ordered, when
    directed) pair, carrying its number of parallel edges as edge attribute
    :data:`MULTIPLICITY` (matched as an edge label, so two multigraphs are compared as NetworkX
    compares them); node attributes are kept as above, other edge attributes are dropped. A
    :class:`GpumineGraph` is returned as is; a :class:`~nx_gpumine.StaticGraph` is wrapped,
    its labels becoming attributes.

    Parameters
    ----------
    graph : networkx.Graph, GpumineGraph or StaticGraph
        The graph to convert (any of NetworkX's four graph classes).
    edge_attrs, node_attrs : dict, optional
        Attribute name -> default, as NetworkX passes them; only the names are used.
    preserve_edge_attrs, preserve_node_attrs, preserve_graph_attrs : bool
        Keep every edge / node attribute, or the graph attributes.
    name, graph_name : str, optional
        The dispatched function's and the graph argument's names (unused).

    Returns
    -------
    GpumineGraph
    """
    if isinstance(graph, GpumineGraph):
        return graph
    if _is_static(graph):
        return GpumineGraph.from_static(graph)
    nkeep = True if preserve_node_attrs is True else set(node_attrs or ())
    ekeep = True if preserve_edge_attrs is True else set(edge_attrs or ())
    return GpumineGraph.from_networkx(
        graph, node_attrs=nkeep, edge_attrs=ekeep, graph_attrs=bool(preserve_graph_attrs)
    )


def convert_to_nx(obj: Any, *, name: str | None = None) -> Any:
    """Turn backend graphs into NetworkX graphs; pass every other result through."""
    if isinstance(obj, GpumineGraph):
        return obj.to_networkx()
    if _is_static(obj):
        return obj.to_networkx()
    return obj


def _is_static(obj: Any) -> bool:
    from ..inputs.static_graph import StaticGraph

    return isinstance(obj, StaticGraph)


def _backend_graph(G: Any) -> GpumineGraph:
    """Any accepted input as a GpumineGraph (NetworkX graphs keep every attribute)."""
    if isinstance(G, GpumineGraph):
        return G
    if _is_static(G):
        return GpumineGraph.from_static(G)
    if isinstance(G, nx.Graph):
        return GpumineGraph.from_networkx(G)
    raise NotImplementedError(f"the gpumine backend cannot use a {type(G).__name__}")


# ====================================================================== can_run
def _bind(name: str, args: tuple, kwargs: dict) -> dict:
    names = _SIGNATURES[name]
    bound = dict(zip(names, args, strict=False))
    for k, v in kwargs.items():
        if k in names:
            bound[k] = v
    return bound


def _graph_problem(G: Any) -> str | None:
    if isinstance(G, GpumineGraph) or _is_static(G):
        n = len(G)
    elif isinstance(G, nx.Graph):
        n = G.number_of_nodes()
    else:
        return f"{type(G).__name__} is not a graph the backend converts"
    if n > MAX_NODES:
        return f"graph has {n} nodes (the backend takes at most {MAX_NODES})"
    return None


def _labels_problem(G: Any, attr: Any, kind: str, default: Any = None) -> str | None:
    """Whether a backend graph kept the attribute a call labels with (and its default)."""
    if attr is None:
        return None
    if isinstance(G, GpumineGraph):
        ok = G.has_node_attr(attr) if kind == "node" else G.has_edge_attr(attr)
    elif _is_static(G):
        spec = G.node_label_spec if kind == "node" else G.edge_label_spec
        ok = spec is not None and tuple(_attr_names(spec.attr)) == tuple(_attr_names(attr))
        if ok:
            return _static_default_problem(spec, attr, default, kind)
    else:
        return None
    if not ok:
        return f"the converted graph did not keep {kind} attribute {attr!r}"
    return None


def _static_default_problem(spec: Any, attr: Any, default: Any, kind: str) -> str | None:
    """A StaticGraph stores labels with its own default already filled in: a call whose default
    differs could then pair a missing value with a present one, so it is refused."""
    from ..inputs.static_graph import _MISSING, LabelSpec

    if spec.default is _MISSING:  # every node/edge had the attribute: no default was used
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


def _match_labels(node_match: Any, edge_match: Any) -> tuple[Any, Any] | str:
    from .isomorphism import categorical_label

    nl = categorical_label(node_match)
    el = categorical_label(edge_match)
    if node_match is not None and nl is None:
        return "node_match is not made by categorical_node_match"
    if edge_match is not None and el is None:
        return "edge_match is not made by categorical_edge_match"
    return nl, el


def can_run(name: str, args: tuple, kwargs: dict) -> bool | str:
    """Whether the backend gives NetworkX's exact answer for this call.

    Returns
    -------
    bool or str
        True, or a string saying why not (NetworkX logs it and falls back).
    """
    if name not in _SIGNATURES:
        return f"{name} is not implemented by the gpumine backend"
    b = _bind(name, args, kwargs)
    G1, G2 = b.get("G1"), b.get("G2")
    for G in (G1, G2):
        problem = _graph_problem(G)
        if problem:
            return problem
    if G1.is_directed() != G2.is_directed():
        return "G1 and G2 differ in directedness"
    if G1.is_multigraph() != G2.is_multigraph():
        return "one graph is a multigraph and the other is not"
    if G1.is_multigraph() and name == "is_isomorphic" and b.get("edge_match") is not None:
        return "edge_match on multigraphs (edge data are keyed by edge key) is left to NetworkX"
    if name == "is_isomorphic":
        labels = _match_labels(b.get("node_match"), b.get("edge_match"))
        if isinstance(labels, str):
            return labels
        nl, el = labels
        for G in (G1, G2):
            problem = nl is not None and _labels_problem(G, nl[0], "node", nl[1])
            problem = problem or (el is not None and _labels_problem(G, el[0], "edge", el[1]))
            if problem:
                return problem
    else:
        attr = b.get("node_label")
        if attr is not None:
            if isinstance(attr, list | tuple):
                return "node_label must name a single attribute"
            try:
                hash(attr)
            except TypeError:
                return "node_label is not hashable"
            for G in (G1, G2):
                problem = _labels_problem(G, attr, "node", b.get("default_label"))
                if problem:
                    return problem
    return True


def should_run(name: str, args: tuple, kwargs: dict) -> bool | str:
    """Whether running here is worthwhile when NetworkX chooses the backend by priority.

    Returns
    -------
    bool or str
        True, or why not: graphs above :data:`SHOULD_RUN_MAX_NODES` nodes (the plan builder is
        quadratic in the pattern size). ``backend="gpumine"`` ignores this.
    """
    b = _bind(name, args, kwargs) if name in _SIGNATURES else {}
    G2 = b.get("G2")
    if G2 is not None and len(G2) > SHOULD_RUN_MAX_NODES:
        return f"G2 has {len(G2)} nodes; NetworkX is faster above {SHOULD_RUN_MAX_NODES}"
    return True


# ====================================================================== the functions
def _engine_name(engine: str | None) -> str:
    if engine is not None:
        return engine
    try:
        return nx.config.backends[BACKEND_NAME].engine
    except (AttributeError, KeyError):
        return os.environ.get(_ENGINE_ENV, "auto")


def _automorphism_list(
    pattern: Any, limit: int, work: int = MAX_AUTOMORPHISM_WORK
) -> list[tuple[int, ...]] | None:
    """All automorphisms of ``pattern`` (connected), or None when there are more than ``limit``
    or the search tries more than ``work`` node placements.

    Backtracking in breadth-first order: each node after the first is adjacent to an earlier
    one, so its image is searched among the neighbours of that node's image only. A complete
    injective map keeping degrees, self-loops, labels and every (directed) adjacency of the
    pattern is an automorphism (edge counts are equal, so non-edges map to non-edges).
    """
    k = pattern.k
    code = pattern.code
    nbrs = [np.flatnonzero(code[a]).tolist() for a in range(k)]
    deg = [len(x) for x in nbrs]
    loops = pattern.loops.tolist()
    nl = pattern.node_labels
    el = pattern.edge_labels
    sig = [
        (
            deg[a],
            loops[a],
            None if nl is None else nl[a],
            None if el is None or not loops[a] else el[(a, a)],
        )
        for a in range(k)
    ]
    # breadth-first order; back[a] = earlier-placed neighbours of a
    order = [0]
    pos = {0: 0}
    head = 0
    while head < len(order):
        a = order[head]
        head += 1
        for b in nbrs[a]:
            if b not in pos:
                pos[b] = len(order)
                order.append(b)
    if len(order) != k:
        return None  # disconnected: not handled here
    back = [[c for c in nbrs[a] if pos[c] < pos[a]] for a in order]
    img = [-1] * k
    used = [False] * k
    found: list[tuple[int, ...]] = []

    def feasible(a: int, bk: list[int], b: int) -> bool:
        if used[b] or sig[a] != sig[b]:
            return False
        for c in bk:
            d = img[c]
            if code[c, a] != code[d, b]:
                return False
            if el is not None:
                if code[c, a] & 1 and el[(c, a)] != el[(d, b)]:
                    return False
                if code[c, a] & 2 and el[(a, c)] != el[(b, d)]:
                    return False
        return True

    def candidates(level: int) -> Iterator[int]:
        a = order[level]
        bk = back[level]
        pool = range(k) if not bk else nbrs[img[bk[0]]]
        return (b for b in pool if feasible(a, bk, b))

    stack = [candidates(0)]
    while stack:
        level = len(stack) - 1
        a = order[level]
        if img[a] != -1:
            used[img[a]] = False
            img[a] = -1
        b = next(stack[-1], None)
        if b is None:
            stack.pop()
            continue
        img[a] = b
        used[b] = True
        work -= 1
        if work < 0:
            return None
        if level + 1 == k:
            found.append(tuple(img))
            if len(found) > limit:
                return None
            continue
        stack.append(candidates(level + 1))
    return found


def _invariants_differ(g1: GpumineGraph, g2: GpumineGraph) -> bool:
    """True when node/edge counts or degree rows show the graphs cannot be isomorphic."""
    if g1.directed != g2.directed:
        raise NotImplementedError("G1 and G2 differ in directedness")
    if len(g1) != len(g2) or g1.number_of_edges() != g2.number_of_edges():
        return True
    return not np.array_equal(g1.degree_signature(), g2.degree_signature())


def _connected_plan(g1: GpumineGraph, g2: GpumineGraph, labels: dict) -> tuple | None:
    """(graph, pattern, plan) for a connected ``g2``; None when certainly not isomorphic.

    Raises NotImplementedError where the engines cannot give NetworkX's answer.
    """
    from ..errors import GpumineError
    from ..plan.static_plan import build_static_plan

    if _invariants_differ(g1, g2):
        return None
    try:
        graph = g1.static_graph(**labels)
        pattern = g2.pattern(**labels)
    except GpumineError as exc:  # unhashable label values, attributes not kept...
        raise NotImplementedError(f"gpumine backend: {exc}") from exc
    # The plan builder asks for |Aut(G2)|, and Pattern's own search walks nodes in index order
    # (exponential on sparse graphs of a few dozen nodes). Enumerate the group here with a
    # breadth-first order and a work bound, and hand the exact result to the pattern's cache.
    if "naut" not in pattern._cache:
        auts = _automorphism_list(pattern, MAX_AUTOMORPHISMS)
        if auts is None:
            raise NotImplementedError(
                f"G2 has more than {MAX_AUTOMORPHISMS} automorphisms (or they take too long "
                "to enumerate); NetworkX's matcher is used"
            )
        pattern._cache["aut"] = auts
        pattern._cache["naut"] = len(auts)
    plan = build_static_plan(pattern, graph, induced=False, distinct=False)
    return graph, pattern, plan


def _first_connected(g1: GpumineGraph, g2: GpumineGraph, labels: dict, engine: str) -> dict | None:
    from ..execution.static import run_static
    from ..results.static import iter_mappings

    prepared = _connected_plan(g1, g2, labels)
    if prepared is None:
        return None
    graph, pattern, plan = prepared
    ids = run_static(graph, plan, "enumerate", engine=engine, limit=1)
    if len(ids) == 0:
        return None
    return next(iter_mappings(graph, pattern, [ids]))


def _iter_connected(g1: GpumineGraph, g2: GpumineGraph, labels: dict, engine: str) -> Iterator:
    from ..execution.static import iter_static_blocks
    from ..results.static import iter_mappings

    prepared = _connected_plan(g1, g2, labels)
    if prepared is None:
        return iter(())
    graph, pattern, plan = prepared
    return iter_mappings(graph, pattern, iter_static_blocks(graph, plan, engine=engine))


def _component_key(g: GpumineGraph, labels: dict) -> Hashable:
    """An isomorphism invariant of a component: sizes, degree rows, node-label multiset."""
    from collections import Counter

    from ..errors import GpumineError
    from ..inputs.static_graph import LabelSpec

    lab: Hashable = None
    spec = LabelSpec.of(labels.get("node_label"), labels.get("node_label_default"))
    if spec is not None:
        try:
            lab = frozenset(Counter(g._node_values(spec)).items())
        except (GpumineError, TypeError) as exc:
            raise NotImplementedError(f"gpumine backend: {exc}") from exc
    return (len(g), g.number_of_edges(), g.degree_signature().tobytes(), lab)


def _components(g1: GpumineGraph, g2: GpumineGraph, labels: dict) -> tuple | None:
    """Components of both graphs with their keys; None when their counts differ."""
    c1 = g1.components()
    c2 = g2.components()
    if len(c1) != len(c2):
        return None
    s1 = [g1.subgraph(ids) for ids in c1]
    s2 = [g2.subgraph(ids) for ids in c2]
    k1 = [_component_key(s, labels) for s in s1]
    k2 = [_component_key(s, labels) for s in s2]
    return s1, s2, k1, k2


def _with_multiplicity(g1: GpumineGraph, g2: GpumineGraph, labels: dict) -> dict:
    """Multigraphs: match edge multiplicities as edge labels (no other edge label allowed)."""
    if not (g1.multigraph or g2.multigraph):
        return labels
    if g1.multigraph != g2.multigraph:
        raise NotImplementedError("one graph is a multigraph and the other is not")
    if labels.get("edge_label") is not None:
        raise NotImplementedError("edge labels on multigraphs are left to NetworkX")
    return {**labels, "edge_label": MULTIPLICITY, "edge_label_default": 1}


def _first_isomorphism(G1: Any, G2: Any, labels: dict, engine: str) -> dict | None:
    """One isomorphism ``{G1 node: G2 node}``, or None.

    A disconnected ``G2`` is matched component by component: isomorphism is an equivalence,
    so pairing each component of ``G2`` with any unused isomorphic component of ``G1`` never
    blocks a later pairing.
    """
    g1 = _backend_graph(G1)
    g2 = _backend_graph(G2)
    labels = _with_multiplicity(g1, g2, labels)
    if _invariants_differ(g1, g2):
        return None
    if len(g2) <= 1 or g2.is_connected():
        return _first_connected(g1, g2, labels, engine)
    comps = _components(g1, g2, labels)
    if comps is None:
        return None
    s1, s2, k1, k2 = comps
    pools: dict = {}
    for i, key in enumerate(k1):
        pools.setdefault(key, []).append(i)
    mapping: dict = {}
    for b, key in zip(s2, k2, strict=True):
        pool = pools.get(key, [])
        for pos, i in enumerate(pool):
            m = _first_connected(s1[i], b, labels, engine)
            if m is not None:
                del pool[pos]
                mapping.update(m)
                break
        else:
            return None
    return mapping


def _iter_isomorphisms(G1: Any, G2: Any, labels: dict, engine: str) -> Iterator[dict]:
    """Every isomorphism ``{G1 node: G2 node}``, lazily (component by component if needed)."""
    if len(G1) == 0 or len(G2) == 0:
        return iter(())
    g1 = _backend_graph(G1)
    g2 = _backend_graph(G2)
    labels = _with_multiplicity(g1, g2, labels)
    if _invariants_differ(g1, g2):
        return iter(())
    if len(g2) <= 1 or g2.is_connected():
        return _iter_connected(g1, g2, labels, engine)
    comps = _components(g1, g2, labels)
    if comps is None:
        return iter(())
    s1, s2, k1, k2 = comps
    if len(s2) > MAX_COMPONENTS:
        raise NotImplementedError(
            f"G2 has {len(s2)} components; the gpumine backend enumerates all isomorphisms of "
            f"graphs with at most {MAX_COMPONENTS}"
        )
    # exact isomorphism classes of G1's components (tested against one representative each)
    classes: list[tuple[Hashable, int, list[int]]] = []
    for i, key in enumerate(k1):
        for ckey, rep, members in classes:
            if ckey == key and _first_connected(s1[rep], s1[i], labels, engine) is not None:
                members.append(i)
                break
        else:
            classes.append((key, i, [i]))
    cand: list[list[int]] = []
    for b, key in zip(s2, k2, strict=True):
        for ckey, rep, members in classes:
            if ckey == key and _first_connected(s1[rep], b, labels, engine) is not None:
                cand.append(members)
                break
        else:
            return iter(())
    need: dict[int, int] = {}
    for members in cand:
        need[id(members)] = need.get(id(members), 0) + 1
    if any(need[id(members)] != len(members) for members in cand):
        return iter(())
    return _product_mappings(s1, s2, cand, labels, engine)


def _product_mappings(
    s1: list, s2: list, cand: list[list[int]], labels: dict, engine: str
) -> Iterator[dict]:
    """All bijections between isomorphic components times all isomorphisms of each pair."""
    used = [False] * len(s1)
    acc: dict = {}

    def rec(j: int) -> Iterator[dict]:
        if j == len(s2):
            yield dict(acc)
            return
        for i in cand[j]:
            if used[i]:
                continue
            used[i] = True
            for m in _iter_connected(s1[i], s2[j], labels, engine):
                acc.update(m)
                yield from rec(j + 1)
                for k in m:
                    del acc[k]
            used[i] = False

    return rec(0)


def _check(name: str, args: tuple, kwargs: dict) -> None:
    ok = can_run(name, args, kwargs)
    if ok is not True:
        raise NotImplementedError(f"gpumine backend cannot run {name}: {ok}")


def is_isomorphic(
    G1: Any, G2: Any, node_match: Any = None, edge_match: Any = None, *, engine: str | None = None
) -> bool:
    """``networkx.is_isomorphic`` on nx_gpumine's engines (see the module docstring).

    Parameters
    ----------
    G1, G2 : GpumineGraph, networkx.Graph or StaticGraph
        Graphs of the same directedness.
    node_match, edge_match : callable, optional
        None or made by ``categorical_node_match`` / ``categorical_edge_match``.
    engine : {"auto", "cpu", "cuda"}, optional
        Engine; default ``nx.config.backends.gpumine.engine``.

    Returns
    -------
    bool
    """
    _check("is_isomorphic", (G1, G2, node_match, edge_match), {})
    nl, el = _match_labels(node_match, edge_match)
    labels = {
        "node_label": None if nl is None else nl[0],
        "node_label_default": None if nl is None else nl[1],
        "edge_label": None if el is None else el[0],
        "edge_label_default": None if el is None else el[1],
    }
    if len(G1) == 0 and len(G2) == 0:
        return True
    if len(G1) == 0 or len(G2) == 0:
        return False
    return _first_isomorphism(G1, G2, labels, _engine_name(engine)) is not None


def _vf2pp_labels(node_label: Any, default_label: Any) -> dict:
    return {"node_label": node_label, "node_label_default": default_label}


def vf2pp_isomorphism(
    G1: Any,
    G2: Any,
    node_label: Any = None,
    default_label: Any = None,
    *,
    engine: str | None = None,
) -> dict | None:
    """``networkx.vf2pp_isomorphism`` on nx_gpumine's engines.

    Parameters
    ----------
    G1, G2 : GpumineGraph, networkx.Graph or StaticGraph
        Graphs of the same directedness.
    node_label : str, optional
        Node attribute compared between the graphs (missing -> ``default_label``).
    default_label : optional
        Label of nodes without ``node_label``.
    engine : {"auto", "cpu", "cuda"}, optional
        Engine; default ``nx.config.backends.gpumine.engine``.

    Returns
    -------
    dict or None
        ``{G1 node: G2 node}``, or None if the graphs are not isomorphic.
    """
    _check("vf2pp_isomorphism", (G1, G2, node_label, default_label), {})
    if len(G1) == 0 or len(G2) == 0:
        return None
    labels = _vf2pp_labels(node_label, default_label)
    return _first_isomorphism(G1, G2, labels, _engine_name(engine))


def vf2pp_is_isomorphic(
    G1: Any,
    G2: Any,
    node_label: Any = None,
    default_label: Any = None,
    *,
    engine: str | None = None,
) -> bool:
    """``networkx.vf2pp_is_isomorphic`` on nx_gpumine's engines.

    Parameters
    ----------
    G1, G2, node_label, default_label, engine
        As in :func:`vf2pp_isomorphism`.

    Returns
    -------
    bool
    """
    _check("vf2pp_is_isomorphic", (G1, G2, node_label, default_label), {})
    if len(G1) == 0 or len(G2) == 0:
        return False
    labels = _vf2pp_labels(node_label, default_label)
    return _first_isomorphism(G1, G2, labels, _engine_name(engine)) is not None


def vf2pp_all_isomorphisms(
    G1: Any,
    G2: Any,
    node_label: Any = None,
    default_label: Any = None,
    *,
    engine: str | None = None,
) -> Iterator[dict]:
    """``networkx.vf2pp_all_isomorphisms`` on nx_gpumine's engines.

    Parameters
    ----------
    G1, G2, node_label, default_label, engine
        As in :func:`vf2pp_isomorphism`.

    Returns
    -------
    iterator of dict
        Every isomorphism as ``{G1 node: G2 node}`` (the search runs lazily).
    """
    _check("vf2pp_all_isomorphisms", (G1, G2, node_label, default_label), {})
    labels = _vf2pp_labels(node_label, default_label)
    return _iter_isomorphisms(G1, G2, labels, _engine_name(engine))


class BackendInterface:
    """The object NetworkX loads for ``backend="gpumine"`` (entry point ``networkx.backends``)."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)

    is_isomorphic = staticmethod(is_isomorphic)
    vf2pp_is_isomorphic = staticmethod(vf2pp_is_isomorphic)
    vf2pp_isomorphism = staticmethod(vf2pp_isomorphism)
    vf2pp_all_isomorphisms = staticmethod(vf2pp_all_isomorphisms)
