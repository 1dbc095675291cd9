"""CPU temporal engine, the 3-edge census (numba): counted by node pair, not enumerated.

A census triple is three edges ``e0 < e1 < e2`` (edge ids, i.e. time order) without
self-loops, later ones strictly later in time (tie rule ``strict``) or simply later ids
(``input_order``), ``t2 - t0 <= delta``, on two or three nodes; ``e0`` (the root) lies in the
call's range ``[lo, hi)``. Such a triple is of one of three kinds:

* *two-node*: its three edges join the same two nodes (the pair ``P``);
* *star*: two edges on one pair ``P = {c, x}`` and one (the *lone* edge) on ``{c, y}``, ``y``
  a third node: ``c`` is the star's centre. The lone edge comes first, in the middle or last;
* *triangle*: its edges lie on three different pairs.

Two-node triples and stars are counted per node pair ``P`` (:func:`_pair_census`) without
listing them: ``P``'s edges are merged into one id-sorted list and swept once, windows of
positions moving forward only, with running sums of how many edges of each kind a position
allows after it (or before it: what a position adds on entering a window is kept, and taken off
when it leaves); the lone edges of a star are counted, never walked, as a difference of
positions in the centre's sorted lists (its edges besides those on ``P`` and its self-loops,
:func:`_beside`). A pair of ``p`` edges costs ``O(p log d)`` however many triples it holds,
where listing them costs up to ``p**3``; a pair none of whose edges may follow another within
the window is left after its merge (:func:`_pair_merge`).

Triangles are counted per root and second edge (:func:`_triangles`): the second edge joins a
root end to a third node ``w`` and the closing edges on the third pair are counted by binary
search in its run of :attr:`CensusIndex.out_nbr` (:func:`_close`). A root walks the second
edges in its window (those to a ``w`` no neighbour of ``y`` are rejected by one search), or,
when its ends have far fewer distinct neighbours than that window has edges (parallel edges),
only the runs of edges to their common neighbours. Every count is exact
(int64; a motif count past ``2**63 - 1`` marks its chunk's entry -1, which the host turns into
a ``CapacityError``).

:func:`census_chunks` runs both in parallel: chunks of roots for triangles, chunks of the runs
of :attr:`CensusIndex.out_nbr` for the pairs (a pair is swept from the run of its lower end).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ..checks import INT64_MAX
from .temporal_walk import _gallop_id, _lists, _lower_id, _past

__all__ = [
    "CensusIndex",
    "CensusQuery",
    "PART_TWO_NODE",
    "PART_LONE_LAST",
    "PART_LONE_MIDDLE",
    "PART_LONE_FIRST",
    "PART_TRIANGLE",
    "PART_ALL",
    "census_chunks",
    "reverse_runs",
    "window_end",
]

#: Parts of the census (:attr:`CensusQuery.parts`, bits): two-node triples, ...
PART_TWO_NODE = 1
#: ... stars whose lone edge is last (``01 01 02`` ...), in the middle, first, ...
PART_LONE_LAST = 2
PART_LONE_MIDDLE = 4
PART_LONE_FIRST = 8
#: ... and triangles.
PART_TRIANGLE = 16
PART_ALL = 31

_I64_MAX = np.int64(INT64_MAX)


class CensusIndex(NamedTuple):
    """What the census reads besides the graph (int64; built once per graph by
    :func:`nx_gpumine.engines.cpu.temporal.census_index`)."""

    #: Each node's out-edge ids sorted by (target, id), in the node's ``out_ptr`` range: the
    #: edges ``u -> w`` are one run, found by binary search on the target.
    out_nbr: np.ndarray
    #: The target of each edge of ``out_nbr`` (``dst[out_nbr]``: what that search reads).
    out_dst: np.ndarray
    #: First position of each run (the edges ``a -> b`` of one pair, in order) of ``out_nbr``,
    #: and ``len(out_nbr)``.
    run_ptr: np.ndarray
    #: Per run ``a -> b``: the positions ``[lo, hi)`` of the run ``b -> a`` (empty if none).
    run_rev: np.ndarray
    #: CSR of each node's distinct neighbours (either direction, no self), sorted.
    nbr_ptr: np.ndarray
    nbr: np.ndarray
    #: The most edges between two nodes (either direction; self-loops aside).
    heaviest: int


class CensusQuery(NamedTuple):
    """What the 3-edge census counts: the tie rule, the window, the motif table and the parts."""

    #: 0 strict, 1 input order.
    tie: int
    delta_on: bool
    delta: np.generic
    #: Motif index of each pair of edge codes (``plan.temporal_plan.CENSUS_TABLE``).
    table: np.ndarray
    #: Which kinds of triples to count (``PART_*`` bits; the others' counts stay 0).
    parts: int


# ---------------------------------------------------------------------- helpers
@njit(cache=True, inline="always")
def _next_after(next_id, tie, e):
    """First edge id that may follow ``e`` (a strictly later time, or a later id)."""
    if tie == 0:
        return next_id[e]
    return e + 1


@njit(cache=True, inline="always")
def _before(time, p, t, lim, end):
    """Whether edge ``p`` lies before the boundary of a window of width ``lim``: inside the
    window starting at time ``t`` (``end``: where that window ends), or too early for the window
    ending at ``t`` (where the first root whose window holds ``t`` lies)."""
    if end:
        return not _past(time[p], t, lim)
    return _past(t, time[p], lim)


@njit(cache=True, inline="always")
def _bisect(time, lo, hi, t, lim, end):
    """First position in ``[lo, hi)`` not :func:`_before` the boundary (``hi`` if none)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if _before(time, mid, t, lim, end):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _window_start_from(time, e, start, delta_on, delta):
    """First root id whose window holds edge ``e`` (``t_e - t <= delta``; 0 if off), known to
    be at least ``start`` (galloped back from ``e``, near which it usually lies)."""
    if not delta_on:
        return 0
    t = time[e]
    lo = start
    hi = e
    step = 1
    while lo < hi:
        probe = hi - step
        if probe < lo:
            probe = lo
        if _before(time, probe, t, delta, False):
            lo = probe + 1
            break
        hi = probe
        step <<= 1
    return _bisect(time, lo, hi, t, delta, False)


