"""Public static API: find with limit, exists, frames, iterators, inputs, engine internals."""

from __future__ import annotations

import re

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms import isomorphism as iso

import nx_gpumine as ng
from nx_gpumine.engines.cpu import static as cpu
from nx_gpumine.errors import CapacityError
from nx_gpumine.execution.static import run_static
from nx_gpumine.execution.tasks import split_root_range
from nx_gpumine.inputs.patterns import Pattern
from nx_gpumine.plan.static_plan import build_static_plan


def _nx_set(G, P, induced):
    cls = iso.DiGraphMatcher if G.is_directed() else iso.GraphMatcher
    gm = cls(G, P)
    it = gm.subgraph_isomorphisms_iter() if induced else gm.subgraph_monomorphisms_iter()
    return {frozenset(m.items()) for m in it}


def _rows_set(rows, P):
    pn = list(P.nodes())
    return {frozenset(zip(r, pn, strict=True)) for r in rows.tolist()}


@pytest.fixture(params=["serial", "parallel"])
def threads(request, monkeypatch):
    """Run the CPU engine on one thread or on the chunked parallel path."""
    monkeypatch.setattr(cpu, "SERIAL_ENTRIES", 10**12 if request.param == "serial" else 0)
    return request.param


@pytest.mark.parametrize(
    ("G", "pname", "induced"),
    [
        (nx.gnm_random_graph(60, 300, seed=3), "4-cycle", False),
        (nx.gnm_random_graph(60, 300, seed=3), "tailed-triangle", True),
        (nx.gnm_random_graph(50, 300, seed=4, directed=True), "feed-forward-loop", False),
        (nx.gnm_random_graph(50, 300, seed=4, directed=True), "directed-2-path", True),
    ],
)
def test_find_equals_networkx(engine, threads, G, pname, induced):
    P = Pattern.named(pname).to_networkx()
    rows = ng.find_subgraphs(G, pname, induced=induced, engine=engine)
    assert rows.shape[1] == P.number_of_nodes()
    got = _rows_set(rows, P)
    assert len(got) == len(rows)
    expected = _nx_set(G, P, induced)
    assert got == expected
    assert ng.count_subgraphs(G, pname, induced=induced, engine=engine) == len(expected)
    assert ng.has_subgraph(G, pname, induced=induced, engine=engine) == bool(expected)


def test_limit_prefix_and_growth(engine, monkeypatch):
    G = nx.barabasi_albert_graph(200, 4, seed=2)
    C4 = nx.cycle_graph(4)
    monkeypatch.setattr(cpu, "SERIAL_ENTRIES", 0)  # parallel two-pass enumeration
    full = ng.find_subgraphs(G, "4-cycle", engine=engine)
    assert len(full) == ng.count_subgraphs(G, "4-cycle", engine=engine) == 15032
    full_set = _rows_set(full, C4)
    assert full_set == _nx_set(G, C4, False)
    monkeypatch.setattr(cpu, "INITIAL_ROWS", 3)  # force many buffer growths
    for limit in (0, 1, 7, 1000, len(full), len(full) + 5):
        part = ng.find_subgraphs(G, "4-cycle", limit=limit, engine=engine)
        assert len(part) == min(limit, len(full))
        assert _rows_set(part, C4) <= full_set
    if engine == "cpu":
        # serial growing enumeration gives the same rows, in root order, as the parallel one
        monkeypatch.setattr(cpu, "SERIAL_ENTRIES", 10**12)
        np.testing.assert_array_equal(ng.find_subgraphs(G, "4-cycle", engine=engine), full)
        part = ng.find_subgraphs(G, "4-cycle", limit=5000, engine=engine)
        np.testing.assert_array_equal(part, full[:5000])


def test_exists(engine):
    G = nx.barabasi_albert_graph(3000, 2, seed=5)
    assert ng.has_subgraph(G, "triangle", engine=engine) == (sum(nx.triangles(G).values()) > 0)
    assert not ng.has_subgraph(nx.path_graph(5000), "triangle", engine=engine)
    assert ng.has_subgraph(nx.cycle_graph(5000), "4-path", induced=True, engine=engine)
    assert ng.has_subgraph(nx.complete_graph(6), "5-clique", engine=engine)
    assert not ng.has_subgraph(nx.complete_graph(6), "4-path", induced=True, engine=engine)


