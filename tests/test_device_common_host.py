"""The checked arithmetic of kernels/device_common.cuh, run on the CPU (no GPU needed).

The header itself is compiled as host C++ (g++) with small stand-ins for the CUDA intrinsics it
uses: ``__umul64hi`` by a 128-bit product, the warp shuffles by 32 threads meeting at a barrier
(one std::thread a lane), the atomics by GCC builtins. Checked: ``binom_checked`` and
``falling_checked`` are exact below 2**64 and flag every value above, and ``formula_wide``
(their slow path) is exact below 2**128; ``warp_sum_checked`` gives the warp's sum and flags
exactly the sums above 2**64 - 1 (also where a shuffle-down sum would flag a lane's own doubled
value); the shape kernels' epilogue (``warp_add_count``: a 128-bit warp sum of every lane's
hi:lo, added by lane 0) leaves the exact 128-bit count in the control block, with
``F_OVERFLOW`` exactly past 2**128 - 1, which the host (``engines/cuda/shapes.py``) returns as
an int or turns into a ``CapacityError``; ``add_count`` carries every wrap of the low word.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess

import numpy as np
import pytest

from nx_gpumine.engines.cuda import shapes, static_build
from nx_gpumine.engines.cuda._runtime import C_COUNT_HI, KERNEL_DIR
from nx_gpumine.errors import CapacityError

CXX = shutil.which("g++") or shutil.which("c++")
pytestmark = pytest.mark.skipif(CXX is None, reason="no host C++ compiler")
U64 = 1 << 64

HARNESS = r"""
#include <atomic>
#include <barrier>
#include <cstdio>
#include <thread>
#include <vector>

#define __device__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
struct Dim3 { unsigned x; };
static thread_local Dim3 threadIdx;
static std::barrier<>* lanes_meet;
static unsigned long long lane_slot[32];

// a warp shuffle: every lane posts its value, then reads lane src(lane)'s (own if out of range)
template <class T, class F>
static T shuffle(T v, F src) {
  const unsigned lane = threadIdx.x & 31;
  lane_slot[lane] = (unsigned long long)v;
  lanes_meet->arrive_and_wait();
  const int s = src((int)lane);
  const T r = (T)lane_slot[(s >= 0 && s < 32) ? s : lane];
  lanes_meet->arrive_and_wait();
  return r;
}
template <class T> T __shfl_xor_sync(unsigned, T v, int m) {
  return shuffle(v, [m](int l) { return l ^ m; });
}
template <class T> T __shfl_down_sync(unsigned, T v, int d) {
  return shuffle(v, [d](int l) { return l + d; });
}
template <class T> T __shfl_sync(unsigned, T v, int s) {
  return shuffle(v, [s](int) { return s; });
}
static unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static int __ffs(unsigned x) { return __builtin_ffs((int)x); }
template <class T> T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }

#define F_OVERFLOW 2u  // the static family's bit (static_common.cuh)
#include "device_common.cuh"

// body(lane) on 32 threads meeting at the shuffles' barrier: one warp
template <class F>
static void run_warp(F body) {
  std::barrier<> meet(32);
  lanes_meet = &meet;
  std::vector<std::thread> warp;
  for (int l = 0; l < 32; ++l)
    warp.emplace_back([&, l] {
      threadIdx.x = l;
      body(l);
    });
  for (auto& w : warp) w.join();
}

