"""Per-node graphlet orbit counts (ORCA's graphlet degree vectors, k = 2..4) on the CPU engine.

- A brute force (every node subset of 2..4 nodes, its induced subgraph classified by NetworkX
  isomorphism, each node credited with its automorphism orbit) equals
  :func:`~nx_gpumine.engines.cpu.orbit_counts.node_orbit_counts` on hypothesis graphs and on
  fixed ones.
- ORCA's own example (``graph.in`` / ``node-4.out``), where its source tree is at hand.
- :func:`~nx_gpumine.engines.cpu.orbit_counts.edge_triangle_counts` equals a direct count.
- The orbit counts summed over the nodes give the induced census of
  :func:`nx_gpumine.subgraph_census`.
- The catalogue and the non-induced -> induced conversion of :mod:`nx_gpumine.plan.orbits`.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms.isomorphism import GraphMatcher

import nx_gpumine as ng
from nx_gpumine.engines.cpu import orbit_counts as oc
from nx_gpumine.errors import CapacityError, QueryError
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.plan.orbits import (
    induced_orbit_counts,
    n_orbits,
    orbit_copies_matrix,
    orbit_names,
    orbits,
)

ORCA = Path("/work/.mirror/thocevar+orca/repo")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ====================================================================== brute force
def _automorphism_orbits(h: nx.Graph) -> list[frozenset[int]]:
    """The node orbits of ``h`` under its automorphisms."""
    reach: dict[int, set[int]] = {v: set() for v in h}
    for iso in GraphMatcher(h, h).isomorphisms_iter():
        for a, b in iso.items():
            reach[a].add(b)
    return sorted({frozenset(s) for s in reach.values()}, key=min)


@functools.cache
def _classify(size: int, mask: int) -> tuple[int, ...] | None:
    """The orbit of each position of a ``size``-node graph given by its pair mask (pairs of
    ``itertools.combinations(range(size), 2)``), None where it is disconnected."""
    pairs = list(itertools.combinations(range(size), 2))
    g = nx.Graph()
    g.add_nodes_from(range(size))
    g.add_edges_from(p for i, p in enumerate(pairs) if mask >> i & 1)
    if not nx.is_connected(g):
        return None
    for o in orbits(4):
        h = o.graph()
        if o.k != size or h.number_of_edges() != g.number_of_edges():
            continue
        m = GraphMatcher(g, h)
        if m.is_isomorphic():
            graphlet = [q for q in orbits(4) if q.graphlet == o.graphlet]
            return tuple(
                next(q.index for q in graphlet if m.mapping[x] in q.nodes) for x in range(size)
            )
    raise AssertionError(f"no graphlet for mask {mask} on {size} nodes")


def brute_orbits(G: nx.Graph, k: int = 4) -> dict:
    """``{node: [induced count of each orbit]}`` by enumerating every node set of 2..k nodes."""
    nodes = list(G)
    out = {v: [0] * n_orbits(k) for v in nodes}
    for size in range(2, k + 1):
        pairs = list(itertools.combinations(range(size), 2))
        for s in itertools.combinations(nodes, size):
            mask = 0
            for i, (a, b) in enumerate(pairs):
                if G.has_edge(s[a], s[b]):
                    mask |= 1 << i
            orb = _classify(size, mask)
            if orb is not None:
                for x, o in zip(s, orb, strict=True):
                    out[x][o] += 1
    return out


def engine_orbits(G: nx.Graph, k: int = 4) -> dict:
    """``{node: [count of each orbit]}`` from :func:`node_orbit_counts`."""
    g = as_static_graph(G)
    counts = oc.node_orbit_counts(g.indptr, g.indices, k)
    assert counts.dtype == np.int64 and counts.shape == (len(G), n_orbits(k))
    return {v: counts[g.key_to_id[v]].tolist() for v in G}


@st.composite
def small_graphs(draw) -> nx.Graph:
    n = draw(st.integers(0, 12))
    g = nx.Graph()
    g.add_nodes_from(range(n))
    if n:
        p = draw(st.sampled_from([0.15, 0.3, 0.5, 0.8]))
        seed = draw(st.integers(0, 2**31))
        rng = np.random.default_rng(seed)
        g.add_edges_from(e for e in itertools.combinations(range(n), 2) if rng.random() < p)
        if draw(st.booleans()):  # a few self-loops, ignored
            g.add_edges_from((v, v) for v in range(0, n, 3))
    return g


def _without_loops(G: nx.Graph) -> nx.Graph:
    h = G.copy()
    h.remove_edges_from(list(nx.selfloop_edges(h)))
    return h


@SETTINGS
@given(small_graphs())
def test_orbits_equal_brute_force(G):
    want = brute_orbits(_without_loops(G), 4)
    assert engine_orbits(G, 4) == want
    for k in (2, 3):
        assert engine_orbits(G, k) == {v: c[: n_orbits(k)] for v, c in want.items()}


FIXED = {
    "empty": nx.Graph(),
    "one node": nx.empty_graph(1),
    "isolated": nx.empty_graph(6),
    "edge and isolated": nx.Graph([(0, 1), (5, 6), (6, 7)]),
    **{f"K{n}": nx.complete_graph(n) for n in range(2, 8)},
    **{f"C{n}": nx.cycle_graph(n) for n in range(3, 9)},
    **{f"star{n}": nx.star_graph(n) for n in range(1, 8)},
    **{f"path{n}": nx.path_graph(n) for n in range(1, 8)},
    "petersen": nx.petersen_graph(),
    "wheel": nx.wheel_graph(7),
    "K3,4": nx.complete_bipartite_graph(3, 4),
    "karate": nx.karate_club_graph(),
    "string keys": nx.relabel_nodes(nx.house_x_graph(), {i: f"n{i}" for i in range(5)}),
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_orbits_of_fixed_graphs(name):
    G = FIXED[name]
    G.add_nodes_from(["lonely"] if name == "karate" else [])  # an isolated node too
    assert engine_orbits(G, 4) == brute_orbits(G, 4)


def test_closed_forms():
    """A few counts known by hand: K_n, C_n, the star."""
    k6 = engine_orbits(nx.complete_graph(6))[0]
    assert k6 == [5, 0, 0, 10] + [0] * 10 + [10]  # C(5, 2) triangles, C(5, 3) 4-cliques
    c7 = engine_orbits(nx.cycle_graph(7))[0]
    assert c7 == [2, 2, 1, 0, 2, 2] + [0] * 9
    star = engine_orbits(nx.star_graph(5))
    assert star[0] == [5, 0, 10, 0, 0, 0, 0, 10] + [0] * 7
    assert star[1] == [1, 4, 0, 0, 0, 0, 6] + [0] * 8


# ====================================================================== ORCA's example
def _read_orca_graph(path: Path) -> nx.Graph:
    words = path.read_text().split()
    n, m = int(words[0]), int(words[1])
    g = nx.Graph()
    g.add_nodes_from(range(n))
    ends = [int(w) for w in words[2 : 2 + 2 * m]]
    g.add_edges_from(zip(ends[0::2], ends[1::2], strict=True))
    return g


def test_orca_example():
    if not (ORCA / "graph.in").exists() or not (ORCA / "node-4.out").exists():
        pytest.skip(f"ORCA's example files are not at {ORCA}")
    G = _read_orca_graph(ORCA / "graph.in")
    want = np.loadtxt(ORCA / "node-4.out", dtype=np.int64, ndmin=2)
    g = as_static_graph(G)
    got = oc.node_orbit_counts(g.indptr, g.indices, 4)
    order = [g.key_to_id[v] for v in range(len(G))]
    np.testing.assert_array_equal(got[order], want)
    if (ORCA / "node-5.out").exists():  # its first 15 columns are the same orbits
        five = np.loadtxt(ORCA / "node-5.out", dtype=np.int64, ndmin=2)
        np.testing.assert_array_equal(got[order], five[:, :15])


# ====================================================================== edge triangles
def _csr(G: nx.Graph) -> tuple[np.ndarray, np.ndarray]:
    g = as_static_graph(G)
    return g.indptr, g.indices


def _direct_edge_triangles(indptr: np.ndarray, indices: np.ndarray) -> list[int]:
    rows = [set(indices[indptr[v] : indptr[v + 1]].tolist()) for v in range(len(indptr) - 1)]
    out = []
    for v in range(len(rows)):
        for u in indices[indptr[v] : indptr[v + 1]].tolist():
            out.append(0 if u == v else len((rows[v] - {v}) & (rows[u] - {u})))
    return out


@SETTINGS
@given(small_graphs())
def test_edge_triangles_equal_direct_count(G):
    indptr, indices = _csr(G)
    want = _direct_edge_triangles(indptr, indices)
    got = oc.edge_triangle_counts(indptr, indices)
    assert got.dtype == np.int64 and got.tolist() == want
    assert oc.edge_triangle_counts(indptr, indices, check=False).tolist() == want


def test_edge_triangles_on_larger_graphs():
    for G in (nx.karate_club_graph(), nx.gnm_random_graph(300, 3000, seed=1), nx.complete_graph(9)):
        indptr, indices = _csr(G)
        got = oc.edge_triangle_counts(indptr, indices)
        assert got.tolist() == _direct_edge_triangles(indptr, indices)
        assert got.sum() == 6 * sum(nx.triangles(G).values()) // 3


def _with_loops(G: nx.Graph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A CSR of ``G`` that keeps its self-loops as entries (a StaticGraph does not), and the
    mask of the loop entries."""
    n = len(G)
    rows = [sorted(G[v]) for v in range(n)]
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    indices = np.array([u for r in rows for u in r], dtype=np.int64)
    loops = indices == np.repeat(np.arange(n), np.diff(indptr))
    return indptr, indices, loops