@njit(cache=True, inline="always")
def _first_at(time, tie, e):
    """First edge id that may not precede ``e``: ids below it may come before ``e`` (the first id
    of ``e``'s time: the first root whose window of width 0 holds ``e``; or ``e`` itself in
    input order)."""
    if tie != 0:
        return e
    return _window_start_from(time, e, 0, True, 0)


@njit(cache=True)
def window_end(time, e, delta_on, delta):
    """First edge id past the window of root ``e`` (``t - t_e > delta``; all ids if off)."""
    return _window_end_from(time, e, e + 1, delta_on, delta)


@njit(cache=True)
def _window_end_from(time, e, start, delta_on, delta):
    """:func:`window_end` of ``e``, known to be at least ``start`` (galloped from there)."""
    m = len(time)
    if not delta_on:
        return m
    t0 = time[e]
    lo = start
    hi = m
    step = 1
    while lo < hi:
        probe = lo + step - 1
        if probe >= hi:
            probe = hi - 1
        if _before(time, probe, t0, delta, True):
            lo = probe + 1
            step <<= 1
        else:
            hi = probe
            break
    return _bisect(time, lo, hi, t0, delta, True)


@njit(cache=True, inline="always")
def _run(out_ptr, out_dst, v, w):
    """Positions ``[r0, r1)`` in ``out_nbr`` of the edges ``v -> w`` (``out_dst``:
    :attr:`CensusIndex.out_dst`)."""
    b = out_ptr[v + 1]
    r0 = _lower_id(out_dst, out_ptr[v], b, w)
    return r0, _lower_id(out_dst, r0, b, w + 1)


@njit(cache=True, inline="always")
def _add(counts, idx, x):
    """``counts[idx] += x`` (``x >= 0``), -1 from the first sum past ``2**63 - 1`` on."""
    if x != 0 and idx >= 0:
        c = counts[idx]
        if c >= 0:
            if x > _I64_MAX - c:
                counts[idx] = -1
            else:
                counts[idx] = c + x


# ---------------------------------------------------------------------- pairs (two-node, stars)
# The lists a pair's sweep counts in (rows of its `lists` array: first, end position):
# 0 out_edges of a, 1 in_edges of a, 2 out_edges of b, 3 in_edges of b (ids ascending), and
# in out_nbr: 4 the run a -> b, 5 the run b -> a, 6 a's self-loops, 7 b's self-loops.
_NLISTS = 8


