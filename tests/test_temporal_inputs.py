"""TemporalGraph ingestion, TemporalMotif validation, the catalogue and the Everest parser."""

from __future__ import annotations

import io
import re
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from nx_gpumine.errors import InputError, QueryError, UnsupportedGraphError
from nx_gpumine.inputs.everest_query import parse_everest_query
from nx_gpumine.inputs.frames import node_labels_from_columns
from nx_gpumine.inputs.motifs import (
    CENSUS_KEYS,
    EVEREST_MOTIFS,
    MOTIF_ALIASES,
    AntiEdge,
    TemporalMotif,
    motif_catalogue,
    named_motif,
    parse_motif_edges,
)
from nx_gpumine.inputs.temporal_graph import (
    TemporalGraph,
    as_temporal_graph,
    load_collegemsg,
    temporal_from_arrays,
    temporal_from_frame,
    temporal_from_networkx,
)
from nx_gpumine.interfaces.cli import main as cli_main
from nx_gpumine.interfaces.temporal_functions import count_motifs, find_motifs, has_motif
from nx_gpumine.plan.temporal_plan import SRC_ALL, SRC_BOTH, SRC_IN, SRC_OUT, build_temporal_plan

EDGES = [("a", "b", 5), ("b", "c", 3), ("c", "a", 5), ("a", "b", 1), ("b", "b", 4)]


def _frame(lib: str, data: dict):
    """A frame of ``lib`` (skips when the library is not installed, e.g. on the GPU machine)."""
    mod = pytest.importorskip(lib)
    return mod.table(data) if lib == "pyarrow" else mod.DataFrame(data)


def _check_layout(g):
    assert (np.diff(g.time) >= 0).all()
    for v in range(g.n):
        outs = g.out_edges[g.out_ptr[v] : g.out_ptr[v + 1]]
        ins = g.in_edges[g.in_ptr[v] : g.in_ptr[v + 1]]
        assert (np.diff(outs) > 0).all() and (g.src[outs] == v).all()
        assert (np.diff(ins) > 0).all() and (g.dst[ins] == v).all()
    for e in range(g.m):
        nxt = g.next_id[e]
        assert (g.time[e + 1 : nxt] == g.time[e]).all()
        assert nxt == g.m or g.time[nxt] > g.time[e]


def test_arrays_sorted_stably_with_row_map():
    s, d, t = zip(*EDGES, strict=True)
    g = temporal_from_arrays(list(s), list(d), list(t))
    assert g.m == 5 and g.n == 3
    assert g.rows.tolist() == [3, 1, 4, 0, 2]  # ties (time 5) keep input order
    assert [g.keys[x] for x in g.src] == ["a", "b", "b", "a", "c"]
    _check_layout(g)


@pytest.mark.parametrize("lib", ["pandas", "polars", "pyarrow"])
def test_frames(lib):
    s, d, t = zip(*EDGES, strict=True)
    data = {"u": list(s), "v": list(d), "when": list(t)}
    frame = _frame(lib, data)
    g = temporal_from_frame(frame, "u", "v", "when")
    assert g.rows.tolist() == [3, 1, 4, 0, 2]
    with pytest.raises(InputError, match="column 'time' is missing"):
        temporal_from_frame(frame, "u", "v")
    res = find_motifs(frame, [(0, 1), (1, 2)], source="u", target="v", time="when")
    assert type(res).__module__.split(".")[0] == {"pyarrow": "pyarrow"}.get(lib, lib)


def test_networkx_multidigraph_and_errors():
    G = nx.MultiDiGraph()
    for u, v, t in EDGES:
        G.add_edge(u, v, time=t)
    g = temporal_from_networkx(G)
    assert g.m == 5
    _check_layout(g)
    with pytest.raises(UnsupportedGraphError, match="directed"):
        temporal_from_networkx(nx.Graph(G))
    G.add_edge("a", "c")
    with pytest.raises(InputError, match="no time attribute"):
        temporal_from_networkx(G)


