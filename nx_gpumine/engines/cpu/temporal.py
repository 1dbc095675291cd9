"""CPU temporal engine (numba): chronological edge-driven DFS (Mackey et al.) over a TemporalPlan.

Each root edge id ``e_0`` of a task range starts an iterative DFS; level ``i`` matches motif edge
``i``. When a level is entered its candidate list (out-list, in-list or the global edge list),
start and end positions are found by binary search once and cached per level (Everest's
candidate-edge caching): backtracking resumes at ``pos + 1`` with no new search. Time windows
compare differences (``time[x] - time[base] <= limit``), exact for integer times of any spread
(:func:`_past`).

Root ranges are split into chunks of about equal estimated work and run with ``prange``.
Counts are int64 per chunk and summed in Python with an overflow check. Unlimited enumeration
counts first and fills exact offsets in parallel; a limited one fills a doubling buffer.
Kernels release the GIL and poll a stop flag (see :mod:`.calls`: Ctrl-C, threads).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from ...inputs.temporal_graph import TemporalGraph
from ...plan.temporal_plan import (
    CENSUS_TABLE,
    TemporalPlan,
    census_window,
    encode_limit,
    split_root_edges,
    time_span,
)
from ..checks import checked_limit, checked_range, checked_sum
from .calls import DONE as _DONE
from .calls import FULL as _FULL
from .calls import LIMIT as _LIMIT
from .calls import POLL_MASK, enumerate_rows, new_stop, run_kernel, settle
from .calls import STOPPED as _STOPPED

__all__ = ["count", "enumerate_matches", "exists", "census", "walk_index", "INITIAL_ROWS"]

#: First size (rows) of the growing output buffer of a limited enumeration.
INITIAL_ROWS = 1 << 16


@njit(cache=True, inline="always")
def _lower_id(arr, lo, hi, x):
    """First position p in [lo, hi) with arr[p] >= x."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _gallop_id(arr, lo, hi, x):
    """First position p in [lo, hi) with arr[p] >= x, galloping from lo (x is usually near)."""
    step = 1
    while lo < hi:
        probe = lo + step - 1
        if probe >= hi:
            probe = hi - 1
        if arr[probe] < x:
            lo = probe + 1
            step <<= 1
        else:
            hi = probe
            break
    return _lower_id(arr, lo, hi, x)


@njit(cache=True, inline="always")
def _past(t, base, lim):
    """``t - base > lim`` (``lim >= 0``), exact whatever the spread of int64 times.

    The one window rule of the engines (``plan/temporal_plan.py``, "Window arithmetic"):
    ``t <= base`` never exceeds; otherwise int64 times are compared by their unsigned
    difference, exact up to 2**64 - 1. Float differences never wrap.
    """
    if t <= base:
        return False
    if isinstance(t, float):
        return t - base > lim
    # 0 < t - base < 2**64: exact as an unsigned difference (a signed one would overflow)
    return np.uint64(t) - np.uint64(base) > np.uint64(lim)


@njit(cache=True, inline="always")
def _in_window(tx, t0, tp, delta_on, delta, gap_on, gap):
    if delta_on and _past(tx, t0, delta):
        return False
    if gap_on and _past(tx, tp, gap):
        return False
    return True


