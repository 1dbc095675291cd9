"""The CUDA static engine's packed plan, walked on the host by the kernel's own rules (no GPU).

``static_dfs.cu`` reads its plan from ``pack_plan``'s int array: per level, where candidates
come from (a backward neighbour's list, or an earlier level's stored raw set), which checks
that source already implies (``P_SKIP``), which raw sets to store and what they hold
(``P_STORERAW``: ``RAW_ADJ`` or ``RAW_ALL``), and the size pruning (``P_NEED``). This test
walks a packed plan with those rules in Python (``pick_source``, ``eval_cand``, ``extend``
written out as the kernel has them; the count at the last level, no count tail) and checks
the count against the CPU engine's, with ``full_raw_reuse`` off and on. A packing that lets a
level read a raw set missing some of its candidates, or skip a check that set does not imply,
shows here as a wrong count before any device runs it.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines.cpu import static as cpu_static
from nx_gpumine.engines.cuda.static_build import RAW_ALL, pack_plan
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_networkx
from nx_gpumine.plan.candidate_sources import (
    full_reuse,
    full_reuse_levels,
    hoist_levels,
    reuse_sources,
)
from nx_gpumine.plan.static_plan import build_static_plan


def _bits(mask: int):
    j = 0
    while mask:
        if mask & 1:
            yield j
        mask >>= 1
        j += 1


class PackedWalk:
    """The kernel's DFS over one packed plan, in count mode, every level walked."""

    def __init__(self, graph, packed: np.ndarray, k: int, induced: bool):
        self.k, self.p, self.induced = k, packed.astype(np.int64), induced
        self.indptr, self.indices = graph.indptr, graph.indices
        self.dircode, self.deg, self.loop = graph.dircode, graph.degree, graph.loop
        self.owner = np.repeat(np.arange(graph.n), np.diff(graph.indptr))

    def field(self, base: int, lev: int) -> int:
        v = int(self.p[base * self.k + lev])
        return v & 0xFFFFFFFF if base in (6, 7, 8, 9) else v  # bit masks: unsigned

    def code(self, lev: int, j: int) -> int:
        return int(self.p[10 * self.k + lev * self.k + j])

    def find(self, v: int, c: int) -> int:
        a, b = self.indptr[v], self.indptr[v + 1]
        pos = a + np.searchsorted(self.indices[a:b], c)
        return int(pos) if pos < b and self.indices[pos] == c else -1

    def entry_ok(self, lev: int, j: int, pos: int) -> bool:
        req, have = self.code(lev, j), int(self.dircode[pos])
        return have == req if self.induced else (have & req) == req

    def node_ok(self, lev: int, c: int) -> bool:
        if self.deg[c] < self.field(3, lev):
            return False
        lr = self.field(1, lev)
        return lr == -1 or int(self.loop[c]) == lr

    def inj_sym_ok(self, path, lev: int, c: int, nmapped: int) -> bool:
        sym = self.field(6, lev)
        for j in range(nmapped):
            if path[j] == c or ((sym >> j) & 1 and c <= path[j]):
                return False
        return True

    def tail_field(self, at: int, lev: int) -> int:
        """P_NEED (0), P_HOIST (1) or P_HOISTS (2) of ``lev``."""
        return int(self.p[(10 + at) * self.k + 3 * self.k * self.k + 1 + lev])

    def eval_cand(self, path, lev, c, skip, raw_kind, nmapped=None) -> int:
        need_raw = raw_kind != 0
        nmapped = lev if nmapped is None else nmapped
        chk, bn = self.field(8, lev) & ~skip, self.field(7, lev)
        cheap = True
        if not need_raw and not (self.inj_sym_ok(path, lev, c, nmapped) and self.node_ok(lev, c)):
            return 0
        for j in _bits(chk & bn):
            pos = self.find(path[j], c)
            if pos < 0 or not self.entry_ok(lev, j, pos):
                return 0
        ne = list(_bits(chk & ~bn))
        if raw_kind == RAW_ALL:
            if any(self.find(path[j], c) >= 0 for j in ne):
                return 0
            ne = []
        if need_raw:
            cheap = self.inj_sym_ok(path, lev, c, nmapped) and self.node_ok(lev, c)
        if not cheap:
            return 1
        return 1 if any(self.find(path[j], c) >= 0 for j in ne) else 3

    def source(self, path, raws, lev, need_raw):
        h = self.tail_field(1, lev)
        if 0 <= h < lev and raws.get(("hoist", lev)) is not None:
            return raws[("hoist", lev)], (1 << h) - 1  # every check before h holds
        r = self.field(4, lev)
        if 2 <= r < lev:
            return raws[r], self.field(9, lev)
        lb = -1
        if not need_raw:
            lb = max([path[j] for j in _bits(self.field(6, lev) & ((1 << lev) - 1))], default=-1)
        best = None
        for j in _bits(self.field(7, lev)):
            v = path[j]
            row = self.indices[self.indptr[v] : self.indptr[v + 1]]
            row = row[row > lb]
            if best is None or len(row) < len(best):
                best = row
        return list(best), 0

    def build_hoist(self, path, raws, i, h):
        """``build_hoist``: level i's candidates passing its checks before h."""
        skip = ~((1 << h) - 1) & 0xFFFFFFFF
        r = self.field(4, i)
        if 2 <= r <= h:
            src, skip = raws[r], skip | self.field(9, i)
        else:
            lists = [
                self.indices[self.indptr[path[j]] : self.indptr[path[j] + 1]]
                for j in _bits(self.field(7, i) & ((1 << h) - 1))
            ]
            src = min(lists, key=len)
        got = [int(c) for c in src if self.eval_cand(path, i, int(c), skip, RAW_ALL, h) & 1]
        assert got == sorted(got)
        raws[("hoist", i)] = got

    def extend(self, path, raws, lev) -> int:
        raw_kind = self.field(5, lev)
        src, skip = self.source(path, raws, lev, raw_kind != 0)
        keep = len(src) - (self.tail_field(0, lev) if lev < self.k - 1 else 0)
        total, raw, kids = 0, [], []
        for t, c in enumerate(src):
            res = self.eval_cand(path, lev, int(c), skip, raw_kind)
            if t >= keep:
                res &= 1
            if raw_kind and res & 1:
                raw.append(int(c))
            if res & 2:
                kids.append(int(c))
        if raw_kind:
            raws[lev] = raw
        if lev == self.k - 1:
            return len(kids)
        for i in _bits(self.tail_field(2, lev)):
            if len(kids) < 2:  # build_hoists' `few`: the level reads its own source
                raws[("hoist", i)] = None
            else:
                self.build_hoist(path, raws, i, lev)
        for c in kids:
            path.append(c)
            total += self.extend(path, raws, lev + 1)
            path.pop()
        return total

    def count(self) -> int:
        total = 0
        sym1 = self.field(6, 1) & 1
        for e in range(len(self.indices)):
            u, v = int(self.owner[e]), int(self.indices[e])
            if not (self.node_ok(0, u) and self.node_ok(1, v) and self.entry_ok(1, 0, e)):
                continue
            if sym1 and v <= u:
                continue
            total += self.extend([u, v], {}, 2)
        return total


