"""Per-node graphlet orbit counts for k = 5 (ORCA's 73 orbits) on the CPU engine.

- The catalogue: 21 graphlets, the 58 orbits 15..72 each used once, each an automorphism orbit;
  the 1024-mask lookup agrees with NetworkX isomorphism.
- A brute force (every 5-node subset, its induced subgraph classified by NetworkX isomorphism to
  the catalogue) equals :func:`nx_gpumine.graphlet_orbits` ``(G, 5)`` on random graphs, with
  self-loops and isolated nodes.
- Columns 0..14 equal ``graphlet_orbits(G, 4)``; the orbit sums give
  :func:`nx_gpumine.subgraph_census` ``(G, 5)``.
- ORCA's own output, where ``ORCA_BIN`` names a compiled ORCA.
"""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.isomorphism import GraphMatcher

import nx_gpumine as ng
from nx_gpumine.engines.cpu.orbit_counts5 import orbit_counts_5node
from nx_gpumine.engines.cpu.orbit_equations5 import node_orbit_counts5
from nx_gpumine.errors import EngineUnavailableError, QueryError
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.plan.orbits import PAIRS5, n_orbits, orbit_lookup5, orbit_names, orbits


def _automorphism_orbits(h: nx.Graph) -> set[frozenset[int]]:
    reach: dict[int, set[int]] = {v: set() for v in h}
    for iso in GraphMatcher(h, h).isomorphisms_iter():
        for a, b in iso.items():
            reach[a].add(b)
    return {frozenset(s) for s in reach.values()}


def _graphlets5() -> dict[str, list]:
    out: dict[str, list] = {}
    for o in orbits(5):
        if o.k == 5:
            out.setdefault(o.graphlet, []).append(o)
    return out


def _classify(g: nx.Graph, nodes: tuple) -> list[int] | None:
    """The orbit of each of ``nodes`` in ``g`` (a 5-node graph), None when disconnected."""
    if not nx.is_connected(g):
        return None
    for obs in _graphlets5().values():
        h = obs[0].graph()
        if h.number_of_edges() != g.number_of_edges():
            continue
        m = GraphMatcher(g, h)
        if m.is_isomorphic():
            return [next(o.index for o in obs if m.mapping[v] in o.nodes) for v in nodes]
    raise AssertionError("no graphlet")  # pragma: no cover


def brute5(G: nx.Graph) -> dict:
    """``{node: [induced count of orbits 15..72]}`` over every 5-node set."""
    simple = nx.Graph(G)
    simple.remove_edges_from(nx.selfloop_edges(simple))
    out = {v: [0] * 58 for v in simple}
    for s in itertools.combinations(list(simple), 5):
        obs = _classify(simple.subgraph(s), s)
        if obs is not None:
            for v, o in zip(s, obs, strict=True):
                out[v][o - 15] += 1
    return out


def _random_graphs() -> list[nx.Graph]:
    out = []
    for seed, (n, p) in enumerate([(9, 0.5), (11, 0.3), (12, 0.45), (10, 0.8), (12, 0.2)]):
        g = nx.gnp_random_graph(n, p, seed=seed)
        g.add_edges_from([(0, 0), (3, 3)])  # self-loops are ignored
        g.add_node(100 + seed)  # an isolated node
        out.append(g)
    out.append(nx.complete_graph(6))
    out.append(nx.petersen_graph())
    return out


# ====================================================================== catalogue
def test_catalogue5():
    obs = orbits(5)
    assert n_orbits(5) == 73 == len(obs) and [o.index for o in obs] == list(range(73))
    assert orbit_names(5)[:15] == orbit_names(4) and len(set(orbit_names(5))) == 73
    g5 = _graphlets5()
    assert len(g5) == 21 and set(g5) == set(ng.census_patterns(5))
    assert sorted(o.index for os_ in g5.values() for o in os_) == list(range(15, 73))
    for name, mine in g5.items():
        h = mine[0].graph()
        assert nx.is_isomorphic(h, ng.census_patterns(5)[name])
        assert {frozenset(o.nodes) for o in mine} == _automorphism_orbits(h)
    assert [o.index for o in obs if o.graphlet == "5-clique"] == [72]
    assert {o.index for o in obs if o.graphlet == "5-cycle"} == {34}