@njit(cache=True)
def _beside(out_edges, in_edges, out_nbr, lists, cur, x, val):
    """The edges of each end of the pair with an id below ``x``, besides those on the pair and
    self-loops: ``val[2 * ci + d]`` for end ``ci`` (0 a, 1 b), ``d`` 0 out of it, 1 into it.

    ``cur`` (one position per list) is a cursor of nondecreasing ``x``: each list is galloped
    from where the previous call stopped.
    """
    for li in range(_NLISTS):
        hi = lists[li, 1]
        if li == 0 or li == 2:
            cur[li] = _gallop_id(out_edges, cur[li], hi, x)
        elif li == 1 or li == 3:
            cur[li] = _gallop_id(in_edges, cur[li], hi, x)
        else:
            cur[li] = _gallop_id(out_nbr, cur[li], hi, x)
    n0 = cur[0] - lists[0, 0]
    n1 = cur[1] - lists[1, 0]
    n2 = cur[2] - lists[2, 0]
    n3 = cur[3] - lists[3, 0]
    ab = cur[4] - lists[4, 0]
    ba = cur[5] - lists[5, 0]
    la = cur[6] - lists[6, 0]
    lb = cur[7] - lists[7, 0]
    val[0] = n0 - ab - la  # a -> y
    val[1] = n1 - ba - la  # y -> a
    val[2] = n2 - ba - lb  # b -> y
    val[3] = n3 - ab - lb  # y -> b


@njit(cache=True, inline="always")
def _reset(cur, lists, s):
    for li in range(_NLISTS):
        cur[s, li] = lists[li, 0]


@njit(cache=True, inline="always")
def _lone_code(d, lc):
    """Code of a lone edge (or of one on the pair, seen from its centre) between the centre,
    numbered ``lc``, and node 2: ``d`` 0 from the centre, 1 into it."""
    if d == 0:
        return lc * 3 + 2
    return 6 + lc


@njit(cache=True, inline="always")
def _add_stars(counts, table, cnt, sums, vr, d0, lone_last):
    """Add the stars of a root on the pair (its source is end ``d0``) whose lone edge comes
    last (``lone_last``; ``sums`` the running sums H) or in the middle (K), ``vr`` the edges
    beside the pair at the window's end or after the root: per centre ``ci``, lone edge
    direction ``d`` and direction ``dp`` of the pair edge (as the sums of
    :func:`_pair_census` define them)."""
    for ci in range(2):
        lc = 0 if ci == d0 else 1
        for d in range(2):
            cl = _lone_code(d, lc)
            q = 2 * ci + d
            for dp in range(2):
                cp = 1 if dp == d0 else 3
                v = cnt[dp] * vr[q] - sums[dp, q]
                if lone_last:  # pair edge, then the lone edge
                    _add(counts, table[cp * 9 + cl], v)
                else:  # lone edge, then the pair edge: the sums count the other way
                    _add(counts, table[cl * 9 + cp], -v)


@njit(cache=True)
def _pair_merge(graph, index, query, lo, reach, L, C1, lists):
    """Merge the pair's edge ids in ``[lo, reach)`` (its runs: ``lists`` rows 4 and 5) into
    ``L`` (ascending; ``C1[x]``: how many of the first ``x`` go ``b -> a``, so the direction
    of position ``j`` is ``D[j] = C1[j + 1] - C1[j]``, 0 for ``a -> b``) and keep their number
    in ``lists[8, 0]``. False when no triple can hold two of them: no two that may follow one
    another (tie rule) lie within the window (it suffices to look at neighbours in ``L``)."""
    time = graph.time
    out_nbr = index.out_nbr
    tie, d_on, delta = query.tie, query.delta_on, query.delta
    x0 = _lower_id(out_nbr, lists[4, 0], lists[4, 1], lo)
    x1 = _lower_id(out_nbr, x0, lists[4, 1], reach)
    y0 = _lower_id(out_nbr, lists[5, 0], lists[5, 1], lo)
    y1 = _lower_id(out_nbr, y0, lists[5, 1], reach)
    p = (x1 - x0) + (y1 - y0)
    lists[8, 0] = p
    if p < 2:
        return False
    n = 0
    C1[0] = 0
    close = False
    while x0 < x1 or y0 < y1:
        if y0 >= y1 or (x0 < x1 and out_nbr[x0] < out_nbr[y0]):
            L[n] = out_nbr[x0]
            C1[n + 1] = C1[n]
            x0 += 1
        else:
            L[n] = out_nbr[y0]
            C1[n + 1] = C1[n] + 1
            y0 += 1
        if n > 0 and not close:
            t0 = time[L[n - 1]]
            t1 = time[L[n]]
            if (tie != 0 or t1 > t0) and not (d_on and _past(t1, t0, delta)):
                close = True
        n += 1
    return close


