"""CPU graphlet orbit counts for k = 5 by counting equations (numba), after Hočevar & Demšar.

:func:`orbit_counts_5node_equations` gives the same per-node counts of ORCA's orbits 15..72 as
:func:`~nx_gpumine.engines.cpu.orbit_counts5.orbit_counts_5node` (which enumerates every
connected 5-node set), but enumerates only the connected 4-node sets and completes each to five
nodes by counting, as in the combinatorial approach of Hočevar & Demšar (2014, "A combinatorial
approach to graphlet counting", Bioinformatics 30(4)). The equations here are derived by this
module itself (:func:`_tables`), not taken from ORCA's source.

For a node ``x``, a connected induced 4-node set ``Q`` holding ``x`` and a nonempty ``S`` within
``Q``, let ``N(S, Q)`` be the number of nodes outside ``Q`` adjacent to every node of ``S``.
A *key* is the class of ``(Q's edges, x, S)`` under relabelling of ``Q``'s other three nodes;
the quantity ``F[key](x)`` sums ``N(S, Q)`` over the pairs ``(Q, S)`` of that key. Every such
pair and outer node ``v`` form a connected 5-node set holding ``x``, so

    ``F[key](x) = sum over orbits o of A[key, o] * orbit_o(x)``

where ``A[key, o]`` counts, in a 5-node graphlet with ``x`` in orbit ``o``, the pairs of a node
``v != x`` whose removal leaves it connected and a nonempty subset ``S`` of ``v``'s neighbours
in it that give that key. With ``S`` all of ``v``'s neighbours, the graphlet is ``Q`` plus
``v`` joined to exactly ``S``, and larger adjacency of ``v`` adds edges, so choosing one such key
per orbit (the one with the smallest ``S``) gives a system that is triangular in the graphlets'
edge counts: it is solved per node from the densest orbit (the 5-clique, 72) down, each division
exact.

``N(S, Q)`` comes from degrees (``|S|`` = 1), from the common-neighbour counts of node pairs
(``|S|`` = 2: dense per-thread rows for the set's first two nodes, set up as the enumeration
reaches them, else a per-node sorted table of the nodes at distance two, binary searched) or,
for the dense keys with ``|S|`` >= 3, from the neighbour marks of the set's first three nodes:
``S`` = {0, 1, 2} from their common neighbours, counted once per third node; an ``S`` holding
the fourth node from a histogram of its neighbours by which of the first three they touch,
built once per set (where its degree is at most 8 times that of ``S``'s smallest other member;
else that member's neighbours are walked). For ``|S|`` <= 2 the nodes of ``Q`` adjacent to
all of ``S`` are subtracted, a per-mask constant. The equation terms needed by each 4-node
edge mask are tabulated (:func:`_plan`).

Connected 4-node sets are enumerated once each by ESU (the smallest id the root). A root with
many neighbours above it is cut into tasks, each taking every ``step``-th of its first
extension nodes (:func:`_root_tasks`: a hub among the smallest ids roots a large share of the
sets). The tasks run in batches from Python, each batch parallel over threads, each thread
adding into its own row of an accumulator ``[threads, n, 58]``. The counts are int64; a term
``F[key](x)`` is at most 12 times the number of connected 5-node sets holding ``x`` (12 the
largest ``A`` entry), so it fits wherever the ESU's counts would be computable at all.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

import numba
import numpy as np
from numba import njit, prange

from ...plan.orbits import PAIRS5, orbit_lookup5
from .local_counts import _two_paths
from .orbit_counts import _counting_csr, loop_free_csr, node_orbit_counts
from .orbit_counts5 import _adjacent, _cover, _extend
from .walk_shared import lower_bound

__all__ = ["node_orbit_counts5", "orbit_counts_5node_equations"]

#: Orbits of the 5-node graphlets (15..72).
_N5 = 58
#: Largest degree of a set's fourth node whose common neighbours with the third are counted by
#: walking its neighbours on the third's marks; above it, a binary search in the distance-two
#: table (on power-law graphs that search took 60% of the time when done for every degree).
WALK_DEGREE = 128
#: Most bytes the per-thread accumulators ``[threads, n, 58]`` take together (fewer threads
#: beyond it; one thread's rows are always allocated).
ACCUMULATOR_BYTES = 4 << 30
#: Node pairs of a 4-node set, in mask-bit order.
_PAIRS4 = tuple(itertools.combinations(range(4), 2))


# ====================================================================== the equations
def _bit(pairs: tuple[tuple[int, int], ...], a: int, b: int) -> int:
    """The mask bit of the pair ``{a, b}`` in ``pairs``."""
    return pairs.index((min(a, b), max(a, b)))


def _connected(nodes: list[int], adj) -> bool:
    """Whether ``nodes`` induce a connected graph under the predicate ``adj``."""
    seen = {nodes[0]}
    stack = [nodes[0]]
    while stack:
        u = stack.pop()
        for w in nodes:
            if w not in seen and adj(u, w):
                seen.add(w)
                stack.append(w)
    return len(seen) == len(nodes)


def _canon(mask4: int, sub: int, x: int) -> int:
    """The key of a labelled 4-node set (edges ``mask4``), its node ``x`` and subset ``sub``:
    the smallest code over the labellings putting ``x`` first."""
    others = [u for u in range(4) if u != x]
    best = -1
    for perm in itertools.permutations(others):
        pos = {x: 0}
        for i, u in enumerate(perm):
            pos[u] = i + 1
        mm = 0
        for i, (a, b) in enumerate(_PAIRS4):
            if (mask4 >> i) & 1:
                mm |= 1 << _bit(_PAIRS4, pos[a], pos[b])
        ss = 0
        for u in range(4):
            if (sub >> u) & 1:
                ss |= 1 << pos[u]
        code = (mm << 4) | ss
        if best < 0 or code < best:
            best = code
    return best


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counting equations: ``(rows, coef, order)``.

    ``rows[mask4, p, S]`` is the equation row fed by the 4-node set of edges ``mask4`` (bits in
    ``_PAIRS4`` order), node ``p`` as ``x`` and subset ``S`` (bit ``i`` node ``i``), or -1;
    ``coef[r, o - 15]`` is ``A[key of row r, o]``; row ``r`` is the equation of orbit
    ``15 + r``; ``order`` lists the orbits (minus 15) from the densest graphlet down.
    """
    lut = orbit_lookup5()
    rep: dict[int, int] = {}
    for m in range(1024):
        o = int(lut[m, 0])
        if o >= 15 and o not in rep:
            rep[o] = m
    edges = {o: bin(m).count("1") for o, m in rep.items()}
    a_full: dict[int, dict[int, int]] = {}
    best: dict[int, tuple[int, int]] = {}
    for o, m in rep.items():

        def adj(a: int, b: int, m: int = m) -> bool:
            return a != b and bool((m >> _bit(PAIRS5, a, b)) & 1)

        for v in range(1, 5):
            rest = [u for u in range(5) if u != v]
            if not _connected(rest, adj):
                continue
            m4 = 0
            for i, (a, b) in enumerate(_PAIRS4):
                if adj(rest[a], rest[b]):
                    m4 |= 1 << i
            s_full = sum(1 << j for j, u in enumerate(rest) if adj(u, v))
            cand = (bin(s_full).count("1"), _canon(m4, s_full, 0))
            if o not in best or cand < best[o]:
                best[o] = cand
            sub = s_full
            while sub:
                key = _canon(m4, sub, 0)
                row = a_full.setdefault(key, {})
                row[o] = row.get(o, 0) + 1
                sub = (sub - 1) & s_full
    key_row = {best[o][1]: o - 15 for o in rep}
    coef = np.zeros((_N5, _N5), dtype=np.int64)
    for key, r in key_row.items():
        for o, c in a_full[key].items():
            coef[r, o - 15] = c
            o_own = r + 15
            if o != o_own and edges[o] <= edges[o_own]:
                raise AssertionError("counting equations not triangular")
    rows = np.full((64, 4, 16), -1, dtype=np.int64)
    for m4 in range(64):
        if not _connected(
            list(range(4)), lambda a, b, m4=m4: a != b and (m4 >> _bit(_PAIRS4, a, b)) & 1
        ):
            continue
        for p in range(4):
            for sub in range(1, 16):
                rows[m4, p, sub] = key_row.get(_canon(m4, sub, p), -1)
    order = np.array(sorted(range(_N5), key=lambda r: -edges[r + 15]), dtype=np.int64)
    return rows, coef, order


