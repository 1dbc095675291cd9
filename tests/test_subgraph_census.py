"""Issue 31: the static subgraph census (every connected k-node pattern, induced or not).

Oracles: a brute force over node sets (NetworkX isomorphism of each induced subgraph), NetworkX's
monomorphism counts for the non-induced census, igraph's ``motifs_randesu`` (optional), and the
catalogue sizes every graphlet survey quotes (2, 6, 21 undirected; 13, 199 directed).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.errors import QueryError
from nx_gpumine.plan.graphlets import (
    CYCLE_BLOCKS,
    LINK_BLOCKS,
    copies_matrix,
    graphlets,
    induced_counts,
)


# ---------------------------------------------------------------- the catalogue
@pytest.mark.parametrize(("k", "directed", "n"), [(3, False, 2), (4, False, 6), (5, False, 21),
                                                  (3, True, 13), (4, True, 199)])  # fmt: skip
def test_graphlet_catalogue(k, directed, n):
    gs = graphlets(k, directed)
    assert len(gs) == n
    assert len({g.name for g in gs}) == n
    graphs = [g.graph() for g in gs]
    connected = nx.is_weakly_connected if directed else nx.is_connected
    assert all(len(h) == k and connected(h) for h in graphs)
    for a, b in itertools.combinations(graphs, 2):  # pairwise non-isomorphic
        assert not nx.is_isomorphic(a, b)
    c = copies_matrix(k, directed)
    for i in range(n):
        assert c[i][i] == 1
        assert all(c[i][j] == 0 for j in range(i))  # edge counts never fall
    for g in gs:  # atlas names are NetworkX's graph atlas entries
        if g.name.startswith("G"):
            assert nx.is_isomorphic(nx.graph_atlas(int(g.name[1:])), g.graph())


def test_copies_of_a_clique():
    """K4's edge subsets on its 4 nodes: 12 Hamiltonian paths, 4 stars, 3 4-cycles, 12 tailed
    triangles, 6 diamonds and itself."""
    gs = graphlets(4, False)
    col = {g.name: copies_matrix(4, False)[i][-1] for i, g in enumerate(gs)}
    assert col == {"4-star": 4, "4-path": 12, "tailed-triangle": 12, "4-cycle": 3,
                   "diamond": 6, "4-clique": 1}  # fmt: skip


def test_induced_counts_inverts_the_relation():
    c = copies_matrix(4, False)
    induced = [5, 0, 7, 1, 2, 3]
    noninduced = [sum(c[i][j] * induced[j] for j in range(6)) for i in range(6)]
    assert induced_counts(noninduced, 4, False) == induced
    with pytest.raises(ValueError, match="expected 6"):
        induced_counts([1, 2], 4, False)


# ---------------------------------------------------------------- oracles
def _brute(G, k):
    """Induced census by brute force: each connected k-node set, classified by isomorphism."""
    pats = ng.census_patterns(k, G.is_directed())
    connected = nx.is_weakly_connected if G.is_directed() else nx.is_connected
    cnt = Counter({name: 0 for name in pats})
    for nodes in itertools.combinations(G, k):
        H = nx.DiGraph(G.subgraph(nodes)) if G.is_directed() else nx.Graph(G.subgraph(nodes))
        H.remove_edges_from(list(nx.selfloop_edges(H)))
        if connected(H):
            (name,) = [n for n, P in pats.items() if nx.is_isomorphic(H, P)]
            cnt[name] += 1
    return dict(cnt)


def _noninduced(G, k):
    """Non-induced census from NetworkX: monomorphisms / |Aut(P)| per pattern."""
    iso = nx.algorithms.isomorphism
    matcher = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    H = G.copy()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    out = {}
    for name, P in ng.census_patterns(k, G.is_directed()).items():
        mono = sum(1 for _ in matcher(H, P).subgraph_monomorphisms_iter())
        aut = sum(1 for _ in matcher(P, P).isomorphisms_iter())
        out[name] = mono // aut
    return out


GRAPHS = {
    "gnp-undirected": lambda: nx.gnp_random_graph(13, 0.35, seed=4),
    "gnp-directed": lambda: nx.gnp_random_graph(10, 0.3, seed=5, directed=True),
    "karate": nx.karate_club_graph,
    "loops": lambda: nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 3), (1, 1), (3, 4)]),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_census_equals_brute_force(name, engine):
    G = GRAPHS[name]()
    sizes = (3, 4) if G.is_directed() else (3, 4, 5)
    for k in sizes:
        if name == "karate" and k == 5:
            continue  # 237,336 node sets: the brute force alone takes minutes
        got = ng.subgraph_census(G, k, engine=engine)
        assert got == _brute(G, k)
        assert ng.subgraph_census(G, k, induced=False, engine=engine) == _noninduced(G, k)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    n=st.integers(1, 8),
    p=st.floats(0.1, 0.9),
    seed=st.integers(0, 10**6),
    directed=st.booleans(),
)
def test_census_property(n, p, seed, directed):
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    for k in (3, 4):
        got = ng.subgraph_census(G, k, engine="cpu")
        assert got == _brute(G, k)
        assert all(v >= 0 for v in got.values())


def test_igraph_motifs_agree():
    ig = pytest.importorskip("igraph")
    for directed, sizes in ((False, (3, 4)), (True, (3, 4))):
        G = nx.gnp_random_graph(30, 0.15, seed=11, directed=directed)
        H = ig.Graph(n=len(G), edges=list(G.edges()), directed=directed)
        for k in sizes:
            want = {}
            pats = ng.census_patterns(k, directed)
            for cls, v in enumerate(H.motifs_randesu(size=k)):
                if v != v:  # NaN: a disconnected class
                    continue
                P = ig.Graph.Isoclass(k, cls, directed=directed).to_networkx()
                (name,) = [n for n, Q in pats.items() if nx.is_isomorphic(P, Q)]
                want[name] = int(v)
            assert ng.subgraph_census(G, k, engine="cpu") == want


# ---------------------------------------------------------------- the call
def test_small_graphs_and_errors():
    assert ng.subgraph_census(nx.complete_graph(4), 3) == {"wedge": 0, "triangle": 4}
    assert ng.subgraph_census(nx.path_graph(2), 3) == {"wedge": 0, "triangle": 0}
    assert set(ng.subgraph_census(nx.empty_graph(0), 5)) == set(ng.census_patterns(5))
    with pytest.raises(QueryError, match="k in"):
        ng.subgraph_census(nx.path_graph(4), 6)
    with pytest.raises(QueryError, match="directed subgraph census takes k in"):
        ng.subgraph_census(nx.DiGraph([(0, 1)]), 5)
    with pytest.raises(QueryError, match="k in"):
        ng.subgraph_census(nx.path_graph(4), True)
    with pytest.raises(QueryError):
        ng.subgraph_census(nx.path_graph(4), 3, induced="yes")


def test_census_patterns_are_the_keys():
    G = nx.gnp_random_graph(9, 0.5, seed=1)
    got = ng.subgraph_census(G, 5, engine="cpu")
    pats = ng.census_patterns(5)
    assert list(got) == list(pats)
    assert {"5-cycle", "house", "5-clique"} <= set(pats)
    assert all(isinstance(P, nx.Graph) and len(P) == 5 for P in pats.values())


def test_as_frame():
    pd = pytest.importorskip("pandas")
    G = nx.karate_club_graph()
    df = ng.subgraph_census(G, 4, as_frame="pandas", engine="cpu")
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["pattern", "nodes", "edges", "edge_list", "count"]
    assert dict(zip(df["pattern"], df["count"].tolist(), strict=True)) == ng.subgraph_census(
        G, 4, engine="cpu"
    )
    assert df.loc[df["pattern"] == "4-cycle", "edge_list"].item() == "0-2 0-3 1-2 1-3"
    with pytest.raises(ng.InputError, match="as_frame"):
        ng.subgraph_census(G, 3, as_frame="excel")


# ---------------------------------------------------------------- command line and plot
def test_cli_graphlets(tmp_path, capsys):
    import io
    import json

    from nx_gpumine.interfaces.cli import main

    path = tmp_path / "g.txt"
    G = nx.gnp_random_graph(15, 0.3, seed=2)
    path.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    out = io.StringIO()
    assert main(["graphlets", str(path), "-k", "4", "--format", "json", "--engine", "cpu"],
                out=out) == 0  # fmt: skip
    data = json.loads(out.getvalue())
    # the file holds only the nodes with edges: the same census
    assert data["counts"] == _brute(G.subgraph([v for v in G if G.degree(v)]), 4)
    assert data["induced"] is True and data["k"] == 4
    out = io.StringIO()
    assert main(["graphlets", str(path), "-k", "3", "--non-induced", "--engine", "cpu"],
                out=out) == 0  # fmt: skip
    assert "wedge" in out.getvalue() and "(non-induced)" in out.getvalue()
    assert main(["graphlets", str(path), "-k", "5", "--directed", "--engine", "cpu"],
                out=io.StringIO()) == 2  # fmt: skip
    assert "directed subgraph census takes k in (3, 4)" in capsys.readouterr().err


def test_cli_graphlets_plot(tmp_path):
    import io

    pytest.importorskip("matplotlib")
    from nx_gpumine.interfaces.cli import main

    path = tmp_path / "g.txt"
    path.write_text("0 1\n1 2\n2 0\n2 3\n3 4\n")
    png = tmp_path / "census.png"
    assert main(["graphlets", str(path), "-k", "3", "--plot", str(png), "--engine", "cpu"],
                out=io.StringIO()) == 0  # fmt: skip
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _block_formulas_equal_engine_counts(engine: str, seed: int) -> dict:
    from nx_gpumine.engines.contract import engine_module
    from nx_gpumine.inputs.static_graph import as_static_graph
    from nx_gpumine.plan.graphlets import CENSUS_BLOCKS, block_formula, from_blocks

    G = nx.gnp_random_graph(40, 0.2 + 0.1 * seed, seed=seed)
    G.add_edges_from([(0, 0), (3, 3)])  # self-loops are not in the degrees
    G.add_nodes_from([90, 91])  # isolated nodes
    g = as_static_graph(G)
    stats: dict = {}
    blocks = engine_module("census", engine).census_blocks(g, CENSUS_BLOCKS, stats)
    # (the CUDA engine leaves the 4-cycles and 4-cliques to its shape kernels unless the 5-node
    # census's other blocks are asked with them, as here)
    assert sorted(blocks) == sorted(CENSUS_BLOCKS)
    seen = []
    for k in (3, 4, 5):
        for gl in graphlets(k, False):
            got = from_blocks(gl, blocks)
            if got is not None:
                seen.append(gl.name)
                assert got == ng.count_subgraphs(g, gl.graph(), count="subgraphs", engine="cpu")
    every = [
        "wedge",
        "triangle",
        "4-star",
        "4-path",
        "tailed-triangle",
        "4-cycle",
        "diamond",
        "4-clique",
        "G29",
        "G30",
        "G31",
        "G34",
        "G35",
        "G37",
        "G36",
        "5-cycle",
        "G40",
        "G44",
        "G41",
        "G42",
        "house",
        "G46",
        "G45",
        "G47",
        "G48",
        "G49",
        "G50",
        "G51",
    ]  # fmt: skip  (5 nodes: G29 the star, G30 the spider, G31 the path, G34 and G35 the
    # triangle with two tails at one node and at two, G37 the 4-cycle with a tail, G36 the
    # triangle with a two-edge tail, the 5-cycle, G40 the diamond with a tail at a chord end,
    # G44 K_{2,3}, G41 the diamond with a tail at a side node, G42 the bowtie, G46 the book
    # of three pages, G45 the 4-clique with a tail, G47 the fan, G48 K_{2,3} with a side edge,
    # G49 the 4-clique with a node on two of its nodes, G50 the wheel, G51 K5 less an edge;
    # all but the 5-clique)
    assert seen == every
    assert block_formula(graphlets(3, True)[0]) is None
    assert from_blocks(graphlets(4, False)[3], {"paths3": 1}) is None  # triangles missing
    return stats


@pytest.mark.parametrize("seed", range(4))
def test_block_formulas_equal_engine_counts(engine, seed):
    stats = _block_formulas_equal_engine_counts(engine, seed)
    if engine == "cuda":
        assert stats["kernel_ms"] > 0


def test_progress_bar_over_the_patterns(capsys):
    pytest.importorskip("tqdm")
    G = nx.gnp_random_graph(20, 0.3, seed=3)
    assert ng.subgraph_census(G, 4, progress=True, engine="cpu") == _brute(G, 4)
    err = capsys.readouterr().err
    assert "subgraph census k=4" in err and "6/6 tasks" in err


def test_star_blocks_past_64_bits(engine):
    """C(200000, 4) > 2**64: the engine's 64-bit sum gives way to exact Python integers."""
    import math

    from nx_gpumine.engines.contract import engine_module
    from nx_gpumine.inputs.static_graph import as_static_graph

    g = as_static_graph(nx.star_graph(200_000))
    blocks = engine_module("census", engine).census_blocks(g, {"stars2", "stars4"}, {})
    assert math.comb(200_000, 4) > 2**64
    assert blocks == {"stars2": math.comb(200_000, 2), "stars4": math.comb(200_000, 4)}


