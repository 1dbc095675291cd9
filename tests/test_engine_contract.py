"""Every engine module satisfies the engine contract (issue 16: one typed engine interface)."""

import types

import pytest

from nx_gpumine.engines import contract, select_engine


@pytest.mark.parametrize("kind, name", sorted(contract.ENGINE_MODULES))
def test_engine_modules_satisfy_the_protocol(kind, name):
    module = contract.engine_module(kind, name)  # imports without a GPU (CuPy is lazy)
    assert contract.contract_violations(module, kind) == []
    proto = contract.StaticEngine if kind == "static" else contract.TemporalEngine
    assert isinstance(module, proto)


def test_a_module_missing_a_function_or_reordering_parameters_is_reported():
    def count(graph, plan, hi=None, lo=0):  # parameters swapped
        return 0

    def exists(graph, plan, lo=0, hi=None, *, extra):  # keyword-only without a default
        return False

    fake = types.ModuleType("fake_engine")
    fake.count, fake.exists = count, exists
    problems = contract.contract_violations(fake, "static")
    assert any("not a StaticEngine" in p for p in problems)
    assert any("count: parameter 2 should be 'lo'" in p for p in problems)
    assert any("extra parameter 'extra'" in p for p in problems)
    assert any("enumerate_matches is missing" in p for p in problems)


def test_select_engine_reads_the_table():
    assert select_engine("cpu", "static") is contract.engine_module("static", "cpu")
    assert select_engine("cpu", "temporal") is contract.engine_module("temporal", "cpu")
    with pytest.raises(ValueError, match="no static engine named 'gpu'"):
        contract.engine_module("static", "gpu")