def test_self_loop_entries_are_ignored():
    G = nx.karate_club_graph()
    G.add_edges_from((v, v) for v in range(0, 34, 4))
    indptr, indices, loops = _with_loops(G)
    assert loops.any()
    clean = _without_loops(G)
    t = oc.edge_triangle_counts(indptr, indices)
    assert (t[loops] == 0).all()
    assert t[~loops].tolist() == oc.edge_triangle_counts(*_csr(clean)).tolist()
    got = oc.node_orbit_counts(indptr, indices, 4)
    want = brute_orbits(clean, 4)
    assert got.tolist() == [want[v] for v in range(len(G))]


def test_bad_csr_is_refused():
    ptr = np.array([0, 1, 1])
    with pytest.raises(ValueError, match="mirror"):
        oc.node_orbit_counts(ptr, np.array([1]), 4)  # 0 -> 1 without 1 -> 0
    with pytest.raises(ValueError, match="order"):
        oc.edge_triangle_counts(np.array([0, 2, 3, 4]), np.array([2, 1, 0, 0]))
    with pytest.raises(ValueError, match="outside"):
        oc.edge_triangle_counts(np.array([0, 1]), np.array([3]))
    with pytest.raises(ValueError, match="indptr"):
        oc.edge_triangle_counts(np.array([0, 2]), np.array([0]))
    with pytest.raises(QueryError):
        oc.node_orbit_counts(np.array([0]), np.array([], dtype=np.int64), 5)