def test_triangle_sums_equal_direct_sums():
    """The triangle blocks both engines take from each edge's triangles (``triangle_sums``, on
    the host) against the same sums written out over NetworkX's nodes, edges and triangles."""
    from nx_gpumine.engines.cpu.orbit_counts import edge_triangle_counts
    from nx_gpumine.engines.degree_sums import TRIANGLE_SUMS, triangle_sums
    from nx_gpumine.inputs.static_graph import as_static_graph

    for seed in range(4):
        G = nx.gnp_random_graph(30, 0.25, seed=seed)
        G.add_nodes_from([70, 71])
        g = as_static_graph(G)
        H = nx.relabel_nodes(G, {v: i for i, v in enumerate(G)})  # g's dense ids
        t = edge_triangle_counts(g.indptr, g.indices, check=False)
        d = dict(H.degree())
        tv = nx.triangles(H)
        te = {(x, y): len(set(H[x]) & set(H[y])) for x, y in H.edges()}
        far = {v: sum(d[u] - 1 for u in H[v]) for v in H}
        want = {
            "triangles": sum(tv.values()) // 3,
            "books2": sum(math.comb(c, 2) for c in te.values()),
            "tailed": sum(tv[v] * (d[v] - 2) for v in H),
            "forks": sum(tv[v] * math.comb(max(d[v] - 2, 0), 2) for v in H),
            "tri_arms": sum(tv[v] * far[v] for v in H),
            "tri_pairs": sum(math.comb(tv[v], 2) for v in H),
            "doubletails": sum(c * (d[x] - 2) * (d[y] - 2) for (x, y), c in te.items()),
            "books_deg": sum(math.comb(c, 2) * (d[x] + d[y]) for (x, y), c in te.items()),
        }
        assert triangle_sums(g.indptr, g.indices, t, TRIANGLE_SUMS) == want


