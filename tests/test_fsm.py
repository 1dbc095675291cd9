"""Frequent subgraph mining (``frequent_subgraphs``) against a brute-force oracle.

The oracle lists every connected edge subset of the data graph with at most ``max_edges``
edges, groups them by labelled isomorphism (``networkx.is_isomorphic`` with categorical
matches), and computes each group's MNI support from NetworkX's
``GraphMatcher.subgraph_monomorphisms_iter`` over the whole graph.
"""

from __future__ import annotations

import io
import json
import os
import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.interfaces import cli
from nx_gpumine.plan.fsm import _canonical_of_ranks, canonical, one_edge_larger, one_edge_smaller

NL, EL = "c", "w"  # the node and edge label attributes of the test graphs


# ---------------------------------------------------------------- the oracle
def _matchers(node_label: str | None, edge_label: str | None) -> tuple:
    nm = iso.categorical_node_match(node_label, None) if node_label else None
    em = iso.categorical_edge_match(edge_label, None) if edge_label else None
    return nm, em


def _shape(P: nx.Graph, node_label: str | None, edge_label: str | None) -> tuple:
    """An isomorphism invariant of a labelled pattern (to compare fewer pairs)."""
    nodes = sorted((P.degree(v), repr(d.get(node_label))) for v, d in P.nodes(data=True))
    edges = sorted(repr(d.get(edge_label)) for _, _, d in P.edges(data=True))
    return P.number_of_edges(), tuple(nodes), tuple(edges)


def _edge_subsets(G: nx.Graph, max_edges: int) -> set[frozenset]:
    """Every connected set of 1..max_edges non-loop edges of ``G`` (edges as frozensets)."""
    edges = [frozenset(e) for e in G.edges() if e[0] != e[1]]
    level = {frozenset([e]) for e in edges}
    out = set(level)
    for _ in range(max_edges - 1):
        grown = set()
        for s in level:
            nodes = set().union(*s)
            for e in edges:
                if e not in s and e & nodes:
                    grown.add(s | {e})
        out |= grown
        level = grown
    return out


def oracle(
    G: nx.Graph,
    min_support: int,
    max_edges: int,
    node_label: str | None = None,
    edge_label: str | None = None,
) -> list[tuple[nx.Graph, int]]:
    """``(pattern, MNI support)`` of every connected pattern with support >= min_support."""
    nm, em = _matchers(node_label, edge_label)
    groups: dict[tuple, list[nx.Graph]] = {}
    for s in _edge_subsets(G, max_edges):
        P = nx.Graph()
        for e in s:
            u, v = tuple(e)
            P.add_node(u, **G.nodes[u])
            P.add_node(v, **G.nodes[v])
            P.add_edge(u, v, **G.edges[u, v])
        P = nx.convert_node_labels_to_integers(P)
        key = _shape(P, node_label, edge_label)
        bucket = groups.setdefault(key, [])
        if not any(nx.is_isomorphic(P, Q, node_match=nm, edge_match=em) for Q in bucket):
            bucket.append(P)
    out = []
    for bucket in groups.values():
        for P in bucket:
            images: dict = {v: set() for v in P}
            for m in iso.GraphMatcher(
                G, P, node_match=nm, edge_match=em
            ).subgraph_monomorphisms_iter():
                for g, p in m.items():
                    images[p].add(g)
            support = min(len(s) for s in images.values())
            if support >= min_support:
                out.append((P, support))
    return out


def assert_same(got: list, want: list, node_label: str | None, edge_label: str | None) -> None:
    """The mined results equal the oracle's, up to isomorphism, with the same supports."""
    for r, support in pair_up(got, want, node_label, edge_label):
        assert support == r.support, f"{r}: oracle support {support}"


