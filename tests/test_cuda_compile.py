"""The CUDA sources compile (nvcc, no GPU needed) and the host-side packing is right (CPU only)."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines.cuda._runtime import KERNEL_DIR, preprocess_source
from nx_gpumine.engines.cuda.fsm_domains import kernel_defines as fsm_kernel_defines
from nx_gpumine.engines.cuda.static_build import pack_plan, resume_tasks
from nx_gpumine.engines.cuda.temporal import MAX_EDGES, structure_defines
from nx_gpumine.inputs.motifs import AntiEdge, TemporalMotif, named_motif
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_networkx
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.static_plan import build_static_plan, size_needs
from nx_gpumine.plan.temporal_plan import build_temporal_plan

SOURCES = sorted(p.name for p in KERNEL_DIR.glob("*.cu"))
NVCC = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")


def _temporal_graph(float_times: bool = False):
    t = np.arange(20) * (1.5 if float_times else 1)
    g = temporal_from_arrays(
        np.arange(20) % 5,
        (np.arange(20) + 1) % 5,
        t,
        edge_label=[i % 2 for i in range(20)],
        node_labels=[0, 1, 0, 1, 0],
    )
    g.node_values = np.arange(5, dtype=np.float64)
    return g


def _temporal_dfs_variants() -> list[tuple[str, dict]]:
    """Macros of real plans: every source kind, labels, gaps, anti-edges, both ties."""
    m4a = TemporalMotif(
        [(0, 1), (1, 2), (2, 3), (3, 0)],
        delta=10,
        gaps=[1, 2, 3],
        anti_edges=[AntiEdge(2, 0, 1, 5), AntiEdge(1, 3, 0, None)],
        node_labels={0: 1},
        edge_labels={1: 1},
        node_where=[(2, ">", 1)],
    )
    cases = [
        ("triangle", named_motif("triangle", 3600), False),
        ("M13-input-order", named_motif("M13", 3600, tie="input_order"), False),
        ("M4A-labels-gaps-anti-float", m4a, True),
        ("single-edge", TemporalMotif([(0, 1)], edge_labels={0: 0}), False),
        ("path-max", TemporalMotif([(i, i + 1) for i in range(MAX_EDGES - 1)]), False),
    ]
    out = []
    for name, motif, float_times in cases:
        g = _temporal_graph(float_times)
        out.append((name, structure_defines(build_temporal_plan(motif, g), g)))
    out.append(("wide-ids", {**out[0][1], "IDX64": 1}))
    m10 = build_temporal_plan(named_motif("M10", 3600), _temporal_graph(False))
    m10_defines = structure_defines(m10, _temporal_graph(False))
    out += [(f"M10-pair-min{k}", {**m10_defines, "PAIR_MIN": k}) for k in (-1, 0)]
    # several windows in one walk (count_windows): a counted last level, one walked, one edge
    out += [
        ("M10-windows3", {**m10_defines, "NWIN": 3}),
        ("M13-windows2", {**out[1][1], "NWIN": 2}),
        ("single-edge-windows4", {**out[3][1], "NWIN": 4}),
        ("M4A-windows2", {**out[2][1], "NWIN": 2}),
    ]
    return out


VARIANTS = [
    *[
        (f"static_dfs.cu-{i}", "static_dfs.cu", d)
        for i, d in enumerate(
            [
                {"K": 3, "MODE": 0, "NLAB": 0, "ELAB": 0, "ECHK": 0},
                {"K": 5, "MODE": 1, "NLAB": 1, "ELAB": 1, "ECHK": 1},
                {"K": 7, "MODE": 2, "NLAB": 0, "ELAB": 1, "ECHK": 1, "LOGP": 5},
                {"K": 4, "MODE": 0, "NLAB": 0, "ELAB": 0, "ECHK": 0, "TAILT": 2, "TAILKIND": 2},
                {"K": 5, "MODE": 0, "NLAB": 1, "ELAB": 0, "ECHK": 1, "TAILT": 3, "TAILKIND": 3},
                {"K": 12, "MODE": 0, "NLAB": 0, "ELAB": 0, "ECHK": 0, "TAILT": 2, "TAILKIND": 1},
                # the heavy-first head one task per claim (StaticTuning.heavy_single)
                {
                    "K": 5,
                    "MODE": 0,
                    "NLAB": 0,
                    "ELAB": 0,
                    "ECHK": 0,
                    "TAILT": 3,
                    "TAILKIND": 3,
                    "HEAVY_SINGLE": 4,
                },
                {"K": 5, "MODE": 2, "NLAB": 0, "ELAB": 0, "ECHK": 1, "HEAVY_SINGLE": 4},
                # hoisted sets (induced plans, StaticTuning.hoist_sets)
                {"K": 6, "MODE": 0, "NLAB": 1, "ELAB": 1, "ECHK": 1, "HOIST": 1},
                {"K": 6, "MODE": 2, "NLAB": 0, "ELAB": 0, "ECHK": 1, "HOIST": 1},
            ]
        )
    ],
    *[
        (f"static_count.cu-{i}", "static_count.cu", d)
        for i, d in enumerate(
            [
                {"KC": 3, "W": 1, "CWPB": 8, "TBOOK": 2, "PACK16": 1, "TPAIR": 3, "TRB": 8},
                {"KC": 5, "W": 4, "CWPB": 8, "TBOOK": 3, "PACK16": 0, "TPAIR": 5},
                {"KC": 10, "W": 16, "CWPB": 1, "TBOOK": 7, "PACK16": 1, "TPAIR": 12},
            ]
        )
    ],
    *[(f"temporal_dfs.cu-{n}", "temporal_dfs.cu", d) for n, d in _temporal_dfs_variants()],
    ("census.cu", "census.cu", {}),
    ("fsm_domains.cu", "fsm_domains.cu", fsm_kernel_defines()),
    *[
        (f"temporal_census.cu-{i}", "temporal_census.cu", d)
        for i, d in enumerate(
            [
                {"TFLOAT": 0, "IDX64": 0, "TIE": 0, "DELTA_ON": 1},
                {"TFLOAT": 1, "IDX64": 1, "TIE": 1, "DELTA_ON": 0},
            ]
        )
    ],
]


def _nvcc(tmp_path, source: str, defines: dict, *extra: str) -> subprocess.CompletedProcess:
    opts = [f"-D{k}={v}" for k, v in defines.items()]
    cmd = ["nvcc", "-arch=sm_90", "-std=c++17", "-I", str(KERNEL_DIR), *opts, *extra]
    cmd += ["-o", str(tmp_path / "out"), str(KERNEL_DIR / source)]
    return subprocess.run(cmd, capture_output=True, text=True)


@NVCC
@pytest.mark.parametrize("source,defines", [v[1:] for v in VARIANTS], ids=[v[0] for v in VARIANTS])
def test_nvcc_compiles(tmp_path, source, defines):
    proc = _nvcc(tmp_path, source, defines, "--ptx")
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr.lower(), proc.stderr
    assert (tmp_path / "out").stat().st_size > 0


def test_every_source_has_variants():
    assert set(SOURCES) == {v[1] for v in VARIANTS}


@NVCC
@pytest.mark.parametrize("name,defines", _temporal_dfs_variants()[:4], ids=lambda x: str(x)[:40])
def test_temporal_context_stays_in_registers(tmp_path, name, defines):
    """Everest's thread context lifted to registers: no local-memory stack frame, no spills
    (compiled without the engine's register cap, ``MIN_BLOCKS``, under which a few values
    spill by design: test_temporal_dfs_registers_allow_six_blocks_per_sm)."""
    proc = _nvcc(tmp_path, "temporal_dfs.cu", defines, "-cubin", "--resource-usage")
    assert proc.returncode == 0, proc.stderr
    report = proc.stdout + proc.stderr
    assert "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" in report, report


def _temporal_dfs_usage(tmp_path, defines: dict) -> dict[str, int]:
    """temporal_dfs's build under ``defines``: stack frame, spill stores and loads (bytes a
    thread) and registers, from ptxas' resource report."""
    proc = _nvcc(tmp_path, "temporal_dfs.cu", defines, "-cubin", "--resource-usage")
    assert proc.returncode == 0, proc.stderr
    report = proc.stdout + proc.stderr
    found = re.search(
        r"Function properties for temporal_dfs\s*\n\s*(\d+) bytes stack frame, (\d+) bytes "
        r"spill stores, (\d+) bytes spill loads.*?Used (\d+) registers",
        report,
        re.S,
    )
    assert found, report
    return dict(zip(("stack", "stores", "loads", "regs"), map(int, found.groups()), strict=True))