def test_capacity_error(monkeypatch):
    """A graph whose counts could pass 64 bits is refused, not wrapped (bound lowered here)."""
    monkeypatch.setattr(oc, "_SAFE_BOUND", 64.0)
    oc.node_orbit_counts(*_csr(nx.star_graph(3)), 4)  # bound 27: fine
    with pytest.raises(CapacityError):
        oc.node_orbit_counts(*_csr(nx.star_graph(4)), 4)  # 4**3 = 64


# ====================================================================== census totals
@pytest.mark.parametrize(
    "G", [nx.karate_club_graph(), nx.gnm_random_graph(60, 400, seed=3), nx.complete_graph(6)]
)
def test_orbit_sums_give_the_census(G):
    g = as_static_graph(G)
    counts = oc.node_orbit_counts(g.indptr, g.indices, 4)
    totals = counts.sum(axis=0)
    assert totals[0] == 2 * G.number_of_edges()
    for k in (3, 4):
        census = ng.subgraph_census(G, k, engine="cpu")
        by_graphlet: dict[str, list] = {}
        for o in orbits(4):
            if o.k == k:
                by_graphlet.setdefault(o.graphlet, []).append(o)
        assert set(by_graphlet) == set(census)
        for name, obs in by_graphlet.items():
            for o in obs:  # each orbit alone: its nodes per node set
                assert totals[o.index] % len(o.nodes) == 0
                assert totals[o.index] // len(o.nodes) == census[name]
            assert sum(totals[o.index] for o in obs) == k * census[name]  # combined


