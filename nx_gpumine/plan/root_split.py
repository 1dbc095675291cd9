"""Balanced splits of a root range: one rule for tasks (execution) and engine chunks.

A root range ``[lo, hi)`` (union-CSR entries of a static graph, edge ids of a temporal one) is
cut into at most ``n`` contiguous ranges of about equal estimated cost: the cumulative cost is
taken over every root, or, for ranges of more than :data:`SAMPLE` roots, over every
``stride``-th root (each standing for its stride), and the range is cut where the cumulative
cost passes ``i / n`` of the total. Execution splits tasks for threads, GPUs and Dask workers
with it (``execution/tasks.py``, ``plan.temporal_plan.split_root_edges``), the CPU engines their
chunks for numba's threads. The cost models differ by problem kind: :func:`entry_costs` here
(static), ``plan.temporal_plan.root_costs`` (temporal).

No numba here: the CUDA engines import ``plan/``. Ranges are not validated here (callers do,
with ``engines.checks.checked_range``).
"""

from __future__ import annotations

import numpy as np

from ..inputs.static_graph import StaticGraph

__all__ = [
    "SAMPLE",
    "sample_grid",
    "balanced_bounds",
    "range_costs",
    "entry_costs",
    "static_root_bounds",
    "static_range_costs",
    "static_total_cost",
]

#: Ranges of more roots than this are balanced on a sample of about this many roots.
SAMPLE = 65536


