"""The subgraph census's building blocks on the CPU (:data:`~nx_gpumine.plan.graphlets.
CENSUS_BLOCKS`): the degree sums exactly on the host (:mod:`nx_gpumine.engines.degree_sums`),
the triangle blocks from each edge's triangles (:func:`.orbit_counts.edge_triangle_counts`,
numba): ``triangles = sum t_e / 6`` over the CSR entries (each edge twice, each triangle on
three edges), ``books2 = sum C(t_e, 2) / 2``, ``tailed = sum t_v (d_v - 2)`` with ``t_v`` half
the sum of ``t_e`` over ``v``'s entries; the other 5-node blocks from one walk over each node's
2-paths and one over each node's link (:mod:`.census_walks`). With ``cycles4`` or ``cliques4``
wanted and no other 5-node block (the 4-node census), every triangle block from one pass of the
per-node non-induced orbit counts instead
(:func:`.orbit_counts.noninduced_orbit_counts`): each subgraph is counted at the nodes of one
of its orbits (the 4-cycles and 4-cliques a quarter of orbits 8 and 14).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from ...inputs.static_graph import StaticGraph
from ...plan.graphlets import WALK_BLOCKS
from ..degree_sums import (
    TRIANGLE_SUMS,
    exact_dot,
    kept_spider_sums,
    kept_star_sum,
    path_sum,
    triangle_sums,
)
from .census_walks import walk_blocks
from .orbit_counts import edge_triangle_counts, noninduced_orbit_counts

__all__ = ["census_blocks", "kept_census_blocks"]


def census_blocks(graph: StaticGraph, names: Collection[str], stats: dict) -> dict[str, int]:
    """Every census block in ``names`` (:class:`~nx_gpumine.engines.contract.CensusEngine`)
    of an undirected ``graph``, as exact ints (none for a directed graph; ``stats`` is not
    used: it takes the CUDA engine's device times)."""
    if graph.directed or graph.n == 0:
        return {}
    out: dict[str, int] = {}
    for s in (2, 3, 4):
        if f"stars{s}" in names:
            out[f"stars{s}"] = kept_star_sum(graph, s)
    if "paths3" in names:
        out["paths3"] = path_sum(graph.indptr, graph.indices)
    if {"spiders", "arms"} & set(names):
        out["spiders"], out["arms"] = kept_spider_sums(graph)
    # the 4-node census: one orbit pass for every 4-node block; the 5-node census has the
    # 4-cycles and 4-cliques from its walks (census_walks), the triangle blocks from t_e
    five_node = bool((WALK_BLOCKS - {"cycles4", "cliques4"}) & set(names))
    if {"cycles4", "cliques4"} & set(names) and not five_node:
        per_node = noninduced_orbit_counts(graph.indptr, graph.indices, 4)
        ones = np.ones(graph.n, dtype=np.int64)

        def total(orbit: int, nodes: int) -> int:
            # each non-induced subgraph at its ``nodes`` nodes of ``orbit`` (exact sums)
            return exact_dot(np.ascontiguousarray(per_node[:, orbit]), ones) // nodes

        out["triangles"] = total(3, 3)
        out["tailed"] = total(11, 1)  # the tailed triangle's centre
        out["cycles4"] = total(8, 4)
        out["books2"] = total(13, 2)  # the diamond's chord ends
        out["cliques4"] = total(14, 4)
    if (TRIANGLE_SUMS | WALK_BLOCKS) & (set(names) - set(out)):
        t = edge_triangle_counts(graph.indptr, graph.indices, check=False)  # per entry
        out.update(walk_blocks(graph.indptr, graph.indices, t, set(names) - set(out)))
        out.update(triangle_sums(graph.indptr, graph.indices, t, set(names) - set(out)))
    return {k: v for k, v in out.items() if k in names}


def kept_census_blocks(graph: StaticGraph, names: Collection[str]) -> dict[str, int]:
    """:func:`census_blocks` of ``names``, each block computed once per graph and kept with it
    (the missing ones in one pass), as :func:`~nx_gpumine.engines.degree_sums.kept_star_sum`
    keeps the star sums: the block formulas of the CPU engine's counts
    (:func:`.static.count`) read them again on every call.

    Parameters
    ----------
    graph : StaticGraph
        An undirected data graph.
    names : collection of str
        Census blocks (:data:`~nx_gpumine.plan.graphlets.CENSUS_BLOCKS`).

    Returns
    -------
    dict
        Block name -> exact int.
    """
    missing = {name for name in names if not graph.has_derived(("census_block", name))}
    fresh = census_blocks(graph, missing, {}) if missing else {}
    return {
        name: graph.derived(("census_block", name), lambda name=name: fresh[name]) for name in names
    }
