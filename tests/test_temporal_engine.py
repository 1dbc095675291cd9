"""CPU temporal engine specifics: growing enumeration buffers, limits, root ranges, tasks."""

from __future__ import annotations

import re

import numpy as np
import pytest

from nx_gpumine.engines.cpu import temporal as cpu
from nx_gpumine.execution.temporal import iter_temporal_blocks, run_temporal, temporal_tasks
from nx_gpumine.inputs.motifs import named_motif
from nx_gpumine.inputs.temporal_graph import load_collegemsg
from nx_gpumine.plan.temporal_plan import build_temporal_plan


@pytest.fixture(scope="module")
def college():
    return load_collegemsg(4000)


def test_limited_enumeration_grows_and_keeps_root_order(college, monkeypatch):
    plan = build_temporal_plan(named_motif("path3", delta=3600), college)
    full = cpu.enumerate_matches(college, plan)
    assert len(full) == cpu.count(college, plan) > 1000
    assert (np.diff(full[:, 0]) >= 0).all()
    monkeypatch.setattr(cpu, "INITIAL_ROWS", 3)  # force many buffer doublings
    for limit in (1, 7, 1000, len(full), len(full) + 5):
        got = cpu.enumerate_matches(college, plan, limit=limit)
        assert np.array_equal(got, full[:limit])


def test_rows_are_valid_matches(college):
    motif = named_motif("M4", delta=7200)
    plan = build_temporal_plan(motif, college)
    ids = cpu.enumerate_matches(college, plan)
    assert len(ids) > 0
    s, d, t = college.src[ids], college.dst[ids], college.time[ids]
    assert (np.diff(t, axis=1) > 0).all() and (t[:, -1] - t[:, 0] <= 7200).all()
    for i, (a, b) in enumerate(motif.edges):
        for j, (c, e) in enumerate(motif.edges):
            for x, xa in ((s[:, i], a), (d[:, i], b)):
                for y, yc in ((s[:, j], c), (d[:, j], e)):
                    assert ((x == y) == (xa == yc)).all()


def test_tasks_cover_and_sum(college):
    plan = build_temporal_plan(named_motif("triangle", delta=3600), college)
    tasks = temporal_tasks(college, plan, 7)
    assert tasks[0][0] == 0 and tasks[-1][1] == college.m
    assert all(a[1] == b[0] for a, b in zip(tasks, tasks[1:], strict=False))
    total = sum(cpu.count(college, plan, lo, hi) for lo, hi in tasks)
    assert total == run_temporal(college, plan, "count", engine="cpu")
    blocks = list(iter_temporal_blocks(college, plan, engine="cpu", ntasks=5))
    assert sum(len(b) for b in blocks) == total
    with pytest.raises(ValueError, match="outside"):
        cpu.count(college, plan, 5, college.m + 1)


def test_impossible_and_empty(college):
    g = load_collegemsg(10)
    plan = build_temporal_plan(named_motif("M13", delta=1), g)
    assert cpu.count(g, plan) == 0 and not cpu.exists(g, plan)
    assert cpu.enumerate_matches(g, plan).shape == (0, 5)
    assert cpu.count(g, plan, 3, 3) == 0


def _bar_state(err: str, desc: str) -> tuple[int, int]:
    """``(done, total)`` tasks of the last state tqdm printed on ``err`` for the bar named
    ``desc`` (``desc:  37%|###  | [00:03<00:05, 95/256 tasks]``)."""
    states = re.findall(rf"{re.escape(desc)}:[^|]*\|[^|]*\|[^\]]*?(\d+)/(\d+) tasks\]", err)
    assert states, f"no progress bar {desc!r} on stderr: {err[-500:]!r}"
    done, total = states[-1]
    return int(done), int(total)


def test_progress_paths_agree(college, capsys):
    import tqdm  # noqa: F401  (in the test extra: without it the bar path would not run)

    from nx_gpumine.execution.executors.local import PROGRESS_TASKS

    plan = build_temporal_plan(named_motif("triangle", delta=3600), college)
    name = plan.motif.name
    ntasks = len(temporal_tasks(college, plan, PROGRESS_TASKS))
    assert ntasks > 1
    total = run_temporal(college, plan, "count", engine="cpu")
    assert total > 0 and capsys.readouterr().err == ""  # no bar unless asked
    assert run_temporal(college, plan, "count", engine="cpu", progress=True) == total
    # the per-task path ran: one bar over every root-edge task, completed
    assert _bar_state(capsys.readouterr().err, f"{name} (count)") == (ntasks, ntasks)
    assert run_temporal(college, plan, "exists", engine="cpu", progress=True) == (total > 0)
    done, n = _bar_state(capsys.readouterr().err, f"{name} (exists)")
    assert n == ntasks and 1 <= done <= ntasks
    rows = run_temporal(college, plan, "enumerate", engine="cpu", progress=True)
    assert _bar_state(capsys.readouterr().err, f"{name} (enumerate)") == (ntasks, ntasks)
    assert np.array_equal(rows, cpu.enumerate_matches(college, plan))
    assert len(rows) == total
    lim = run_temporal(college, plan, "enumerate", engine="cpu", progress=True, limit=3)
    done, n = _bar_state(capsys.readouterr().err, f"{name} (enumerate)")
    assert n == ntasks and 1 <= done < ntasks
    assert np.array_equal(lim, rows[:3])


def test_walk_index_against_searches():
    from nx_gpumine.engines.cpu.temporal import walk_index

    g = load_collegemsg(1500)
    pos_out, pos_in, out_after_in, in_after_out = walk_index(g)
    for e in range(g.m):
        assert g.out_edges[pos_out[e]] == e and g.in_edges[pos_in[e]] == e
        d, s = g.dst[e], g.src[e]
        lst = g.out_edges[g.out_ptr[d] : g.out_ptr[d + 1]]
        assert out_after_in[e] == g.out_ptr[d] + np.searchsorted(lst, e + 1)
        lst = g.in_edges[g.in_ptr[s] : g.in_ptr[s + 1]]
        assert in_after_out[e] == g.in_ptr[s] + np.searchsorted(lst, e + 1)
