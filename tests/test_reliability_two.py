"""Issue 38 ("Reliability, round two") regression tests.

Item 1: a NaN label (any value with ``x == x`` not True: ``float("nan")``, ``np.nan``,
``np.float64("nan")``, ``pd.NaT``, ``pd.NA``, a multi-attribute label with such a part) matches
nothing, not even the same object, as NetworkX's categorical matchers (``==``) decide; the
``vf2pp_*`` backend functions keep NetworkX's vf2pp rule (dict lookups: the same object matches).
Item 7: inputs that were accepted loosely (floats, bools and digit strings as integers, text times,
flags that are not bools, an ``(m, 4)`` edge array) are refused with a clear error, and
``delta=2**63 - 1`` is refused with a correct reason where it is refused at all.
"""

from __future__ import annotations

import datetime as dt
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.inputs.graph_base import IMPOSSIBLE_LABEL, Unmatchable, never_equal
from nx_gpumine.inputs.motifs import AntiEdge
from nx_gpumine.inputs.static_graph import as_static_graph
from nx_gpumine.inputs.temporal_graph import (
    as_temporal_graph,
    load_collegemsg,
    temporal_from_arrays,
)
from nx_gpumine.interfaces import backend_matching as bm
from nx_gpumine.isomorphism import DiGraphMatcher, GraphMatcher
from tests.networkx_dev import vf2pp_dev as dev

pd = pytest.importorskip("pandas")
pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs")

#: Values that are not equal to themselves: each matches nothing.
NAN_VALUES = [
    pytest.param(lambda: np.nan, id="np.nan"),
    pytest.param(lambda: float("nan"), id="float-nan"),
    pytest.param(lambda: np.float64("nan"), id="np.float64-nan"),
    pytest.param(lambda: pd.NaT, id="pd.NaT"),
    pytest.param(lambda: np.datetime64("NaT"), id="np.datetime64-NaT"),
    pytest.param(lambda: pd.NA, id="pd.NA"),
]


def _labelled(G: nx.Graph, value: object, attr: str = "c", edges: bool = False) -> nx.Graph:
    if edges:
        nx.set_edge_attributes(G, value, attr)
    else:
        nx.set_node_attributes(G, value, attr)
    return G


def _nx_count(G: nx.Graph, P: nx.Graph, nm=None, em=None, induced: bool = False) -> int:
    cls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = cls(G, P, node_match=nm, edge_match=em)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    return sum(1 for _ in it)


# ====================================================================== item 1: NaN labels
@pytest.mark.parametrize("make", NAN_VALUES)
def test_never_equal_values(make) -> None:
    assert never_equal(make())
    for fine in ("a", 0, 1.5, None, (np.nan,), b"x", frozenset(), np.float64(2.0), pd.Timestamp(0)):
        assert not never_equal(fine), fine


@pytest.mark.parametrize("make", NAN_VALUES)
def test_nan_node_labels_match_nothing(make, engine: str) -> None:
    G = _labelled(nx.path_graph(3), make())
    P = _labelled(nx.path_graph(2), make())
    kw = dict(node_label="c", engine=engine)
    assert ng.count_subgraphs(G, P, **kw) == 0
    assert ng.has_subgraph(G, P, **kw) is False
    assert len(ng.find_subgraphs(G, P, **kw)) == 0
    assert list(ng.iter_subgraph_mappings(G, P, **kw)) == []
    if make() is not pd.NA:  # NetworkX cannot compare pd.NA (bool(pd.NA) raises)
        assert _nx_count(G, P, iso.categorical_node_match("c", None)) == 0


def test_issue_reproducer_nan_node_labels() -> None:
    G = _labelled(nx.path_graph(3), np.nan)
    P = _labelled(nx.path_graph(2), np.nan)
    nm = iso.categorical_node_match("c", None)
    assert ng.count_subgraphs(G, P, node_label="c") == 0 == _nx_count(G, P, nm)
    assert list(GraphMatcher(G, P, node_match=nm).subgraph_isomorphisms_iter()) == []
    assert nx.is_isomorphic(G, G, node_match=nm) is False
    assert nx.is_isomorphic(G, G, node_match=nm, backend="gpumine") is False
    assert GraphMatcher(G, G, node_match=nm).is_isomorphic() is False


