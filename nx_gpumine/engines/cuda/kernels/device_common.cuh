// Device helpers of both kernel families, everything that is not specific to one: integer
// types, the warp mask, the control block's common words (count, flags) and their helpers
// (flag reads and sets, 128-bit counts), lane and warp helpers (lane masks, warp sums, one
// atomic per warp), checked 64-bit falling factorials and binomials and their exact 128-bit
// forms, the clock and the binary search. Nothing here knows a graph, a plan or a motif
// (beyond the default of the label switches NLAB and ELAB that both families take).
//
// Counts: a thread or warp keeps a 64-bit count in its hot loop; the control block's count is
// 128 bits (C_COUNT low word, C_COUNT_HI high word), so a partial count that would wrap, or a
// formula past 64 bits, is carried there (add_count, add_count_wide), and F_OVERFLOW is
// raised only past 2**128 - 1.
//
// Included by the two family headers only: static_common.cuh (static_dfs.cu, static_count.cu)
// and temporal_common.cuh (temporal_dfs.cu, temporal_census.cu), each after defining its flag
// bits (add_count raises the family's F_OVERFLOW; the bit differs between the families).
// engines/cuda/_runtime.py inlines it into each source (once) for NVRTC.
#pragma once

#ifndef F_OVERFLOW
#error "define the family's flag bits (F_OVERFLOW at least) before including device_common.cuh"
#endif

// The label switches both families take as -D options (static_common.cuh: 1 if the graph has
// node / edge labels; temporal_dfs.cu: bit masks of the motif nodes / edges that need one):
// 0, no label checks, when not given.
#ifndef NLAB
#define NLAB 0
#endif
#ifndef ELAB
#define ELAB 0
#endif

typedef long long i64;
typedef unsigned long long u64;

#define FULLMASK 0xffffffffu

// ---- control block (u64 words, shared with the host): the words every family has; each
// family header lays out the others (cursors, statistics) and defines its own flag bits (the
// host modules mirror both: engines/cuda/static.py, shapes.py, temporal.py).
#define C_COUNT 0      // matches counted (low 64 bits)
#define C_FLAGS 1      // flag bits (the family's F_*)
#define C_COUNT_HI 15  // matches counted (high 64 bits: the carries out of C_COUNT)
#define C_WORDS 16

// ---- lanes and warps
__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

// Sum of v over the warp, complete in every lane, setting *ovf (never clearing it) in a lane
// where one of its additions wraps past 2**64 - 1. A butterfly: at each step lane l adds lane
// (l ^ off)'s partial sum, the sum of lanes disjoint from its own, so every addition made by
// any lane is a true partial sum of the warp's values (a shuffle down would have the upper
// lanes add their own value again, and flag wraps of sums that are not the warp's). Hence the
// warp's sum exceeds 64 bits exactly when some lane's flag is set: report it from every lane
// (`if (ovf) set_flag(ctl, F_OVERFLOW)`), not from lane 0 alone. Per step the check is one
// compare of the new sum with the old (no extra shuffle, no memory). Every lane of the warp
// must call it.
__device__ __forceinline__ u64 warp_sum_checked(u64 v, bool* ovf) {
  bool wrapped = false;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const u64 s = v + __shfl_xor_sync(FULLMASK, v, off);
    wrapped |= s < v;
    v = s;
  }
  if (wrapped) *ovf = true;
  return v;
}

// 128-bit sum over the warp of (hi:lo), complete in every lane: the butterfly of
// warp_sum_checked carrying each wrap of the low words into the high ones. *ovf is set (never
// cleared) where a high word wraps, i.e. where the warp's sum passes 2**128 - 1. Every lane of
// the warp must call it.
__device__ __forceinline__ void warp_sum_wide(u64& lo, u64& hi, bool* ovf) {
  bool wrapped = false;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const u64 olo = __shfl_xor_sync(FULLMASK, lo, off);
    const u64 ohi = __shfl_xor_sync(FULLMASK, hi, off);
    const u64 s = lo + olo;
    const u64 h = hi + ohi;
    const u64 h2 = h + (s < lo ? 1 : 0);
    wrapped |= h < hi || h2 < h;
    lo = s;
    hi = h2;
  }
  if (wrapped) *ovf = true;
}

// Position of the n-th (0-based) set bit of m.
__device__ __forceinline__ int nth_set(unsigned m, int n) {
  for (int i = 0; i < n; i++) m &= m - 1;
  return __ffs(m) - 1;
}

// Lane 0 adds v to *p (one atomic for the warp); every lane gets the old value. Every lane of
// the warp must call it (with a warp-uniform v).
__device__ __forceinline__ u64 warp_atomic_add(u64* p, u64 v) {
  u64 old = 0;
  if ((threadIdx.x & 31) == 0) old = atomicAdd(p, v);
  return __shfl_sync(FULLMASK, old, 0);
}

