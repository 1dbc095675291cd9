"""The CUDA sources compile (nvcc, no GPU needed) and the host-side packing is right (CPU only)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines.cuda._runtime import KERNEL_DIR, preprocess_source
from nx_gpumine.engines.cuda.static import _pack_plan, _resume_tasks
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_networkx
from nx_gpumine.plan.static_plan import build_static_plan

SOURCES = sorted(p.name for p in KERNEL_DIR.glob("*.cu"))
VARIANTS = [
    {"K": 3, "MODE": 0, "NLAB": 0, "ELAB": 0, "ECHK": 0},
    {"K": 5, "MODE": 1, "NLAB": 1, "ELAB": 1, "ECHK": 1},
    {"K": 7, "MODE": 2, "NLAB": 0, "ELAB": 1, "ECHK": 1, "LOGP": 5},
]


def _variant_id(d: dict) -> str:
    return "-".join(f"{k}{v}" for k, v in d.items())


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(
    "defines", VARIANTS, ids=lambda d: "-".join(f"{k}{v}" for k, v in d.items())
)
def test_nvcc_compiles(tmp_path, source, defines):
    opts = [f"-D{k}={v}" for k, v in defines.items()]
    cmd = ["nvcc", "-arch=sm_90", "--ptx", "-I", str(KERNEL_DIR), *opts]
    cmd += ["-o", str(tmp_path / "out.ptx"), str(KERNEL_DIR / source)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr.lower(), proc.stderr
    assert (tmp_path / "out.ptx").stat().st_size > 0


def test_sources_found_and_includes_inlined():
    assert "static_dfs.cu" in SOURCES
    src = preprocess_source("static_dfs.cu")
    assert '#include "' not in src
    assert "struct Graph" in src and "static_dfs(" in src


def test_pack_plan_layout():
    G = from_networkx(nx.gnm_random_graph(30, 90, seed=1))
    plan = build_static_plan(as_pattern("house"), G, induced=True, distinct=True)
    k = plan.k
    p = _pack_plan(plan)
    assert p.dtype == np.int32 and len(p) == 10 * k + 3 * k * k + 1
    code = p[10 * k : 10 * k + k * k].reshape(k, k)
    bn = p[7 * k : 8 * k]
    sym = p[6 * k : 7 * k]
    for i in range(k):
        checks = plan.checks(i)
        assert {j for j, *_ in checks} == {j for j in range(k) if code[i, j] != -1}
        for j, c, _, _ in checks:
            assert code[i, j] == c
        bns = set(plan.bn_level[plan.bn_ptr[i] : plan.bn_ptr[i + 1]].tolist())
        assert bns == {j for j in range(k) if (int(bn[i]) >> j) & 1}
        syms = set(plan.sym_level[plan.sym_ptr[i] : plan.sym_ptr[i + 1]].tolist())
        assert syms == {j for j in range(k) if (int(sym[i]) >> j) & 1}
    assert p[-1] == 1  # induced


def test_resume_tasks_bookkeeping():
    # launch space: list [100, 101] (skips 0, 5) then range [10, 20) -> 12 tasks
    tl_e = np.array([100, 101], dtype=np.int64)
    tl_s = np.array([0, 5], dtype=np.int64)
    ctl = np.zeros(16, dtype=np.uint64)
    ctl[2] = 8  # chunks from task 8 on were never taken
    resume = np.full(9, -1, dtype=np.int64)
    resume[0:3] = [1, 7, 3]  # warp 0 stopped in task 1 (entry 101) after 7 matches
    resume[3:6] = [4, 0, 6]  # warp 1 stopped before task 4 (entry 12)
    ent, sk, lo = _resume_tasks(resume, ctl, tl_e, tl_s, 10, 20)
    assert ent.tolist() == [101, 10, 12, 13]
    assert sk.tolist() == [7, 0, 0, 0]
    assert lo == 16  # range entries 16.. = tasks 8..


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not on PATH")
def test_queue_protocol_model(tmp_path):
    """The queue/termination protocol of the DFS kernel, modelled with threads, loses nothing."""
    src = Path(__file__).with_name("cuda_queue_model.cpp")
    exe = tmp_path / "queue_model"
    proc = subprocess.run(
        ["g++", "-O2", "-pthread", "-o", str(exe), str(src)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    for cap, threads in [(1, 4), (3, 8), (7, 8), (64, 16), (100000, 4)]:
        run = subprocess.run(
            [str(exe), str(cap), str(threads)], capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert "checksum_ok=1" in run.stdout