def test_nan_among_other_labels_equal_networkx(engine: str) -> None:
    G = nx.cycle_graph(7)
    labels = {0: "x", 1: np.nan, 2: "x", 3: "x", 4: "x", 5: float("nan"), 6: "x"}
    nx.set_node_attributes(G, labels, "c")
    nm = iso.categorical_node_match("c", None)
    for P in (_labelled(nx.path_graph(2), "x"), _labelled(nx.path_graph(3), "x")):
        want = _nx_count(G, P, nm)
        assert want > 0
        assert ng.count_subgraphs(G, P, node_label="c", engine=engine) == want
    # one NaN node in the pattern: nothing, whatever the data graph holds
    P = _labelled(nx.path_graph(3), "x")
    P.nodes[1]["c"] = np.nan
    assert ng.count_subgraphs(G, P, node_label="c", engine=engine) == 0 == _nx_count(G, P, nm)


def test_nan_edge_labels_match_nothing(engine: str) -> None:
    em = iso.categorical_edge_match("c", None)
    for directed in (False, True):
        base = nx.DiGraph if directed else nx.Graph
        G = _labelled(base(nx.path_graph(4)), np.nan, edges=True)
        P = _labelled(base(nx.path_graph(2)), np.nan, edges=True)
        assert (
            ng.count_subgraphs(G, P, edge_label="c", engine=engine) == 0 == _nx_count(G, P, em=em)
        )
        assert nx.is_isomorphic(G, G, edge_match=em) is False
        assert nx.is_isomorphic(G, G, edge_match=em, backend="gpumine") is False
        # a NaN self-loop label too
        H = G.copy()
        H.add_edge(0, 0, c=np.nan)
        Q = P.copy()
        Q.add_edge(0, 0, c=np.nan)
        nx.set_edge_attributes(Q, {(0, 1): "y"}, "c")
        nx.set_edge_attributes(H, {(0, 1): "y"}, "c")
        assert (
            ng.count_subgraphs(H, Q, edge_label="c", engine=engine) == 0 == _nx_count(H, Q, em=em)
        )


def test_nan_in_a_multi_attribute_label(engine: str) -> None:
    G = nx.path_graph(3)
    nx.set_node_attributes(G, 1, "b")
    nx.set_node_attributes(G, np.nan, "a")
    P = nx.Graph(G.subgraph([0, 1]))
    nm = iso.categorical_node_match(["a", "b"], [None, None])
    assert ng.count_subgraphs(G, P, node_label=["a", "b"], engine=engine) == 0
    assert _nx_count(G, P, nm) == 0
    assert nx.is_isomorphic(G, G, node_match=nm, backend="gpumine") is False
    # a single attribute whose value is a tuple holding np.nan: Python's == compares the items
    # by identity first, so the same tuple contents match (as in NetworkX)
    H = _labelled(nx.path_graph(3), (np.nan, 1))
    Q = _labelled(nx.path_graph(2), (np.nan, 1))
    nm1 = iso.categorical_node_match("c", None)
    assert ng.count_subgraphs(H, Q, node_label="c", engine=engine) == _nx_count(H, Q, nm1) == 4


def test_nan_default_matches_nothing_and_none_default_matches() -> None:
    G = nx.path_graph(3)  # no attribute at all
    P = nx.path_graph(2)
    # default None: missing attributes match each other (None == None)
    nm = iso.categorical_node_match("c", None)
    assert ng.count_subgraphs(G, P, node_label="c", node_label_default=None) == 4
    assert _nx_count(G, P, nm) == 4
    # default NaN: every missing attribute is NaN, which matches nothing
    nm = iso.categorical_node_match("c", np.nan)
    assert ng.count_subgraphs(G, P, node_label="c", node_label_default=np.nan) == 0
    assert _nx_count(G, P, nm) == 0
    assert list(GraphMatcher(G, P, node_match=nm).subgraph_monomorphisms_iter()) == []