def test_frames_and_keys(engine):
    G = nx.relabel_nodes(nx.karate_club_graph(), lambda v: f"n{v}")
    rows = ng.find_subgraphs(G, "triangle", distinct=True, engine=engine)
    assert rows.dtype == object and rows.shape == (45, 3)
    pd = pytest.importorskip("pandas")
    df = ng.find_subgraphs(G, "triangle", distinct=True, as_frame="pandas", engine=engine)
    assert isinstance(df, pd.DataFrame) and list(df.columns) == ["0", "1", "2"] and len(df) == 45
    pl = pytest.importorskip("polars")
    df = ng.find_subgraphs(G, "wedge", as_frame="polars", limit=5, engine=engine)
    assert isinstance(df, pl.DataFrame) and df.shape == (5, 3)
    pa = pytest.importorskip("pyarrow")
    t = ng.find_subgraphs(G, "wedge", as_frame="pyarrow", engine=engine)
    assert isinstance(t, pa.Table) and t.num_rows == 1056
    with pytest.raises(ng.InputError, match="as_frame"):
        ng.find_subgraphs(G, "wedge", as_frame="excel", engine=engine)


def test_edge_frame_and_static_graph_inputs(engine):
    pd = pytest.importorskip("pandas")
    G = nx.karate_club_graph()
    df = pd.DataFrame(list(G.edges()), columns=["source", "target"])
    assert ng.count_subgraphs(df, "triangle", engine=engine) == 270
    sg = ng.from_networkx(G)
    assert ng.count_subgraphs(sg, "4-clique", count="subgraphs", engine=engine) == 11


def test_iter_mappings_direction_and_laziness(engine):
    G = nx.relabel_nodes(nx.karate_club_graph(), lambda v: v + 100)
    P = nx.relabel_nodes(nx.path_graph(3), {0: "a", 1: "b", 2: "c"})
    maps = list(ng.iter_subgraph_mappings(G, P, induced=True, engine=engine))
    assert {frozenset(m.items()) for m in maps} == _nx_set(G, P, True)
    assert all(set(m.values()) == {"a", "b", "c"} for m in maps)
    it = ng.iter_subgraph_mappings(nx.barabasi_albert_graph(20000, 5, seed=1), "4-cycle")
    first = next(it)
    assert len(first) == 4


def test_labels(engine):
    G = nx.karate_club_graph()  # node attribute "club", edge attribute "weight"
    P = nx.Graph()
    P.add_node(0, club="Mr. Hi")
    P.add_node(1, club="Officer")
    P.add_edge(0, 1, weight=1)
    nm = iso.categorical_node_match("club", None)
    em = iso.categorical_edge_match("weight", None)
    expected = sum(1 for _ in iso.GraphMatcher(G, P, nm, em).subgraph_monomorphisms_iter())
    got = ng.count_subgraphs(G, P, node_label="club", edge_label="weight", engine=engine)
    assert got == expected > 0
    # a label value absent from the data graph matches nothing
    P.nodes[0]["club"] = "nobody"
    assert ng.count_subgraphs(G, P, node_label="club", engine=engine) == 0


def test_self_loops(engine):
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (0, 0), (3, 0)])
    P = nx.Graph([(0, 1), (0, 0)])
    assert ng.count_subgraphs(G, P, engine=engine) == len(_nx_set(G, P, False)) == 3
    assert ng.count_subgraphs(G, "wedge", induced=True, engine=engine) == len(
        _nx_set(G, nx.path_graph(3), True)
    )