@njit(cache=True)
def _pair_census(graph, index, query, lo, hi, counts, L, C1, lists, cur, val, acc, memo):
    """Add the two-node triples and the stars whose doubled pair is ``{a, b}`` (roots in
    ``[lo, hi)``) into ``counts``: ``L`` and ``C1`` as :func:`_pair_merge` leaves them,
    ``lists`` the pair's lists (see ``_NLISTS``; ``lists[8, 0]`` the length of ``L``).
    ``cur``, ``val`` and ``acc`` (the running sums) are small scratch, overwritten; ``memo``
    (a row per position of ``L``) keeps what a position added to the running sums when it
    entered a window, taken off when it leaves.
    """
    time, next_id = graph.time, graph.next_id
    out_edges, in_edges = graph.out_edges, graph.in_edges
    out_nbr = index.out_nbr
    tie, d_on, delta, table, parts = (
        query.tie,
        query.delta_on,
        query.delta,
        query.table,
        query.parts,
    )
    p = lists[8, 0]
    # cursors of _beside, one per nondecreasing stream of ids (see below)
    for s in range(cur.shape[0]):
        _reset(cur, lists, s)
    vj = val[0]
    vr = val[1]
    if parts & (PART_TWO_NODE | PART_LONE_LAST | PART_LONE_MIDDLE):
        # Roots i on the pair. The positions j allowed after root i are [A, B): after its
        # tie bound, inside its window. For such j (the second edge) the third is, on the
        # pair: k in [N_j, B) (N_j: the first position allowed after j); lone: any edge of
        # the centre besides the pair in ids [next(j), end of the window) (lone last). And
        # with j as the *third* edge, a lone middle edge lies in ids [next(i), first(j)).
        # Running sums over the window [wa, wb):
        #   cnt[d]           positions of direction d
        #   G[d1, d2]        sum of cnt_d2(N_j) over j of direction d1
        #   H[d1, c, d]      sum of beside_{c,d}(next(j))  (lone last)
        #   K[d2, c, d]      sum of beside_{c,d}(first(j)) (lone middle)
        acc[:] = 0
        H = acc[0]
        K = acc[1]
        G = acc[2]  # (columns 0, 1)
        cnt = acc[3, 0]  # (entries 0, 1)
        wa = 0
        wb = 0
        na_ = 0  # N_j of the next j to enter (nondecreasing in j)
        pa = 0  # A
        pb = 0  # B
        we = 0  # the root's window end (nondecreasing)
        i = 0
        while i < p and L[i] < hi:
            e0 = L[i]
            d0 = C1[i + 1] - C1[i]
            nx = _next_after(next_id, tie, e0)
            we = _window_end_from(time, e0, we if we > e0 else e0 + 1, d_on, delta)
            while pa < p and L[pa] < nx:
                pa += 1
            while pb < p and L[pb] < we:
                pb += 1
            # j's leave the window first (those of [wa, min(pa, wb)): they had entered); a
            # j that would leave before entering is skipped (cursors and pointers only ever
            # move forward, so skipping is allowed): the window then starts at pa (wa <= pa)
            lim = pa if pa < wb else wb
            while wa < lim:  # j = wa leaves: what it added on entering comes off
                j = wa
                dj = C1[j + 1] - C1[j]
                n_j = memo[j, 0]  # N_j
                cnt[dj] -= 1
                G[dj, 1] -= C1[n_j]
                G[dj, 0] -= n_j - C1[n_j]
                if parts & PART_LONE_LAST:
                    for q in range(4):
                        H[dj, q] -= memo[j, 1 + q]
                if parts & PART_LONE_MIDDLE:
                    for q in range(4):
                        K[dj, q] -= memo[j, 5 + q]
                wa += 1
            wa = pa
            if wb < wa:
                wb = wa
            while wb < pb:  # j = wb enters (kept in memo[j] for its leaving)
                j = wb
                dj = C1[j + 1] - C1[j]
                nj = _next_after(next_id, tie, L[j])
                while na_ < p and L[na_] < nj:
                    na_ += 1
                memo[j, 0] = na_
                cnt[dj] += 1
                G[dj, 1] += C1[na_]
                G[dj, 0] += na_ - C1[na_]
                if parts & PART_LONE_LAST:
                    _beside(out_edges, in_edges, out_nbr, lists, cur[0], nj, vj)
                    for q in range(4):
                        H[dj, q] += vj[q]
                        memo[j, 1 + q] = vj[q]
                if parts & PART_LONE_MIDDLE:
                    fj = _first_at(time, tie, L[j])
                    _beside(out_edges, in_edges, out_nbr, lists, cur[1], fj, vj)
                    for q in range(4):
                        K[dj, q] += vj[q]
                        memo[j, 5 + q] = vj[q]
                wb += 1
            if wa == wb:  # nothing allowed after this root on the pair
                i += 1
                continue
            # codes: an edge on the pair is 01 if it runs like the root, else 10; the root's
            # source (node 0) is end d0 (a when the root runs a -> b)
            if parts & PART_TWO_NODE:
                b1 = C1[pb]
                b0 = pb - b1
                for d1 in range(2):
                    c2 = 1 if d1 == d0 else 3
                    for d2 in range(2):
                        c3 = 1 if d2 == d0 else 3
                        v = cnt[d1] * (b1 if d2 == 1 else b0) - G[d1, d2]
                        _add(counts, table[c2 * 9 + c3], v)
            if parts & PART_LONE_LAST:
                _beside(out_edges, in_edges, out_nbr, lists, cur[2], we, vr)
                _add_stars(counts, table, cnt, H, vr, d0, True)
            if parts & PART_LONE_MIDDLE:
                _beside(out_edges, in_edges, out_nbr, lists, cur[3], nx, vr)
                _add_stars(counts, table, cnt, K, vr, d0, False)
            i += 1
    if parts & PART_LONE_FIRST:
        # Roots beside the pair: the lone edge e0 (at centre c) comes first, then j < k on the
        # pair, j before k (j < P_k, P_k the first position not before k), e0 before j
        # (e0 < first(j) =: x_j, nondecreasing in j), k inside e0's window and e0 in
        # [lo, hi): e0 in [L_k, min(hi, x_j)) with L_k = max(lo, first root whose window holds
        # k). Per k the j's split into x_j <= L_k (none), L_k < x_j < hi (the running sum M
        # over [J1, J2')), x_j >= hi (each beside(hi) - beside(L_k)).
        acc[:] = 0
        MS = acc[0]
        mn = acc[3, 0]  # (entries 0, 1)
        vh = acc[4, 0]
        _beside(out_edges, in_edges, out_nbr, lists, cur[4], hi, vh)
        # x_j > y (y an id) holds exactly from L[j] >= next(y) on: J2 and J1 by position
        j2 = _lower_id(L, 0, p, _next_after(next_id, tie, hi - 1))  # first j with x_j >= hi
        j1 = 0  # first j with x_j > L_k
        ma = 0
        mb = 0
        pk = 0
        ws = 0  # first root whose window holds k (nondecreasing)
        for k in range(1, p):
            ek = L[k]
            ws = _window_start_from(time, ek, ws, d_on, delta)
            lk = ws if ws > lo else lo
            if lk >= hi:
                break
            if tie == 0:  # P_k: the positions before k's time
                tk = time[ek]
                while time[L[pk]] < tk:
                    pk += 1
            else:
                pk = k
            nl = _next_after(next_id, tie, lk)
            while j1 < p and L[j1] < nl:
                j1 += 1
            s = j1
            e = j2 if j2 < pk else pk
            if e < s:
                e = s
            # leave, skip, enter (as the roots' window above; ma <= s)
            lim = s if s < mb else mb
            while ma < lim:  # j = ma leaves: what it added on entering comes off
                dj = C1[ma + 1] - C1[ma]
                for q in range(4):
                    MS[dj, q] -= memo[ma, 5 + q]
                mn[dj] -= 1
                ma += 1
            ma = s
            if mb < ma:
                mb = ma
            while mb < e:  # j = mb enters (kept in memo[mb] for its leaving)
                dj = C1[mb + 1] - C1[mb]
                fj = _first_at(time, tie, L[mb])
                _beside(out_edges, in_edges, out_nbr, lists, cur[5], fj, vj)
                for q in range(4):
                    MS[dj, q] += vj[q]
                    memo[mb, 5 + q] = vj[q]
                mn[dj] += 1
                mb += 1
            t0 = j2 if j2 > j1 else j1  # the j's with x_j >= hi: [t0, pk)
            top1 = 0
            top0 = 0
            if pk > t0:
                top1 = C1[pk] - C1[t0]
                top0 = (pk - t0) - top1
            if mn[0] + mn[1] + top0 + top1 == 0:
                continue
            _beside(out_edges, in_edges, out_nbr, lists, cur[6], lk, vr)
            dk = C1[k + 1] - C1[k]
            for ci in range(2):
                for d in range(2):
                    # the root e0 = c -> y (d 0: c is node 0) or y -> c (c is node 1); x is 2.
                    # On the pair, c -> x is direction ci (a -> b when c is a)
                    lc = d
                    c3 = _lone_code(0 if dk == ci else 1, lc)
                    q = 2 * ci + d
                    for dj in range(2):
                        c2 = _lone_code(0 if dj == ci else 1, lc)
                        top = top1 if dj == 1 else top0
                        v = MS[dj, q] + top * vh[q] - (mn[dj] + top) * vr[q]
                        _add(counts, table[c2 * 9 + c3], v)


