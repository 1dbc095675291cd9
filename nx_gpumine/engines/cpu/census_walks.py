"""The census's 5-node building blocks from walks (numba, host): each node's 2-paths and link.

Both engines use these (the CUDA engine as a host step of its census, beside its triangle
pass). Totals are exact (Python integers over per-node int64 values); a graph whose per-node
values could pass 64 bits raises :class:`~nx_gpumine.errors.CapacityError`. The walks run
through :func:`~.calls.run_kernel` and poll their stop flag once per node: Ctrl-C stops them
within a node's work.

**2-path blocks** (:data:`~nx_gpumine.plan.graphlets.CYCLE_BLOCKS`). For each node ``v`` the
2-paths ``v - a - x`` are counted by their far end (``w_vx``, the common neighbours of ``v``
and ``x``); from them, for every node ``v`` (``d`` degrees, ``t_e`` the triangles on edge
``e``, ``T_e`` its common neighbours):

* ``c4_v = sum_x C(w_vx, 2)``: the 4-cycles through ``v`` (``x`` the opposite node);
* ``k23_v = sum_{x > v} C(w_vx, 3)``: the ``K_{2,3}`` with hubs ``v`` and ``x``;
* ``house_v = sum_{b in N(v)} t_vb c4_vb`` with ``c4_vb = sum_{c in N(b), c != v} (w_vc - 1)``
  the 4-cycles through the edge ``v - b``;
* ``tdeg_v = sum_{b in N(v)} t_vb sum_{c in T_vb} (d_c - 2)``.

The edge terms are walked only for edges on a triangle (``t_vb > 0``). The blocks
(:data:`~nx_gpumine.plan.graphlets.CENSUS_BLOCKS`): ``cycles4 = sum c4_v / 4``,
``cycle_tails = sum c4_v (d_v - 2)``, ``k23 = sum k23_v``, ``house_sum = sum house_v / 2``,
``tri_deg = sum tdeg_v / 2`` (each edge from both ends) and ``books3 = sum_e C(t_e, 3)``.

The 5-cycles (``cycles5``) by Harary and Manvel's trace formula, ``(tr A^5 - 5 tr A^3 - 5
sum_v (d_v - 2) (A^3)_vv) / 10 = (tr A^5 - 30 triangles - 10 tailed) / 10``, with
``tr A^5 = sum over node pairs of (A^2)_vx (A^3)_vx``: from ``v``'s 2-path counts
``(A^2)_vx``, ``(A^3)_vx`` is the sum of those counts over ``x``'s row, walked only where
``x`` comes before ``v`` in (degree, id) order (the pair counted twice; the other pairs from
``x``, over the shorter row). One walk per node gives all of these.

**Link blocks** (:data:`~nx_gpumine.plan.graphlets.LINK_BLOCKS`). A node's *link* is the
subgraph on its neighbours; a triangle ``{u, x, z}`` is an edge ``x - z`` of ``u``'s link, and
``x``'s degree there is ``t_ux`` (the triangles on the edge ``u - x``). Each CSR entry
``e = (v, b)`` gets the list of its edge's common neighbours ``T_e`` (stored as the entries
``(b, w)`` of ``b``'s row, so that ``w``'s own list is at hand); then, for every node ``u``
(``d`` degrees, ``w_uy`` the common neighbours of ``u`` and ``y``) and every triangle
``{u, x, z}`` at it, ``C = T_xz & N(u)`` (the nodes closing a 4-clique with it, ``c = |C|``):

* ``cliques4`` = sum over (u, triangle) of c / 12 (each 4-clique at 4 nodes, 3 triangles each);
* ``clique_tails`` = sum_u k4_u (d_u - 3), ``k4_u`` = sum over its triangles of c / 3: the
  4-clique with a tail (G45);
* ``link_paths`` = sum over (u, triangle) of (t_ux - 1)(t_uz - 1): the 3-edge paths of every
  link, plus three per triangle of a link (a 4-clique at ``u``): the fan G47 (a hub and a
  4-node path among its neighbours) is ``link_paths - 12 cliques4``;
* ``diamond_bridges`` = sum over (u, triangle) of sum_{w in T_xz, w != u} (w_uw - 2), halved:
  a diamond (chord ``x - z``, sides ``u``, ``w``) and a further common neighbour of its sides,
  the graphlet G48 (``K_{2,3}`` with an edge between two of its three side nodes), seen from
  both sides;
* ``clique_wings`` = sum over (u, triangle) of c (t_xz - 2), halved: a 4-clique, one of its
  edges and a further common neighbour of that edge's ends (G49), each (clique, edge) seen
  from the two nodes off the edge;
* ``clique_pairs`` = sum over (u, triangle) of C(c, 2) / 3: two 4-cliques on one triangle, the
  5-clique less an edge (G51);
* ``wheels4`` = the 4-cycles of every link (a hub and a 4-cycle among its neighbours, G50):
  the link's 2-paths ``a - b - c`` counted by their far end from each ``a``, as for the
  4-cycles of a graph.

The work is ``sum_e t_e^2`` plus the 2-paths of every node; the lists take ``sum_e t_e`` (six
per triangle) entries: past :data:`MAX_LIST_ENTRIES` none of these blocks is given (the census
then counts those graphlets on the query path).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np
from numba import njit, prange

from ...plan.graphlets import CYCLE_BLOCKS, LINK_BLOCKS
from ..checks import overflow_error
from ..degree_sums import exact_dot, node_triangles
from .calls import new_stop, run_kernel
from .local_counts import _two_paths
from .orbit_counts import _chunks

__all__ = ["MAX_LIST_ENTRIES", "walk_blocks"]

#: The per-node rows of the 2-path walk, ``(c4, k23, house, tdeg, (A^5)_vv)``, from another
#: engine: called with ``(edge_terms, trace5)`` (:func:`walk_blocks`).
CycleRows = Callable[[bool, bool], tuple[np.ndarray, ...]]

#: Most triangle-list entries (``sum_e t_e``, 8 bytes each) built for the link blocks: 2 GiB.
MAX_LIST_ENTRIES = 2**28

#: Most bytes the walks' scratch arrays (a few per node, for each chunk running at once) take
#: together: fewer chunks at once beyond it (at least one).
SCRATCH_BYTES = 4 << 30

#: Largest bound on a per-node value accepted (a factor 2 of headroom to 2**63 - 1).
_SAFE_BOUND = float(2**62)


def _walk_chunks(n: int, bytes_per_node: int) -> int:
    """Node chunks of a walk: a few per thread for balance (:func:`.orbit_counts._chunks`),
    fewer where the chunks running at once would pass :data:`SCRATCH_BYTES` of scratch."""
    return max(1, min(_chunks(n), SCRATCH_BYTES // max(1, n * bytes_per_node)))


@njit(cache=True, nogil=True)
def _stopped(stop: np.ndarray) -> bool:
    """Whether the call's stop flag is set. A function of its own: read in a ``prange`` body,
    ``stop[0]`` would be hoisted out of the loop by numba's parfor pass (read once)."""
    return stop[0] != 0


