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

import weakref
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from ..errors import QueryError
from ..inputs.patterns import Pattern
from ..inputs.static_graph import ABSENT_LABEL, IMPOSSIBLE_LABEL, StaticGraph

__all__ = [
    "StaticPlan",
    "build_static_plan",
    "static_plan",
    "distinct_sibling",
    "symmetry_conditions",
    "size_needs",
    "symmetry_above",
    "twin_classes",
    "pattern_shape",
    "star_leaves",
    "root_mask",
    "node_mask",
    "TAIL_FALLING",
    "TAIL_CHOOSE",
    "TAIL_PAIR",
]

_I32 = np.int32

#: Tail kinds (see :class:`StaticPlan`).
TAIL_FALLING = 1
TAIL_CHOOSE = 2
TAIL_PAIR = 3


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
    tail_start, tail_kind : int
        How counting may finish a match without walking its last levels (``docs/static.md``,
        "Counting without enumerating"). Levels ``tail_start .. k-1`` (the *tail*, ``t`` of them)
        are pairwise non-adjacent, and each one's checks and symmetry conditions refer only to
        levels before ``tail_start`` and to tail levels as stated by the kind, so once levels
        ``< tail_start`` are mapped the tail's count follows from candidate-set sizes:
        ``TAIL_FALLING``: the t levels share one candidate set of size n (t = 1: the last level
        alone): n (n-1) ... (n-t+1) matches; ``TAIL_CHOOSE``: the same, with the symmetry
        conditions ordering the tail levels: C(n, t); ``TAIL_PAIR``: two levels with candidate
        sets A and B: |A| |B| - |A & B|. Enumeration walks every level and ignores the tail.
        Induced plans keep ``tail_start = k - 1`` (see ``indep_tail_start``).
    indep_tail_start, indep_tail_kind : int
        Induced plans only (else -1, 0): a tail of 2+ twin levels (``TAIL_FALLING`` or
        ``TAIL_CHOOSE``) that is pairwise non-adjacent in the pattern, so induced matching also
        demands its images be pairwise non-adjacent. Its formula holds for a mapping of the
        earlier levels exactly when the shared candidate set has no edge inside; an engine that
        checks this per mapping counts by the formula and walks the tail levels otherwise
        (counting independent sets in general is #P-hard). Engines that do not check it use
        ``tail_start`` (the last level alone).
    shape, shape_arg : str or None, int
        A whole-pattern structure with a dedicated counting algorithm (unlabeled, undirected,
        no self-loops): ``"clique"`` (shape_arg = k), ``"book"`` (an edge plus ``shape_arg``
        >= 2 non-adjacent nodes joined to both ends; the diamond is the book of 2),
        ``"cycle4"`` (non-induced 4-cycle), ``"bowtie"`` (non-induced; two triangles sharing
        one node, shape_arg = 2 triangles), ``"pair_edge"`` (two non-adjacent *poles* joined to
        all ``shape_arg = k - 2 >= 3`` other nodes, exactly one edge among those: T-DFS's P4
        for k = 5); None otherwise. Engines that lack the algorithm walk the plan as usual.
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
    tail_start: int = -1
    tail_kind: int = 0
    indep_tail_start: int = -1
    indep_tail_kind: int = 0
    shape: str | None = None
    shape_arg: int = 0

    @property
    def tail_len(self) -> int:
        """Number of tail levels counted combinatorially (``k - tail_start``)."""
        return self.k - self.tail_start

    @cached_property
    def impossible(self) -> bool:
        """True when a required label exists nowhere in the graph (no match can exist; decided
        once per plan: a plan's arrays are not changed after it is built)."""
        return bool(
            (self.node_label == IMPOSSIBLE_LABEL).any()
            or (self.loop_label == IMPOSSIBLE_LABEL).any()
            or (self.chk_out_label == IMPOSSIBLE_LABEL).any()
            or (self.chk_in_label == IMPOSSIBLE_LABEL).any()
        )

    @cached_property
    def closed_form(self) -> tuple[str, int, bool] | None:
        """The formula of the graph that answers this plan's distinct count, decided once per
        plan (:func:`nx_gpumine.execution.jobs.static.closed_form_count` applies it):
        ``("star", s, False)`` for an undirected star with ``s`` leaves (:func:`star_leaves`),
        ``("clique", k, loop_free)`` for an unlabelled undirected ``K_k`` without label filters
        (``loop_free``: induced, so its images may carry no self-loop), None otherwise."""
        if self.directed:
            return None
        s = star_leaves(self)
        if s:
            return ("star", s, False)
        k = int(self.k)
        if (
            self.shape != "clique"
            or int(self.shape_arg) != k
            or self.impossible
            or (np.asarray(self.loop_req) > 0).any()
            or any(
                (np.asarray(a) != ABSENT_LABEL).any()
                for a in (self.node_label, self.loop_label, self.chk_out_label, self.chk_in_label)
            )
        ):
            return None
        return ("clique", k, bool((np.asarray(self.loop_req) == 0).any()))

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
def _matching_order(
    pattern: Pattern, freq: np.ndarray, nodes: list[int] | None = None
) -> list[int]:
    """Connected greedy order of ``nodes`` (default: all): most-constrained next
    (connections, degree, label rarity)."""
    k = pattern.k
    nodes = list(range(k)) if nodes is None else sorted(nodes)
    adj = pattern.code != 0
    deg = pattern.degree()
    first = max(nodes, key=lambda a: (deg[a], -freq[a], -a))
    order = [first]
    placed = np.zeros(k, dtype=bool)
    placed[first] = True
    while len(order) < len(nodes):
        best = None
        best_key = None
        for a in nodes:
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


def twin_classes(pattern: Pattern) -> list[list[int]]:
    """Classes (of 2+ nodes) of pairwise non-adjacent nodes with identical neighbourhoods.

    Two nodes are *twins* when they are not adjacent and agree on every direction code to every
    other node, on self-loops, on node labels and on the labels of corresponding edges. Any
    permutation of a class is an automorphism fixing everything else, and once the rest of the
    pattern is mapped the class's nodes all have the same candidates: that is what lets a
    count finish them combinatorially (and keeps star-like patterns polynomial).
    """
    k = pattern.k
    code = pattern.code
    nl = pattern.node_labels
    el = pattern.edge_labels

    def twins(a: int, b: int) -> bool:
        if code[a, b] or pattern.loops[a] != pattern.loops[b]:
            return False
        if nl is not None and nl[a] != nl[b]:
            return False
        for c in range(k):
            if c in (a, b):
                continue
            if code[a, c] != code[b, c]:
                return False
            if el is not None:
                if code[a, c] & 1 and el[(a, c)] != el[(b, c)]:
                    return False
                if code[a, c] & 2 and el[(c, a)] != el[(c, b)]:
                    return False
        if el is not None and pattern.loops[a] and el[(a, a)] != el[(b, b)]:
            return False
        return True

    classes: list[list[int]] = []
    seen = [False] * k
    for a in range(k):
        if seen[a]:
            continue
        cls = [a] + [b for b in range(a + 1, k) if not seen[b] and twins(a, b)]
        for b in cls:
            seen[b] = True
        if len(cls) >= 2:
            classes.append(cls)
    return classes


def _connected(pattern: Pattern, nodes: list[int]) -> bool:
    if not nodes:
        return False
    allowed = set(nodes)
    seen = {nodes[0]}
    stack = [nodes[0]]
    while stack:
        a = stack.pop()
        for b in np.flatnonzero(pattern.code[a]).tolist():
            if b in allowed and b not in seen:
                seen.add(b)
                stack.append(b)
    return len(seen) == len(nodes)


def _plan_order(pattern: Pattern, freq: np.ndarray) -> list[int]:
    """Matching order: the core first, then the largest twin class (so it can be a tail).

    The core is the pattern without that class; when it is not a connected graph of 2+ nodes
    (a star's centre, the two ends of a 4-cycle's diagonal) one member of the class joins it.
    The twins go last only when at least two of them are left for the tail.
    """
    k = pattern.k
    default = _matching_order(pattern, freq)
    classes = twin_classes(pattern)
    if classes:
        cls = max(classes, key=len)
        core = [a for a in range(k) if a not in cls]
        rest = list(cls)
        if len(core) < 2 or not _connected(pattern, core):
            core = sorted(core + [rest.pop(0)])
        # a tail of one level gains nothing over the last level; and forcing the class last
        # must not add levels that expand a whole neighbour list (one backward neighbour):
        # those cost a factor of the degree each (T-DFS's P4 and P5 on power-law graphs)
        if len(rest) >= 2 and len(core) >= 2 and _connected(pattern, core):
            twins_last = _matching_order(pattern, freq, core) + rest
            if _free_levels(pattern, twins_last, len(core)) <= _free_levels(
                pattern, default, k - 1
            ):
                return twins_last
    return default


def _free_levels(pattern: Pattern, order: list[int], upto: int) -> int:
    """Levels 2 .. upto-1 of ``order`` with a single backward neighbour (list expansions)."""
    adj = pattern.code != 0
    return sum(1 for i in range(2, upto) if int(adj[order[i], order[:i]].sum()) == 1)


def _count_tail(
    k: int,
    induced: bool,
    checks: list[list[tuple[int, int, int, int]]],
    syms: list[list[int]],
    filters: list[tuple],
) -> tuple[int, int]:
    """``(tail_start, tail_kind)`` of a plan (see :class:`StaticPlan`).

    For an induced plan the tail may only be the last level; :func:`_indep_tail` gives the
    longer tail that holds when the candidates are pairwise non-adjacent.
    """
    if k <= 2:
        return k, TAIL_FALLING
    if induced:  # non-adjacency inside the tail would have to be checked
        return k - 1, TAIL_FALLING
    return _tail_search(k, checks, syms, filters, pairs=True)


def _indep_tail(
    k: int,
    checks: list[list[tuple[int, int, int, int]]],
    syms: list[list[int]],
    filters: list[tuple],
) -> tuple[int, int]:
    """``(indep_tail_start, indep_tail_kind)`` of an induced plan, or ``(-1, 0)``.

    Checks between tail levels must all be plain non-adjacency (code 0, no labels).
    """
    if k <= 3:
        return -1, 0
    lo, kind = _tail_search(k, checks, syms, filters, pairs=False)
    if k - lo < 2 or kind not in (TAIL_FALLING, TAIL_CHOOSE):
        return -1, 0
    return lo, kind


def _tail_search(
    k: int,
    checks: list[list[tuple[int, int, int, int]]],
    syms: list[list[int]],
    filters: list[tuple],
    *,
    pairs: bool,
) -> tuple[int, int]:
    """Longest tail whose levels check only earlier levels (non-adjacency among themselves)."""

    def independent(lo: int) -> bool:
        # a level of [lo, k) is checked against another level of [lo, k) only for
        # non-adjacency (induced plans; a monomorphism plan has no code-0 checks)
        return all(
            c[0] < lo or (c[1] == 0 and c[2] == -1 and c[3] == -1)
            for i in range(lo, k)
            for c in checks[i]
        )

    def outer(i: int, lo: int) -> list[tuple[int, int, int, int]]:
        return [c for c in checks[i] if c[0] < lo]

    for lo in range(2, k - 1):  # longest tail first
        if not independent(lo):
            continue
        levels = range(lo, k)
        first = lo
        same = all(
            outer(i, lo) == outer(first, lo)
            and filters[i] == filters[first]
            and [j for j in syms[i] if j < lo] == [j for j in syms[first] if j < lo]
            for i in levels
        )
        inner = [[j for j in syms[i] if j >= lo] for i in levels]
        if same and all(inner[i - lo] == list(range(lo, i)) for i in levels):
            return lo, TAIL_CHOOSE
        if same and all(not x for x in inner):
            return lo, TAIL_FALLING
        if pairs and k - lo == 2 and not inner[1]:
            return lo, TAIL_PAIR
    return k - 1, TAIL_FALLING


def pattern_shape(pattern: Pattern, induced: bool) -> tuple[str | None, int]:
    """``(shape, shape_arg)`` of a pattern (see :class:`StaticPlan`)."""
    k = pattern.k
    if (
        pattern.directed
        or pattern.node_labels is not None
        or pattern.edge_labels is not None
        or pattern.loops.any()
        or k < 3
    ):
        return None, 0
    adj = pattern.code != 0
    deg = adj.sum(axis=1)
    if (deg == k - 1).all():
        return "clique", k
    if induced:
        return None, 0
    if k == 4 and (deg == 2).all() and pattern.is_connected():
        return "cycle4", 4
    spine = np.flatnonzero(deg == k - 1)
    if len(spine) == 2 and adj[spine[0], spine[1]]:
        others = [a for a in range(k) if a not in spine]
        if all(deg[a] == 2 for a in others):
            return "book", k - 2
    if k == 5 and sorted(deg.tolist()) == [2, 2, 2, 2, 4]:
        return "bowtie", 2  # two triangles sharing one node (the degree-4 node)
    if k >= 5:  # pair-edge: non-adjacent poles joined to all k - 2 others, one edge among those
        poles = np.flatnonzero(deg == k - 2)
        for i, a in enumerate(poles):
            for b in poles[i + 1 :]:
                rest = [v for v in range(k) if v != a and v != b]
                if (
                    not adj[a, b]
                    and adj[a, rest].all()
                    and adj[b, rest].all()
                    and int(adj[np.ix_(rest, rest)].sum()) == 2
                ):
                    return "pair_edge", k - 2
    return None, 0


def star_leaves(plan: StaticPlan) -> int:
    """The leaves ``s`` of a plan that counts an undirected star ``K(1, s)`` (``s >= 2``)
    without labels, self-loops or induced matching, whose count is a degree sum (``sum_v
    C(d_v, s)`` distinct subgraphs, ``s!`` times that in mappings); 0 for any other plan."""
    pattern = plan.pattern
    if (
        plan.induced
        or plan.directed
        or pattern.directed
        or pattern.node_labels is not None
        or pattern.edge_labels is not None
        or pattern.loops.any()
        or pattern.k < 3
    ):
        return 0
    deg = (pattern.code != 0).sum(axis=1)
    leaves = pattern.k - 1
    if int(deg.max()) == leaves and int(deg.sum()) == 2 * leaves:  # a centre and its leaves
        return leaves
    return 0


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

    order = [0] if k == 1 else _plan_order(pattern, freq)
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

    filters = [(node_label[i], loop_req[i], loop_label[i], min_degree[i]) for i in range(k)]
    tail_start, tail_kind = _count_tail(k, induced, checks, syms, filters)
    indep_start, indep_kind = _indep_tail(k, checks, syms, filters) if induced else (-1, 0)
    shape, shape_arg = pattern_shape(pattern, induced)

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
        tail_start=tail_start,
        tail_kind=tail_kind,
        indep_tail_start=indep_start,
        indep_tail_kind=indep_kind,
        shape=shape,
        shape_arg=shape_arg,
    )
    plan = StaticPlan(root_ok=None, **plan_kwargs)
    if k == 1:
        return plan
    mask = root_mask(graph, plan)
    mask.setflags(write=False)
    return replace(plan, root_ok=mask)