@pytest.mark.parametrize(
    "times,msg",
    [
        ([1.0, np.nan], "NaN"),
        ([1.0, np.inf], "NaN/inf"),
        (["x", "y"], "numeric"),
        ([True, False], "numeric"),
        ([1, None], "numeric|NaN"),
    ],
)
def test_bad_times(times, msg):
    with pytest.raises(InputError, match=msg):
        temporal_from_arrays([0, 1], [1, 0], np.array(times, dtype=object))


def test_big_ints_and_datetimes():
    with pytest.raises(InputError, match="int64 range"):
        temporal_from_arrays([0], [1], np.array([2**70], dtype=object))
    g = temporal_from_arrays([0, 1], [1, 0], np.array([2**60, 1], dtype=object))
    assert g.integer_times and g.time.tolist() == [1, 2**60]
    ts = pd.to_datetime(["2024-01-01 00:00:10", "2024-01-01 00:00:00"]).astype("datetime64[ns]")
    g = temporal_from_frame(pd.DataFrame({"source": [1, 0], "target": [2, 1], "time": ts}))
    assert g.integer_times and int(g.time[1] - g.time[0]) == 10 * 10**9  # the column's unit
    assert count_motifs(g, [(0, 1), (1, 2)], delta=pd.Timedelta(seconds=10)) == 1
    assert count_motifs(g, [(0, 1), (1, 2)], delta=pd.Timedelta(seconds=9)) == 0
    with pytest.raises(InputError, match="NaT"):
        temporal_from_arrays([0], [1], np.array(["NaT"], dtype="datetime64[ns]"))


def test_null_time_in_frame():
    df = pd.DataFrame({"source": [0, 1], "target": [1, 0], "time": [1.0, None]})
    with pytest.raises(InputError, match="null|NaN"):
        temporal_from_frame(df)


def test_float_times_and_array_input():
    a = np.array([[0, 1, 0.5], [1, 2, 0.25], [2, 0, 1.0]])
    g = as_temporal_graph(a)
    assert not g.integer_times and g.time.tolist() == [0.25, 0.5, 1.0]
    with pytest.raises(UnsupportedGraphError):
        as_temporal_graph("nope")


def test_collegemsg_loader():
    g = load_collegemsg()
    assert g.m == 59835 and g.integer_times
    assert load_collegemsg(100).m == 100
    assert g.prefix(100).m == 100


def test_self_loops_never_match():
    g = temporal_from_arrays([0, 0, 1], [0, 1, 1], [1, 2, 3])
    assert count_motifs(g, [(0, 1)]) == 1
    assert count_motifs(g, [(0, 1), (1, 0)], delta=None) == 0


@pytest.mark.parametrize(
    "kwargs,msg",
    [
        ({"edges": [(0, 2)]}, "without holes"),
        ({"edges": [(1, 2)]}, "without holes"),
        ({"edges": [(0, 0)]}, "self-loop"),
        ({"edges": []}, "at least one edge"),
        ({"edges": [(0, 1)], "delta": -1}, "delta must be >= 0"),
        ({"edges": [(0, 1)], "delta": float("nan")}, "NaN"),
        ({"edges": [(0, 1), (1, 2)], "gaps": [1, 2]}, "needs 1 gap"),
        ({"edges": [(0, 1), (1, 2)], "gaps": [-3]}, "gaps"),
        ({"edges": [(0, 1)], "anti_edges": [(0, 5, 0)]}, "outside the motif nodes"),
        ({"edges": [(0, 1)], "anti_edges": [(0, 1, 3)]}, "not a motif edge"),
        ({"edges": [(0, 1)], "anti_edges": [(0, 1, 0, -1)]}, "within"),
        ({"edges": [(0, 1)], "tie": "fuzzy"}, "tie must be"),
        ({"edges": [(0, 1)], "node_labels": {4: "x"}}, "not a motif node"),
        ({"edges": [(0, 1)], "edge_labels": {1: "x"}}, "not a motif edge"),
        ({"edges": [(0, 1)], "node_where": [(0, "~", 1)]}, "operator"),
    ],
)
def test_motif_validation(kwargs, msg):
    with pytest.raises(QueryError, match=msg):
        TemporalMotif(**kwargs)