def test_single_node_pattern(engine):
    G = nx.Graph([(0, 1), (1, 1)])
    G.add_node(2)
    assert ng.count_subgraphs(G, nx.Graph([(0, 0)]), engine=engine) == 1
    one = nx.Graph()
    one.add_node("x")
    assert ng.count_subgraphs(G, one, engine=engine) == 3
    assert ng.count_subgraphs(G, one, induced=True, engine=engine) == 2
    assert ng.find_subgraphs(G, one, limit=2, engine=engine).shape == (2, 1)
    assert ng.has_subgraph(G, one, engine=engine)


def _bar_state(err: str, desc: str) -> tuple[int, int]:
    """``(done, total)`` tasks of the last state tqdm printed on ``err`` for the bar named
    ``desc`` (``desc:  37%|###  | [00:03<00:05, 95/256 tasks]``)."""
    states = re.findall(rf"{re.escape(desc)}:[^|]*\|[^|]*\|[^\]]*?(\d+)/(\d+) tasks\]", err)
    assert states, f"no progress bar {desc!r} on stderr: {err[-500:]!r}"
    done, total = states[-1]
    return int(done), int(total)


def test_progress_same_answer(engine, capsys):
    import tqdm  # noqa: F401  (in the test extra: without it the bar path would not run)

    from nx_gpumine.execution.executors.local import PROGRESS_TASKS

    G = nx.barabasi_albert_graph(2000, 4, seed=7)
    g = ng.from_networkx(G)
    plan = build_static_plan(Pattern.named("house"), g, induced=False, distinct=False)
    ntasks = len(split_root_range(g, PROGRESS_TASKS, root_ok=plan.root_ok))
    assert ntasks > 1
    a = run_static(g, plan, "count", engine=engine)
    assert capsys.readouterr().err == ""  # no bar unless asked
    b = run_static(g, plan, "count", engine=engine, progress=True)
    assert a == b > 0
    # the per-task path ran: one bar over every root-edge task, completed
    assert _bar_state(capsys.readouterr().err, "house (count)") == (ntasks, ntasks)
    full = run_static(g, plan, "enumerate", engine=engine)
    capsys.readouterr()
    full_p = run_static(g, plan, "enumerate", engine=engine, progress=True)
    assert _bar_state(capsys.readouterr().err, "house (enumerate)") == (ntasks, ntasks)
    assert full_p.shape == full.shape == (a, 5)
    assert set(map(tuple, full_p.tolist())) == set(map(tuple, full.tolist()))
    rows = run_static(g, plan, "enumerate", engine=engine, progress=True, limit=100)
    done, total = _bar_state(capsys.readouterr().err, "house (enumerate)")
    assert total == ntasks and 1 <= done < ntasks  # stopped once 100 rows were found
    assert rows.shape == (100, 5)
    assert set(map(tuple, rows.tolist())) <= set(map(tuple, full.tolist()))
    assert run_static(g, plan, "exists", engine=engine, progress=True)
    done, total = _bar_state(capsys.readouterr().err, "house (exists)")
    assert total == ntasks and 1 <= done < ntasks  # stopped at the first task with a match


def test_tasks_cover_range():
    g = ng.from_networkx(nx.barabasi_albert_graph(500, 3, seed=1))
    m = len(g.indices)
    for n in (1, 3, 64, 10**6):
        tasks = split_root_range(g, n)
        assert tasks[0][0] == 0 and tasks[-1][1] == m
        assert all(a < b for a, b in tasks)
        assert all(t[1] == u[0] for t, u in zip(tasks, tasks[1:], strict=False))
        assert len(tasks) <= min(n, m)
    # balanced by degree: hub entries are cheaper per entry count than a naive split
    tasks = split_root_range(g, 8)
    sizes = [b - a for a, b in tasks]
    assert max(sizes) > min(sizes)
    with pytest.raises(ValueError, match="ntasks"):
        split_root_range(g, 0)
    assert split_root_range(g, 4, lo=5, hi=5) == []


