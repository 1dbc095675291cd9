"""CPU static engine (numba): depth-first backtracking over a :class:`StaticPlan`.

Each root entry ``e`` of the union CSR (root edge ``(owner(e), indices[e])``) starts an
iterative DFS with explicit per-level candidate arrays sized by the maximum degree (an
intersection can never be larger than its smallest list, so they never overflow). Candidates
come from sorted-list intersections (merge, or galloping when the sizes are skewed) of the
backward neighbours' lists; a level with a single backward neighbour walks that list in place.
Intersection results are reused across levels as the plan says, and symmetry restrictions also
trim the start of each sorted candidate range.

Counting finishes the plan's count tail (twin leaves) by a falling factorial or binomial once
the core is mapped (induced tails when their candidates are pairwise non-adjacent), with exact
int64 overflow detection, so star-like patterns stay polynomial.

Work is split into chunks of root entries balanced by degree and run with ``prange``.
Counts are int64 per chunk and summed in Python with an overflow check. Kernels release the GIL
and poll a stop flag; :mod:`.calls` runs them so Ctrl-C interrupts a call within a second and
several threads may call at once.
"""

from __future__ import annotations

from collections.abc import Iterator

import numba
import numpy as np
from numba import njit, prange

from ...inputs.static_graph import StaticGraph
from ...plan.root_split import static_root_bounds
from ...plan.static_plan import TAIL_CHOOSE, TAIL_FALLING, StaticPlan, root_mask
from ..checks import INT64_MAX as _INT64_MAX
from ..checks import checked_limit, checked_range, checked_sum, overflow_error
from .calls import DONE as _DONE
from .calls import FULL as _FULL
from .calls import LIMIT as _LIMIT
from .calls import OVERFLOW as _OVERFLOW
from .calls import PAUSED as _PAUSED
from .calls import POLL_MASK, enumerate_rows, new_stop, run_kernel, settle
from .calls import STOPPED as _STOPPED

__all__ = ["count", "enumerate_matches", "exists", "iter_matches"]

_I64_MAX = np.int64(_INT64_MAX)
#: Largest vertex count for which a chunk keeps a byte array of marks (one byte per vertex).
MARK_LIMIT = 1 << 26
#: Root ranges shorter than this run on one thread (waking the thread pool costs more).
SERIAL_ENTRIES = 4096
#: First size (rows) of the growing output buffer of a limited enumeration.
INITIAL_ROWS = 1 << 16
#: Largest block (rows) :func:`iter_matches` yields.
BLOCK_ROWS = 1 << 14