def test_catalogue():
    assert len(CENSUS_KEYS) == 36
    for name in EVEREST_MOTIFS:
        m = named_motif(name, delta=10)
        assert m.num_edges == len(EVEREST_MOTIFS[name])
    m4a = named_motif("M4-A", delta=10)
    assert m4a.anti_edges == (AntiEdge(2, 0, 1, None),)
    assert named_motif("triangle").key == "01 12 20"
    assert named_motif("cycle4").edges == ((0, 1), (1, 2), (2, 3), (3, 0))
    with pytest.raises(QueryError, match="unknown motif"):
        named_motif("M99")


def test_plan_sources():
    g = load_collegemsg(50)
    p = build_temporal_plan(named_motif("M2"), g)  # 1->2, 1->0, 2->3 (0-based: 1 2, 1 0, 2 3)
    assert list(p.source) == [SRC_ALL, SRC_OUT, SRC_OUT]
    p = build_temporal_plan(named_motif("M6"), g)  # 0->1, 2->1, 2->3, 4->3
    assert list(p.source) == [SRC_ALL, SRC_IN, SRC_OUT, SRC_IN]
    p = build_temporal_plan(named_motif("M4-A", delta=100), g)
    assert list(p.source) == [SRC_ALL, SRC_OUT, SRC_OUT, SRC_BOTH]
    assert list(p.anti_ptr) == [0, 0, 1, 1, 1]  # anti 2->0 checked once node 2 is mapped


def test_plan_label_errors():
    g = load_collegemsg(50)
    with pytest.raises(QueryError, match="node labels"):
        build_temporal_plan(TemporalMotif([(0, 1)], node_labels={0: "x"}), g)
    with pytest.raises(QueryError, match="node values|numeric"):
        build_temporal_plan(TemporalMotif([(0, 1)], node_where=[(0, ">", 1)]), g)


M4A_QUERY = """
pattern: M4-A.txt
graph: ethereum.txt
constraints:
  node0: f > 500000000
  node1: f < 500000000
  antiEdge: [False, False, True, False, False]
  temporal: [900, 1800, 1800, 900]
  delta: 3600
options:
  gpu: 1
  enumerate: 1000
"""


def test_everest_query_m4a():
    q = parse_everest_query(M4A_QUERY)
    m = q.motif
    assert m.edges == ((0, 1), (1, 2), (2, 3), (3, 0))
    assert m.delta == 3600 and m.gaps == (900, 1800, 900)
    assert m.anti_edges == (AntiEdge(2, 0, 1, 1800),)
    assert m.node_where == ((0, ">", 5e8), (1, "<", 5e8))
    assert q.graph == "ethereum.txt" and q.enumerate == 1000 and q.gpus == 1


def test_query_text_in_functions():
    g = load_collegemsg(3000)
    text = "pattern: M4\nconstraints:\n  delta: 3600\n  temporal: [900, 1800, 900]\n"
    want = named_motif("M4", delta=3600).with_(gaps=[900, 1800, 900])
    assert count_motifs(g, text) == count_motifs(g, want) > 0


def test_named_motifs_are_resolved_once_per_name_delta_and_tie():
    """count_motifs keeps the motif of a name (issue 9's host time); the kept motif answers
    exactly as a fresh one, and a delta of another type is not taken for an equal one."""
    from nx_gpumine.inputs import motif_args

    g = load_collegemsg(3000)
    motif_args._catalogue_motif.cache_clear()
    for delta in (3600, 86400, 3600):
        want = count_motifs(g, named_motif("M4", delta=delta, tie="input_order"))
        assert count_motifs(g, "M4", delta=delta, tie="input_order") == want > 0
    # the second 3600 reads no catalogue: the call's motif and plan are kept with g
    info = motif_args._catalogue_motif.cache_info()
    assert (info.hits, info.misses) == (0, 2), info
    other = load_collegemsg(3000)  # another graph: its first call takes the kept motif
    assert count_motifs(other, "M4", delta=3600, tie="input_order") == want
    info = motif_args._catalogue_motif.cache_info()
    assert (info.hits, info.misses) == (1, 2), info
    assert count_motifs(g, "M4", delta=1) == count_motifs(g, "M4", delta=1.0)
    with pytest.raises(QueryError, match="delta must be a number"):
        count_motifs(g, "M4", delta=True)  # typed: not the kept motif of delta=1
    with pytest.raises(QueryError):  # an unhashable delta is built each time (and refused)
        count_motifs(g, "M4", delta=[3600])


