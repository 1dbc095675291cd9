"""CPU temporal engine, the jitted walk (numba): chronological edge-driven DFS (Mackey et al.).

Each root edge id ``e_0`` of a run starts an iterative DFS; level ``i`` matches motif edge
``i``. When a level is entered its candidate list (out-list, in-list or the global edge list),
start and end positions are found by binary search once and cached per level (Everest's
candidate-edge caching): backtracking resumes at ``pos + 1`` with no new search. Time windows
compare differences (``time[x] - time[base] <= limit``), exact for integer times of any spread
(:func:`_past`).

The kernels take named tuples: the graph's arrays (:class:`TemporalGraphArrays`), the plan's
(:class:`TemporalPlanArrays`, :class:`AntiEdges`), the graph's :class:`WalkIndex` and a
:class:`~.calls.RootRun`; together, before the run, a :class:`TemporalArgs`. :mod:`.temporal`
(the engine's facade) builds them and splits root ranges into chunks. The 3-edge census is
:mod:`.temporal_census`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .calls import DONE, ENUMERATE, EXISTS, FULL, LIMIT, POLL_MASK, STOPPED, WIDE_LIMBS
from .walk_shared import chunk_run
from .walk_shared import lower_bound as _lower_id  # the name temporal_census imports

__all__ = [
    "TemporalGraphArrays",
    "TemporalPlanArrays",
    "AntiEdges",
    "WalkIndex",
    "TemporalArgs",
    "run_chunks",
    "run_serial",
    "MotifTree",
    "run_tree_chunks",
    "build_walk_index",
]


class TemporalGraphArrays(NamedTuple):
    """The data graph's arrays a walk reads: the fields of
    :class:`~nx_gpumine.inputs.temporal_graph.TemporalGraph` of the same names (edge ids in
    time order; absent labels: one -1)."""

    src: np.ndarray
    dst: np.ndarray
    time: np.ndarray
    #: Per edge, the first edge id with a strictly later time.
    next_id: np.ndarray
    #: Each node's out-edge ids (CSR), ascending.
    out_ptr: np.ndarray
    out_edges: np.ndarray
    #: Each node's in-edge ids (CSR), ascending.
    in_ptr: np.ndarray
    in_edges: np.ndarray
    #: int32 node label codes.
    node_label: np.ndarray
    has_node_label: bool
    #: int32 edge label codes.
    edge_label: np.ndarray
    has_edge_label: bool


class WalkIndex(NamedTuple):
    """Where each edge id stands in its endpoints' lists (int64 per edge id; docs/temporal.md):
    a level starts next to the previous edge instead of searching its list."""

    #: Position of the edge in its source's out-list.
    pos_out: np.ndarray
    #: Position of the edge in its target's in-list.
    pos_in: np.ndarray
    #: First position in the target's out-list with a larger id.
    out_after_in: np.ndarray
    #: First position in the source's in-list with a larger id.
    in_after_out: np.ndarray


class TemporalPlanArrays(NamedTuple):
    """The plan's arrays a walk reads: the fields of
    :class:`~nx_gpumine.plan.temporal_plan.TemporalPlan` of the same names (its anti-edges are
    :class:`AntiEdges`)."""

    #: Motif nodes.
    k: int
    #: Motif edges (levels).
    l: int  # noqa: E741
    #: 0 strict (a later edge has a later time), 1 input order (a later id).
    tie: int
    #: The window ``t_last - t_0 <= delta``.
    delta_on: bool
    delta: np.generic
    # per level (the motif edge it matches):
    #: where candidates come from: 0 out-list, 1 in-list, 2 every edge, 3 the shorter list;
    source: np.ndarray
    #: the edge's motif nodes, and whether each is first mapped there;
    esrc: np.ndarray
    src_new: np.ndarray
    edst: np.ndarray
    dst_new: np.ndarray
    #: int32 label code (-1: any);
    edge_label: np.ndarray
    #: the gap ``t_i - t_(i-1) <= gap[i]``.
    gap_on: np.ndarray
    gap: np.ndarray
    # per motif node:
    #: int32 label code (-1: any);
    node_label: np.ndarray
    #: which graph nodes it may map to (uint8 ``[k, n]``).
    has_allow: bool
    allow: np.ndarray
    #: ascending windows (the graph's time dtype) a count also bins its matches by: a match
    #: whose span ``t_last - t_0`` is within ``windows[j]`` and not ``windows[j - 1]`` adds 1
    #: to ``out[run.row0, j]`` (:func:`~.temporal.count_windows`); empty: no bins.
    windows: np.ndarray


class AntiEdges(NamedTuple):
    """The plan's anti-edges (edges that must be absent), CSR over the level that tests them:
    ``src -> dst`` between the times of levels ``lo_level`` and ``hi_level``, within ``w``
    of the latter where ``w_on``."""

    ptr: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    lo_level: np.ndarray
    hi_level: np.ndarray
    w_on: np.ndarray
    w: np.ndarray


class MotifTree(NamedTuple):
    """Plain motifs (no labels, node conditions or anti-edges; one tie policy) merged on their
    common prefixes (a trie, as Mayura's motif tree): node ``j`` stands for edge ``depth[j]`` of
    every motif through it, with that level's fields of :class:`TemporalPlanArrays`; node 0 is
    the root edge ``(0, 1)`` shared by all. A walk of the tree matches each shared prefix once
    (:func:`_run_tree`)."""

    esrc: np.ndarray
    edst: np.ndarray
    src_new: np.ndarray
    dst_new: np.ndarray
    source: np.ndarray
    gap_on: np.ndarray
    gap: np.ndarray
    #: children of node j: ``child[child_ptr[j]:child_ptr[j + 1]]``
    child_ptr: np.ndarray
    child: np.ndarray
    #: motifs ending at node j: ``motif[end_ptr[j]:end_ptr[j + 1]]``
    end_ptr: np.ndarray
    motif: np.ndarray
    #: most motif nodes and edges over the motifs
    k: int
    l: int  # noqa: E741
    tie: int
    delta_on: bool
    delta: np.generic
    #: ascending windows the counts are binned by (as :class:`TemporalPlanArrays`)
    windows: np.ndarray


class TemporalArgs(NamedTuple):
    """Everything a temporal walk reads besides its run, built once per engine call. The
    kernels take its fields as four arguments (``*args``): numba's parallel loops pass tuples
    of arrays one level deep only."""

    graph: TemporalGraphArrays
    plan: TemporalPlanArrays
    anti: AntiEdges
    walk: WalkIndex


class Window(NamedTuple):
    """The time window of a level: ``t - t0 <= delta`` and ``t - tp <= gap`` where on."""

    t0: np.generic
    tp: np.generic
    delta_on: bool
    delta: np.generic
    gap_on: bool
    gap: np.generic


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
def _in_window(t, win):
    if win.delta_on and _past(t, win.t0, win.delta):
        return False
    if win.gap_on and _past(t, win.tp, win.gap):
        return False
    return True


@njit(cache=True, inline="always")
def _edge_at(arr, p):
    """The edge id at position ``p`` of a list: ``arr[p]``, or ``p`` itself for the global
    list (``arr`` None: numba compiles that case with the branch pruned)."""
    if arr is None:
        return p
    return arr[p]


@njit(cache=True)
def _window_end(arr, lo, hi, time, win):
    """First position p in [lo, hi) whose edge (``arr[p]``; ``arr`` None: ``p``) leaves the
    window (hi if none). Galloping from ``lo`` (windows are usually short), then binary search.
    """
    if not win.delta_on and not win.gap_on:
        return hi
    step = 1
    while lo < hi:
        probe = lo + step - 1
        if probe >= hi:
            probe = hi - 1
        if _in_window(time[_edge_at(arr, probe)], win):
            lo = probe + 1
            step <<= 1
        else:
            hi = probe
            break
    while lo < hi:
        mid = (lo + hi) >> 1
        if _in_window(time[_edge_at(arr, mid)], win):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def _node_ok(v, a, g_nlab, has_nlab, p_nlab, has_allow, allow):
    """Graph node ``v`` may be the image of motif node ``a`` (label, allowed set)."""
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


@njit(cache=True, inline="always")
def _lists(graph):
    """The graph's out- and in-lists (CSR of edge ids) as the kernels name them:
    ``out_ptr, out_edges, in_ptr, in_edges``."""
    return graph.out_ptr, graph.out_edges, graph.in_ptr, graph.in_edges


@njit(cache=True)
def _anti_ok(level, eid, fmap, graph, anti):
    """False if some anti-edge checked at ``level`` is present in the graph."""
    src, dst, time = graph.src, graph.dst, graph.time
    out_ptr, out_edges, in_ptr, in_edges = _lists(graph)
    a_src, a_dst, a_lo, a_hi, a_w_on, a_w = (
        anti.src,
        anti.dst,
        anti.lo_level,
        anti.hi_level,
        anti.w_on,
        anti.w,
    )
    for j in range(anti.ptr[level], anti.ptr[level + 1]):
        u = fmap[a_src[j]]
        w = fmap[a_dst[j]]
        tlo = time[eid[a_lo[j]]]
        thi = time[eid[a_hi[j]]]
        won = a_w_on[j] != 0
        lim = a_w[j]
        # walk the shorter of u's out-list and w's in-list for an edge u -> w
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
def _run_range(graph, plan, anti, walk, run):
    """DFS over root edges ``[run.lo, run.hi)`` (``run.mode`` as in :class:`~.calls.RootRun`).

    ``stop[0]`` set (a chunk found a match, or the host was interrupted) ends the run within
    ``POLL_MASK + 1`` steps with status ``STOPPED``.
    Returns (count, rows_end, next_root, status).
    """
    # the fields as locals, under the names the walk has always used
    src, dst, time, next_id = graph.src, graph.dst, graph.time, graph.next_id
    out_ptr, out_edges, in_ptr, in_edges = _lists(graph)
    g_elab, has_elab = graph.edge_label, graph.has_edge_label
    k, l, tie, esrc, edst = plan.k, plan.l, plan.tie, plan.esrc, plan.edst  # noqa: E741
    src_new, dst_new, source = plan.src_new, plan.dst_new, plan.source
    delta_on, delta, gap_on, gap = plan.delta_on, plan.delta, plan.gap_on, plan.gap
    p_elab, p_nlab, has_allow, allow = plan.edge_label, plan.node_label, plan.has_allow, plan.allow
    windows = plan.windows
    nwin = len(windows)
    g_nlab, has_nlab = graph.node_label, graph.has_node_label
    pos_out, pos_in, out_after_in, in_after_out = walk
    anti_ptr = anti.ptr
    lo, hi, mode, out, stop = run.lo, run.hi, run.mode, run.out, run.stop
    row0, cap, cap_is_limit = run.row0, run.cap, run.cap_is_limit
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
            return cnt, rows, e0, STOPPED
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
        ok0 = anti_ptr[1] == anti_ptr[0] or _anti_ok(Z, eid, fmap, graph, anti)
        if not ok0:
            fmap[esrc[0]] = -1
            fmap[edst[0]] = -1
            continue
        if l == 1:  # the root edge alone is the match
            if mode == ENUMERATE:
                if rows >= cap:
                    fmap[esrc[0]] = -1
                    fmap[edst[0]] = -1
                    if cap_is_limit:
                        return cnt, rows, e0, LIMIT
                    return cnt, rows, e0, FULL
                out[rows, 0] = e0
                rows += 1
            elif nwin > 0:  # a span of 0 is within every window
                out[row0, 0] += 1
            cnt += 1
            fmap[esrc[0]] = -1
            fmap[edst[0]] = -1
            if mode == EXISTS:
                stop[0] = 1
                return cnt, rows, e0 + 1, DONE
            continue
        root_rows = rows  # a full buffer rolls back to here (FULL): the host re-runs e0
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
                return cnt, rows, e0, STOPPED
            if entering:
                entering = False
                prev = eid[level - 1]
                # every list is sorted by edge id, i.e. by time, so the tie rule is a lower
                # bound on ids: strictly later time (next_id) or, input order, a later id
                lo_id = next_id[prev] if tie == 0 else prev + 1
                sc = source[level]
                if sc == 3:  # both endpoints mapped: walk the shorter whole list
                    u = fmap[esrc[level]]
                    w = fmap[edst[level]]
                    sc = 0 if out_ptr[u + 1] - out_ptr[u] <= in_ptr[w + 1] - in_ptr[w] else 1
                # the range ends at the first edge past the window (delta from the root's
                # time, gap from the previous edge's): later ids have later times
                win = Window(t0, time[prev], delta_on, delta, gap_on[level] != 0, gap[level])
                # start next to the previous edge when it touches the list's node (Mackey-style
                # walk: the walk index says where), else search the list. The two lists are
                # written out, not picked into variables or passed to a helper: numba counts
                # references to array variables, which made the walk 15-20% slower
                if sc == 0:  # the out-list of esrc's image u
                    u = fmap[esrc[level]]
                    a, b = out_ptr[u], out_ptr[u + 1]
                    if src[prev] == u:
                        a = _gallop_id(out_edges, pos_out[prev] + 1, b, lo_id)
                    elif dst[prev] == u:
                        a = _gallop_id(out_edges, out_after_in[prev], b, lo_id)
                    else:
                        a = _lower_id(out_edges, a, b, lo_id)
                    b = _window_end(out_edges, a, b, time, win)
                elif sc == 1:  # the in-list of edst's image w
                    w = fmap[edst[level]]
                    a, b = in_ptr[w], in_ptr[w + 1]
                    if dst[prev] == w:
                        a = _gallop_id(in_edges, pos_in[prev] + 1, b, lo_id)
                    elif src[prev] == w:
                        a = _gallop_id(in_edges, in_after_out[prev], b, lo_id)
                    else:
                        a = _lower_id(in_edges, a, b, lo_id)
                    b = _window_end(in_edges, a, b, time, win)
                else:  # both endpoints new: the global edge list (ids are positions)
                    a = lo_id
                    b = _window_end(None, lo_id, m, time, win)
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
                ok = _anti_ok(level, eid, fmap, graph, anti)
                if not ok:
                    if src_new[level]:
                        fmap[esrc[level]] = -1
                    if dst_new[level]:
                        fmap[edst[level]] = -1
                    pos[level] = p + 1
                    continue
            if level == l - 1:  # a full match
                if mode == ENUMERATE:
                    # checked before writing: the limit ends the run; else FULL drops this
                    # root's rows and count (back to root_rows, root_cnt) for a re-run of e0
                    if rows >= cap:
                        for j in range(k):
                            fmap[j] = -1
                        if cap_is_limit:
                            return cnt, rows, e0, LIMIT
                        return root_cnt, root_rows, e0, FULL
                    for j in range(l):
                        out[rows, j] = eid[j]
                    rows += 1
                elif nwin > 0:  # the smallest window the match's span fits in
                    j = 0
                    while j < nwin and _past(time[e], t0, windows[j]):
                        j += 1
                    if j < nwin:
                        out[row0, j] += 1
                cnt += 1
                if mode == EXISTS:
                    stop[0] = 1  # the other chunks stop at their next look at the flag
                    for j in range(k):
                        fmap[j] = -1
                    return cnt, rows, e0 + 1, DONE
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
    return cnt, rows, hi, DONE


@njit(cache=True)
def _run_tree(graph, tree, walk, lo, hi, out, row0, stop):
    """The motifs of ``tree`` over root edges ``[lo, hi)``, each shared prefix matched once.

    Motif ``m``'s matches add to ``out[row0 + m, nwin]`` (its count) and to the bin of the
    narrowest window its span fits, ``out[row0 + m, j]``. The same steps as :func:`_run_range`
    (candidate ranges found once per level and cached, the walk index, the tie rule, windows),
    with one more loop per level: over the children of the tree node matched at the level
    above. Returns a status (``STOPPED`` when the stop flag was seen).
    """
    src, dst, time, next_id = graph.src, graph.dst, graph.time, graph.next_id
    out_ptr, out_edges, in_ptr, in_edges = _lists(graph)
    pos_out, pos_in, out_after_in, in_after_out = walk
    windows = tree.windows
    nwin = len(windows)
    tie, delta_on, delta = tree.tie, tree.delta_on, tree.delta
    child_ptr, child, end_ptr, motif = tree.child_ptr, tree.child, tree.end_ptr, tree.motif
    m = len(src)
    fmap = np.full(max(tree.k, 2), -1, np.int64)
    eid = np.zeros(tree.l, np.int64)
    at = np.zeros(tree.l, np.int64)  # the tree node matched (or tried) at each level
    nxt = np.zeros(tree.l, np.int64)  # the next child position to try at each level
    pos = np.zeros(tree.l, np.int64)
    end = np.zeros(tree.l, np.int64)
    kind = np.zeros(tree.l, np.int64)
    steps = 0
    for e0 in range(lo, hi):
        if stop[0] != 0:
            return STOPPED
        if src[e0] == dst[e0]:
            continue
        fmap[0] = src[e0]
        fmap[1] = dst[e0]
        eid[0] = e0
        t0 = time[e0]
        for q in range(end_ptr[0], end_ptr[1]):  # one-edge motifs: a span of 0
            out[row0 + motif[q], nwin] += 1
            if nwin > 0:
                out[row0 + motif[q], 0] += 1
        at[0] = 0
        level = 1
        nxt[1] = child_ptr[0]
        entering = True
        while level >= 1:
            steps += 1
            if (steps & POLL_MASK) == 0 and stop[0] != 0:
                return STOPPED
            if entering:
                entering = False
                if nxt[level] >= child_ptr[at[level - 1] + 1]:  # every child tried: back up
                    level -= 1
                    if level >= 1:
                        y = at[level]
                        if tree.src_new[y]:
                            fmap[tree.esrc[y]] = -1
                        if tree.dst_new[y]:
                            fmap[tree.edst[y]] = -1
                        pos[level] += 1
                    continue
                y = child[nxt[level]]
                at[level] = y
                prev = eid[level - 1]
                lo_id = next_id[prev] if tie == 0 else prev + 1
                sc = tree.source[y]
                if sc == 3:
                    u = fmap[tree.esrc[y]]
                    w = fmap[tree.edst[y]]
                    sc = 0 if out_ptr[u + 1] - out_ptr[u] <= in_ptr[w + 1] - in_ptr[w] else 1
                win = Window(t0, time[prev], delta_on, delta, tree.gap_on[y] != 0, tree.gap[y])
                if sc == 0:
                    u = fmap[tree.esrc[y]]
                    a, b = out_ptr[u], out_ptr[u + 1]
                    if src[prev] == u:
                        a = _gallop_id(out_edges, pos_out[prev] + 1, b, lo_id)
                    elif dst[prev] == u:
                        a = _gallop_id(out_edges, out_after_in[prev], b, lo_id)
                    else:
                        a = _lower_id(out_edges, a, b, lo_id)
                    b = _window_end(out_edges, a, b, time, win)
                elif sc == 1:
                    w = fmap[tree.edst[y]]
                    a, b = in_ptr[w], in_ptr[w + 1]
                    if dst[prev] == w:
                        a = _gallop_id(in_edges, pos_in[prev] + 1, b, lo_id)
                    elif src[prev] == w:
                        a = _gallop_id(in_edges, in_after_out[prev], b, lo_id)
                    else:
                        a = _lower_id(in_edges, a, b, lo_id)
                    b = _window_end(in_edges, a, b, time, win)
                else:
                    a = lo_id
                    b = _window_end(None, lo_id, m, time, win)
                pos[level] = a
                end[level] = b
                kind[level] = sc
            p = pos[level]
            if p >= end[level]:  # this child's candidates are done: the next child
                nxt[level] += 1
                entering = True
                continue
            y = at[level]
            kd = kind[level]
            e = out_edges[p] if kd == 0 else (in_edges[p] if kd == 1 else p)
            s = src[e]
            d = dst[e]
            if tree.src_new[y]:
                if _is_mapped(s, fmap, tree.k):
                    pos[level] = p + 1
                    continue
            elif s != fmap[tree.esrc[y]]:
                pos[level] = p + 1
                continue
            if tree.dst_new[y]:
                if d == s or _is_mapped(d, fmap, tree.k):
                    pos[level] = p + 1
                    continue
            elif d != fmap[tree.edst[y]]:
                pos[level] = p + 1
                continue
            fmap[tree.esrc[y]] = s
            fmap[tree.edst[y]] = d
            eid[level] = e
            if end_ptr[y + 1] > end_ptr[y]:  # motifs ending here: count and bin
                j = 0
                while j < nwin and _past(time[e], t0, windows[j]):
                    j += 1
                for q in range(end_ptr[y], end_ptr[y + 1]):
                    out[row0 + motif[q], nwin] += 1
                    if j < nwin:
                        out[row0 + motif[q], j] += 1
            if child_ptr[y + 1] > child_ptr[y]:  # longer motifs go on from here
                level += 1
                nxt[level] = child_ptr[y]
                entering = True
                continue
            if tree.src_new[y]:
                fmap[tree.esrc[y]] = -1
            if tree.dst_new[y]:
                fmap[tree.edst[y]] = -1
            pos[level] = p + 1
        fmap[0] = -1
        fmap[1] = -1
    return DONE


@njit(cache=True, parallel=True, nogil=True)
def run_tree_chunks(bounds, graph, tree, walk, out, nmotifs, stop):
    """:func:`_run_tree` over every chunk ``[bounds[c], bounds[c + 1])`` in parallel, chunk
    ``c`` counting into rows ``c * nmotifs ..`` of ``out``; the status per chunk."""
    nch = len(bounds) - 1
    res = np.zeros(nch, np.int64)
    for c in prange(nch):
        res[c] = _run_tree(graph, tree, walk, bounds[c], bounds[c + 1], out, c * nmotifs, stop)
    return res


# The chunk drivers: each engine keeps its own (see calls.py, "Why each engine keeps ...").
@njit(cache=True, parallel=True, nogil=True)
def run_chunks(bounds, graph, plan, anti, walk, mode, out, offsets, stop):
    """The walk of every chunk ``[bounds[c], bounds[c + 1])`` in parallel (``mode`` as in
    :class:`~.calls.RootRun`; rows at ``out[offsets[c]:offsets[c + 1]]``).

    Returns int64 ``(3 + WIDE_LIMBS, chunks)``: count, rows end and status per chunk, then the
    chunk's wide limbs (the result protocol of :class:`~.calls.WalkKernels`; this walk never
    spills, so they stay zero).
    """
    nch = len(bounds) - 1
    res = np.zeros((3 + WIDE_LIMBS, nch), np.int64)
    for c in prange(nch):
        run = chunk_run(bounds, c, mode, out, offsets, stop)
        count, rows, _, status = _run_range(graph, plan, anti, walk, run)
        res[0, c] = count
        res[1, c] = rows
        res[2, c] = status
    return res


@njit(cache=True, nogil=True)
def run_serial(graph, plan, anti, walk, run):
    """One :class:`~.calls.RootRun` on this thread: ``(count, rows_end, next_root, status)``."""
    return _run_range(graph, plan, anti, walk, run)


# ---------------------------------------------------------------------- walk index
@njit(cache=True, inline="always")
def _first_after(edges, lo, hi, other, olo, ohi, after):
    """For each edge id ``e`` of the ascending ``edges[lo:hi]``, ``after[e]`` = the first
    position of the ascending ``other[olo:ohi]`` holding an id above ``e`` (one merge)."""
    j = olo
    for i in range(lo, hi):
        e = edges[i]
        while j < ohi and other[j] <= e:
            j += 1
        after[e] = j


@njit(cache=True, parallel=True, nogil=True)
def build_walk_index(graph, walk):
    """Fill ``walk`` (:class:`WalkIndex`, int64 per edge id) from the graph's lists."""
    out_ptr, out_edges, in_ptr, in_edges = _lists(graph)
    pos_out, pos_in, out_after_in, in_after_out = (
        walk.pos_out,
        walk.pos_in,
        walk.out_after_in,
        walk.in_after_out,
    )
    n = len(out_ptr) - 1
    for v in prange(n):
        oa, ob = out_ptr[v], out_ptr[v + 1]
        ia, ib = in_ptr[v], in_ptr[v + 1]
        for j in range(oa, ob):
            pos_out[out_edges[j]] = j
        for j in range(ia, ib):
            pos_in[in_edges[j]] = j
        # for e entering v, the first out-position with id > e; and vice versa
        _first_after(in_edges, ia, ib, out_edges, oa, ob, out_after_in)
        _first_after(out_edges, oa, ob, in_edges, ia, ib, in_after_out)
