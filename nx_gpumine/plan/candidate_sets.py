"""Where a static plan's levels take their candidate sets from (:class:`~.static_plan.StaticPlan`
``reuse``, ``set_base``, ``filter_in_build``; ``docs/architecture.md`` has the fields' table).

* :func:`raw_reuse`: a level whose backward neighbours contain those of an earlier level (two or
  more, with the same checks) starts from that level's intersection (its *raw* set).
* :func:`filtered_sets`: in an induced plan without edge checks, a level whose checks against
  the levels before an earlier level ``r`` are exactly ``r``'s starts from ``r``'s set with
  the non-adjacency already applied (STMatch's set reuse: a difference per set instead of a
  test per candidate).
"""

from __future__ import annotations

__all__ = ["raw_reuse", "filtered_sets"]

Checks = list[list[tuple[int, int, int, int]]]


def raw_reuse(k: int, checks: Checks, bns: list[list[int]]) -> list[int]:
    """``reuse``: for each level, the earlier level ``r >= 2`` with the most backward
    neighbours (at least two) that are all the level's, with the same checks; -1 for none."""
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
    return reuse


def filtered_sets(k: int, checks: Checks, reuse: list[int]) -> tuple[list[int], list[bool]]:
    """``(set_base, filter_in_build)`` of an induced plan without edge checks
    (:class:`~.static_plan.StaticPlan`): each level starts from the nearest earlier level
    ``r >= 2`` that has a non-adjacency check and exactly the level's checks against the
    levels before ``r``."""
    base = [-1] * k
    for i in range(3, k):
        for r in range(i - 1, 1, -1):  # the nearest: the smallest set
            if any(c[1] == 0 for c in checks[r]) and sorted(checks[r]) == sorted(
                c for c in checks[i] if c[0] < r
            ):
                base[i] = r
                break
    last_anti = k >= 3 and any(c[1] == 0 for c in checks[k - 1])
    while True:  # a filtered set is not a raw one: no level may take it as its raw reuse
        filtered = [base[i] >= 0 or i in base or (i == k - 1 and last_anti) for i in range(k)]
        clash = {
            reuse[i]
            for i in range(k)
            if reuse[i] >= 0 and filtered[reuse[i]] and base[i] != reuse[i]
        }
        if not clash:
            break
        base = [-1 if (b in clash or i in clash) else b for i, b in enumerate(base)]
    return base, filtered