def static_plan(
    pattern: Pattern, graph: StaticGraph, *, induced: bool, distinct: bool
) -> StaticPlan:
    """:func:`build_static_plan`, built once per (pattern, options) and kept with the graph.

    Repeated queries on a prepared graph then cost no host work proportional to its size (the
    root mask is O(edges)).
    """
    key = ("static_plan", pattern.key(), bool(induced), bool(distinct))
    return graph.derived(
        key, lambda: build_static_plan(pattern, graph, induced=induced, distinct=distinct)
    )


def distinct_sibling(plan: StaticPlan, graph: StaticGraph) -> StaticPlan | None:
    """The plan to count instead of ``plan`` (times ``|Aut(P)|``), or None: count ``plan`` itself.

    The one place that decides to count mappings as distinct occurrences times ``|Aut(P)|``
    (execution applies it, whichever engine runs; ``docs/architecture.md``). For a mapping plan
    (``distinct=False``, no symmetry restrictions) of ``k >= 3`` nodes whose pattern has
    automorphisms, it is the pattern's ``distinct=True`` plan with the same options: its count
    over every root, times ``|Aut(P)|``, equals ``plan``'s (exact: ``Aut(P)`` acts freely on the
    mappings and the restrictions keep one mapping per orbit), and the symmetry-broken search
    walks about ``|Aut(P)|`` times fewer branches. Per-range counts differ between the two
    plans, so only a count over every root may use it. Other plans (distinct ones, 1- and
    2-node plans, which execution answers from the plan's masks, and patterns without
    automorphisms) give None.

    Built once by :func:`static_plan` and kept with the graph (``graph.derived``), so a repeated
    count pays only a dictionary look-up.

    Parameters
    ----------
    plan : StaticPlan
        A plan built for ``graph``.
    graph : StaticGraph
        The data graph.

    Returns
    -------
    StaticPlan or None
    """
    if plan.distinct or plan.k < 3 or plan.num_automorphisms <= 1 or len(plan.sym_level):
        return None
    return static_plan(plan.pattern, graph, induced=plan.induced, distinct=True)


