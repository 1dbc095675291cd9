"""CPU static engine, the jitted walk (numba): depth-first backtracking over a StaticPlan.

Each root entry ``e`` of the union CSR (root edge ``(owner(e), indices[e])``) starts an
iterative DFS with explicit per-level candidate arrays sized by the maximum degree (an
intersection can never be larger than its smallest list, so they never overflow). Candidates
come from sorted-list intersections (merge, or galloping when the sizes are skewed) of the
backward neighbours' lists; a level with a single backward neighbour walks that list in place.
Intersection results are reused across levels as the plan says, and symmetry restrictions also
trim the start of each sorted candidate range.

Counting finishes the plan's count tail (twin leaves) by a falling factorial or binomial once
the core is mapped (induced tails when their candidates are pairwise non-adjacent), so
star-like patterns stay polynomial.

Counts are exact up to ``2**128 - 1``: the walk adds in an int64 word and, before an add would
wrap, spills the word into the run's wide accumulator (:attr:`~.calls.RootRun.wide`, 32-bit
limbs); a tail formula past int64 is computed in limbs (:func:`~.calls.wide_tail`).
``OVERFLOW`` means the run's count passed ``2**128 - 1``. The limb helpers (:mod:`.calls`) are
off the hot path: they run only when a word is about to wrap or a formula passes int64.

The kernels take named tuples (:mod:`.static_arrays`): the graph's and the plan's arrays
(:class:`~.static_arrays.StaticArgs`), a :class:`~.calls.RootRun` (roots, mode, output) and,
for the pausable walk, a :class:`~.static_arrays.WalkState`.
:mod:`.static` (the engine's facade) builds them and splits root ranges into chunks;
:func:`run_chunks` runs the chunks with ``prange``, :func:`run_serial` and
:func:`run_pausable` one range on the calling thread. Every kernel polls the run's stop flag.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..checks import INT64_MAX
from .calls import (
    COUNT,
    DONE,
    ENUMERATE,
    EXISTS,
    FULL,
    LIMIT,
    OVERFLOW,
    PAUSED,
    POLL_MASK,
    STOPPED,
    WIDE_LIMBS,
    wide_add,
    wide_tail,
)
from .static_arrays import WalkState
from .walk_shared import chunk_run, lower_bound

__all__ = [
    "new_walk_state",
    "run_chunks",
    "run_serial",
    "run_pausable",
]

_I64_MAX = np.int64(INT64_MAX)


@njit(cache=True)
def new_walk_state(k, max_degree, pause):
    """A fresh :class:`WalkState` for ``k`` levels (from the host, too)."""
    return WalkState(
        pause,
        np.zeros(1, np.int64),
        np.empty(k, np.int64),
        np.zeros(k, np.int64),
        np.zeros(k, np.int64),
        np.zeros(k, np.int64),
        np.empty((k, max(max_degree, 1)), np.int32),
    )


@njit(cache=True, inline="always")
def _find(arr, lo, hi, x):
    """Position of x in sorted arr[lo:hi], or -1."""
    p = lower_bound(arr, lo, hi, x)
    if p < hi and arr[p] == x:
        return p
    return -1


@njit(cache=True, inline="always")
def _start(arr, lo, hi, trim):
    """lo, or the first position holding an id >= trim when trim >= 0."""
    if trim < 0:
        return lo
    return lower_bound(arr, lo, hi, trim)


@njit(cache=True, inline="always")
def _row(indptr, indices, w, trim, below):
    """Positions ``[lo, hi)`` of vertex ``w``'s neighbours in ``indices``, from the first id
    ``>= trim`` when ``trim >= 0`` (:func:`_start`), before the first id ``>= below`` when
    ``below >= 0``."""
    hi = indptr[w + 1]
    if below >= 0:
        hi = lower_bound(indices, indptr[w], hi, below)
    return _start(indices, indptr[w], hi, trim), hi


@njit(cache=True)
def _copy_marked(src, lo, hi, out, mark, use):
    """Copy src[lo:hi] to out[0:] keeping only marked ids when ``use``; return the count.

    ``out`` may be ``src`` itself with ``lo == 0``.
    """
    n = 0
    if use:
        for i in range(lo, hi):
            x = src[i]
            if mark[x]:
                out[n] = x
                n += 1
    else:
        for i in range(lo, hi):
            out[n] = src[i]
            n += 1
    return n


@njit(cache=True, inline="always")
def _gallop_intersect(short, slo, shi, long, llo, lhi, out, olo):
    """Write sorted short[slo:shi] ∩ long[llo:lhi] to out[olo:]; return the count: each
    element of the short list is found by an exponential probe, then a binary search, in the
    rest of the long one. ``out`` may be either list with ``olo`` at or before its start."""
    n = 0
    p = llo
    for i in range(slo, shi):
        x = short[i]
        step = 1
        q = p
        while q < lhi and long[q] < x:
            p = q + 1
            q = p + step
            step <<= 1
        if q > lhi:
            q = lhi
        p = lower_bound(long, p, q, x)
        if p >= lhi:
            break
        if long[p] == x:
            out[olo + n] = x
            n += 1
            p += 1
    return n


@njit(cache=True)
def _intersect(a, alo, ahi, b, blo, bhi, out, olo):
    """Write sorted a[alo:ahi] ∩ b[blo:bhi] to out[olo:]; return the count.

    ``out`` may be ``a`` itself with ``olo <= alo`` (in-place filtering).
    """
    na = ahi - alo
    nb = bhi - blo
    n = 0
    if na == 0 or nb == 0:
        return 0
    # galloping through the longer list when the sizes are skewed (the intersection is the
    # same either way round)
    if na * 32 < nb:
        return _gallop_intersect(a, alo, ahi, b, blo, bhi, out, olo)
    if nb * 32 < na:
        return _gallop_intersect(b, blo, bhi, a, alo, ahi, out, olo)
    i = alo
    j = blo
    while i < ahi and j < bhi:
        x = a[i]
        y = b[j]
        if x < y:
            i += 1
        elif y < x:
            j += 1
        else:
            out[olo + n] = x
            n += 1
            i += 1
            j += 1
    return n


@njit(cache=True)
def _falling(n, t):
    """n (n-1) ... (n-t+1), 0 when n < t, -1 when it overflows int64."""
    if n < t:
        return np.int64(0)
    r = np.int64(1)
    for i in range(t):
        x = np.int64(n - i)
        if r > _I64_MAX // x:
            return np.int64(-1)
        r *= x
    return r


@njit(cache=True)
def _choose(n, t):
    """C(n, t), -1 when it overflows int64 (every intermediate value is at most the result)."""
    if t < 0 or n < t:
        return np.int64(0)
    if t > n - t:
        t = n - t
    r = np.int64(1)
    for i in range(t):
        # C(n, i+1) = C(n, i) (n-i) / (i+1), with the division done first (exact: i+1 divides
        # C(n, i) (n-i), so (i+1)/gcd divides n-i)
        a = r
        b = np.int64(i + 1)
        while b != 0:
            a, b = b, a % b
        d = np.int64(i + 1) // a
        x = np.int64(n - i) // d
        r //= a
        if r > _I64_MAX // x:
            return np.int64(-1)
        r *= x
    return r


@njit(cache=True, inline="always")
def _edge_ok(dc, ol, il, req, want_out, want_in, induced):
    """An entry with direction code ``dc`` and labels ``ol``/``il`` passes a check (``req``,
    the whole code when induced; labels -1: any). Scalars only: numba counts references to
    every array a helper takes, which costs in the per-candidate tests."""
    if induced:
        if dc != req:
            return False
    elif (dc & req) != req:
        return False
    if want_out != -1 and ol != want_out:
        return False
    if want_in != -1 and il != want_in:
        return False
    return True


@njit(cache=True)
def _hoist_filter(row, n, level, f, graph, plan):
    """Keep in ``row[:n]`` the candidates of ``level`` that pass their own node tests and every
    test against the levels before ``h = plan.hoist[level]`` (injectivity, non-adjacency);
    return how many. A hoisted set's build: its candidates are then tested against ``h``
    alone."""
    g, pa = graph, plan
    indptr, indices = g.indptr, g.indices
    h = pa.hoist[level]
    lr = pa.loop_req[level]
    m = 0
    for y in range(n):
        c = row[y]
        ok = indptr[c + 1] - indptr[c] >= pa.min_degree[level]
        if ok and pa.node_label[level] != -1 and g.node_label[c] != pa.node_label[level]:
            ok = False
        if ok and lr == 1:
            want = pa.loop_label[level]
            ok = g.loop[c] != 0 and (want == -1 or g.loop_label[c] == want)
        elif ok and lr == 0:
            ok = g.loop[c] == 0
        if ok:
            for t in range(h):
                if f[t] == c:
                    ok = False
                    break
        if ok:
            for t in range(pa.chk_ptr[level], pa.chk_ptr[level + 1]):
                if pa.chk_code[t] == 0 and pa.chk_level[t] < h:
                    w = f[pa.chk_level[t]]
                    if _find(indices, indptr[w], indptr[w + 1], c) >= 0:
                        ok = False
                        break
        if ok:
            row[m] = c
            m += 1
    return m


@njit(cache=True)
def _dfs(graph, plan, run, state):
    """DFS over root entries ``[run.lo, run.hi)``.

    ``run.mode`` ``COUNT`` counts, ``ENUMERATE`` writes rows to ``out[row0:cap]``, ``EXISTS``
    stops at the first match. ``stop[0]`` set by anyone (a chunk that found a match, the host
    on an interrupt) ends the run within ``POLL_MASK + 1`` steps with status ``STOPPED``.

    Counting (and exists) finish levels ``tail_start .. k-1`` by the tail formula
    (``tail_kind``: 1 falling factorial, 2 binomial) when ``k - tail_start >= 2``: the
    candidates of level ``tail_start`` that pass every test are counted, not descended into.
    ``tail_indep`` (induced plans): the formula only holds when those candidates are pairwise
    non-adjacent; otherwise the tail levels are walked for that mapping.
    ``state.pause`` (enumeration): when ``cap`` rows are written, save the DFS level in
    ``resume[0]`` (``f``, ``pos``, ``end``, ``cnt``, ``cand`` keep the rest of the state) and
    return ``PAUSED`` with ``next_e`` = the current root entry; a call with ``lo = next_e`` and
    the same state goes on from the next match (lazy iteration, one block at a time).
    Returns (count, rows_end, next_e, status); the run's count is ``count`` plus what was
    spilled into ``run.wide`` (see the module docstring); count -1 with ``OVERFLOW`` (past
    ``2**128 - 1``).
    """
    # the fields as locals, under the names the walk has always used
    g = graph
    indptr, indices, dircode, loop = g.indptr, g.indices, g.dircode, g.loop
    nlab, olab, ilab, llab = g.node_label, g.out_label, g.in_label, g.loop_label
    maxdeg = g.max_degree
    lstart = g.label_start
    grouped = len(lstart) > 1
    pa = plan
    k, order, induced, edge_checks = pa.k, pa.order, pa.induced, pa.edge_checks
    p_nlab, p_loopreq, p_looplab, p_mindeg = (
        pa.node_label,
        pa.loop_req,
        pa.loop_label,
        pa.min_degree,
    )
    chk_ptr, chk_level, chk_code = pa.chk_ptr, pa.chk_level, pa.chk_code
    chk_out, chk_in = pa.chk_out_label, pa.chk_in_label
    bn_ptr, bn_level, reuse, reuse_below = pa.bn_ptr, pa.bn_level, pa.reuse, pa.reuse_below
    hoist = pa.hoist
    sym_ptr, sym_level = pa.sym_ptr, pa.sym_level
    root_ok, tail_start, tail_kind, tail_indep, size_need = (
        pa.root_ok,
        pa.tail_start,
        pa.tail_kind,
        pa.tail_indep,
        pa.size_need,
    )
    mark_limit = pa.mark_limit
    lo, hi, mode, out, stop, wide = run.lo, run.hi, run.mode, run.out, run.stop, run.wide
    row0, cap, cap_is_limit = run.row0, run.cap, run.cap_is_limit
    pause, resume, f, pos, end = state.pause, state.resume, state.f, state.pos, state.end
    cnt, cand = state.cnt, state.cand
    # typed zero for helper calls: a literal 0 argument would compile a separate
    # specialisation of the helper (numba types constants as Literal[int])
    Z = np.int64(0)
    # direct[lv]: one backward neighbour j and no reuse: the level walks f(j)'s CSR list in
    # place (no copy); dchk[lv] = index of its check (j, lv), tested per candidate at its entry
    direct = np.zeros(k, np.bool_)
    dchk = np.full(k, -1, np.int64)
    # full[lv]: a later level reads lv's set as a full one (reuse_below), so lv builds it
    # (never direct) and drops the candidates adjacent to a non-neighbour level there
    full = np.zeros(k, np.bool_)
    for lv in range(k):
        if reuse_below[lv] >= 0:
            full[reuse_below[lv]] = True
    # ne_lo[lv]: first of lv's checks its candidates are tested for non-adjacency one by one
    # (a full set tests none; a full source holds those against the levels before it)
    ne_lo = np.empty(k, np.int64)
    for lv in range(k):
        ne_lo[lv] = chk_ptr[lv + 1] if full[lv] else chk_ptr[lv]
        if not full[lv] and reuse_below[lv] >= 0:
            while ne_lo[lv] < chk_ptr[lv + 1] and chk_level[ne_lo[lv]] < reuse_below[lv]:
                ne_lo[lv] += 1
    for lv in range(2, k):
        if bn_ptr[lv + 1] - bn_ptr[lv] == 1 and reuse[lv] < 0 and not full[lv] and hoist[lv] < 0:
            direct[lv] = True
            j = bn_level[bn_ptr[lv]]
            for t in range(chk_ptr[lv], chk_ptr[lv + 1]):
                if chk_level[t] == j:
                    dchk[lv] = t
    # hoisted sets (STMatch's code motion, plan.candidate_sources.hoist_levels): a level i with
    # hoist[i] = h = i - 1 builds its set once per image of the levels before h, holding the
    # candidates that pass every test against those levels (hvalid[i]: built for the current
    # one, of hn[i] candidates; a new image of level h-1 or below re-prepares level h, which
    # clears it). Its candidates are then tested against level h alone: from check ne_h[i]
    # and, for injectivity, from level tlo[i]. Other levels: ne_h = ne_lo, tlo = 0.
    hvalid = np.zeros(k, np.bool_)
    hn = np.zeros(k, np.int64)
    ne_h = ne_lo.copy()
    tlo = np.zeros(k, np.int64)
    for lv in range(k):
        if hoist[lv] >= 0:
            tlo[lv] = hoist[lv]
            while ne_h[lv] < chk_ptr[lv + 1] and chk_level[ne_h[lv]] < hoist[lv]:
                ne_h[lv] += 1
    # scratch of a level's build: backward-neighbour levels whose lists are still to intersect,
    # and their list lengths; reused[r]: a later level starts from level r's stored set
    js = np.empty(k, np.int64)
    lens = np.empty(k, np.int64)
    reused = np.zeros(k, np.bool_)
    for lv in range(k):
        if reuse[lv] >= 0:
            reused[reuse[lv]] = True
    # leaf shortcut (counting): at the last level every pattern neighbour is a backward
    # neighbour, so min-degree is implied; without labels, loop or non-adjacency tests the
    # count is the candidate range size minus the earlier images lying in it
    last = k - 1
    leaf_fast = mode == COUNT and last >= 2 and p_nlab[last] == -1 and p_loopreq[last] == -1
    if edge_checks and direct[last]:
        leaf_fast = False
    for t in range(chk_ptr[last], chk_ptr[last + 1]):
        if chk_code[t] == 0:
            leaf_fast = False
    # marks of N(f(0)) (the root owner, constant over a run of entries): a backward neighbour
    # at level 0 is then a byte lookup instead of a merge (undirected, unlabeled plans)
    nverts = len(indptr) - 1
    use_mark = (not edge_checks) and nverts <= mark_limit
    if use_mark:
        want = False
        for lv in range(2, k):
            if not direct[lv]:
                for t in range(bn_ptr[lv], bn_ptr[lv + 1]):
                    if bn_level[t] == 0:
                        want = True
        use_mark = want
    mark = np.zeros(nverts if use_mark else 1, np.uint8)
    marked_u = -1
    # count tail: candidates of level T are counted (and, for an induced tail, kept in tbuf
    # for the independence test); twalk = the formula failed, walk this mapping's tail
    T = tail_start
    ntail = k - T
    use_tail = mode != ENUMERATE and T >= 2 and ntail >= 2 and (tail_kind == 1 or tail_kind == 2)
    tbuf = np.empty(max(maxdeg, 1) if (use_tail and tail_indep) else 1, np.int32)
    scr = np.empty(max(maxdeg, 1) if (use_tail and tail_indep) else 1, np.int32)
    nt = np.int64(0)
    tstart = np.int64(0)
    twalk = False
    steps = np.int64(0)
    count = np.int64(0)
    rows = row0
    if lo >= hi:
        return count, rows, hi, DONE
    # owner of entry lo
    u = lower_bound(indptr, 0, len(indptr), lo + 1) - 1
    # The search state, per level i (levels 0 and 1 are the root entry, fixed for one e):
    #   f[i]          the vertex mapped at level i (valid for i < level)
    #   pos[i], end[i] level i's candidate range; pos[i] is the next position to test (it is
    #                 advanced before the tests, so while deeper levels run, the candidate in
    #                 f[i] sits at pos[i] - 1). A direct level's positions index `indices`
    #                 (f(j)'s list itself, so dircode/olab/ilab[p] describe the entry
    #                 f(j) -> c); the positions of any other level index its row cand[i].
    #   cand[i, :cnt[i]] the set built for level i: the intersection of its backward
    #                 neighbours' lists (or of reuse[i]'s set and the lists it lacks), kept
    #                 sorted, filtered by those neighbours' direction/label checks only (a set
    #                 no later level reuses may also drop ids below the symmetry bound). A
    #                 reused set is thus the plan's raw set; it stays valid while the search
    #                 is at level i or deeper (a new f[i-1] rebuilds it).
    # Every position in [pos[i], end[i]) holds an id above the symmetry bound (ranges start
    # past it in sorted lists), so the per-candidate tests below have no symmetry test.
    for e in range(lo, hi):
        while indptr[u + 1] <= e:
            u += 1
        if root_ok[e] == 0:  # the plan's mask holds every level-0/1 condition
            continue
        if mode == EXISTS and stop[0] != 0:  # exists: another chunk already found a match
            return count, rows, e, STOPPED
        root_rows = rows  # a full buffer drops this entry's rows (FULL); the host re-runs it
        if use_mark and u != marked_u:
            if marked_u >= 0:
                for x in range(indptr[marked_u], indptr[marked_u + 1]):
                    mark[indices[x]] = 0
            for x in range(indptr[u], indptr[u + 1]):
                mark[indices[x]] = 1
            marked_u = u
        f[0] = u
        f[1] = indices[e]
        nt = Z
        twalk = False
        level = 2
        if k == 2:
            # the root edge itself is the match
            pos[1] = 0
            end[1] = 1
            level = 1
        else:
            level = 2
        # ---- prepare level 2 (or the k == 2 leaf)
        prepared = False
        if resume[0] > 0:
            # a paused enumeration goes on inside this root entry: f, pos, end, cnt and cand
            # hold its state; pos[level] is past the last match written
            level = resume[0]
            resume[0] = 0
            prepared = True
        # one iteration: (re)build `level`'s range if just entered, then pop it if exhausted
        # or test its next candidate (descend, count or write a row)
        while True:
            steps += 1
            if (steps & POLL_MASK) == 0 and stop[0] != 0:
                return count, rows, e, STOPPED
            if not prepared and level >= 2:
                # build the candidate range of `level`
                if level + 1 < k and hoist[level + 1] == level:
                    hvalid[level + 1] = False  # a new image of the levels before `level`
                b0 = bn_ptr[level]
                b1 = bn_ptr[level + 1]
                # symmetry bound: the candidate must exceed every f(j) of sym_level (-1: none);
                # lbh: of the levels before a hoisted set's h (the bound its build may trim by)
                hz = hoist[level] >= 0
                lb = np.int64(-1)
                lbh = np.int64(-1)
                for s in range(sym_ptr[level], sym_ptr[level + 1]):
                    v = f[sym_level[s]]
                    if v > lb:
                        lb = v
                    if hz and sym_level[s] < hoist[level] and v > lbh:
                        lbh = v
                # ids [lo_id, hi_id) on a label-grouped graph: the level's label range (a
                # set a later level reuses keeps every label; hi_id -1: no upper cut)
                lo_id = np.int64(-1)
                hi_id = np.int64(-1)
                lab = p_nlab[level]
                if grouped and lab >= 0 and not reused[level]:
                    lo_id = np.int64(lstart[lab])
                    hi_id = np.int64(lstart[lab + 1])
                if direct[level]:
                    w = f[bn_level[b0]]
                    a0 = indptr[w]
                    a1 = indptr[w + 1]
                    if hi_id >= 0:
                        a1 = lower_bound(indices, a0, a1, hi_id)
                    first_id = max(lb + 1, lo_id)
                    if first_id > 0:
                        a0 = lower_bound(indices, a0, a1, first_id)
                    pos[level] = a0
                    end[level] = a1
                elif hz and hvalid[level]:
                    # the hoisted set built for this image of the levels before h
                    n = hn[level]
                    cnt[level] = n
                    a0 = 0
                    if lb >= 0:
                        a0 = lower_bound(cand[level], 0, n, lb + 1)
                    pos[level] = a0
                    end[level] = n
                else:
                    r = reuse[level]
                    below = reuse_below[level]
                    # lists still to intersect (those of BN(r) are already in cand[r]; of a
                    # full set, those of every level before r)
                    nl = 0
                    for t in range(b0, b1):
                        j = bn_level[t]
                        skip = False
                        if below >= 0:
                            skip = j < below
                        elif r >= 0:
                            for t2 in range(bn_ptr[r], bn_ptr[r + 1]):
                                if bn_level[t2] == j:
                                    skip = True
                                    break
                        if not skip:
                            w = f[j]
                            js[nl] = j
                            lens[nl] = indptr[w + 1] - indptr[w]
                            nl += 1
                    # sort lists by length (tiny selection sort)
                    for x in range(nl):
                        best = x
                        for y in range(x + 1, nl):
                            if lens[y] < lens[best]:
                                best = y
                        if best != x:
                            tj = js[x]
                            js[x] = js[best]
                            js[best] = tj
                            tl = lens[x]
                            lens[x] = lens[best]
                            lens[best] = tl
                    # level 0 by marks (when its list is not much shorter than the others)
                    has0 = False
                    if use_mark:
                        # marks exist only without edge checks, so dropping level 0 from js
                        # skips no direction/label test; `other` = the shortest other list
                        for x in range(nl):
                            if js[x] == 0:
                                # its only list: by marks only on top of a reused set (a
                                # level building a full set from f(0)'s list copies it)
                                if nl == 1:
                                    drop = r >= 0
                                else:
                                    other = lens[1] if x == 0 else lens[0]
                                    drop = lens[x] * 4 >= other
                                if drop:
                                    has0 = True
                                    for y in range(x, nl - 1):
                                        js[y] = js[y + 1]
                                        lens[y] = lens[y + 1]
                                    nl -= 1
                                break
                    row = cand[level]
                    n = 0
                    first = 0  # js[:first] are consumed by the first intersection or copy
                    # a set no later level reuses may drop ids <= the symmetry bound at once
                    lbt = lbh if hz else lb
                    trim = lbt + 1 if (lbt >= 0 and not reused[level]) else np.int64(-1)
                    if lo_id > trim:
                        trim = lo_id
                    marked = False  # True: the copy below applied the level-0 mark filter
                    if r >= 0:
                        src = cand[r]
                        if nl == 0:
                            n = _copy_marked(src, Z, cnt[r], row, mark, has0)
                            marked = True
                        else:
                            a0, a1 = _row(indptr, indices, f[js[0]], trim, hi_id)
                            s0 = _start(src, Z, cnt[r], trim)
                            n = _intersect(src, s0, cnt[r], indices, a0, a1, row, Z)
                            first = 1
                    elif nl == 1:
                        a0, a1 = _row(indptr, indices, f[js[0]], trim, hi_id)
                        n = _copy_marked(indices, a0, a1, row, mark, has0)
                        marked = True
                        first = 1
                    else:
                        a0, a1 = _row(indptr, indices, f[js[0]], trim, hi_id)
                        c0, c1 = _row(indptr, indices, f[js[1]], trim, hi_id)
                        n = _intersect(indices, a0, a1, indices, c0, c1, row, Z)
                        first = 2
                    for x in range(first, nl):
                        if n == 0:
                            break
                        a0, a1 = _row(indptr, indices, f[js[x]], trim, hi_id)
                        n = _intersect(row, Z, n, indices, a0, a1, row, Z)
                    if has0 and not marked:
                        n = _copy_marked(row, Z, n, row, mark, has0)  # has0 is True here
                    if edge_checks and n > 0:
                        # direction / label checks of the new backward neighbours (those of
                        # BN(r) hold in cand[r]: the plan guarantees the same checks there)
                        for x in range(nl):
                            j = js[x]
                            t = chk_ptr[level]
                            while chk_level[t] != j:
                                t += 1
                            w = f[j]
                            a0 = indptr[w]
                            a1 = indptr[w + 1]
                            m = 0
                            for y in range(n):
                                c = row[y]
                                p = _find(indices, a0, a1, c)
                                wo, wi = chk_out[t], chk_in[t]
                                ol = olab[p] if wo != -1 else -1  # (absent labels: one -1)
                                il = ilab[p] if wi != -1 else -1
                                if _edge_ok(dircode[p], ol, il, chk_code[t], wo, wi, induced):
                                    row[m] = c
                                    m += 1
                            n = m
                    if full[level] and n > 0:
                        # a full set: without the candidates adjacent to a level they must
                        # not touch (those before `below` are out of a full source already)
                        for t in range(chk_ptr[level], chk_ptr[level + 1]):
                            if chk_code[t] == 0 and chk_level[t] >= below:
                                w = f[chk_level[t]]
                                a0 = indptr[w]
                                a1 = indptr[w + 1]
                                m = 0
                                for y in range(n):
                                    c = row[y]
                                    if _find(indices, a0, a1, c) < 0:
                                        row[m] = c
                                        m += 1
                                n = m
                    if hz:
                        n = _hoist_filter(row, n, level, f, graph, plan)
                        hn[level] = n
                        hvalid[level] = True
                    cnt[level] = n  # the set's size: what a later level reusing it reads
                    a0 = 0
                    if lb >= 0:  # the range, not the row, starts past the symmetry bound
                        a0 = lower_bound(row, 0, n, lb + 1)
                    pos[level] = a0
                    end[level] = n
                # size pruning: the last size_need positions leave too few larger candidates
                # for the later levels that must take them (not at a count tail's level, whose
                # formula counts every candidate)
                if size_need[level] > 0 and not (use_tail and level == T):
                    end[level] -= size_need[level]
                prepared = True
                if use_tail and level == T:
                    # a new mapping of levels < T: count its tail candidates from zero;
                    # tstart lets a failed independence test walk the range again
                    nt = Z
                    tstart = pos[level]
                if leaf_fast and level == last:  # pos = end below: the level pops at once
                    a0 = pos[level]
                    a1 = end[level]
                    cnum = a1 - a0
                    if cnum > 0:
                        for t in range(level):
                            if direct[level]:
                                if _find(indices, a0, a1, f[t]) >= 0:
                                    cnum -= 1
                            elif _find(cand[level], a0, a1, f[t]) >= 0:
                                cnum -= 1
                    if count > _I64_MAX - cnum:  # the word would wrap: spill it first
                        if not wide_add(wide, count):
                            return np.int64(-1), rows, e, OVERFLOW
                        count = Z
                    count += cnum
                    pos[level] = a1
            # ---- advance at `level`
            if pos[level] >= end[level]:
                # level exhausted; at the tail level this is where the tail's count is added
                # (nt = candidates that passed every test), unless this pass was the walk
                # after a failed independence test
                if use_tail and level == T:
                    if twalk:
                        twalk = False
                    else:
                        formula = True
                        # (with fewer than ntail candidates the formula's 0 needs no test)
                        if tail_indep and nt >= ntail:
                            # induced: the candidates must hold no edge among themselves
                            for x in range(nt):
                                v = tbuf[x]
                                if (
                                    _intersect(
                                        indices, indptr[v], indptr[v + 1], tbuf, Z, nt, scr, Z
                                    )
                                    > 0
                                ):
                                    formula = False
                                    break
                        if not formula:
                            # an edge inside: walk this mapping's tail level by level instead,
                            # from the start of level T's range
                            nt = Z
                            twalk = True
                            pos[level] = tstart
                            continue
                        val = _choose(nt, ntail) if tail_kind == 2 else _falling(nt, ntail)
                        if mode == EXISTS:
                            nt = Z
                            if val != 0:  # (-1: too large for int64, so positive)
                                stop[0] = 1
                                return np.int64(1), rows, e, STOPPED
                        elif val < 0:  # past int64: exactly, in the wide limbs
                            if not wide_tail(wide, nt, ntail, tail_kind):
                                return np.int64(-1), rows, e, OVERFLOW
                            nt = Z
                        else:
                            nt = Z
                            if count > _I64_MAX - val:  # the word would wrap: spill it first
                                if not wide_add(wide, count):
                                    return np.int64(-1), rows, e, OVERFLOW
                                count = Z
                            count += val
                level -= 1
                if level < 2:  # levels 0 and 1 are the root entry: it is done
                    break
                continue
            p = pos[level]
            pos[level] += 1
            if level == 1:
                c = f[1]
            elif direct[level]:
                c = np.int64(indices[p])
            else:
                c = np.int64(cand[level, p])
            if level >= 2:
                # per-candidate tests, cheap ones first (not in the set's build: a reused set
                # must stay raw, and a direct level is not copied at all).
                # Injectivity: the lists hold earlier images too (f(0) is in N(f(1)))
                ok = True
                for t in range(tlo[level], level):
                    if f[t] == c:
                        ok = False
                        break
                if not ok:
                    continue
                if indptr[c + 1] - indptr[c] < p_mindeg[level]:
                    continue
                if p_nlab[level] != -1 and nlab[c] != p_nlab[level]:
                    continue
                lr = p_loopreq[level]
                if lr == 1:
                    if loop[c] == 0:
                        continue
                    if p_looplab[level] != -1 and llab[c] != p_looplab[level]:
                        continue
                elif lr == 0 and loop[c] != 0:
                    continue
                if edge_checks and direct[level]:
                    # a direct level's one check, read at the candidate's own entry p
                    t = dchk[level]
                    wo, wi = chk_out[t], chk_in[t]
                    ol = olab[p] if wo != -1 else -1
                    il = ilab[p] if wi != -1 else -1
                    if not _edge_ok(dircode[p], ol, il, chk_code[t], wo, wi, induced):
                        continue
                if induced:
                    # non-adjacency to the earlier levels that are not pattern neighbours: no
                    # list to intersect, so one binary search each, after the cheaper tests
                    for t in range(ne_h[level], chk_ptr[level + 1]):
                        if chk_code[t] == 0:
                            w = f[chk_level[t]]
                            if _find(indices, indptr[w], indptr[w + 1], c) >= 0:
                                ok = False
                                break
                    if not ok:
                        continue
            if use_tail and level == T and not twalk:
                # a tail candidate: counted, not descended into (tbuf keeps it for the
                # induced tail's independence test)
                if tail_indep:
                    tbuf[nt] = c
                nt += 1
                continue
            if level < k - 1:
                f[level] = c
                level += 1
                prepared = False
                continue
            # ---- a full match
            f[level] = c
            if mode == COUNT:
                if count == _I64_MAX:  # the word would wrap: spill it first
                    if not wide_add(wide, count):
                        return np.int64(-1), rows, e, OVERFLOW
                    count = Z
                count += 1
            elif mode == ENUMERATE:
                # checked before writing: a full buffer ends the run at the limit, or else
                # drops this root entry's rows (FULL, back to root_rows) so the host can grow
                # the buffer and re-run entry e from its start
                if rows >= cap:
                    if cap_is_limit:
                        return count, rows, e, LIMIT
                    return count, root_rows, e, FULL
                for x in range(k):
                    out[rows, order[x]] = f[x]
                rows += 1
                count += 1
                if pause and rows >= cap:
                    # the state arrays keep the rest; pos[level] is already past this match
                    resume[0] = level
                    return count, rows, e, PAUSED
                if cap_is_limit and rows >= cap:
                    return count, rows, e + 1, LIMIT
            else:
                stop[0] = 1  # exists: the other chunks stop at their next look at the flag
                return np.int64(1), rows, e, STOPPED
    return count, rows, hi, DONE


@njit(cache=True)
def _run_range(graph, plan, run):
    """:func:`_dfs` with a fresh state (no pausing)."""
    return _dfs(graph, plan, run, new_walk_state(plan.k, graph.max_degree, False))


# The chunk drivers: each engine keeps its own (see calls.py, "Why each engine keeps ...").
@njit(cache=True, parallel=True, nogil=True)
def run_chunks(bounds, graph, plan, mode, out, offsets, stop):
    """The walk of every chunk ``[bounds[c], bounds[c + 1])`` in parallel (``mode`` as in
    :class:`~.calls.RootRun`; rows at ``out[offsets[c]:offsets[c + 1]]``).

    Returns int64 ``(3 + WIDE_LIMBS, chunks)``: count word (-1 past ``2**128 - 1``, which stops
    the other chunks), rows end and status per chunk, then the chunk's wide limbs (its own
    zeroed :attr:`~.calls.RootRun.wide`; :func:`~.calls.wide_count`).
    """
    nch = len(bounds) - 1
    res = np.zeros((3 + WIDE_LIMBS, nch), np.int64)
    for c in prange(nch):
        run = chunk_run(bounds, c, mode, out, offsets, stop)
        count, rows, _, status = _run_range(graph, plan, run)
        res[0, c] = count
        res[1, c] = rows
        res[2, c] = status
        for i in range(WIDE_LIMBS):
            res[3 + i, c] = run.wide[i]
        if status == OVERFLOW:
            stop[0] = 1
    return res


@njit(cache=True, nogil=True)
def run_serial(graph, plan, run):
    """One :class:`~.calls.RootRun` on this thread: ``(count, rows_end, next_e, status)``;
    the spilled part of the count in ``run.wide``."""
    return _run_range(graph, plan, run)


@njit(cache=True, nogil=True)
def run_pausable(graph, plan, run, state):
    """An enumeration that pauses when ``run.cap`` rows are written (``state.pause``) and goes
    on from ``state`` at the next call: ``(count, rows_end, next_e, status)``."""
    return _dfs(graph, plan, run, state)