def _temporal_defines(name: str, delta: int, lazy: int) -> dict:
    """The engine's macros for catalogue motif ``name`` on a small skewed graph (LAZY_END as
    given: the window mode of graphs above the tuning's ``lazy_end_edges``)."""
    from nx_gpumine.engines.cuda.temporal import kernel_defines
    from nx_gpumine.inputs.generators import skewed_temporal_graph
    from nx_gpumine.inputs.motifs import named_motif
    from nx_gpumine.plan.temporal_plan import build_temporal_plan

    g = skewed_temporal_graph(n=200, m=2000, seed=3)
    plan = build_temporal_plan(named_motif(name, delta, tie="input_order"), g)
    return {**kernel_defines(plan, g), "LAZY_END": lazy}


@NVCC
def test_temporal_dfs_registers_allow_six_blocks_per_sm(tmp_path):
    """Occupancy guard: the DFS kernel is latency-bound, so its speed follows the resident warps,
    which its register count sets (persistent grid, 256 threads a block). The engine compiles it
    for six blocks per SM (tuning ``min_blocks``: at most 40 registers, 75% occupancy) and, where
    that build keeps more than ``spill_max`` bytes a thread in local memory, for five (at most 48
    registers); this test makes the same choice and checks the build the engine runs. On the
    10M-edge graphs five blocks took 4-10% longer than the default, and no cap up to 23% longer
    (sk10m M11 at 1 day: 6.19 against 5.04 ms; temporal_probe_2026-11-26_seventh/
    cap_early_walk.json).
    With ``__launch_bounds__(256, 1)`` nvcc took 64-72 registers and every 10M-edge cell ran
    20-40% slower (fourth session)."""
    from nx_gpumine.engines.cuda.temporal import DEFAULT_TUNING

    MIN_BLOCKS, SPILL_MAX = DEFAULT_TUNING.min_blocks, DEFAULT_TUNING.spill_max
    assert MIN_BLOCKS == 6
    fallbacks = 0
    for name, lazy in itertools.product(("M1", "M7", "M8", "M10", "M11", "M13"), (0, 1)):
        defines = _temporal_defines(name, 3600, lazy)  # both window modes
        use = _temporal_dfs_usage(tmp_path, defines)
        assert use["regs"] <= 40, (name, lazy, use)
        assert use["stores"] <= 256 and use["stack"] <= 64, (name, lazy, use)
        if use["stack"] > SPILL_MAX:  # the engine's choice (temporal_data.kernel): one block fewer
            fallbacks += 1
            use = _temporal_dfs_usage(tmp_path, {**defines, "MIN_BLOCKS": MIN_BLOCKS - 1})
            assert use["regs"] <= 48, (name, lazy, use)
        assert use["stack"] <= SPILL_MAX, (name, lazy, use)  # the build the engine runs
    assert fallbacks < 12  # most shapes keep six blocks