# ====================================================================== catalogue
def test_catalogue_orbits_are_automorphism_orbits():
    obs = orbits(4)
    assert [o.index for o in obs] == list(range(15))
    assert len(set(orbit_names(4))) == 15 and orbit_names(3) == orbit_names(4)[:4]
    for graphlet in {o.graphlet for o in obs}:
        mine = [o for o in obs if o.graphlet == graphlet]
        assert len({o.edges for o in mine}) == 1
        h = mine[0].graph()
        assert nx.is_connected(h)
        assert {frozenset(o.nodes) for o in mine} == set(_automorphism_orbits(h))
    degrees = {o.index: dict(o.graph().degree)[o.nodes[0]] for o in obs}
    assert list(degrees.values()) == [1, 1, 2, 2, 1, 2, 1, 3, 2, 1, 2, 3, 2, 3, 3]


def test_copies_matrix_shape():
    for k in (2, 3, 4):
        c = np.array(orbit_copies_matrix(k))
        assert c.shape == (n_orbits(k), n_orbits(k))
        assert (np.diag(c) == 1).all() and (np.tril(c, -1) == 0).all()
    c = orbit_copies_matrix(4)
    assert c[4][14] == 6 and c[8][14] == 3 and c[7][11] == 1  # by hand
    assert n_orbits(5) == 73  # k = 5 is counted induced directly (engines/cpu/orbit_counts5.py)
    with pytest.raises(QueryError):
        n_orbits(6)
    with pytest.raises(QueryError):
        orbit_copies_matrix(5)


def test_induced_conversion_dtypes():
    G = nx.gnm_random_graph(40, 200, seed=5)
    indptr, indices = _csr(G)
    non = oc.noninduced_orbit_counts(indptr, indices, 4)
    ind = induced_orbit_counts(non, 4)
    assert ind.dtype == np.int64
    assert (ind <= non).all()
    obj = induced_orbit_counts(non.astype(object), 4)
    assert obj.dtype == object and obj.tolist() == ind.tolist()
    # past the int64 headroom of the back substitution: Python ints inside, int64 out
    c = np.array(orbit_copies_matrix(4), dtype=object)
    want = np.array([[3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2**58]], dtype=object)
    big = want @ c.T  # N = C I, row by row
    assert big.max() < 2**63 and big.max() * 18 > 2**63
    out = induced_orbit_counts(big.astype(np.int64), 4)
    assert out.dtype == np.int64 and out.tolist() == want.tolist()


def test_inconsistent_or_misshapen_input():
    bad = np.zeros((2, 15), dtype=np.int64)
    bad[0, 14] = 1  # a 4-clique node must be in 3 triangles
    with pytest.raises(ValueError, match="inconsistent"):
        induced_orbit_counts(bad, 4)
    with pytest.raises(ValueError, match="expected"):
        induced_orbit_counts(np.zeros((2, 4), dtype=np.int64), 4)
    with pytest.raises(ValueError, match="integers"):
        induced_orbit_counts(np.zeros((2, 15)), 4)
    assert induced_orbit_counts(np.zeros((0, 15), dtype=np.int64), 4).shape == (0, 15)