// ---- checked 64-bit counting formulas (count tails of static_dfs.cu, shape counts of
// static_count.cu): exact, or *ovf set (never cleared) and 0 returned when the value exceeds
// 64 bits.

// Falling factorial n (n - 1) ... (n - t + 1); 0 when t > n.
__device__ __forceinline__ u64 falling_checked(u64 n, int t, bool* ovf) {
  if ((u64)t > n) return 0;
  u64 r = 1;
  for (int i = 0; i < t; ++i) {
    const u64 m = n - i;
    if (__umul64hi(r, m)) {
      *ovf = true;
      return 0;
    }
    r *= m;
  }
  return r;
}

// Binomial C(n, t); 0 when t > n. The running value r = C(n, i) is multiplied by (n - i) in
// 128 bits (hi:lo) and divided by (i + 1) exactly, as C(n, i) (n - i) = C(n, i + 1) (i + 1);
// the quotient fits 64 bits exactly when hi < i + 1, and the division runs in two 32-bit steps
// (the divisor is below 2**31).
__device__ __forceinline__ u64 binom_checked(u64 n, int t, bool* ovf) {
  if ((u64)t > n) return 0;
  if ((u64)t > n - t) t = (int)(n - t);
  u64 r = 1;
  for (int i = 0; i < t; ++i) {
    const u64 m = n - i;
    const unsigned d = (unsigned)(i + 1);
    const u64 lo = r * m;
    const u64 hi = __umul64hi(r, m);
    if (hi >= d) {
      *ovf = true;
      return 0;
    }
    u64 x = (hi << 32) | (lo >> 32);
    const u64 q1 = x / d;
    x = ((x % d) << 32) | (lo & 0xffffffffull);
    r = (q1 << 32) | (x / d);
  }
  return r;
}

// ---- exact 128-bit counting formulas: the slow path of the checked ones above, taken when
// they overflow 64 bits. Five 32-bit limbs (little-endian): a 128-bit value times a factor
// below 2**32 fits them, and the exact division of a binomial step runs limb by limb.
struct Wide {
  unsigned w[5];
};

__device__ __forceinline__ void wide_mul(Wide& a, unsigned m) {
  u64 c = 0;
#pragma unroll
  for (int i = 0; i < 5; ++i) {
    const u64 p = (u64)a.w[i] * m + c;
    a.w[i] = (unsigned)p;
    c = p >> 32;
  }
}

// a /= d, exact for the caller (d < 2**32); long division from the top limb down.
__device__ __forceinline__ void wide_div(Wide& a, unsigned d) {
  u64 r = 0;
#pragma unroll
  for (int i = 4; i >= 0; --i) {
    const u64 cur = (r << 32) | a.w[i];
    a.w[i] = (unsigned)(cur / d);
    r = cur % d;
  }
}

// ff(n, t) (binomial: C(n, t)) as hi:lo for n < 2**32; false when it exceeds 2**128 - 1. Every
// intermediate value is at most the result (falling factorials grow; C(n, i) grows up to
// i = n / 2, and t is taken at most n / 2), so one check per step bounds them all.
__device__ __noinline__ bool formula_wide(u64 n, int t, bool binomial, u64* lo, u64* hi) {
  *lo = 0;
  *hi = 0;
  if ((u64)t > n) return true;
  if (binomial && (u64)t > n - t) t = (int)(n - t);
  Wide a = {{1u, 0u, 0u, 0u, 0u}};
  for (int i = 0; i < t; ++i) {
    wide_mul(a, (unsigned)(n - i));
    if (binomial) wide_div(a, (unsigned)(i + 1));
    if (a.w[4]) return false;
  }
  *lo = ((u64)a.w[1] << 32) | a.w[0];
  *hi = ((u64)a.w[3] << 32) | a.w[2];
  return true;
}

// ---- binary search
// Unsigned type of the same width as a position type (int or long long).
template <class I>
struct unsigned_of;
template <>
struct unsigned_of<int> {
  typedef unsigned type;
};
template <>
struct unsigned_of<long long> {
  typedef unsigned long long type;
};

