"""Tasks: half-open ranges ``[lo, hi)`` of union-CSR entries (root edges).

The same split serves CPU threads, GPUs and Dask workers. Ranges are balanced by an estimate of
the work each root edge starts (the degrees of both endpoints), not by the number of entries, so a
hub's entries spread over several tasks.
"""

from __future__ import annotations

import numpy as np

from ..engines.checks import checked_range
from ..inputs.static_graph import StaticGraph

__all__ = ["entry_costs", "split_root_range"]

_SAMPLE = 65536  # ranges longer than this many entries are balanced on a sample


def entry_costs(graph: StaticGraph, root_ok: np.ndarray | None = None) -> np.ndarray:
    """Estimated cost per union-CSR entry: ``1 + deg(u) + deg(v)`` (tiny where ``root_ok`` is 0).

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    root_ok : numpy.ndarray, optional
        Root-edge mask of the plan; masked-out entries cost almost nothing.

    Returns
    -------
    numpy.ndarray
        float64, one value per entry.
    """
    deg = graph.degree.astype(np.float64)
    owner_deg = np.repeat(deg, graph.degree)
    cost = 1.0 + owner_deg + deg[graph.indices]
    if root_ok is not None:
        cost = np.where(np.asarray(root_ok, dtype=bool), cost, 0.05)
    return cost


def split_root_range(
    graph: StaticGraph,
    ntasks: int,
    *,
    root_ok: np.ndarray | None = None,
    lo: int = 0,
    hi: int | None = None,
) -> list[tuple[int, int]]:
    """Split ``[lo, hi)`` into at most ``ntasks`` contiguous ranges of about equal cost.

    Costs are :func:`entry_costs`; a range of 131,072 entries or more is balanced on the costs
    of every ``stride``-th entry, ``stride = (hi - lo) // 65536`` (each standing for its
    stride), so splitting stays cheap on graphs of many million edges.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    ntasks : int
        Wanted number of tasks (>= 1); fewer come back when the range is short.
    root_ok : numpy.ndarray, optional
        Root-edge mask (see :class:`~nx_gpumine.plan.static_plan.StaticPlan`).
    lo, hi : int
        Entry range to split (default: all entries).

    Returns
    -------
    list of (int, int)
        Non-empty, contiguous, covering ``[lo, hi)`` exactly, in order.
    """
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if ntasks < 1:
        raise ValueError(f"ntasks must be >= 1, got {ntasks}")
    if hi == lo:
        return []
    ntasks = min(int(ntasks), hi - lo)
    stride = max(1, (hi - lo) // _SAMPLE)
    if stride == 1:
        ends = np.arange(lo + 1, hi + 1, dtype=np.int64)
        cum = np.cumsum(entry_costs(graph, root_ok)[lo:hi])
    else:  # long ranges: estimate on every stride-th entry (O(_SAMPLE), not O(entries))
        starts = np.arange(lo, hi, stride, dtype=np.int64)
        ends = np.minimum(starts + stride, hi)
        deg = graph.degree.astype(np.float64)
        owner = np.searchsorted(graph.indptr, starts, side="right") - 1
        cost = 1.0 + deg[owner] + deg[graph.indices[starts]]
        if root_ok is not None:
            cost = np.where(np.asarray(root_ok)[starts].astype(bool), cost, 0.05)
        cum = np.cumsum(cost)
    targets = cum[-1] * np.arange(1, ntasks) / ntasks
    cuts = ends[np.minimum(np.searchsorted(cum, targets, side="left"), len(ends) - 1)]
    bounds = np.unique(np.concatenate([[lo], np.clip(cuts, lo, hi), [hi]]))
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]