def test_query_text_naming_a_motif_file_is_read_on_every_call(tmp_path, monkeypatch):
    """Only catalogue names are kept: query text may name a motif file, which can change."""
    from nx_gpumine.inputs import motif_args

    g = load_collegemsg(3000)
    monkeypatch.chdir(tmp_path)
    text = "pattern: q.txt\nconstraints:\n  delta: 3600\n"
    (tmp_path / "q.txt").write_text("1 2 1\n2 3 2\n3 1 3\n")  # triangle
    motif_args._catalogue_motif.cache_clear()
    assert count_motifs(g, text) == count_motifs(g, "triangle", delta=3600)
    (tmp_path / "q.txt").write_text("1 2 1\n2 3 2\n")  # a 2-path now
    assert count_motifs(g, text) == count_motifs(g, "path2", delta=3600)
    assert motif_args._catalogue_motif.cache_info().misses == 2  # the two names, not the text


def test_everest_query_inline_and_files(tmp_path):
    (tmp_path / "tri.txt").write_text("1 2 1\n2 3 2\n3 1 3\n")
    q = parse_everest_query("pattern: tri.txt\nconstraints:\n  delta: 60\n", base_dir=tmp_path)
    assert q.motif.key == "01 12 20" and q.motif.delta == 60
    text = "pattern: |\n  1 2 1\n  2 3 2\nin_graph: g.txt\nconstraints:\n  cg_delta: 5\n"
    text += "  fg_delta: [3]\n  node1: label red\n  edge0: label x\n  tie: input_order\n"
    q = parse_everest_query(text)
    m = q.motif
    assert m.edges == ((0, 1), (1, 2)) and m.gaps == (3,) and m.tie == "input_order"
    assert m.node_labels == {1: "red"} and m.edge_labels == {0: "x"}


@pytest.mark.parametrize(
    "text,msg",
    [
        ("graph: x\n", "'pattern' section is missing"),
        ("pattern: nothing_here.txt\n", "no such file"),
        ("pattern: M4\nconstraints:\n  temporal: [1, 2]\n", "3 entries"),
        ("pattern: M4\nconstraints:\n  antiEdge: [True, False, False, False]\n", "first listed"),
        ("pattern: M4\nconstraints:\n  antiEdge: [False]\n", "one flag per listed edge"),
        ("pattern: M4\nconstraints:\n  delta: -5\n", "delta must be >= 0"),
        ("pattern: M4\nconstraints:\n  colour: 3\n", "unknown key"),
        ("pattern: M4\nconstraints:\n  node9: f > 1\n", "no motif node"),
        ("pattern: M4\nconstraints:\n  edge0: f > 1\n", "label equality"),
        ("pattern: |\n  1 2\n  3 5\n", "contiguous"),
    ],
)
def test_everest_query_errors(text, msg):
    with pytest.raises(QueryError, match=msg):
        parse_everest_query(text)


def test_parse_motif_edges_orders():
    edges, orders = parse_motif_edges("2 3 2\n1 2 1\n")
    assert edges == [(0, 1), (1, 2)] and orders == [1, 2]