@njit(cache=True)
def _pairs_range(graph, index, query, lo, hi, reach, r_lo, r_hi, counts, stop):
    """The pair sweeps of the pairs of the runs ``[r_lo, r_hi)`` of ``out_nbr`` (each pair
    from the run of its lower end, or of its only one)."""
    src, dst = graph.src, graph.dst
    out_ptr, in_ptr = graph.out_ptr, graph.in_ptr
    out_nbr, out_dst = index.out_nbr, index.out_dst
    run_ptr, run_rev = index.run_ptr, index.run_rev
    stars = (query.parts & (PART_LONE_LAST | PART_LONE_MIDDLE | PART_LONE_FIRST)) != 0
    size = 16
    L = np.empty(size, np.int64)
    C1 = np.empty(size + 1, np.int64)
    memo = np.empty((size, 9), np.int64)  # (see _pair_census)
    lists = np.zeros((_NLISTS + 1, 2), np.int64)  # (row 8: the merged length)
    cur = np.zeros((7, _NLISTS), np.int64)
    val = np.zeros((2, 4), np.int64)
    acc = np.zeros((5, 2, 4), np.int64)
    for r in range(r_lo, r_hi):
        if ((r - r_lo) & 1023) == 0 and stop[0] != 0:
            return
        r0, r1 = run_ptr[r], run_ptr[r + 1]
        s0, s1 = run_rev[r, 0], run_rev[r, 1]
        e = out_nbr[r0]
        a = src[e]
        b = dst[e]
        if a == b or (a > b and s1 > s0):  # a self-loop, or the pair of the run b -> a
            continue
        p = (r1 - r0) + (s1 - s0)
        if p < 2:
            continue
        if p > size:
            size = max(p, 2 * size)
            L = np.empty(size, np.int64)
            C1 = np.empty(size + 1, np.int64)
            memo = np.empty((size, 9), np.int64)
        lists[4, 0], lists[4, 1] = r0, r1
        lists[5, 0], lists[5, 1] = s0, s1
        if not _pair_merge(graph, index, query, lo, reach, L, C1, lists):
            continue
        if stars:
            lists[0, 0], lists[0, 1] = out_ptr[a], out_ptr[a + 1]
            lists[1, 0], lists[1, 1] = in_ptr[a], in_ptr[a + 1]
            lists[2, 0], lists[2, 1] = out_ptr[b], out_ptr[b + 1]
            lists[3, 0], lists[3, 1] = in_ptr[b], in_ptr[b + 1]
            x0, x1 = _run(out_ptr, out_dst, a, a)
            lists[6, 0], lists[6, 1] = x0, x1
            x0, x1 = _run(out_ptr, out_dst, b, b)
            lists[7, 0], lists[7, 1] = x0, x1
        _pair_census(graph, index, query, lo, hi, counts, L, C1, lists, cur, val, acc, memo)


