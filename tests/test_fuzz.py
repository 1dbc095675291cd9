"""Issue 15: a fuzz suite over the public API and the CLI (hypothesis).

Arbitrary small graphs, frames, files, patterns, motifs and options, valid or not. The only
exceptions allowed are the library's own (:class:`nx_gpumine.GpumineError` subclasses); every
answer given is checked: static counts, rows, mappings and existence against NetworkX's
matchers, temporal counts and rows against a brute-force reference (``tests/brute.py``), CLI
counts against the library, CLI exit statuses 0 (ok) or 2 (user error) only.

Budget: ``FUZZ_EXAMPLES`` examples per test (default 25: the whole file in well under a minute
on 2 cores); ``NX_GPUMINE_FUZZ_EXAMPLES=N`` scales it up (nightly-style long runs),
``NX_GPUMINE_FUZZ_ENGINE=cuda`` runs the engine calls on the GPU (lent machine).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import tempfile
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.inputs.motifs import CENSUS_KEYS, named_motif
from nx_gpumine.inputs.patterns import as_pattern, pattern_names
from tests import brute

pd = pytest.importorskip("pandas")

FUZZ_EXAMPLES = int(os.environ.get("NX_GPUMINE_FUZZ_EXAMPLES", "25"))
ENGINE = os.environ.get("NX_GPUMINE_FUZZ_ENGINE", "cpu")
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
#: What a bad input may raise: the library's own errors only.
ALLOWED = (ng.GpumineError,)
_I64 = (-(2**63), 2**63 - 1)


@contextlib.contextmanager
def refused():
    """Swallow the library's own errors (a refusal is a fine answer to a bad input)."""
    try:
        yield
    except ALLOWED:
        pass


# ====================================================================== static
@st.composite
def graphs(draw: st.DrawFn) -> nx.Graph:
    directed = draw(st.booleans())
    n = draw(st.integers(1, 7))
    G = nx.DiGraph() if directed else nx.Graph()
    keys = draw(st.sampled_from(["int", "str", "big"]))  # ints, strings, ints past int64
    key = {"int": lambda i: i, "str": lambda i: f"v{i}", "big": lambda i: 2**63 + i}[keys]
    G.add_nodes_from(key(i) for i in range(n))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    for a, b in draw(st.lists(pairs, max_size=16)):
        if a != b or draw(st.integers(0, 4)) == 0:  # a few self-loops
            G.add_edge(key(a), key(b))
    if draw(st.booleans()):
        values = node_label_values(draw(st.booleans()))
        for v in G:
            G.nodes[v]["c"] = draw(values)
    return G


#: Label values with NaNs: a NaN label matches nothing, not even the same object (NetworkX
#: compares with ``==``). ``np.nan`` is one shared object (a dict lookup would wrongly match it
#: with itself), ``"fresh"`` stands for a new ``float("nan")`` each time.
_WITH_NAN = st.sampled_from(["a", "b", np.nan, np.nan, "fresh"]).map(
    lambda x: float("nan") if x == "fresh" else x
)


def node_label_values(with_nan: bool) -> st.SearchStrategy:
    """Label values: "a" and "b", and NaNs too where ``with_nan``."""
    return _WITH_NAN if with_nan else st.sampled_from("ab")


@st.composite
def patterns(draw: st.DrawFn, directed: bool) -> object:
    kind = draw(st.sampled_from(["name", "graph", "graph", "junk"]))
    if kind == "name":
        return draw(st.sampled_from([*pattern_names(), "no-such-pattern", ""]))
    if kind == "junk":
        return draw(
            st.sampled_from([None, 3, 1.5, [], {}, nx.MultiGraph([(0, 1)]), nx.Graph(), b"x"])
        )
    k = draw(st.integers(1, 4))
    P = nx.DiGraph() if directed else nx.Graph()
    P.add_nodes_from(range(k))
    pairs = st.tuples(st.integers(0, k - 1), st.integers(0, k - 1))
    for a, b in draw(st.lists(pairs, min_size=max(0, k - 1), max_size=6)):
        if a != b:
            P.add_edge(a, b)
    if draw(st.booleans()):
        values = node_label_values(draw(st.booleans()))
        for v in P:
            P.nodes[v]["c"] = draw(values)
    return P