// First p in [lo, hi) where before(p) is false, for a predicate true on a prefix of [lo, hi) and
// false on the rest (hi if it is true everywhere): lower / upper bounds in sorted lists and the
// end of a time window are such partition points. Each family wraps it with its own loads
// (static: __ldg through the read-only cache; temporal: plain loads of idx_t positions).
// Reconciled midpoint: the static copies took (lo + hi) >> 1 on 64-bit positions, the temporal
// ones lo + ((hi - lo) >> 1), which cannot overflow 32-bit positions (up to 2**31 - 2 edges).
// Both are floor((lo + hi) / 2) for 0 <= lo < hi, so every copy probed the same positions. The
// sum taken unsigned gives that midpoint with the static copies' two operations and without
// overflow (two 32-bit positions sum below 2**32); it needs lo, hi >= 0, which every caller's
// list positions and edge ids are.
template <class I, class Before>
__device__ __forceinline__ I partition_point(I lo, I hi, Before before) {
  typedef typename unsigned_of<I>::type U;
  while (lo < hi) {
    const I mid = (I)(((U)lo + (U)hi) >> 1);
    if (before(mid))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// ---- clock (timeouts, straggler and tail detection)
__device__ __forceinline__ u64 now_ns() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// ---- control flags
__device__ __forceinline__ unsigned read_flags(const u64* ctl) {
  return (unsigned)(*((volatile const u64*)(ctl + C_FLAGS)));
}

__device__ __forceinline__ void set_flag(u64* ctl, unsigned f) { atomicOr(ctl + C_FLAGS, (u64)f); }

// The control block's 128-bit count: ctl[C_COUNT_HI] += h, raising F_OVERFLOW if it wraps
// (the count passed 2**128 - 1).
__device__ __forceinline__ void add_count_high(u64* ctl, u64 h) {
  if (h) {
    const u64 old = atomicAdd(ctl + C_COUNT_HI, h);
    if (old + h < old) set_flag(ctl, F_OVERFLOW);
  }
}

// ctl's 128-bit count += v (no atomic for 0): a wrap of the low word carries into the high one.
__device__ __forceinline__ void add_count(u64* ctl, u64 v) {
  if (v) {
    const u64 old = atomicAdd(ctl + C_COUNT, v);
    if (old + v < old) add_count_high(ctl, 1);
  }
}

// ctl's 128-bit count += hi:lo.
__device__ __forceinline__ void add_count_wide(u64* ctl, u64 lo, u64 hi) {
  add_count(ctl, lo);
  add_count_high(ctl, hi);
}

// ctl's count += ff(n, t) or C(n, t) exactly (the slow path of a formula that passed 64 bits):
// F_OVERFLOW past 2**128 - 1.
__device__ __forceinline__ void add_count_formula(u64* ctl, u64 n, int t, bool binomial) {
  u64 lo, hi;
  if (formula_wide(n, t, binomial, &lo, &hi))
    add_count_wide(ctl, lo, hi);
  else
    set_flag(ctl, F_OVERFLOW);
}

// A thread's own 64-bit count: acc += v; where the sum wraps, the 2**64 it lost goes into the
// high word of ctl's 128-bit count. (The earlier form, which moved acc itself into ctl, kept
// acc and v live across an atomicAdd: in temporal_dfs that pushed a mapped vertex of the hot
// candidate loop out to local memory, 462 MB of spill loads and 5% slower on sk10m's M4.)
__device__ __forceinline__ void add_checked(u64& acc, u64 v, u64* ctl) {
  const u64 s = acc + v;
  if (s < acc) add_count_high(ctl, 1);  // acc + v = s + 2**64
  acc = s;
}

// A thread's own 64-bit count in a hot loop: acc += v, noting a wrap in *ovf (never cleared),
// without a branch; the caller raises F_OVERFLOW once, after its loop (add_checked's flag
// write inside the loop cost the clique and 4-cycle kernels 5-9% on the H100). For values
// that are not counts (census.cu's products have an exact host fallback).
__device__ __forceinline__ void add_noting(u64& acc, u64 v, bool* ovf) {
  const u64 s = acc + v;
  *ovf |= s < acc;
  acc = s;
}

// A thread's own 128-bit count in a hot loop: lo += v, carrying a wrap into hi without a
// branch (the same cost as add_noting); warp_sum_wide and add_count_wide finish it.
__device__ __forceinline__ void add_carrying(u64& lo, u64& hi, u64 v) {
  const u64 s = lo + v;
  hi += s < lo ? 1 : 0;
  lo = s;
}

// The shape kernels' epilogue: the warp's 128-bit sum of every lane's hi:lo, added to ctl's
// count by lane 0 (F_OVERFLOW past 2**128 - 1). Every lane of the warp must call it.
__device__ __forceinline__ void warp_add_count(u64* ctl, u64 lo, u64 hi) {
  bool ovf = false;
  warp_sum_wide(lo, hi, &ovf);
  if (ovf) set_flag(ctl, F_OVERFLOW);
  if ((threadIdx.x & 31) == 0) add_count_wide(ctl, lo, hi);
}

// Warp-uniform reads (lane 0 reads, all lanes get its value): decisions that lead to warp
// collectives must never differ between lanes. Every lane of the warp must call them.
__device__ __forceinline__ unsigned warp_flags(const u64* ctl) {
  unsigned f = 0;
  if ((threadIdx.x & 31) == 0) f = read_flags(ctl);
  return __shfl_sync(FULLMASK, f, 0);
}

__device__ __forceinline__ u64 warp_now() {
  u64 t = 0;
  if ((threadIdx.x & 31) == 0) t = now_ns();
  return __shfl_sync(FULLMASK, t, 0);
}
