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