def test_dropin_matchers_and_isomorphism_with_nan() -> None:
    nm = iso.categorical_node_match("c", None)
    em = iso.categorical_edge_match("w", None)
    for directed in (False, True):
        G = nx.DiGraph(nx.cycle_graph(4)) if directed else nx.cycle_graph(4)
        nx.set_node_attributes(G, {0: "a", 1: "b", 2: np.nan, 3: "a"}, "c")
        nx.set_edge_attributes(G, 0, "w")
        cls, nxcls = (
            (DiGraphMatcher, iso.DiGraphMatcher) if directed else (GraphMatcher, iso.GraphMatcher)
        )
        for P in (nx.Graph(G.subgraph([0, 1])), nx.Graph(G.subgraph([1, 2]))):
            P = P.to_directed() if directed else P
            P = nx.DiGraph(G.subgraph(list(P))) if directed else P
            ours = cls(G, P, node_match=nm, edge_match=em)
            assert ours.uses_engine, ours.fallback_reason
            theirs = nxcls(G, P, node_match=nm, edge_match=em)
            got = {frozenset(m.items()) for m in ours.subgraph_monomorphisms_iter()}
            want = {frozenset(m.items()) for m in theirs.subgraph_monomorphisms_iter()}
            assert got == want
            assert ours.subgraph_is_monomorphic() == bool(want)
        H = G.copy()
        H.__networkx_cache__ = None  # converted afresh on each call (labels change below)
        G.__networkx_cache__ = None
        assert cls(G, H, node_match=nm).is_isomorphic() is False
        assert list(cls(G, H, node_match=nm).isomorphisms_iter()) == []
        assert nxcls(G, H, node_match=nm).is_isomorphic() is False
        assert nx.is_isomorphic(G, H, node_match=nm, backend="gpumine") is False
        assert bm.is_isomorphic(G, H, node_match=nm) is False
        # without the NaN node the two are isomorphic again
        H.nodes[2]["c"] = G.nodes[2]["c"] = "z"
        assert nx.is_isomorphic(G, H, node_match=nm, backend="gpumine") is True


def test_vf2pp_keeps_networkx_dict_rule() -> None:
    """NetworkX's vf2pp looks labels up in dicts: the same NaN object matches itself there."""
    G = _labelled(nx.path_graph(3), np.nan)  # one shared NaN object
    H = nx.path_graph(3)
    nx.set_node_attributes(H, {v: float("nan") for v in H}, "c")  # three distinct NaNs
    for a, b in ((G, G), (G, H), (H, H)):
        want = nx.vf2pp_is_isomorphic(a, b, node_label="c")
        assert bm.vf2pp_is_isomorphic(a, b, node_label="c") == want
        assert nx.vf2pp_is_isomorphic(a, b, node_label="c", backend="gpumine") == want
        want_all = {frozenset(m.items()) for m in nx.vf2pp_all_isomorphisms(a, b, node_label="c")}
        got_all = {frozenset(m.items()) for m in bm.vf2pp_all_isomorphisms(a, b, node_label="c")}
        assert got_all == want_all
    # the subgraph functions (NetworkX's development version) follow the same rule
    for a, nodes, n in ((G, [0, 1], 4), (H, [0, 1], 1), (H, [0], 1), (G, [1], 3)):
        sub = nx.Graph(a.subgraph(nodes))  # the same label objects as ``a``
        for name in ("vf2pp_all_monomorphisms", "vf2pp_all_subgraph_isomorphisms"):
            want = {frozenset(m.items()) for m in getattr(dev, name)(a, sub, "c")}
            got = {frozenset(m.items()) for m in getattr(bm, name)(a, sub, "c")}
            assert got == want and len(want) == n