def sample_grid(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """The roots a split of ``[lo, hi)`` is estimated on, and where each one's stride ends.

    Parameters
    ----------
    lo, hi : int
        The root range (``lo < hi``).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``starts``: every root, or every ``stride``-th root (``stride = (hi - lo) // SAMPLE``);
        ``ends``: one past the roots each start stands for (``min(start + stride, hi)``).
    """
    stride = max(1, (hi - lo) // SAMPLE)
    starts = np.arange(lo, hi, stride, dtype=np.int64)
    return starts, np.minimum(starts + stride, hi)


def balanced_bounds(cost: np.ndarray, ends: np.ndarray, lo: int, hi: int, n: int) -> np.ndarray:
    """Boundaries ``[lo, ..., hi]`` of at most ``n`` ranges of about equal summed ``cost``.

    Parameters
    ----------
    cost : numpy.ndarray
        Estimated cost of each sampled root (:func:`sample_grid`'s ``starts``).
    ends : numpy.ndarray
        :func:`sample_grid`'s ``ends``: a cut after sample ``i`` falls at ``ends[i]``.
    lo, hi : int
        The root range.
    n : int
        Wanted number of ranges (>= 1).

    Returns
    -------
    numpy.ndarray
        int64 boundaries, strictly increasing, first ``lo`` and last ``hi`` (``[lo, hi]`` when
        the range is empty).
    """
    if hi <= lo:
        return np.array([lo, hi], dtype=np.int64)
    n = max(1, min(int(n), hi - lo))
    cum = np.cumsum(cost)
    targets = cum[-1] * np.arange(1, n) / n
    cuts = ends[np.minimum(np.searchsorted(cum, targets, side="left"), len(ends) - 1)]
    return np.unique(np.concatenate([[lo], np.clip(cuts, lo, hi), [hi]])).astype(np.int64)


def range_costs(cost: np.ndarray, ends: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Summed estimated cost of each range ``[bounds[j], bounds[j + 1])`` of a split.

    The estimate :func:`balanced_bounds` balanced on: sample ``i`` (cost ``cost[i]``) stands
    for the roots up to ``ends[i]`` and counts in the range holding ``ends[i] - 1``, so for
    bounds cut by :func:`balanced_bounds` from the same samples the ranges' costs sum to the
    total exactly.

    Parameters
    ----------
    cost : numpy.ndarray
        Estimated cost of each sampled root (:func:`sample_grid`'s ``starts``).
    ends : numpy.ndarray
        :func:`sample_grid`'s ``ends``.
    bounds : numpy.ndarray
        Range boundaries, increasing (``[lo, ..., hi]`` of the sampled range).

    Returns
    -------
    numpy.ndarray
        float64, one value per range (``len(bounds) - 1``).
    """
    bounds = np.asarray(bounds, dtype=np.int64)
    nranges = max(0, len(bounds) - 1)
    where = np.searchsorted(bounds, np.asarray(ends, dtype=np.int64) - 1, side="right") - 1
    inside = (where >= 0) & (where < nranges)
    cost = np.asarray(cost, dtype=np.float64)
    return np.bincount(where[inside], weights=cost[inside], minlength=nranges)[:nranges]


def entry_costs(
    graph: StaticGraph,
    root_ok: np.ndarray | None = None,
    positions: np.ndarray | None = None,
) -> np.ndarray:
    """Estimated work of union-CSR entries as roots: ``1 + deg(u) + deg(v)``.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    root_ok : numpy.ndarray, optional
        Root-edge mask of the plan; masked-out entries cost 0.05.
    positions : numpy.ndarray, optional
        The entries to estimate (default: every entry).

    Returns
    -------
    numpy.ndarray
        float64, one value per position.
    """
    deg = graph.degree.astype(np.float64)
    if positions is None:
        owner_deg = np.repeat(deg, graph.degree)
        cost = 1.0 + owner_deg + deg[graph.indices]
        ok = root_ok
    else:
        owner = np.searchsorted(graph.indptr, positions, side="right") - 1
        cost = 1.0 + deg[owner] + deg[graph.indices[positions]]
        ok = None if root_ok is None else np.asarray(root_ok)[positions]
    if ok is not None:
        cost = np.where(np.asarray(ok, dtype=bool), cost, 0.05)
    return cost


def static_root_bounds(
    graph: StaticGraph, n: int, root_ok: np.ndarray | None, lo: int, hi: int
) -> np.ndarray:
    """Boundaries of at most ``n`` ranges of ``[lo, hi)`` of about equal :func:`entry_costs`.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    n : int
        Wanted number of ranges (>= 1).
    root_ok : numpy.ndarray, optional
        Root-edge mask of the plan.
    lo, hi : int
        A checked entry range.

    Returns
    -------
    numpy.ndarray
        As :func:`balanced_bounds`.
    """
    if hi <= lo:
        return np.array([lo, hi], dtype=np.int64)
    starts, ends = sample_grid(lo, hi)
    return balanced_bounds(entry_costs(graph, root_ok, starts), ends, lo, hi, n)


def static_range_costs(
    graph: StaticGraph, root_ok: np.ndarray | None, bounds: np.ndarray
) -> np.ndarray:
    """Estimated cost (:func:`entry_costs`, on the samples :func:`static_root_bounds`
    balances on) of each entry range ``[bounds[j], bounds[j + 1])``.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    root_ok : numpy.ndarray, optional
        Root-edge mask of the plan.
    bounds : numpy.ndarray
        Range boundaries, increasing, within ``[0, len(graph.indices)]``.

    Returns
    -------
    numpy.ndarray
        As :func:`range_costs`.
    """
    bounds = np.asarray(bounds, dtype=np.int64)
    if len(bounds) < 2 or bounds[-1] <= bounds[0]:
        return np.zeros(max(0, len(bounds) - 1))
    starts, ends = sample_grid(int(bounds[0]), int(bounds[-1]))
    return range_costs(entry_costs(graph, root_ok, starts), ends, bounds)


def static_total_cost(graph: StaticGraph) -> float:
    """The summed :func:`entry_costs` of every entry, exactly, in O(n): ``nnz + 2 sum d(v)^2``
    (the union CSR is symmetric, so each vertex's degree is summed once per entry of its row
    and once per entry naming it); kept with the graph.

    The absolute work estimate of a whole-graph query (the wedges its roots open), where the
    sampled costs of :func:`static_range_costs` are only relative (balancing ranges); e.g.
    about 3.8e7 on ego-Facebook and 1.3e10 on the 10M-edge power-law graph.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.

    Returns
    -------
    float
    """

    def total() -> float:
        deg = graph.degree.astype(np.float64)
        return float(len(graph.indices) + 2.0 * float(deg @ deg))

    return graph.derived(("static_total_cost",), total)
