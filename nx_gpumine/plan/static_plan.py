"""The static matching plan: pattern + graph statistics -> small immutable int arrays.

Every array is indexed by *level* (position in the matching order). Both engines (numba CPU,
CUDA) walk the same plan; the semantics of each field are in ``docs/architecture.md``.

Ideas it carries (T-DFS, cuTS, Grochow-Kellis):

* a connected matching order chosen from pattern degree and data-label rarity;
* backward neighbours (candidates = intersection of their neighbour lists);
* per-level checks (direction codes, edge labels, induced non-adjacency);
* intersection reuse: a level whose backward neighbours contain those of an earlier level
  starts from that level's stored set;
* symmetry breaking from the automorphism group (only for distinct-subgraph counts), so that
  each occurrence is found exactly once instead of dividing afterwards;
* filters: minimum degree, node labels, self-loops, and an exact root-edge mask.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import QueryError
from ..inputs.patterns import Pattern
from ..inputs.static_graph import ABSENT_LABEL, IMPOSSIBLE_LABEL, StaticGraph

__all__ = ["StaticPlan", "build_static_plan", "symmetry_conditions", "root_mask", "node_mask"]

_I32 = np.int32


@dataclass(frozen=True, eq=False)
class StaticPlan:
    """Immutable matching plan (see ``docs/architecture.md`` for the contract).

    Attributes
    ----------
    k : int
        Pattern size.
    order : numpy.ndarray
        int32 ``[k]``: pattern node matched at each level (levels 0 and 1 = root edge).
    induced, directed, distinct : bool
        Induced matching; directed graphs; symmetry restrictions present (distinct count).
    node_label, loop_label, min_degree : numpy.ndarray
        int32 ``[k]`` per-level filters (-1 = any label, -2 = impossible label).
    loop_req : numpy.ndarray
        int8 ``[k]``: -1 any, 1 self-loop required, 0 self-loop forbidden.
    chk_ptr, chk_level, chk_code, chk_out_label, chk_in_label : numpy.ndarray
        int32 CSR of the checks of each level against earlier levels.
    bn_ptr, bn_level : numpy.ndarray
        int32 CSR of backward neighbours per level.
    reuse : numpy.ndarray
        int32 ``[k]``: earlier level whose stored candidate set level i starts from, or -1.
    sym_ptr, sym_level : numpy.ndarray
        int32 CSR: the candidate at level i must have an id greater than ``f(sym_level)``.
    root_ok : numpy.ndarray or None
        uint8 per union-CSR entry: 1 iff that entry as root edge passes every level-0 and
        level-1 condition (labels, loops, degrees, check (0, 1), symmetry).
    edge_checks : bool
        False when every check of a backward neighbour is implied by adjacency (undirected
        graph, no edge labels): engines may then skip direction/label tests on them.
    pattern : Pattern
        The pattern the plan was built for.
    num_automorphisms : int
        ``|Aut(P)|`` (labels respected).
    """

    k: int
    order: np.ndarray
    induced: bool
    directed: bool
    distinct: bool
    node_label: np.ndarray
    loop_req: np.ndarray
    loop_label: np.ndarray
    min_degree: np.ndarray
    chk_ptr: np.ndarray
    chk_level: np.ndarray
    chk_code: np.ndarray
    chk_out_label: np.ndarray
    chk_in_label: np.ndarray
    bn_ptr: np.ndarray
    bn_level: np.ndarray
    reuse: np.ndarray
    sym_ptr: np.ndarray
    sym_level: np.ndarray
    root_ok: np.ndarray | None
    edge_checks: bool
    pattern: Pattern
    num_automorphisms: int

    @property
    def impossible(self) -> bool:
        """True when a required label exists nowhere in the graph (no match can exist)."""
        return bool(
            (self.node_label == IMPOSSIBLE_LABEL).any()
            or (self.loop_label == IMPOSSIBLE_LABEL).any()
            or (self.chk_out_label == IMPOSSIBLE_LABEL).any()
            or (self.chk_in_label == IMPOSSIBLE_LABEL).any()
        )

    def checks(self, level: int) -> list[tuple[int, int, int, int]]:
        """``(j, code, out_label, in_label)`` checks of ``level`` (for reading and tests)."""
        lo, hi = int(self.chk_ptr[level]), int(self.chk_ptr[level + 1])
        return [
            (
                int(self.chk_level[c]),
                int(self.chk_code[c]),
                int(self.chk_out_label[c]),
                int(self.chk_in_label[c]),
            )
            for c in range(lo, hi)
        ]

    def describe(self) -> str:
        """Human-readable summary of the plan."""
        lines = [
            f"StaticPlan k={self.k} induced={self.induced} directed={self.directed} "
            f"distinct={self.distinct} |Aut|={self.num_automorphisms}"
        ]
        for i in range(self.k):
            bn = self.bn_level[self.bn_ptr[i] : self.bn_ptr[i + 1]].tolist()
            sym = self.sym_level[self.sym_ptr[i] : self.sym_ptr[i + 1]].tolist()
            lines.append(
                f"  level {i}: node {self.pattern.nodes[int(self.order[i])]!r} "
                f"label={int(self.node_label[i])} mindeg={int(self.min_degree[i])} "
                f"bn={bn} reuse={int(self.reuse[i])} sym>{sym} checks={self.checks(i)}"
            )
        return "\n".join(lines)


# ---------------------------------------------------------------------- helpers
def _matching_order(pattern: Pattern, freq: np.ndarray) -> list[int]:
    """Connected greedy order: most-constrained next (connections, degree, label rarity)."""
    k = pattern.k
    adj = pattern.code != 0
    deg = pattern.degree()
    first = max(range(k), key=lambda a: (deg[a], -freq[a], -a))
    order = [first]
    placed = np.zeros(k, dtype=bool)
    placed[first] = True
    while len(order) < k:
        best = None
        best_key = None
        for a in range(k):
            if placed[a]:
                continue
            conn = int(adj[a, placed].sum())
            if conn == 0:
                continue
            key = (conn, deg[a], -freq[a], -a)
            if best_key is None or key > best_key:
                best, best_key = a, key
        if best is None:  # pragma: no cover - connectivity is checked before
            raise QueryError("pattern is disconnected")
        order.append(best)
        placed[best] = True
    return order


def symmetry_conditions(pattern: Pattern, order: list[int]) -> list[tuple[int, int]]:
    """Grochow-Kellis symmetry-breaking conditions ``f(a) < f(b)`` as pattern-node pairs.

    Walk ``order``; for each node v whose orbit under the current group (automorphisms fixing
    the earlier nodes) is non-trivial, demand that v maps below every other node of its orbit,
    then pass to v's stabiliser. The earlier node of each pair therefore always comes first in
    ``order``, and exactly one mapping per orbit of Aut(P) satisfies all conditions.
    """
    conds: list[tuple[int, int]] = []
    for v, orbit in pattern.stabilizer_chain(list(order)):
        conds.extend((v, w) for w in orbit if w != v)
    return conds


def _csr(rows: list[list]) -> tuple[np.ndarray, list]:
    ptr = np.zeros(len(rows) + 1, dtype=_I32)
    flat: list = []
    for i, r in enumerate(rows):
        flat.extend(r)
        ptr[i + 1] = len(flat)
    return ptr, flat


def _arr(values: list, dtype=_I32) -> np.ndarray:
    a = np.asarray(values, dtype=dtype).reshape(-1)
    a.setflags(write=False)
    return a


# ---------------------------------------------------------------------- builder
def build_static_plan(
    pattern: Pattern, graph: StaticGraph, *, induced: bool, distinct: bool
) -> StaticPlan:
    """Build the plan for matching ``pattern`` in ``graph``.

    Parameters
    ----------
    pattern : Pattern
        The query (labels as raw values; they are encoded with the graph's vocabularies).
    graph : StaticGraph
        The data graph.
    induced : bool
        Also demand non-adjacency for pattern non-edges (and no self-loop where the pattern has
        none).
    distinct : bool
        Add symmetry-breaking restrictions so each distinct occurrence is found once.

    Returns
    -------
    StaticPlan

    Raises
    ------
    QueryError
        Disconnected pattern, directedness mismatch, pattern larger than the graph, or labels
        the graph was not converted with.
    """
    k = pattern.k
    if k == 0:
        raise QueryError("the pattern is empty (it has no nodes)")
    if pattern.directed != graph.directed:
        pk = "directed" if pattern.directed else "undirected"
        gk = "directed" if graph.directed else "undirected"
        raise QueryError(
            f"the pattern is {pk} but the graph is {gk}; both must have the same directedness"
        )
    if k > graph.n:
        raise QueryError(f"the pattern has {k} nodes but the graph only {graph.n}")
    if not pattern.is_connected():
        raise QueryError(
            "the pattern is disconnected; the engines match connected patterns only "
            "(match each component, or use NetworkX's matchers)"
        )
    if pattern.node_labels is not None and graph.node_label is None:
        raise QueryError(
            "the pattern has node labels but the graph was converted without node labels "
            "(pass node_label=...)"
        )
    if pattern.edge_labels is not None and graph.out_label is None:
        raise QueryError(
            "the pattern has edge labels but the graph was converted without edge labels "
            "(pass edge_label=...)"
        )

    # label codes per pattern node and rarity in the data graph
    ncode = np.full(k, ABSENT_LABEL, dtype=np.int64)
    freq = np.zeros(k, dtype=np.float64)
    if pattern.node_labels is not None:
        counts = np.bincount(graph.node_label, minlength=len(graph.node_vocab) or 1)
        for a, v in enumerate(pattern.node_labels):
            c = graph.encode_node_label(v)
            ncode[a] = c
            freq[a] = counts[c] if c >= 0 else 0
    el = pattern.edge_labels

    def ecode(a: int, b: int) -> int:
        if el is None:
            return ABSENT_LABEL
        return graph.encode_edge_label(el[(a, b)])

    order = [0] if k == 1 else _matching_order(pattern, freq)
    level_of = {a: i for i, a in enumerate(order)}
    deg = pattern.degree()
    code = pattern.code

    node_label = [int(ncode[a]) for a in order]
    loop_req = []
    loop_label = []
    for a in order:
        if pattern.loops[a]:
            loop_req.append(1)
            loop_label.append(ecode(a, a))
        else:
            loop_req.append(0 if induced else -1)
            loop_label.append(ABSENT_LABEL)
    min_degree = [int(deg[a]) for a in order]

    checks: list[list[tuple[int, int, int, int]]] = []
    bns: list[list[int]] = []
    for i, a in enumerate(order):
        row = []
        bn = []
        for j in range(i):
            b = order[j]
            c = int(code[b, a])  # seen from f(j): bit0 = f(j) -> cand
            if c == 0 and not induced:
                continue
            out_l = ecode(b, a) if c & 1 else ABSENT_LABEL
            in_l = ecode(a, b) if c & 2 else ABSENT_LABEL
            row.append((j, c, out_l, in_l))
            if c != 0:
                bn.append(j)
        checks.append(row)
        bns.append(bn)

    # intersection reuse
    reuse = [-1] * k
    for i in range(2, k):
        best = -1
        best_size = 1
        chk_i = {c[0]: c for c in checks[i]}
        for r in range(2, i):
            if len(bns[r]) <= 1 or not set(bns[r]) <= set(bns[i]):
                continue
            chk_r = {c[0]: c for c in checks[r]}
            if any(chk_r[j][1:] != chk_i[j][1:] for j in bns[r]):
                continue
            if len(bns[r]) >= best_size:
                best, best_size = r, len(bns[r])
        reuse[i] = best

    # symmetry breaking
    syms: list[list[int]] = [[] for _ in range(k)]
    if distinct and k > 1:
        for a, b in symmetry_conditions(pattern, order):
            la, lb = level_of[a], level_of[b]
            assert la < lb
            syms[lb].append(la)
        for s in syms:
            s.sort()

    chk_ptr, flat = _csr(checks)
    bn_ptr, bn_flat = _csr(bns)
    sym_ptr, sym_flat = _csr(syms)
    edge_checks = bool(graph.directed or el is not None)

    plan_kwargs = dict(
        k=k,
        order=_arr(order),
        induced=bool(induced),
        directed=bool(graph.directed),
        distinct=bool(distinct),
        node_label=_arr(node_label),
        loop_req=_arr(loop_req, np.int8),
        loop_label=_arr(loop_label),
        min_degree=_arr(min_degree),
        chk_ptr=_arr(chk_ptr),
        chk_level=_arr([c[0] for c in flat]),
        chk_code=_arr([c[1] for c in flat]),
        chk_out_label=_arr([c[2] for c in flat]),
        chk_in_label=_arr([c[3] for c in flat]),
        bn_ptr=_arr(bn_ptr),
        bn_level=_arr(bn_flat),
        reuse=_arr(reuse),
        sym_ptr=_arr(sym_ptr),
        sym_level=_arr(sym_flat),
        edge_checks=edge_checks,
        pattern=pattern,
        num_automorphisms=pattern.num_automorphisms(),
    )
    plan = StaticPlan(root_ok=None, **plan_kwargs)
    if k == 1:
        return plan
    mask = root_mask(graph, plan)
    mask.setflags(write=False)
    return replace(plan, root_ok=mask)


def node_mask(graph: StaticGraph, p: StaticPlan, level: int) -> np.ndarray:
    """Vertices passing the per-vertex filters of ``level`` (label, self-loop, degree)."""
    ok = graph.degree >= int(p.min_degree[level])
    lab = int(p.node_label[level])
    if lab != ABSENT_LABEL:
        ok &= graph.node_label == lab
    lr = int(p.loop_req[level])
    if lr == 1:
        ok &= graph.loop == 1
        ll = int(p.loop_label[level])
        if ll != ABSENT_LABEL:
            ok &= graph.loop_label == ll
    elif lr == 0:
        ok &= graph.loop == 0
    return ok


def root_mask(graph: StaticGraph, p: StaticPlan) -> np.ndarray:
    """Exact uint8 mask of union-CSR entries usable as root edge (levels 0 and 1)."""
    owner = np.repeat(np.arange(graph.n, dtype=np.int64), graph.degree)
    nbr = graph.indices
    ok = node_mask(graph, p, 0)[owner] & node_mask(graph, p, 1)[nbr]
    j, c, out_l, in_l = (
        int(p.chk_level[0]),
        int(p.chk_code[0]),
        int(p.chk_out_label[0]),
        int(p.chk_in_label[0]),
    )
    assert j == 0 and int(p.chk_ptr[1]) == 0 and int(p.chk_ptr[2]) == 1
    dc = graph.dircode
    ok &= (dc == c) if p.induced else ((dc & c) == c)
    if out_l != ABSENT_LABEL:
        ok &= graph.out_label == out_l
    if in_l != ABSENT_LABEL:
        ok &= graph.in_label == in_l
    s_lo, s_hi = int(p.sym_ptr[1]), int(p.sym_ptr[2])
    if s_hi > s_lo:  # the only earlier level is 0
        ok &= nbr > owner
    return ok.astype(np.uint8)