def test_array_and_frame_labels_with_nan(engine: str) -> None:
    P = ng.Pattern.from_networkx(_labelled(nx.path_graph(2), np.nan), node_label="c")
    g = ng.from_arrays([0, 1], [1, 2], node_labels={0: np.nan, 1: np.nan, 2: np.nan})
    assert ng.count_subgraphs(g, P, engine=engine) == 0
    g = ng.from_arrays([0, 1], [1, 2], node_labels=np.full(3, np.nan))
    assert ng.count_subgraphs(g, P, engine=engine) == 0
    g = ng.from_arrays([0, 1], [1, 2], edge_labels=[np.nan, np.nan])
    Q = ng.Pattern.from_networkx(_labelled(nx.path_graph(2), np.nan, edges=True), edge_label="c")
    assert ng.count_subgraphs(g, Q, engine=engine) == 0


def test_nan_labels_round_trip_and_cache() -> None:
    G = _labelled(nx.path_graph(3), np.nan)
    G.nodes[0]["c"] = "a"
    g = ng.from_networkx(G, node_label="c")
    # every NaN occurrence has a code of its own; the query value NaN has none
    assert len(set(g.node_label.tolist())) == 3
    assert g.encode_node_label(np.nan) == IMPOSSIBLE_LABEL
    assert g.encode_node_label(Unmatchable(np.nan)) == IMPOSSIBLE_LABEL
    assert g.encode_node_label("a") == g.node_label[0]
    back = g.to_networkx()
    assert back.nodes[0]["c"] == "a" and math.isnan(back.nodes[1]["c"])
    # a cached conversion with NaN labels is reused while the labels stay as they were
    with nx.config(cache_converted_graphs=True):
        assert ng.from_networkx(G, node_label="c") is ng.from_networkx(G, node_label="c")
        first = ng.from_networkx(G, node_label="c")
        G.nodes[1]["c"] = "a"  # changed in place: the cache entry is stale
        again = ng.from_networkx(G, node_label="c")
        assert again is not first and again.node_label[1] == again.node_label[0]
    # patterns: NaN labels plan alike (one plan-cache key), and come back as NaN
    P = _labelled(nx.path_graph(2), np.nan)
    p1 = ng.Pattern.from_networkx(P, node_label="c")
    p2 = ng.Pattern.from_networkx(P, node_label="c")
    assert p1.key() == p2.key()
    assert math.isnan(p1.to_networkx().nodes[0]["label"])


def test_temporal_nan_labels_match_nothing(engine: str) -> None:
    T = nx.MultiDiGraph()
    T.add_edge(0, 1, time=1, c=np.nan)
    T.add_edge(1, 2, time=2, c="e")
    T.add_edge(2, 0, time=3, c=np.nan)
    nx.set_node_attributes(T, np.nan, "c")
    T.nodes[1]["c"] = "a"
    tri = [(0, 1), (1, 2), (2, 0)]
    kw = dict(engine=engine)
    for motif in (
        ng.TemporalMotif(tri, node_labels={0: np.nan}),
        ng.TemporalMotif(tri, node_labels={2: np.float64("nan")}),
    ):
        assert ng.count_motifs(T, motif, node_label="c", **kw) == 0
    assert (
        ng.count_motifs(T, ng.TemporalMotif(tri, node_labels={1: "a"}), node_label="c", **kw) == 1
    )
    assert (
        ng.count_motifs(T, ng.TemporalMotif(tri, edge_labels={0: np.nan}), edge_label="c", **kw)
        == 0
    )
    assert (
        ng.count_motifs(T, ng.TemporalMotif(tri, edge_labels={1: "e"}), edge_label="c", **kw) == 1
    )
    # labels from arrays and mappings
    g = temporal_from_arrays([0, 1, 2], [1, 2, 0], [1, 2, 3], edge_label=[np.nan] * 3)
    assert len({int(c) for c in g.edge_label}) == 3
    assert ng.count_motifs(g, ng.TemporalMotif(tri, edge_labels={0: np.nan}), **kw) == 0
    g = temporal_from_arrays(
        [0, 1, 2], [1, 2, 0], [1, 2, 3], node_labels={0: np.nan, 1: "a", 2: "a"}
    )
    assert ng.count_motifs(g, ng.TemporalMotif(tri, node_labels={0: np.nan}), **kw) == 0
    assert ng.count_motifs(g, ng.TemporalMotif(tri, node_labels={1: "a", 2: "a"}), **kw) == 1


