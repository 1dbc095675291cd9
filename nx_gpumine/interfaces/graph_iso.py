"""Graph isomorphism by colour refinement and individualisation (no automorphism enumeration).

The two graphs become one union graph (``G1`` nodes ``0..n-1``, ``G2`` nodes ``n..2n-1``);
node labels, self-loops (with their label) and edge labels (or multigraph multiplicities) are
colours. The engine (:mod:`nx_gpumine.engines.cpu.refine` or its CUDA twin) refines the colouring
to a stable one; while it is not discrete, the search pairs one ``G1`` node ``v`` of the
smallest non-singleton class with each ``G2`` node of that class in turn, gives both a new colour
and refines again (VF2++ and nauty prune the same way). A discrete colouring pairs the graphs'
nodes; the pairing is verified edge by edge and reported if it holds. Every isomorphism is
found exactly once (at each level it pairs ``v`` with exactly one candidate), so
:func:`iter_isomorphisms` enumerates them all, lazily.

``node_match``/``edge_match`` callables that are not categorical (NetworkX's numerical and
generic matchers, user functions) are tested the way VF2 tests them: on every pair the search
fixes and, at a leaf, on every node and edge pair of the mapping.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np

from ..engines.contract import engine_module
from ..errors import GpumineError
from ..inputs.backend_graph import MULTI_DATA, MULTIPLICITY, GpumineGraph
from ..inputs.static_graph import LabelSpec

__all__ = [
    "IsoMatchers",
    "IsoProblem",
    "NO_MATCHERS",
    "invariants_agree",
    "isomorphism_problem",
    "iter_isomorphisms",
    "first_isomorphism",
]

logger = logging.getLogger("nx_gpumine")

_MIX1 = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def _codes(values: list, vocab: dict) -> np.ndarray:
    """Joint integer codes of hashable values (NetworkX compares categories with ``==``)."""
    out = np.empty(len(values), dtype=np.int64)
    for i, x in enumerate(values):
        out[i] = vocab.setdefault(x, len(vocab) + 1)
    return out


class IsoMatchers(NamedTuple):
    """What matched nodes and edges of the two graphs must agree on.

    Parameters
    ----------
    node_spec, edge_spec : LabelSpec or None
        Categorical labels (``data.get(attr, default)``), matched as colours.
    node_match, edge_match : callable, optional
        Other matchers, called as NetworkX calls them: ``node_match(G1.nodes[u], G2.nodes[v])``,
        ``edge_match(G1[u][v], G2[f(u)][f(v)])`` (a multigraph's ``{key: data}`` dicts).
    """

    node_spec: LabelSpec | None = None
    edge_spec: LabelSpec | None = None
    node_match: Callable | None = None
    edge_match: Callable | None = None


#: Plain isomorphism: no labels, no matcher callables.
NO_MATCHERS = IsoMatchers()


class IsoProblem:
    """Two graphs prepared for the isomorphism search.

    Parameters
    ----------
    g1, g2 : GpumineGraph
        Graphs of the same kind, with the same number of nodes.
    matchers : IsoMatchers
        Labels matched as colours and the other matchers (none: plain isomorphism).
    engine : str
        ``"cpu"`` or ``"cuda"`` (already resolved).
    """

    def __init__(
        self,
        g1: GpumineGraph,
        g2: GpumineGraph,
        matchers: IsoMatchers = NO_MATCHERS,
        engine: str = "cpu",
    ) -> None:
        node_spec, edge_spec, node_match, edge_match = matchers
        self.g1, self.g2 = g1, g2
        self.n = n = len(g1)
        self.directed = g1.directed
        self.node_match = node_match
        self.edge_match = edge_match
        self.engine_name = engine
        self.mod = engine_module("refine", "cuda" if engine == "cuda" else "cpu")
        nvocab: dict = {}
        evocab: dict = {}
        ncodes = np.zeros(2 * n, dtype=np.int64)
        if node_spec is not None:
            ncodes[:n] = _codes(g1.node_values(node_spec), nvocab)
            ncodes[n:] = _codes(g2.node_values(node_spec), nvocab)
        src = np.concatenate([g1.src, g2.src + n])
        dst = np.concatenate([g1.dst, g2.dst + n])
        if edge_spec is not None:
            lab = np.concatenate(
                [
                    _codes(g1.edge_values(edge_spec), evocab),
                    _codes(g2.edge_values(edge_spec), evocab),
                ]
            )
        else:
            lab = np.zeros(len(src), dtype=np.int64)
        loop = src == dst
        loop_code = np.zeros(2 * n, dtype=np.int64)
        loop_code[src[loop]] = lab[loop] + 1
        s, d, lb = src[~loop], dst[~loop], lab[~loop]
        if self.directed:
            out = _csr(s, d, lb, 2 * n)
            inn = _csr(d, s, lb, 2 * n)
        else:
            out = _csr(
                np.concatenate([s, d]), np.concatenate([d, s]), np.concatenate([lb, lb]), 2 * n
            )
            inn = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))
        self.arrays = (*out, *inn)
        h = (ncodes.astype(np.uint64) * np.uint64(_MIX1)) ^ (
            loop_code.astype(np.uint64) << np.uint64(32)
        )
        self.initial = h
        self._pair_ok: dict = {}
        self._e2 = None
        #: called once with the first result (or the end): the backend logs first-use times
        self.on_first_result: Callable[[], None] = lambda: None

    # ------------------------------------------------------------------ callables
    def _nodes_ok(self, col: np.ndarray) -> bool:
        """node_match on the pairs that the colouring already fixes (singleton classes)."""
        if self.node_match is None:
            return True
        n = self.n
        vals, inv, counts = np.unique(_host(col), return_inverse=True, return_counts=True)
        single = np.flatnonzero(counts[inv[:n]] == 2)
        if single.size == 0:
            return True
        pos2 = {int(c): i for i, c in enumerate(inv[n:].tolist()) if counts[c] == 2}
        d1 = self.g1.node_data or [{}] * n
        d2 = self.g2.node_data or [{}] * n
        for u in single.tolist():
            w = pos2[int(inv[u])]
            ok = self._pair_ok.get((u, w))
            if ok is None:
                ok = self._pair_ok[(u, w)] = bool(self.node_match(d1[u], d2[w]))
            if not ok:
                return False
        return True

    def _edges_ok(self, f: np.ndarray) -> bool:
        if self.edge_match is None:
            return True
        if self._e2 is None:
            self._e2 = {}
            data = self.g2.edge_data or [{}] * len(self.g2.src)
            for a, b, dd in zip(self.g2.src.tolist(), self.g2.dst.tolist(), data, strict=True):
                self._e2[(a, b)] = dd
                if not self.directed:
                    self._e2[(b, a)] = dd
        data1 = self.g1.edge_data or [{}] * len(self.g1.src)
        fl = f.tolist()
        for a, b, dd in zip(self.g1.src.tolist(), self.g1.dst.tolist(), data1, strict=True):
            other = self._e2[(fl[a], fl[b])]
            if self.g1.multigraph:
                dd = dd.get(MULTI_DATA, {})
                other = other.get(MULTI_DATA, {})
            if not self.edge_match(dd, other):
                return False
        return True

    def _leaf(self, col: np.ndarray) -> np.ndarray | None:
        f = self.mod.verify(col, self.n, *self.arrays[:3])
        f = np.asarray(f)
        if len(f) != self.n:
            return None
        if self.node_match is not None and not self._nodes_ok(col):
            return None
        if not self._edges_ok(f):
            return None
        return f

    # ------------------------------------------------------------------ search
    def _frame(self, col: np.ndarray, depth: int) -> list:
        n = self.n
        c1 = _host(col)[:n]
        vals, inv, counts = np.unique(c1, return_inverse=True, return_counts=True)
        big = np.flatnonzero(counts >= 2)
        target = big[np.argmin(counts[big])]
        v = int(np.flatnonzero(inv == target)[0])
        cands = np.flatnonzero(_host(col)[n:] == vals[target]).astype(np.int64)
        return [col, v, cands, 0, depth, self.mod.accumulate(self.arrays, col)]

    def mappings(self) -> Iterator[np.ndarray]:
        """Every isomorphism as an int64 array ``f`` (G1 node ``i`` -> G2 node ``f[i]``)."""
        n = self.n
        col, cnt = self.mod.stable_colours(self.arrays, self.initial, n)
        if cnt < 0:
            return
        if cnt == n:
            f = self._leaf(col)
            if f is not None:
                yield f
            return
        if not self._nodes_ok(col):
            return
        stack = [self._frame(col, 0)]
        while stack:
            fr = stack[-1]
            i, new, cnt = self.mod.scan(self.arrays, fr[0], fr[5], n, fr[1], fr[2], fr[3], fr[4])
            if i < 0:
                stack.pop()
                continue
            fr[3] = i + 1
            if cnt == n:
                f = self._leaf(new)
                if f is not None:
                    yield f
                continue
            if not self._nodes_ok(new):
                continue
            stack.append(self._frame(new, fr[4] + 1))


def _host(col: Any) -> np.ndarray:
    """A colouring on the host (CuPy arrays are copied back)."""
    return col.get() if hasattr(col, "get") else col


def _csr(s: np.ndarray, d: np.ndarray, lab: np.ndarray, N: int) -> tuple:
    order = np.lexsort((d, s))
    ptr = np.zeros(N + 1, dtype=np.int64)
    np.cumsum(np.bincount(s, minlength=N), out=ptr[1:])
    return ptr, np.ascontiguousarray(d[order]), np.ascontiguousarray(lab[order])


def invariants_agree(g1: GpumineGraph, g2: GpumineGraph) -> bool:
    """Whether the cheap isomorphism invariants agree: orders, sizes and degree signatures.

    Parameters
    ----------
    g1, g2 : GpumineGraph
        Graphs of the same kind (directedness, multigraph or not).

    Returns
    -------
    bool
        False if the graphs are certainly not isomorphic.
    """
    if len(g1) != len(g2) or g1.number_of_edges() != g2.number_of_edges():
        return False
    return bool(np.array_equal(g1.degree_signature(), g2.degree_signature()))


def isomorphism_problem(
    g1: GpumineGraph, g2: GpumineGraph, matchers: IsoMatchers = NO_MATCHERS, engine: str = "cpu"
) -> IsoProblem:
    """The :class:`IsoProblem` of two graphs, multigraphs and unhashable labels included.

    Multigraphs are matched with their edge multiplicities (``MULTIPLICITY``) as edge colours,
    in place of ``matchers.edge_spec``. Where a label value is not hashable (it cannot be a
    colour), labels are compared with ``==`` through the matcher path instead, as NetworkX's
    categorical matchers compare them.

    Parameters
    ----------
    g1, g2, matchers, engine
        As for :class:`IsoProblem`.

    Returns
    -------
    IsoProblem
    """
    multiplicity = LabelSpec.of(MULTIPLICITY, 1) if g1.multigraph else None
    if g1.multigraph:
        matchers = matchers._replace(edge_spec=multiplicity)
    try:
        return IsoProblem(g1, g2, matchers, engine=engine)
    except (GpumineError, TypeError):
        # unhashable label values: compare them with == through the matcher path instead
        node_spec, edge_spec, node_match, edge_match = matchers
        if node_spec is not None:
            node_match = node_match or _categorical_callable(node_spec)
        if edge_spec is not None and not g1.multigraph:
            edge_match = edge_match or _categorical_callable(edge_spec)
        fallback = IsoMatchers(None, multiplicity, node_match, edge_match)
        return IsoProblem(g1, g2, fallback, engine=engine)


def _categorical_callable(spec: LabelSpec) -> Callable[[dict, dict], bool]:
    """A matcher comparing the labels of two attribute dicts under ``spec`` with ``==``."""

    def match(d1: dict, d2: dict) -> bool:
        return bool(spec.value(d1, "") == spec.value(d2, ""))

    return match


def iter_isomorphisms(problem: IsoProblem) -> Iterator[dict]:
    """Every isomorphism as ``{G1 node: G2 node}``, lazily.

    ``problem.on_first_result`` is called once: with the first isomorphism, or at the end when
    there is none.

    Parameters
    ----------
    problem : IsoProblem

    Yields
    ------
    dict
    """
    k1, k2 = problem.g1.keys, problem.g2.keys
    first = True
    for f in problem.mappings():
        if first:
            problem.on_first_result()
            first = False
        yield {k1[i]: k2[j] for i, j in enumerate(f.tolist())}
    if first:
        problem.on_first_result()


def first_isomorphism(problem: IsoProblem) -> dict | None:
    """One isomorphism ``{G1 node: G2 node}``, or None.

    Parameters
    ----------
    problem : IsoProblem

    Returns
    -------
    dict or None
    """
    return next(iter_isomorphisms(problem), None)
