"""Seeded generators of benchmark and test graphs.

:func:`skewed_temporal_graph` models a message network (power-law endpoint popularity, reply /
forward / cycle-closing cascades) for the temporal engines' benchmarks and tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .temporal_graph import TemporalGraph, temporal_from_arrays

__all__ = ["skewed_temporal_graph"]


@njit(cache=True)
def _cascade(n, t, r, fu, fv, off, q, fix, p_fresh):
    """Endpoints of the cascade model from pre-drawn random numbers (see skewed_temporal_graph)."""
    m = len(t)
    src = np.empty(m, np.int64)
    dst = np.empty(m, np.int64)
    par = np.full(m, -1, np.int64)
    for i in range(m):
        if i == 0 or r[i] < p_fresh:
            u, v = fu[i], fv[i]
        else:
            j = i - 1 - min(off[i], i - 1)
            if q[i] < 0.35:  # reply
                u, v = dst[j], src[j]
            elif q[i] < 0.75 or par[j] < 0:  # forward
                u, v = dst[j], fv[i]
                par[i] = j
            else:  # close the cycle opened by j's parent
                u, v = dst[j], src[par[j]]
        if u == v:
            v = (v + 1 + fix[i]) % n
        src[i] = u
        dst[i] = v
    return src, dst


def skewed_temporal_graph(
    n: int = 100_000,
    m: int = 1_000_000,
    gamma: float = 2.3,
    seed: int = 7,
    mean_gap: float = 30.0,
) -> TemporalGraph:
    """Seeded temporal graph with power-law endpoint popularity and reply/forward cascades.

    Edge ``i`` comes ``Exp(mean_gap)`` seconds after edge ``i-1`` (integer seconds, so some
    ties). With probability 0.3 both endpoints are fresh draws with weight
    ``rank ** (-1 / (gamma - 1))`` (ranks shuffled over ids); otherwise it reacts to a recent edge
    ``j`` (``i - j`` geometric, mean 20): a reply ``dst_j -> src_j``, a forward
    ``dst_j -> fresh``, or, after a forward, closing the cycle ``dst_j -> src_parent(j)``. This
    gives the hubs and the temporal triangles/cycles of message networks.

    Parameters
    ----------
    n, m : int
        Vertices and temporal edges.
    gamma : float
        Power-law exponent of endpoint popularity.
    seed : int
        Random seed (same arguments, same graph).
    mean_gap : float
        Mean seconds between consecutive edges.

    Returns
    -------
    TemporalGraph
    """
    rng = np.random.default_rng(seed)
    w = np.arange(1, n + 1, dtype=np.float64) ** (-1.0 / (gamma - 1.0))
    cum = np.cumsum(w / w.sum())
    cum[-1] = 1.0
    perm = rng.permutation(n)
    t = np.cumsum(rng.exponential(mean_gap, m)).astype(np.int64)

    def fresh():
        return np.searchsorted(cum, rng.random(m)).astype(np.int64)

    r, fu, fv = rng.random(m), fresh(), fresh()
    off, q, fix = rng.geometric(0.05, m) - 1, rng.random(m), fresh()
    src, dst = _cascade(n, t, r, fu, fv, off.astype(np.int64), q, fix, 0.3)
    return temporal_from_arrays(perm[src], perm[dst], t, nodes=range(n))