@njit(cache=True, parallel=True, nogil=True)
def _cycle_rows(
    indptr: np.ndarray,
    indices: np.ndarray,
    t: np.ndarray,
    nchunks: int,
    edge_terms: bool,
    trace5: bool,
    stop: np.ndarray,
):
    """Per node: ``c4_v``, ``k23_v``, ``house_v``, ``tdeg_v`` (the last two with
    ``edge_terms``) and its share of ``tr A^5`` (with ``trace5``: its pairs' terms, twice,
    and its own ``(A^2)_vv (A^3)_vv = d_v * 2 t_v``), int64 each (module doc)."""
    n = len(indptr) - 1
    c4 = np.zeros(n, dtype=np.int64)
    k23 = np.zeros(n, dtype=np.int64)
    house = np.zeros(n, dtype=np.int64)
    tdeg = np.zeros(n, dtype=np.int64)
    tr5 = np.zeros(n, dtype=np.int64)
    for ch in prange(nchunks):
        cnt = np.zeros(n, dtype=np.int32)  # < d_v (the bound check keeps d below 2**31)
        touched = np.empty(n, dtype=np.int64)
        nbr = np.zeros(n, dtype=np.bool_)
        for v in range(ch, n, nchunks):
            if _stopped(stop):
                break
            dv = indptr[v + 1] - indptr[v]
            nt = _two_paths(indptr, indices, v, cnt, touched)
            for e in range(indptr[v], indptr[v + 1]):
                nbr[indices[e]] = True
            sq = np.int64(0)
            cube = np.int64(0)
            tr = np.int64(0)
            for j in range(nt):
                x = touched[j]
                w = np.int64(cnt[x])
                sq += w * (w - 1) // 2
                if x > v:
                    cube += w * (w - 1) * (w - 2) // 6
                if trace5:
                    dx = indptr[x + 1] - indptr[x]
                    if dx < dv or (dx == dv and x < v):  # else x's, over v's shorter row
                        a3 = dv if nbr[x] else 0  # (A^3)_vx: (A^2)_vy over y in N(x), y = v
                        for f in range(indptr[x], indptr[x + 1]):
                            a3 += cnt[indices[f]]
                        tr += 2 * w * a3
            hs = np.int64(0)
            td = np.int64(0)
            diag3 = np.int64(0)  # (A^3)_vv = 2 t_v
            for e in range(indptr[v], indptr[v + 1]):
                te = t[e]
                diag3 += te
                if te == 0 or not edge_terms:
                    continue
                b = indices[e]
                s = np.int64(0)
                g = np.int64(0)
                for f in range(indptr[b], indptr[b + 1]):
                    c = indices[f]
                    if c != v:
                        s += cnt[c] - 1  # b is one of v's and c's common neighbours
                        if nbr[c]:
                            g += indptr[c + 1] - indptr[c] - 2
                hs += te * s
                td += te * g
            for e in range(indptr[v], indptr[v + 1]):
                nbr[indices[e]] = False
            for j in range(nt):
                cnt[touched[j]] = 0
            c4[v] = sq
            k23[v] = cube
            house[v] = hs
            tdeg[v] = td
            tr5[v] = tr + dv * diag3
    return c4, k23, house, tdeg, tr5