@njit(cache=True)
def _end_list(arr, lo, hi, time, t0, tp, delta_on, delta, gap_on, gap):
    """First position p in [lo, hi) whose edge arr[p] leaves the window (hi if none).

    Galloping from ``lo`` (windows are usually short), then binary search.
    """
    if not delta_on and not gap_on:
        return hi
    step = 1
    while lo < hi:
        probe = lo + step - 1
        if probe >= hi:
            probe = hi - 1
        if _in_window(time[arr[probe]], t0, tp, delta_on, delta, gap_on, gap):
            lo = probe + 1
            step <<= 1
        else:
            hi = probe
            break
    while lo < hi:
        mid = (lo + hi) >> 1
        if _in_window(time[arr[mid]], t0, tp, delta_on, delta, gap_on, gap):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _end_global(lo, hi, time, t0, tp, delta_on, delta, gap_on, gap):
    """First edge id in [lo, hi) outside the window (galloping, then binary search)."""
    if not delta_on and not gap_on:
        return hi
    step = 1
    while lo < hi:
        probe = lo + step - 1
        if probe >= hi:
            probe = hi - 1
        if _in_window(time[probe], t0, tp, delta_on, delta, gap_on, gap):
            lo = probe + 1
            step <<= 1
        else:
            hi = probe
            break
    while lo < hi:
        mid = (lo + hi) >> 1
        if _in_window(time[mid], t0, tp, delta_on, delta, gap_on, gap):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def _node_ok(v, a, g_nlab, has_nlab, p_nlab, has_allow, allow):
    req = p_nlab[a]
    if req != -1:
        if not has_nlab or g_nlab[v] != req:
            return False
    if has_allow and allow[a, v] == 0:
        return False
    return True


@njit(cache=True, inline="always")
def _is_mapped(v, fmap, k):
    for j in range(k):
        if fmap[j] == v:
            return True
    return False


@njit(cache=True)
def _anti_ok(
    level,
    eid,
    fmap,
    src,
    dst,
    time,
    out_ptr,
    out_edges,
    in_ptr,
    in_edges,
    anti_ptr,
    anti_src,
    anti_dst,
    anti_lo,
    anti_hi,
    anti_w_on,
    anti_w,
):
    """False if some anti-edge checked at ``level`` is present in the graph."""
    for j in range(anti_ptr[level], anti_ptr[level + 1]):
        u = fmap[anti_src[j]]
        w = fmap[anti_dst[j]]
        tlo = time[eid[anti_lo[j]]]
        thi = time[eid[anti_hi[j]]]
        won = anti_w_on[j] != 0
        lim = anti_w[j]
        if out_ptr[u + 1] - out_ptr[u] <= in_ptr[w + 1] - in_ptr[w]:
            arr = out_edges
            a = out_ptr[u]
            b = out_ptr[u + 1]
            other = dst
            want = w
        else:
            arr = in_edges
            a = in_ptr[w]
            b = in_ptr[w + 1]
            other = src
            want = u
        # first position with time > tlo
        lo = a
        hi = b
        while lo < hi:
            mid = (lo + hi) >> 1
            if time[arr[mid]] <= tlo:
                lo = mid + 1
            else:
                hi = mid
        p = lo
        while p < b:
            x = arr[p]
            if won and _past(time[x], thi, lim):
                break
            if other[x] == want:
                return False
            p += 1
    return True


