"""Tasks: half-open ranges ``[lo, hi)`` of union-CSR entries (root edges).

The same split serves CPU threads, GPUs and Dask workers. Ranges are balanced by an estimate of
the work each root edge starts (the degrees of both endpoints), not by the number of entries, so a
hub's entries spread over several tasks.
"""

from __future__ import annotations

import numpy as np

from ..engines.checks import checked_range
from ..inputs.static_graph import StaticGraph
from ..plan.root_split import entry_costs, static_root_bounds

__all__ = ["entry_costs", "split_root_range"]


def split_root_range(
    graph: StaticGraph,
    ntasks: int,
    *,
    root_ok: np.ndarray | None = None,
    lo: int = 0,
    hi: int | None = None,
) -> list[tuple[int, int]]:
    """Split ``[lo, hi)`` into at most ``ntasks`` contiguous ranges of about equal cost.

    Costs are :func:`~nx_gpumine.plan.root_split.entry_costs`; a range of 131,072 entries or
    more is balanced on the costs of every ``stride``-th entry, ``stride = (hi - lo) // 65536``
    (each standing for its stride), so splitting stays cheap on graphs of many million edges
    (:mod:`nx_gpumine.plan.root_split`, the rule the CPU engine cuts its chunks by too).

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
    bounds = static_root_bounds(graph, ntasks, root_ok, lo, hi)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