@NVCC
def test_temporal_count_carry_leaves_the_candidate_loop_in_registers(tmp_path):
    """Under the six-block register cap a few values spill by design; which ones is up to
    ptxas. When a lane's 64-bit count wrapped, ``add_checked`` once moved the whole count into
    ctl (an atomicAdd with the count and the addend live): in M4's build that pushed a mapped
    vertex of the hot candidate loop to local memory instead of the count (32 bytes of spill
    loads instead of 20; on the H200, 462 MB of local loads in sk10m's M4 at 1 day and 5% more
    time). The carry now adds 2**64 to the count's high word, and the spills stay on the count."""
    use = _temporal_dfs_usage(tmp_path, _temporal_defines("M4", 86400, 1))
    assert use["loads"] <= 20 and use["loads"] < use["stores"], use


def test_static_kernels_share_the_checked_arithmetic():
    """One checked binomial / falling factorial, one exact 128-bit form of them and one 128-bit
    warp count (device_common.cuh): the static sources hold no copy of their own, and no
    unchecked or hand-rolled warp sum."""
    common = (KERNEL_DIR / "device_common.cuh").read_text()
    for name in ("binom_checked", "falling_checked", "warp_sum_checked"):
        assert f"u64 {name}(" in common, name
    for name in ("formula_wide", "warp_sum_wide", "warp_add_count", "add_count_formula"):
        assert f" {name}(" in common, name
    assert re.search(r"\bwarp_sum\(", common) is None  # no unchecked warp sum is left
    for source in ("static_count.cu", "static_dfs.cu", "static_common.cuh", "temporal_dfs.cu"):
        text = (KERNEL_DIR / source).read_text()
        assert "__umul64hi" not in text, source  # the 128-bit product steps live in one place
        assert re.search(r"\bwarp_sum\(", text) is None, source
        assert "__shfl_down_sync" not in text and "__shfl_xor_sync" not in text, source
    count = (KERNEL_DIR / "static_count.cu").read_text()
    # every count is 128 bits: clique, book, c4 light / heavy, pair-edge end in the warp's
    # 128-bit sum, the formulas past 64 bits (book, pair-edge) go to the exact slow path
    assert count.count("warp_add_count(") == 5 and "warp_sum_checked(" not in count
    assert count.count("add_count_formula(") == 2
    assert "add_count_formula(" in (KERNEL_DIR / "static_dfs.cu").read_text()


