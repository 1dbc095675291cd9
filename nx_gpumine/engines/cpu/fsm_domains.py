"""CPU orbit images of a labelled pattern (numba): the MNI support by existence checks.

The MNI support of a pattern is, over its nodes, the least number of distinct data vertices
the node is mapped to by the embeddings (edge-induced subgraph monomorphisms; node and edge
labels must match). Nodes of one automorphism orbit have the same images, so one image set
per orbit is kept, as a byte per vertex (``state``: 0 unknown, 1 an image, 2 not one).

Instead of listing every embedding, each orbit's candidates (the vertices every node of the
orbit is eligible for: a superset of its images) are checked one by one, as GraMi does: is
there *one* embedding mapping the orbit's representative to the candidate? A depth-first
search along the representative's :class:`~nx_gpumine.plan.fsm.ExistencePlan` stops at the
first one found, and then every pattern node's image in that embedding is marked in its
orbit's set, so later candidates (of this orbit and of the orbits after it) that are already
marked need no search. A candidate whose search fails is marked as no image of its orbit,
and later searches never map a node of that orbit to it.

Orbits are processed in ascending order of candidates, each in rounds of candidates run with
``prange``. Between rounds the orbit's count is known exactly for the candidates done, which
gives the early exits: the pattern is infrequent as soon as an orbit's images plus its
unchecked candidates fall below ``min_support`` (the call then returns that bound), and with
``exact=False`` an orbit stops once it has ``min_support`` images. Rounds are sized so that
no exit can come before a round's end (the fewest candidates after which one could), so a
frequent pattern takes few parallel regions.

Races between threads only ever write the same value into a byte (a vertex is an image of an
orbit or it is not; a search reads a mark of another thread or misses it and searches
further), so they are benign. The kernel polls its stop flag (:mod:`.calls`: Ctrl-C and
cancellation) between candidates and every ``POLL_MASK + 1`` search steps.

Rows of the CSR must be sorted (a neighbour's edge is found by binary search):
:class:`~nx_gpumine.inputs.static_graph.StaticGraph`'s are, without self-loops; an entry
``u -> u`` of other arrays is never matched.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np
from numba import njit, prange

from ...plan.fsm import (
    EXIST_ADJ,
    EXIST_ELAB,
    EXIST_LABEL,
    EXIST_NADJ,
    IMAGE,
    NOT_IMAGE,
    UNKNOWN,
    LabelledPattern,
    MiningArrays,
    OrbitImages,
    orbit_search_or_bound,
)
from .calls import POLL_MASK, new_stop, run_kernel, settle
from .walk_shared import lower_bound

__all__ = ["orbit_images", "MIN_ROUND"]

#: Fewest candidates of a round (a parallel region); rounds are longer when no early exit can
#: come sooner.
MIN_ROUND = 256


@njit(cache=True, nogil=True, inline="always")
def _find(indptr, indices, u, w):
    """Position of ``w`` in ``u``'s sorted row, or -1."""
    hi = indptr[u + 1]
    lo = lower_bound(indices, indptr[u], hi, w)
    if lo < hi and indices[lo] == w:
        return lo
    return -1


@njit(cache=True, nogil=True, inline="always")
def _open(indptr, table, i, path, pos, end, scan):
    """Start step ``i``: scan the shortest row among its earlier adjacent steps' images."""
    best = 0
    x = path[table[i, EXIST_ADJ]]
    dbest = indptr[x + 1] - indptr[x]
    for a in range(1, table[i, EXIST_NADJ]):
        y = path[table[i, EXIST_ADJ + a]]
        d = indptr[y + 1] - indptr[y]
        if d < dbest:
            best = a
            dbest = d
            x = y
    scan[i] = best
    pos[i] = indptr[x]
    end[i] = indptr[x + 1]


@njit(cache=True, nogil=True)
def _embed(indptr, indices, label, elabel, usable, table, orbit, state, v, path, stop):
    """Whether an embedding maps step 0 to ``v`` (depth-first, the first one found is left
    in ``path``, image per step); False too when ``stop`` was set."""
    k = table.shape[0]
    pos = np.empty(k, np.int64)
    end = np.empty(k, np.int64)
    scan = np.empty(k, np.int64)
    path[0] = v
    i = 1
    _open(indptr, table, i, path, pos, end, scan)
    steps = 0
    while True:
        steps += 1
        if (steps & POLL_MASK) == 0 and stop[0] != 0:
            return False
        a = scan[i]
        x = path[table[i, EXIST_ADJ + a]]
        want = table[i, EXIST_ELAB + a]
        lab = table[i, EXIST_LABEL]
        g = orbit[i]
        nadj = table[i, EXIST_NADJ]
        w = -1
        while pos[i] < end[i]:
            e = pos[i]
            pos[i] += 1
            c = indices[e]
            if not usable[e] or elabel[e] != want or c == x or label[c] != lab:
                continue
            if state[g, c] == NOT_IMAGE:
                continue
            fresh = True
            for j in range(i):
                if path[j] == c:
                    fresh = False
                    break
            if not fresh:
                continue
            for b in range(nadj):
                if b == a:
                    continue
                f = _find(indptr, indices, path[table[i, EXIST_ADJ + b]], c)
                if f < 0 or not usable[f] or elabel[f] != table[i, EXIST_ELAB + b]:
                    fresh = False
                    break
            if fresh:
                w = c
                break
        if w < 0:
            i -= 1
            if i == 0:
                return False
            continue
        path[i] = w
        if i == k - 1:
            return True
        i += 1
        _open(indptr, table, i, path, pos, end, scan)