def test_engine_ranges_add_up():
    G = nx.gnm_random_graph(300, 2000, seed=9)
    g = ng.from_networkx(G)
    plan = build_static_plan(Pattern.named("diamond"), g, induced=True, distinct=False)
    total = cpu.count(g, plan)
    parts = sum(cpu.count(g, plan, lo, hi) for lo, hi in split_root_range(g, 7))
    assert parts == total
    blocks = [cpu.enumerate_matches(g, plan, lo, hi) for lo, hi in split_root_range(g, 7)]
    assert sum(len(b) for b in blocks) == total
    with pytest.raises(ValueError, match="outside"):
        cpu.count(g, plan, 0, len(g.indices) + 1)


def test_kernel_arguments_are_kept_with_the_graph_and_the_plan():
    """A repeated engine call rebuilds no kernel argument: the graph's are kept with the graph,
    the plan's with the plan while it lives (the estimate makes hundreds of one-root calls);
    the mark limit is read per call."""
    import gc
    import weakref

    g = ng.from_networkx(nx.barabasi_albert_graph(200, 3, seed=4))
    plan = build_static_plan(Pattern.named("diamond"), g, induced=True, distinct=False)
    first, again = cpu._args(g, plan), cpu._args(g, plan)
    assert first.graph is again.graph and first.plan.reuse is again.plan.reuse
    assert first.plan.hoist is again.plan.hoist and first.plan.root_ok is again.plan.root_ok
    other = build_static_plan(Pattern.named("diamond"), g, induced=False, distinct=False)
    assert cpu._args(g, other).graph is first.graph  # the graph's: one set for every plan
    assert cpu._args(g, other).plan.reuse is not first.plan.reuse
    assert cpu.count(g, plan, 0, 5) == cpu.count(g, plan, 0, 5)  # one-root-range calls
    assert any(p is other for p in cpu._PLAN_FIELDS)
    gone = weakref.ref(other)
    del other
    gc.collect()
    assert gone() is None  # the kept arrays do not keep their plan alive


def test_count_overflow_is_detected():
    from nx_gpumine.engines.checks import INT64_MAX, checked_sum, checked_total

    # counts returned as Python ints: exact to 2**128 - 1
    assert checked_sum(np.array([2**62, 2**62], dtype=np.int64)) == 2**63
    assert checked_sum([2**127, 2**127 - 1]) == 2**128 - 1
    with pytest.raises(CapacityError, match="128-bit"):
        checked_sum([2**127, 2**127])
    with pytest.raises(CapacityError, match="128-bit"):  # -1: a chunk that overflowed
        checked_sum(np.array([5, -1], dtype=np.int64))
    assert checked_sum([1, 2, 3]) == 6
    assert checked_total(2**128 - 1) == 2**128 - 1
    # counts stored in int64 tables (censuses, per-node counts): 64 bits
    assert checked_total(2**63 - 1, "census count", INT64_MAX) == 2**63 - 1
    with pytest.raises(CapacityError, match="census count 9223372036854775808 overflows a 64"):
        checked_total(2**63, "census count", INT64_MAX)


def test_root_range_rule():
    from nx_gpumine.engines.checks import checked_range

    assert checked_range(0, None, 5) == (0, 5)
    assert checked_range(np.int64(2), 2, 5) == (2, 2)
    for lo, hi in ((-1, 3), (3, 2), (0, 6)):
        with pytest.raises(ValueError, match=r"root range \[.*\) is outside \[0, 5\)"):
            checked_range(lo, hi, 5)


@pytest.mark.parametrize("pname", ["4-cycle", "diamond", "4-clique", "house", "5-cycle"])
def test_marks_and_merges_agree(monkeypatch, pname):
    """The level-0 mark lookups and plain merges give the same counts and rows."""
    G = nx.barabasi_albert_graph(300, 4, seed=3)
    with_marks = ng.count_subgraphs(G, pname, engine="cpu")
    rows_marks = ng.find_subgraphs(G, pname, engine="cpu")
    monkeypatch.setattr(cpu, "MARK_LIMIT", 0)
    assert ng.count_subgraphs(G, pname, engine="cpu") == with_marks == len(rows_marks)
    np.testing.assert_array_equal(ng.find_subgraphs(G, pname, engine="cpu"), rows_marks)
