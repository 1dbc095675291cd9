"""Straggler splitting of the CUDA static DFS, modelled on the CPU.

The kernel (engines/cuda/kernels/static_dfs.cu: ``run_dfs`` / ``split_task``) walks a task
from level L with per-level candidate lists ``cand[j]`` and iterators ``it[j]``; once the task
has run too long, about to take candidate ``it[lev]`` of level ``lev``, it writes a record (a
path prefix of depth L + 1) for every candidate of level L it has not started (``it[L]..`` if
``lev == L``, else ``it[L]+1..``), cuts level L there and finishes the branch it is in; the host
relaunches over the records, which may split again. This model runs the same rule at random
points, once per task (and with a buffer that may be full, in which case the task keeps its
work), and checks the counts equal an uninterrupted walk: nothing lost, nothing counted twice.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest

import nx_gpumine as ng
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.plan.static_plan import build_static_plan


class Model:
    def __init__(self, graph, plan, rng: random.Random, p_dump: float, cap: int):
        self.g, self.p = graph, plan
        ip, ix = graph.indptr, graph.indices
        self.nbrs = [set(ix[ip[v] : ip[v + 1]].tolist()) for v in range(graph.n)]
        self.rng, self.p_dump, self.cap = rng, p_dump, cap
        self.count = 0
        self.out: list[list[int]] = []

    def cands(self, lev: int, path: list[int]) -> list[int]:
        p = self.p
        bn = p.bn_level[p.bn_ptr[lev] : p.bn_ptr[lev + 1]].tolist()
        sym = p.sym_level[p.sym_ptr[lev] : p.sym_ptr[lev + 1]].tolist()
        s = set.intersection(*(self.nbrs[path[j]] for j in bn))
        return sorted(
            c for c in s if c not in path[:lev] and all(c > path[j] for j in sym if j < lev)
        )

    def run(self, L: int, path: list[int]) -> None:
        """run_dfs(L): levels < L mapped; the last level is counted, never stored."""
        k = self.p.k
        if L == k - 1:
            self.count += len(self.cands(L, path))
            return
        cand = {L: self.cands(L, path)}
        it = {L: 0}
        lev = L
        may_split = True
        while True:
            if it[lev] >= len(cand[lev]):
                if lev == L:
                    return
                lev -= 1
                it[lev] += 1
                continue
            if may_split and self.rng.random() < self.p_dump:
                may_split = False
                if self.split(L, lev, path, cand, it) and lev == L:
                    return
            path[lev] = cand[lev][it[lev]]
            if lev + 1 == k - 1:
                self.count += len(self.cands(k - 1, path))
                it[lev] += 1
                continue
            lev += 1
            cand[lev] = self.cands(lev, path)
            it[lev] = 0

    def split(self, L, lev, path, cand, it) -> bool:
        p0 = it[L] if lev == L else it[L] + 1
        recs = [path[:L] + [c] for c in cand[L][p0:]]
        if not recs or len(self.out) + len(recs) > self.cap:
            return False  # nothing to give, or the buffer is full: keep the work
        self.out += recs
        cand[L] = cand[L][:p0]
        return True


@pytest.mark.parametrize("name", ["4-cycle", "house", "5-clique", "tailed-triangle", "4-path"])
@pytest.mark.parametrize("p_dump,cap", [(0.05, 10**9), (0.5, 10**9), (0.3, 7)])
def test_records_cover_the_work_exactly(name, p_dump, cap):
    G = nx.gnm_random_graph(30, 220, seed=11)
    g = ng.from_networkx(G)
    plan = build_static_plan(as_pattern(name), g, induced=False, distinct=False)
    full = Model(g, plan, random.Random(0), 0.0, 0)
    model = Model(g, plan, random.Random(1), p_dump, cap)
    owner = [u for u in range(g.n) for _ in range(int(g.indptr[u + 1] - g.indptr[u]))]
    for e in range(len(g.indices)):
        if plan.root_ok[e]:
            root = [owner[e], int(g.indices[e])] + [-1] * (plan.k - 2)
            full.run(2, list(root))
            model.run(2, list(root))
    rounds = 1
    while model.out:  # host relaunches over the records, which may split again
        recs, model.out = model.out, []
        rounds += 1
        for r in recs:
            model.run(len(r), r + [-1] * (plan.k - len(r)))
    assert model.count == full.count > 0
    if p_dump >= 0.3:
        assert rounds > 1