def _nx_pattern(pattern: object, labeled: bool) -> tuple[nx.Graph, ng.Pattern]:
    pat = as_pattern(pattern, node_label="c" if labeled else None)
    return (pattern if isinstance(pattern, nx.Graph) else pat.to_networkx()), pat


def _matcher(G: nx.Graph, P: nx.Graph, labeled: bool) -> iso.GraphMatcher:
    nm = iso.categorical_node_match("c", None) if labeled else None
    cls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    return cls(G, P, node_match=nm)


def _row_ok(
    G: nx.Graph, P: nx.Graph, pat: ng.Pattern, row: list, induced: bool, labeled: bool
) -> bool:
    """Whether a find_subgraphs row (column a = image of pattern.nodes[a]) is a match."""
    if len(set(row)) != len(row):
        return False
    f = dict(zip(pat.nodes, row, strict=True))
    for a in P:
        if labeled and G.nodes[f[a]].get("c") != P.nodes[a].get("c"):
            return False
        for b in P:
            if a == b:
                continue
            has_p, has_g = P.has_edge(a, b), G.has_edge(f[a], f[b])
            if has_p and not has_g or induced and has_g and not has_p:
                return False
        if induced and G.has_edge(f[a], f[a]):
            return False
    return True


@FUZZ
@given(data=st.data())
def test_fuzz_static_api(data: st.DataObject) -> None:
    G = data.draw(graphs(), label="G")
    pattern = data.draw(patterns(G.is_directed()), label="pattern")
    labeled = data.draw(st.booleans(), label="labeled")
    induced = data.draw(st.sampled_from([False, True, False, True, "no", None, 1]), label="ind")
    limit = data.draw(st.sampled_from([None, 0, 1, 3, 50, "3", 1.5, -1]), label="limit")
    note(f"G: {G.__class__.__name__} {list(G.nodes(data=True))} {list(G.edges)}")
    if isinstance(pattern, nx.Graph):
        nodes, edges = list(pattern.nodes(data=True)), list(pattern.edges)
        note(f"P: {type(pattern).__name__} {nodes} {edges}")
    label = "c" if labeled else None
    kw = dict(node_label=label, engine=ENGINE)
    got: dict = {}
    with refused():
        got["mappings"] = ng.count_subgraphs(G, pattern, induced=induced, **kw)
    with refused():
        got["subgraphs"] = ng.count_subgraphs(G, pattern, induced=induced, count="subgraphs", **kw)
    with refused():
        got["rows"] = ng.find_subgraphs(G, pattern, induced=induced, limit=limit, **kw)
    with refused():
        got["distinct"] = ng.find_subgraphs(G, pattern, induced=induced, distinct=True, **kw)
    with refused():
        got["has"] = ng.has_subgraph(G, pattern, induced=induced, **kw)
    with refused():
        got["maps"] = list(ng.iter_subgraph_mappings(G, pattern, induced=induced, **kw))
    if not got:
        return
    # whatever was answered was answered for a valid query: check it against NetworkX
    P, pat = _nx_pattern(pattern, labeled)
    induced = bool(induced)
    gm = _matcher(G, P, labeled)
    ref = list(gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter())
    # NetworkX finds no automorphism of a pattern with a NaN label (and no match of it)
    aut = max(1, sum(1 for _ in _matcher(P, P, labeled).isomorphisms_iter()))
    assert got.get("mappings", len(ref)) == len(ref)
    assert got.get("subgraphs", len(ref) // aut) == len(ref) // aut
    assert got.get("has", bool(ref)) == bool(ref)
    if "maps" in got:
        assert sorted(map(sorted, (m.items() for m in got["maps"])), key=repr) == sorted(
            map(sorted, (m.items() for m in ref)), key=repr
        )
    if "rows" in got:
        rows = [list(r) for r in np.asarray(got["rows"]).tolist()]
        want = len(ref) if limit is None else min(int(limit), len(ref))
        assert len(rows) == want
        assert len({tuple(r) for r in rows}) == len(rows)
        assert all(_row_ok(G, P, pat, r, induced, labeled) for r in rows)
    if "distinct" in got:
        rows = [list(r) for r in np.asarray(got["distinct"]).tolist()]
        assert len(rows) == len(ref) // aut
        assert len({tuple(r) for r in rows}) == len(rows)
        assert all(_row_ok(G, P, pat, r, induced, labeled) for r in rows)


# ====================================================================== temporal
_EXTREME = [-(2**63), -(2**63) + 1, -9 * 10**18, -1, 0, 1, 9 * 10**18, 2**63 - 2, 2**63 - 1]


@st.composite
def temporal_frames(draw: st.DrawFn) -> tuple:
    m = draw(st.integers(0, 7))
    nodes = st.integers(0, 3)
    src = draw(st.lists(nodes, min_size=m, max_size=m))
    dst = draw(st.lists(nodes, min_size=m, max_size=m))
    kind = draw(st.sampled_from(["small", "small", "extreme", "float"]))
    if kind == "small":
        times = draw(st.lists(st.integers(0, 6), min_size=m, max_size=m))
    elif kind == "extreme":
        times = draw(st.lists(st.sampled_from(_EXTREME), min_size=m, max_size=m))
    else:
        fl = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
        times = draw(st.lists(fl, min_size=m, max_size=m))
    dtype = np.float64 if kind == "float" else np.int64
    df = pd.DataFrame(
        {"source": src, "target": dst, "time": np.array(times, dtype=dtype).reshape(-1)}
    )
    return df, src, dst, times


_LIMITS = [None, 0, 1, 2, 3, 10, 2**62, 2**63 - 1, 10**19, 1.5, -1, math.nan, math.inf, "x"]


@st.composite
def motifs(draw: st.DrawFn) -> tuple:
    """(motif argument, edges, delta, gaps, anti) — the motif may be invalid."""
    l_ = draw(st.integers(1, 3))
    pair = st.tuples(st.integers(0, 2), st.integers(0, 2))
    edges = draw(st.lists(pair, min_size=l_, max_size=l_))
    delta = draw(st.sampled_from(_LIMITS))
    gaps = draw(st.one_of(st.none(), st.lists(st.sampled_from(_LIMITS), min_size=l_ - 1,
                                              max_size=l_ - 1)))  # fmt: skip
    anti = []
    if draw(st.booleans()):
        a, b = draw(pair)
        anti = [(a, b, draw(st.integers(0, l_ - 1)), draw(st.sampled_from([None, 0, 1, 3])))]
    as_name = draw(st.integers(0, 5)) == 0
    if as_name:
        name = draw(st.sampled_from(["triangle", "path2", "cycle3", "M1", "01 12 20", "zzz"]))
        return name, None, delta, None, []
    return None, edges, delta, gaps, anti


@FUZZ
@given(frame=temporal_frames(), spec=motifs(), limit=st.sampled_from([None, 0, 2, "2", 2.5]))
def test_fuzz_temporal_api(frame: tuple, spec: tuple, limit: object) -> None:
    df, src, dst, times = frame
    name, edges, delta, gaps, anti = spec
    try:
        if name is not None:
            motif = ng.TemporalMotif(list(named_motif(name).edges), delta=delta)
        else:
            motif = ng.TemporalMotif(edges, delta=delta, gaps=gaps, anti_edges=anti)
    except ALLOWED:
        return
    got: dict = {}
    with refused():
        got["count"] = ng.count_motifs(df, motif, engine=ENGINE)
    with refused():
        got["rows"] = ng.find_motifs(df, motif, limit=limit, output="numpy", engine=ENGINE)
    with refused():
        got["has"] = ng.has_motif(df, motif, engine=ENGINE)
    if not got or not len(df):
        return
    ref = brute.motif_matches(
        src,
        dst,
        times,
        motif.edges,
        motif.delta,
        motif.gaps,
        [(a.a, a.b, a.after, a.within) for a in motif.anti_edges],
    )
    assert got.get("count", len(ref)) == len(ref)
    assert got.get("has", bool(ref)) == bool(ref)
    if "rows" in got:
        rows = sorted(map(tuple, np.asarray(got["rows"]).tolist()))
        if limit is None:
            assert rows == sorted(ref)
        else:
            assert len(rows) == min(int(limit), len(ref))
            assert set(rows) <= set(ref)


@FUZZ
@given(frame=temporal_frames(), delta=st.sampled_from(_LIMITS), key=st.sampled_from(CENSUS_KEYS))
def test_fuzz_census(frame: tuple, delta: object, key: str) -> None:
    df, src, dst, times = frame
    try:
        census = ng.motif_census(df, delta, engine=ENGINE)
    except ALLOWED:
        return
    motif = named_motif(key, delta=delta)
    assert census[key] == len(brute.motif_matches(src, dst, times, motif.edges, motif.delta))


# ====================================================================== CLI
def _cli(argv: list[str]) -> tuple[int, str]:
    from nx_gpumine.interfaces.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            code = main(argv, out=out)
    except SystemExit as exc:  # argparse: usage errors exit 2
        code = exc.code
    return code, out.getvalue()


_CONTENT = st.sampled_from(
    [
        "0 1\n1 2\n2 0\n",
        "\ufeff0 1\n1 2\n2 0\n",
        "source,target\n0,1\n1,2\n2,0\n0,3\n",
        "0 1\n1 a\na 0\n",
        "# comment\n0\t1\t5\n1\t2\t6\n2\t0\t7\n",
        "",
        "0 1 2 3 4\n",
        "\x00\x01\x02binary",
        "0 1\n1 2\n2 0\n" * 3,
    ]
)


@FUZZ
@given(
    content=_CONTENT,
    cmd=st.sampled_from(["count", "temporal", "census"]),
    opts=st.lists(
        st.sampled_from(
            [
                "--induced",
                "--distinct",
                "--directed",
                "--delta=nan",
                "--delta=3",
                "--delta=-1",
                "--delta=1h",
                "--motif=triangle",
                "--motif=cycle999999999",
                "--edges=0 1, 1 2",
                "--find=2",
                "--find=x",
                "--tie=input_order",
                "--no-header",
                "--bogus",
                "--format=json",
            ]
        ),
        max_size=4,
        unique=True,
    ),
    pattern=st.sampled_from(["triangle", "wedge", "4-cycle", "nope", ""]),
)
def test_fuzz_cli(content: str, cmd: str, opts: list[str], pattern: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.txt"
        path.write_bytes(content.encode("utf-8", "surrogatepass"))
        argv = [cmd, str(path), *opts, "--engine", ENGINE, "--no-progress"]
        if cmd == "count":
            argv.append(pattern)
        code, out = _cli(argv)
    assert code in (0, 2), (argv, code)
    if code == 0 and cmd == "count" and "--format=json" in opts:
        results = json.loads(out)["results"]
        assert results and all(int(r["count"]) >= 0 for r in results)
        if content.lstrip("\ufeff").startswith("0 1\n1 2\n2 0\n"):  # a triangle, as read
            G = nx.DiGraph([(0, 1), (1, 2), (2, 0)]) if "--directed" in opts else None
            G = G if G is not None else nx.cycle_graph(3)
            for r in results:
                want = ng.count_subgraphs(
                    G, r["pattern"], induced=r["induced"], count=r["kind"], engine="cpu"
                )
                assert int(r["count"]) == want, r