@njit(cache=True)
def _run_range(
    src,
    dst,
    time,
    next_id,
    out_ptr,
    out_edges,
    in_ptr,
    in_edges,
    g_nlab,
    has_nlab,
    g_elab,
    has_elab,
    k,
    l,
    tie,
    esrc,
    edst,
    src_new,
    dst_new,
    source,
    delta_on,
    delta,
    gap_on,
    gap,
    p_nlab,
    p_elab,
    has_allow,
    allow,
    anti_ptr,
    anti_src,
    anti_dst,
    anti_lo,
    anti_hi,
    anti_w_on,
    anti_w,
    pos_out,
    pos_in,
    out_after_in,
    in_after_out,
    lo,
    hi,
    mode,
    out,
    row0,
    cap,
    cap_is_limit,
    stop,
):
    """DFS over root edges [lo, hi). mode 0 count, 1 enumerate into out[row0:cap], 2 exists.

    ``stop[0]`` set (a chunk found a match, or the host was interrupted) ends the run within
    ``POLL_MASK + 1`` steps with status ``_STOPPED``.
    Returns (count, rows_end, next_root, status).
    """
    Z = np.int64(0)  # typed: a literal 0 argument would compile a helper specialisation
    m = len(src)
    # The search state (level i matches motif edge i; level 0 is the root edge e0):
    #   fmap[a]        the vertex of motif node a, -1 while unmapped. A step at level i finds
    #                  exactly the nodes first mapped at levels < i: _is_mapped scans every
    #                  entry, so each rejection and backtrack resets its level's new nodes.
    #   eid[i]         the edge id matched at level i (valid for i < level)
    #   pos[i], end[i] level i's candidate range, found once when the level is entered (Everest's
    #                  candidate-edge caching); positions in the list kind[i] says: 0 out_edges,
    #                  1 in_edges, 2 the edge ids themselves. While deeper levels run, pos[i] is
    #                  the candidate in eid[i]; the backtrack into level i moves it on by one.
    fmap = np.full(k, -1, np.int64)
    eid = np.zeros(l, np.int64)
    pos = np.zeros(l, np.int64)
    end = np.zeros(l, np.int64)
    kind = np.zeros(l, np.int64)
    cnt = Z
    rows = row0
    steps = Z
    for e0 in range(lo, hi):
        if stop[0] != 0:  # exists: another chunk found a match; or the host stops the call
            return cnt, rows, e0, _STOPPED
        # level 0: the root edge's own tests (self-loops never match: the map is injective)
        s0 = src[e0]
        d0 = dst[e0]
        if s0 == d0:
            continue
        if p_elab[0] != -1 and (not has_elab or g_elab[e0] != p_elab[0]):
            continue
        if not _node_ok(s0, esrc[0], g_nlab, has_nlab, p_nlab, has_allow, allow):
            continue
        if not _node_ok(d0, edst[0], g_nlab, has_nlab, p_nlab, has_allow, allow):
            continue
        fmap[esrc[0]] = s0
        fmap[edst[0]] = d0
        eid[0] = e0
        ok0 = anti_ptr[1] == anti_ptr[0] or _anti_ok(
            Z, eid, fmap, src, dst, time, out_ptr, out_edges, in_ptr, in_edges,
            anti_ptr, anti_src, anti_dst, anti_lo, anti_hi, anti_w_on, anti_w,
        )  # fmt: skip
        if not ok0:
            fmap[esrc[0]] = -1
            fmap[edst[0]] = -1
            continue
        if l == 1:  # the root edge alone is the match
            if mode == 1:
                if rows >= cap:
                    fmap[esrc[0]] = -1
                    fmap[edst[0]] = -1
                    if cap_is_limit:
                        return cnt, rows, e0, _LIMIT
                    return cnt, rows, e0, _FULL
                out[rows, 0] = e0
                rows += 1
            cnt += 1
            fmap[esrc[0]] = -1
            fmap[edst[0]] = -1
            if mode == 2:
                stop[0] = 1
                return cnt, rows, e0 + 1, _DONE
            continue
        root_rows = rows  # a full buffer rolls back to here (_FULL): the host re-runs e0
        root_cnt = cnt
        t0 = time[e0]
        level = Z + 1
        entering = True
        # one iteration: enter `level` (compute its range) if just descended, then pop it if
        # exhausted or test the candidate at pos[level]; level 0 is fixed, so reaching it ends e0
        while level >= 1:
            steps += 1
            if (steps & POLL_MASK) == 0 and stop[0] != 0:
                for j in range(k):
                    fmap[j] = -1
                return cnt, rows, e0, _STOPPED
            if entering:
                entering = False
                prev = eid[level - 1]
                # every list is sorted by edge id, i.e. by time, so the tie rule is a lower
                # bound on ids: strictly later time (next_id) or, input order, a later id
                lo_id = next_id[prev] if tie == 0 else prev + 1
                tp = time[prev]
                go = gap_on[level] != 0
                gv = gap[level]
                sc = source[level]
                if sc == 3:  # both endpoints mapped: walk the shorter whole list
                    u = fmap[esrc[level]]
                    w = fmap[edst[level]]
                    sc = 0 if out_ptr[u + 1] - out_ptr[u] <= in_ptr[w + 1] - in_ptr[w] else 1
                if sc == 0:
                    u = fmap[esrc[level]]
                    # start next to the previous edge when it touches u (Mackey-style walk)
                    start = -1
                    if src[prev] == u:
                        start = pos_out[prev] + 1
                    elif dst[prev] == u:
                        start = out_after_in[prev]
                    if start >= 0:
                        a = _gallop_id(out_edges, start, out_ptr[u + 1], lo_id)
                    else:
                        a = _lower_id(out_edges, out_ptr[u], out_ptr[u + 1], lo_id)
                    # the range ends at the first edge past the window (delta from the root's
                    # time, gap from the previous edge's): later ids have later times
                    b = _end_list(
                        out_edges, a, out_ptr[u + 1], time, t0, tp, delta_on, delta, go, gv
                    )
                elif sc == 1:
                    w = fmap[edst[level]]
                    start = -1
                    if dst[prev] == w:
                        start = pos_in[prev] + 1
                    elif src[prev] == w:
                        start = in_after_out[prev]
                    if start >= 0:
                        a = _gallop_id(in_edges, start, in_ptr[w + 1], lo_id)
                    else:
                        a = _lower_id(in_edges, in_ptr[w], in_ptr[w + 1], lo_id)
                    b = _end_list(in_edges, a, in_ptr[w + 1], time, t0, tp, delta_on, delta, go, gv)
                else:  # both endpoints new: the global edge list (ids are positions)
                    a = lo_id
                    b = _end_global(lo_id, m, time, t0, tp, delta_on, delta, go, gv)
                pos[level] = a
                end[level] = b
                kind[level] = sc
            p = pos[level]
            if p >= end[level]:
                # exhausted: back to the previous level, unmapping the nodes it introduced,
                # and on to its next candidate
                level -= 1
                if level >= 1:
                    if src_new[level]:
                        fmap[esrc[level]] = -1
                    if dst_new[level]:
                        fmap[edst[level]] = -1
                    pos[level] += 1
                continue
            kd = kind[level]
            if kd == 0:
                e = out_edges[p]
            elif kd == 1:
                e = in_edges[p]
            else:
                e = p
            s = src[e]
            d = dst[e]
            # endpoint tests: a new endpoint must be unmapped (injectivity) and pass its node
            # filters; a mapped one must be its node's image (always so for the list's own
            # vertex, but not for the other end of a both-mapped level's list)
            if src_new[level]:
                if _is_mapped(s, fmap, k) or not _node_ok(
                    s, esrc[level], g_nlab, has_nlab, p_nlab, has_allow, allow
                ):
                    pos[level] = p + 1
                    continue
            elif s != fmap[esrc[level]]:
                pos[level] = p + 1
                continue
            if dst_new[level]:
                if (
                    d == s  # a new s is not in fmap yet
                    or _is_mapped(d, fmap, k)
                    or not _node_ok(d, edst[level], g_nlab, has_nlab, p_nlab, has_allow, allow)
                ):
                    pos[level] = p + 1
                    continue
            elif d != fmap[edst[level]]:
                pos[level] = p + 1
                continue
            if p_elab[level] != -1 and (not has_elab or g_elab[e] != p_elab[level]):
                pos[level] = p + 1
                continue
            fmap[esrc[level]] = s
            fmap[edst[level]] = d
            eid[level] = e
            # anti-edges last: the plan puts each at the first level where both its nodes and
            # the edges bounding its interval are mapped, and the test walks a list
            if anti_ptr[level + 1] > anti_ptr[level]:
                ok = _anti_ok(
                    level, eid, fmap, src, dst, time, out_ptr, out_edges, in_ptr, in_edges,
                    anti_ptr, anti_src, anti_dst, anti_lo, anti_hi, anti_w_on, anti_w,
                )  # fmt: skip
                if not ok:
                    if src_new[level]:
                        fmap[esrc[level]] = -1
                    if dst_new[level]:
                        fmap[edst[level]] = -1
                    pos[level] = p + 1
                    continue
            if level == l - 1:  # a full match
                if mode == 1:
                    # checked before writing: the limit ends the run; else _FULL drops this
                    # root's rows and count (back to root_rows, root_cnt) for a re-run of e0
                    if rows >= cap:
                        for j in range(k):
                            fmap[j] = -1
                        if cap_is_limit:
                            return cnt, rows, e0, _LIMIT
                        return root_cnt, root_rows, e0, _FULL
                    for j in range(l):
                        out[rows, j] = eid[j]
                    rows += 1
                cnt += 1
                if mode == 2:
                    stop[0] = 1  # the other chunks stop at their next look at the flag
                    for j in range(k):
                        fmap[j] = -1
                    return cnt, rows, e0 + 1, _DONE
                if src_new[level]:
                    fmap[esrc[level]] = -1
                if dst_new[level]:
                    fmap[edst[level]] = -1
                pos[level] = p + 1
                continue
            level += 1  # descend (this level's pos stays on e until the backtrack)
            entering = True
        fmap[esrc[0]] = -1
        fmap[edst[0]] = -1
    return cnt, rows, hi, _DONE