#: STMatch's query 9 (6 nodes): an edge 0-1, common neighbours 2-3 adjacent, and 4, 5
#: adjacent to neither 2 nor 3 nor each other.
Q9 = nx.Graph([(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3), (0, 4), (1, 4), (0, 5), (1, 5)])


def _patterns():
    atlas = [g for g in nx.graph_atlas_g()[1:] if 4 <= g.number_of_nodes() <= 5]
    return [g for g in atlas if nx.is_connected(g)] + [Q9]


#: ``pack_plan``'s switches (full_raw_reuse, hoist_sets): off, each alone, both (the default).
SWITCHES = [(False, False), (True, False), (False, True), (True, True)]

#: STMatch's 6-node queries with hoisted sets (Q10, Q12: two levels; Q13: one).
KIT6 = {
    "Q10": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 5), (3, 4)],
    "Q12": [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (3, 4), (4, 5)],
    "Q13": [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (2, 5), (3, 4)],
}


def _graphs():
    yield "dense", from_networkx(nx.gnp_random_graph(18, 0.5, seed=3))
    yield "sparse", from_networkx(nx.gnp_random_graph(26, 0.22, seed=4))
    yield "directed", from_networkx(nx.gnp_random_graph(14, 0.35, seed=5, directed=True))


def test_q9_reads_the_set_difference_level_4_built():
    G = from_networkx(nx.gnp_random_graph(12, 0.5, seed=1))
    plan = build_static_plan(as_pattern(Q9), G, induced=True, distinct=True)
    k = plan.k
    full = pack_plan(plan, full_raw_reuse=True)
    assert list(plan.order) == list(range(6))  # the notes' plan: levels are the query's nodes
    assert full[4 * k + 5] == 4  # level 5 reuses level 4's set...
    assert full[5 * k + 4] == RAW_ALL  # ...which holds N(0) & N(1) - N(2) - N(3)
    assert full[9 * k + 5] == 0b1111  # and tests none of levels 0-3 again
    adj = pack_plan(plan)
    assert adj[5 * k + 4] != RAW_ALL  # off: the backward-neighbour intersection


