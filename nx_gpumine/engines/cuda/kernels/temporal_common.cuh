// Device code of the temporal CUDA engine's family (Everest-style chronological DFS and
// census): its compile-time parameters and types, its control-block words and flag bits, the
// TGraph view, and the list searches and time-window tests built on it. Included by
// temporal_dfs.cu and temporal_census.cu; it includes device_common.cuh (the helpers not
// specific to one family).
//
// Compile-time parameters common to every temporal kernel (validated integers set by the host,
// engines/cuda/temporal_build.py, as -D options; part of the module cache key):
//   TFLOAT  1 if times are float64, 0 for int64
//   IDX64   1 if edge ids / list positions need 64 bits (m >= 2**31 - 1), else 32-bit
//   TIE     0 strict (t_1 < t_2 < ...), 1 input order (e_1 < e_2 < ...)
//   DELTA_ON 1 if the whole-motif window delta is set
#pragma once

#ifndef TFLOAT
#define TFLOAT 0
#endif
#ifndef IDX64
#define IDX64 0
#endif
#ifndef TIE
#define TIE 0
#endif
#ifndef DELTA_ON
#define DELTA_ON 1
#endif

#if TFLOAT
typedef double tm_t;
typedef float gap_t;  // the root filter's gaps (temporal_dfs.cu: temporal_roots)
#else
typedef long long tm_t;
typedef unsigned gap_t;
#endif
#if IDX64
typedef long long idx_t;
#else
typedef int idx_t;
#endif

#define WPB 8  // warps per block (engines/cuda/temporal_build.py: WPB)

// ---- control block (u64 words, shared with the host) beyond device_common.cuh's C_COUNT
// (matches counted in count / exists modes) and C_FLAGS (flag bits below)
#define C_CURSOR 2   // next root edge / work item to hand out
#define C_OUTCUR 3   // enumerate: rows claimed
#define C_NDUMP 4    // tail redistribution: records dumped by this launch
#define C_EXITED 5   // warps that found no more work (the tail signal)
#define C_NSTEAL 6   // statistics: intra-warp steals
#define C_NTAIL 7    // statistics: warps that dumped their work
#define C_NREC 8     // level-1 expansion: records written (compacted, one per live root)
#define C_NROOT 9    // root filter: roots that passed it (compacted ids)

// ---- flag bits in ctl[C_FLAGS]
#define F_OVERFLOW 1u  // 64-bit count overflow
#define F_FOUND 2u     // exists: a match was found
#define F_OUTFULL 4u   // enumerate: the output buffer is full (limit reached)
#define F_DUMPFULL 8u  // tail dump buffer too small (host sizing bug guard)

// after the flag bits: device_common.cuh's add_count raises this family's F_OVERFLOW
#include "device_common.cuh"

// An entry of an out-list, an in-list or the pair index, in list order: the edge's id, its other
// endpoint (the pair index: its destination) and its time side by side, so that reading a
// candidate, its endpoint and its time touches one sector where three arrays took three, and the
// window search of a level brings in the line its first candidate is read from. 16 bytes (24
// with 64-bit ids); engines/cuda/temporal_build.py list_entries builds them.
struct LEntry {
  idx_t id;
  int nbr;
  tm_t t;
};