def test_functions_with_labels_and_node_values():
    g = temporal_from_arrays(
        [0, 1, 2, 0, 0, 1],
        [1, 2, 0, 2, 1, 2],
        [1, 2, 3, 4, 5, 6],
        edge_label=["x", "y", "x", "x", "y", "x"],
        node_labels={0: 10, 1: 20, 2: 30},
    )
    tri = named_motif("triangle")
    assert count_motifs(g, tri) == 3
    assert count_motifs(g, tri.with_(edge_labels={0: "y"})) == 1
    assert count_motifs(g, tri.with_(edge_labels={0: "zzz"})) == 0  # unknown value: impossible
    assert count_motifs(g, tri.with_(node_labels={0: 10})) == 1
    assert count_motifs(g, tri.with_(node_where=[(0, ">", 15)])) == 2
    assert has_motif(g, tri, delta=2) and not has_motif(g, tri, delta=1)
    rows = find_motifs(g, tri, output="numpy")
    assert sorted(map(tuple, rows.tolist())) == [(0, 1, 2), (1, 2, 4), (2, 4, 5)]
    frame = find_motifs(g, tri, limit=2)
    assert len(frame) == 2 and list(frame.columns)[:3] == ["edge_0", "edge_1", "edge_2"]
    assert frame["node_0"].tolist() == [0, 1]


# ----------------------------------------------------------------- TemporalGraph.from_edgelist
@pytest.mark.parametrize("lib", ["pandas", "polars", "pyarrow"])
def test_from_edgelist_classmethod(lib):
    s, d, t = zip(*EDGES, strict=True)
    data = {"u": list(s), "v": list(d), "when": list(t), "kind": ["x", "y", "x", "y", "x"]}
    frame = _frame(lib, data)
    g = TemporalGraph.from_edgelist(frame, source="u", target="v", time="when", edge_label="kind")
    h = temporal_from_frame(frame, "u", "v", "when", edge_label="kind")
    assert isinstance(g, TemporalGraph)
    assert g.rows.tolist() == h.rows.tolist() == [3, 1, 4, 0, 2]
    assert g.keys == ["a", "b", "c"] and g.time.tolist() == [1, 3, 4, 5, 5]
    assert [g.keys[x] for x in g.src] == ["a", "b", "b", "a", "c"]
    assert g.edge_label.tolist() == h.edge_label.tolist() == [1, 1, 0, 0, 0]
    _check_layout(g)
    with pytest.raises(InputError, match="column 'time' is missing"):
        TemporalGraph.from_edgelist(frame, "u", "v")


def test_from_edgelist_node_labels_from_columns():
    frame = pd.DataFrame(
        {
            "u": ["a", "b", "c", "a"],
            "v": ["b", "c", "a", "c"],
            "t": [1, 2, 3, 4],
            "ulab": ["buyer", "seller", "bank", "buyer"],
            "vlab": ["seller", "bank", "buyer", "bank"],
        }
    )
    g = TemporalGraph.from_edgelist(frame, "u", "v", "t", source_label="ulab", target_label="vlab")
    decode = {code: value for value, code in g.node_vocab.items()}
    labels = {g.keys[i]: decode[code] for i, code in enumerate(g.node_label.tolist())}
    assert labels == {"a": "buyer", "b": "seller", "c": "bank"}
    tri = named_motif("triangle")
    assert count_motifs(g, tri) == 1
    assert count_motifs(g, tri.with_(node_labels={0: "buyer"})) == 1
    assert count_motifs(g, tri.with_(node_labels={0: "bank"})) == 0
    # only the source column: target-only nodes stay unlabelled (-1)
    g2 = TemporalGraph.from_edgelist(frame.iloc[:2], "u", "v", "t", source_label="ulab")
    assert g2.keys == ["a", "b", "c"] and g2.node_label.tolist() == [0, 1, -1]
    # numeric labels double as Everest node values
    num = frame.assign(ulab=[5, 7, 9, 5], vlab=[7, 9, 5, 9])
    g3 = TemporalGraph.from_edgelist(num, "u", "v", "t", source_label="ulab", target_label="vlab")
    assert g3.node_values.tolist() == [5.0, 7.0, 9.0]
    assert count_motifs(g3, tri.with_(node_where=[(0, ">", 6)])) == 0
    assert count_motifs(g3, tri.with_(node_where=[(0, "<", 6)])) == 1