@pytest.mark.parametrize(
    "name,graph", list(_graphs()), ids=lambda v: v if isinstance(v, str) else ""
)
def test_packed_walk_equals_the_cpu_engine(name, graph):
    """Every connected 4- and 5-node pattern and Q9, induced, mappings and distinct: the walk
    of the packed plan equals the CPU engine, with full raw-set reuse and hoisted sets on
    and off; and the switches pack differently for some of them (the test is not vacuous)."""
    changed = 0
    for pat, distinct in itertools.product(_patterns(), (True, False)):
        if graph.directed and pat.number_of_nodes() > 4 and not distinct:
            continue  # the directed graph's 5-node mappings: slow in Python, same code path
        pattern = as_pattern(nx.DiGraph(pat) if graph.directed else pat)
        plan = build_static_plan(pattern, graph, induced=True, distinct=distinct)
        want = cpu_static.count(graph, plan)
        packs = [pack_plan(plan, *switches) for switches in SWITCHES]
        changed += not all(np.array_equal(packs[0], q) for q in packs[1:])
        for packed in packs:
            got = PackedWalk(graph, packed, plan.k, induced=True).count()
            assert got == want, (name, nx.to_dict_of_lists(pat), distinct, got, want)
    assert changed > 0


def test_full_reuse_needs_agreement_on_every_earlier_level():
    # level 3 agrees with level 2 on levels 0, 1; level 4 differs from 3 on level 2 (code 0
    # against 3), from 2 on nothing before 2: it reads level 2's set
    adj, non = (3, -1, -1), (0, -1, -1)
    checks = [{}, {0: adj}, {0: adj, 1: non}, {0: adj, 1: non, 2: adj},
              {0: adj, 1: non, 2: non, 3: adj}]  # fmt: skip
    assert full_reuse_levels(checks) == [-1, -1, -1, 2, 2]
    checks[4][2] = adj  # now level 4 agrees with level 3 on 0, 1, 2: the later one wins
    assert full_reuse_levels(checks) == [-1, -1, -1, 2, 3]
    checks[4][1] = (3, 5, -1)  # an edge label differs on level 1: no level agrees
    assert full_reuse_levels(checks) == [-1, -1, -1, 2, -1]
    checks[2][1] = checks[3][1] = adj  # level 2 holds no non-adjacency: nothing gained
    assert full_reuse_levels(checks) == [-1, -1, -1, -1, -1]


def test_the_cuda_engine_takes_a_full_set_only_over_the_same_lists():
    """STMatch's Q1 (level 4 adjacent to level 3, whose full set it could read): the GPU keeps
    its own lists (level 3's neighbours are a shorter list); Q9's level 5 (no neighbour among
    levels 4 and after) reads level 4's set either way."""
    G = from_networkx(nx.gnp_random_graph(12, 0.5, seed=1))
    q1 = nx.Graph([(0, 1), (0, 2), (1, 2), (0, 3), (0, 4), (3, 4)])
    plan = build_static_plan(as_pattern(q1), G, induced=True, distinct=True)
    assert (full_reuse(plan) >= 0).any()
    assert (reuse_sources(plan, True)[1] >= 0).any()  # the CPU engine's sources
    _, below = reuse_sources(plan, True, same_lists=True)
    assert (below == -1).all()
    assert np.array_equal(reuse_sources(plan, True, same_lists=True)[0], plan.reuse)
    plan = build_static_plan(as_pattern(Q9), G, induced=True, distinct=True)
    assert reuse_sources(plan, True, same_lists=True)[1].tolist() == [-1] * 5 + [4]