@njit(cache=True, parallel=True, nogil=True)
def reverse_runs(graph, out_nbr, out_dst, run_ptr, run_rev):
    """Fill ``run_rev[r]`` with the positions ``[lo, hi)`` in ``out_nbr`` of the run reversing
    run ``r`` (the edges ``b -> a`` of a run ``a -> b``; empty: ``lo == hi``)."""
    src, out_ptr = graph.src, graph.out_ptr
    for r in prange(len(run_ptr) - 1):
        a = src[out_nbr[run_ptr[r]]]
        b = out_dst[run_ptr[r]]
        x0, x1 = _run(out_ptr, out_dst, b, a)
        run_rev[r, 0] = x0
        run_rev[r, 1] = x1


# ---------------------------------------------------------------------- triangles
@njit(cache=True)
def _close(graph, index, query, arr, q, q1, y, w, we, c2, ly, counts):
    """Add the triangles of second edges ``arr[q:q1]`` (one root end to ``w``, ids below the
    root's window end ``we``) closed by an edge between ``y`` (numbered ``ly``) and ``w``
    (numbered 2) with an id in ``[next(e1), we)``; ``c2`` is the second edge's code."""
    next_id, out_ptr, out_nbr, out_dst = graph.next_id, graph.out_ptr, index.out_nbr, index.out_dst
    table, tie = query.table, query.tie
    if q >= q1:
        return
    ya, yb = _run(out_ptr, out_dst, y, w)
    wa, wb = _run(out_ptr, out_dst, w, y)
    if ya >= yb and wa >= wb:
        return
    lo2 = _next_after(next_id, tie, arr[q])
    ya = _lower_id(out_nbr, ya, yb, lo2)
    wa = _lower_id(out_nbr, wa, wb, lo2)
    yb = _lower_id(out_nbr, ya, yb, we)
    wb = _lower_id(out_nbr, wa, wb, we)
    i_yw = table[c2 * 9 + ly * 3 + 2]
    i_wy = table[c2 * 9 + 6 + ly]
    for qq in range(q, q1):
        lo2 = _next_after(next_id, tie, arr[qq])
        ya = _gallop_id(out_nbr, ya, yb, lo2)
        wa = _gallop_id(out_nbr, wa, wb, lo2)
        if ya >= yb and wa >= wb:
            return
        _add(counts, i_yw, yb - ya)
        _add(counts, i_wy, wb - wa)