def test_lookup_matches_isomorphism():
    lut = orbit_lookup5()
    assert lut.shape == (1024, 5) and not lut.flags.writeable
    assert (lut[:, 0] >= 0).sum() == 728  # connected labelled graphs on 5 nodes
    assert set(lut[lut >= 0].ravel().tolist()) == set(range(15, 73))
    for mask in range(0, 1024, 7):
        g = nx.Graph()
        g.add_nodes_from(range(5))
        g.add_edges_from(p for i, p in enumerate(PAIRS5) if mask >> i & 1)
        want = _classify(g, tuple(range(5)))
        assert lut[mask].tolist() == (want if want is not None else [-1] * 5)


# ====================================================================== engine
@pytest.mark.parametrize("G", _random_graphs(), ids=lambda g: f"n{len(g)}m{g.number_of_edges()}")
def test_engine_equals_brute_force(G):
    got = ng.graphlet_orbits(G, 5, engine="cpu")
    want = brute5(G)
    assert set(got) == set(G)
    four = ng.graphlet_orbits(G, 4)
    for v, row in got.items():
        assert len(row) == 73
        assert list(row[15:]) == want[v]
        assert row[:15] == four[v]


def test_orbit_sums_give_the_census():
    for G in [nx.karate_club_graph(), nx.gnm_random_graph(40, 160, seed=9)]:
        g = as_static_graph(G)
        totals = node_orbit_counts5(g.indptr, g.indices).sum(axis=0)
        census = ng.subgraph_census(G, 5, engine="cpu")
        for name, obs in _graphlets5().items():
            for o in obs:
                assert totals[o.index] % len(o.nodes) == 0
                assert totals[o.index] // len(o.nodes) == census[name]


def test_public_calls_and_refusals():
    G = nx.cycle_graph(5)
    got = ng.subgraph_census(G, 5, per_node=True)
    assert got == ng.graphlet_orbits(G, 5) and got[0][34] == 1 and sum(got[0][15:]) == 1
    frame = ng.graphlet_orbits(G, 5, as_frame="pandas")
    assert list(frame.columns) == ["node", *orbit_names(5)]
    assert frame["5-cycle:deg2"].tolist() == [1] * 5
    with pytest.raises(EngineUnavailableError):
        ng.graphlet_orbits(G, 5, engine="cuda")
    with pytest.raises(QueryError):
        ng.graphlet_orbits(G, 6)
    with pytest.raises(QueryError):
        ng.graphlet_orbits(nx.DiGraph([(0, 1)]), 5)
    empty = orbit_counts_5node(np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64))
    assert empty.shape == (0, 58)
    with pytest.raises(ValueError, match="mirror"):
        node_orbit_counts5(np.array([0, 1, 1]), np.array([1]))


# ====================================================================== ORCA
def _orca(binary: str, G: nx.Graph, tmp: Path) -> np.ndarray:
    src = tmp / "in.txt"
    out = tmp / "out.txt"
    lines = [f"{G.number_of_nodes()} {G.number_of_edges()}"] + [f"{u} {v}" for u, v in G.edges()]
    src.write_text("\n".join(lines) + "\n")
    subprocess.run([binary, "node", "5", str(src), str(out)], check=True, capture_output=True)
    return np.loadtxt(out, dtype=np.int64, ndmin=2)


@pytest.mark.parametrize("n,m,seed", [(30, 90, 1), (45, 160, 2), (60, 150, 3)])
def test_against_orca(n, m, seed, tmp_path):
    binary = os.environ.get("ORCA_BIN")
    if not binary or not Path(binary).is_file():
        pytest.skip("set ORCA_BIN to a compiled ORCA (g++ -O2 orca.cpp)")
    G = nx.gnm_random_graph(n, m, seed=seed)
    g = as_static_graph(G)
    ours = node_orbit_counts5(g.indptr, g.indices)
    order = [g.keys.index(v) if isinstance(g.keys, list) else list(g.keys).index(v) for v in G]
    assert np.array_equal(ours[order], _orca(binary, G, tmp_path))
