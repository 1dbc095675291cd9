"""What a new user sees when the backend declines: refusal reasons, engine typos, should_run.

Issue 37: a refused ``backend="gpumine"`` call must say why, ``engine="gpu"`` must be a
``ValueError`` naming the engines, and under a priority list the cheap functions on small graphs
must run in NetworkX (``should_run``) while explicit ``backend="gpumine"`` calls still run here.
"""

from __future__ import annotations

import logging

import networkx as nx
import pytest

from nx_gpumine.interfaces.backend_dispatch import (
    MIN_WORTHWHILE_SIZE,
    NEVER_WORTHWHILE,
    can_run,
    should_run,
)
from tests.backend_fixtures import gpumine_priority, record_backend_calls


@pytest.fixture
def served(monkeypatch):
    """Record which dispatched functions the backend really ran."""
    return record_backend_calls(
        monkeypatch, ("triangles", "clustering", "faster_could_be_isomorphic", "is_isomorphic")
    )


@pytest.fixture
def priority():
    """``nx.config.backend_priority.algos = ["gpumine"]`` (as NETWORKX_BACKEND_PRIORITY)."""
    with gpumine_priority():
        yield


def _weighted_path() -> nx.Graph:
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 2, "weight")
    return G


# ====================================================================== item 3: reasons
def test_explicit_refusal_carries_the_reason():
    G = _weighted_path()
    with pytest.raises(NotImplementedError, match="because: weighted clustering is left"):
        nx.clustering(G, weight="weight", backend="gpumine")
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    with pytest.raises(NotImplementedError, match="because: one graph is a multigraph") as info:
        nx.is_isomorphic(M, nx.path_graph(3), backend="gpumine")
    assert "backend='gpumine'" in str(info.value)


def test_refusal_still_falls_back_under_priority(served, priority, caplog):
    # the reason is returned (not raised) when NetworkX chose the backend itself
    G = _weighted_path()
    with caplog.at_level(logging.INFO, logger="nx_gpumine"):
        assert nx.clustering(G, weight="weight") == nx.clustering(
            G, weight="weight", backend="networkx"
        )
    assert served == []
    assert "weighted clustering" in caplog.text
    reason = can_run("clustering", (G,), {"weight": "weight"})
    assert isinstance(reason, str) and "weighted" in reason


def test_unknown_engine_is_a_value_error_listing_the_names(monkeypatch):
    G = nx.complete_graph(4)
    with pytest.raises(
        ValueError, match=r"engine= keyword must be one of \('auto', 'cpu', 'cuda'\), got 'gpu'"
    ):
        nx.triangles(G, backend="gpumine", engine="gpu")
    monkeypatch.setattr(nx.config.backends.gpumine, "engine", "gpu")
    with pytest.raises(ValueError, match="nx.config.backends.gpumine.engine .* got 'gpu'"):
        nx.triangles(G, backend="gpumine")


# ====================================================================== item 4: should_run
def test_small_triangles_run_in_networkx_large_ones_here(served, priority):
    small = nx.complete_graph(5)
    assert nx.triangles(small) == {v: 6 for v in small}
    assert nx.clustering(small) == {v: 1.0 for v in small}
    assert served == []  # declined by should_run: NetworkX answered
    big = nx.gnm_random_graph(400, MIN_WORTHWHILE_SIZE["triangles"], seed=3)
    assert nx.triangles(big) == nx.triangles(big, backend="networkx")
    assert served == ["triangles"]


def test_explicit_backend_ignores_should_run(served):
    small = nx.complete_graph(5)
    assert nx.triangles(small, backend="gpumine", engine="cpu") == {v: 6 for v in small}
    H = nx.relabel_nodes(small, {v: v + 10 for v in small})
    assert nx.faster_could_be_isomorphic(small, H, backend="gpumine", engine="cpu")
    assert served == ["triangles", "faster_could_be_isomorphic"]


def test_should_run_reasons():
    small = nx.path_graph(10)
    reason = should_run("triangles", (small,), {})
    assert isinstance(reason, str) and "faster in NetworkX" in reason
    assert isinstance(should_run("faster_could_be_isomorphic", (small, small), {}), str)
    assert "faster_could_be_isomorphic" in NEVER_WORTHWHILE
    # nodes alone reach the threshold: accepted without counting edges
    assert should_run("triangles", (nx.empty_graph(MIN_WORTHWHILE_SIZE["triangles"]),), {}) is True
    # edges count too: a dense graph with few nodes is worth it
    assert should_run("clustering", (nx.complete_graph(30),), {}) is True
    # the searches always run here
    assert should_run("is_isomorphic", (small, small), {}) is True


def test_small_isomorphism_still_dispatched(served, priority):
    G = nx.cycle_graph(5)
    assert nx.is_isomorphic(G, nx.relabel_nodes(G, {v: -v for v in G}))
    assert served == ["is_isomorphic"]
