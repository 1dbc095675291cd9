"""Test configuration shared by tests/ and benchmarks/.

Tests needing a GPU carry the ``gpu`` marker and skip cleanly where CuPy sees no device.
The ``engine`` fixture runs a test once per engine: "cpu" always, "cuda" as a gpu-marked case.
"""

from __future__ import annotations

import functools
import gc
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


@pytest.fixture
def unhurried_estimates(monkeypatch):
    """:func:`nx_gpumine.estimate` with 30 s of sampling time, not 0.3 s: a test that needs
    every root of a small graph counted (an exact estimate) then does not depend on how busy
    the machine is (on a loaded 2-core CI machine 0.3 s sometimes counted only part)."""
    from nx_gpumine.execution.estimate import estimate_plan
    from nx_gpumine.interfaces import functions

    slow = functools.partial(estimate_plan, max_seconds=30.0)
    monkeypatch.setattr(functions, "estimate_plan", slow)


@functools.cache
def _share_gpu() -> None:
    """Under pytest-xdist, give this worker process its share of the GPU's memory (once).

    The GPU suite runs several pytest processes on one device (``-n N``). Each gets
    ``0.9 * total / N`` bytes: the CUDA engines' default budget (what they plan against) and
    the CuPy pool's limit, so one process's large query cannot starve the others (a test past
    its share fails in its own process, by name). ``NX_GPUMINE_TEST_MEMLOG=path`` appends the
    bytes the pool holds at the end of each gpu test (before they are freed) to ``path``.
    """
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    if workers < 2:
        return
    import cupy

    from nx_gpumine.engines.cuda import memory

    total = cupy.cuda.runtime.memGetInfo()[1]
    share = int(0.9 * total / workers)
    if memory.CONFIG["max_device_bytes"] is None:
        memory.set_max_device_bytes(share)
    cupy.get_default_memory_pool().set_limit(size=share)


@pytest.fixture(autouse=True)
def _release_gpu_memory(request):
    """After each gpu-marked test, hand this process's cached device memory back to the GPU.

    The GPU suite runs many pytest processes on one device (``-n``); blocks one process's CuPy
    pool keeps cached would otherwise count as used for every other process, which then runs
    out of memory although nothing is allocated (see also :func:`_share_gpu`).
    """
    if "gpu" not in request.keywords:
        yield
        return
    try:
        _share_gpu()
    except Exception:  # no usable CuPy: the test itself reports it
        pass
    yield
    try:
        import cupy

        pool = cupy.get_default_memory_pool()
        held = pool.total_bytes()
        gc.collect()  # device arrays of the test's graphs and plans caught in reference cycles
        log = os.environ.get("NX_GPUMINE_TEST_MEMLOG")
        if log:  # worker, test, pool bytes held at its end, and still in use once collected
            with open(log, "a") as f:
                worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
                f.write(f"{worker}\t{request.node.nodeid}\t{held}\t{pool.used_bytes()}\n")
        pool.free_all_blocks()
        cupy.get_default_pinned_memory_pool().free_all_blocks()
    except Exception:  # no CuPy, or a device left in an error state by the test
        pass
