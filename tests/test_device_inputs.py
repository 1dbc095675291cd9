"""The device graph builders (inputs/device.py) run with NumPy here: same arrays as the host
builders. On the GPU machine tests/test_cudf.py runs the same code with CuPy."""

from __future__ import annotations

import numpy as np
import pytest

from nx_gpumine.errors import UnsupportedGraphError
from nx_gpumine.inputs.device import is_device_frame, static_arrays, temporal_arrays
from nx_gpumine.inputs.static_graph import from_arrays
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays


class _FakeDeviceColumn:
    __cuda_array_interface__ = {"shape": (0,), "typestr": "<i8", "data": (0, False), "version": 3}


def _edges(rng, n, m, loops):
    s = rng.integers(0, n, m) * 7 + 3  # sparse, non-dense keys
    d = rng.integers(0, n, m) * 7 + 3
    if not loops:
        keep = s != d
        s, d = s[keep], d[keep]
    return s, d


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_static_arrays_equal_host_builder(directed, seed):
    rng = np.random.default_rng(seed)
    s, d = _edges(rng, 40, 300, loops=True)
    host = from_arrays(s, d, directed=directed, duplicates="drop")
    got = static_arrays(np, s, d, directed, duplicates="drop")
    assert got["keys"].tolist() == host.keys
    for name in ("indptr", "indices", "dircode", "loop"):
        assert got[name].dtype == getattr(host, name).dtype, name
        assert np.array_equal(got[name], getattr(host, name)), name


@pytest.mark.parametrize("directed", [False, True])
def test_static_arrays_refuse_repeats(directed):
    with pytest.raises(UnsupportedGraphError, match=r"\(5, 9\) appears more than once"):
        static_arrays(np, np.array([5, 5, 1]), np.array([9, 9, 5]), directed)
    with pytest.raises(UnsupportedGraphError, match="self-loop on node 4"):
        static_arrays(np, np.array([4, 4]), np.array([4, 4]), directed)
    if not directed:  # an undirected edge given both ways is a repeat
        with pytest.raises(UnsupportedGraphError, match="undirected edge"):
            static_arrays(np, np.array([1, 2]), np.array([2, 1]), directed)
    else:
        got = static_arrays(np, np.array([1, 2]), np.array([2, 1]), directed)
        assert got["dircode"].tolist() == [3, 3]


@pytest.mark.parametrize("kind", ["int", "float"])
def test_temporal_arrays_equal_host_builder(kind):
    rng = np.random.default_rng(5)
    s, d = _edges(rng, 30, 400, loops=False)
    t = rng.integers(0, 50, len(s))  # many ties: the stable order matters
    t = t.astype(np.float64) / 4 if kind == "float" else t
    host = temporal_from_arrays(s, d, t)
    got = temporal_arrays(np, s, d, t)
    assert got["keys"].tolist() == host.keys
    for name in ("src", "dst", "time", "rows", "next_id", "out_ptr", "out_edges"):
        assert np.array_equal(got[name], getattr(host, name)), name
    for name in ("in_ptr", "in_edges"):
        assert np.array_equal(got[name], getattr(host, name)), name
    assert got["time"].dtype == host.time.dtype


def test_device_frame_detection():
    col = _FakeDeviceColumn()
    assert is_device_frame({"src": col, "dst": col})
    assert not is_device_frame({"src": np.zeros(2), "dst": col})
    assert not is_device_frame({})
    pd = pytest.importorskip("pandas")
    assert not is_device_frame(pd.DataFrame({"src": [1]}))