def pair_up(got: list, want: list, node_label: str | None, edge_label: str | None) -> list:
    """``(result, support)``: each result with the support of the one isomorphic pattern of
    ``want`` (``(pattern, support)`` pairs), every one of which is paired."""
    nm, em = _matchers(node_label, edge_label)
    left: dict[tuple, list] = {}
    for P, support in want:
        left.setdefault(_shape(P, node_label, edge_label), []).append((P, support))
    out = []
    for r in got:
        assert r.edges == r.pattern.number_of_edges() and nx.is_connected(r.pattern)
        bucket = left.get(_shape(r.pattern, node_label, edge_label), [])
        hits = [
            i
            for i, (P, _) in enumerate(bucket)
            if nx.is_isomorphic(r.pattern, P, node_match=nm, edge_match=em)
        ]
        assert len(hits) == 1, f"{r} is not one oracle pattern ({len(hits)} hits)"
        out.append((r, bucket.pop(hits[0])[1]))
    missed = [(sorted(P.edges(data=True)), s) for b in left.values() for P, s in b]
    assert not missed, f"missed: {missed}"
    return out


def assert_ordered(results: list) -> None:
    keys = [(r.edges, -r.support) for r in results]
    assert keys == sorted(keys)


def check(G, min_support, max_edges, node_label=None, edge_label=None, engine="cpu"):
    got = ng.frequent_subgraphs(
        G,
        min_support,
        max_edges=max_edges,
        node_label=node_label,
        edge_label=edge_label,
        engine=engine,
    )
    assert_ordered(got)
    assert_same(got, oracle(G, min_support, max_edges, node_label, edge_label), node_label,
                edge_label)  # fmt: skip
    return got


def labelled(G: nx.Graph, labels: str, seed: int, edge_labels: str = "") -> nx.Graph:
    rng = random.Random(seed)
    for v in G:
        G.nodes[v][NL] = rng.choice(labels)
    for u, v in G.edges():
        if edge_labels:
            G.edges[u, v][EL] = rng.choice(edge_labels)
    return G


# ---------------------------------------------------------------- random graphs
@st.composite
def small_graphs(draw: st.DrawFn) -> tuple[nx.Graph, bool, bool]:
    n = draw(st.integers(2, 9))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    for a, b in draw(st.lists(pairs, max_size=18)):
        if a != b or draw(st.integers(0, 5)) == 0:  # a few self-loops (ignored)
            G.add_edge(a, b)
    nlabels = draw(st.sampled_from(["ab", "abc"]))
    use_nodes = draw(st.booleans())
    use_edges = draw(st.booleans())
    for v in G:
        G.nodes[v][NL] = draw(st.sampled_from(nlabels))
    for u, v in G.edges():
        G.edges[u, v][EL] = draw(st.sampled_from("xy"))
    return G, use_nodes, use_edges


