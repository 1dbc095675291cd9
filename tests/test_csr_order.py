"""The O(m) builders of a temporal graph's indexes equal the sorts they replace (issue 32: graphs
of 10^8-10^9 edges): the counting sort of ``inputs/csr_order.py`` against a stable argsort, the
run ends of equal times against ``searchsorted``, and a graph built past the counting-sort size
against one built below it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_gpumine.inputs import temporal_graph as tg
from nx_gpumine.inputs.csr_order import csr_order


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=200), st.sampled_from([np.int32, np.int64]))
def test_counting_sort_is_a_stable_argsort(owners, dtype):
    owner = np.array(owners, dtype=dtype)
    ptr, order = csr_order(owner, 10)
    assert order.dtype == np.int64 and ptr.dtype == np.int64
    assert order.tolist() == np.argsort(owner, kind="stable").tolist()
    assert ptr.tolist() == [0, *np.cumsum(np.bincount(owner, minlength=10)).tolist()]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=60), st.booleans())
def test_next_ids_are_the_run_ends(times, as_float):
    t = np.sort(np.array(times, dtype=np.float64 if as_float else np.int64))
    assert tg._next_ids(t).tolist() == np.searchsorted(t, t, side="right").tolist()


def test_large_build_equals_small_build(monkeypatch):
    rng = np.random.default_rng(4)
    m = 5000
    src, dst = rng.integers(0, 300, m), rng.integers(0, 300, m)
    t = rng.integers(0, 1000, m)  # not in time order: sorted by the build
    small = tg.temporal_from_arrays(src, dst, t)
    monkeypatch.setattr(tg, "COUNTING_SORT_EDGES", 1)
    large = tg.temporal_from_arrays(src, dst, t)
    for name in (
        "src",
        "dst",
        "time",
        "rows",
        "next_id",
        "out_ptr",
        "out_edges",
        "in_ptr",
        "in_edges",
    ):
        assert np.array_equal(getattr(small, name), getattr(large, name)), name
    in_order = tg.temporal_from_arrays(src, dst, np.sort(t))  # the identity order
    assert in_order.rows.tolist() == list(range(m))


def test_empty_and_single_edge_graphs():
    g = tg.temporal_from_arrays(
        np.array([], dtype=np.int64), np.array([], dtype=np.int64), np.array([], dtype=np.int64)
    )
    assert g.m == 0 and g.next_id.tolist() == []
    g = tg.temporal_from_arrays([0], [1], [5])
    assert g.next_id.tolist() == [1] and g.rows.tolist() == [0]
