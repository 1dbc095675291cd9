"""Pattern and motif size caps: refused where they are parsed, before anything that big exists.

Issue 15: ``count_motifs(df, 'cycle999999999', ...)`` grew memory at ~120 MB/s.
"""

from __future__ import annotations

import time

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.errors import QueryError
from nx_gpumine.inputs.motifs import MAX_MOTIF_EDGES, TemporalMotif, named_motif, parse_motif_edges
from nx_gpumine.inputs.patterns import MAX_PATTERN_NODES, Pattern

EDGES = (np.array([1, 2, 3]), np.array([2, 3, 1]), np.array([0, 5, 9]))


@pytest.mark.parametrize(
    "name", ["cycle999999999", "path999999999", "temporal-999999999-cycle", "cycle" + "9" * 5000]
)
def test_huge_catalogue_names_refused_at_once(name):
    t0 = time.perf_counter()
    with pytest.raises(QueryError, match=f"at most {MAX_MOTIF_EDGES}"):
        ng.count_motifs(EDGES, name, delta=10, engine="cpu")
    assert time.perf_counter() - t0 < 5


def test_motif_caps_at_the_limit():
    assert named_motif(f"cycle{MAX_MOTIF_EDGES}").num_edges == MAX_MOTIF_EDGES
    assert named_motif(f"path{MAX_MOTIF_EDGES}").num_edges == MAX_MOTIF_EDGES
    with pytest.raises(QueryError, match="at most"):
        named_motif(f"path{MAX_MOTIF_EDGES + 1}")
    edges = [(i, i + 1) for i in range(MAX_MOTIF_EDGES + 1)]
    with pytest.raises(QueryError, match=f"{MAX_MOTIF_EDGES + 1} given"):
        TemporalMotif(edges)
    with pytest.raises(QueryError, match="anti_edges"):
        TemporalMotif([(0, 1)], anti_edges=[(1, 0, 0)] * (MAX_MOTIF_EDGES + 1))
    text = "".join(f"{i} {i + 1}\n" for i in range(MAX_MOTIF_EDGES + 1))
    with pytest.raises(QueryError, match="lines"):
        parse_motif_edges(text)
    # a motif at the cap still counts correctly (a path of 64 edges: no match in 3 edges)
    assert ng.count_motifs(EDGES, f"path{MAX_MOTIF_EDGES}", delta=None, engine="cpu") == 0


def test_pattern_cap():
    with pytest.raises(QueryError, match=f"at most {MAX_PATTERN_NODES}"):
        Pattern.from_networkx(nx.path_graph(MAX_PATTERN_NODES + 1))
    with pytest.raises(QueryError, match="at most"):
        ng.count_subgraphs(nx.path_graph(200), nx.path_graph(MAX_PATTERN_NODES + 1))
    assert Pattern.from_networkx(nx.path_graph(MAX_PATTERN_NODES)).k == MAX_PATTERN_NODES
    G = nx.path_graph(MAX_PATTERN_NODES + 3)
    assert ng.count_subgraphs(G, nx.path_graph(MAX_PATTERN_NODES), count="subgraphs") == 4