@njit(cache=True, nogil=True, parallel=True)
def _orbit_rounds(graph, tables, orbits, state, cands, cptr, order, min_support, exact, stop):
    """The orbits' images (see the module docstring).

    ``graph`` is ``(indptr, indices, label, elabel, usable)``; ``tables[g]`` orbit ``g``'s
    plan (rooted at its representative) and ``orbits[g, i]`` the orbit of its step ``i``'s
    node; ``cands[cptr[g]:cptr[g + 1]]`` orbit ``g``'s candidates; ``order`` the orbits in
    processing order. Returns ``(support, counts)`` as :class:`OrbitImages` (support -1:
    stopped).
    """
    indptr, indices, label, elabel, usable = graph
    ng = tables.shape[0]
    k = tables.shape[1]
    counts = np.full(ng, -1, np.int64)
    support = np.int64(1) << 62
    for gi in range(len(order)):
        g = order[gi]
        c0 = cptr[g]
        c1 = cptr[g + 1]
        total = c1 - c0
        table = tables[g]
        orbit = orbits[g]
        if not exact:
            pre = 0
            for t in range(c0, c1):
                pre += state[g, cands[t]] == IMAGE
            if pre >= min_support:
                counts[g] = pre
                support = min(support, pre)
                continue
        found = 0
        hi = c0
        while hi < c1:
            # the fewest candidates after which an exit could come: enough failures to fall
            # below min_support, or (not exact) enough images to reach it
            size = (total - min_support + 1) - ((hi - c0) - found)
            if not exact:
                size = min(size, min_support - found)
            size = min(max(size, MIN_ROUND), c1 - hi)
            lo = hi
            hi = lo + size
            for t in prange(lo, hi):
                v = cands[t]
                if state[g, v] != UNKNOWN or stop[0] != 0:
                    continue
                path = np.empty(k, np.int64)
                if _embed(
                    indptr, indices, label, elabel, usable, table, orbit, state, v, path, stop
                ):
                    for i in range(k):
                        state[orbit[i], path[i]] = IMAGE
                elif stop[0] == 0:
                    state[g, v] = NOT_IMAGE
            if stop[0] != 0:
                return -1, counts
            for t in range(lo, hi):
                found += state[g, cands[t]] == IMAGE
            if found + (c1 - hi) < min_support:
                counts[g] = found
                return found + (c1 - hi), counts
            if not exact and found >= min_support:
                break
        counts[g] = found
        support = min(support, found)
    return support, counts


def _dynamic(*args: object) -> tuple:
    """:func:`_orbit_rounds` with ``prange`` handing out one candidate at a time (searches
    differ widely in length; the setting is the calling thread's, so it is made here, in the
    thread that runs the kernel: a jitted call of it would keep the kernel out of numba's
    cache)."""
    old = numba.set_parallel_chunksize(1)
    try:
        return _orbit_rounds(*args)
    finally:
        numba.set_parallel_chunksize(old)


def orbit_images(
    graph: MiningArrays,
    p: LabelledPattern,
    eligible: Sequence[np.ndarray],
    groups: Sequence[Sequence[int]] | None = None,
    min_support: int = 1,
    exact: bool = True,
) -> OrbitImages:
    """The images of each automorphism orbit of ``p`` in the graph, and its MNI support.

    Parameters
    ----------
    graph : MiningArrays
        The data graph's union CSR (rows sorted), node label code per vertex, and per CSR
        entry the edge's label code and whether it may be matched (``GraphCodes.host``).
    p : LabelledPattern
        A connected pattern of 2 to :data:`~nx_gpumine.plan.fsm.EXIST_MAX_NODES` nodes.
    eligible : sequence of numpy.ndarray
        Per pattern node, a bool mask over the vertices holding its images
        (``GraphCodes.eligible(p)``).
    groups : sequence of sequence of int, optional
        The automorphism orbits of ``p`` (labels respected), e.g.
        ``orbits(query_pattern(p, ...))``; computed when not given
        (:func:`~nx_gpumine.plan.fsm.labelled_orbits`). Orbit ``g``'s candidates are the
        vertices every node of ``groups[g]`` is eligible for
        (:func:`~nx_gpumine.plan.fsm.orbit_search`).
    min_support : int
        The threshold of the early exits.
    exact : bool
        Whether a frequent pattern's support must be exact; False: every orbit stops at
        ``min_support`` images.

    Returns
    -------
    OrbitImages
        ``support`` is the MNI support when that is at least ``min_support`` (with
        ``exact=False`` a lower bound of at least ``min_support``), else an upper bound below
        ``min_support``; per orbit (in the order of ``groups``) its count and image mask.

    Raises
    ------
    ValueError
        A mask of the wrong size, groups that do not partition the nodes, or a pattern no
        existence plan takes.
    KeyboardInterrupt
        Ctrl-C while the kernel ran (it stops within a few search steps).
    """
    indptr, indices, label, elabel, usable = graph
    n = len(indptr) - 1
    search = orbit_search_or_bound(n, p, eligible, groups, min_support)
    if isinstance(search, OrbitImages):
        return search
    state = search.initial_state(n)
    arrays = (  # a plain tuple: the kernel's argument type
        np.ascontiguousarray(indptr),
        np.ascontiguousarray(indices),
        np.ascontiguousarray(label),
        np.ascontiguousarray(elabel),
        np.ascontiguousarray(usable),
    )
    settle()
    stop = new_stop()
    args = (arrays, search.tables, search.step_orbits, state, search.cands, search.cptr)
    args += (search.order, int(min_support), bool(exact), stop)
    support, counts = run_kernel(_dynamic, *args, stop=stop)
    images = [state[gi] == IMAGE for gi in range(len(search.groups))]
    return OrbitImages(int(support), counts, images)