@njit(cache=True, parallel=True, nogil=True)
def _count_chunks(bounds, args, stop):
    nch = len(bounds) - 1
    counts = np.zeros(nch, np.int64)
    l = args[13]
    dummy = np.empty((0, l), np.int64)
    for c in prange(nch):
        res = _run_range(*args, bounds[c], bounds[c + 1], 0, dummy, 0, 0, False, stop)
        counts[c] = res[0]
    return counts


@njit(cache=True, parallel=True, nogil=True)
def _fill_chunks(bounds, offsets, out, args, stop):
    nch = len(bounds) - 1
    ends = np.zeros(nch, np.int64)
    status = np.zeros(nch, np.int64)
    for c in prange(nch):
        res = _run_range(
            *args, bounds[c], bounds[c + 1], 1, out, offsets[c], offsets[c + 1], False, stop
        )
        ends[c] = res[1]
        status[c] = res[3]
    return ends, status


@njit(cache=True, parallel=True, nogil=True)
def _exists_chunks(bounds, args, stop):
    nch = len(bounds) - 1
    found = np.zeros(nch, np.int64)
    l = args[13]
    dummy = np.empty((0, l), np.int64)
    for c in prange(nch):
        res = _run_range(*args, bounds[c], bounds[c + 1], 2, dummy, 0, 0, False, stop)
        found[c] = res[0]
    return found