@njit(cache=True)
def _triangles(graph, index, walk_index, query, lo, hi, counts, stop):
    """Add the triangles of roots ``[lo, hi)`` into ``counts``.

    The second edge joins a root end ``x`` (node ``lx``: the root's source is 0) to a third node
    ``w``, the third closes the triangle on ``{y, w}``, ``y`` the root's other end. A root walks
    the second edges of its window in the lists of its ends, or, when its ends have fewer
    distinct neighbours than that window has edges (parallel edges), goes through their common
    neighbours ``w`` and the runs of edges to them.
    """
    src, dst, time, next_id = graph.src, graph.dst, graph.time, graph.next_id
    out_ptr, out_edges, in_ptr, in_edges = _lists(graph)
    out_nbr, out_dst, nbr_ptr, nbr = index.out_nbr, index.out_dst, index.nbr_ptr, index.nbr
    pos_out, pos_in, out_after_in, in_after_out = walk_index
    tie = query.tie
    qs = np.zeros(4, np.int64)
    qe = np.zeros(4, np.int64)
    polls = 0
    for e0 in range(lo, hi):
        polls += 1
        if (polls & 15) == 0 and stop[0] != 0:
            return
        u = src[e0]
        v = dst[e0]
        if u == v:
            continue
        we = window_end(time, e0, query.delta_on, query.delta)
        lo1 = _next_after(next_id, tie, e0)
        if lo1 >= we:
            continue
        # lists 2 * lx + (0 out, 1 in) of x = u (lx 0) or v (lx 1): the window's positions,
        # galloped from the root's own place in them (the walk index)
        qs[0] = _gallop_id(out_edges, pos_out[e0] + 1, out_ptr[u + 1], lo1)
        qs[1] = _gallop_id(in_edges, in_after_out[e0], in_ptr[u + 1], lo1)
        qs[2] = _gallop_id(out_edges, out_after_in[e0], out_ptr[v + 1], lo1)
        qs[3] = _gallop_id(in_edges, pos_in[e0] + 1, in_ptr[v + 1], lo1)
        qe[0] = _gallop_id(out_edges, qs[0], out_ptr[u + 1], we)
        qe[1] = _gallop_id(in_edges, qs[1], in_ptr[u + 1], we)
        qe[2] = _gallop_id(out_edges, qs[2], out_ptr[v + 1], we)
        qe[3] = _gallop_id(in_edges, qs[3], in_ptr[v + 1], we)
        walk = (qe[0] - qs[0]) + (qe[1] - qs[1]) + (qe[2] - qs[2]) + (qe[3] - qs[3])
        if walk == 0:
            continue
        ua, ub = nbr_ptr[u], nbr_ptr[u + 1]
        va, vb = nbr_ptr[v], nbr_ptr[v + 1]
        if ub - ua > vb - va:  # (u, v): the ends with the shorter and longer list
            ua, ub, va, vb = va, vb, ua, ub
        if 8 * (ub - ua) < walk:
            # common neighbours: each of the shorter list galloped to in the longer one
            for t in range(ua, ub):
                w = nbr[t]
                va = _gallop_id(nbr, va, vb, w)
                if va >= vb:
                    break
                if nbr[va] == w:
                    for lx in range(2):
                        x = u if lx == 0 else v
                        y = v if lx == 0 else u
                        # x -> w (code lx 2) and w -> x (code 2 lx), ids in [lo1, we)
                        ra, rb = _run(out_ptr, out_dst, x, w)
                        ra = _lower_id(out_nbr, ra, rb, lo1)
                        rb = _lower_id(out_nbr, ra, rb, we)
                        _close(graph, index, query, out_nbr, ra, rb, y, w, we, lx * 3 + 2, 1 - lx,
                               counts)  # fmt: skip
                        ra, rb = _run(out_ptr, out_dst, w, x)
                        ra = _lower_id(out_nbr, ra, rb, lo1)
                        rb = _lower_id(out_nbr, ra, rb, we)
                        _close(graph, index, query, out_nbr, ra, rb, y, w, we, 6 + lx, 1 - lx,
                               counts)  # fmt: skip
            continue
        for j1 in range(4):
            lx = j1 >> 1
            x = u if lx == 0 else v
            y = v if lx == 0 else u
            incoming = (j1 & 1) == 1
            arr = in_edges if incoming else out_edges
            c2 = (6 + lx) if incoming else (lx * 3 + 2)
            for q in range(qs[j1], qe[j1]):
                e1 = arr[q]
                w = src[e1] if incoming else dst[e1]
                if w == u or w == v:  # the root's pair, or a self-loop
                    continue
                # no triangle unless w and y are neighbours (one search in the shorter list)
                na, nb = nbr_ptr[y], nbr_ptr[y + 1]
                z = w
                if nbr_ptr[w + 1] - nbr_ptr[w] < nb - na:
                    na, nb = nbr_ptr[w], nbr_ptr[w + 1]
                    z = y
                t = _lower_id(nbr, na, nb, z)
                if t == nb or nbr[t] != z:
                    continue
                _close(graph, index, query, arr, q, q + 1, y, w, we, c2, 1 - lx, counts)