# ---------------------------------------------------------------- differential (hypothesis)
_LABELS = st.sampled_from([0, 1, np.nan, np.nan, "fresh"]).map(
    lambda x: float("nan") if x == "fresh" else x
)


@st.composite
def _labelled_graph(draw, directed: bool, n_min: int, n_max: int, connected: bool) -> nx.Graph:
    n = draw(st.integers(n_min, n_max))
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from((v, {"c": draw(_LABELS)}) for v in range(n))
    if connected:
        for v in range(1, n):
            G.add_edge(draw(st.integers(0, v - 1)), v)
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v]
    G.add_edges_from(draw(st.lists(st.sampled_from(pairs), max_size=8)) if pairs else [])
    for u, v in G.edges():
        G.edges[u, v]["w"] = draw(_LABELS)
    return G


@st.composite
def _nan_cases(draw) -> tuple:
    directed = draw(st.booleans())
    G = draw(_labelled_graph(directed, 2, 6, False))
    P = draw(_labelled_graph(directed, 1, min(3, len(G)), True))
    return G, P, draw(st.booleans()), draw(st.booleans()), draw(st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_nan_cases())
def test_nan_labels_equal_networkx(case: tuple) -> None:
    G, P, induced, ln, le = case
    nm = iso.categorical_node_match("c", None) if ln else None
    em = iso.categorical_edge_match("w", None) if le else None
    labels = {"node_label": "c" if ln else None, "edge_label": "w" if le else None}
    cls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = cls(G, P, node_match=nm, edge_match=em)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    want = {frozenset(m.items()) for m in it}
    got = [
        frozenset(m.items())
        for m in ng.iter_subgraph_mappings(G, P, induced=induced, engine="cpu", **labels)
    ]
    assert len(got) == len(set(got)) and set(got) == want
    assert ng.count_subgraphs(G, P, induced=induced, engine="cpu", **labels) == len(want)
    dropin = (DiGraphMatcher if G.is_directed() else GraphMatcher)(G, P, nm, em)
    it = dropin.subgraph_isomorphisms_iter() if induced else dropin.subgraph_monomorphisms_iter()
    assert {frozenset(m.items()) for m in it} == want
    # isomorphism of G with a copy of itself: False as soon as a compared label is NaN
    H = G.copy()
    assert bm.is_isomorphic(G, H, node_match=nm, edge_match=em) == nx.is_isomorphic(
        G, H, node_match=nm, edge_match=em
    )


# ====================================================================== item 7: inputs
_TRI = [(0, 1), (1, 2), (2, 0)]
_SMALL = (np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([1, 2, 3]))


def test_delta_int64_max_refused_with_the_right_reason() -> None:
    far = (np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([0, -(2**62), 2**62]))
    for call in (
        lambda: ng.count_motifs(far, "triangle", delta=2**63 - 1),
        lambda: ng.find_motifs(far, "triangle", delta=2**63 - 1),
        lambda: ng.count_motifs(far, ng.TemporalMotif([(0, 1), (1, 2)], gaps=[2**63 - 1])),
        lambda: ng.motif_census(far, 2**63 - 1),
    ):
        with pytest.raises(
            ng.QueryError, match=r"2\*\*63 - 1 \(9223372036854775807\) or more"
        ) as err:
            call()
        assert "(2**63 or more)" not in str(err.value)
    # where it covers every time difference it is accepted (as no limit)
    assert ng.count_motifs(_SMALL, "triangle", delta=2**63 - 1) == 1
    assert ng.motif_census(_SMALL, 2**63 - 1)["01 12 20"] == 1
    assert ng.count_motifs(far, "triangle", delta=2**63 - 2) == 0