@pytest.mark.parametrize("name", sorted(KIT6))
def test_hoisted_sets_walk_equals_the_cpu_engine(name):
    """STMatch's 6-node queries whose levels read hoisted sets, induced, distinct and
    mappings, on a dense graph: the packed walk equals the CPU engine with every switch."""
    graph = from_networkx(nx.gnp_random_graph(16, 0.45, seed=7))
    for distinct in (True, False):
        plan = build_static_plan(as_pattern(nx.Graph(KIT6[name])), graph, induced=True,
                                 distinct=distinct)  # fmt: skip
        hoisted = pack_plan(plan, True, True)
        k = plan.k
        assert (hoisted[11 * k + 3 * k * k + 1 : 12 * k + 3 * k * k + 1] >= 0).any()
        want = cpu_static.count(graph, plan)
        for switches in SWITCHES:
            got = PackedWalk(graph, pack_plan(plan, *switches), k, induced=True).count()
            assert got == want, (name, distinct, switches, got, want)


def test_hoist_levels_of_q10():
    """Q10 in its plan: level 4 (adjacent to 2 alone) reads N(2) - N(0) - N(1) built by
    level 3, level 5 (adjacent to 3 alone) N(3) - N(0) - N(1) - N(2) built by level 4."""
    G = from_networkx(nx.gnp_random_graph(12, 0.5, seed=1))
    plan = build_static_plan(as_pattern(nx.Graph(KIT6["Q10"])), G, induced=True, distinct=True)
    reuse, below = reuse_sources(plan, True, same_lists=True)
    hoist = hoist_levels(plan, reuse, below)
    for i in range(plan.k):
        codes = {j: c for j, c, *_ in plan.checks(i)}
        if hoist[i] >= 0:
            assert hoist[i] == i - 1 and codes[i - 1] == 0
            assert any(codes[j] == 0 for j in range(i - 1))  # a non-adjacency folded in
    assert (hoist >= 0).sum() == 2
    plain = build_static_plan(as_pattern(nx.Graph(KIT6["Q10"])), G, induced=False, distinct=True)
    assert (hoist_levels(plain, *reuse_sources(plain, True)) == -1).all()  # not induced


def test_only_plans_with_hoisted_sets_compile_the_hoist_code():
    """``HOIST`` (a module define): 1 for an induced plan with hoisted sets under the tuning
    in force, 0 with the switch off and for plans without them (their kernels unchanged)."""
    from nx_gpumine.engines.cuda import static_build

    G = from_networkx(nx.gnp_random_graph(12, 0.5, seed=1))
    q10 = nx.Graph(KIT6["Q10"])
    induced = build_static_plan(as_pattern(q10), G, induced=True, distinct=True)
    plain = build_static_plan(as_pattern(q10), G, induced=False, distinct=True)
    assert static_build.kernel_defines(G, induced, 10)["HOIST"] == 1
    assert static_build.kernel_defines(G, plain, 10)["HOIST"] == 0
    with static_build.tuned(hoist_sets=False):
        assert static_build.kernel_defines(G, induced, 10)["HOIST"] == 0


@pytest.mark.parametrize("name", sorted(KIT6))
def test_cpu_engine_hoisted_sets_equal_networkx(name):
    """The CPU engine builds hoisted sets too (``StaticPlanArrays.hoist``): on STMatch's
    6-node queries its induced counts, distinct and mappings, equal NetworkX's
    (``GraphMatcher.subgraph_isomorphisms_iter`` is induced), on an undirected and a directed
    graph."""
    from networkx.algorithms import isomorphism as iso

    for G, directed in ((nx.gnp_random_graph(15, 0.45, seed=11), False),
                        (nx.gnp_random_graph(12, 0.4, seed=12, directed=True), True)):  # fmt: skip
        P = nx.Graph(KIT6[name])
        if directed:
            P = nx.DiGraph([(a, b) for a, b in KIT6[name]])
        graph = from_networkx(G)
        matcher = iso.DiGraphMatcher if directed else iso.GraphMatcher
        maps = sum(1 for _ in matcher(G, P).subgraph_isomorphisms_iter())
        auts = sum(1 for _ in matcher(P, P).isomorphisms_iter())
        for distinct in (True, False):
            plan = build_static_plan(as_pattern(P), graph, induced=True, distinct=distinct)
            hoist = cpu_static._args(graph, plan).plan.hoist
            assert (hoist >= 0).any() or directed, hoist  # the path is taken
            got = cpu_static.count(graph, plan)
            assert got == (maps // auts if distinct else maps), (name, directed, distinct, got)