@njit(cache=True, nogil=True)
def _enum_serial(args, lo, hi, out, row0, cap, cap_is_limit, stop):
    return _run_range(*args, lo, hi, 1, out, row0, cap, cap_is_limit, stop)


# ---------------------------------------------------------------------- census
@njit(cache=True)
def _census_range(
    src, dst, time, next_id, out_ptr, out_edges, in_ptr, in_edges, tie, delta_on, delta, table,
    lo, hi, counts, stop,
):  # fmt: skip
    """Add the 3-edge census of roots [lo, hi) into counts (36,); stops early on ``stop[0]``."""
    S = np.zeros(3, np.int64)
    NO = np.bool_(False)  # typed: a literal False would compile a helper specialisation
    polls = 0
    # S: the match's nodes by first appearance (S[0] = u, S[1] = v, S[2] = a third node once an
    # edge brings one). Each level walks the out- and in-lists of the nodes of S: list
    # j = 2 * i + (0 out, 1 in) of S[i]. An edge between two nodes of S lies in two of those
    # lists and is taken only from the first (the skip tests below). Both levels keep only
    # edges within delta of t0 (e1 comes before e2, so the window bounds it too). The codes
    # 3 * x + y (x, y: positions in S of the source and target) of e1 (c2) and of e2 select
    # the motif through `table`.
    for e0 in range(lo, hi):
        if stop[0] != 0:
            return counts
        u = src[e0]
        v = dst[e0]
        if u == v:
            continue
        t0 = time[e0]
        S[0] = u
        S[1] = v
        lo1 = next_id[e0] if tie == 0 else e0 + 1
        for j1 in range(4):
            x = S[j1 >> 1]
            if j1 & 1 == 0:
                arr1 = out_edges
                a1 = out_ptr[x]
                b1 = out_ptr[x + 1]
            else:
                arr1 = in_edges
                a1 = in_ptr[x]
                b1 = in_ptr[x + 1]
            p1 = _lower_id(arr1, a1, b1, lo1)
            q1 = _end_list(arr1, p1, b1, time, t0, t0, delta_on, delta, NO, delta)
            for pp1 in range(p1, q1):
                polls += 1  # each pp1 walks up to a few lists: look at the flag often
                if (polls & 15) == 0 and stop[0] != 0:
                    return counts
                e1 = arr1[pp1]
                s1 = src[e1]
                d1 = dst[e1]
                if s1 == d1:
                    continue
                # node indices in S (size 2)
                i_s = 0 if s1 == u else 1 if s1 == v else -1
                i_d = 0 if d1 == u else 1 if d1 == v else -1
                jn = j1 >> 1
                if j1 & 1 == 0:  # from out(S[jn]): skip if dst in S with idx < jn
                    if i_d != -1 and i_d < jn:
                        continue
                else:  # from in(S[jn]): skip if src in S with idx <= jn
                    if i_s != -1 and i_s <= jn:
                        continue
                ns = 2  # nodes in S; e1 may bring the third
                if i_s == -1:
                    S[2] = s1
                    i_s = 2
                    ns = 3
                elif i_d == -1:
                    S[2] = d1
                    i_d = 2
                    ns = 3
                c2 = i_s * 3 + i_d
                lo2 = next_id[e1] if tie == 0 else e1 + 1
                for j2 in range(2 * ns):
                    y = S[j2 >> 1]
                    if j2 & 1 == 0:
                        arr2 = out_edges
                        a2 = out_ptr[y]
                        b2 = out_ptr[y + 1]
                    else:
                        arr2 = in_edges
                        a2 = in_ptr[y]
                        b2 = in_ptr[y + 1]
                    p2 = _lower_id(arr2, a2, b2, lo2)
                    q2 = _end_list(arr2, p2, b2, time, t0, t0, delta_on, delta, NO, delta)
                    jm = j2 >> 1
                    for pp2 in range(p2, q2):
                        e2 = arr2[pp2]
                        s2 = src[e2]
                        d2 = dst[e2]
                        if s2 == d2:
                            continue
                        k_s = -1
                        k_d = -1
                        for q in range(ns):
                            if S[q] == s2:
                                k_s = q
                            if S[q] == d2:
                                k_d = q
                        if j2 & 1 == 0:
                            if k_d != -1 and k_d < jm:
                                continue
                        else:
                            if k_s != -1 and k_s <= jm:
                                continue
                        if k_s == -1 or k_d == -1:
                            if ns == 3:  # a fourth node: not a census motif
                                continue
                            if k_s == -1:
                                k_s = 2
                            else:
                                k_d = 2
                        idx = table[c2 * 9 + k_s * 3 + k_d]
                        if idx >= 0:
                            counts[idx] += 1
    return counts


