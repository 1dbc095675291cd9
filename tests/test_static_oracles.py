"""Counts on real and seeded graphs equal counts computed outside the project.

Expected numbers come from ``tests/data/static_oracles.json`` (a copy of the shared oracle file:
igraph LAD, rustworkx VF2 and NetworkX agreed on each, see ``agreed_by``); igraph is also run
here, in the test, where it is fast.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.inputs.patterns import CATALOGUE, Pattern

DATA = Path(__file__).parent / "data" / "static_oracles.json"
ORACLES = json.loads(DATA.read_text())
FACEBOOK = Path(ng.__file__).parent / "data" / "facebook_combined.txt"

KINDS = [
    ("monomorphisms", False, "mappings"),
    ("induced_isomorphisms", True, "mappings"),
    ("distinct_monomorphic_subgraphs", False, "subgraphs"),
    ("distinct_induced_subgraphs", True, "subgraphs"),
]


@cache
def graph(name: str) -> nx.Graph:
    makers = {
        "karate": lambda: nx.Graph(nx.karate_club_graph()),
        "les_miserables": lambda: nx.Graph(nx.les_miserables_graph()),
        "florentine_families": nx.florentine_families_graph,
        "gnm_1000_8000_s7": lambda: nx.gnm_random_graph(1000, 8000, seed=7),
        "ba_2000_4_s7": lambda: nx.barabasi_albert_graph(2000, 4, seed=7),
        "gnm_1000_8000_s7_directed": lambda: nx.gnm_random_graph(1000, 8000, seed=7, directed=True),
    }
    return makers[name]()


@cache
def facebook() -> ng.StaticGraph:
    edges = np.loadtxt(FACEBOOK, dtype=np.int64)
    return ng.from_arrays(edges[:, 0], edges[:, 1])


CASES = [
    pytest.param(key, field, induced, kind, id=f"{key}-{field}")
    for key, entry in ORACLES["counts"].items()
    for field, induced, kind in KINDS
    if field in entry
]


@pytest.mark.parametrize(("key", "field", "induced", "kind"), CASES)
def test_oracle_counts(engine, key, field, induced, kind):
    gname, pname = key.split("|")
    expected = ORACLES["counts"][key][field]
    got = ng.count_subgraphs(graph(gname), pname, induced=induced, count=kind, engine=engine)
    assert got == expected


@pytest.mark.parametrize("key", list(ORACLES["counts"]))
def test_oracle_automorphisms(key):
    pname = key.split("|")[1]
    assert Pattern.named(pname).num_automorphisms() == ORACLES["counts"][key]["automorphisms"]


SMALL = ["karate", "les_miserables", "florentine_families"]


@pytest.mark.parametrize("gname", SMALL)
@pytest.mark.parametrize("pname", [p for p in CATALOGUE if not p.startswith(("directed", "feed"))])
@pytest.mark.parametrize("induced", [False, True])
def test_igraph_lad_agrees(engine, gname, pname, induced):
    ig = pytest.importorskip("igraph")
    G = graph(gname)
    P = CATALOGUE[pname]()
    gi = ig.Graph.from_networkx(nx.convert_node_labels_to_integers(G))
    pi = ig.Graph.from_networkx(P)
    expected = len(gi.get_subisomorphisms_lad(pi, induced=induced))
    assert ng.count_subgraphs(G, pname, induced=induced, engine=engine) == expected


FB = ORACLES["facebook_distinct_subgraphs"]


@pytest.mark.parametrize(
    ("pname", "induced", "field"),
    [
        ("triangle", False, "triangle"),
        ("4-clique", False, "4-clique"),
        ("diamond", False, "diamond_noninduced"),
        ("diamond", True, "diamond_induced"),
    ],
)
def test_facebook_distinct(engine, pname, induced, field):
    got = ng.count_subgraphs(facebook(), pname, induced=induced, count="subgraphs", engine=engine)
    assert got == FB[field]


def test_facebook_triangles_igraph(engine):
    ig = pytest.importorskip("igraph")
    g = facebook()
    src, dst = g.edges()
    gi = ig.Graph(n=g.n, edges=np.column_stack([src, dst]).tolist())
    expected = len(gi.list_triangles())
    assert expected == 1_612_010  # SNAP's published figure
    assert ng.count_subgraphs(g, "triangle", count="subgraphs", engine=engine) == expected
    assert ng.count_subgraphs(g, "triangle", engine=engine) == 6 * expected


EXHAUSTIVE = [
    pytest.param(key, field, induced, id=f"{key}-{field}")
    for key, entry in ORACLES["counts"].items()
    for field, induced, kind in KINDS
    if kind == "mappings" and field in entry and not key.startswith(("gnm_1000_8000_s7|5", "ba"))
]


@pytest.mark.parametrize(("key", "field", "induced"), EXHAUSTIVE)
def test_oracle_counts_without_symmetry_breaking(engine, key, field, induced):
    """The engine counting every mapping one by one (no symmetry restrictions) agrees too."""
    from nx_gpumine.execution.static import run_static
    from nx_gpumine.plan.static_plan import build_static_plan

    gname, pname = key.split("|")
    g = ng.from_networkx(graph(gname))
    plan = build_static_plan(Pattern.named(pname), g, induced=induced, distinct=False)
    assert not plan.distinct and plan.sym_level.size == 0
    got = run_static(g, plan, "count", engine=engine)
    assert got == ORACLES["counts"][key][field]
