"""Three-edge census: CollegeMsg oracle numbers (tests/data copy of shared/oracles), brute force,
and the generic engine run per motif."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_gpumine.engines.cpu import temporal as cpu
from nx_gpumine.inputs.motifs import CENSUS_AXIS, CENSUS_KEYS, census_motif
from nx_gpumine.inputs.temporal_graph import load_collegemsg, temporal_from_arrays
from nx_gpumine.interfaces.temporal_functions import count_motifs, motif_census
from nx_gpumine.plan.temporal_plan import build_temporal_plan

ORACLE = json.loads(
    (Path(__file__).parent / "data" / "temporal_census_collegemsg.json").read_text()
)


def _cases(prefix: bool):
    out = []
    for c in ORACLE["cases"]:
        is_prefix = c["edges"].startswith("first")
        if is_prefix == prefix:
            n = int(c["edges"].split()[1]) if is_prefix else None
            out.append(pytest.param(n, c["delta"], c["policy"], c["census"], id=f"{c['edges']}"
                                    f"-{c['delta']}-{c['policy']}"))  # fmt: skip
    return out


@pytest.mark.parametrize("n,delta,policy,expected", _cases(prefix=True) + _cases(prefix=False))
def test_census_equals_oracle(engine, n, delta, policy, expected):
    g = load_collegemsg(n)
    got = motif_census(g, delta, tie=policy, engine=engine)
    assert got == expected


def test_census_keys_are_the_36_oracle_keys():
    assert sorted(ORACLE["cases"][0]["census"]) == list(CENSUS_KEYS)
    assert len(CENSUS_KEYS) == 36


def test_census_table_layout():
    g = load_collegemsg(2000)
    d = motif_census(g, 600)
    t = motif_census(g, 600, as_table=True)
    assert t.shape == (6, 6)
    for r, a in enumerate(CENSUS_AXIS):
        for c, b in enumerate(CENSUS_AXIS):
            assert t[r, c] == d[f"01 {a} {b}"]


@pytest.mark.parametrize("policy", ["strict", "input_order"])
def test_generic_engine_equals_oracle_per_motif(engine, policy):
    case = next(
        c
        for c in ORACLE["cases"]
        if c["edges"] == "first 2000" and c["delta"] == 3600 and c["policy"] == policy
    )
    g = load_collegemsg(2000)
    for key in CENSUS_KEYS:
        assert (
            count_motifs(g, census_motif(key, 3600, policy), engine=engine) == case["census"][key]
        )


def _brute_census(edges, delta, tie):
    """Literal triple loop over stably time-sorted edges (keys by first appearance)."""
    order = sorted(range(len(edges)), key=lambda i: edges[i][2])
    counts = dict.fromkeys(CENSUS_KEYS, 0)
    for x in range(len(order)):
        for y in range(x + 1, len(order)):
            for z in range(y + 1, len(order)):
                es = [edges[order[i]] for i in (x, y, z)]
                if tie == "strict" and not (es[0][2] < es[1][2] < es[2][2]):
                    continue
                if delta is not None and es[2][2] - es[0][2] > delta:
                    continue
                lab: dict = {}
                key = []
                for u, v, _ in es:
                    for w in (u, v):
                        lab.setdefault(w, len(lab))
                    key.append(f"{lab[u]}{lab[v]}")
                if any(u == v for u, v, _ in es) or len(lab) > 3:
                    continue
                counts[" ".join(key)] += 1
    return counts


@settings(max_examples=60, deadline=None)
@given(
    edges=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 6)), max_size=18),
    delta=st.one_of(st.none(), st.integers(0, 6)),
    tie=st.sampled_from(["strict", "input_order"]),
)
def test_census_equals_brute_force(edges, delta, tie):
    src = np.array([e[0] for e in edges], dtype=np.int64)
    dst = np.array([e[1] for e in edges], dtype=np.int64)
    t = np.array([e[2] for e in edges], dtype=np.int64)
    g = temporal_from_arrays(src, dst, t, nodes=range(5))
    got = motif_census(g, delta, tie=tie, engine="cpu")
    assert got == _brute_census(edges, delta, tie)


def test_census_root_ranges_add_up():
    g = load_collegemsg(3000)
    whole = cpu.census(g, 3600, "input_order")
    parts = cpu.census(g, 3600, "input_order", 0, 1234) + cpu.census(
        g, 3600, "input_order", 1234, g.m
    )
    assert np.array_equal(whole, parts)


def test_policies_agree_without_ties():
    g = load_collegemsg(3000)
    keep = np.flatnonzero(np.diff(g.time, prepend=-1, append=g.time[-1] + 1)[:-1] > 0)
    keep = keep[np.r_[np.diff(g.time[keep]) > 0, True]]
    h = temporal_from_arrays(g.src[keep], g.dst[keep], g.time[keep])
    assert len(np.unique(h.time)) == h.m
    assert motif_census(h, 3600, tie="strict") == motif_census(h, 3600, tie="input_order")


def test_plan_of_census_motif():
    g = load_collegemsg(100)
    p = build_temporal_plan(census_motif("01 12 20", 60), g)
    assert p.l == 3 and p.k == 3
    assert list(p.source) == [2, 0, 3]


def _category(key: str) -> str:
    pairs = {frozenset(p) for p in key.split()}
    nodes = set("".join(key.split()))
    return "two" if len(nodes) == 2 else "triangle" if len(pairs) == 3 else "star"


@pytest.mark.parametrize("delta", [600, 3600])
def test_census_equals_raphtory_by_category(delta):
    """Raphtory's vector (24 stars, 8 two-node counted from both ends, 8 triangles), compared as
    multisets per category, as in the oracle README."""
    case = next(
        c
        for c in ORACLE["cases"]
        if c["edges"].startswith("all") and c["delta"] == delta and c["policy"] == "input_order"
    )
    raph = case["raphtory_global_temporal_three_node_motif"]
    got = motif_census(load_collegemsg(), delta, tie="input_order", engine="cpu")
    by = {"two": [], "triangle": [], "star": []}
    for key, val in got.items():
        by[_category(key)].append(val)
    assert sorted(by["star"]) == sorted(raph[:24])
    assert sorted(by["two"] * 2) == sorted(raph[24:32])
    assert sorted(by["triangle"]) == sorted(raph[32:40])