@njit(cache=True, parallel=True, nogil=True)
def _triangle_lists(
    indptr: np.ndarray, indices: np.ndarray, tptr: np.ndarray, nchunks: int, stop: np.ndarray
) -> np.ndarray:
    """For each entry ``e = (v, b)``: the entries ``(b, w)`` of ``b``'s row with ``w`` a common
    neighbour of ``v`` and ``b``, ascending, at ``[tptr[e], tptr[e + 1])``."""
    n = len(indptr) - 1
    out = np.empty(tptr[-1], dtype=np.int64)
    for ch in prange(nchunks):
        mark = np.zeros(n, dtype=np.bool_)
        for v in range(ch, n, nchunks):
            if _stopped(stop):
                break
            for e in range(indptr[v], indptr[v + 1]):
                mark[indices[e]] = True
            for e in range(indptr[v], indptr[v + 1]):
                k = tptr[e]
                if k == tptr[e + 1]:
                    continue  # no triangle on the edge: an empty list
                b = indices[e]
                for f in range(indptr[b], indptr[b + 1]):
                    if mark[indices[f]]:
                        out[k] = f
                        k += 1
            for e in range(indptr[v], indptr[v + 1]):
                mark[indices[e]] = False
    return out


@njit(cache=True, parallel=True, nogil=True)
def _link_rows(
    indptr: np.ndarray,
    indices: np.ndarray,
    t: np.ndarray,
    tptr: np.ndarray,
    tlist: np.ndarray,
    nchunks: int,
    stop: np.ndarray,
) -> np.ndarray:
    """Per node ``u`` (columns): the sums over its triangles of c, C(c, 2), c (t_xz - 2),
    (t_ux - 1)(t_uz - 1) and sum_w (w_uw - 2), and its link's 4-cycle term (module doc)."""
    n = len(indptr) - 1
    rows = np.zeros((n, 6), dtype=np.int64)
    for ch in prange(nchunks):
        cnt = np.zeros(n, dtype=np.int64)
        touched = np.empty(n, dtype=np.int64)
        cnt2 = np.zeros(n, dtype=np.int64)
        touched2 = np.empty(n, dtype=np.int64)
        at = np.zeros(n, dtype=np.int64)  # 1 + the entry (u, y) of each neighbour y, else 0
        for u in range(ch, n, nchunks):
            if _stopped(stop):
                break
            nt = _two_paths(indptr, indices, u, cnt, touched)
            for e in range(indptr[u], indptr[u + 1]):
                at[indices[e]] = e + 1
            k4 = np.int64(0)
            pairs = np.int64(0)
            wings = np.int64(0)
            paths = np.int64(0)
            bridges = np.int64(0)
            wheels = np.int64(0)
            for p in range(indptr[u], indptr[u + 1]):  # x = indices[p]
                x = indices[p]
                for i in range(tptr[p], tptr[p + 1]):  # z in T_ux: f = the entry (x, z)
                    f = tlist[i]
                    z = indices[f]
                    if z < x:
                        continue  # each triangle at u once
                    c = np.int64(0)
                    for j in range(tptr[f], tptr[f + 1]):  # w in T_xz
                        w = indices[tlist[j]]
                        if w != u:
                            bridges += cnt[w] - 2  # x and z are common neighbours of u, w
                            if at[w] != 0:
                                c += 1
                    k4 += c
                    pairs += c * (c - 1) // 2
                    wings += c * (t[f] - 2)
                    paths += (t[p] - 1) * (t[at[z] - 1] - 1)
                # the link's 2-paths x - b - c (b in T_ux, c in T_ub), counted by their end c
                m = 0
                for i in range(tptr[p], tptr[p + 1]):
                    q = at[indices[tlist[i]]] - 1  # the entry (u, b)
                    for j in range(tptr[q], tptr[q + 1]):
                        y = indices[tlist[j]]
                        if y != x:
                            if cnt2[y] == 0:
                                touched2[m] = y
                                m += 1
                            cnt2[y] += 1
                for j in range(m):
                    y = touched2[j]
                    if y > x:
                        wheels += cnt2[y] * (cnt2[y] - 1) // 2
                    cnt2[y] = 0
            for e in range(indptr[u], indptr[u + 1]):
                at[indices[e]] = 0
            for j in range(nt):
                cnt[touched[j]] = 0
            rows[u, 0] = k4
            rows[u, 1] = pairs
            rows[u, 2] = wings
            rows[u, 3] = paths
            rows[u, 4] = bridges
            rows[u, 5] = wheels
    return rows