@njit(cache=True, parallel=True, nogil=True)
def _census_chunks(bounds, src, dst, time, next_id, out_ptr, out_edges, in_ptr, in_edges, tie,
                   delta_on, delta, table, stop):  # fmt: skip
    nch = len(bounds) - 1
    counts = np.zeros((nch, 36), np.int64)
    for c in prange(nch):
        _census_range(
            src, dst, time, next_id, out_ptr, out_edges, in_ptr, in_edges, tie, delta_on, delta,
            table, bounds[c], bounds[c + 1], counts[c], stop,
        )  # fmt: skip
    return counts


# ---------------------------------------------------------------------- walk index
@njit(cache=True, parallel=True, nogil=True)
def _walk_kernel(out_ptr, out_edges, in_ptr, in_edges, pos_out, pos_in, out_after_in, in_after_out):
    n = len(out_ptr) - 1
    for v in prange(n):
        oa, ob = out_ptr[v], out_ptr[v + 1]
        ia, ib = in_ptr[v], in_ptr[v + 1]
        for j in range(oa, ob):
            pos_out[out_edges[j]] = j
        for j in range(ia, ib):
            pos_in[in_edges[j]] = j
        # merge: for e entering v, first out-position with id > e; and vice versa
        j = oa
        for i in range(ia, ib):
            e = in_edges[i]
            while j < ob and out_edges[j] <= e:
                j += 1
            out_after_in[e] = j
        i = ia
        for j in range(oa, ob):
            e = out_edges[j]
            while i < ib and in_edges[i] <= e:
                i += 1
            in_after_out[e] = i