// The kernels' structs passed by value: each kernel takes its graph view (TGraph) and, the DFS
// kernels, its launch (TLaunch), as `temporal_dfs(const TGraph g, const TLaunch a)`. These
// declarations are the only ones: the host packs the same layout by field name
// (engines/cuda/temporal_build.py: GRAPH_VIEW, LAUNCH; kernel_args.py reads the fields from here,
// one per line), and a probe compiled with each module checks it (kernel_args.check_layout).
//
// The graph view: packed once per graph and device (engines/cuda/temporal_data.py: graph_view),
// `allow` once per plan. The census's view leaves the walk index and the lists null; the DFS
// kernels read the lists as entries and set out_edges / in_edges to null.
struct TGraph {
  const int* __restrict__ src;
  const int* __restrict__ dst;
  const tm_t* __restrict__ time;
  const idx_t* __restrict__ next_id;
  const idx_t* __restrict__ out_ptr;
  const idx_t* __restrict__ out_edges;
  const idx_t* __restrict__ in_ptr;
  const idx_t* __restrict__ in_edges;
  const int* __restrict__ nlab;
  const int* __restrict__ elab;
  const unsigned char* __restrict__ allow;
  // walk index (docs/temporal.md): position of e in the out-list of src[e] / in-list of dst[e];
  // first position in the out-list of dst[e] / in-list of src[e] holding an id > e
  const idx_t* __restrict__ pos_out;
  const idx_t* __restrict__ pos_in;
  const idx_t* __restrict__ out_after_in;
  const idx_t* __restrict__ in_after_out;
  // the DFS kernels' lists as entries (id, other endpoint, time): the out-lists and in-lists
  // (positions as in out_edges / in_edges), and the pair index: each vertex's out-edges grouped
  // by destination (ascending), ids ascending in a group, in the same segments as its out-list
  // (out_ptr), which lets a count skip a candidate range
  const LEntry* __restrict__ out_l;
  const LEntry* __restrict__ in_l;
  const LEntry* __restrict__ pair_l;
  int n;
  idx_t m;
};

// A DFS launch (temporal_dfs; temporal_level1 reads the lo, hi, plab, tlim and ctl of the launch
// that takes its records), packed once per plan and call shape (engines/cuda/temporal_launch.py:
// Launches) and replayed. Work items, records and modes: temporal_dfs.cu, above temporal_dfs.
struct TLaunch {
  const int* plab;      // label codes: motif nodes, then motif edges
  const tm_t* tlim;     // time limits: delta, the levels' gaps, the anti-edges' windows
  const idx_t* roots;   // the root filter's roots (or null)
  const i64* rec;       // records whose candidates are the work items (or null)
  const i64* rec_pref;  // exclusive prefix sums of their range lengths
  u64* ctl;             // the control block
  i64* out;             // enumerate: outcap rows of L edge ids
  i64* dump;            // tail records this launch dumps (dumpcap of them; null: no tail dump)
  i64* split;           // records of the roots split off (splitcap of them; or null)
  i64 lo;
  i64 hi;
  i64 nrec;
  i64 outcap;
  i64 dumpcap;
  i64 splitcap;
  i64 tail_ns;    // a warp dumps its work this long after the first warp ran out (0: never)
  int mode;       // MODE_COUNT, MODE_EXISTS or MODE_ENUMERATE (temporal_dfs.cu)
  int steal;      // intra-warp work stealing once the items are handed out
  int lastc;      // count the last level instead of walking it (where LASTC)
  int split_min;  // split off roots with at least this many level-1 candidates (0: never)
  int chunk;      // work items a warp takes at a time
};

// First position p in [lo, hi) with arr[p] >= x (arr sorted).
__device__ __forceinline__ idx_t lower_id(const idx_t* arr, idx_t lo, idx_t hi, idx_t x) {
  return partition_point(lo, hi, [arr, x](idx_t m) { return arr[m] < x; });
}

// First position p in [lo, hi) of a list whose entry has id >= x.
__device__ __forceinline__ idx_t lower_entry(const LEntry* l, idx_t lo, idx_t hi, idx_t x) {
  return partition_point(lo, hi, [l, x](idx_t m) { return l[m].id < x; });
}

// partition_point (device_common.cuh) galloping from lo, for a boundary usually near lo:
// probes lo, lo + 1, lo + 3, lo + 7, ... while before() holds, then a binary search of the
// last step's range.
template <class Before>
__device__ __forceinline__ idx_t gallop_point(idx_t lo, idx_t hi, Before before) {
  idx_t step = 1;
  while (lo < hi) {
    idx_t probe = lo + step - 1;
    if (probe >= hi) probe = hi - 1;
    if (before(probe)) {
      lo = probe + 1;
      step <<= 1;
    } else {
      hi = probe;
      break;
    }
  }
  return partition_point(lo, hi, before);
}

// First position p in [lo, hi) of a list whose entry has id >= x, galloping from lo (x is
// usually near lo).
__device__ __forceinline__ idx_t gallop_entry(const LEntry* l, idx_t lo, idx_t hi, idx_t x) {
  return gallop_point(lo, hi, [l, x](idx_t m) { return l[m].id < x; });
}

