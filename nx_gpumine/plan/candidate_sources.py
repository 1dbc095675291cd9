"""Where an induced plan's levels take their candidates from: an earlier level's *full* set.

The plan's ``reuse`` hands a level the intersection of an earlier level's backward-neighbour
lists (:func:`~.static_plan.build_static_plan`); the level then tests its non-adjacency to
every earlier level again, candidate by candidate. In an induced plan a level that agrees with
an earlier level ``r`` on every level before ``r`` can start from ``r``'s candidates that
passed *all* of ``r``'s checks instead (STMatch's set difference kept for the levels that
share it). :func:`full_reuse` decides it once per plan; :func:`reuse_sources` gives both
engines the sources they walk (the CPU engine always, the CUDA engine under
``StaticTuning.full_raw_reuse``). :func:`hoist_levels` moves the part of a level's set that
depends only on earlier levels up one level (the CUDA engine, ``StaticTuning.hoist_sets``).
"""

from __future__ import annotations

import weakref

import numpy as np

from .static_plan import StaticPlan

__all__ = ["full_reuse", "full_reuse_levels", "hoist_levels", "reuse_sources"]


def full_reuse(plan: StaticPlan) -> np.ndarray:
    """Per level of an induced plan, the earlier level whose *full* candidate set it reads
    (:func:`full_reuse_levels`), else -1; all -1 for a non-induced plan (int64 ``[k]``,
    read-only, computed once per plan). The engines read a level's full set instead of the
    plan's ``reuse`` (a backward-neighbour intersection) where they turn this on: the CUDA
    engine by ``StaticTuning.full_raw_reuse``, the CPU engine always."""
    got = _FULL_REUSE.get(plan)
    if got is None:
        levels = [-1] * plan.k
        if plan.induced:
            checks = [{c[0]: c[1:] for c in plan.checks(i)} for i in range(plan.k)]
            levels = full_reuse_levels(checks)
        got = np.asarray(levels, dtype=np.int64)
        got.setflags(write=False)
        _FULL_REUSE[plan] = got
    return got


#: :func:`full_reuse` of each plan alive.
_FULL_REUSE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def reuse_sources(
    plan: StaticPlan, full: bool, *, same_lists: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``(reuse, below)`` per level, as an engine walks them: the earlier level whose stored
    set the level starts from (-1: none), and, where that is a full set
    (:func:`full_reuse`), the same level (``below``: the checks against every level before it
    hold in that set; -1 otherwise). ``full`` False: the plan's ``reuse`` as it is. ``full``
    True: each level with a full source takes it; a level whose ``reuse`` names a level that
    now stores its full set gives its reuse up (that set misses candidates the intersection
    holds) and intersects its lists itself.

    ``same_lists`` True: a level takes ``r``'s full set only where it has no neighbour among
    levels ``r .. i - 1``, so that its own lists are ``r``'s and the full set is a subset of
    what it reads anyway (Q9's level 5). Where it has one, that neighbour's list is often far
    shorter than ``r``'s full set: STMatch's Q1 on facebook (level 4 adjacent to level 3, whose
    full set it would read) took 0.79 s on the GPU against 0.32 s with its own lists, while Q9
    went from over 30 s to 3.1 s (H200, ``benchmarks/results/session26_2026-11-28``). The
    CUDA engine walks with it; the CPU engine, which builds each set once per parent level
    and gained on both queries, without.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        int64 ``[k]`` each.
    """
    reuse = np.array(plan.reuse, dtype=np.int64)
    below = np.full(plan.k, -1, dtype=np.int64)
    if not full:
        return reuse, below
    levels = full_reuse(plan).copy()
    if same_lists:
        for i, r in enumerate(levels.tolist()):
            if r >= 0 and any(c[0] >= r and c[1] != 0 for c in plan.checks(i)):
                levels[i] = -1
    targets = set(levels[levels >= 0].tolist())
    for i in range(plan.k):
        if levels[i] >= 0:
            reuse[i] = below[i] = levels[i]
        elif reuse[i] in targets:
            reuse[i] = -1
    return reuse, below


def full_reuse_levels(checks: list[dict]) -> list[int]:
    """Per level ``i``, the latest level ``2 <= r < i`` whose checks against every level before
    it equal ``i``'s (``checks[i][j]``: ``(code, out_label, in_label)``; code 0 in an induced
    plan: non-adjacent), else -1.

    ``i``'s candidates then lie in ``r``'s *full* set, the candidates of ``r`` that passed all
    of ``r``'s checks (not only the backward-neighbour intersection the plan's ``reuse``
    names), so ``i`` reads that set and tests levels ``r .. i - 1`` alone. Only where ``r``
    has a non-adjacency check (code 0): otherwise its full set is that intersection.

    STMatch's query 9 (an edge 0-1, common neighbours 2-3 adjacent, 4 and 5 adjacent to
    neither of them nor each other): level 5 reads ``N(0) & N(1) - N(2) - N(3)``, built once
    by level 4, and tests level 4 alone, where the intersection ``N(0) & N(1)`` left it three
    tests a candidate.
    """
    out = [-1] * len(checks)
    for i in range(3, len(checks)):
        for r in range(i - 1, 1, -1):
            if all(checks[i].get(j) == checks[r].get(j) for j in range(r)):
                # worth it where r's set drops non-neighbours' neighbours; else it is the
                # intersection the plan's reuse already hands on
                if any(c[0] == 0 for c in checks[r].values()):
                    out[i] = r
                break
    return out


def hoist_levels(plan: StaticPlan, reuse: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Per level ``i`` of an induced plan, the level ``h = i - 1`` whose extension builds
    ``i``'s candidates that pass every check against the levels before ``h``, once per image
    of those levels; ``i`` then reads that set for each image of ``h`` and tests ``h`` alone
    (STMatch's code motion). -1 where not taken.

    Taken where ``i`` is not adjacent to ``h`` (else ``h``'s list is the short source), the
    set folds something in (a non-adjacency check, or an intersection of two lists that no
    reused set gives), ``i`` reads no full set (``below``) and stores no set a later level
    reads (the hoisted set lives in that slot). STMatch's Q10 (``N(3)`` without the neighbours
    of 0, 1 and 2, for every image of level 4): level 5 tested four levels a candidate, now
    one. The CUDA engine takes them under ``StaticTuning.hoist_sets``, the CPU engine always
    (over its own sources, every full set).

    Parameters
    ----------
    plan : StaticPlan
        The plan.
    reuse, below : numpy.ndarray
        The sources the engine walks (:func:`reuse_sources`).

    Returns
    -------
    numpy.ndarray
        int64 ``[k]``.
    """
    k = plan.k
    out = np.full(k, -1, dtype=np.int64)
    if not plan.induced:
        return out
    stores = {int(r) for r in below if r >= 0}
    stores |= {int(r) for i, r in enumerate(reuse) if r >= 0 and below[i] < 0}
    for i in range(3, k):
        h = i - 1
        codes = {c[0]: c[1] for c in plan.checks(i)}
        if codes.get(h) != 0 or below[i] >= 0 or i in stores:
            continue
        before = [codes[j] for j in range(h) if j in codes]
        folds_non_adjacency = any(c == 0 for c in before)
        folds_intersection = reuse[i] < 0 and sum(c != 0 for c in before) >= 2
        if folds_non_adjacency or folds_intersection:
            out[i] = h
    return out