def test_five_node_census_from_blocks_and_queries(monkeypatch):
    """The 5-node census from blocks where the engine leaves some out: every graphlet but the
    5-clique from its formula, the triangles, 4-cycles and 4-cliques the engine left out
    counted on the query path (GRAPHLET_BLOCKS), the 5-clique one query; the counts of one
    induced query per graphlet."""
    from nx_gpumine.engines.cpu import census as cpu_census
    from nx_gpumine.execution.subgraph_census import last_census

    G = nx.gnm_random_graph(40, 150, seed=4)
    want = {
        name: ng.count_subgraphs(G, P, induced=True, count="subgraphs", engine="cpu")
        for name, P in ng.census_patterns(5).items()
    }
    real = cpu_census.census_blocks

    def fewer_blocks(graph, names, stats):  # as an engine without 4-node passes would
        got = real(graph, set(names) - {"cycles4", "cliques4"}, stats)
        return {k: v for k, v in got.items() if k != "triangles"}

    monkeypatch.setattr(cpu_census, "census_blocks", fewer_blocks)
    assert ng.subgraph_census(G, 5, engine="cpu") == want
    by = last_census["by_pattern"]
    formulas = [g.name for g in graphlets(5, False) if g.name != "5-clique"]
    assert [by[name] for name in formulas] == ["formula"] * len(formulas)
    assert list(by.values()).count("query") == len(by) - len(formulas)


