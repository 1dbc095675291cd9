"""The temporal pair index and last-level counting (CUDA engine), checked on the CPU.

``pair_index`` is the function the engine runs with CuPy; here it runs with NumPy. A plain-Python
mirror of the kernel's ``count_pair`` (two binary searches for the destination's block, one for
the first id, one for the window's end) must equal a brute force, and the identity the kernel
counts the last level with — candidates in the range minus candidates whose new endpoint is
already mapped — must equal walking the range.
"""

from __future__ import annotations

import bisect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_gpumine.engines.cuda.temporal import list_entries, pair_index
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays


def _graph(seed: int, n: int, m: int, span: int):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    t = rng.integers(0, span, m)  # many ties
    return temporal_from_arrays(src, dst, t, nodes=range(n))


def count_pair(g, pids, pdst, x, y, lo_id, tmax) -> int:
    """Mirror of count_pair: edges x -> y with id >= lo_id and time <= tmax."""
    a, b = int(g.out_ptr[x]), int(g.out_ptr[x + 1])
    seg = pdst[a:b].tolist()
    s = a + bisect.bisect_left(seg, y)
    e = a + bisect.bisect_right(seg, y)
    ids = pids[s:e].tolist()
    p = s + bisect.bisect_left(ids, lo_id)
    times = [int(g.time[i]) for i in pids[p:e]]
    return bisect.bisect_right(times, tmax)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 30), m=st.integers(1, 400))
def test_pair_index_groups_and_counts(seed, n, m):
    g = _graph(seed, n, m, span=max(2, m // 3))
    pids, pdst = pair_index(np, g.src, g.dst, g.n, np.int64)
    assert sorted(pids.tolist()) == list(range(g.m))
    # every source's entries fill its out-list segment, grouped by destination, ids ascending
    for x in range(g.n):
        a, b = int(g.out_ptr[x]), int(g.out_ptr[x + 1])
        seg = pids[a:b]
        assert (g.src[seg] == x).all()
        assert (pdst[a:b] == g.dst[seg]).all()
        keys = list(zip(pdst[a:b].tolist(), seg.tolist(), strict=True))
        assert keys == sorted(keys)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        x, y = (int(v) for v in rng.integers(0, g.n, 2))
        lo_id = int(rng.integers(0, g.m + 1))
        tmax = int(rng.integers(0, int(g.time.max()) + 2))
        want = sum(
            1 for e in range(lo_id, g.m) if g.src[e] == x and g.dst[e] == y and g.time[e] <= tmax
        )
        assert count_pair(g, pids, pdst, x, y, lo_id, tmax) == want


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 20), m=st.integers(5, 300))
def test_last_level_count_identity(seed, n, m):
    """|range| - sum over mapped y of pairs(x -> y) == candidates whose new end is not mapped."""
    g = _graph(seed, n, m, span=max(2, m // 4))
    pids, pdst = pair_index(np, g.src, g.dst, g.n, np.int64)
    rng = np.random.default_rng(seed + 1)
    for _ in range(20):
        x = int(rng.integers(0, g.n))
        mapped = {x} | {int(v) for v in rng.choice(g.n, size=min(3, g.n - 1), replace=False)}
        lo_id = int(rng.integers(0, g.m))
        tmax = int(g.time[lo_id]) + int(rng.integers(0, 5))
        # the range: x's out-list entries with id >= lo_id and time <= tmax (a contiguous run)
        lst = g.out_edges[g.out_ptr[x] : g.out_ptr[x + 1]]
        cand = [int(e) for e in lst if e >= lo_id and g.time[e] <= tmax]
        walked = sum(1 for e in cand if int(g.dst[e]) not in mapped)
        counted = len(cand) - sum(count_pair(g, pids, pdst, x, y, lo_id, tmax) for y in mapped)
        assert counted == walked


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("float_times", [False, True])
def test_list_entries_match_the_kernels_struct(wide, float_times):
    """``list_entries`` lays out each position as the kernels' ``LEntry`` (``idx_t id; int nbr;
    tm_t t;`` with natural alignment): read back through that struct's NumPy dtype, every field
    equals its source array, bit for bit (negative and large times included)."""
    rng = np.random.default_rng(3)
    m = 37
    ids = rng.integers(0, 2**31 - 1, m).astype(np.int32)
    if wide:
        ids = ids.astype(np.int64) + 2**33
    other = rng.integers(0, 2**31 - 1, m).astype(np.int32)
    times = rng.integers(-(2**62), 2**62, m)
    if float_times:
        times = times / 7.0
    words = list_entries(np, ids, other, times)
    assert words.dtype == np.int32
    idt = "<i8" if wide else "<i4"
    fields = [("id", idt), ("nbr", "<i4")] + ([("pad", "<i4")] if wide else [])
    entry = np.dtype([*fields, ("t", times.dtype.newbyteorder("<"))])
    assert entry.itemsize == (24 if wide else 16)
    got = words.view(entry)
    assert len(got) == m
    np.testing.assert_array_equal(got["id"], ids)
    np.testing.assert_array_equal(got["nbr"], other)
    assert got["t"].tobytes() == times.tobytes()