def size_needs(plan: StaticPlan) -> np.ndarray:
    """Per level, how many later levels must map to distinct vertices of that level's own
    candidate range, above its image (int64 ``[k]``; 0 without symmetry restrictions).

    Level ``j > i`` counts for level ``i`` when its candidates are a subset of ``i``'s (the
    backward neighbours of ``i`` are backward neighbours of ``j``, with the same checks: ``j``
    intersects the same lists, filtered alike) and the symmetry conditions demand
    ``f(j) > f(i)`` (directly, or through levels in between). A level's candidates are sorted,
    so a candidate with fewer than ``size_needs[i]`` positions after it in the range can never
    be completed: the walk stops its range that many positions early (an exact pruning; for
    a clique pattern counted as distinct subgraphs, the walk over ordered subsets then visits
    only prefixes that can still be completed, instead of every ordered subset of the graph's
    cliques: K30 in K32).

    Parameters
    ----------
    plan : StaticPlan
        A plan.

    Returns
    -------
    numpy.ndarray
        int64 ``[k]``, read-only (levels 0 and 1, the root edge, always 0); computed once per
        plan.
    """
    need = _SIZE_NEEDS.get(plan)
    if need is None:
        need = _size_needs(plan)
        need.setflags(write=False)
        _SIZE_NEEDS[plan] = need
    return need


