"""The task loop and merge (``execution/executors/local.py``, ``execution/merge.py``) and the
routing of ``execution/runner.py``, on fake tasks."""

from __future__ import annotations

import numpy as np
import pytest

from nx_gpumine.errors import CapacityError
from nx_gpumine.execution import merge, runner
from nx_gpumine.execution.executors.local import run_in_order


class _Bar:
    def __init__(self) -> None:
        self.n = 0

    def update(self, k: int) -> None:
        self.n += k


def test_count_sums_and_refuses_past_128_bits():
    bar = _Bar()
    assert run_in_order([3, 4, 5], lambda t, left: t, "count", width=2, bar=bar) == 12
    assert bar.n == 3
    assert run_in_order([2**63] * 3, lambda t, left: t, "count", width=2) == 3 * 2**63
    with pytest.raises(CapacityError, match="128-bit"):
        run_in_order([2**127, 2**127, 2**62], lambda t, left: t, "count", width=2)


def test_exists_stops_at_the_first_hit():
    ran = []

    def one(t, left):
        ran.append(t)
        return t == 1

    bar = _Bar()
    assert run_in_order([0, 1, 2], one, "exists", width=2, bar=bar) is True
    assert ran == [0, 1] and bar.n == 2
    assert run_in_order([0, 2], one, "exists", width=2) is False


def test_enumerate_keeps_task_order_and_stops_at_limit():
    blocks = {i: np.full((3, 2), i, dtype=np.int64) for i in range(4)}
    asked = []

    def one(t, left):
        asked.append(left)
        return blocks[t][: left if left is not None else None]

    out = run_in_order(range(4), one, "enumerate", width=2, limit=5)
    assert out[:, 0].tolist() == [0, 0, 0, 1, 1]
    assert asked == [5, 2]  # the third task never ran
    empty = run_in_order([], one, "enumerate", width=3)
    assert empty.shape == (0, 3) and empty.dtype == np.int64


def test_no_matches_and_check_query():
    assert merge.no_matches("count", 2) == 0
    assert merge.no_matches("exists", 2) is False
    assert merge.no_matches("enumerate", 4).shape == (0, 4)
    with pytest.raises(ValueError, match="mode"):
        merge.check_query("list", None)
    with pytest.raises(ValueError, match="limit"):
        merge.check_query("enumerate", -1)


def test_dispatch_routes():
    calls = []
    kw = dict(
        on_dask=lambda: calls.append("dask") or "dask",
        on_devices=lambda slots: calls.append(("devices", slots)) or "devices",
        on_local=lambda: calls.append("local") or "local",
        use_devices=lambda: True,
    )
    assert runner.dispatch("cpu", None, None, **kw) == "local"
    assert runner.dispatch("dask", None, None, **kw) == "dask"
    assert runner.dispatch("auto", object(), None, **kw) == "dask"
    with pytest.raises(ValueError):  # devices= is not for Dask
        runner.dispatch("dask", None, [0], **kw)
    with pytest.raises(ValueError):  # nor for the CPU engine
        runner.dispatch("cpu", None, [0], **kw)
    assert calls == ["local", "dask", "dask"]


def test_merge_takes_results_in_any_order_and_keeps_task_order():
    blocks = [np.full((2, 3), i, dtype=np.int64) for i in range(4)]
    m = merge.Merge("enumerate", 4, 3, limit=5)
    assert m.add(2, blocks[2]) is False and m.add(0, blocks[0]) is False
    assert m.left() == 3  # task 1 is still missing: only task 0's rows count in order
    assert m.add(1, blocks[1]) is True  # tasks 0..2 hold 6 >= 5 rows: stop
    assert m.result()[:, 0].tolist() == [0, 0, 1, 1, 2]
    census = merge.Merge("census", 2, 36)
    census.add(1, np.arange(36))
    census.add(0, np.ones(36, np.int64))
    assert census.result().tolist() == list(range(1, 37))
    assert merge.Merge("census", 0, 36).result().tolist() == [0] * 36
    with pytest.raises(ValueError, match="merge mode"):
        merge.Merge("list", 1, 2)


@pytest.mark.parametrize("mode", ["count", "exists"])
def test_static_call_resolves_its_engine_once(monkeypatch, mode):
    """A count or existence test resolves its engine once (issue 29): the search copy asks the
    engine's ``search_order`` hook, and the job runs on that same engine."""
    import networkx as nx

    from nx_gpumine.execution import static as ex_static
    from nx_gpumine.execution.jobs import static as job_static
    from nx_gpumine.inputs.patterns import as_pattern
    from nx_gpumine.inputs.static_graph import from_networkx
    from nx_gpumine.plan.static_plan import build_static_plan

    G = nx.gnm_random_graph(60, 300, seed=1)
    g = from_networkx(G, cache=False)
    plan = build_static_plan(as_pattern(nx.cycle_graph(4)), g, induced=False, distinct=True)
    want = ex_static.run_static(g, plan, mode, engine="cpu")
    calls = []
    real = ex_static.select_engine

    def counting(*args, **kw):
        calls.append(args[:2])
        return real(*args, **kw)

    monkeypatch.setattr(ex_static, "select_engine", counting)
    monkeypatch.setattr(job_static, "select_engine", counting)
    assert ex_static.run_static(g, plan, mode, engine="cpu") == want
    assert calls == [("cpu", "static")]
    assert (want > 0) if mode == "count" else want