int main() {
  char op[16];
  while (std::scanf("%15s", op) == 1) {
    if (op[0] == 'b' || op[0] == 'f') {  // binom / falling: n t -> value ovf
      unsigned long long n;
      int t;
      std::scanf("%llu %d", &n, &t);
      bool ovf = false;
      const u64 v = op[0] == 'b' ? binom_checked(n, t, &ovf) : falling_checked(n, t, &ovf);
      std::printf("%llu %d\n", v, (int)ovf);
    } else if (op[0] == 'W' || op[0] == 'F') {  // formula_wide binom / falling: n t -> lo hi ok
      unsigned long long n, lo, hi;
      int t;
      std::scanf("%llu %d", &n, &t);
      const bool ok = formula_wide(n, t, op[0] == 'W', &lo, &hi);
      std::printf("%llu %llu %d\n", lo, hi, (int)ok);
    } else if (op[0] == 'a') {  // add: m values added to one control block -> lo hi flags
      int m;
      std::scanf("%d", &m);
      u64 ctl[C_WORDS] = {0};
      for (int i = 0; i < m; ++i) {
        unsigned long long v;
        std::scanf("%llu", &v);
        add_count(ctl, v);
      }
      std::printf("%llu %llu %llu\n", ctl[C_COUNT], ctl[C_COUNT_HI], ctl[C_FLAGS]);
    } else if (op[0] == 'h') {  // wide warp: 32 lo then 32 hi -> ctl lo hi flags
      unsigned long long lo[32], hi[32];
      for (int l = 0; l < 32; ++l) std::scanf("%llu", &lo[l]);
      for (int l = 0; l < 32; ++l) std::scanf("%llu", &hi[l]);
      u64 ctl[C_WORDS] = {0};
      run_warp([&](int l) { warp_add_count(ctl, lo[l], hi[l]); });  // the shape kernels' epilogue
      std::printf("%llu %llu %llu\n", ctl[C_COUNT], ctl[C_COUNT_HI], ctl[C_FLAGS]);
    } else {  // warp: 32 lane values -> lane 0's sum, lanes agreeing, lanes flagged, ctl words
      unsigned long long v[32], sum[32];
      bool flag[32];
      for (int l = 0; l < 32; ++l) std::scanf("%llu", &v[l]);
      u64 ctl[C_WORDS] = {0};
      run_warp([&](int l) {
        bool ovf = false;  // census.cu's epilogue
        const u64 s = warp_sum_checked(v[l], &ovf);
        if (ovf) set_flag(ctl, F_OVERFLOW);
        if (l == 0) add_count(ctl, s);
        sum[l] = s;
        flag[l] = ovf;
      });
      int same = 1, flagged = 0;
      for (int l = 0; l < 32; ++l) {
        same &= sum[l] == sum[0];
        flagged += flag[l];
      }
      std::printf("%llu %d %d %llu %llu\n", sum[0], same, flagged, ctl[C_COUNT], ctl[C_FLAGS]);
    }
  }
  return 0;
}
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    d = tmp_path_factory.mktemp("device_common")
    (d / "harness.cpp").write_text(HARNESS)
    exe = d / "harness"
    cmd = [CXX, "-std=c++20", "-O1", "-pthread", "-I", str(KERNEL_DIR)]
    proc = subprocess.run(
        [*cmd, "-o", str(exe), str(d / "harness.cpp")], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr

    def run(lines: list[str]) -> list[list[int]]:
        out = subprocess.run(
            [str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
        )
        return [[int(x) for x in row.split()] for row in out.stdout.splitlines()]

    return run


def _first_above(f, t: int) -> int:
    """The least n with f(n, t) >= 2**64 (f grows with n)."""
    lo, hi = t, 2**64
    while lo < hi:
        mid = (lo + hi) // 2
        if f(mid, t) >= U64:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _cases() -> list[tuple[int, int]]:
    cases = [(0, 0), (0, 1), (5, 0), (5, 5), (5, 6), (2**64 - 1, 1), (2**64 - 1, 2), (2**32, 2)]
    cases += [(n, t) for n in (10, 40, 62, 63, 64, 66, 67, 68, 70, 100, 1000) for t in range(0, 41)]
    cases += [(2**32 + 15, t) for t in range(1, 4)] + [(2**21, t) for t in range(1, 5)]
    # both sides of the 64-bit boundary: the first value above it exceeds 2**64 by less than
    # the last factor's share, where the binomial's 128-bit high word equals its divisor
    for f in (math.comb, math.perm):
        for t in range(2, 34):
            n = _first_above(f, t)
            cases += [(n - 1, t), (n, t)]
    return cases


@pytest.mark.parametrize("kind", ["binom", "falling"])
def test_checked_formulas_exact_or_flagged(harness, kind):
    cases = _cases()
    got = harness([f"{kind} {n} {t}" for n, t in cases])
    flagged = 0
    for (n, t), (value, ovf) in zip(cases, got, strict=True):
        want = math.comb(n, t) if kind == "binom" else math.perm(n, t) if t <= n else 0
        if want >= U64:
            assert (value, ovf) == (0, 1), (n, t)
            flagged += 1
        else:
            assert (value, ovf) == (want, 0), (n, t)
    assert flagged > 20  # the boundary is crossed many times (e.g. C(68, 34) > 2**64 > C(67, 33))


def _warp_cases() -> list[list[int]]:
    rng = np.random.default_rng(16)
    top = [0] * 16 + [2**63] + [0] * 15  # lane 16 alone: a shuffle down doubles it (wraps)
    cases = [
        [0] * 32,
        list(range(32)),
        rng.integers(0, 2**40, 32).tolist(),
        [2**59 - 1] * 32,  # 2**64 - 32: fits
        [2**59] * 32,  # exactly 2**64: wraps to 0
        [2**64 - 1] + [0] * 31,
        [2**64 - 1, 1] + [0] * 30,
        [2**64 - 32] + [1] * 31,  # 2**64 - 1: fits
        [2**64 - 31] + [1] * 31,  # 2**64: wraps
        top,
        [0] * 31 + [2**63 + 5],
        [2**62] * 4 + [0] * 28,  # 2**64 from four lanes of one butterfly quarter
        [0] * 8 + [2**63] + [0] * 15 + [2**63] + [0] * 7,  # lanes 8 and 24: wrap in lane 8's add
    ]
    cases += [rng.integers(0, 2**63, 32).tolist() for _ in range(4)]  # all wrap
    return cases


def test_warp_sum_checked_flags_exactly_the_wrapping_sums(harness):
    cases = _warp_cases()
    got = harness(["warp " + " ".join(str(v) for v in vals) for vals in cases])
    for vals, (s0, same, flagged, count, flags) in zip(cases, got, strict=True):
        total = sum(vals)
        assert s0 == total % U64 and same == 1, vals  # the sum, in every lane
        assert (flagged > 0) == (total >= U64), vals
        assert count == total % U64  # lane 0 added it to the control block's count
        assert flags == (shapes.F_OVERFLOW if total >= U64 else 0)


def _wide_cases(f) -> list[tuple[int, int]]:
    """(n, t) for formula_wide: n < 2**32, both sides of the 128-bit boundary."""
    cases = [
        (n, t) for n in (0, 5, 40, 68, 1000, 2**20, 2**31 - 1, 2**32 - 1) for t in range(0, 34)
    ]
    for t in range(2, 34):  # both sides of the 128-bit boundary
        lo, hi = t, 2**32 - 1
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if f(mid, t) >= 2**128 else (mid + 1, hi)
        cases += [(lo - 1, t), (lo, t)]
    return cases


@pytest.mark.parametrize("kind", ["W", "F"])
def test_wide_formulas_exact_below_2_128(harness, kind):
    f = math.comb if kind == "W" else math.perm
    cases = _wide_cases(f)
    got = harness([f"{kind} {n} {t}" for n, t in cases])
    wide = 0
    for (n, t), (lo, hi, ok) in zip(cases, got, strict=True):
        want = f(n, t) if t <= n else 0
        if want >= 2**128:
            assert ok == 0, (n, t)
        else:
            assert ok == 1 and lo + (hi << 64) == want, (n, t)
            wide += want >= U64
    assert wide > 50


def test_add_count_carries_every_wrap(harness):
    rng = np.random.default_rng(3)
    cases = [
        [2**64 - 1, 1],
        [2**63] * 4,
        [2**64 - 1] * 7,
        rng.integers(0, 2**64, 50, dtype=np.uint64),
    ]
    got = harness([f"add {len(v)} " + " ".join(str(int(x)) for x in v) for v in cases])
    for vals, (lo, hi, flags) in zip(cases, got, strict=True):
        assert lo + (hi << 64) == sum(int(x) for x in vals) and flags == 0


def _wide_warp_cases() -> list[tuple[list[int], list[int]]]:
    """32 lanes' (lo, hi) words for warp_add_count."""
    rng = np.random.default_rng(5)
    big = 2**64 - 1
    cases = [
        ([0] * 32, [0] * 32),
        ([big] * 32, [0] * 32),  # every low word wraps into the high one
        ([big] * 32, [2**58] * 32),  # 2**63 + ... in the high words: fits
        ([big] * 32, [2**59 - 1] * 31 + [0]),
        ([0] * 31 + [1], [2**59] * 32),  # high words sum to 2**64: past 2**128 - 1
        ([1] * 32, [big] + [0] * 31),
        ([big] * 32, [big] + [0] * 31),  # the carries push it past 2**128 - 1
    ]
    cases += [
        (rng.integers(0, 2**64, 32, dtype=np.uint64).tolist(), rng.integers(0, 2**50, 32).tolist())
        for _ in range(4)
    ]
    return cases


def test_warp_add_count_is_exact_to_2_128(harness):
    cases = _wide_warp_cases()
    got = harness(["h " + " ".join(str(int(x)) for x in lo + hi) for lo, hi in cases])
    for (lo, hi), (clo, chi, flags) in zip(cases, got, strict=True):
        total = sum(int(a) + (int(b) << 64) for a, b in zip(lo, hi, strict=True))
        ctl = np.zeros(16, dtype=np.uint64)
        ctl[static_build.C_COUNT], ctl[shapes.C_FLAGS], ctl[C_COUNT_HI] = clo, flags, chi
        if total >= 2**128:  # what the host makes of the kernel's report
            assert flags == shapes.F_OVERFLOW, (lo, hi)
            with pytest.raises(CapacityError, match="128-bit"):
                shapes._check(ctl)
        else:
            assert flags == 0 and clo + (chi << 64) == total, (lo, hi)
            assert shapes._check(ctl) == total


def test_host_mirrors_the_static_flag_bits():
    """The host modules read the control block with the static family's word and bit numbers."""
    text = (KERNEL_DIR / "static_common.cuh").read_text()
    text += (KERNEL_DIR / "device_common.cuh").read_text()
    defs = {m[0]: int(m[1]) for m in re.findall(r"#define (\w+) (\d+)u?\b", text)}
    names = [n for n in vars(static_build) if n[:2] in ("C_", "F_")]
    assert len(names) == 11
    for name in names:
        assert getattr(static_build, name) == defs[name], name
    assert shapes.F_OVERFLOW == defs["F_OVERFLOW"]
    assert shapes.C_FLAGS == defs["C_FLAGS"] and static_build.C_COUNT == defs["C_COUNT"]
    assert C_COUNT_HI == defs["C_COUNT_HI"]


GPU_KERNELS = r"""
extern "C" __global__ void warp_cases(const u64* v, u64* ctl) {
  const int lane = threadIdx.x & 31;  // one warp per case (block)
  bool ovf = false;
  const u64 s = warp_sum_checked(v[blockIdx.x * 32 + lane], &ovf);
  u64* c = ctl + blockIdx.x * C_WORDS;
  if (ovf) set_flag(c, F_OVERFLOW);
  if (lane == 0) add_count(c, s);
}

extern "C" __global__ void wide_cases(const u64* lo, const u64* hi, u64* ctl) {
  const int i = blockIdx.x * 32 + (threadIdx.x & 31);  // one warp per case (block)
  warp_add_count(ctl + blockIdx.x * C_WORDS, lo[i], hi[i]);
}

extern "C" __global__ void formulas_wide(const u64* n, const int* t, int binomial, u64* lo,
                                         u64* hi, int* ok, int m) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) ok[i] = formula_wide(n[i], t[i], binomial != 0, lo + i, hi + i);
}

extern "C" __global__ void formulas(const u64* n, const int* t, int falling, u64* val, int* ovf,
                                    int m) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    bool o = false;
    val[i] = falling ? falling_checked(n[i], t[i], &o) : binom_checked(n[i], t[i], &o);
    ovf[i] = o;
  }
}
"""


@pytest.mark.gpu
def test_checked_arithmetic_on_the_gpu():
    """The same cases on the device, the header compiled by NVRTC as the engines compile it."""
    import cupy as cp

    head = "#define F_OVERFLOW 2u\n" + (KERNEL_DIR / "device_common.cuh").read_text()
    mod = cp.RawModule(code=head.replace("#pragma once", "") + GPU_KERNELS, options=("-std=c++17",))
    cases = _warp_cases()
    v = cp.asarray(np.array(cases, dtype=np.uint64).ravel())
    ctl = cp.zeros(len(cases) * 16, dtype=cp.uint64)
    mod.get_function("warp_cases")((len(cases),), (32,), (v, ctl))
    got = ctl.get().reshape(len(cases), 16)
    for vals, row in zip(cases, got, strict=True):
        total = sum(vals)
        assert int(row[static_build.C_COUNT]) == total % U64, vals
        assert int(row[shapes.C_FLAGS]) == (shapes.F_OVERFLOW if total >= U64 else 0), vals
    pairs = _cases()
    n = cp.asarray(np.array([p[0] for p in pairs], dtype=np.uint64))
    t = cp.asarray(np.array([p[1] for p in pairs], dtype=np.int32))
    for falling, f in ((0, math.comb), (1, math.perm)):
        val = cp.zeros(len(pairs), dtype=cp.uint64)
        ovf = cp.zeros(len(pairs), dtype=cp.int32)
        args = (n, t, np.int32(falling), val, ovf, np.int32(len(pairs)))
        mod.get_function("formulas")((-(-len(pairs) // 128),), (128,), args)
        for (nn, tt), a, o in zip(pairs, val.get().tolist(), ovf.get().tolist(), strict=True):
            want = f(nn, tt) if tt <= nn else 0
            assert (a, o) == ((0, 1) if want >= U64 else (want, 0)), (falling, nn, tt)
    # the 128-bit epilogue and the exact formulas
    wide = _wide_warp_cases()
    lo = cp.asarray(np.array([c[0] for c in wide], dtype=np.uint64).ravel())
    hi = cp.asarray(np.array([c[1] for c in wide], dtype=np.uint64).ravel())
    ctl = cp.zeros(len(wide) * 16, dtype=cp.uint64)
    mod.get_function("wide_cases")((len(wide),), (32,), (lo, hi, ctl))
    for (a, b), row in zip(wide, ctl.get().reshape(len(wide), 16), strict=True):
        total = sum(int(x) + (int(y) << 64) for x, y in zip(a, b, strict=True))
        flags = int(row[shapes.C_FLAGS])
        got = int(row[static_build.C_COUNT]) + (int(row[C_COUNT_HI]) << 64)
        if total >= 2**128:
            assert flags == shapes.F_OVERFLOW, (a, b)
        else:
            assert flags == 0 and got == total, (a, b)
    for binomial, f in ((1, math.comb), (0, math.perm)):
        wp = _wide_cases(f)
        n = cp.asarray(np.array([p[0] for p in wp], dtype=np.uint64))
        t = cp.asarray(np.array([p[1] for p in wp], dtype=np.int32))
        lo, hi = cp.zeros(len(wp), dtype=cp.uint64), cp.zeros(len(wp), dtype=cp.uint64)
        ok = cp.zeros(len(wp), dtype=cp.int32)
        args = (n, t, np.int32(binomial), lo, hi, ok, np.int32(len(wp)))
        mod.get_function("formulas_wide")((-(-len(wp) // 128),), (128,), args)
        for (nn, tt), a, b, o in zip(
            wp, lo.get().tolist(), hi.get().tolist(), ok.get().tolist(), strict=True
        ):
            want = f(nn, tt) if tt <= nn else 0
            assert o == (want < 2**128) and (not o or a + (b << 64) == want), (binomial, nn, tt)