@njit(cache=True, inline="always")
def _lower_bound(arr, lo, hi, x):
    """First position p in [lo, hi) with arr[p] >= x (hi if none)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def _find(arr, lo, hi, x):
    """Position of x in sorted arr[lo:hi], or -1."""
    p = _lower_bound(arr, lo, hi, x)
    if p < hi and arr[p] == x:
        return p
    return -1


@njit(cache=True, inline="always")
def _start(arr, lo, hi, trim):
    """lo, or the first position holding an id >= trim when trim >= 0."""
    if trim < 0:
        return lo
    return _lower_bound(arr, lo, hi, trim)


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
    if na * 32 < nb:
        # galloping: binary search each element of a in the rest of b
        p = blo
        for i in range(alo, ahi):
            x = a[i]
            # exponential probe then binary search
            step = 1
            q = p
            while q < bhi and b[q] < x:
                p = q + 1
                q = p + step
                step <<= 1
            if q > bhi:
                q = bhi
            p = _lower_bound(b, p, q, x)
            if p >= bhi:
                break
            if b[p] == x:
                out[olo + n] = x
                n += 1
                p += 1
        return n
    if nb * 32 < na:
        p = alo
        for j in range(blo, bhi):
            x = b[j]
            step = 1
            q = p
            while q < ahi and a[q] < x:
                p = q + 1
                q = p + step
                step <<= 1
            if q > ahi:
                q = ahi
            p = _lower_bound(a, p, q, x)
            if p >= ahi:
                break
            if a[p] == x:
                out[olo + n] = x
                n += 1
                p += 1
        return n
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
def _dfs(
    indptr,
    indices,
    dircode,
    loop,
    nlab,
    olab,
    ilab,
    llab,
    k,
    order,
    induced,
    edge_checks,
    p_nlab,
    p_loopreq,
    p_looplab,
    p_mindeg,
    chk_ptr,
    chk_level,
    chk_code,
    chk_out,
    chk_in,
    bn_ptr,
    bn_level,
    reuse,
    sym_ptr,
    sym_level,
    root_ok,
    maxdeg,
    mark_limit,
    tail_start,
    tail_kind,
    tail_indep,
    lo,
    hi,
    mode,
    out,
    row0,
    cap,
    cap_is_limit,
    stop,
    pause,
    resume,
    f,
    pos,
    end,
    cnt,
    cand,
):
    """DFS over root entries [lo, hi).

    mode 0 counts, 1 writes rows to out[row0:cap], 2 stops at the first match. ``stop[0]``
    set by anyone (a chunk that found a match, the host on an interrupt) ends the run within
    ``POLL_MASK + 1`` steps with status ``_STOPPED``.

    Counting (and exists) finish levels ``tail_start .. k-1`` by the tail formula
    (``tail_kind``: 1 falling factorial, 2 binomial) when ``k - tail_start >= 2``: the
    candidates of level ``tail_start`` that pass every test are counted, not descended into.
    ``tail_indep`` (induced plans): the formula only holds when those candidates are pairwise
    non-adjacent; otherwise the tail levels are walked for that mapping.
    ``pause`` (mode 1): when ``cap`` rows are written, save the DFS level in ``resume[0]``
    (``f``, ``pos``, ``end``, ``cnt``, ``cand`` keep the rest of the state) and return
    ``_PAUSED`` with ``next_e`` = the current root entry; a call with ``lo = next_e`` and the
    same state arrays goes on from the next match (lazy iteration, one block at a time).
    Returns (count, rows_end, next_e, status); count -1 with ``_OVERFLOW``.
    """
    # typed zero for helper calls: a literal 0 argument would compile a separate
    # specialisation of the helper (numba types constants as Literal[int])
    Z = np.int64(0)
    # direct[lv]: one backward neighbour j and no reuse: the level walks f(j)'s CSR list in
    # place (no copy); dchk[lv] = index of its check (j, lv), tested per candidate at its entry
    direct = np.zeros(k, np.bool_)
    dchk = np.full(k, -1, np.int64)
    for lv in range(2, k):
        if bn_ptr[lv + 1] - bn_ptr[lv] == 1 and reuse[lv] < 0:
            direct[lv] = True
            j = bn_level[bn_ptr[lv]]
            for t in range(chk_ptr[lv], chk_ptr[lv + 1]):
                if chk_level[t] == j:
                    dchk[lv] = t
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
    leaf_fast = mode == 0 and last >= 2 and p_nlab[last] == -1 and p_loopreq[last] == -1
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
    use_tail = mode != 1 and T >= 2 and ntail >= 2 and (tail_kind == 1 or tail_kind == 2)
    tbuf = np.empty(max(maxdeg, 1) if (use_tail and tail_indep) else 1, np.int32)
    scr = np.empty(max(maxdeg, 1) if (use_tail and tail_indep) else 1, np.int32)
    nt = np.int64(0)
    tstart = np.int64(0)
    twalk = False
    steps = np.int64(0)
    count = np.int64(0)
    rows = row0
    if lo >= hi:
        return count, rows, hi, _DONE
    # owner of entry lo
    u = _lower_bound(indptr, 0, len(indptr), lo + 1) - 1
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
        if mode == 2 and stop[0] != 0:  # exists: another chunk already found a match
            return count, rows, e, _STOPPED
        root_rows = rows  # a full buffer drops this entry's rows (_FULL); the host re-runs it
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
                return count, rows, e, _STOPPED
            if not prepared and level >= 2:
                # build the candidate range of `level`
                b0 = bn_ptr[level]
                b1 = bn_ptr[level + 1]
                # symmetry bound: the candidate must exceed every f(j) of sym_level (-1: none)
                lb = np.int64(-1)
                for s in range(sym_ptr[level], sym_ptr[level + 1]):
                    v = f[sym_level[s]]
                    if v > lb:
                        lb = v
                if direct[level]:
                    w = f[bn_level[b0]]
                    a0 = indptr[w]
                    a1 = indptr[w + 1]
                    if lb >= 0:
                        a0 = _lower_bound(indices, a0, a1, lb + 1)
                    pos[level] = a0
                    end[level] = a1
                else:
                    r = reuse[level]
                    # lists still to intersect (those of BN(r) are already in cand[r])
                    nl = 0
                    for t in range(b0, b1):
                        j = bn_level[t]
                        skip = False
                        if r >= 0:
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
                                other = lens[1] if x == 0 else lens[0]
                                if nl == 1 or lens[x] * 4 >= other:
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
                    trim = lb + 1 if (lb >= 0 and not reused[level]) else np.int64(-1)
                    marked = False  # True: the copy below applied the level-0 mark filter
                    if r >= 0:
                        src = cand[r]
                        if nl == 0:
                            n = _copy_marked(src, Z, cnt[r], row, mark, has0)
                            marked = True
                        else:
                            w = f[js[0]]
                            n = _intersect(
                                src,
                                _start(src, Z, cnt[r], trim),
                                cnt[r],
                                indices,
                                _start(indices, indptr[w], indptr[w + 1], trim),
                                indptr[w + 1],
                                row,
                                Z,
                            )
                            first = 1
                    elif nl == 1:
                        w0 = f[js[0]]
                        n = _copy_marked(
                            indices,
                            _start(indices, indptr[w0], indptr[w0 + 1], trim),
                            indptr[w0 + 1],
                            row,
                            mark,
                            has0,
                        )
                        marked = True
                        first = 1
                    else:
                        w0 = f[js[0]]
                        w1 = f[js[1]]
                        n = _intersect(
                            indices,
                            _start(indices, indptr[w0], indptr[w0 + 1], trim),
                            indptr[w0 + 1],
                            indices,
                            _start(indices, indptr[w1], indptr[w1 + 1], trim),
                            indptr[w1 + 1],
                            row,
                            Z,
                        )
                        first = 2
                    for x in range(first, nl):
                        if n == 0:
                            break
                        w = f[js[x]]
                        n = _intersect(
                            row,
                            Z,
                            n,
                            indices,
                            _start(indices, indptr[w], indptr[w + 1], trim),
                            indptr[w + 1],
                            row,
                            Z,
                        )
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
                                if _edge_ok(
                                    dircode[p],
                                    olab[p] if chk_out[t] != -1 else -1,
                                    ilab[p] if chk_in[t] != -1 else -1,
                                    chk_code[t],
                                    chk_out[t],
                                    chk_in[t],
                                    induced,
                                ):
                                    row[m] = c
                                    m += 1
                            n = m
                    cnt[level] = n  # the set's size: what a later level reusing it reads
                    a0 = 0
                    if lb >= 0:  # the range, not the row, starts past the symmetry bound
                        a0 = _lower_bound(row, 0, n, lb + 1)
                    pos[level] = a0
                    end[level] = n
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
                    if count > _I64_MAX - cnum:  # the same 64-bit rule as every other addition
                        return np.int64(-1), rows, e, _OVERFLOW
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
                        nt = Z
                        if val < 0:
                            return np.int64(-1), rows, e, _OVERFLOW
                        if mode == 2:
                            if val > 0:
                                stop[0] = 1
                                return np.int64(1), rows, e, _STOPPED
                        elif count > _I64_MAX - val:
                            return np.int64(-1), rows, e, _OVERFLOW
                        else:
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
                for t in range(level):
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
                    if not _edge_ok(
                        dircode[p],
                        olab[p] if chk_out[t] != -1 else -1,
                        ilab[p] if chk_in[t] != -1 else -1,
                        chk_code[t],
                        chk_out[t],
                        chk_in[t],
                        induced,
                    ):
                        continue
                if induced:
                    # non-adjacency to the earlier levels that are not pattern neighbours: no
                    # list to intersect, so one binary search each, after the cheaper tests
                    for t in range(chk_ptr[level], chk_ptr[level + 1]):
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
            if mode == 0:
                if count == _I64_MAX:
                    return np.int64(-1), rows, e, _OVERFLOW
                count += 1
            elif mode == 1:
                # checked before writing: a full buffer ends the run at the limit, or else
                # drops this root entry's rows (_FULL, back to root_rows) so the host can grow
                # the buffer and re-run entry e from its start
                if rows >= cap:
                    if cap_is_limit:
                        return count, rows, e, _LIMIT
                    return count, root_rows, e, _FULL
                for x in range(k):
                    out[rows, order[x]] = f[x]
                rows += 1
                count += 1
                if pause and rows >= cap:
                    # the state arrays keep the rest; pos[level] is already past this match
                    resume[0] = level
                    return count, rows, e, _PAUSED
                if cap_is_limit and rows >= cap:
                    return count, rows, e + 1, _LIMIT
            else:
                stop[0] = 1  # exists: the other chunks stop at their next look at the flag
                return np.int64(1), rows, e, _STOPPED
    return count, rows, hi, _DONE


@njit(cache=True)
def _run_range(
    indptr,
    indices,
    dircode,
    loop,
    nlab,
    olab,
    ilab,
    llab,
    k,
    order,
    induced,
    edge_checks,
    p_nlab,
    p_loopreq,
    p_looplab,
    p_mindeg,
    chk_ptr,
    chk_level,
    chk_code,
    chk_out,
    chk_in,
    bn_ptr,
    bn_level,
    reuse,
    sym_ptr,
    sym_level,
    root_ok,
    maxdeg,
    mark_limit,
    tail_start,
    tail_kind,
    tail_indep,
    lo,
    hi,
    mode,
    out,
    row0,
    cap,
    cap_is_limit,
    stop,
):
    """:func:`_dfs` with fresh state arrays (no pausing)."""
    f = np.empty(k, np.int64)
    pos = np.zeros(k, np.int64)
    end = np.zeros(k, np.int64)
    cnt = np.zeros(k, np.int64)
    cand = np.empty((k, max(maxdeg, 1)), np.int32)
    resume = np.zeros(1, np.int64)
    return _dfs(
        indptr,
        indices,
        dircode,
        loop,
        nlab,
        olab,
        ilab,
        llab,
        k,
        order,
        induced,
        edge_checks,
        p_nlab,
        p_loopreq,
        p_looplab,
        p_mindeg,
        chk_ptr,
        chk_level,
        chk_code,
        chk_out,
        chk_in,
        bn_ptr,
        bn_level,
        reuse,
        sym_ptr,
        sym_level,
        root_ok,
        maxdeg,
        mark_limit,
        tail_start,
        tail_kind,
        tail_indep,
        lo,
        hi,
        mode,
        out,
        row0,
        cap,
        cap_is_limit,
        stop,
        False,
        resume,
        f,
        pos,
        end,
        cnt,
        cand,
    )


@njit(cache=True, parallel=True, nogil=True)
def _count_chunks(bounds, args, stop):
    """Count per chunk (-1 where a chunk's count overflows; it then stops the others)."""
    nch = len(bounds) - 1
    counts = np.zeros(nch, np.int64)
    k = args[8]
    dummy = np.empty((0, k), np.int64)
    for c in prange(nch):
        res = _run_range(*args, bounds[c], bounds[c + 1], 0, dummy, 0, 0, False, stop)
        counts[c] = res[0]
        if res[3] == _OVERFLOW:
            stop[0] = 1
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
    k = args[8]
    dummy = np.empty((0, k), np.int64)
    for c in prange(nch):
        res = _run_range(*args, bounds[c], bounds[c + 1], 2, dummy, 0, 0, False, stop)
        found[c] = res[0]
    return found


@njit(cache=True, nogil=True)
def _enum_serial(args, lo, hi, out, row0, cap, cap_is_limit, stop):
    return _run_range(*args, lo, hi, 1, out, row0, cap, cap_is_limit, stop)


@njit(cache=True, nogil=True)
def _enum_pausable(args, lo, hi, out, cap, stop, resume, f, pos, end, cnt, cand):
    return _dfs(*args, lo, hi, 1, out, 0, cap, False, stop, True, resume, f, pos, end, cnt, cand)


@njit(cache=True, nogil=True)
def _serial(args, lo, hi, mode, stop):
    """Count (mode 0; -1 on overflow) or test existence (mode 2) on one thread."""
    k = args[8]
    dummy = np.empty((0, k), np.int64)
    return _run_range(*args, lo, hi, mode, dummy, 0, 0, False, stop)[0]


# ---------------------------------------------------------------------- host side
_DUMMY_I32 = np.full(1, -1, dtype=np.int32)


def _args(graph: StaticGraph, plan: StaticPlan) -> tuple:
    """The flat argument tuple every kernel takes (numba-friendly dtypes)."""
    settle()  # no compilation may overlap one still running from an interrupted call
    if plan.k < 2:
        raise ValueError("engines need plans with k >= 2 (1-node patterns are answered on host)")
    if plan.directed != graph.directed:
        raise ValueError("plan and graph differ in directedness")
    root_ok = plan.root_ok if plan.root_ok is not None else root_mask(graph, plan)

    def lab(a):
        return _DUMMY_I32 if a is None else np.ascontiguousarray(a, dtype=np.int32)

    i32 = np.int32

    def p(a, dt=i32):
        return np.ascontiguousarray(a, dtype=dt)

    return (
        np.ascontiguousarray(graph.indptr, dtype=np.int64),
        np.ascontiguousarray(graph.indices, dtype=np.int32),
        np.ascontiguousarray(graph.dircode, dtype=np.uint8),
        np.ascontiguousarray(graph.loop, dtype=np.uint8),
        lab(graph.node_label),
        lab(graph.out_label),
        lab(graph.in_label),
        lab(graph.loop_label),
        np.int64(plan.k),
        p(plan.order),
        bool(plan.induced),
        bool(plan.edge_checks),
        p(plan.node_label),
        p(plan.loop_req, np.int8),
        p(plan.loop_label),
        p(plan.min_degree),
        p(plan.chk_ptr),
        p(plan.chk_level),
        p(plan.chk_code),
        p(plan.chk_out_label),
        p(plan.chk_in_label),
        p(plan.bn_ptr),
        p(plan.bn_level),
        p(plan.reuse),
        p(plan.sym_ptr),
        p(plan.sym_level),
        np.ascontiguousarray(root_ok, dtype=np.uint8),
        np.int64(max(graph.max_degree, 1)),
        np.int64(MARK_LIMIT),
        *_tail(plan),
    )


def _tail(plan: StaticPlan) -> tuple:
    """``(tail_start, tail_kind, tail_indep)`` the kernel counts with (see ``_run_range``)."""
    k = plan.k
    start, kind = int(plan.indep_tail_start), int(plan.indep_tail_kind)
    indep = plan.induced and 2 <= start <= k - 2 and kind in (TAIL_FALLING, TAIL_CHOOSE)
    if not indep:
        start, kind = int(plan.tail_start), int(plan.tail_kind)
    if not (2 <= start <= k - 2 and kind in (TAIL_FALLING, TAIL_CHOOSE)):
        start, kind = k, 0  # only the last level (the leaf shortcut), or none
    return np.int64(start), np.int64(kind), bool(indep)


def _bounds(graph: StaticGraph, args: tuple, lo: int, hi: int) -> np.ndarray:
    """Chunks for numba's threads: the balanced split of :mod:`nx_gpumine.plan.root_split`."""
    return static_root_bounds(graph, numba.get_num_threads() * 16, args[26], lo, hi)


def count(graph: StaticGraph, plan: StaticPlan, lo: int = 0, hi: int | None = None) -> int:
    """Count matches whose root edge is a union-CSR entry in ``[lo, hi)``.

    Parameters
    ----------
    graph : StaticGraph
        The data graph the plan was built for.
    plan : StaticPlan
        Plan with ``k >= 2``.
    lo, hi : int
        Root entry range (default: all entries).

    Returns
    -------
    int
        Number of matches (mappings, or distinct subgraphs for a ``distinct`` plan).

    Raises
    ------
    CapacityError
        If the count does not fit in 64 bits.
    KeyboardInterrupt
        Ctrl-C during the call (see :mod:`nx_gpumine.engines.cpu.calls`).
    """
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if plan.impossible or hi <= lo:
        return 0
    args = _args(graph, plan)
    stop = new_stop()
    if hi - lo < SERIAL_ENTRIES:
        n = int(run_kernel(_serial, args, lo, hi, 0, stop, stop=stop, parallel=False))
        if n < 0:
            raise overflow_error()
        return n
    counts = run_kernel(_count_chunks, _bounds(graph, args, lo, hi), args, stop, stop=stop)
    return checked_sum(counts)


def exists(graph: StaticGraph, plan: StaticPlan, lo: int = 0, hi: int | None = None) -> bool:
    """Whether at least one match has its root edge in ``[lo, hi)`` (stops at the first)."""
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if plan.impossible or hi <= lo:
        return False
    args = _args(graph, plan)
    stop = new_stop()
    if hi - lo < SERIAL_ENTRIES:
        return bool(run_kernel(_serial, args, lo, hi, 2, stop, stop=stop, parallel=False))
    found = run_kernel(_exists_chunks, _bounds(graph, args, lo, hi), args, stop, stop=stop)
    return bool(found.any())


def enumerate_matches(
    graph: StaticGraph,
    plan: StaticPlan,
    lo: int = 0,
    hi: int | None = None,
    limit: int | None = None,
) -> np.ndarray:
    """All matches (or the first ``limit``) with root edge in ``[lo, hi)``.

    Returns
    -------
    numpy.ndarray
        ``(n, k)`` int64 dense vertex ids, column ``a`` = image of pattern node ``a``.
        Without ``limit`` the result is exact (counted first, then filled in parallel); with
        ``limit`` a growing buffer is filled in root order until ``limit`` rows are found.
    """
    lo, hi = checked_range(lo, hi, len(graph.indices))
    k = plan.k
    limit = checked_limit(limit)
    if plan.impossible or hi <= lo or limit == 0:
        return np.empty((0, k), dtype=np.int64)
    args = _args(graph, plan)
    return enumerate_rows(
        (_count_chunks, _fill_chunks, _enum_serial), args, lo, hi, k, limit,
        stop=new_stop(),
        bounds=(lambda: _bounds(graph, args, lo, hi)) if hi - lo >= SERIAL_ENTRIES else None,
        initial_rows=INITIAL_ROWS,
        count_rows=lambda: count(graph, plan, lo, hi),
    )  # fmt: skip


def iter_matches(
    graph: StaticGraph,
    plan: StaticPlan,
    lo: int = 0,
    hi: int | None = None,
    block_rows: int = BLOCK_ROWS,
) -> Iterator[np.ndarray]:
    """Lazily yield the matches with root edge in ``[lo, hi)`` in blocks of at most
    ``block_rows`` rows (``(n, k)`` int64, columns in pattern-node order).

    The DFS pauses when a block is full and goes on from where it stopped at the next
    ``next()``, inside a root entry if need be: memory stays ``O(block_rows)`` however many
    matches one root edge has (a star in a star), and the first block comes after the first
    ``block_rows`` matches are found. Blocks start small (64 rows) and double up to
    ``block_rows``.
    """
    lo, hi = checked_range(lo, hi, len(graph.indices))
    if block_rows < 1:
        raise ValueError(f"block_rows must be >= 1, got {block_rows}")
    if plan.impossible or hi <= lo:
        return
    args = _args(graph, plan)
    k = plan.k
    f = np.empty(k, np.int64)
    pos = np.zeros(k, np.int64)
    end = np.zeros(k, np.int64)
    cnt = np.zeros(k, np.int64)
    cand = np.empty((k, max(int(args[27]), 1)), np.int32)
    resume = np.zeros(1, np.int64)
    cap = min(64, block_rows)
    e = lo
    while e < hi:
        stop = new_stop()
        out = np.empty((cap, k), dtype=np.int64)
        _, rows, e, status = run_kernel(
            _enum_pausable, args, e, hi, out, cap, stop, resume, f, pos, end, cnt, cand,
            stop=stop, parallel=False,
        )  # fmt: skip
        if rows:
            yield out[:rows] if rows < cap else out
        if status != _PAUSED:
            return
        cap = min(2 * cap, block_rows)