def test_cycle_blocks_equal_brute_force(monkeypatch):
    """The 4-cycle blocks against sums over node sets and edges made by brute force, and the
    64-bit guard."""
    from itertools import combinations

    from nx_gpumine.engines.cpu import census_walks as cb
    from nx_gpumine.engines.cpu.orbit_counts import edge_triangle_counts
    from nx_gpumine.errors import CapacityError
    from nx_gpumine.inputs.static_graph import as_static_graph

    for seed in range(3):
        G = nx.gnp_random_graph(16, 0.3 + 0.1 * seed, seed=seed)
        G.add_nodes_from([40])
        g = as_static_graph(G)
        t = edge_triangle_counts(g.indptr, g.indices, check=False)
        got = cb.walk_blocks(g.indptr, g.indices, t, CYCLE_BLOCKS | {"stars2"})
        adj = {v: set(g.indices[g.indptr[v] : g.indptr[v + 1]].tolist()) for v in range(g.n)}
        common = {(v, x): len(adj[v] & adj[x]) for v in adj for x in adj if v != x}
        c4v = {v: sum(math.comb(common[v, x], 2) for x in adj if x != v) for v in adj}
        tri = {(a, b): len(adj[a] & adj[b]) for a in adj for b in adj[a]}
        c4e = {(a, b): sum(common[a, c] - 1 for c in adj[b] if c != a) for a, b in tri}
        want = {
            "cycles4": sum(c4v.values()) // 4,
            "cycle_tails": sum(c4v[v] * (len(adj[v]) - 2) for v in adj),
            "k23": sum(math.comb(common[v, x], 3) for v, x in combinations(adj, 2)),
            "house_sum": sum(tri[e] * c4e[e] for e in tri) // 2,
            "tri_deg": sum(
                tri[a, b] * sum(len(adj[c]) - 2 for c in adj[a] & adj[b]) for a, b in tri
            )
            // 2,  # fmt: skip
            "books3": sum(math.comb(tri[e], 3) for e in tri) // 2,
            "cycles5": ng.count_subgraphs(G, nx.cycle_graph(5), count="subgraphs", engine="cpu"),
        }
        assert got == want
    every = cb.walk_blocks(g.indptr, g.indices, t, CYCLE_BLOCKS | LINK_BLOCKS)
    monkeypatch.setattr(cb, "SCRATCH_BYTES", 1)  # one chunk at a time: the same sums
    assert cb.walk_blocks(g.indptr, g.indices, t, CYCLE_BLOCKS | LINK_BLOCKS) == every
    monkeypatch.setattr(cb, "_SAFE_BOUND", 10.0)
    with pytest.raises(CapacityError):
        cb.walk_blocks(g.indptr, g.indices, t, {"k23"})
    assert cb.walk_blocks(g.indptr, g.indices, t, {"books3"}) == {"books3": want["books3"]}


