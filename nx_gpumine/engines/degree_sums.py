"""Exact degree sums of the subgraph census on the host (NumPy, Python integers past int64).

The census's building blocks that depend on the degrees alone
(:data:`~nx_gpumine.plan.graphlets.CENSUS_BLOCKS`): both engines use these on the host (the
CUDA engine where its device sums could pass 64 bits).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "star_sum",
    "kept_star_sum",
    "path_sum",
    "exact_dot",
    "spider_sums",
    "kept_spider_sums",
    "neighbour_degree_sums",
    "node_triangles",
    "TRIANGLE_SUMS",
    "triangle_sums",
]

#: The census blocks :func:`triangle_sums` gives from each edge's triangles.
TRIANGLE_SUMS = frozenset(
    {"triangles", "books2", "tailed", "forks", "tri_arms", "tri_pairs", "doubletails",
     "books_deg"}
)  # fmt: skip


def star_sum(deg: np.ndarray, s: int) -> int:
    """``sum_v C(d_v, s)`` exactly, over the degree histogram (a Python integer per distinct
    degree: a few thousand at most, where the nodes are millions).

    Parameters
    ----------
    deg : numpy.ndarray
        Integer degrees.
    s : int
        Leaves of the star (1 or more).

    Returns
    -------
    int
    """
    deg = np.asarray(deg, dtype=np.int64)
    hist = np.bincount(deg) if len(deg) else np.zeros(0, dtype=np.int64)
    present = np.flatnonzero(hist[s:]) + s  # degrees below s choose nothing
    return sum(int(hist[d]) * math.comb(int(d), s) for d in present.tolist())


def kept_star_sum(graph: Any, s: int, compute: Callable[[], int] | None = None) -> int:
    """``graph``'s ``sum_v C(d_v, s)``, computed once per graph and kept with it (one cache
    key for the closed-form star count and both engines' census blocks).

    Parameters
    ----------
    graph : StaticGraph
        The data graph (its ``derived`` cache holds the sum).
    s : int
        Leaves of the star.
    compute : callable, optional
        How to compute it on a miss (the CUDA engine's device sum); default :func:`star_sum`
        of the host degrees.

    Returns
    -------
    int
    """
    return graph.derived(("star_sum", s), compute or (lambda: star_sum(graph.degree, s)))


def exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """``sum a * b`` of two int64 vectors exactly (int64 where a float bound shows it cannot
    overflow, Python integers otherwise)."""
    bound = float(np.dot(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64)))
    if bound < 2.0**62:
        return int(np.dot(a, b))
    return int(np.dot(a.astype(object), b.astype(object)))


def path_sum(indptr: np.ndarray, indices: np.ndarray) -> int:
    """``sum over edges {u, v} of (d_u - 1)(d_v - 1)`` of a symmetric CSR without self-loops.

    It is half of ``sum_u (d_u - 1) S_u``, ``S_u`` the further edges of ``u``'s neighbours
    (:func:`neighbour_degree_sums`).

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Symmetric CSR (each undirected edge in both rows).

    Returns
    -------
    int
    """
    deg = np.diff(indptr).astype(np.int64)
    return exact_dot(deg - 1, neighbour_degree_sums(indptr, indices)) // 2


def spider_sums(indptr: np.ndarray, indices: np.ndarray) -> tuple[int, int]:
    """The two degree sums of the 5-node trees' formulas, exactly: ``spiders`` = sum over
    nodes ``c`` of C(d_c - 1, 2) S_c and ``arms`` = sum over nodes ``c`` of the pairs of
    neighbours' further edges, (S_c^2 - sum_{u in N(c)} (d_u - 1)^2) / 2, where
    ``S_c = sum_{u in N(c)} (d_u - 1)`` (the second term is sum_u d_u (d_u - 1)^2: each node
    is in each of its neighbours' lists).

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        The union CSR of an undirected graph (each edge in both lists, no self-loops).

    Returns
    -------
    tuple of int
        ``(spiders, arms)``.
    """
    deg = np.diff(np.asarray(indptr, dtype=np.int64))
    s = neighbour_degree_sums(indptr, indices)
    spiders = exact_dot(np.maximum(deg - 1, 0) * np.maximum(deg - 2, 0) // 2, s)
    arms = (exact_dot(s, s) - exact_dot(deg, (deg - 1) * (deg - 1))) // 2
    return spiders, arms


def kept_spider_sums(graph: Any) -> tuple[int, int]:
    """:func:`spider_sums` of an undirected ``graph``, computed once and kept with it."""
    return graph.derived(("spider_sums",), lambda: spider_sums(graph.indptr, graph.indices))


def neighbour_degree_sums(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Per node ``c`` of a CSR graph, ``S_c = sum_{u in N(c)} (d_u - 1)`` (int64: at most
    ``d_max^2``): the further edges of its neighbours."""
    indptr = np.asarray(indptr, dtype=np.int64)
    deg = np.diff(indptr)
    far = (deg - 1)[np.asarray(indices, dtype=np.int64)]  # per entry c -> u: d_u - 1
    run = np.zeros(len(far) + 1, dtype=np.int64)
    np.cumsum(far, out=run[1:])
    return run[indptr[1:]] - run[indptr[:-1]]


def node_triangles(indptr: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per node ``v``, its triangles ``t_v``: half the sum of ``t`` (each CSR entry's
    triangles, :func:`~nx_gpumine.engines.cpu.orbit_counts.edge_triangle_counts`) over its
    entries."""
    indptr = np.asarray(indptr, dtype=np.int64)
    run = np.zeros(len(t) + 1, dtype=np.int64)
    np.cumsum(t, out=run[1:])
    return (run[indptr[1:]] - run[indptr[:-1]]) // 2


def triangle_sums(
    indptr: np.ndarray, indices: np.ndarray, t: np.ndarray, names: Any
) -> dict[str, int]:
    """The census blocks of :data:`TRIANGLE_SUMS` among ``names``, exactly, from each CSR
    entry's triangles ``t`` (both engines, on the host): ``triangles = sum t_e / 6`` (each
    edge twice, each triangle on three edges), ``books2 = sum_e C(t_e, 2)``, ``tailed = sum_v
    t_v (d_v - 2)``, ``forks = sum_v t_v C(d_v - 2, 2)``, ``tri_arms = sum_v t_v S_v``
    (:func:`neighbour_degree_sums`), ``tri_pairs = sum_v C(t_v, 2)``, ``doubletails = sum_e
    t_e (d_x - 2)(d_y - 2)`` and ``books_deg = sum_e C(t_e, 2)(d_x + d_y)``.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        The union CSR of an undirected graph (each edge in both lists, no self-loops).
    t : numpy.ndarray
        int64 triangles per CSR entry.
    names : collection of str
        The blocks wanted.

    Returns
    -------
    dict
        Block name to its value (Python ints).
    """
    names = set(names) & TRIANGLE_SUMS
    indptr = np.asarray(indptr, dtype=np.int64)
    t = np.asarray(t, dtype=np.int64)
    deg = np.diff(indptr)
    out: dict[str, int] = {}
    if "triangles" in names:
        out["triangles"] = int(t.sum()) // 6
    if "books2" in names:  # C(t, 2) per entry, each edge twice
        out["books2"] = exact_dot(t, t - 1) // 4
    if names & {"tailed", "forks", "tri_arms", "tri_pairs"}:
        tv = node_triangles(indptr, t)
        if "tailed" in names:
            out["tailed"] = exact_dot(tv, deg - 2)
        if "forks" in names:
            out["forks"] = exact_dot(tv, np.maximum(deg - 2, 0) * np.maximum(deg - 3, 0) // 2)
        if "tri_arms" in names:
            out["tri_arms"] = exact_dot(tv, neighbour_degree_sums(indptr, indices))
        if "tri_pairs" in names:
            out["tri_pairs"] = exact_dot(tv, tv - 1) // 2
    if names & {"doubletails", "books_deg"}:  # sums over edges, each in both lists
        src = np.repeat(np.arange(len(deg)), deg)
        dst = np.asarray(indices, dtype=np.int64)
        if "doubletails" in names:
            out["doubletails"] = exact_dot(t, (deg[src] - 2) * (deg[dst] - 2)) // 2
        if "books_deg" in names:
            out["books_deg"] = exact_dot(t * (t - 1) // 2, deg[src] + deg[dst]) // 2
    return out
