"""The census's 4-cycle building blocks (numba, host): one walk over each node's 2-paths.

For each node ``v`` the 2-paths ``v - a - x`` are counted by their far end (``w_vx``, the
common neighbours of ``v`` and ``x``); from them, for every node ``v`` (``d`` degrees, ``t_e``
the triangles on edge ``e``, ``T_e`` its common neighbours):

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
``x``, over the shorter row).
Both engines use it (the CUDA engine as a host step, as for its other 5-node sums). Totals are
exact (Python integers over the per-node int64 values); a graph whose per-node values could
pass 64 bits raises :class:`~nx_gpumine.errors.CapacityError`.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
from numba import njit, prange

from ..checks import overflow_error
from ..degree_sums import exact_dot
from .local_counts import _two_paths
from .orbit_counts import _chunks

__all__ = ["CYCLE_BLOCKS", "cycle_blocks"]

#: The blocks :func:`cycle_blocks` gives.
CYCLE_BLOCKS = frozenset(
    {"cycles4", "cycle_tails", "k23", "house_sum", "tri_deg", "books3", "cycles5"}
)

#: Largest bound on a per-node value accepted (a factor 2 of headroom to 2**63 - 1).
_SAFE_BOUND = float(2**62)


@njit(cache=True, parallel=True)
def _cycle_rows(
    indptr: np.ndarray,
    indices: np.ndarray,
    t: np.ndarray,
    nchunks: int,
    edge_terms: bool,
    trace5: bool,
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
        cnt = np.zeros(n, dtype=np.int64)
        touched = np.empty(n, dtype=np.int64)
        nbr = np.zeros(n, dtype=np.bool_)
        for v in range(ch, n, nchunks):
            dv = indptr[v + 1] - indptr[v]
            nt = _two_paths(indptr, indices, v, cnt, touched)
            for e in range(indptr[v], indptr[v + 1]):
                nbr[indices[e]] = True
            sq = np.int64(0)
            cube = np.int64(0)
            tr = np.int64(0)
            for j in range(nt):
                x = touched[j]
                w = cnt[x]
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


def cycle_blocks(
    indptr: np.ndarray, indices: np.ndarray, t: np.ndarray, names: Collection[str]
) -> dict[str, int]:
    """The blocks of :data:`CYCLE_BLOCKS` among ``names``, exactly.

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

    Returns
    -------
    dict
        Block name to its value (Python ints).

    Raises
    ------
    CapacityError
        A per-node value could pass 64 bits.
    """
    names = set(names) & CYCLE_BLOCKS
    if not names:
        return {}
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    t = np.ascontiguousarray(t, dtype=np.int64)
    out: dict[str, int] = {}
    if "books3" in names:  # each edge in both rows
        out["books3"] = exact_dot(t, (t - 1) * (t - 2)) // 12
    if names - {"books3"}:
        deg = np.diff(indptr)
        if len(deg):
            # house_v <= d_v * max d * S_v, k23_v <= d_v^2 S_v, tdeg_v <= d_v * max d * S_v
            rows = np.repeat(np.arange(len(deg)), deg)
            reach = np.bincount(rows, weights=deg[indices].astype(float), minlength=len(deg))
            # (and the trace share of v: at most twice that, plus d_v 2 t_v)
            bound = 4.0 * float(
                np.max(deg.astype(float) * float(deg.max()) * np.maximum(reach, 1.0))
            )
            if bound >= _SAFE_BOUND:
                raise overflow_error(what="4-cycle census block")
        ones = np.ones(len(deg), dtype=np.int64)
        edge_terms = bool(names & {"house_sum", "tri_deg"})
        c4, k23, house, tdeg, tr5 = _cycle_rows(
            indptr, indices, t, _chunks(len(deg)), edge_terms, "cycles5" in names
        )
        if "cycles5" in names:
            run = np.zeros(len(t) + 1, dtype=np.int64)
            np.cumsum(t, out=run[1:])
            tv = (run[indptr[1:]] - run[indptr[:-1]]) // 2  # t_v: its entries' t_e / 2
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