def walk_index(graph: TemporalGraph) -> tuple:
    """``(pos_out, pos_in, out_after_in, in_after_out)`` int64 per edge id (see docs/temporal.md).

    Built once in O(m) (a merge of each vertex's in- and out-list) and kept with the graph's
    derived values (key ``("cpu_walk_index",)``).
    """

    def build() -> tuple:
        m = graph.m
        arrs = tuple(np.empty(m, dtype=np.int64) for _ in range(4))
        if m:
            stop = new_stop()  # O(m): not polled, but run like every parallel kernel
            run_kernel(
                _walk_kernel, graph.out_ptr, graph.out_edges, graph.in_ptr, graph.in_edges,
                *arrs, stop=stop,
            )  # fmt: skip
        return arrs

    return graph.derived(("cpu_walk_index",), build)


# ---------------------------------------------------------------------- host side
_DUMMY_I32 = np.full(1, -1, dtype=np.int32)
_DUMMY_ALLOW = np.ones((1, 1), dtype=np.uint8)


def _args(graph: TemporalGraph, plan: TemporalPlan) -> tuple:
    """The flat argument tuple every kernel takes (numba-friendly dtypes)."""
    settle()  # no compilation may overlap one still running from an interrupted call
    if plan.lim_dtype != graph.time.dtype:
        raise ValueError("plan and graph differ in time dtype: build the plan for this graph")
    tdt = graph.time.dtype

    def c(a, dt):
        return np.ascontiguousarray(a, dtype=dt)

    i32, i64 = np.int32, np.int64
    return (
        graph.src,
        graph.dst,
        graph.time,
        graph.next_id,
        graph.out_ptr,
        graph.out_edges,
        graph.in_ptr,
        graph.in_edges,
        _DUMMY_I32 if graph.node_label is None else c(graph.node_label, i32),
        graph.node_label is not None,
        _DUMMY_I32 if graph.edge_label is None else c(graph.edge_label, i32),
        graph.edge_label is not None,
        i64(plan.k),
        i64(plan.l),
        i64(plan.tie),
        c(plan.esrc, i64),
        c(plan.edst, i64),
        c(plan.src_new, np.uint8),
        c(plan.dst_new, np.uint8),
        c(plan.source, i64),
        bool(plan.delta_on),
        tdt.type(plan.delta),
        c(plan.gap_on, np.uint8),
        c(plan.gap, tdt),
        c(plan.node_label, i32),
        c(plan.edge_label, i32),
        plan.node_allow is not None,
        _DUMMY_ALLOW if plan.node_allow is None else c(plan.node_allow, np.uint8),
        c(plan.anti_ptr, i64),
        c(plan.anti_src, i64),
        c(plan.anti_dst, i64),
        c(plan.anti_lo_level, i64),
        c(plan.anti_hi_level, i64),
        c(plan.anti_w_on, np.uint8),
        c(plan.anti_w, tdt),
        *walk_index(graph),
    )


def _bounds(graph: TemporalGraph, delta_on: bool, delta, lo: int, hi: int) -> np.ndarray:
    return split_root_edges(graph, numba.get_num_threads() * 16, delta_on, delta, lo, hi)


