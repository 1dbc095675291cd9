"""Work bounds from a static plan: how many partial matches its matching order can visit.

Pure numpy over the plan and the graph's degrees, no engine. A *partial match at level i* is a
map of the plan's levels ``0 .. i`` that passes every check the walk makes up to level i; the
count walk visits those of the levels ``0 .. walk_levels(plan) - 1`` (:func:`walk_levels`) and
finishes each one of the deepest of them by counting (the last level, or a tail:
``docs/static.md``, "Counting without enumerating"). The *work* of a count is the number of
partial matches it visits.

The bound, level by level (:func:`level_bounds`):

* level 0: the vertices that own a root entry (``plan.root_ok``);
* level 1: the root entries themselves (exact);
* level i >= 2: every candidate lies in the neighbour list of each backward neighbour j of
  level i, without the images of the other pattern neighbours of j already placed, so under a
  root entry ``(u, v)`` level i has at most ``c_i = min_j (deg(f(j)) - placed_j)``
  candidates, where ``deg(f(j))`` is ``deg(u)`` or ``deg(v)`` for the root levels and otherwise
  the largest degree among the vertices that pass level j's filters. The partial matches at
  level i under that root are at most ``c_2 c_3 ... c_i``; summed over the root entries (a
  degree-weighted bound, in float64 rounded up, or exact Python ints when that overflows).

Symmetry restrictions, size pruning and intersections only make the walk smaller, so the sum
is an upper bound of the work whatever the graph; it can be far above the real work (a sparse
graph with hubs). :func:`prefix_plan` gives the plan of the first levels, whose count is the
number of partial matches at its last level (execution samples it: ``execution/estimate.py``).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ..inputs.static_graph import StaticGraph
from .static_plan import (
    TAIL_CHOOSE,
    TAIL_FALLING,
    StaticPlan,
    node_mask,
    root_mask,
    symmetry_above,
)

__all__ = [
    "walk_levels",
    "level_bounds",
    "work_bound",
    "root_entries",
    "root_bounds",
    "root_log_weights",
    "bounds_and_weights",
    "symmetry_factors",
    "prefix_plan",
]

#: Relative margin added to float64 sums before rounding up (far above their rounding error).
_MARGIN = 1e-9
#: Root entries handled at once (memory: ``k`` float64 per entry of a chunk).
CHUNK = 1 << 20


def walk_levels(plan: StaticPlan) -> int:
    """Number of levels whose partial matches a count walk visits (levels ``0 .. t-1``).

    ``t = plan.tail_start`` when the plan has a tail of 2+ levels that the CPU walk counts in
    closed form (``TAIL_FALLING`` or ``TAIL_CHOOSE``), else ``k - 1`` (the last level is
    counted from its candidate-set size); ``k`` for plans of 1 or 2 levels.

    Parameters
    ----------
    plan : StaticPlan
        A plan (its ``k`` and tail).

    Returns
    -------
    int
    """
    k = plan.k
    if k <= 2:
        return k
    start, kind = int(plan.tail_start), int(plan.tail_kind)
    if 2 <= start <= k - 2 and kind in (TAIL_FALLING, TAIL_CHOOSE):
        return start
    return k - 1


def root_entries(graph: StaticGraph, plan: StaticPlan) -> np.ndarray:
    """The union-CSR entries usable as root edge, sorted: where ``plan.root_ok`` is 1 (int32
    where the entries fit, else int64)."""
    if plan.k < 2:
        return np.empty(0, dtype=np.int64)
    mask = plan.root_ok if plan.root_ok is not None else root_mask(graph, plan)
    return np.flatnonzero(mask).astype(_entry_dtype(len(mask)), copy=False)


def _entry_dtype(n: int) -> type:
    return np.int32 if n < 2**31 else np.int64


def _placed_neighbours(plan: StaticPlan, j: int, i: int) -> int:
    """Levels ``q < i`` other than ``j`` whose pattern nodes are adjacent to level j's: their
    images lie in ``N(f(j))`` and are not candidates of level i."""
    code = plan.pattern.code
    a = int(plan.order[j])
    return sum(1 for q in range(i) if q != j and code[a, int(plan.order[q])] != 0)


def _level_caps(graph: StaticGraph, plan: StaticPlan) -> list[list[tuple[int, int]]]:
    """Per level i >= 2: ``(j, cap)`` per backward neighbour j; ``cap`` bounds level i's
    candidates once ``deg(f(j))`` is added (levels 0 and 1) or is the whole bound (j >= 2)."""
    deg = graph.degree
    out: list[list[tuple[int, int]]] = [[], []]
    for i in range(2, plan.k):
        row = []
        for j in plan.bn_level[plan.bn_ptr[i] : plan.bn_ptr[i + 1]].tolist():
            minus = _placed_neighbours(plan, j, i)
            if j <= 1:
                row.append((j, -minus))
            else:
                ok = node_mask(graph, plan, j)
                dmax = int(deg[ok].max()) if ok.any() else 0
                row.append((j, dmax - minus))
        if not row:  # pragma: no cover - a connected order gives every level >= 1 one
            row.append((2, graph.n - i))
        out.append(row)
    return out


def _root_caps(graph: StaticGraph, plan: StaticPlan, entries: np.ndarray) -> np.ndarray:
    """``c_i`` per root entry and level (float64 ``[len(entries), k]``; columns 0, 1 are 1)."""
    out = np.ones((len(entries), max(plan.k, 2)), dtype=np.float64)
    if plan.k > 2 and len(entries):
        owner = np.searchsorted(graph.indptr, entries, side="right") - 1
        for i, c in enumerate(_cap_columns(graph, plan, entries, owner), start=2):
            out[:, i] = c
    return out


def _cap_columns(
    graph: StaticGraph,
    plan: StaticPlan,
    entries: np.ndarray,
    owner: np.ndarray,
    caps: list[list[tuple[int, int]]] | None = None,
) -> list[np.ndarray]:
    """``c_i`` per root entry for the levels ``i = 2 .. k-1`` (float64, one array per level);
    ``owner``: the vertex owning each entry, ``caps``: :func:`_level_caps` if the caller has
    them."""
    deg = graph.degree
    ends = (deg[owner].astype(np.float64), deg[graph.indices[entries]].astype(np.float64))
    caps = _level_caps(graph, plan) if caps is None else caps
    out = []
    for i in range(2, plan.k):
        c = np.full(len(entries), float(graph.n - i))
        for j, cap in caps[i]:
            c = np.minimum(c, ends[j] + cap if j <= 1 else float(cap), out=c)
        out.append(np.maximum(c, 0.0, out=c))
    return out


def root_bounds(graph: StaticGraph, plan: StaticPlan, entries: np.ndarray) -> np.ndarray:
    """Per root entry and level: the bound ``c_2 ... c_i`` of the partial matches at level i
    under that root (float64 ``[len(entries), k]``; columns 0 and 1 are 1).

    Parameters
    ----------
    graph, plan
        As in :func:`level_bounds`.
    entries : numpy.ndarray
        Root entries (union-CSR positions, e.g. :func:`root_entries`).

    Returns
    -------
    numpy.ndarray
        float64 (``inf`` where the product overflows).
    """
    with np.errstate(over="ignore"):
        return np.cumprod(_root_caps(graph, plan, np.asarray(entries)), axis=1)


def level_bounds(graph: StaticGraph, plan: StaticPlan) -> tuple[int, ...]:
    """Upper bounds of the partial matches at each level of ``plan`` (exact Python ints).

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    plan : StaticPlan
        A plan built for it.

    Returns
    -------
    tuple of int
        ``k`` bounds; level 1's is the number of root entries, exact.

    Examples
    --------
    >>> import networkx as nx
    >>> from nx_gpumine.inputs.patterns import as_pattern
    >>> from nx_gpumine.inputs.static_graph import as_static_graph
    >>> from nx_gpumine.plan.static_plan import static_plan
    >>> g = as_static_graph(nx.complete_graph(5))
    >>> plan = static_plan(as_pattern("triangle"), g, induced=False, distinct=False)
    >>> level_bounds(g, plan), work_bound(g, plan)
    ((5, 20, 60), 25)
    """
    return bounds_and_weights(graph, plan)[0]


def bounds_and_weights(
    graph: StaticGraph, plan: StaticPlan, entries: np.ndarray | None = None
) -> tuple[tuple[int, ...], np.ndarray]:
    """:func:`level_bounds` and :func:`root_log_weights` in one pass over the root entries
    (each root's caps computed once: a tenth of a second per million roots).

    Parameters
    ----------
    graph, plan
        As in :func:`level_bounds`.
    entries : numpy.ndarray, optional
        :func:`root_entries` of the plan, when the caller has them.

    Returns
    -------
    tuple
        The level bounds (Python ints) and the log2 weights (float32, one per entry).
    """
    k = plan.k
    if k == 1:
        return (int(node_mask(graph, plan, 0).sum()),), np.empty(0, dtype=np.float32)
    entries = root_entries(graph, plan) if entries is None else entries
    logw = np.zeros(len(entries), dtype=np.float32)
    if len(entries) == 0:
        return (0,) * k, logw
    caps = _level_caps(graph, plan)
    owners = 0
    last = -1
    sums = np.zeros(k, dtype=np.float64)
    for lo in range(0, len(entries), CHUNK):  # no [roots, k] array for a large graph
        part = entries[lo : lo + CHUNK]
        own = np.searchsorted(graph.indptr, part, side="right") - 1
        owners += int(np.count_nonzero(np.diff(own))) + int(own[0] != last)
        last = int(own[-1])
        cols = _cap_columns(graph, plan, part, own, caps)
        prod = np.ones(len(part))
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            for i, c in enumerate(cols, start=2):
                prod *= c
                sums[i] += prod.sum()
            lw = np.log2(prod)
            big = np.isinf(lw) & (lw > 0)  # the product overflowed: add the logs instead
            if big.any():
                lw[big] = sum(np.log2(c[big]) for c in cols)
        logw[lo : lo + CHUNK] = lw
    bounds = [owners, len(entries)]
    dmax = int(graph.max_degree)
    exact_step = len(entries)  # the Python-int bound: roots x product of the largest caps
    for i in range(2, k):
        total = float(sums[i])
        biggest = min([graph.n - i] + [dmax + cap if j <= 1 else cap for j, cap in caps[i]])
        exact_step *= max(biggest, 0)
        if math.isfinite(total) and total < 2.0**1000:
            bounds.append(min(math.ceil(total * (1 + _MARGIN)) + 1, exact_step))
        else:
            bounds.append(exact_step)
    return tuple(bounds), logw


def root_log_weights(graph: StaticGraph, plan: StaticPlan, entries: np.ndarray) -> np.ndarray:
    """``log2`` of the bound of the matches under each root entry (``c_2 ... c_{k-1}`` of
    :func:`root_bounds`), computed in chunks: what execution stratifies roots by.

    Parameters
    ----------
    graph, plan, entries
        As in :func:`root_bounds`.

    Returns
    -------
    numpy.ndarray
        float32, one per entry (``-inf`` where a root has no room for a match).
    """
    return bounds_and_weights(graph, plan, np.asarray(entries))[1]


def work_bound(graph: StaticGraph, plan: StaticPlan) -> int:
    """Upper bound of the partial matches a count walk of ``plan`` visits: the sum of
    :func:`level_bounds` over the first :func:`walk_levels` levels (a Python int; the
    example of :func:`level_bounds` shows both).

    Parameters
    ----------
    graph, plan
        As in :func:`level_bounds`.

    Returns
    -------
    int
    """
    return sum(level_bounds(graph, plan)[: walk_levels(plan)])


def symmetry_factors(plan: StaticPlan) -> tuple[float, ...]:
    """Per level, the share of its candidates the symmetry conditions are expected to keep.

    Level j's conditions, closed transitively (:func:`~.static_plan.symmetry_above`), demand
    ``f(j) > f(a)`` for each of its ancestors ``a``; for candidates in random order the share
    above all of them is ``1 / (1 + len(ancestors))`` (1 without conditions). Execution
    extrapolates branching factors with it (a clique's levels keep 1/2, 1/3, ...).

    Parameters
    ----------
    plan : StaticPlan
        A plan (its symmetry conditions).

    Returns
    -------
    tuple of float
        ``k`` factors in (0, 1].
    """
    ancestors = symmetry_above(plan).sum(axis=0).tolist()
    return tuple(1.0 / (1 + a) for a in ancestors)


def prefix_plan(plan: StaticPlan, m: int) -> StaticPlan:
    """The plan of the first ``m`` levels of ``plan`` (``2 <= m <= k``), counted to its last level.

    Its count over a root range is the number of partial matches of ``plan`` at level ``m - 1``
    with those roots, before the size pruning of the later levels (``size_needs``), so it is at
    least the number the walk of ``plan`` visits there. It has no tail beyond its last level
    and no shape; ``plan`` itself for ``m = k``.

    Parameters
    ----------
    plan : StaticPlan
        A plan (``k >= 2``).
    m : int
        Levels kept.

    Returns
    -------
    StaticPlan
    """
    k = plan.k
    if not 2 <= m <= k:
        raise ValueError(f"a prefix plan keeps 2 to {k} levels, got {m}")
    if m == k:
        return plan

    def cut(ptr: np.ndarray, *flat: np.ndarray) -> list[np.ndarray]:
        end = int(ptr[m])
        return [_frozen(ptr[: m + 1])] + [_frozen(a[:end]) for a in flat]

    chk = cut(plan.chk_ptr, plan.chk_level, plan.chk_code, plan.chk_out_label, plan.chk_in_label)
    bn = cut(plan.bn_ptr, plan.bn_level)
    sym = cut(plan.sym_ptr, plan.sym_level)
    return replace(
        plan,
        k=m,
        order=_frozen(plan.order[:m]),
        node_label=_frozen(plan.node_label[:m]),
        loop_req=_frozen(plan.loop_req[:m]),
        loop_label=_frozen(plan.loop_label[:m]),
        min_degree=_frozen(plan.min_degree[:m]),
        chk_ptr=chk[0],
        chk_level=chk[1],
        chk_code=chk[2],
        chk_out_label=chk[3],
        chk_in_label=chk[4],
        bn_ptr=bn[0],
        bn_level=bn[1],
        reuse=_frozen(plan.reuse[:m]),
        sym_ptr=sym[0],
        sym_level=sym[1],
        tail_start=m - 1,
        tail_kind=TAIL_FALLING,
        indep_tail_start=-1,
        indep_tail_kind=0,
        shape=None,
        shape_arg=0,
    )


def _frozen(a: np.ndarray) -> np.ndarray:
    out = np.array(a)
    out.setflags(write=False)
    return out
