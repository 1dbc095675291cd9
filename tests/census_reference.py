"""The CPU engine's 3-edge census as it was before issue 38 (item 5): every triple enumerated.

A verbatim copy of ``_census_range`` / ``census_chunks`` (and the two list helpers they used)
from ``nx_gpumine/engines/cpu/temporal_walk.py``, kept as the reference of the differential
tests (``tests/test_census_multiplicity.py``): the census that replaced it counts parallel
edges per node pair instead, and must give exactly these numbers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from nx_gpumine.engines.cpu.temporal_walk import Window, _lower_id, _window_end
from nx_gpumine.plan.temporal_plan import CENSUS_TABLE, census_window, encode_limit, time_span


class CensusQuery(NamedTuple):
    """What the 3-edge census counts: the tie rule, the window and the motif table."""

    #: 0 strict, 1 input order.
    tie: int
    delta_on: bool
    delta: np.generic
    #: Motif index of each pair of edge codes (``plan.temporal_plan.CENSUS_TABLE``).
    table: np.ndarray


@njit(inline="always")
def _touching(graph, v, incoming):
    """``v``'s in-list (``incoming``) or out-list: ``(edge ids, start, end)``."""
    if incoming:
        return graph.in_edges, graph.in_ptr[v], graph.in_ptr[v + 1]
    return graph.out_edges, graph.out_ptr[v], graph.out_ptr[v + 1]


@njit(inline="always")
def _window_list(graph, v, incoming, lo_id, win):
    """``v``'s in-list (``incoming``) or out-list and the positions ``[p, q)`` of its edges
    with ids ``>= lo_id`` inside the window: ``(edge ids, p, q)``."""
    arr, a, b = _touching(graph, v, incoming)
    p = _lower_id(arr, a, b, lo_id)
    return arr, p, _window_end(arr, p, b, graph.time, win)


@njit
def _census_range(graph, query, lo, hi, counts, stop):
    """Add the 3-edge census of roots [lo, hi) into counts (36,); stops early on ``stop[0]``."""
    src, dst, time, next_id = graph.src, graph.dst, graph.time, graph.next_id
    tie, table = query.tie, query.table
    S = np.zeros(3, np.int64)
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
        win = Window(t0, t0, query.delta_on, query.delta, False, query.delta)
        S[0] = u
        S[1] = v
        lo1 = next_id[e0] if tie == 0 else e0 + 1
        for j1 in range(4):
            arr1, p1, q1 = _window_list(graph, S[j1 >> 1], (j1 & 1) == 1, lo1, win)
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
                    arr2, p2, q2 = _window_list(graph, S[j2 >> 1], (j2 & 1) == 1, lo2, win)
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


@njit(parallel=True, nogil=True)
def old_census_chunks(bounds, graph, query, stop):
    """The census of every chunk ``[bounds[c], bounds[c + 1])`` in parallel: int64
    ``(chunks, 36)``."""
    nch = len(bounds) - 1
    counts = np.zeros((nch, 36), np.int64)
    for c in prange(nch):
        _census_range(graph, query, bounds[c], bounds[c + 1], counts[c], stop)
    return counts


def old_census(graph, delta, tie="strict", lo=0, hi=None):
    """The old engine's census of roots ``[lo, hi)`` (int64, ``CENSUS_KEYS`` order)."""
    from nx_gpumine.engines.cpu.calls import new_stop
    from nx_gpumine.engines.cpu.temporal import _graph_arrays

    delta = census_window(graph, delta, tie)
    hi = graph.m if hi is None else hi
    if hi <= lo:
        return np.zeros(36, dtype=np.int64)
    on, d = encode_limit(delta, graph.integer_times, time_span(graph))
    query = CensusQuery(0 if tie == "strict" else 1, on, graph.time.dtype.type(d), CENSUS_TABLE)
    bounds = np.array([lo, hi], dtype=np.int64)
    counts = old_census_chunks(bounds, _graph_arrays(graph), query, new_stop())
    return counts.sum(axis=0)
