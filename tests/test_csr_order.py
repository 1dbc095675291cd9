"""The O(m) builders of a temporal graph's indexes equal the sorts they replace (issue 32: graphs
of 10^8-10^9 edges): the counting sort of ``inputs/csr_order.py`` against a stable argsort, the
run ends of equal times against ``searchsorted``, and a graph built past the counting-sort size
against one built below it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_gpumine.inputs import graph_base
from nx_gpumine.inputs import temporal_graph as tg
from nx_gpumine.inputs.csr_order import csr_order, radix_argsort, radix_sort
from nx_gpumine.inputs.static_graph import from_arrays


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=200), st.sampled_from([np.int32, np.int64]))
def test_counting_sort_is_a_stable_argsort(owners, dtype):
    owner = np.array(owners, dtype=dtype)
    ptr, order = csr_order(owner, 10)
    assert order.dtype == np.int64 and ptr.dtype == np.int64
    assert order.tolist() == np.argsort(owner, kind="stable").tolist()
    assert ptr.tolist() == [0, *np.cumsum(np.bincount(owner, minlength=10)).tolist()]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 40), max_size=300),
    st.sampled_from([np.int32, np.int64]),
    st.sampled_from([1, 2, 4, 8, 64]),
)
def test_counting_sort_by_owner_ranges_is_a_stable_argsort(owners, dtype, buckets):
    """The path of graphs past a million owners (edges dealt into ranges of owners first),
    taken here by small graphs: every range size, ranges of one owner to all of them."""
    import nx_gpumine.inputs.csr_order as co

    owner = np.array(owners, dtype=dtype)
    want_ptr = [0, *np.cumsum(np.bincount(owner, minlength=41)).tolist()]
    old = (co.BUCKET_MIN_OWNERS, co.BUCKETS)
    co.BUCKET_MIN_OWNERS, co.BUCKETS = 1, buckets
    try:
        ptr, order = csr_order(owner, 41)
    finally:
        co.BUCKET_MIN_OWNERS, co.BUCKETS = old
    assert order.dtype == np.int64 and ptr.tolist() == want_ptr
    assert order.tolist() == np.argsort(owner, kind="stable").tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-5, 30), min_size=1, max_size=200))
def test_dense_ranks_equal_numpy_unique(values):
    from nx_gpumine.inputs.csr_order import dense_ranks

    keys = np.array(values, dtype=np.int64)
    half = len(keys) // 2
    src, dst = keys[:half], keys[half:]
    lo, span = int(keys.min()), int(keys.max() - keys.min()) + 1
    got = dense_ranks(src, dst, lo, span)
    uniq, inv = np.unique(np.concatenate([src, dst]), return_inverse=True)
    if lo == 0 and len(uniq) == span:
        assert got is None  # the keys are their own ranks
        return
    s, d, present = got
    assert present.tolist() == uniq.tolist()
    assert s.tolist() == inv[:half].tolist() and d.tolist() == inv[half:].tolist()


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
    monkeypatch.setattr(graph_base, "LINEAR_SORT_MIN", 1)
    large = tg.temporal_from_arrays(src, dst, t)
    for name in tg.TemporalGraph.ARRAYS:
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


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 2**63), max_size=300), st.integers(0, 5))
def test_radix_sorts_equal_numpy(values, repeat):
    keys = np.array(values + values[:repeat] + [2**64 - 1] * (repeat % 2), dtype=np.uint64)
    assert radix_sort(keys).tolist() == np.sort(keys).tolist()
    assert radix_argsort(keys).tolist() == np.argsort(keys, kind="stable").tolist()


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("labelled", [False, True])
def test_static_build_by_radix_equals_numpy(monkeypatch, directed, labelled):
    rng = np.random.default_rng(5)
    m = 4000
    a, b = rng.integers(0, 200, m), rng.integers(0, 200, m)
    labels = rng.integers(0, 3, m) if labelled else None

    def build():
        return from_arrays(
            a, b, num_nodes=200, directed=directed, edge_labels=labels, duplicates="drop"
        )

    small = build()
    monkeypatch.setattr(graph_base, "LINEAR_SORT_MIN", 1)
    large = build()
    for name in ("indptr", "indices", "dircode", "loop", "edge_label"):
        x, y = getattr(small, name, None), getattr(large, name, None)
        assert (x is None and y is None) or np.array_equal(x, y), name