def test_from_edgelist_node_label_errors():
    frame = pd.DataFrame(
        {"u": [1, 2], "v": [2, 1], "t": [1, 2], "ul": ["x", "y"], "vl": ["y", "z"]}
    )
    with pytest.raises(InputError, match=r"node 1 has two labels, 'x' .*'ul'.* and 'z' .*'vl'"):
        TemporalGraph.from_edgelist(frame, "u", "v", "t", source_label="ul", target_label="vl")
    with pytest.raises(InputError, match="not both"):
        TemporalGraph.from_edgelist(frame, "u", "v", "t", source_label="ul", node_labels={1: "x"})
    with pytest.raises(InputError, match="column 'nope' is missing"):
        TemporalGraph.from_edgelist(frame, "u", "v", "t", target_label="nope")
    with pytest.raises(InputError, match="source_label and/or target_label"):
        node_labels_from_columns(frame, "u", "v")


# ----------------------------------------------------------------- motif file order column
@pytest.mark.parametrize(
    "text,msg",
    [
        ("1 2 1\n2 3 5\n3 4 9", r"non-contiguous motif order: 3 edges need the orders 1\.\.3"),
        ("1 2 0\n2 3 2", "non-contiguous motif order"),
        ("1 2 2\n2 3 3", r"got \[2, 3\]"),
        ("1 2 -1\n2 3 0", "must not be negative"),
        ("1 2 0\n2 3 -1\n3 4 1", "must not be negative"),
        ("1 2 1\n2 3 1", "repeat"),
        ("1 2\n2 3 2", "mix 'src dst order' and 'src dst'"),
    ],
)
def test_parse_motif_edges_order_errors(text, msg):
    with pytest.raises(QueryError, match=msg):
        parse_motif_edges(text)
    with pytest.raises(QueryError, match=msg):  # same check inside an Everest query
        parse_everest_query("pattern: |\n  " + text.replace("\n", "\n  ") + "\n")


def test_parse_motif_edges_order_bases():
    # Everest's own files: 1-based nodes and orders (M4-A lists the anti-edge third)
    edges, orders = parse_motif_edges("1 2 1\n2 3 2\n3 1 3\n3 4 4\n4 1 5")
    assert edges == [(0, 1), (1, 2), (2, 0), (2, 3), (3, 0)] and orders == [1, 2, 3, 4, 5]
    # 0-based orders, lines out of order
    edges, orders = parse_motif_edges("1 2 1\n0 1 0\n2 0 2")
    assert edges == [(0, 1), (1, 2), (2, 0)] and orders == [0, 1, 2]
    # no order column: file order, reported as 1..l
    edges, orders = parse_motif_edges("2 3\n1 2\n")
    assert edges == [(1, 2), (0, 1)] and orders == [1, 2]


# ----------------------------------------------------------------- catalogue aliases
@pytest.mark.parametrize(
    "name,edges",
    [
        ("temporal-triangle", ((0, 1), (1, 2), (2, 0))),
        ("temporal-3-cycle", ((0, 1), (1, 2), (2, 0))),
        ("temporal-4-cycle", ((0, 1), (1, 2), (2, 3), (3, 0))),
        ("fourcycle", ((0, 1), (1, 2), (2, 3), (3, 0))),
        ("temporal-5-cycle", ((0, 1), (1, 2), (2, 3), (3, 4), (4, 0))),
        ("3-path", ((0, 1), (1, 2), (2, 3))),
        ("tailed-tri", ((0, 1), (1, 2), (2, 3), (3, 1))),
        ("diamonds", ((0, 1), (1, 2), (2, 0), (0, 3), (3, 2))),
        ("M_{2,4}", ((0, 1), (1, 2), (2, 0))),
        ("M5,1", ((0, 1), (1, 0), (0, 1))),
        ("M_{1,1}", ((0, 1), (2, 1), (0, 1))),
        ("M_{6,6}", ((0, 1), (0, 1), (2, 1))),
    ],
)
def test_catalogue_aliases(name, edges):
    m = named_motif(name, delta=60, tie="input_order")
    assert m.edges == edges and m.name == name
    assert m.delta == 60 and m.tie == "input_order"