@settings(
    max_examples=int(os.environ.get("NX_GPUMINE_FUZZ_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(small_graphs(), st.integers(1, 3), st.integers(1, 3))
def test_equals_brute_force_on_random_graphs(case, max_edges, min_support):
    G, use_nodes, use_edges = case
    check(G, min_support, max_edges, NL if use_nodes else None, EL if use_edges else None)


# ---------------------------------------------------------------- fixed graphs
def test_karate_club(engine):
    G = labelled(nx.karate_club_graph(), "abc", seed=7)
    got = check(G, 2, 3, NL, engine=engine)
    assert len(got) > 50
    assert all(set(d) == {NL} for _, d in got[0].pattern.nodes(data=True))


def test_karate_club_edge_labels(engine):
    G = labelled(nx.karate_club_graph(), "ab", seed=3, edge_labels="xy")
    check(G, 3, 3, NL, EL, engine=engine)
    check(G, 1, 2, None, EL, engine=engine)


def test_labelled_triangle(engine):
    G = nx.Graph([(0, 1), (1, 2), (2, 0)])
    nx.set_node_attributes(G, {0: "a", 1: "b", 2: "c"}, NL)
    got = check(G, 1, 3, NL, engine=engine)
    assert [r.edges for r in got] == [1, 1, 1, 2, 2, 2, 3]
    assert all(r.support == 1 for r in got)
    unlabelled = check(G, 1, 3, engine=engine)
    assert [(r.edges, r.support) for r in unlabelled] == [(1, 3), (2, 3), (3, 3)]


def test_star(engine):
    G = nx.star_graph(5)  # centre 0, leaves 1..5
    got = check(G, 1, 3, engine=engine)
    assert [(r.edges, r.support) for r in got] == [(1, 6), (2, 1), (3, 1)]
    labelled(G, "ab", seed=1)
    check(G, 1, 3, NL, engine=engine)
    check(G, 2, 3, NL, engine=engine)


def test_support_is_the_minimum_image():
    # a path a-b-a-b-a: the edge a-b has 3 a-images and 2 b-images; the b-centred wedge a-b-a
    # has 2 centres, the a-centred one b-a-b only 1
    G = nx.path_graph(5)
    nx.set_node_attributes(G, {v: "ab"[v % 2] for v in G}, NL)
    got = ng.frequent_subgraphs(G, 1, max_edges=2, node_label=NL)
    seen = {(r.edges, tuple(sorted(dict(r.pattern.degree()).items())), r.support) for r in got}
    assert [r.support for r in got] == [2, 2, 1]
    assert len(seen) == 3


def test_lower_bound_supports_give_the_same_patterns():
    for seed in range(3):
        G = labelled(nx.gnm_random_graph(50, 200, seed=seed), "abc", seed=seed, edge_labels="xy")
        for s in (2, 6):
            args = dict(max_edges=3, node_label=NL, edge_label=EL)
            exact = ng.frequent_subgraphs(G, s, **args)
            fast = ng.frequent_subgraphs(G, s, exact_support=False, **args)
            want = [(r.pattern, r.support) for r in exact]
            for r, support in pair_up(fast, want, NL, EL):
                assert s <= r.support <= support


def test_nan_labels_match_nothing():
    G = nx.path_graph(4)
    nx.set_node_attributes(G, {0: "a", 1: "a", 2: float("nan"), 3: "a"}, NL)
    got = ng.frequent_subgraphs(G, 1, max_edges=3, node_label=NL)
    assert [(r.edges, r.support) for r in got] == [(1, 2)]


def test_results_ordered_and_frame():
    G = labelled(nx.karate_club_graph(), "abc", seed=7)
    got = ng.frequent_subgraphs(G, 2, max_edges=3, node_label=NL)
    assert_ordered(got)
    assert len({r.support for r in got if r.edges == 2}) > 1
    pd = pytest.importorskip("pandas")
    df = ng.frequent_subgraphs(G, 2, max_edges=3, node_label=NL, as_frame="pandas")
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == [
        "edges", "support", "nodes", "edge_list", "node_labels", "edge_labels"
    ]  # fmt: skip
    assert df["support"].tolist() == [r.support for r in got]
    assert df["edges"].tolist() == [r.edges for r in got]
    assert df["node_labels"][0].startswith("0:")


def test_edge_labels_carried_by_the_patterns():
    G = nx.Graph()
    G.add_edge(0, 1, kind="x")
    G.add_edge(1, 2, kind="y")
    got = ng.frequent_subgraphs(G, 1, max_edges=2, edge_label="kind")
    assert [sorted(d["kind"] for _, _, d in r.pattern.edges(data=True)) for r in got] == [
        ["x"], ["y"], ["x", "y"]
    ]  # fmt: skip
    assert all(not d for _, d in got[0].pattern.nodes(data=True))


def test_empty_and_small_graphs():
    assert ng.frequent_subgraphs(nx.empty_graph(5), 1) == []
    assert ng.frequent_subgraphs(nx.Graph(), 1) == []
    assert [r.edges for r in ng.frequent_subgraphs(nx.path_graph(2), 1)] == [1]
    # a pattern larger than the graph is no candidate's downfall
    assert [r.edges for r in ng.frequent_subgraphs(nx.complete_graph(3), 1)] == [1, 2, 3]


# ---------------------------------------------------------------- the pattern layer
def test_canonical_form_is_an_isomorphism_invariant():
    rng = random.Random(5)
    for _ in range(200):
        k = rng.randint(2, 6)
        T = nx.random_labeled_tree(k, seed=rng.randint(0, 10**6))
        edges = [(a, b, rng.randint(0, 1)) for a, b in T.edges()]
        for a, b in [(rng.randrange(k), rng.randrange(k)) for _ in range(2)]:
            if a != b and not T.has_edge(a, b):
                edges.append((a, b, 0))
                T.add_edge(a, b)
        labels = [rng.randint(0, 1) for _ in range(k)]
        perm = list(range(k))
        rng.shuffle(perm)
        moved_labels = [0] * k
        for v in range(k):
            moved_labels[perm[v]] = labels[v]
        moved = [(perm[b], perm[a], el) for a, b, el in edges]
        assert canonical(labels, edges) == canonical(moved_labels, moved)


def test_canonical_form_by_order_type_equals_the_search_on_the_values():
    """canonical() searches once per order type (labels as ranks) and maps the values back:
    the same form as the search run on the label values themselves, and equal forms exactly
    for patterns NetworkX's matcher finds isomorphic (labels respected)."""
    search = _canonical_of_ranks.__wrapped__  # the uncached search, on any comparable labels
    rng = random.Random(11)
    seen = []
    for _ in range(300):
        k = rng.randint(2, 5)
        T = nx.random_labeled_tree(k, seed=rng.randint(0, 10**6))
        for a, b in [(rng.randrange(k), rng.randrange(k)) for _ in range(2)]:
            if a != b:
                T.add_edge(a, b)
        values = rng.sample([0, 3, 7, 40, 41, 1000], rng.randint(1, 3))
        edge_values = rng.sample([0, 2, 9], rng.randint(1, 2))
        labels = [rng.choice(values) for _ in range(k)]
        edges = [(a, b, rng.choice(edge_values)) for a, b in T.edges()]
        form = canonical(labels, edges)
        assert form == search(tuple(labels), tuple(edges))
        G = nx.Graph()
        G.add_nodes_from((v, {"x": x}) for v, x in enumerate(labels))
        G.add_edges_from((a, b, {"e": el}) for a, b, el in edges)
        seen.append((form, G))
    match = {"node_match": iso.categorical_node_match("x", None),
             "edge_match": iso.categorical_edge_match("e", None)}  # fmt: skip
    for (f1, g1), (f2, g2) in zip(seen, seen[1:] + seen[:1], strict=True):
        assert (f1 == f2) == nx.is_isomorphic(g1, g2, **match)
    for f, g in seen[:60]:  # each against a relabelled copy of itself
        perm = list(g)
        rng.shuffle(perm)
        h = nx.relabel_nodes(g, dict(zip(g, perm, strict=True)))
        labels = [h.nodes[v]["x"] for v in range(len(h))]
        assert canonical(labels, [(a, b, d["e"]) for a, b, d in h.edges(data=True)]) == f


def test_extension_and_sub_patterns_are_inverse():
    tri = canonical([0, 0, 1], [(0, 1, 0), (1, 2, 0), (0, 2, 0)])
    path = canonical([0, 0, 1], [(0, 1, 0), (1, 2, 0)])
    assert tri in one_edge_larger(path, {0: [(0, 0), (1, 0)], 1: [(0, 0)]})
    assert set(one_edge_smaller(tri)) >= {path}
    for p in one_edge_smaller(tri):
        assert p.num_edges == 2


# ---------------------------------------------------------------- bad input
def test_bad_input():
    G = labelled(nx.karate_club_graph(), "abc", seed=7)
    with pytest.raises(ng.QueryError, match="directed"):
        ng.frequent_subgraphs(nx.DiGraph([(0, 1)]), 1)
    with pytest.raises(ng.QueryError, match="min_support"):
        ng.frequent_subgraphs(G, -1)
    with pytest.raises(ng.QueryError, match="min_support"):
        ng.frequent_subgraphs(G, 0)
    with pytest.raises(ng.QueryError, match="min_support"):
        ng.frequent_subgraphs(G, 1.5)
    with pytest.raises(ng.QueryError, match="max_edges"):
        ng.frequent_subgraphs(G, 1, max_edges=0)
    with pytest.raises(ng.InputError, match="nolabel"):
        ng.frequent_subgraphs(G, 1, node_label="nolabel")
    with pytest.raises(ng.InputError, match="nolabel"):
        ng.frequent_subgraphs(G, 1, edge_label="nolabel")
    with pytest.raises(ng.QueryError, match="engine"):
        ng.frequent_subgraphs(G, 1, engine="gpu")
    with pytest.raises(ng.InputError, match="as_frame"):
        ng.frequent_subgraphs(G, 1, as_frame="excel")
    with pytest.raises(ng.QueryError, match="exact_support"):
        ng.frequent_subgraphs(G, 1, exact_support="no")
    with pytest.raises(ng.UnsupportedGraphError):
        ng.frequent_subgraphs(nx.MultiGraph([(0, 1), (0, 1)]), 1)


# ---------------------------------------------------------------- GPU
@pytest.mark.gpu
def test_cuda_equals_cpu():
    rng = random.Random(11)
    for seed in range(3):
        G = nx.gnm_random_graph(300, 1500, seed=seed)
        labelled(G, "abcd", seed=rng.randint(0, 99), edge_labels="xy" if seed == 2 else "")
        args = dict(max_edges=3, node_label=NL, edge_label=EL if seed == 2 else None)
        # 270-1,800 frequent patterns per call (3-edge ones searched pattern by pattern)
        for s in (3, 20):
            cpu = ng.frequent_subgraphs(G, s, engine="cpu", as_frame="pandas", **args)
            cuda = ng.frequent_subgraphs(G, s, engine="cuda", as_frame="pandas", **args)
            assert cuda.equals(cpu)
        fast = ng.frequent_subgraphs(
            G, s, engine="cuda", as_frame="pandas", exact_support=False, **args
        )
        assert len(fast) == len(cpu) and (fast["support"] >= s).all()


@pytest.mark.gpu
def test_cuda_devices_equal_one_device():
    """``devices=``: the candidates of three edges or more searched on every GPU (two worker
    slots on GPU 0 where only one is visible) give one device's answer."""
    import cupy

    G = labelled(nx.gnm_random_graph(300, 1500, seed=6), "abcd", seed=8, edge_labels="xy")
    args = dict(max_edges=3, node_label=NL, edge_label=EL, engine="cuda", as_frame="pandas")
    one = ng.frequent_subgraphs(G, 5, **args)
    devices = 2 if cupy.cuda.runtime.getDeviceCount() >= 2 else [0, 0]
    assert ng.frequent_subgraphs(G, 5, devices=devices, **args).equals(one)
    assert (one["edges"] == 3).any()


@pytest.mark.gpu
def test_cuda_out_of_core_equals_in_memory():
    """A device budget below the graph's mining data forces the out-of-core path (levels 1
    and 2 on the host, the existence searches reading the graph from pinned host memory):
    the same patterns and supports as in device memory and on the CPU."""
    from nx_gpumine.engines.cuda import memory
    from nx_gpumine.execution import fsm as fsm_execution
    from nx_gpumine.inputs.static_graph import as_static_graph

    G = labelled(nx.gnm_random_graph(400, 2400, seed=5), "abc", seed=3, edge_labels="xy")
    g = as_static_graph(G, node_label=NL, edge_label=EL)
    need = memory.fsm_need(g.n, len(g.indices))
    small = g.n * memory.FSM_NODE_BYTES + need // 4  # room for the vertex arrays only
    args = dict(max_edges=3, node_label=NL, edge_label=EL, as_frame="pandas")
    cpu = ng.frequent_subgraphs(g, 4, engine="cpu", **args)
    in_memory = ng.frequent_subgraphs(g, 4, engine="cuda", **args)
    assert fsm_execution.last_run["out_of_core"] is False
    out = ng.frequent_subgraphs(g, 4, engine="cuda", max_device_bytes=small, **args)
    assert fsm_execution.last_run["out_of_core"] is True
    assert fsm_execution.last_run["levels"] == 3 and (out["edges"] == 3).any()
    assert out.equals(in_memory) and out.equals(cpu)
    with pytest.raises(ng.CapacityError, match="even out of core"):
        ng.frequent_subgraphs(g, 4, engine="cuda", max_device_bytes=g.n, **args)


def test_candidates_shared_by_worker_slots_equal_one_thread():
    """The scheduling of ``devices=`` (one worker per slot, a shared queue of the candidates of
    three edges or more) on the CPU engine's plain threads: the same patterns and supports."""
    from nx_gpumine.execution import fsm as fsm_execution
    from nx_gpumine.inputs.static_graph import as_static_graph

    G = labelled(nx.gnm_random_graph(120, 500, seed=2), "abc", seed=4, edge_labels="xy")
    g = as_static_graph(G, node_label=NL, edge_label=EL)
    _, one = fsm_execution.mine_frequent(g, 3, 3, engine="cpu")
    _, shared = fsm_execution.mine_frequent(g, 3, 3, engine="cpu", slots=[0, 0, 0])
    assert shared == one and any(p.num_edges == 3 for p, _ in one)
    assert fsm_execution.last_run["slots"] == [0, 0, 0]
    assert len(fsm_execution.last_run["busy_seconds"]) == 3
    with pytest.raises(ValueError, match="devices= names GPUs"):
        ng.frequent_subgraphs(G, 3, node_label=NL, engine="cpu", devices=2)


def test_device_budget_argument_is_checked():
    G = labelled(nx.path_graph(4), "ab", seed=1)
    with pytest.raises(ValueError, match="max_device_bytes"):
        ng.frequent_subgraphs(G, 1, node_label=NL, engine="cpu", max_device_bytes=0)
    with pytest.raises(TypeError, match="max_device_bytes"):
        ng.frequent_subgraphs(G, 1, node_label=NL, engine="cpu", max_device_bytes=1.5)
    assert ng.frequent_subgraphs(G, 1, node_label=NL, engine="cpu", max_device_bytes=1 << 20)


# ---------------------------------------------------------------- command line
def test_cli_fsm(tmp_path):
    G = labelled(nx.karate_club_graph(), "abc", seed=7)
    edges = tmp_path / "edges.txt"
    edges.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    labels = tmp_path / "labels.txt"
    labels.write_text("".join(f"{v} {G.nodes[v][NL]}\n" for v in G))
    argv = ["fsm", str(edges), "--min-support", "3", "--max-edges", "2", "--engine", "cpu"]
    argv += ["--node-labels", str(labels)]
    buf = io.StringIO()
    assert cli.main([*argv, "--format", "json"], out=buf) == 0
    rows = json.loads(buf.getvalue())["patterns"]
    want = ng.frequent_subgraphs(G, 3, max_edges=2, node_label=NL)
    assert [(r["edges"], r["support"], r["node_labels"]) for r in rows] == [
        (r.edges, r.support, r.node_label_text()) for r in want
    ]
    buf = io.StringIO()
    assert cli.main(argv, out=buf) == 0
    text = buf.getvalue()
    assert "edge_list" in text and f"{len(want):,} frequent patterns" in text
    buf = io.StringIO()
    assert cli.main([*argv, "--no-exact-support", "--format", "csv"], out=buf) == 0
    assert len(buf.getvalue().strip().splitlines()) == len(want) + 1
    buf = io.StringIO()
    assert cli.main(["fsm", str(edges), "--min-support", "0"], out=buf) == 2