def test_link_blocks_equal_query_counts(monkeypatch):
    """The link blocks against one query per graphlet (NetworkX-checked path), the list cap
    and the 64-bit guard."""
    from nx_gpumine.engines.cpu import census_walks as lb
    from nx_gpumine.engines.cpu.orbit_counts import edge_triangle_counts
    from nx_gpumine.errors import CapacityError
    from nx_gpumine.inputs.static_graph import as_static_graph

    def count(G, name):
        return ng.count_subgraphs(G, ng.census_patterns(5)[name], count="subgraphs", engine="cpu")

    for seed in range(3):
        G = nx.gnp_random_graph(18, 0.45 + 0.1 * seed, seed=seed)
        G.add_nodes_from([50])
        g = as_static_graph(G)
        t = edge_triangle_counts(g.indptr, g.indices, check=False)
        got = lb.walk_blocks(g.indptr, g.indices, t, LINK_BLOCKS)
        k4 = ng.count_subgraphs(G, nx.complete_graph(4), count="subgraphs", engine="cpu")
        assert got == {
            "cliques4": k4,
            "clique_tails": count(G, "G45"),
            "link_paths": count(G, "G47") + 12 * k4,
            "diamond_bridges": count(G, "G48"),
            "clique_wings": count(G, "G49"),
            "wheels4": count(G, "G50"),
            "clique_pairs": count(G, "G51"),
        }
    assert lb.walk_blocks(g.indptr, g.indices, t, set()) == {}
    monkeypatch.setattr(lb, "MAX_LIST_ENTRIES", 10)  # too many triangles to list: none given
    assert lb.walk_blocks(g.indptr, g.indices, t, LINK_BLOCKS) == {}
    monkeypatch.setattr(lb, "MAX_LIST_ENTRIES", 2**28)
    monkeypatch.setattr(lb, "_SAFE_BOUND", 10.0)
    with pytest.raises(CapacityError):
        lb.walk_blocks(g.indptr, g.indices, t, {"wheels4"})


