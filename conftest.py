"""Test configuration shared by tests/ and benchmarks/.

Tests needing a GPU carry the ``gpu`` marker and skip cleanly where CuPy sees no device.
The ``engine`` fixture runs a test once per engine: "cpu" always, "cuda" as a gpu-marked case.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.dirname(__file__), ".numba_cache"))


def _gpu_present() -> bool:
    try:
        from nx_gpumine.engines import cuda_available

        return cuda_available()
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if _gpu_present():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU with CuPy (marker gpu)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def engine(request) -> str:
    """Engine name; the cuda case is gpu-marked."""
    return request.param


@pytest.fixture(autouse=True)
def _release_gpu_memory(request):
    """After each gpu-marked test, hand this process's cached device memory back to the GPU.

    The GPU suite runs many pytest processes on one device (``-n``); blocks one process's CuPy
    pool keeps cached would otherwise count as used for every other process, which then runs
    out of memory although nothing is allocated.
    """
    yield
    if "gpu" not in request.keywords:
        return
    try:
        import cupy

        cupy.get_default_memory_pool().free_all_blocks()
        cupy.get_default_pinned_memory_pool().free_all_blocks()
    except Exception:  # no CuPy, or a device left in an error state by the test
        pass
