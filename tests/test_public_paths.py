"""Public import paths documented in README.md and docs/ resolve to the real classes."""

from __future__ import annotations

import networkx as nx
from networkx.algorithms import isomorphism as nxiso


def _freeze(maps) -> set:
    return {frozenset(m.items()) for m in maps}


def test_isomorphism_module_reexports_the_matchers():
    import nx_gpumine.isomorphism as pub
    from nx_gpumine.interfaces import isomorphism as static_iso
    from nx_gpumine.interfaces import temporal_isomorphism as temporal_iso
    from nx_gpumine.isomorphism import (
        DiGraphMatcher,
        GraphMatcher,
        TimeRespectingDiGraphMatcher,
        TimeRespectingGraphMatcher,
    )

    assert GraphMatcher is static_iso.GraphMatcher
    assert DiGraphMatcher is static_iso.DiGraphMatcher
    assert TimeRespectingGraphMatcher is temporal_iso.TimeRespectingGraphMatcher
    assert TimeRespectingDiGraphMatcher is temporal_iso.TimeRespectingDiGraphMatcher
    assert sorted(pub.__all__) == sorted(
        [
            "GraphMatcher",
            "DiGraphMatcher",
            "TimeRespectingGraphMatcher",
            "TimeRespectingDiGraphMatcher",
        ]
    )
    # drop-ins: still NetworkX's classes for isinstance checks
    assert issubclass(GraphMatcher, nxiso.GraphMatcher)
    assert issubclass(TimeRespectingDiGraphMatcher, nxiso.TimeRespectingDiGraphMatcher)


def test_graph_matcher_from_public_path_equals_networkx():
    from nx_gpumine.isomorphism import GraphMatcher

    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2), (4, 5)])  # two triangles
    P = nx.cycle_graph(3)
    got = _freeze(GraphMatcher(G, P).subgraph_isomorphisms_iter())
    want = _freeze(nxiso.GraphMatcher(G, P).subgraph_isomorphisms_iter())
    assert len(want) == 12  # 2 triangles x 6 automorphisms
    assert got == want
    path = nx.path_graph(3)
    got = _freeze(GraphMatcher(G, path).subgraph_monomorphisms_iter())
    assert got == _freeze(nxiso.GraphMatcher(G, path).subgraph_monomorphisms_iter())
    assert GraphMatcher(G, nx.cycle_graph(4)).subgraph_is_isomorphic() is False


def test_time_respecting_matcher_from_public_path_equals_networkx():
    from nx_gpumine.isomorphism import TimeRespectingDiGraphMatcher

    G = nx.DiGraph()
    G.add_edge(0, 1, date=1)
    G.add_edge(1, 2, date=2)
    G.add_edge(2, 3, date=9)
    G.add_edge(3, 4, date=10)
    P = nx.DiGraph([("a", "b"), ("b", "c")])
    got = _freeze(TimeRespectingDiGraphMatcher(G, P, "date", 3).subgraph_isomorphisms_iter())
    ref = nxiso.TimeRespectingDiGraphMatcher(G, P, "date", 3)
    want = _freeze(ref.subgraph_isomorphisms_iter())
    assert want == {
        frozenset({0: "a", 1: "b", 2: "c"}.items()),
        frozenset({2: "a", 3: "b", 4: "c"}.items()),
    }
    assert got == want