@pytest.mark.parametrize(
    "edges,bad",
    [
        ([(0, 1.9), (1.9, 2.2), (2.2, 0)], "1.9 (float)"),
        ([(0, 1.0), (1.0, 2), (2, 0)], "1.0 (float)"),
        ([(True, False), (False, 2), (2, True)], "True (bool)"),
        ([("0", "1"), ("1", "2"), ("2", "0")], "'0' (str)"),
    ],
)
def test_motif_node_ids_must_be_integers(edges: list, bad: str) -> None:
    with pytest.raises(
        ng.QueryError,
        match=r"node id .* must be an integer, got " + bad.replace("(", r"\(").replace(")", r"\)"),
    ):
        ng.TemporalMotif(edges)
    with pytest.raises(ng.QueryError, match="must be an integer"):
        ng.count_motifs(_SMALL, edges)


def test_motif_numpy_integers_accepted() -> None:
    m = ng.TemporalMotif(
        np.array(_TRI), node_labels={np.int64(0): "a"}, anti_edges=[(np.int32(0), 2, np.int64(0))]
    )
    assert m.edges == tuple(_TRI) and all(type(x) is int for e in m.edges for x in e)
    assert list(m.node_labels) == [0] and type(next(iter(m.node_labels))) is int
    assert m.anti_edges[0] == AntiEdge(0, 2, 0, None)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(delta=True), "delta must be a number, got True"),
        (dict(delta=np.bool_(True)), "delta must be a number"),
        (dict(delta="3600"), "delta must be a number, got '3600'"),
        (dict(gaps=[True, 1]), r"gaps\[0\] must be a number"),
        (dict(gaps=["2", 1]), r"gaps\[0\] must be a number"),
        (
            dict(anti_edges=[(0, 2, 0.7)]),
            r"after \(a motif edge index\) must be an integer, got 0.7",
        ),
        (dict(anti_edges=[(0, 2, True)]), "after .* must be an integer, got True"),
        (dict(anti_edges=[(0.5, 2, 0)]), "node a must be an integer, got 0.5"),
        (dict(anti_edges=[(0, "2", 0)]), "node b must be an integer, got '2'"),
        (dict(anti_edges=[AntiEdge(0, 2, 1.5)]), "after .* must be an integer, got 1.5"),
        (dict(node_labels={True: "a"}), "node_labels: True is not a motif node"),
        (dict(node_labels={0.0: "a"}), "node_labels: 0.0 is not a motif node"),
        (dict(edge_labels={True: "a"}), "edge_labels: True is not a motif edge"),
        (dict(node_where=[(True, ">", 1)]), "node_where: True is not a motif node"),
        (dict(node_where=[(0, ">", "3")]), "node_where: value '3' is not a number"),
        (dict(node_where=[(0, ">", True)]), "node_where: value True is not a number"),
    ],
)
def test_loose_motif_arguments_refused(kw: dict, match: str) -> None:
    with pytest.raises(ng.QueryError, match=match):
        ng.TemporalMotif(_TRI, **kw)


def test_loose_call_arguments_refused() -> None:
    for call, match in (
        (lambda: ng.count_motifs(_SMALL, "triangle", delta=True), "delta must be a number"),
        (lambda: ng.count_motifs(_SMALL, "triangle", delta="3600"), "delta must be a number"),
        (lambda: ng.find_motifs(_SMALL, "triangle", limit=True), "limit must be"),
        (lambda: ng.find_subgraphs(nx.path_graph(3), "wedge", limit=True), "limit must be"),
        (lambda: ng.motif_census(_SMALL, 10, progress="x"), "progress must be True or False"),
        (lambda: ng.count_motifs(_SMALL, "triangle", progress="x"), "progress must be"),
    ):
        with pytest.raises(ng.QueryError, match=match):
            call()


