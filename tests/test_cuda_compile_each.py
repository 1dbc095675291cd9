"""Modules compiled side by side (``_runtime.compile_each``): on the caller's device, each key
compiled once however many threads ask for it, a job's error raised (marker ``gpu``)."""

from __future__ import annotations

import threading

import pytest

pytestmark = pytest.mark.gpu
cp = pytest.importorskip("cupy")

from nx_gpumine.engines.cuda import _runtime  # noqa: E402


def test_jobs_run_on_the_callers_device():
    seen = []
    lock = threading.Lock()

    def job():
        with lock:
            seen.append(_runtime.current_device())

    with cp.cuda.Device(cp.cuda.runtime.getDeviceCount() - 1):
        here = _runtime.current_device()
        _runtime.compile_each([job] * 5)
    assert seen == [here] * 5


def test_one_compile_per_module_however_many_ask():
    # a macro nothing reads makes a module no other test compiled
    defines = {"NXG_COMPILE_EACH_TEST": threading.get_ident() % 100_000 + 1}
    before = len(_runtime.compile_log())
    got = []
    lock = threading.Lock()

    def job():
        m = _runtime.load_module("census.cu", defines)
        with lock:
            got.append(m)

    _runtime.compile_each([job] * 6)
    assert len({id(m) for m in got}) == 1
    assert len(_runtime.compile_log()) - before == 1


def test_a_jobs_error_is_raised():
    def bad():
        raise ValueError("broken module")

    with pytest.raises(ValueError, match="broken module"):
        _runtime.compile_each([lambda: None, bad])


def test_table_modules_compile_ahead_and_counts_hold():
    """A motif table compiles every motif's module before its walks start, and its cells equal
    the single calls."""
    import nx_gpumine as ng
    from nx_gpumine.engines.cuda import temporal_data
    from nx_gpumine.inputs.generators import skewed_temporal_graph

    g = skewed_temporal_graph(3000, 40_000, seed=5)
    calls = []
    real = temporal_data.compile_each

    def spy(jobs):
        calls.append(len(jobs))
        real(jobs)

    temporal_data.compile_each = spy
    try:
        got = ng.motif_counts(g, ["M1", "M5", "M9", "M12"], [300, 3600], engine="cuda")
    finally:
        temporal_data.compile_each = real
    assert calls and calls[0] == 4  # the four motifs' modules at once (none compiled before)
    for m in ["M1", "M5", "M9", "M12"]:
        for d in [300, 3600]:
            assert got.loc[m, d] == ng.count_motifs(g, m, delta=d, engine="cuda"), (m, d)
