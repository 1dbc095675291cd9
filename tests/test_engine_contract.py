"""Every engine module satisfies the engine contract (issue 16: one typed engine interface)."""

import inspect
import types

import pytest

from nx_gpumine.engines import contract, select_engine


@pytest.mark.parametrize("kind, name", sorted(contract.ENGINE_MODULES))
def test_engine_modules_satisfy_the_protocol(kind, name):
    module = contract.engine_module(kind, name)  # imports without a GPU (CuPy is lazy)
    assert contract.contract_violations(module, kind) == []
    proto = {
        "static": contract.StaticEngine,
        "temporal": contract.TemporalEngine,
        "refine": contract.RefineEngine,
        "local_counts": contract.LocalCountsEngine,
        "census": contract.CensusEngine,
    }[kind]
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


# The hooks each real engine module provides: the callers' fallbacks (no ``iter_matches``: list
# a task at once; no ``release``: slices stay cached) are exercised by the other engine.
HOOKS = {
    ("static", "cpu"): {"iter_matches", "whole_range_count"},
    ("static", "cuda"): {"unsupported", "whole_range_count", "count_part", "search_order"},
    ("temporal", "cpu"): {"count_table"},
    ("temporal", "cuda"): {"unsupported", "release", "count_table"},
    ("refine", "cpu"): set(),
    ("refine", "cuda"): set(),
    ("local_counts", "cpu"): set(),
    ("local_counts", "cuda"): set(),
    ("census", "cpu"): set(),
    ("census", "cuda"): set(),
}


@pytest.mark.parametrize("kind, name", sorted(contract.ENGINE_MODULES))
def test_engine_modules_optional_hooks_are_declared_and_checked(kind, name):
    module = contract.engine_module(kind, name)
    have = {h for h in contract.OPTIONAL_HOOKS[kind] if contract.optional_hook(module, h)}
    assert have == HOOKS[(kind, name)]
    for hook in have:  # contract_violations checked their signatures; spell it out once more
        want = list(inspect.signature(getattr(contract.EngineHooks, hook)).parameters)[1:]
        got = list(inspect.signature(getattr(module, hook)).parameters)[: len(want)]
        assert got == want, (module.__name__, hook)


def test_every_temporal_engine_has_census():
    """``census`` is part of the temporal contract: execution calls it with no fallback."""
    for (kind, name), path in contract.ENGINE_MODULES.items():
        if kind == "temporal":
            assert callable(getattr(contract.engine_module(kind, name), "census", None)), path


def test_a_hook_with_the_wrong_signature_is_reported():
    fake = types.ModuleType("fake_engine")
    fake.count = lambda graph, plan, lo=0, hi=None: 0
    fake.exists = lambda graph, plan, lo=0, hi=None: False
    fake.enumerate_matches = lambda graph, plan, lo=0, hi=None, limit=None: None
    fake.whole_range_count = lambda plan, graph: True  # swapped
    fake.iter_matches = lambda graph, plan, lo=0, hi=None, *, rows: iter(())  # rows: no default
    fake.release = lambda: None  # not a static hook: not checked for static
    problems = contract.contract_violations(fake, "static")
    assert problems == [
        "fake_engine.iter_matches: extra parameter 'rows'",
        "fake_engine.whole_range_count: parameter 0 should be 'graph'",
    ]
    assert contract.contract_violations(fake, "temporal")[0] == "fake_engine: not a TemporalEngine"
    assert "fake_engine.release: parameter 0 should be 'graph'" in contract.contract_violations(
        fake, "temporal"
    )


def test_optional_hook_returns_none_when_absent_and_rejects_unknown_names():
    fake = types.ModuleType("fake_engine")
    assert contract.optional_hook(fake, "release") is None
    fake.release = print
    assert contract.optional_hook(fake, "release") is print
    with pytest.raises(ValueError, match="not an optional engine hook"):
        contract.optional_hook(fake, "relase")


def test_no_engine_module_is_imported_outside_the_table():
    """Above ``engines/``, engine modules are reached through ENGINE_MODULES only (the CUDA
    memory-budget helpers, ``engines.cuda.memory``, are not an engine)."""
    import ast
    from pathlib import Path

    pkg = Path(contract.__file__).resolve().parents[1]
    engines = {path.rsplit(".", 1)[1] for path in contract.ENGINE_MODULES.values()}
    bad = []
    for path in pkg.rglob("*.py"):
        if path.parent.name in ("cpu", "cuda") and path.parent.parent.name == "engines":
            continue
        if path.parent.name == "engines" and path.name == "contract.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module.split(".")
                names = {a.name for a in node.names}
                if mod[-1] in ("cpu", "cuda") and "engines" in mod and names & engines:
                    bad.append(f"{path.relative_to(pkg)}: from {node.module} import {names}")
                if len(mod) >= 2 and mod[-2] in ("cpu", "cuda") and mod[-1] in engines:
                    bad.append(f"{path.relative_to(pkg)}: from {node.module} import ...")
    assert not bad, bad
