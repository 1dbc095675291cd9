"""The GPU per-node counts (run here with NumPy/SciPy) on a graph without vertices.

cuSPARSE's pointwise product divides by the matrix shape, so a graph of no vertex raised
ZeroDivisionError through NetworkX's suites on the GPU (``nx.triangles(nx.Graph())``).
"""

import numpy as np
import pytest

from nx_gpumine.engines.cuda import local_counts as lc

sp = pytest.importorskip("scipy.sparse")


def test_no_vertex_gives_empty_counts():
    indptr, indices = np.zeros(1, np.int64), np.zeros(0, np.int32)
    assert lc.triangle_counts(indptr, indices, np, sp).shape == (0,)
    assert lc.directed_triangle_counts(indptr, indices, np.zeros(0), np, sp).shape == (0,)
    sq, pot = lc.square_counts(indptr, indices, np, sp)
    assert sq.shape == pot.shape == (0,)


def test_one_triangle_still_counted():
    # K3: each vertex sees 2 * 1 triangles in ((A @ A) * A).sum(row)
    indptr = np.array([0, 2, 4, 6])
    indices = np.array([1, 2, 0, 2, 0, 1])
    assert lc.triangle_counts(indptr, indices, np, sp).tolist() == [2, 2, 2]