def _cycle_totals(
    indptr: np.ndarray,
    indices: np.ndarray,
    t: np.ndarray,
    names: set[str],
    rows: CycleRows | None,
) -> dict[str, int]:
    """The blocks of :data:`CYCLE_BLOCKS` among ``names`` (:func:`walk_blocks`)."""
    names = set(names) & CYCLE_BLOCKS
    if not names:
        return {}
    out: dict[str, int] = {}
    if "books3" in names:  # each edge in both rows
        out["books3"] = exact_dot(t, (t - 1) * (t - 2)) // 12
    if names - {"books3"}:
        deg = np.diff(indptr)
        if len(deg):
            # house_v <= d_v * max d * S_v, k23_v <= d_v^2 S_v, tdeg_v <= d_v * max d * S_v
            owner = np.repeat(np.arange(len(deg)), deg)
            reach = np.bincount(owner, weights=deg[indices].astype(float), minlength=len(deg))
            # (and the trace share of v: at most twice that, plus d_v 2 t_v)
            bound = 4.0 * float(
                np.max(deg.astype(float) * float(deg.max()) * np.maximum(reach, 1.0))
            )
            if bound >= _SAFE_BOUND:
                raise overflow_error(what="4-cycle census block")
        ones = np.ones(len(deg), dtype=np.int64)
        edge_terms = bool(names & {"house_sum", "tri_deg"})
        if rows is not None:  # another engine's walk (the CUDA engine's census_walk2)
            c4, k23, house, tdeg, tr5 = rows(edge_terms, "cycles5" in names)
        else:  # this module's (numba, all cores)
            stop = new_stop()
            c4, k23, house, tdeg, tr5 = run_kernel(
                _cycle_rows, indptr, indices, t, _walk_chunks(len(deg), 17), edge_terms,
                "cycles5" in names, stop, stop=stop,
            )  # fmt: skip
        if "cycles5" in names:
            tv = node_triangles(indptr, t)
            triangles = int(t.sum()) // 6  # each triangle on three edges, each edge twice
            trace5 = exact_dot(tr5, ones)
            out["cycles5"] = (trace5 - 30 * triangles - 10 * exact_dot(tv, deg - 2)) // 10
        if "cycles4" in names:
            out["cycles4"] = exact_dot(c4, ones) // 4
        if "cycle_tails" in names:
            out["cycle_tails"] = exact_dot(c4, deg - 2)
        if "k23" in names:
            out["k23"] = exact_dot(k23, ones)
        if "house_sum" in names:
            out["house_sum"] = exact_dot(house, ones) // 2
        if "tri_deg" in names:
            out["tri_deg"] = exact_dot(tdeg, ones) // 2
    return out