def test_sources_found_and_includes_inlined():
    assert {"static_dfs.cu", "temporal_dfs.cu", "temporal_census.cu"} <= set(SOURCES)
    src = preprocess_source("static_dfs.cu")
    assert '#include "' not in src
    assert "struct Graph" in src and "static_dfs(" in src
    src = preprocess_source("temporal_dfs.cu")
    assert '#include "' not in src
    assert "struct TGraph" in src and "temporal_dfs(" in src


def test_nested_includes_inlined_depth_first_once(tmp_path):
    """A header's own local includes are inlined in place, depth first, each file only once."""
    (tmp_path / "base.cuh").write_text("#pragma once\nint base_v;\n")
    (tmp_path / "fam_a.cuh").write_text(
        '#pragma once\n#define A 1\n#include "base.cuh"\nint a_v;\n'
    )
    (tmp_path / "fam_b.cuh").write_text('#pragma once\n#include "base.cuh"\nint b_v;\n')
    (tmp_path / "k.cu").write_text('#include "fam_a.cuh"\n#include "fam_b.cuh"\nint k_v;\n')
    src = preprocess_source("k.cu", tmp_path)
    assert "#include" not in src and "#pragma once" not in src
    assert src.count("int base_v;") == 1
    order = ["#define A 1", "int base_v;", "int a_v;", "int b_v;", "int k_v;"]
    assert [src.index(s) for s in order] == sorted(src.index(s) for s in order)


def _first_line(header) -> str:
    return header.read_text().splitlines()[0]


@pytest.mark.parametrize("source", SOURCES)
def test_every_header_inlined_at_most_once(source):
    src = preprocess_source(source)
    assert '#include "' not in src
    for header in KERNEL_DIR.glob("*.cuh"):
        assert src.count(_first_line(header)) <= 1, header.name
    # every source reaches the shared header through its family's header (a nested include)
    assert src.count(_first_line(KERNEL_DIR / "device_common.cuh")) == 1