#: :func:`size_needs` of each plan alive (plans are immutable; computed once).
_SIZE_NEEDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def symmetry_above(plan: StaticPlan) -> np.ndarray:
    """``above[i, j]``: the symmetry conditions demand ``f(j) > f(i)``, directly or through
    levels in between (bool ``[k, k]``; conditions point back, so one pass closes them)."""
    k = plan.k
    above = np.zeros((k, k), dtype=bool)
    for j in range(k):
        for s in plan.sym_level[plan.sym_ptr[j] : plan.sym_ptr[j + 1]].tolist():
            above[s, j] = True
            above[:, j] |= above[:, s]
    return above


def _size_needs(plan: StaticPlan) -> np.ndarray:
    k = plan.k
    need = np.zeros(k, dtype=np.int64)
    if len(plan.sym_level) == 0:
        return need
    above = symmetry_above(plan)
    bns = [set(plan.bn_level[plan.bn_ptr[i] : plan.bn_ptr[i + 1]].tolist()) for i in range(k)]
    checks = [{c[0]: c[1:] for c in plan.checks(i)} for i in range(k)]
    for i in range(2, k):
        if not bns[i]:
            continue
        for j in range(i + 1, k):
            if (
                above[i, j]
                and bns[i] <= bns[j]
                and all(checks[j][b] == checks[i][b] for b in bns[i])
            ):
                need[i] += 1
    return need


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
    # int32 ids where they fit: the comparison with ``indices`` (int32) then needs no int64
    # temporaries, which matters for graphs of billions of entries
    ids = np.int32 if graph.n < 2**31 else np.int64
    owner = np.repeat(np.arange(graph.n, dtype=ids), graph.degree)
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
