"""k = 5 orbit counts by counting equations (``orbit_equations5``) against the ESU enumeration.

- The equations: one per orbit 15..72, triangular in the graphlets' edge counts.
- :func:`orbit_counts_5node_equations` equals the ESU
  :func:`~nx_gpumine.engines.cpu.orbit_counts5.orbit_counts_5node` (exact, checked against a
  brute force and ORCA in ``test_orbits5``) on random graphs (with self-loops and isolated
  nodes), K6, the Petersen graph and the karate club, and on raw CSR with self-loop entries;
  with hubs at the smallest and at the largest ids (a hub root cut into strided tasks; a hub
  as the set's last node, counted through its neighbour histogram or, when too large for it,
  by the walk of a smaller member; the third and fourth nodes' common neighbours by walking the
  fourth's neighbours or by the distance-two table), on one thread and on several.
- ORCA's own output, where ``ORCA_BIN`` names a compiled ORCA.
"""

from __future__ import annotations

import os
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines.cpu.orbit_counts5 import orbit_counts_5node
from nx_gpumine.engines.cpu.orbit_equations5 import _tables, orbit_counts_5node_equations
from nx_gpumine.inputs.static_graph import as_static_graph
from tests.test_orbits5 import _orca  # ORCA's per-node rows (ORCA_BIN)


def _graphs() -> list[nx.Graph]:
    out = [nx.complete_graph(6), nx.petersen_graph(), nx.karate_club_graph(), nx.path_graph(5)]
    rng = np.random.default_rng(5)
    for i, n in enumerate((10, 18, 25, 33, 40, 48, 60)):
        G = nx.gnp_random_graph(n, float(rng.uniform(0.08, 0.35)), seed=i)
        G.add_nodes_from(range(n, n + 2))  # isolated nodes
        G.add_edges_from((v, v) for v in range(0, n, 7))  # self-loops
        out.append(G)
    out.append(nx.barabasi_albert_graph(80, 3, seed=1))
    out.append(nx.barabasi_albert_graph(50, 5, seed=2))
    out.append(nx.gnm_random_graph(30, 200, seed=3))  # dense
    return out


def test_equations_are_triangular():
    rows, coef, order = _tables()
    assert coef.shape == (58, 58) and sorted(order.tolist()) == list(range(58))
    assert np.all(np.diag(coef) >= 1)
    done: set[int] = set()
    for r in order.tolist():
        assert set(np.nonzero(coef[r])[0].tolist()) - {r} <= done
        done.add(r)
    used = rows[rows >= 0]
    assert set(used.tolist()) == set(range(58))


@pytest.mark.parametrize(
    "G", _graphs(), ids=lambda G: f"n{G.number_of_nodes()}m{G.number_of_edges()}"
)
def test_equal_to_esu(G):
    g = as_static_graph(G)
    want = orbit_counts_5node(g.indptr, g.indices)
    got = orbit_counts_5node_equations(g.indptr, g.indices, check=False)
    assert got.dtype == np.int64 and got.shape == (G.number_of_nodes(), 58)
    assert np.array_equal(got, want)


def test_raw_csr_with_self_loops():
    G = nx.gnp_random_graph(30, 0.2, seed=11)
    G.add_edges_from([(0, 0), (5, 5), (29, 29)])
    A = nx.to_scipy_sparse_array(G, nodelist=range(30), format="csr")
    A.sort_indices()
    got = orbit_counts_5node_equations(A.indptr, A.indices)
    assert np.array_equal(got, orbit_counts_5node(A.indptr, A.indices))
    empty = orbit_counts_5node_equations(np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64))
    assert empty.shape == (0, 58)
    with pytest.raises(ValueError, match="mirror"):
        orbit_counts_5node_equations(np.array([0, 1, 1]), np.array([1]))


@pytest.mark.parametrize(
    "G", [nx.gnm_random_graph(50, 200, seed=4), nx.barabasi_albert_graph(200, 3, seed=5)]
)
def test_against_orca(G, tmp_path):
    binary = os.environ.get("ORCA_BIN")
    if not binary or not Path(binary).is_file():
        pytest.skip("set ORCA_BIN to a compiled ORCA (g++ -O2 orca.cpp)")
    A = nx.to_scipy_sparse_array(G, nodelist=range(G.number_of_nodes()), format="csr")
    A.sort_indices()
    got = orbit_counts_5node_equations(A.indptr, A.indices)
    assert np.array_equal(got, _orca(binary, G, tmp_path)[:, 15:])


def _hub_graph(hub_last: bool) -> nx.Graph:
    """Two hubs (degree ~90 and ~60) over a sparse random graph, at the smallest or the
    largest ids, their neighbourhoods partly triangulated (dense 4-node sets around them)."""
    G = nx.gnm_random_graph(120, 260, seed=11)
    hubs = (118, 119) if hub_last else (0, 1)
    rng = np.random.default_rng(3)
    for h, deg in zip(hubs, (90, 60), strict=True):
        nbrs = rng.choice([v for v in range(120) if v not in hubs], size=deg, replace=False)
        G.add_edges_from((h, int(v)) for v in nbrs)
        G.add_edges_from((int(a), int(b)) for a, b in zip(nbrs[::2], nbrs[1::2], strict=False))
    return G


@pytest.mark.parametrize("hub_last", [False, True])
def test_hubs_split_into_tasks_equal_esu(hub_last):
    import numba

    from nx_gpumine.engines.cpu.orbit_equations5 import _root_tasks

    g = as_static_graph(_hub_graph(hub_last))
    tasks = _root_tasks(g.indptr, g.indices, 4)
    # a hub among the smallest ids is cut into several tasks; at the largest, no root is
    assert (tasks[:, 2].max() > 1) != hub_last
    want = orbit_counts_5node(g.indptr, g.indices)
    before = numba.get_num_threads()
    try:
        for threads in sorted({1, before}):
            numba.set_num_threads(threads)
            # the third and fourth nodes' common neighbours by the walk or the table search
            for walk in (-1, 0, 10**9):
                got = orbit_counts_5node_equations(g.indptr, g.indices, walk_degree=walk)
                assert (got == want).all(), (threads, walk)
    finally:
        numba.set_num_threads(before)


def test_accumulator_budget_lowers_threads(monkeypatch):
    import numba

    from nx_gpumine.engines.cpu import orbit_equations5

    g = as_static_graph(_hub_graph(False))
    want = orbit_counts_5node(g.indptr, g.indices)
    assert orbit_equations5._threads(g.n) == min(g.n, numba.get_num_threads())
    # room for one thread's rows only (or less): the count runs on one thread, same answer
    for budget in (g.n * 58 * 8, 1):
        monkeypatch.setattr(orbit_equations5, "ACCUMULATOR_BYTES", budget)
        assert orbit_equations5._threads(g.n) == 1
        assert (orbit_counts_5node_equations(g.indptr, g.indices) == want).all()