def test_catalogue_alias_counts_equal_their_targets():
    assert set(MOTIF_ALIASES) <= set(motif_catalogue())
    g = load_collegemsg(3000)
    for alias, target in MOTIF_ALIASES.items():
        assert count_motifs(g, alias, delta=3600) == count_motifs(g, target, delta=3600)
    assert count_motifs(g, "temporal-triangle", delta=3600) == count_motifs(
        g, [(0, 1), (1, 2), (2, 0)], delta=3600
    )


@pytest.mark.parametrize("name", ["temporal-cycle", "M_{7,1}", "temporal-1-cycle", "M0,3"])
def test_catalogue_unknown_names(name):
    with pytest.raises(QueryError, match="unknown motif name|rows and columns 1..6"):
        named_motif(name)


# ----------------------------------------------------------------- README examples
def test_readme_temporal_examples_run():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = readme.split("Temporal motifs (Everest")[1].split("```python")[1].split("```")[0]
    ns: dict = {}
    exec(compile("import nx_gpumine as ng\n" + block, "README.md", "exec"), ns)
    ng, T = ns["ng"], ns["T"]
    assert T.m == 6 and ng.count_motifs(T, "temporal-triangle", delta=3600) == 1
    frame = ng.find_motifs(T, ns["motif"], limit=100)
    assert frame[["edge_0", "edge_1", "edge_2"]].values.tolist() == [[0, 1, 2]]
    table = ng.motif_census(T, delta=3600, as_table=True)
    assert table[1, 3] == 1  # M_{2,4}: the cyclic triangle 1->2, 2->3, 3->1
    assert table.sum() == sum(ng.motif_census(T, delta=3600).values())


def test_readme_cli_temporal_line():
    out = io.StringIO()
    argv = "temporal --dataset collegemsg --motif temporal-triangle --delta 3600".split()
    assert cli_main(argv, out=out) == 0
    text = out.getvalue()
    want = count_motifs(load_collegemsg(), [(0, 1), (1, 2), (2, 0)], delta=3600)
    assert want == 1653
    assert re.search(r"temporal-triangle\s+1,653\s", text), text


@pytest.mark.parametrize(
    "nodes",
    [
        range(5, 12),
        list(range(5, 12)),
        [11, 7, 5, 6, 10, 9, 8],
        [5, 6, 7, 8, 9, 10, 11, 40, 3],
        range(13, 4, -1),
        range(1, 14, 1),
    ],
    ids=["range", "sorted-list", "shuffled-consecutive", "spread", "reversed-range", "wider-range"],
)
def test_given_node_order_maps_endpoints(nodes):
    """``nodes=``: each endpoint's id is its key's position in ``nodes`` (consecutive integer
    keys by subtraction, others by search: both against a dict of the keys)."""
    rng = np.random.default_rng(3)
    s = rng.integers(5, 12, 200)
    d = rng.integers(5, 12, 200)
    g = temporal_from_arrays(s, d, np.arange(200), nodes=nodes)
    pos = {k: i for i, k in enumerate(nodes)}
    assert g.keys == list(nodes)
    np.testing.assert_array_equal(g.src, [pos[k] for k in s])
    np.testing.assert_array_equal(g.dst, [pos[k] for k in d])


@pytest.mark.parametrize(
    "nodes", [range(6, 12), [5, 6, 7, 8, 9, 10], [5, 7, 6, 6, 8, 9, 10, 11], range(5, 12, 2)]
)
def test_given_node_order_errors(nodes):
    s, d = np.array([5, 6, 11]), np.array([6, 11, 5])
    with pytest.raises(InputError, match="not in the node list|duplicate"):
        temporal_from_arrays(s, d, np.arange(3), nodes=nodes)