def count(graph: TemporalGraph, plan: TemporalPlan, lo: int = 0, hi: int | None = None) -> int:
    """Count matches whose root edge id is in ``[lo, hi)``.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph the plan was built for.
    plan : TemporalPlan
        The plan.
    lo, hi : int
        Root edge id range (default: all edges).

    Returns
    -------
    int
        Number of edge-id tuples matching the motif.

    Raises
    ------
    CapacityError
        If the count does not fit in 64 bits.
    """
    lo, hi = checked_range(lo, hi, graph.m)
    if plan.impossible or hi <= lo:
        return 0
    args = _args(graph, plan)
    stop = new_stop()
    bounds = _bounds(graph, plan.delta_on, plan.delta, lo, hi)
    counts = run_kernel(_count_chunks, bounds, args, stop, stop=stop)
    return checked_sum(counts)


def exists(graph: TemporalGraph, plan: TemporalPlan, lo: int = 0, hi: int | None = None) -> bool:
    """Whether some match has its root edge id in ``[lo, hi)`` (stops at the first)."""
    lo, hi = checked_range(lo, hi, graph.m)
    if plan.impossible or hi <= lo:
        return False
    args = _args(graph, plan)
    stop = new_stop()
    bounds = _bounds(graph, plan.delta_on, plan.delta, lo, hi)
    found = run_kernel(_exists_chunks, bounds, args, stop, stop=stop)
    return bool(found.any())


def enumerate_matches(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int = 0,
    hi: int | None = None,
    limit: int | None = None,
) -> np.ndarray:
    """All matches (or the first ``limit``) with root edge id in ``[lo, hi)``.

    Returns
    -------
    numpy.ndarray
        ``(n, l)`` int64 edge ids, column ``i`` = ``e_i``; rows in root order (then DFS order).
        Without ``limit`` the result is exact (counted first, then filled in parallel); with
        ``limit`` a doubling buffer is filled in root order until ``limit`` rows are found.
    """
    lo, hi = checked_range(lo, hi, graph.m)
    ncol = plan.l
    limit = checked_limit(limit)
    if plan.impossible or hi <= lo or limit == 0:
        return np.empty((0, ncol), dtype=np.int64)
    args = _args(graph, plan)
    return enumerate_rows(
        (_count_chunks, _fill_chunks, _enum_serial), args, lo, hi, ncol, limit,
        stop=new_stop(),
        bounds=lambda: _bounds(graph, plan.delta_on, plan.delta, lo, hi),
        initial_rows=INITIAL_ROWS,
        count_rows=lambda: count(graph, plan, lo, hi),
    )  # fmt: skip


def census(
    graph: TemporalGraph,
    delta: float | int | None,
    tie: str = "strict",
    lo: int = 0,
    hi: int | None = None,
) -> np.ndarray:
    """Counts of the 36 three-edge motifs (``CENSUS_KEYS`` order) with root edge in ``[lo, hi)``.

    Parameters
    ----------
    graph : TemporalGraph
        The data graph.
    delta : number or None
        Window ``t_3 - t_1 <= delta`` (None: unbounded).
    tie : {"strict", "input_order"}
        Tie policy.
    lo, hi : int
        Root edge id range.

    Returns
    -------
    numpy.ndarray
        int64, shape (36,).
    """
    settle()
    delta = census_window(graph, delta, tie)
    lo, hi = checked_range(lo, hi, graph.m)
    if hi <= lo:
        return np.zeros(36, dtype=np.int64)
    on, d = encode_limit(delta, graph.integer_times, time_span(graph))
    d = graph.time.dtype.type(d)
    bounds = _bounds(graph, on, d, lo, hi)
    stop = new_stop()
    counts = run_kernel(
        _census_chunks, bounds, graph.src, graph.dst, graph.time, graph.next_id, graph.out_ptr,
        graph.out_edges, graph.in_ptr, graph.in_edges, 0 if tie == "strict" else 1, on, d,
        CENSUS_TABLE, stop, stop=stop,
    )  # fmt: skip
    # each motif's count must fit 64 bits; the 36 together need not
    return np.array([checked_sum(counts[:, j]) for j in range(36)], dtype=np.int64)