def test_static_builder_flags_refused() -> None:
    with pytest.raises(ng.QueryError, match="directed must be True or False, got 'yes'"):
        ng.from_arrays([0, 1], [1, 2], directed="yes")
    frame = pd.DataFrame({"source": [0, 1], "target": [1, 2]})
    with pytest.raises(ng.QueryError, match="directed must be True or False, got 'no'"):
        ng.from_edgelist(frame, directed="no")
    with pytest.raises(ng.QueryError, match="directed must be True or False"):
        as_static_graph(frame, directed="no")
    for bad in (True, 3.5, "3", -1):
        with pytest.raises(ng.QueryError, match="num_nodes"):
            ng.from_arrays([0, 1], [1, 2], num_nodes=bad)
    with pytest.raises(ng.QueryError, match="cache must be True or False"):
        ng.from_networkx(nx.path_graph(3), cache="no")
    # the accepted forms still work
    assert ng.from_arrays([0, 1], [1, 2], directed=True).directed is True
    assert ng.from_arrays([0, 1], [1, 2], directed=np.bool_(False)).directed is False
    assert ng.from_edgelist(frame, directed=True).directed is True
    assert ng.from_arrays([0, 1], [1, 2], num_nodes=np.int64(4)).n == 4


def test_text_times_refused_unless_iso_datetimes() -> None:
    src, dst = [0, 1, 2], [1, 2, 0]
    for times in (
        ["10", "20", "30"],
        np.array(["10", "20", "30"]),
        np.array([b"10", b"20", b"30"]),
        pd.array(["10", "20", "30"], dtype="string"),
        ["2024-01-01", "x", "2024-01-03"],
        ["2024-01-01", 5, "2024-01-03"],
        ["2024-13-01", "2024-01-02", "2024-01-03"],
    ):
        frame = pd.DataFrame({"source": src, "target": dst, "time": times})
        with pytest.raises(ng.InputError, match="times must be numeric or datetimes"):
            ng.count_motifs(frame, "triangle")
        with pytest.raises(ng.InputError, match="times must be numeric or datetimes"):
            temporal_from_arrays(src, dst, times)
    # ISO 8601 text is read as datetimes (limits are then durations)
    frame = pd.DataFrame(
        {
            "source": src,
            "target": dst,
            "time": ["2024-01-01", "2024-01-01 00:01", "2024-01-01T00:02:00.5"],
        }
    )
    g = as_temporal_graph(frame)
    assert g.time_spec.kind == "datetime"
    assert ng.count_motifs(frame, "triangle", delta=pd.Timedelta("1h")) == 1
    assert ng.count_motifs(frame, "triangle", delta=pd.Timedelta("1min")) == 0
    rows = ng.find_motifs(frame, "triangle", delta=dt.timedelta(hours=1))
    assert str(rows["time_2"].iloc[0]) == "2024-01-01 00:02:00.500000"
    aware = [f"2024-01-01T00:0{i}:00+01:00" for i in range(3)]
    g = temporal_from_arrays(src, dst, aware)
    assert g.time_spec.kind == "datetime" and g.time_spec.tz is not None
    assert int(g.time[0]) == int(pd.Timestamp("2023-12-31T23:00:00Z").value // 1000)
    with pytest.raises(ng.InputError, match="mix tz-aware and naive"):
        temporal_from_arrays(src, dst, ["2024-01-01", "2024-01-01T00:01Z", "2024-01-02"])
    # numbers stay numbers
    assert (
        ng.count_motifs(
            pd.DataFrame({"source": src, "target": dst, "time": [10, 20, 30]}), "triangle"
        )
        == 1
    )


def test_edge_array_must_have_three_columns() -> None:
    a4 = np.array([[0, 1, 1, 7], [1, 2, 2, 8], [2, 0, 3, 9]])
    for call in (
        lambda: ng.count_motifs(a4, "triangle"),
        lambda: ng.motif_census(a4, 10),
        lambda: as_temporal_graph(np.array([[0, 1], [1, 2]])),
    ):
        with pytest.raises(ng.InputError, match=r"must have 3 columns \(source, target, time\)"):
            call()
    assert ng.count_motifs(a4[:, :3], "triangle") == 1


def test_load_collegemsg_n_edges_refuses_bools() -> None:
    with pytest.raises(ng.QueryError, match="n_edges"):
        load_collegemsg(True)
    assert load_collegemsg(5).m == 5