def _link_totals(
    indptr: np.ndarray, indices: np.ndarray, t: np.ndarray, names: set[str]
) -> dict[str, int]:
    """The blocks of :data:`LINK_BLOCKS` among ``names`` (:func:`walk_blocks`)."""
    names = set(names) & LINK_BLOCKS
    n = len(indptr) - 1
    if not names or n == 0 or int(t.sum()) > MAX_LIST_ENTRIES:
        return {}
    deg = np.diff(indptr)
    tmax = float(t.max()) if len(t) else 0.0
    # per node: its triangles (at most d_u tmax / 2) times at most tmax max(tmax, d)
    if float(deg.max()) * tmax * tmax * max(tmax, float(deg.max()), 1.0) >= _SAFE_BOUND:
        raise overflow_error(what="link census block")
    tptr = np.zeros(len(t) + 1, dtype=np.int64)
    np.cumsum(t, out=tptr[1:])
    stop = new_stop()
    tlist = run_kernel(_triangle_lists, indptr, indices, tptr, _walk_chunks(n, 1), stop, stop=stop)
    rows = run_kernel(
        _link_rows, indptr, indices, t, tptr, tlist, _walk_chunks(n, 40), stop, stop=stop
    )
    ones = np.ones(n, dtype=np.int64)

    def total(col: int) -> int:
        return exact_dot(np.ascontiguousarray(rows[:, col]), ones)

    out = {}
    if "cliques4" in names:
        out["cliques4"] = total(0) // 12
    if "clique_tails" in names:  # k4_u = (its triangles' c) / 3
        out["clique_tails"] = exact_dot(np.ascontiguousarray(rows[:, 0]), deg - 3) // 3
    if "clique_pairs" in names:
        out["clique_pairs"] = total(1) // 3
    if "clique_wings" in names:
        out["clique_wings"] = total(2) // 2
    if "link_paths" in names:
        out["link_paths"] = total(3)
    if "diamond_bridges" in names:
        out["diamond_bridges"] = total(4) // 2
    if "wheels4" in names:
        out["wheels4"] = total(5) // 2
    return out


def walk_blocks(
    indptr: np.ndarray,
    indices: np.ndarray,
    t: np.ndarray,
    names: Collection[str],
    cycle_rows: CycleRows | None = None,
) -> dict[str, int]:
    """The blocks of :data:`~nx_gpumine.plan.graphlets.WALK_BLOCKS` among ``names``, exactly
    (the link blocks none past :data:`MAX_LIST_ENTRIES` triangle-list entries).

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR of an undirected simple graph (both directions, sorted rows, no
        self-loops: a :class:`~nx_gpumine.inputs.static_graph.StaticGraph`'s).
    t : numpy.ndarray
        The triangles on each CSR entry's edge
        (:func:`~nx_gpumine.engines.cpu.orbit_counts.edge_triangle_counts`).
    names : collection of str
        The blocks wanted.
    cycle_rows : callable, optional
        ``cycle_rows(edge_terms, trace5)``: the per-node rows of the 2-path walk
        (``c4, k23, house, tdeg, (A^5)_vv``, int64 NumPy arrays) from another engine; by
        default this module's numba walk.

    Returns
    -------
    dict
        Block name to its value (Python ints).

    Raises
    ------
    CapacityError
        A per-node value could pass 64 bits.
    """
    names = set(names)
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    t = np.ascontiguousarray(t, dtype=np.int64)
    out = _cycle_totals(indptr, indices, t, names, cycle_rows)
    out.update(_link_totals(indptr, indices, t, names - set(out)))
    return out