@pytest.mark.gpu
@pytest.mark.parametrize("seed", range(3))
def test_cuda_device_walk_equals_host_walk(monkeypatch, seed):
    """The GPU 2-path walk (census.cu's census_walk2, the CUDA census's default) gives the
    host walk's blocks, and the census gives the CPU engine's counts with it and without it."""
    pytest.importorskip("cupy")
    from nx_gpumine.engines.cpu.census_walks import walk_blocks
    from nx_gpumine.engines.cpu.orbit_counts import edge_triangle_counts
    from nx_gpumine.engines.cuda import census as cuda_census
    from nx_gpumine.inputs.static_graph import as_static_graph

    G = [
        nx.gnp_random_graph(300, 0.1, seed=seed),
        nx.barabasi_albert_graph(3000, 6, seed=seed),  # hubs: long rows in one block
        nx.complete_bipartite_graph(3, 400),  # no triangles
    ][seed]
    G.add_nodes_from([5000])  # an isolated node
    g = as_static_graph(G)
    t = edge_triangle_counts(g.indptr, g.indices, check=False)
    stats: dict = {}

    def rows(edge_terms, trace5):
        return cuda_census.device_cycle_rows(g, t, edge_terms, trace5, stats)

    assert walk_blocks(g.indptr, g.indices, t, CYCLE_BLOCKS, rows) == walk_blocks(
        g.indptr, g.indices, t, CYCLE_BLOCKS
    )
    assert stats["kernel_ms"] > 0
    expected = ng.subgraph_census(G, 5, engine="cpu")
    for on in (True, False):
        monkeypatch.setattr(cuda_census, "DEVICE_WALK", on)
        assert ng.subgraph_census(G, 5, engine="cuda") == expected


@pytest.mark.gpu
def test_cuda_census_times_each_query():
    """The CUDA census reports the device time of each graphlet it counts on the query path."""
    pytest.importorskip("cupy")
    from nx_gpumine.execution.subgraph_census import last_census

    G = nx.gnm_random_graph(60, 900, seed=2)  # dense: the 5-clique query has work to do
    assert ng.subgraph_census(G, 5, engine="cuda") == ng.subgraph_census(G, 5, engine="cpu")
    ng.subgraph_census(G, 5, engine="cuda")
    queried = {k for k, v in last_census["by_pattern"].items() if v == "query"}
    assert queried and queried <= set(last_census["query_kernel_ms"])
    assert last_census["kernel_ms"] >= sum(last_census["query_kernel_ms"].values()) > 0


def test_cpu_five_node_census_equals_one_query_each():
    # the CPU engine's 5-node census from its blocks; each graphlet asked alone takes the
    # query path (an induced count of distinct subgraphs), an independent route
    from nx_gpumine.execution.subgraph_census import last_census

    H = nx.gnm_random_graph(60, 260, seed=3)
    G = H.copy()
    G.add_edges_from([(0, 0), (5, 5)])  # the census ignores self-loops
    got = ng.subgraph_census(G, 5, engine="cpu")
    by = last_census["by_pattern"]
    assert by.pop("5-clique") == "query" and set(by.values()) == {"formula"}
    noninduced = ng.subgraph_census(G, 5, induced=False, engine="cpu")
    for name, P in ng.census_patterns(5).items():
        want = ng.count_subgraphs(H, P, induced=True, count="subgraphs", engine="cpu")
        assert got[name] == want, name
        assert noninduced[name] == ng.count_subgraphs(H, P, count="subgraphs", engine="cpu")