@functools.lru_cache(maxsize=1)
def _plan() -> np.ndarray:
    """Per 4-node edge mask, the subsets to count (see :func:`_credit`)."""
    rows = _tables()[0]
    plan = np.zeros((64, 16, 5), dtype=np.int64)
    for m4 in range(64):

        def adj(a: int, b: int, m4: int = m4) -> bool:
            return a != b and bool((m4 >> _bit(_PAIRS4, a, b)) & 1)

        j = 0
        for sub in range(1, 16):
            if not np.any(rows[m4, :, sub] >= 0):
                continue
            members = [i for i in range(4) if (sub >> i) & 1]
            inner = sum(1 for u in range(4) if u not in members and all(adj(u, s) for s in members))
            second = members[1] if len(members) > 1 else -1
            plan[m4, j] = (sub, len(members), members[0], second, inner)
            j += 1
        plan[m4, 15, 0] = j
    return plan


# ====================================================================== common neighbours
@njit(cache=True, parallel=True)
def _two_hop(
    indptr: np.ndarray, indices: np.ndarray, nthreads: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per node ``a``: the nodes ``w != a`` sharing a neighbour with it (sorted) and the number
    of neighbours shared, as a CSR ``(ptr, ids, counts)``."""
    n = len(indptr) - 1
    size = np.zeros(n + 1, dtype=np.int64)
    marks = np.zeros((nthreads, n), dtype=np.int64)
    for t in prange(nthreads):
        mark = marks[t]
        for a in range(t, n, nthreads):
            k = 0
            for e in range(indptr[a], indptr[a + 1]):
                b = indices[e]
                for f in range(indptr[b], indptr[b + 1]):
                    w = indices[f]
                    if w != a and mark[w] != a + 1:
                        mark[w] = a + 1
                        k += 1
            size[a + 1] = k
    ptr = np.cumsum(size)
    ids = np.empty(ptr[n], dtype=np.int64)
    cnt = np.empty(ptr[n], dtype=np.int64)
    for t in prange(nthreads):
        mark = marks[t]
        mark[:] = 0
        for a in range(t, n, nthreads):
            k = ptr[a] + _two_paths(indptr, indices, a, mark, ids[ptr[a] :])
            row = np.sort(ids[ptr[a] : k])
            for i in range(len(row)):
                ids[ptr[a] + i] = row[i]
                cnt[ptr[a] + i] = mark[row[i]]
                mark[row[i]] = 0
    return ptr, ids, cnt


#: :func:`_two_hop` without threads, for small graphs (a parallel region's start cost dominates).
_two_hop_serial = njit(cache=True)(_two_hop.py_func)


@njit(cache=True, inline="always")
def _common(hptr: np.ndarray, hids: np.ndarray, hcnt: np.ndarray, a: int, b: int) -> int:
    """Number of common neighbours of ``a`` and ``b`` (binary search in the shorter row)."""
    if hptr[a + 1] - hptr[a] > hptr[b + 1] - hptr[b]:
        a, b = b, a
    p = lower_bound(hids, hptr[a], hptr[a + 1], b)
    if p < hptr[a + 1] and hids[p] == b:
        return hcnt[p]
    return 0


# ====================================================================== counting
@njit(cache=True)
def _outer_dense(
    indptr: np.ndarray, indices: np.ndarray, sub: int, nd: np.ndarray, marks: tuple
) -> int:
    """Nodes outside the 4-node set ``nd`` adjacent to all of ``nd[i]``, ``i`` in ``sub``
    (three or more nodes).

    ``marks = (a0, a1, a2, c012, hist)``: the neighbour marks of the set's nodes 0, 1, 2; in
    ``c012[0]`` the common neighbours of nodes 0, 1, 2 outside them (-1 until counted, once per
    node 2); in ``hist[key]`` node 3's neighbours outside the set by which of nodes 0..2 they
    are adjacent to (bit ``i``: node ``i``; ``hist[8]`` -1 until counted for this set, 0 when
    node 3 has too many neighbours for it). ``sub`` = {0, 1, 2} is ``c012`` less node 3 where
    it is adjacent to all three; a ``sub`` holding node 3 sums ``hist``; otherwise the
    neighbours of the member of smallest degree are walked, membership of nodes 0..2 read from
    the marks and node 3's found by binary search.
    """
    a0, a1, a2, c012, hist = marks
    if sub == 7:
        if c012[0] < 0:
            total = 0
            for e in range(indptr[nd[2]], indptr[nd[2] + 1]):
                w = indices[e]
                if a0[w] != 0 and a1[w] != 0 and w != nd[0] and w != nd[1]:
                    total += 1
            c012[0] = total
        x = nd[3]
        return c012[0] - (1 if a0[x] != 0 and a1[x] != 0 and a2[x] != 0 else 0)
    if sub & 8:
        if hist[8] < 0:  # node 3's neighbours by their marks, once per set where not too many
            x = nd[3]
            d3 = indptr[x + 1] - indptr[x]
            dmin = d3
            for i in range(3):
                if (sub >> i) & 1:
                    dmin = min(dmin, indptr[nd[i] + 1] - indptr[nd[i]])
            if d3 <= 8 * dmin:
                hist[:8] = 0
                for e in range(indptr[x], indptr[x + 1]):
                    w = indices[e]
                    if w != nd[0] and w != nd[1] and w != nd[2]:
                        hist[(a0[w] != 0) | ((a1[w] != 0) << 1) | ((a2[w] != 0) << 2)] += 1
                hist[8] = 1
        if hist[8] > 0:
            m = sub & 7
            total = 0
            for key in range(8):
                if key & m == m:
                    total += hist[key]
            return total
    low = -1
    for i in range(4):
        if (sub >> i) & 1:
            if low < 0 or indptr[nd[i] + 1] - indptr[nd[i]] < indptr[nd[low] + 1] - indptr[nd[low]]:
                low = i
    s = nd[low]
    need = sub & ~(1 << low)
    total = 0
    for e in range(indptr[s], indptr[s + 1]):
        w = indices[e]
        if w == nd[0] or w == nd[1] or w == nd[2] or w == nd[3]:
            continue
        if (need & 1 and a0[w] == 0) or (need & 2 and a1[w] == 0) or (need & 4 and a2[w] == 0):
            continue
        if need & 8 and not _adjacent(indptr, indices, nd[3], w):
            continue
        total += 1
    return total


@njit(cache=True, inline="always")
def _credit(
    indptr: np.ndarray,
    indices: np.ndarray,
    hop: tuple,
    rows: np.ndarray,
    plan: np.ndarray,
    m4: int,
    nd: np.ndarray,
    acc: np.ndarray,
    t: int,
    loc: np.ndarray,
    com0: np.ndarray,
    com1: np.ndarray,
    marks: tuple,
    walk_degree: int,
) -> None:
    """Add each equation term of the 4-node set ``nd`` (edges ``m4``) to its nodes' rows: the
    fourth node's in ``acc[t]``, the first three's in ``loc[0..2]`` (they stay the same over
    many sets; the walk adds them to ``acc`` when it leaves the node, :func:`_flush`).

    ``plan[m4, j]`` (``j`` < ``plan[m4, 15, 0]``) is ``(S, |S|, first, second, inner)``: a
    subset with equations, its size, its first two nodes and, for ``|S|`` <= 2, the nodes of
    the set adjacent to all of ``S`` (subtracted from the degree or common-neighbour count).
    """
    hptr, hids, hcnt = hop
    for j in range(plan[m4, 15, 0]):
        sub = plan[m4, j, 0]
        k = plan[m4, j, 1]
        first = plan[m4, j, 2]
        if k == 1:
            s = nd[first]
            val = indptr[s + 1] - indptr[s] - plan[m4, j, 4]
        elif k == 2:
            second = plan[m4, j, 3]
            if first == 0:
                val = com0[nd[second]]
            elif first == 1:
                val = com1[nd[second]]
            else:  # nodes 2 and 3: node 3's neighbours on node 2's marks, or the table
                x = nd[3]
                if indptr[x + 1] - indptr[x] <= walk_degree:
                    a2 = marks[2]
                    val = 0
                    for e in range(indptr[x], indptr[x + 1]):
                        val += a2[indices[e]]
                else:
                    val = _common(hptr, hids, hcnt, nd[first], nd[second])
            val -= plan[m4, j, 4]
        else:
            val = _outer_dense(indptr, indices, sub, nd, marks)
        if val == 0:
            continue
        for p in range(3):  # the set's first three nodes: their rows in ``loc`` (flushed later)
            r = rows[m4, p, sub]
            if r >= 0:
                loc[p, r] += val
        r = rows[m4, 3, sub]
        if r >= 0:
            acc[t, nd[3], r] += val


@njit(cache=True, inline="always")
def _flush(loc: np.ndarray, p: int, acc: np.ndarray, t: int, node: int) -> None:
    """Add ``loc[p]`` (the terms of the set's node ``p`` while it stayed ``node``) to
    ``acc[t, node]`` and clear it."""
    for r in range(loc.shape[1]):
        if loc[p, r] != 0:
            acc[t, node, r] += loc[p, r]
            loc[p, r] = 0


@njit(cache=True, inline="always")
def _mark(
    indptr: np.ndarray, indices: np.ndarray, w: int, adj: np.ndarray, com: np.ndarray, step: int
) -> None:
    """Add ``step`` to ``adj`` on ``w``'s neighbours and to ``com`` once per 2-path from ``w``
    (setting up, ``step`` 1, or clearing, -1, ``w``'s adjacency and common-neighbour rows)."""
    for e in range(indptr[w], indptr[w + 1]):
        b = indices[e]
        adj[b] += step
        for f in range(indptr[b], indptr[b + 1]):
            com[indices[f]] += step


@njit(cache=True, parallel=True)
def _esu4(
    indptr: np.ndarray,
    indices: np.ndarray,
    hop: tuple,
    rows: np.ndarray,
    plan: np.ndarray,
    tasks: np.ndarray,
    lo: int,
    hi: int,
    acc: np.ndarray,
    cover: np.ndarray,
    ext: np.ndarray,
    adj: np.ndarray,
    com: np.ndarray,
    walk: int,
) -> None:
    """Every connected induced 4-node set of the tasks ``lo..hi-1`` (:func:`_root_tasks`), its
    equation terms added to ``acc[thread, node, row]`` (``cover`` and ``ext`` as in ESU for
    k = 5; ``adj[t, j]`` marks the neighbours of the set's node ``j`` and ``com[t, j]`` counts
    each node's common neighbours with it, ``j`` = 0, 1, all zeros on entry and exit; ``walk``
    plays :data:`WALK_DEGREE`'s role). Thread ``t`` takes the tasks ``lo + t``,
    ``lo + t + threads``, ...

    Mask bits follow ``_PAIRS4``: (0,1) 0, (0,2) 1, (0,3) 2, (1,2) 3, (1,3) 4, (2,3) 5.
    """
    nthreads = acc.shape[0]
    for t in prange(nthreads):
        cov, e1, e2, e3 = cover[t], ext[t, 0], ext[t, 1], ext[t, 2]  # this thread's scratch
        a0 = adj[t, 0]
        a1 = adj[t, 1]
        a2 = adj[t, 2]
        c0 = com[t, 0]
        c1 = com[t, 1]
        nd = np.empty(4, dtype=np.int64)
        c012 = np.empty(1, dtype=np.int64)
        hist = np.empty(9, dtype=np.int64)
        marks = (a0, a1, a2, c012, hist)
        loc = np.zeros((3, _N5), dtype=np.int64)
        for j in range(lo + t, hi, nthreads):
            r = tasks[j, 0]
            nd[0] = r
            _mark(indptr, indices, r, a0, c0, 1)
            m1 = _extend(indptr, indices, e1, 0, 0, r, r, cov, e1)
            _cover(indptr, indices, r, cov, 1)
            for i1 in range(tasks[j, 1], m1, tasks[j, 2]):
                w1 = e1[i1]
                nd[1] = w1
                _mark(indptr, indices, w1, a1, c1, 1)
                m2 = _extend(indptr, indices, e1, i1 + 1, m1, w1, r, cov, e2)
                _cover(indptr, indices, w1, cov, 1)
                for i2 in range(m2):
                    w2 = e2[i2]
                    nd[2] = w2
                    b2 = 1 | (a0[w2] << 1) | (a1[w2] << 3)
                    m3 = _extend(indptr, indices, e2, i2 + 1, m2, w2, r, cov, e3)
                    for e in range(indptr[w2], indptr[w2 + 1]):
                        a2[indices[e]] = 1
                    c012[0] = -1  # common neighbours of r, w1, w2: counted on first use
                    for i3 in range(m3):
                        w3 = e3[i3]
                        nd[3] = w3
                        b3 = b2 | (a0[w3] << 2) | (a1[w3] << 4) | (a2[w3] << 5)
                        hist[8] = -1
                        _credit(
                            indptr,
                            indices,
                            hop,
                            rows,
                            plan,
                            b3,
                            nd,
                            acc,
                            t,
                            loc,
                            c0,
                            c1,
                            marks,
                            walk,
                        )
                    for e in range(indptr[w2], indptr[w2 + 1]):
                        a2[indices[e]] = 0
                    _flush(loc, 2, acc, t, w2)
                _flush(loc, 1, acc, t, w1)
                _cover(indptr, indices, w1, cov, -1)
                _mark(indptr, indices, w1, a1, c1, -1)
            _flush(loc, 0, acc, t, r)
            _cover(indptr, indices, r, cov, -1)
            _mark(indptr, indices, r, a0, c0, -1)


@njit(cache=True)
def _solve(terms: np.ndarray, coef: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Per node, the orbit counts from the equation terms (back-substitution, densest first)."""
    n = terms.shape[0]
    out = np.zeros((n, _N5), dtype=np.int64)
    for v in range(n):
        for i in range(_N5):
            r = order[i]
            val = terms[v, r]
            for o in range(_N5):
                if o != r and coef[r, o] != 0:
                    val -= coef[r, o] * out[v, o]
            out[v, r] = val // coef[r, r]
    return out


def _root_tasks(indptr: np.ndarray, indices: np.ndarray, threads: int) -> np.ndarray:
    """The ESU roots cut into tasks ``(root, first, step)``: the task walks the root's first
    extension nodes ``first, first + step, ...`` (the root's neighbours above it, in order).

    A root with ``u`` neighbours above it is cut into ``min(4 threads, u // 8)`` tasks (at least
    one; none when ``u`` is 0: it roots no set), taken in strides so that each gets early and
    late positions alike (early ones extend further). A hub among the smallest ids roots a large
    share of all the sets; uncut, one thread walked it while the others waited (the nodes of
    facebook below id 1000, 2 threads: 7.1 s before the cut, 5.3 s after).
    """
    n = len(indptr) - 1
    row = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    up = np.bincount(row[indices > row], minlength=n)
    steps = np.minimum(4 * threads, up // 8)
    steps = np.where(up > 0, np.maximum(steps, 1), 0)
    roots = np.repeat(np.arange(n, dtype=np.int64), steps)
    first = np.arange(len(roots), dtype=np.int64) - np.repeat(np.cumsum(steps) - steps, steps)
    return np.ascontiguousarray(np.stack([roots, first, steps[roots]], axis=1))


def _threads(n: int) -> int:
    """Threads for ``n`` nodes: numba's, fewer where their accumulators ``[threads, n, 58]``
    would pass :data:`ACCUMULATOR_BYTES` (at least one)."""
    return max(1, min(n, numba.get_num_threads(), ACCUMULATOR_BYTES // (n * _N5 * 8)))


def _batch(n: int, threads: int) -> int:
    """Tasks per call of :func:`_esu4`: at most about 16 calls (each parallel region has a
    fixed start cost), at least 256 tasks per thread so an interrupt still lands between."""
    return max(threads, min(n, max(256 * threads, -(-n // 16))))


def orbit_counts_5node_equations(
    indptr: np.ndarray,
    indices: np.ndarray,
    check: bool = True,
    walk_degree: int = -1,
    on_batch: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Induced counts of the 58 orbits (15..72) of the connected 5-node graphlets, per node.

    The same contract and result as
    :func:`~nx_gpumine.engines.cpu.orbit_counts5.orbit_counts_5node`, counted from the
    connected 4-node sets and the equations of this module.

    Parameters
    ----------
    indptr, indices, check
        As in :func:`~nx_gpumine.engines.cpu.orbit_counts5.orbit_counts_5node`.
    walk_degree : int
        :data:`WALK_DEGREE` for this call (-1: that default; tests force either side).
    on_batch : callable, optional
        ``on_batch(i, batches)`` after batch ``i`` of the ``batches`` (about 16) the tasks run
        in (a progress bar's steps).

    Returns
    -------
    numpy.ndarray
        As :func:`~nx_gpumine.engines.cpu.orbit_counts5.orbit_counts_5node` returns it.

    Raises
    ------
    ValueError
        As :func:`~nx_gpumine.engines.cpu.orbit_counts5.orbit_counts_5node` raises it.

    Examples
    --------
    >>> import numpy as np
    >>> ptr = np.array([0, 1, 3, 5, 7, 8])
    >>> idx = np.array([1, 0, 2, 1, 3, 2, 4, 3])  # the path 0 - 1 - 2 - 3 - 4
    >>> orbit_counts_5node_equations(ptr, idx)[:, :3].tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]
    """
    indptr, indices = _counting_csr(indptr, indices, check)
    n = len(indptr) - 1
    if n == 0:
        return np.zeros((0, _N5), dtype=np.int64)
    threads = _threads(n)
    rows, coef, order = _tables()
    plan = _plan()
    hop = _two_hop if len(indices) > 50_000 else _two_hop_serial
    two = hop(indptr, indices, threads)
    acc = np.zeros((threads, n, _N5), dtype=np.int64)
    cover = np.zeros((threads, n), dtype=np.int32)
    ext = np.empty((threads, 3, n), dtype=np.int64)
    adj = np.zeros((threads, 3, n), dtype=np.int64)
    com = np.zeros((threads, 2, n), dtype=np.int64)
    walk = WALK_DEGREE if walk_degree < 0 else int(walk_degree)
    tasks = _root_tasks(indptr, indices, threads)
    step = _batch(len(tasks), threads)
    batches = -(-len(tasks) // step)
    for i, lo in enumerate(range(0, len(tasks), step)):  # Ctrl-C lands between batches
        hi = min(len(tasks), lo + step)
        _esu4(indptr, indices, two, rows, plan, tasks, lo, hi, acc, cover, ext, adj, com, walk)
        if on_batch is not None:
            on_batch(i, batches)
    return _solve(acc.sum(axis=0), coef, order)


def node_orbit_counts5(
    indptr: np.ndarray,
    indices: np.ndarray,
    on_batch: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Per-node graphlet orbit counts of the graphlets on 2..5 nodes (ORCA's 73 orbits).

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR of an undirected graph (both directions, sorted rows; self-loop entries
        are ignored), e.g. a ``StaticGraph``'s ``indptr`` and ``indices``.

    Returns
    -------
    numpy.ndarray
        int64 ``[n, 73]``: orbits 0..14 as
        :func:`~nx_gpumine.engines.cpu.orbit_counts.node_orbit_counts` (``k`` = 4) gives them,
        then 15..72 (by :func:`orbit_counts_5node_equations`).

    Raises
    ------
    ValueError
        The CSR is not that of an undirected graph.
    CapacityError
        A count of orbits 0..14 could pass 64 bits.

    Examples
    --------
    >>> import numpy as np
    >>> ptr = np.array([0, 1, 3, 5, 7, 8])
    >>> idx = np.array([1, 0, 2, 1, 3, 2, 4, 3])  # the path 0 - 1 - 2 - 3 - 4
    >>> node_orbit_counts5(ptr, idx)[:, 15:18].tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]
    """
    indptr, indices = loop_free_csr(indptr, indices)
    low = node_orbit_counts(indptr, indices, 4)
    high = orbit_counts_5node_equations(indptr, indices, check=False, on_batch=on_batch)
    return np.concatenate([low, high], axis=1)