// t - base > lim (lim >= 0), exact whatever the spread of int64 times: the one window rule of
// every engine (plan/temporal_plan.py, "Window arithmetic"; CPU: engines/cpu/temporal.py:_past).
// t <= base never exceeds; an int64 difference that wraps below 0 (true difference >= 2**63)
// exceeds every limit. Float differences never wrap.
__device__ __forceinline__ bool past(tm_t t, tm_t base, tm_t lim) {
  if (t <= base) return false;
#if TFLOAT
  return t - base > lim;
#else
  return (u64)t - (u64)base > (u64)lim;  // exact: 0 < t - base < 2**64
#endif
}

// Time window test: t - t0 <= delta (when on) and t - tp <= gap (when on); differences compared
// exactly as the CPU engine does.
__device__ __forceinline__ bool in_window(tm_t t, tm_t t0, tm_t tp, tm_t delta, bool gap_on,
                                          tm_t gap) {
#if DELTA_ON
  if (past(t, t0, delta)) return false;
#endif
  if (gap_on && past(t, tp, gap)) return false;
  return true;
}

// First position p in [lo, hi) of a time-ordered range whose time, time_at(p), leaves the
// window; galloping from lo (windows are usually short), then a binary search.
template <class TimeAt>
__device__ __forceinline__ idx_t window_end_by(TimeAt time_at, idx_t lo, idx_t hi, tm_t t0,
                                               tm_t tp, tm_t delta, bool gap_on, tm_t gap) {
#if !DELTA_ON
  if (!gap_on) return hi;
#endif
  return gallop_point(
      lo, hi, [&](idx_t m) { return in_window(time_at(m), t0, tp, delta, gap_on, gap); });
}

// The window's end in a list of entries (l[p].t): the DFS kernels.
__device__ __forceinline__ idx_t window_end_l(const LEntry* l, idx_t lo, idx_t hi, tm_t t0,
                                              tm_t tp, tm_t delta, bool gap_on, tm_t gap) {
  return window_end_by([l](idx_t p) { return l[p].t; }, lo, hi, t0, tp, delta, gap_on, gap);
}

// The window's end in a list of edge ids (arr; the ids themselves when arr == nullptr), times
// gathered by id: the census kernel and the DFS's all-edges levels.
__device__ __forceinline__ idx_t window_end(const idx_t* arr, idx_t lo, idx_t hi,
                                            const tm_t* time, tm_t t0, tm_t tp, tm_t delta,
                                            bool gap_on, tm_t gap) {
  return window_end_by([arr, time](idx_t p) { return time[arr ? arr[p] : p]; }, lo, hi, t0, tp,
                       delta, gap_on, gap);
}

// The positions [a, e) of the pair index holding the edges x -> y with id >= lo_id whose time
// lies in the window: their ids are pair_l[a..e).id, ascending (so in time order).
__device__ __forceinline__ void pair_range(const TGraph& g, int x, int y, idx_t lo_id, tm_t t0,
                                           tm_t tp, tm_t delta, bool gap_on, tm_t gap, idx_t& a,
                                           idx_t& e) {
  const idx_t s1 = g.out_ptr[x + 1];
  const LEntry* pl = g.pair_l;
  a = partition_point(g.out_ptr[x], s1, [pl, y](idx_t m) { return pl[m].nbr < y; });
  e = partition_point(a, s1, [pl, y](idx_t m) { return pl[m].nbr <= y; });  // dst > y
  if (a == e) return;
  a = lower_entry(pl, a, e, lo_id);
  e = window_end_l(pl, a, e, t0, tp, delta, gap_on, gap);
}

// Number of edges x -> y with id >= lo_id whose time lies in the window (pair index).
__device__ __forceinline__ idx_t count_pair(const TGraph& g, int x, int y, idx_t lo_id, tm_t t0,
                                            tm_t tp, tm_t delta, bool gap_on, tm_t gap) {
  idx_t a, e;
  pair_range(g, x, y, lo_id, t0, tp, delta, gap_on, gap, a, e);
  return e - a;
}