# ---------------------------------------------------------------------- driver
@njit(cache=True, parallel=True, nogil=True)
def census_chunks(root_bounds, pair_bounds, graph, index, walk, query, lo, hi, reach, stop):
    """The census of roots ``[lo, hi)`` (every edge below ``reach``, the end of the last
    root's window; ``walk`` the graph's :class:`~.temporal_walk.WalkIndex`) in parallel:
    triangles of root chunks
    ``[root_bounds[c], root_bounds[c + 1])``, pair sweeps of the pairs of the runs
    ``[pair_bounds[c], pair_bounds[c + 1])``. Returns int64 ``(chunks, 36)`` (-1: that
    chunk's count of that motif overflowed)."""
    nr = len(root_bounds) - 1 if query.parts & PART_TRIANGLE else 0
    npc = len(pair_bounds) - 1 if query.parts & (PART_ALL - PART_TRIANGLE) else 0
    counts = np.zeros((nr + npc, 36), np.int64)
    both = min(nr, npc)
    for cc in prange(nr + npc):
        c = np.int64(cc)
        # the two kinds of chunks alternate (threads take contiguous blocks of iterations)
        if c < 2 * both:
            tri = (c & 1) == 0
            x = c >> 1
        else:
            tri = nr > npc
            x = c - both
        if tri:
            _triangles(
                graph, index, walk, query, root_bounds[x], root_bounds[x + 1], counts[c], stop
            )
        else:
            _pairs_range(
                graph, index, query, lo, hi, reach, pair_bounds[x], pair_bounds[x + 1], counts[c],
                stop,
            )  # fmt: skip
    return counts