@NVCC
@pytest.mark.parametrize("source", SOURCES)
def test_inlined_source_compiles_alone(tmp_path, source):
    """What NVRTC gets (the .cu with its headers inlined, no include path) compiles."""
    defines = next(d for _, s, d in VARIANTS if s == source)
    (tmp_path / "k.cu").write_text(preprocess_source(source))
    opts = [f"-D{k}={v}" for k, v in defines.items()]
    cmd = ["nvcc", "-arch=sm_90", "-std=c++17", *opts, "--ptx", "-o", str(tmp_path / "out")]
    proc = subprocess.run([*cmd, str(tmp_path / "k.cu")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr.lower(), proc.stderr


def test_temporal_structure_defines():
    """Motif structure packed into macros: 4 bits per level / node / anti-edge, level bits."""
    g = _temporal_graph()
    motif = TemporalMotif(
        [(0, 1), (1, 2), (2, 3), (3, 1)],  # Everest M3
        delta=60,
        gaps=[None, 5, None],
        anti_edges=[AntiEdge(3, 0, 1, 7)],
        node_labels={2: 1},
        edge_labels={3: 0},
        node_where=[(0, "<", 3)],
        tie="input_order",
    )
    d = structure_defines(build_temporal_plan(motif, g), g)
    assert (d["L"], d["K"], d["NANTI"]) == (4, 4, 1)
    assert d["ESRC"] == 0x3210 and d["EDST"] == 0x1321
    assert d["SRCNEW"] == 0b0001 and d["DSTNEW"] == 0b0111
    # sources: level 0 all edges, 1 and 2 out-lists, 3 both mapped
    assert d["SOURCE"] == 2 | 0 << 2 | 0 << 4 | 3 << 6
    assert d["GAPS"] == 0b0100 and d["NLAB"] == 0b0100 and d["ELAB"] == 0b1000
    assert d["ALLOW"] == 0b0001
    # the anti-edge 3 -> 0 after edge 1 is checked at level 2, where node 3 is first mapped
    assert (d["ANTI_A"], d["ANTI_B"], d["ANTI_LO"], d["ANTI_HI"], d["ANTI_LEV"]) == (3, 0, 1, 1, 2)
    assert d["ANTI_WON"] == 1
    assert (d["TIE"], d["TFLOAT"], d["IDX64"], d["DELTA_ON"]) == (1, 0, 0, 1)
    with pytest.raises(Exception, match="at most 15"):
        path = TemporalMotif([(i, i + 1) for i in range(MAX_EDGES + 1)])
        structure_defines(build_temporal_plan(path, g), g)


def test_pack_plan_layout():
    G = from_networkx(nx.gnm_random_graph(30, 90, seed=1))
    plan = build_static_plan(as_pattern("house"), G, induced=True, distinct=True)
    k = plan.k
    p = pack_plan(plan)
    assert p.dtype == np.int32 and len(p) == 13 * k + 3 * k * k + 1
    # the last k ints: the size pruning of each level (P_NEED)
    assert p[10 * k + 3 * k * k + 1 : 11 * k + 3 * k * k + 1].tolist() == size_needs(plan).tolist()
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
    assert p[10 * k + 3 * k * k] == 1  # induced


def test_resume_tasks_bookkeeping():
    # launch space: list [100, 101] (skips 0, 5) then range [10, 20) -> 12 tasks
    tl_e = np.array([100, 101], dtype=np.int64)
    tl_s = np.array([0, 5], dtype=np.int64)
    ctl = np.zeros(16, dtype=np.uint64)
    ctl[2] = 8  # chunks from task 8 on were never taken
    resume = np.full(9, -1, dtype=np.int64)
    resume[0:3] = [1, 7, 3]  # warp 0 stopped in task 1 (entry 101) after 7 matches
    resume[3:6] = [4, 0, 6]  # warp 1 stopped before task 4 (entry 12)
    ent, sk, lo = resume_tasks(resume, ctl, tl_e, tl_s, 10, 20)
    assert ent.tolist() == [101, 10, 12, 13]
    assert sk.tolist() == [7, 0, 0, 0]
    assert lo == 16  # range entries 16.. = tasks 8..


def test_walk_index_bulk_build_equals_cpu_engine():
    """The device's bulk walk-index build (run here with NumPy) equals the CPU engine's merge."""
    from nx_gpumine.engines.cpu.temporal import walk_index
    from nx_gpumine.engines.cuda.temporal import walk_arrays
    from nx_gpumine.inputs.generators import skewed_temporal_graph

    g = skewed_temporal_graph(n=300, m=5000, seed=2)
    got = walk_arrays(np, g.src, g.dst, g.out_edges.astype(np.int32), g.in_edges.astype(np.int32))
    for a, b in zip(got, walk_index(g), strict=True):
        assert a.dtype == np.int32
        assert np.array_equal(a, b)


def test_level1_list_names_the_root_filters_list():
    from nx_gpumine.engines.cuda.temporal import level1_list

    g = _temporal_graph(False)
    want = {
        "M1": "dst_out",
        "M2": "src_out",
        "M6": "dst_in",
        "M7": "src_out",
        "M8": "dst_in",
        "M10": "dst_out",
    }
    for name, kind in want.items():
        plan = build_temporal_plan(named_motif(name, 3600), g)
        assert level1_list(structure_defines(plan, g)) == kind, name
    for edges, kind in (
        ([(0, 1), (2, 0), (1, 2)], "src_in"),
        ([(0, 1), (2, 3), (1, 2)], "all"),
        ([(0, 1), (1, 0)], None),  # both endpoints mapped
        ([(0, 1), (0, 1)], None),
    ):
        plan = build_temporal_plan(TemporalMotif(edges, delta=60), g)
        assert level1_list(structure_defines(plan, g)) == kind, edges


@pytest.mark.parametrize("float_times", [False, True])
def test_level1_gaps_equal_a_walk_of_each_list(float_times):
    """The root filter's gaps (built on the device; here with NumPy) equal, for every edge, the
    time to the next (and third next) edge of each list by a plain walk: exact 32-bit integers
    (saturated, and the saturated value where there is none), float32 never above the float64
    difference."""
    from nx_gpumine.engines.cuda.temporal import GAP_NONE, level1_gaps, walk_arrays
    from nx_gpumine.inputs.generators import skewed_temporal_graph

    g = skewed_temporal_graph(n=200, m=3000, seed=4)
    time = g.time * 0.37 + 0.1 if float_times else g.time * 10**6  # gaps beyond 2**32 too
    g = temporal_from_arrays(g.src, g.dst, time, nodes=range(g.n))
    arrays = {k: getattr(g, k) for k in ("src", "dst", "time", "out_ptr", "in_ptr")}
    arrays.update(out_edges=g.out_edges, in_edges=g.in_edges)
    walk = walk_arrays(np, g.src, g.dst, g.out_edges, g.in_edges)
    lists = {
        "src_out": lambda e: g.out_edges[g.out_ptr[g.src[e]] : g.out_ptr[g.src[e] + 1]],
        "dst_out": lambda e: g.out_edges[g.out_ptr[g.dst[e]] : g.out_ptr[g.dst[e] + 1]],
        "src_in": lambda e: g.in_edges[g.in_ptr[g.src[e]] : g.in_ptr[g.src[e] + 1]],
        "dst_in": lambda e: g.in_edges[g.in_ptr[g.dst[e]] : g.in_ptr[g.dst[e] + 1]],
        "all": lambda e: np.arange(g.m),
    }
    saturated = 0
    for (kind, members), nth in itertools.product(lists.items(), (1, 3)):
        got = level1_gaps(np, kind, arrays, walk, nth)
        assert got.dtype == (np.float32 if float_times else np.uint32) and len(got) == g.m
        for e in range(g.m):
            later = members(e)
            later = np.sort(later[later > e])
            if len(later) < nth:
                assert got[e] == (np.inf if float_times else GAP_NONE)
                continue
            exact = g.time[later[nth - 1]] - g.time[e]
            if float_times:
                assert float(got[e]) <= exact and np.nextafter(got[e], np.float32(np.inf)) > exact
            else:
                assert int(got[e]) == min(int(exact), GAP_NONE)
                saturated += int(exact) >= GAP_NONE
    assert float_times or saturated > 0


def test_window_mode_follows_the_graph_size():
    """Open windows (LAZY_END) are compiled in for graphs above the tuning's ``lazy_end_edges``
    edges only: the setting the GPU tests' ``lazy`` fixture changes."""
    from nx_gpumine.engines.cuda import temporal as gpu
    from nx_gpumine.inputs.generators import skewed_temporal_graph
    from nx_gpumine.plan.temporal_plan import build_temporal_plan

    g = skewed_temporal_graph(n=200, m=2000, seed=3)
    plan = build_temporal_plan(named_motif("M10", 3600, tie="input_order"), g)
    assert gpu.current_tuning() is gpu.DEFAULT_TUNING and gpu.DEFAULT_TUNING.lazy_end_edges >= 2000
    assert gpu.kernel_defines(plan, g)["LAZY_END"] == 0
    with gpu.tuned(lazy_end_edges=1999) as tuning:
        assert gpu.kernel_defines(plan, g)["LAZY_END"] == 1
        with gpu.tuned(lazy_end_edges=2000):
            assert gpu.kernel_defines(plan, g)["LAZY_END"] == 0
        assert gpu.current_tuning() is tuning
    assert gpu.current_tuning() is gpu.DEFAULT_TUNING
    assert gpu.kernel_defines(plan, g, gpu.TemporalTuning(lazy_end_edges=0))["LAZY_END"] == 1


def test_nvrtc_options_from_the_environment(monkeypatch):
    """NX_GPUMINE_NVRTC_OPTIONS takes profiling aids only, read on every module load."""
    from nx_gpumine.engines.cuda import _runtime

    monkeypatch.setenv("NX_GPUMINE_NVRTC_OPTIONS", " -lineinfo  --generate-line-info ")
    assert _runtime._extra_options() == ["-lineinfo", "--generate-line-info"]
    monkeypatch.setenv("NX_GPUMINE_NVRTC_OPTIONS", "-lineinfo -G")
    with pytest.raises(ValueError, match=r"unsupported option\(s\) \['-G'\]"):
        _runtime._extra_options()
    monkeypatch.delenv("NX_GPUMINE_NVRTC_OPTIONS")
    assert _runtime._extra_options() == []
