// Temporal motif mining on the GPU, after Everest: each thread walks the search tree of one
// root edge in time order (Mackey et al.'s chronological edge-driven DFS) with candidate-edge
// caching, code specialised per motif, intra-warp work stealing and tail-warp redistribution.
//
// Motif structure arrives as compile-time integers (validated and packed by
// engines/cuda/temporal_build.py, which also documents them); label codes and time limits
// arrive at run time (TLaunch: plab, tlim), so one module serves every graph and every limit
// value.
//   L, K         motif edges (levels) and nodes, 1 <= L, K <= 15
//   ESRC, EDST   motif nodes of edge i, 4 bits per level
//   SRCNEW, DSTNEW  bit i: that endpoint is first mapped at level i
//   SOURCE       2 bits per level: 0 out-list of f(src), 1 in-list of f(dst), 2 all edges,
//                3 both endpoints mapped (the shorter list, chosen at run time)
//   GAPS         bit i: level i has a gap limit tlim[1 + i]
//   NLAB         bit a: motif node a needs node label plab[a]
//   ELAB         bit i: motif edge i needs edge label plab[K + i]
//   ALLOW        bit a: motif node a has numeric node conditions (allow[a * n + v])
//   NANTI        anti-edges; ANTI_A, ANTI_B (motif nodes), ANTI_LO, ANTI_HI (levels whose time
//                bounds the interval), ANTI_LEV (level that checks it): 4 bits each;
//                ANTI_WON bit j: the interval ends at time[e_hi] + tlim[1 + L + j]
// (NLAB and ELAB default to 0 in device_common.cuh, the other macros below.)
//
// Thread context (Everest's "thread context lifted to registers"): fm[K] mapped vertices,
// eid[L] the path, pos[L] / end[L] the cached candidate range of every level ("rest of the
// candidate edges", never searched again on backtrack). Every array index is a compile-time
// constant (template levels, unrolled loops), so the context stays in registers.
#include "temporal_common.cuh"

#ifndef L
#define L 3
#endif
#ifndef K
#define K 3
#endif
#ifndef ESRC
#define ESRC 0x120
#endif
#ifndef EDST
#define EDST 0x021
#endif
#ifndef SRCNEW
#define SRCNEW 0x1
#endif
#ifndef DSTNEW
#define DSTNEW 0x3
#endif
#ifndef SOURCE
#define SOURCE 0x32
#endif
#ifndef GAPS
#define GAPS 0
#endif
#ifndef ALLOW
#define ALLOW 0
#endif
#ifndef NANTI
#define NANTI 0
#endif
#ifndef ANTI_A
#define ANTI_A 0
#endif
#ifndef ANTI_B
#define ANTI_B 0
#endif
#ifndef ANTI_LO
#define ANTI_LO 0
#endif
#ifndef ANTI_HI
#define ANTI_HI 0
#endif
#ifndef ANTI_LEV
#define ANTI_LEV 0
#endif
#ifndef ANTI_WON
#define ANTI_WON 0
#endif

#define SRC_OUT 0
#define SRC_IN 1
#define SRC_ALL 2
#define SRC_BOTH 3
#define POLL_MASK 255  // poll flags every 256 iterations
#define TAIL_MASK 1023  // look for the tail signal every 1024 iterations (Everest)
#define RW (4 + L)      // words per dumped record: level, list kinds, pos, end, eid[L]

__host__ __device__ constexpr int nib(unsigned long long x, int i) { return (int)((x >> (4 * i)) & 15ULL); }
__host__ __device__ constexpr int esrc(int i) { return nib((unsigned long long)(ESRC), i); }
__host__ __device__ constexpr int edst(int i) { return nib((unsigned long long)(EDST), i); }
__host__ __device__ constexpr bool src_new(int i) { return ((SRCNEW) >> i) & 1; }
__host__ __device__ constexpr bool dst_new(int i) { return ((DSTNEW) >> i) & 1; }
__host__ __device__ constexpr int source(int i) { return (int)(((unsigned long long)(SOURCE) >> (2 * i)) & 3ULL); }
__host__ __device__ constexpr bool gap_on(int i) { return ((GAPS) >> i) & 1; }
__host__ __device__ constexpr int intro(int a) {
  for (int i = 0; i < L; i++)
    if (esrc(i) == a || edst(i) == a) return i;
  return L;
}
// The latest level J < I - 1 whose edge has the vertex of level I's out-list (in-list) as an
// endpoint, or -1: the walk index of e_J gives a position in that list before level I's first
// candidate, to gallop from (enter()).
__host__ __device__ constexpr int earlier_out(int I) {
  for (int J = I - 2; J >= 0; J--)
    if (esrc(J) == esrc(I) || edst(J) == esrc(I)) return J;
  return -1;
}
__host__ __device__ constexpr int earlier_in(int I) {
  for (int J = I - 2; J >= 0; J--)
    if (esrc(J) == edst(I) || edst(J) == edst(I)) return J;
  return -1;
}
#ifndef EARLY_WALK
#define EARLY_WALK 1  // engines/cuda/temporal_tuning.py early_walk
#endif
#ifndef LAZY_END
#define LAZY_END 1  // engines/cuda/temporal_tuning.py lazy_end_edges
#endif
// A level whose candidates come from an adjacency list leaves its window's end open when it is
// entered (LAZY_END): its range runs to the list's end and each candidate's time is tested as
// it is taken (its entry holds it), so the window search's chain of dependent probes is saved;
// the first candidate out of the window closes the range. Where an exact range is needed
// (stealing, the tail dump, splitting a root, records) close<J>() finds the window's end
// first. A counted last level walks its window the same way (count_last). Pair groups and
// "all edges" levels are always exact.
__host__ __device__ constexpr bool lazy_level(int I) {
  return LAZY_END && I >= 1 && source(I) != 2;
}
__host__ __device__ constexpr int anti_a(int j) { return nib((unsigned long long)(ANTI_A), j); }
__host__ __device__ constexpr int anti_b(int j) { return nib((unsigned long long)(ANTI_B), j); }
__host__ __device__ constexpr int anti_lo(int j) { return nib((unsigned long long)(ANTI_LO), j); }
__host__ __device__ constexpr int anti_hi(int j) { return nib((unsigned long long)(ANTI_HI), j); }
__host__ __device__ constexpr int anti_lev(int j) { return nib((unsigned long long)(ANTI_LEV), j); }
__host__ __device__ constexpr bool anti_won(int j) { return ((ANTI_WON) >> j) & 1; }

// The last level can be counted instead of walked (count and exists modes): its candidates
// are a contiguous range of one list, and what accept() would reject there is only an
// already-mapped new endpoint (self-loops included) or, when both ends are mapped, a wrong
// other end -- both counted through the pair index. Not when the level has labels, numeric
// node conditions on its new node, or anti-edges to check.
__host__ __device__ constexpr bool last_countable() {
  if (L < 2) return false;
  constexpr int I = L - 1;
  if (source(I) == 2) return false;  // SRC_ALL
  if (((ELAB) >> I) & 1) return false;
  const int fresh = source(I) == 0 ? edst(I) : (source(I) == 1 ? esrc(I) : -1);
  if (fresh >= 0 && ((((NLAB) | (ALLOW)) >> fresh) & 1)) return false;
  for (int j = 0; j < NANTI; j++)
    if (anti_lev(j) == I) return false;
  return true;
}
#define LASTC (last_countable())

// Several windows in one walk (count mode; engines/cuda/temporal.py count_windows): the walk
// runs at the widest window, delta = tlim[0], and each match is also counted in every narrower
// window its span t_last - t_0 fits, tlim[WIN0 + j] for j < NWIN - 1 (ascending), into ctl's
// 128-bit words C_WIN + 2 j (low) and C_WIN + 2 j + 1 (high). NWIN 1 (the default): no window
// but delta, and none of this code is compiled.
#ifndef NWIN
#define NWIN 1
#endif
#define WIN0 (1 + L + NANTI)
#define C_WIN 16

#define MODE_COUNT 0
#define MODE_EXISTS 1
#define MODE_ENUMERATE 2

struct Env {
  TGraph g;
  int mode;  // MODE_COUNT, MODE_EXISTS or MODE_ENUMERATE (uniform: a run-time branch is free)
  int lastc;  // count the last level instead of walking it (count / exists, when LASTC)
  const int* plab;
  const tm_t* tlim;
  tm_t delta;
  u64* ctl;
  i64* out;
  i64 outcap;
  i64* split;     // root launch: records of roots whose level-1 range is split off (or null)
  i64 splitcap;   // records that fit there
  int split_min;  // split off a root whose level-1 range holds at least this many (0: never)
};

// A both-mapped level whose window holds more than PAIR_MIN candidates in the shorter list walks
// the pair index's group f(src) -> f(dst) instead: every entry there is a match (PAIR_MIN < 0:
// always, without the list's window).
#ifndef PAIR_MIN
#define PAIR_MIN 32  // engines/cuda/temporal_tuning.py pair_min
#endif
#define PAIR_BIT 16
// engines/cuda/temporal_tuning.py min_blocks: resident blocks per SM the DFS kernel is built for
// (above 1 it caps the registers; 1 leaves nvcc's own choice, which is not the same as
// __launch_bounds__(..., 1): that one let the kernel take 64-72 registers)
#if defined(MIN_BLOCKS) && MIN_BLOCKS > 1
#define DFS_BOUNDS __launch_bounds__(WPB * 32, MIN_BLOCKS)
#else
#define DFS_BOUNDS __launch_bounds__(WPB * 32)
#endif

// Invariants of a busy lane (lvl >= 1):
// * eid[J] for J < lvl is the path; fm[A] holds the image of every node first mapped below lvl.
//   Entries are never reset on backtrack or rejection: mapped_before<I> reads only nodes first
//   mapped before I, and accept<I> writes level I's nodes before anything deeper reads them.
// * pos[J] is level J's next untested candidate (advanced before the test; while deeper levels
//   run, the candidate in eid[J] sits at pos[J] - 1). So for floor <= J <= lvl, [pos[J], end[J])
//   holds level J's unexplored work (at lvl only once entered), exactly once the level is
//   closed: under LAZY_END an open level (bit J of open) keeps end[J] at its list's end until
//   close<J>() searches the window's end. What stealing and the tail dump hand out is closed
//   first (Spare::close_level, close_owned); holds_at_least reads an open range safely.
struct Ctx {
  int fm[K];
  idx_t eid[L];
  idx_t pos[L];
  idx_t end[L];
  unsigned kinds;  // both-mapped level i: bit i walks the in-list of f(dst) (else the out-list
                   // of f(src)); bit PAIR_BIT + i walks the pair group f(src) -> f(dst)
  unsigned open;  // bit i: level i's end[i] is its list's end, not yet its window's (LAZY_END)
  tm_t t0;
  int lvl;    // level being matched; -1 idle
  int floor;  // lowest level this thread owns (below it the path belongs to a donor's tree)
  bool entering;
  u64 cnt;
#if NWIN > 1
  u64 wcnt[NWIN - 1];  // matches within the narrower windows (count mode)
#endif
};

// ------------------------------------------------------------------ checks (all compile-time)
template <int A>
__device__ __forceinline__ bool node_ok(const Env& v, int x) {
  if constexpr (((NLAB) >> A) & 1) {
    if (v.g.nlab[x] != v.plab[A]) return false;
  }
  if constexpr (((ALLOW) >> A) & 1) {
    if (!v.g.allow[(i64)A * v.g.n + x]) return false;
  }
  return true;
}

// x equals a vertex mapped before level I (only those nodes: Everest's minfo)
template <int I, int A = 0>
__device__ __forceinline__ bool mapped_before(const Ctx& c, int x) {
  if constexpr (A >= K) {
    return false;
  } else {
    if constexpr (intro(A) < I) {
      if (c.fm[A] == x) return true;
    }
    return mapped_before<I, A + 1>(c, x);
  }
}

// No graph edge f(a) -> f(b) with time in (time[e_lo], time[e_hi] + w] (or unbounded).
template <int J>
__device__ __forceinline__ bool anti_absent(const Ctx& c, const Env& v) {
  const TGraph& g = v.g;
  const int u = c.fm[anti_a(J)], w = c.fm[anti_b(J)];
  const tm_t tlo = g.time[c.eid[anti_lo(J)]];
  const tm_t thi = g.time[c.eid[anti_hi(J)]];
  const tm_t lim = v.tlim[1 + L + J];
  const LEntry* l;  // the shorter list's entries
  idx_t a, b;
  int want;
  if (g.out_ptr[u + 1] - g.out_ptr[u] <= g.in_ptr[w + 1] - g.in_ptr[w]) {
    l = g.out_l;
    a = g.out_ptr[u];
    b = g.out_ptr[u + 1];
    want = w;
  } else {
    l = g.in_l;
    a = g.in_ptr[w];
    b = g.in_ptr[w + 1];
    want = u;
  }
  const idx_t lo = partition_point(a, b, [l, tlo](idx_t m) { return l[m].t <= tlo; });  // > tlo
  for (idx_t p = lo; p < b; p++) {
    const LEntry x = l[p];
    if (anti_won(J) && past(x.t, thi, lim)) break;
    if (x.nbr == want) return false;
  }
  return true;
}

template <int I, int J = 0>
__device__ __forceinline__ bool anti_ok(const Ctx& c, const Env& v) {
  if constexpr (J >= NANTI) {
    return true;
  } else {
    if constexpr (anti_lev(J) == I) {
      if (!anti_absent<J>(c, v)) return false;
    }
    return anti_ok<I, J + 1>(c, v);
  }
}

// ------------------------------------------------------------------ results
#if NWIN > 1
// ctl's 128-bit count of narrower window j += hi:lo (F_OVERFLOW past 2**128 - 1).
__device__ __forceinline__ void add_window_count(u64* ctl, int j, u64 lo, u64 hi) {
  u64* w = ctl + C_WIN + 2 * j;
  if (lo) {
    const u64 old = atomicAdd(w, lo);
    if (old + lo < old) hi += 1;  // hi is a warp's sum of at most 32 counts: no wrap here
  }
  if (hi) {
    const u64 old = atomicAdd(w + 1, hi);
    if (old + hi < old) set_flag(ctl, F_OVERFLOW);
  }
}

// The lane's count of narrower window j += k (a word that would wrap moves into ctl first).
__device__ __forceinline__ void add_window(Ctx& c, const Env& v, int j, u64 k) {
  const u64 s = c.wcnt[j] + k;
  if (s < c.wcnt[j]) {
    add_window_count(v.ctl, j, c.wcnt[j], 0);
    c.wcnt[j] = k;
  } else {
    c.wcnt[j] = s;
  }
}

// k matches whose last edge has time tl also count in each narrower window their span fits.
__device__ __forceinline__ void bin_span(Ctx& c, const Env& v, tm_t tl, u64 k) {
#pragma unroll
  for (int j = 0; j < NWIN - 1; j++)
    if (!past(tl, c.t0, v.tlim[WIN0 + j])) add_window(c, v, j, k);
}

// The warp's window counts into ctl (every lane of the warp calls it, as warp_add_count).
__device__ __forceinline__ void flush_windows(Ctx& c, u64* ctl) {
#pragma unroll
  for (int j = 0; j < NWIN - 1; j++) {
    u64 lo = c.wcnt[j], hi = 0;
    bool ovf = false;
    warp_sum_wide(lo, hi, &ovf);
    if (ovf) set_flag(ctl, F_OVERFLOW);
    if ((threadIdx.x & 31) == 0) add_window_count(ctl, j, lo, hi);
    c.wcnt[j] = 0;
  }
}
#endif

__device__ __forceinline__ void emit(Ctx& c, const Env& v) {
  if (v.mode == MODE_ENUMERATE) {
    const u64 slot = atomicAdd(v.ctl + C_OUTCUR, 1ULL);
    if (slot < (u64)v.outcap) {
      i64* row = v.out + (i64)slot * L;
#pragma unroll
      for (int j = 0; j < L; j++) row[j] = (i64)c.eid[j];
    } else {
      set_flag(v.ctl, F_OUTFULL);
    }
    return;
  }
  c.cnt++;
#if NWIN > 1
  bin_span(c, v, v.g.time[c.eid[L - 1]], 1);
#endif
  if (v.mode == MODE_EXISTS) set_flag(v.ctl, F_FOUND);
}

// ------------------------------------------------------------------ levels
// Where level I's candidates start: the first id after e_{I-1} (strictly later time, or later
// id under the input-order tie policy), e_{I-1}'s time, and the level's gap limit (0 without).
struct LevelStart {
  idx_t lo_id;
  tm_t tp;
  tm_t gap;
};

template <int I>
__device__ __forceinline__ LevelStart level_start(const Ctx& c, const Env& v) {
  const idx_t prev = c.eid[I - 1];
#if TIE == 0
  const idx_t lo_id = v.g.next_id[prev];
#else
  const idx_t lo_id = prev + 1;
#endif
  return {lo_id, v.g.time[prev], gap_on(I) ? v.tlim[1 + I] : (tm_t)0};
}

// Compute (once) the candidate range of level I: ids after e_{I-1} (strictly later time, or
// later id under the input-order tie policy) in the chosen list, up to the window's end (or,
// for a lazy level unless `exact`, up to the list's end, the level left open).
template <int I, bool exact = false>
__device__ __forceinline__ void enter(Ctx& c, const Env& v) {
  const TGraph& g = v.g;
  const idx_t prev = c.eid[I - 1];
  const auto [lo_id, tp, gap] = level_start<I>(c, v);
  constexpr bool gon = gap_on(I);
  constexpr int sc = source(I);
  if constexpr (sc == SRC_ALL) {
    c.pos[I] = lo_id;
    c.end[I] = window_end(nullptr, lo_id, g.m, g.time, c.t0, tp, v.delta, gon, gap);
  } else if constexpr (sc == SRC_BOTH && PAIR_MIN < 0) {
    // PAIR_MIN < 0: a both-mapped level always walks the pair group f(src) -> f(dst), without
    // first finding the window in the shorter list (a probe setting; every entry a match)
    pair_range(g, c.fm[esrc(I)], c.fm[edst(I)], lo_id, c.t0, tp, v.delta, gon, gap, c.pos[I],
               c.end[I]);
    c.kinds |= 1u << (PAIR_BIT + I);
  } else {
    bool use_in;
    if constexpr (sc == SRC_BOTH) {
      const int u = c.fm[esrc(I)], w = c.fm[edst(I)];
      use_in = g.out_ptr[u + 1] - g.out_ptr[u] > g.in_ptr[w + 1] - g.in_ptr[w];
      if (use_in)
        c.kinds |= 1u << I;
      else
        c.kinds &= ~(1u << I);
    } else {
      use_in = sc == SRC_IN;
    }
    const LEntry* l = use_in ? g.in_l : g.out_l;
    const idx_t* ptr = use_in ? g.in_ptr : g.out_ptr;
    const int x = use_in ? c.fm[edst(I)] : c.fm[esrc(I)];
    const idx_t stop = ptr[x + 1];
    // Mackey's chronological walk: when the list's vertex is an endpoint of e_{I-1}, the ids
    // after it start right next to it (walk index; under the input-order policy that position
    // is already the first id > e_{I-1}). When it is an endpoint of an earlier e_J, the ids
    // after e_J start there, and the first after e_{I-1} is a gallop away (few edges of the
    // list lie between two edges of one match); otherwise a binary search of the whole list.
    idx_t start = -1, from = -1;
    if (use_in) {
      constexpr int J = earlier_in(I);
      if constexpr (edst(I) == edst(I - 1)) start = g.pos_in[prev] + 1;
      else if constexpr (edst(I) == esrc(I - 1)) start = g.in_after_out[prev];
      else if constexpr (EARLY_WALK && J >= 0)
        from = edst(J) == edst(I) ? g.pos_in[c.eid[J]] + 1 : g.in_after_out[c.eid[J]];
    } else {
      constexpr int J = earlier_out(I);
      if constexpr (esrc(I) == esrc(I - 1)) start = g.pos_out[prev] + 1;
      else if constexpr (esrc(I) == edst(I - 1)) start = g.out_after_in[prev];
      else if constexpr (EARLY_WALK && J >= 0)
        from = esrc(J) == esrc(I) ? g.pos_out[c.eid[J]] + 1 : g.out_after_in[c.eid[J]];
    }
    const idx_t a = start >= 0  ? (TIE == 1 ? start : gallop_entry(l, start, stop, lo_id))
                    : from >= 0 ? gallop_entry(l, from, stop, lo_id)
                                : lower_entry(l, ptr[x], stop, lo_id);
    c.pos[I] = a;
    if constexpr (sc == SRC_BOTH) {
      // a long window of the shorter list (more than PAIR_MIN candidates: the one PAIR_MIN
      // after the first is in it): walk only its edges f(src) -> f(dst) (pair index), exact
      c.kinds &= ~(1u << (PAIR_BIT + I));
      if (a + PAIR_MIN < stop && in_window(l[a + PAIR_MIN].t, c.t0, tp, v.delta, gon, gap)) {
        pair_range(g, c.fm[esrc(I)], c.fm[edst(I)], lo_id, c.t0, tp, v.delta, gon, gap,
                   c.pos[I], c.end[I]);
        c.kinds |= 1u << (PAIR_BIT + I);
        if constexpr (lazy_level(I)) c.open &= ~(1u << I);
        return;
      }
    }
    if constexpr (lazy_level(I) && !exact) {
      c.end[I] = stop;
      c.open |= 1u << I;
      return;
    }
    c.end[I] = window_end_l(l, a, stop, c.t0, tp, v.delta, gon, gap);
    if constexpr (lazy_level(I)) c.open &= ~(1u << I);
  }
}

// The list level I walks (its positions index it); never a pair group while the level is open.
template <int I>
__device__ __forceinline__ const LEntry* level_list(const Ctx& c, const Env& v) {
  if constexpr (source(I) == SRC_OUT) {
    return v.g.out_l;
  } else if constexpr (source(I) == SRC_IN) {
    return v.g.in_l;
  } else {
    return ((c.kinds >> I) & 1) ? v.g.in_l : v.g.out_l;
  }
}

// Close level J if it is open: its range ends at its window's end (a search from pos[J]: every
// candidate before it was in the window).
template <int J>
__device__ __forceinline__ void close(Ctx& c, const Env& v) {
  if constexpr (lazy_level(J)) {
    if ((c.open >> J) & 1) {
      constexpr bool gon = gap_on(J);
      const LEntry* l = level_list<J>(c, v);
      c.end[J] = window_end_l(l, c.pos[J], c.end[J], c.t0, v.g.time[c.eid[J - 1]], v.delta, gon,
                              gon ? v.tlim[1 + J] : (tm_t)0);
      c.open &= ~(1u << J);
    }
  }
}

template <int J>
struct Closer {
  static __device__ __forceinline__ void run(Ctx& c, const Env& v) {
    if (J >= c.floor && (J < c.lvl || (J == c.lvl && !c.entering))) close<J>(c, v);
    Closer<J + 1>::run(c, v);
  }
};
template <>
struct Closer<L> {
  static __device__ __forceinline__ void run(Ctx&, const Env&) {}
};

// Close every open level the lane owns, from its floor to its current level (that one only
// once entered): before its ranges are written out (the tail dump; stealing closes only the
// level a donor gives, Spare::close_level). Bits of levels deeper than lvl are stale and not
// looked at.
__device__ __forceinline__ void close_owned(Ctx& c, const Env& v) {
#if LAZY_END
  if (c.open && c.lvl >= 1) Closer<1>::run(c, v);
#endif
}

// Level I's range holds at least k candidates (an open level: its (k-1)-th after pos is in the
// window).
template <int I>
__device__ __forceinline__ bool holds_at_least(const Ctx& c, const Env& v, idx_t k) {
  const idx_t q = c.pos[I] + k - 1;
  if (q >= c.end[I]) return false;
  if constexpr (lazy_level(I)) {
    if ((c.open >> I) & 1) {
      constexpr bool gon = gap_on(I);
      const LEntry* l = level_list<I>(c, v);
      return in_window(l[q].t, c.t0, v.g.time[c.eid[I - 1]], v.delta, gon,
                       gon ? v.tlim[1 + I] : (tm_t)0);
    }
  }
  return true;
}

template <int I>
__device__ __forceinline__ idx_t candidate(const Ctx& c, const Env& v, idx_t p) {
  constexpr int sc = source(I);
  if constexpr (sc == SRC_ALL) {
    return p;
  } else if constexpr (sc == SRC_OUT) {
    return v.g.out_l[p].id;
  } else if constexpr (sc == SRC_IN) {
    return v.g.in_l[p].id;
  } else {
    if ((c.kinds >> (PAIR_BIT + I)) & 1) return v.g.pair_l[p].id;
    return ((c.kinds >> I) & 1) ? v.g.in_l[p].id : v.g.out_l[p].id;
  }
}

// The endpoints of the candidate at position p of level I's range: the list's own vertex is
// already mapped, the other endpoint is read from the list's entry (consecutive entries as
// p advances) instead of src/dst by edge id.
template <int I>
__device__ __forceinline__ void endpoints(const Ctx& c, const Env& v, idx_t p, idx_t e, int& s,
                                          int& d) {
  constexpr int sc = source(I);
  if constexpr (sc == SRC_ALL) {
    s = v.g.src[e];
    d = v.g.dst[e];
  } else if constexpr (sc == SRC_OUT) {
    s = c.fm[esrc(I)];
    d = v.g.out_l[p].nbr;
  } else if constexpr (sc == SRC_IN) {
    s = v.g.in_l[p].nbr;
    d = c.fm[edst(I)];
  } else if ((c.kinds >> (PAIR_BIT + I)) & 1) {
    s = c.fm[esrc(I)];
    d = c.fm[edst(I)];
  } else if ((c.kinds >> I) & 1) {
    s = v.g.in_l[p].nbr;
    d = c.fm[edst(I)];
  } else {
    s = c.fm[esrc(I)];
    d = v.g.out_l[p].nbr;
  }
}

// Structural, label and anti-edge checks of the candidate at position p of level I (edge e);
// on success the edge is mapped.
template <int I>
__device__ __forceinline__ bool accept(Ctx& c, const Env& v, idx_t p, idx_t e) {
  constexpr int A = esrc(I), B = edst(I);
  int s, d;
  endpoints<I>(c, v, p, e, s, d);
  // a new endpoint: unmapped (injectivity) and its node conditions; a mapped one must be its
  // node's image, true by construction for the list's own vertex (s of an out-list, d of an
  // in-list)
  if constexpr (src_new(I)) {
    if (mapped_before<I>(c, s) || !node_ok<A>(v, s)) return false;
  } else if constexpr (source(I) != SRC_OUT) {
    if (s != c.fm[A]) return false;
  }
  if constexpr (dst_new(I)) {
    if constexpr (src_new(I)) {
      if (d == s) return false;  // s is mapped at this level: mapped_before does not see it
    }
    if (mapped_before<I>(c, d) || !node_ok<B>(v, d)) return false;
  } else if constexpr (source(I) != SRC_IN) {
    if (d != c.fm[B]) return false;
  }
  if constexpr (((ELAB) >> I) & 1) {
    if (v.g.elab[e] != v.plab[K + I]) return false;
  }
  // anti-edges last (they read the mapping and walk a list); an edge they reject leaves stale
  // entries of level I's nodes, which nothing reads (see Ctx)
  c.fm[A] = s;
  c.fm[B] = d;
  c.eid[I] = e;
  return anti_ok<I>(c, v);
}

// Matches of the last level I = L - 1 given levels < I (see last_countable()).
template <int I, int A = 0>
__device__ __forceinline__ idx_t mapped_pairs(const Ctx& c, const Env& v, idx_t lo_id, tm_t tp,
                                              bool gon, tm_t gap, tm_t delta) {
  if constexpr (A >= K) {
    return 0;
  } else {
    idx_t r = 0;
    if constexpr (intro(A) < I) {
      if constexpr (source(I) == SRC_OUT)
        r = count_pair(v.g, c.fm[esrc(I)], c.fm[A], lo_id, c.t0, tp, delta, gon, gap);
      else
        r = count_pair(v.g, c.fm[A], c.fm[edst(I)], lo_id, c.t0, tp, delta, gon, gap);
    }
    return r + mapped_pairs<I, A + 1>(c, v, lo_id, tp, gon, gap, delta);
  }
}

// Whether the last level's candidate with other endpoint x is a match (count_last): a new
// endpoint not mapped before, or, both ends mapped, the right one.
template <int I>
__device__ __forceinline__ bool last_ok(const Ctx& c, int x) {
  if constexpr (source(I) == SRC_BOTH) {
    return x == (((c.kinds >> I) & 1) ? c.fm[esrc(I)] : c.fm[edst(I)]);
  } else {
    return !mapped_before<I>(c, x);
  }
}

// Short ranges are walked (a few register compares per candidate); long ones are counted as
// the range's length minus the pair-index counts of the mapped endpoints (a few binary searches
// per mapped node, whatever the length).
#define WALK_MAX 24

template <int I>
__device__ __forceinline__ u64 count_last(Ctx& c, const Env& v) {
  const TGraph& g = v.g;
  const auto [lo_id, tp, gap] = level_start<I>(c, v);
  constexpr bool gon = gap_on(I);
  // the candidate range (never walked by the DFS: lvl stays below I); left open, its window is
  // walked here for at most WALK_MAX candidates, and only a longer one is searched for its end
  enter<I>(c, v);
  if constexpr (source(I) == SRC_BOTH) {
    if ((c.kinds >> (PAIR_BIT + I)) & 1) return (u64)(c.end[I] - c.pos[I]);  // all match
  }
  const LEntry* l = level_list<I>(c, v);
  const auto matches = [&](int x) -> bool { return last_ok<I>(c, x); };
  idx_t n;
  if constexpr (lazy_level(I)) {
    // open: the candidates up to the first outside the window, at most WALK_MAX of them
    const idx_t a = c.pos[I], stop = c.end[I];
    const idx_t q = stop - a > WALK_MAX ? a + WALK_MAX : stop;
    u64 k = 0;
    idx_t p = a;
    for (; p < q; ++p) {
      const LEntry x = l[p];
      if (!in_window(x.t, c.t0, tp, v.delta, gon, gap)) return k;
      k += matches(x.nbr);
    }
    if (p == stop) return k;
    n = window_end_l(l, p, stop, c.t0, tp, v.delta, gon, gap) - a;
    if (n <= WALK_MAX) return k;
  } else {
    n = c.end[I] - c.pos[I];
    if (n <= WALK_MAX) {
      u64 k = 0;
      for (idx_t p = c.pos[I]; p < c.end[I]; ++p) k += matches(l[p].nbr);
      return k;
    }
  }
  if constexpr (source(I) == SRC_BOTH) {
    return (u64)count_pair(g, c.fm[esrc(I)], c.fm[edst(I)], lo_id, c.t0, tp, v.delta, gon, gap);
  } else {
    return (u64)n - (u64)mapped_pairs<I>(c, v, lo_id, tp, gon, gap, v.delta);
  }
}

#if NWIN > 1
// After count_last<I> found kmax > 0 matches at the walk's window (its range entered: pos[I]
// the first candidate, end[I] the window's end or, open, the list's end), the matches within
// each narrower window, from the widest down (none once the previous edge or a window's range
// is out of it), into the lane's window counts.
template <int I>
__device__ __forceinline__ void count_last_windows(Ctx& c, const Env& v) {
  const auto [lo_id, tp, gap] = level_start<I>(c, v);
  constexpr bool gon = gap_on(I);
  const idx_t a = c.pos[I];
  bool pair_walk = false;
  if constexpr (source(I) == SRC_BOTH) pair_walk = (c.kinds >> (PAIR_BIT + I)) & 1;
  const LEntry* l = pair_walk ? v.g.pair_l : level_list<I>(c, v);
  idx_t stop = c.end[I];
#pragma unroll
  for (int j = NWIN - 2; j >= 0; j--) {
    const tm_t dj = v.tlim[WIN0 + j];
    if (past(tp, c.t0, dj)) return;  // every candidate is later than the previous edge
    stop = window_end_l(l, a, stop, c.t0, tp, dj, gon, gap);  // narrower: within the last
    const idx_t n = stop - a;
    if (n <= 0) return;
    u64 k;
    if (pair_walk) {
      k = (u64)n;  // every edge of the pair group is a match
    } else if (n <= WALK_MAX) {
      k = 0;
      for (idx_t p = a; p < stop; ++p) k += last_ok<I>(c, l[p].nbr);
    } else if constexpr (source(I) == SRC_BOTH) {
      k = (u64)count_pair(v.g, c.fm[esrc(I)], c.fm[edst(I)], lo_id, c.t0, tp, dj, gon, gap);
    } else {
      k = (u64)n - (u64)mapped_pairs<I>(c, v, lo_id, tp, gon, gap, dj);
    }
    add_window(c, v, j, k);
  }
}
#endif

__device__ __forceinline__ void add_counted(Ctx& c, const Env& v, u64 k) {
  if (!k) return;
  add_checked(c.cnt, k, v.ctl);
  if (v.mode == MODE_EXISTS) set_flag(v.ctl, F_FOUND);
}

// A record: level J, the list kinds, level J's range [pos[J], end[J]) and the path below J
// (eid[E] for E < J, -1 above). The tail dump, heavy-root splitting and the level-1 expansion
// write them; record launches read them (start_item).
__device__ __forceinline__ void write_record(i64* r, const Ctx& c, int J) {
  r[0] = J;
  r[1] = c.kinds;
  r[2] = c.pos[J];
  r[3] = c.end[J];
#pragma unroll
  for (int E = 0; E < L; E++) r[4 + E] = E < J ? (i64)c.eid[E] : -1;
}

// Heavy-root splitting (root launches): a root whose level-1 range holds at least split_min
// candidates is not walked by its lane; its range goes out as a record (the level-1 expansion's
// format), and the next launch takes one (root, level-1 candidate) pair per work item, so that a
// hub's fan-out is spread over whole warps at once instead of waiting for stealing. False (walk
// it here) when the record buffer is full.
__device__ __forceinline__ bool split_root(const Ctx& c, const Env& v) {
  const u64 slot = atomicAdd(v.ctl + C_NREC, 1ULL);
  if (slot >= (u64)v.splitcap) return false;
  write_record(v.split + (i64)slot * RW, c, 1);
  return true;
}

// One DFS step at level I: enter it (range computed once), backtrack, or test one candidate.
template <int I>
__device__ __forceinline__ void level_step(Ctx& c, const Env& v) {
  if (c.entering) {
    enter<I>(c, v);
    c.entering = false;
    // only a root's first entry of level 1 gets here with floor 1 (stolen and record work
    // starts with its range computed)
    if constexpr (I == 1 && L >= 4) {
      if (v.split_min > 0 && c.floor == 1 && holds_at_least<1>(c, v, v.split_min)) {
        close<1>(c, v);  // a record holds an exact range
        if (split_root(c, v)) {
          c.lvl = -1;
          return;
        }
      }
    }
  }
  const idx_t p = c.pos[I];
  bool done = p >= c.end[I];
  if constexpr (lazy_level(I)) {
    if (!done && ((c.open >> I) & 1)) {
      // an open level: the candidate's time (in its entry, which accept() reads next) against
      // the window; the first one outside closes the range there
      constexpr bool gon = gap_on(I);
      const LEntry* l = level_list<I>(c, v);
      if (!in_window(l[p].t, c.t0, v.g.time[c.eid[I - 1]], v.delta, gon,
                     gon ? v.tlim[1 + I] : (tm_t)0)) {
        c.end[I] = p;
        c.open &= ~(1u << I);
        done = true;
      }
    }
  }
  if (done) {
    // exhausted: back one level; at floor the lane's work is done (below floor lies the root
    // edge, or a path it received from a donor or a record), so the lane goes idle
    c.lvl = I <= c.floor ? -1 : I - 1;
    return;
  }
  c.pos[I] = p + 1;
  if (!accept<I>(c, v, p, candidate<I>(c, v, p))) return;
  if constexpr (I == L - 1) {
    emit(c, v);
  } else if constexpr (I == L - 2 && LASTC) {
    // count / exists with lastc: the last level is counted from its range, never entered
    if (v.mode != MODE_ENUMERATE && v.lastc) {
      const u64 k = count_last<L - 1>(c, v);
      add_counted(c, v, k);
#if NWIN > 1
      if (k) count_last_windows<L - 1>(c, v);
#endif
    } else {
      c.lvl = I + 1;
      c.entering = true;
    }
  } else {
    c.lvl = I + 1;
    c.entering = true;
  }
}

template <int I>
struct Levels {
  static __device__ __forceinline__ void step(Ctx& c, const Env& v) {
    if (c.lvl == I)
      level_step<I>(c, v);
    else
      Levels<I + 1>::step(c, v);
  }
  static __device__ __forceinline__ void enter_pending(Ctx& c, const Env& v) {
    if (c.lvl == I) {
      enter<I, true>(c, v);
      c.entering = false;
    } else {
      Levels<I + 1>::enter_pending(c, v);
    }
  }
};
template <>
struct Levels<L> {
  static __device__ __forceinline__ void step(Ctx&, const Env&) {}
  static __device__ __forceinline__ void enter_pending(Ctx&, const Env&) {}
};

// ------------------------------------------------------------------ starting work
// A root edge e0 matched to motif edge 0 (level 0); false if it fails or L == 1.
__device__ __forceinline__ bool start_root(Ctx& c, const Env& v, idx_t e0) {
  const TGraph& g = v.g;
  const int s0 = g.src[e0], d0 = g.dst[e0];
  if (s0 == d0) return false;
  if (!node_ok<esrc(0)>(v, s0) || !node_ok<edst(0)>(v, d0)) return false;
  if constexpr ((ELAB) & 1) {
    if (g.elab[e0] != v.plab[K]) return false;
  }
  c.fm[esrc(0)] = s0;
  c.fm[edst(0)] = d0;
  c.eid[0] = e0;
  c.t0 = g.time[e0];
  c.open = 0;
  if (!anti_ok<0>(c, v)) return false;
  if constexpr (L == 1) {
    emit(c, v);
    return false;
  } else if constexpr (L == 2 && LASTC) {
    if (v.mode != MODE_ENUMERATE && v.lastc) {
      const u64 k = count_last<1>(c, v);
      add_counted(c, v, k);
#if NWIN > 1
      if (k) count_last_windows<1>(c, v);
#endif
      return false;
    }
    c.lvl = 1;
    c.floor = 1;
    c.entering = true;
    return true;
  } else {
    c.lvl = 1;
    c.floor = 1;
    c.entering = true;
    return true;
  }
}

// The record holding work item `item`: the last r in [lo, hi) with pref[r] <= item (pref is
// the exclusive prefix sum of the records' range lengths, pref[lo] <= item < pref[hi]).
__device__ __forceinline__ i64 record_of(const i64* pref, i64 lo, i64 hi, i64 item) {
  while (hi - lo > 1) {
    const i64 mid = (lo + hi) >> 1;
    if (pref[mid] <= item)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Work item `item` of a record launch: one candidate of record r (level-1 expansion or a
// dumped tail range).
__device__ __forceinline__ void start_item(Ctx& c, const Env& v, const i64* rec,
                                           const i64* pref, i64 r, i64 item) {
  // the item is one position p of record r's range at level j: the lane owns [p, p + 1) there
  // (floor = j); the path below j comes back from the record's edge ids
  const i64* rr = rec + r * RW;
  const int j = (int)rr[0];
  const idx_t p = (idx_t)(rr[2] + (item - pref[r]));
  c.kinds = (unsigned)rr[1];
  c.open = 0;  // a record's range is exact
#pragma unroll
  for (int J = 0; J < L; J++) {
    if (J < j) {
      const idx_t e = (idx_t)rr[4 + J];
      c.eid[J] = e;
      c.fm[esrc(J)] = v.g.src[e];
      c.fm[edst(J)] = v.g.dst[e];
    }
    if (J == j) {
      c.pos[J] = p;
      c.end[J] = p + 1;
    }
  }
  c.t0 = v.g.time[c.eid[0]];
  c.lvl = j;
  c.floor = j;
  c.entering = false;
}

// ------------------------------------------------------------------ load balancing
// Per-level parts of stealing, dispatched over compile-time levels (the context stays in
// registers): find() gives the shallowest level from J on that the lane can give work from
// (see steal_round; an open level is asked whether it still holds 1 or 2 candidates, one read),
// close_level() closes level j before it is halved.
template <int J>
struct Spare {
  static __device__ __forceinline__ int find(const Ctx& c, const Env& v) {
    if (J >= c.floor && J <= c.lvl) {
      if (J < c.lvl ? holds_at_least<J>(c, v, 1) : (!c.entering && holds_at_least<J>(c, v, 2)))
        return J;
    }
    return Spare<J + 1>::find(c, v);
  }
  static __device__ __forceinline__ void close_level(Ctx& c, const Env& v, int j) {
    if (J == j)
      close<J>(c, v);
    else
      Spare<J + 1>::close_level(c, v, j);
  }
};
template <>
struct Spare<L> {
  static __device__ __forceinline__ int find(const Ctx&, const Env&) { return -1; }
  static __device__ __forceinline__ void close_level(Ctx&, const Env&, int) {}
};

// Intra-warp work stealing (Everest 5.2.1): every idle lane is paired with a busy lane that
// has unexplored candidates at some level it owns; the donor gives the upper half of the
// cached range of its shallowest such level, and the receiver copies the path above it
// through register shuffles.
__device__ __forceinline__ unsigned steal_round(Ctx& c, const Env& v, int lane) {
  const unsigned idle = __ballot_sync(FULLMASK, c.lvl < 0);
  // the level a busy lane offers: its shallowest with spare work (the largest subtrees). Below
  // lvl one unstarted candidate is worth giving (the donor is busy deeper); at lvl the range
  // must be computed and hold two, so that both halves are non-empty.
  const int dj = c.lvl >= 1 ? Spare<1>::find(c, v) : -1;
  const unsigned donors = __ballot_sync(FULLMASK, dj >= 0);
  // idle lanes and donors are paired in lane order; only the first npair donors give
  const int npair = min(__popc(idle), __popc(donors));
  if (npair == 0) return 0;
  int from = lane;
  bool recv = false;
  if (c.lvl < 0) {
    const int rk = __popc(idle & lanemask_lt());
    if (rk < npair) {
      from = nth_set(donors, rk);
      recv = true;
    }
  }
  idx_t mid = 0, old_end = 0;
  if (dj >= 0 && __popc(donors & lanemask_lt()) < npair) {
    Spare<1>::close_level(c, v, dj);  // a donor halves an exact range (open: still holds 1 or 2)
#pragma unroll
    for (int J = 1; J < L; J++) {
      if (J == dj) {
        old_end = c.end[J];
        mid = c.pos[J] + (old_end - c.pos[J]) / 2;
        c.end[J] = mid;
      }
    }
  }
  // every lane takes part in the shuffles (lanes not receiving read their own values); the
  // list kinds travel too: they say which list the positions at sj index
  const int sj = __shfl_sync(FULLMASK, dj, from);
  mid = __shfl_sync(FULLMASK, mid, from);
  old_end = __shfl_sync(FULLMASK, old_end, from);
  const unsigned kinds = __shfl_sync(FULLMASK, c.kinds, from);
  const tm_t t0 = __shfl_sync(FULLMASK, c.t0, from);
  idx_t eid[L];
  int fm[K];
#pragma unroll
  for (int J = 0; J < L; J++) eid[J] = __shfl_sync(FULLMASK, c.eid[J], from);
#pragma unroll
  for (int A = 0; A < K; A++) fm[A] = __shfl_sync(FULLMASK, c.fm[A], from);
  if (recv) {
    // the receiver owns [mid, old_end) at level sj; floor = sj keeps it out of the donor's
    // levels below
#pragma unroll
    for (int J = 0; J < L; J++) {
      c.eid[J] = eid[J];
      if (J == sj) {
        c.pos[J] = mid;
        c.end[J] = old_end;
      }
    }
#pragma unroll
    for (int A = 0; A < K; A++) c.fm[A] = fm[A];
    c.kinds = kinds;
    c.open = 0;  // the donor closed the range it gave
    c.t0 = t0;
    c.lvl = sj;
    c.floor = sj;
    c.entering = false;
  }
  return (unsigned)npair;
}

// Tail-warp redistribution (Everest 5.2.2): write every unexplored cached range this lane owns
// as a record (level, list kinds, [pos, end), path) for the next launch.
// At J < lvl a record holds the candidates after the one being explored (whose subtree is in
// the deeper records), at lvl the untested ones: together exactly the lane's remaining work,
// at most L - 1 records per lane (the host sizes dumpcap so). A level entered but not yet
// computed is computed first, so that it can be written as a range.
__device__ __forceinline__ void dump_context(Ctx& c, const Env& v, i64* dump, i64 dumpcap) {
  if (c.lvl < 1) return;
  if (c.entering) Levels<1>::enter_pending(c, v);
  close_owned(c, v);
#pragma unroll
  for (int J = 1; J < L; J++) {
    if (J >= c.floor && J <= c.lvl && c.end[J] > c.pos[J]) {
      const u64 slot = atomicAdd(v.ctl + C_NDUMP, 1ULL);
      if (slot >= (u64)dumpcap) {
        set_flag(v.ctl, F_DUMPFULL);
        continue;
      }
      write_record(dump + (i64)slot * RW, c, J);
    }
  }
  c.lvl = -1;
}

// ------------------------------------------------------------------ kernel
// The Env of a DFS kernel's launch: the graph view (the lists are read as entries: out_l, in_l)
// and the plan's label codes and time limits.
__device__ __forceinline__ void env_plan(Env& v, const TGraph& g, const TLaunch& a) {
  v.g = g;
  v.g.out_edges = nullptr;
  v.g.in_edges = nullptr;
  v.plab = a.plab;
  v.tlim = a.tlim;
  v.delta = a.tlim[0];
}

// Work items: root edges lo..hi-1 (rec == nullptr, roots == nullptr), the root edges
// roots[0 .. count) (rec == nullptr: those that passed the root filter; hi < 0: count is
// ctl[C_NROOT], written by temporal_roots and not read by the host; else hi - lo), or the
// candidates of nrec records (the level-1 expansion's, the split roots of the launch before,
// or the tail ranges dumped by an earlier launch; rec_pref: exclusive prefix sums of their
// range lengths). nrec < 0: the count is ctl[C_NREC] (expansion or splitting), which the host
// has not read, at most -nrec - 1 (beyond the buffer nothing was written). Every record holds
// at least one candidate. So a call's kernels follow each other without a host round trip.
extern "C" __global__ void DFS_BOUNDS temporal_dfs(const TGraph g, const TLaunch a) {
  Env v;
  env_plan(v, g, a);
  v.mode = a.mode;
  v.split = a.split;
  v.splitcap = a.splitcap;
  v.split_min = a.split_min;
  v.lastc = a.lastc;
  v.ctl = a.ctl;
  v.out = a.out;
  v.outcap = a.outcap;
  // the launch's values under the names the loop reads (nrec may be replaced by the count)
  const i64 lo = a.lo, hi = a.hi;
  const idx_t* roots = a.roots;
  const i64* rec = a.rec;
  const i64* rec_pref = a.rec_pref;
  i64 nrec = a.nrec;
  u64* ctl = a.ctl;
  i64* dump = a.dump;
  const i64 dumpcap = a.dumpcap;
  const int steal = a.steal;
  const i64 tail_ns = a.tail_ns;
  const int chunk = a.chunk;

  const int lane = threadIdx.x & 31;
  if (rec && nrec < 0) nrec = min((i64)ctl[C_NREC], -nrec - 1);
  const i64 nitems = rec ? rec_pref[nrec] : (roots && hi < 0 ? (i64)ctl[C_NROOT] : hi - lo);
  Ctx c;
  c.lvl = -1;
  c.floor = 1;
  c.kinds = 0;
  c.open = 0;
  c.entering = false;
  c.cnt = 0;
#if NWIN > 1
#pragma unroll
  for (int j = 0; j < NWIN - 1; j++) c.wcnt[j] = 0;
#endif
#pragma unroll
  for (int A = 0; A < K; A++) c.fm[A] = -1;
  i64 wbase = 0, wcnt = 0;
  i64 wrec = 0, wfirst = 0;  // record launch: the record of the chunk's first item, that item
  bool exhausted = false;
  u64 deadline = 0;
  unsigned iter = 0;
  bool dumping = false;

  // Each iteration: idle lanes get work (the items of the warp's chunk [wbase, wbase + wcnt),
  // in lane order; when the items run out everywhere, by stealing), then every busy lane makes
  // one DFS step. A lane whose root fails start_root stays idle and takes an item next time.
  while (true) {
    const unsigned idle = __ballot_sync(FULLMASK, c.lvl < 0);
    if (idle) {
      if (wcnt == 0 && !exhausted) {
        const i64 base = (i64)warp_atomic_add(ctl + C_CURSOR, (u64)chunk);
        if (base >= nitems) {
          exhausted = true;
        } else {
          wbase = base;
          wcnt = min((i64)chunk, nitems - base);
          // one search per chunk (the same address in every lane): item wfirst + k lies in
          // records wrec .. wrec + k, since no record is empty
          if (rec) {
            wfirst = base;
            wrec = record_of(rec_pref, 0, nrec, base);
          }
        }
      }
      if (wcnt > 0) {
        const int rk = __popc(idle & lanemask_lt());
        if (c.lvl < 0 && rk < wcnt) {
          const i64 item = wbase + rk;
          if (rec)
            start_item(c, v, rec, rec_pref,
                       record_of(rec_pref, wrec, min(nrec, wrec + (item - wfirst) + 1), item),
                       item);
          else
            start_root(c, v, roots ? roots[item] : (idx_t)(lo + item));
        }
        const i64 took = min((i64)__popc(idle), wcnt);
        wbase += took;
        wcnt -= took;
      } else if (exhausted) {  // no items left: steal; the warp exits once every lane is idle
        if (steal) {
          const unsigned got = steal_round(c, v, lane);
          if (got && lane == 0) atomicAdd(ctl + C_NSTEAL, (u64)got);
        }
        if (__ballot_sync(FULLMASK, c.lvl >= 0) == 0) break;
      }
    }
    if (c.lvl >= 1) Levels<1>::step(c, v);  // compile-time level dispatch (context in registers)
    iter++;
    // lane 0 polls: the stop flags every 256 iterations; with tail_ns, every 1024 the tail
    // signal: once some warp has run out of work (C_EXITED > 0) this warp allows itself
    // tail_ns more, then dumps what it has left for the host's next launch and exits
    if ((iter & POLL_MASK) == 0) {
      unsigned f = 0;
      u64 exited = 0;
      if (lane == 0) {
        f = read_flags(ctl);
        if (tail_ns > 0 && (iter & TAIL_MASK) == 0) {
          exited = *((volatile u64*)(ctl + C_EXITED));
          const u64 now = now_ns();
          if (exited && deadline == 0) deadline = now + (u64)tail_ns;
          if (deadline && now > deadline) f |= 0x80000000u;  // this warp dumps its work
        }
      }
      f = __shfl_sync(FULLMASK, f, 0);
      if (f & (F_FOUND | F_OUTFULL | F_OVERFLOW | F_DUMPFULL)) break;
      // a warp dumps once its lanes hold all its work: items it has taken but not yet given
      // to a lane (the rest of its chunk) are in no lane's context, and would be lost
      if ((f & 0x80000000u) && wcnt == 0) {
        dumping = true;
        break;
      }
    }
  }
  if (dumping) {
    dump_context(c, v, dump, dumpcap);
    if (lane == 0) atomicAdd(ctl + C_NTAIL, 1ULL);
  }
  warp_add_count(ctl, c.cnt, 0);  // 128 bits (add_counted moved any wrap into ctl already)
#if NWIN > 1
  flush_windows(c, ctl);
#endif
  if (lane == 0 && !dumping) atomicAdd(ctl + C_EXITED, 1ULL);  // ran out of work: the signal
}

// Root filter (count and exists on graphs of more than expand_roots roots, where it is expected
// to keep few): root e can start a match only if level 1's window holds the first edge after e
// in level 1's list. gap1[e] is that edge's time minus e's, 32 bits wide (engines/cuda/
// temporal_data.py builds it once per graph and list: integer gaps saturate at 2**32 - 1, which
// also marks "no such edge" and exceeds every lim the host lets through; float gaps are rounded
// down), so a root passes iff gap1[e] <= lim, the tightest level-1 limit (window or gap) -- a
// conservative test: under strict ties that edge may share e's time and be no candidate,
// labels are not looked at, and a rounded float gap may pass. The roots that pass go to
// roots[], compacted (ctl[C_NROOT] of them, a block-aggregated cursor, in no particular order;
// the DFS launch reads the count there), and the DFS launch takes only those: a root with an
// empty level-1 window no longer costs its lane two loop iterations (start, then an empty
// level 1) and their scattered reads; the filter reads one coalesced 4-byte word per root.
extern "C" __global__ void __launch_bounds__(WPB * 32)
    temporal_roots(const gap_t* gap1, tm_t lim, i64 lo, i64 hi, idx_t* roots, u64* ctl) {
  // one atomic per block and 256 roots (a warp's would be 8 times as many on one address)
  __shared__ unsigned wlive[WPB];
  __shared__ u64 bbase;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 base = lo + (i64)blockIdx.x * blockDim.x; base < hi; base += stride) {
    const i64 e = base + threadIdx.x;
    const bool live = e < hi && (tm_t)gap1[e] <= lim;
    const unsigned mask = __ballot_sync(FULLMASK, live);
    if (lane == 0) wlive[warp] = __popc(mask);
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned tot = 0;
      for (int w = 0; w < WPB; w++) tot += wlive[w];
      bbase = tot ? atomicAdd(ctl + C_NROOT, (u64)tot) : 0;
    }
    __syncthreads();
    if (live) {
      u64 at = bbase + __popc(mask & lanemask_lt());
      for (int w = 0; w < warp; w++) at += wlive[w];
      roots[at] = (idx_t)e;
    }
    __syncthreads();  // wlive and bbase are rewritten by the next round
  }
}

// Between a root launch that split roots off and the record launch that takes them (no host
// round trip): lens[i] = the range length of split record i for i < min(ctl[C_NREC], cap),
// else 0, so that prefix sums over all cap entries serve the record launch (which reads the
// count itself); and the launch counters the next launch starts from (its work cursor, the
// tail signal's count of warps out of work) back to 0.
extern "C" __global__ void __launch_bounds__(WPB * 32)
    temporal_record_lengths(const i64* rec, i64 cap, u64* ctl, i64* lens) {
  const i64 n = min((i64)ctl[C_NREC], cap);
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < cap; i += stride)
    lens[i] = i < n ? rec[i * RW + 3] - rec[i * RW + 2] : 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    ctl[C_CURSOR] = 0;
    ctl[C_EXITED] = 0;
  }
}

// Inclusive prefix sums of n int64 values (the record lengths of the level-1 expansion and of
// the split roots) in two launches, with no temporary allocation and no host round trip, so that
// the opening launches of a call can be replayed as one CUDA graph (temporal_launch.py:
// Launches).
// temporal_scan_tiles scans each block's tile of SCAN_TILE values into out and writes the tile's
// total to sums[blockIdx.x]; temporal_scan_add adds to each tile the totals of the tiles before
// it (at most n / SCAN_TILE reads per block: 1024 for the 2^21 records a call can have).
#define SCAN_ITEMS 8
#define SCAN_TILE (WPB * 32 * SCAN_ITEMS)

// The sum of x over the threads of the block before this one (and the block's total).
__device__ __forceinline__ i64 block_exclusive_sum(i64 x, i64* total) {
  __shared__ i64 warp_sums[WPB];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  i64 v = x;
  for (int d = 1; d < 32; d <<= 1) {
    const i64 y = __shfl_up_sync(FULLMASK, v, d);
    if (lane >= d) v += y;
  }
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  i64 before = 0, all = 0;
  for (int w = 0; w < WPB; w++) {
    before += w < warp ? warp_sums[w] : 0;
    all += warp_sums[w];
  }
  __syncthreads();  // warp_sums is rewritten by a later call
  *total = all;
  return before + v - x;
}

extern "C" __global__ void __launch_bounds__(WPB * 32)
    temporal_scan_tiles(const i64* in, i64 n, i64* out, i64* sums) {
  const i64 base = (i64)blockIdx.x * SCAN_TILE + (i64)threadIdx.x * SCAN_ITEMS;
  i64 run[SCAN_ITEMS];
  i64 s = 0;
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++) {
    s += base + k < n ? in[base + k] : 0;
    run[k] = s;
  }
  i64 total;
  const i64 before = block_exclusive_sum(s, &total);
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++)
    if (base + k < n) out[base + k] = before + run[k];
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(WPB * 32)
    temporal_scan_add(i64* out, i64 n, const i64* sums) {
  if (blockIdx.x == 0) return;
  i64 part = 0;
  for (i64 b = threadIdx.x; b < blockIdx.x; b += blockDim.x) part += sums[b];
  i64 offset;
  block_exclusive_sum(part, &offset);
  const i64 base = (i64)blockIdx.x * SCAN_TILE;
  for (i64 i = base + threadIdx.x; i < min(base + SCAN_TILE, n); i += blockDim.x) out[i] += offset;
}

// Level-1 expansion: for each root edge e of [lo, hi) that starts a match with a non-empty
// level-1 candidate range, one record (level 1, list kinds, pos, end, e_0), written compacted
// (a warp-aggregated cursor, ctl[C_NREC]) with its range length in lens[slot], so that the DFS
// launch that follows takes one (root, level-1 candidate) pair per work item instead of one
// root per thread. The order of the records is unspecified (counts do not depend on it, and
// enumerated rows are sorted afterwards). recs holds hi - lo records; lens, hi - lo zeros. `a` is
// the DFS launch that takes the records: its roots lo..hi-1, plab, tlim and ctl are read.
extern "C" __global__ void __launch_bounds__(WPB * 32)
    temporal_level1(const TGraph g, const TLaunch a, i64* recs, i64* lens) {
  Env v;
  env_plan(v, g, a);
  v.mode = MODE_ENUMERATE;  // start_root must not count anything here
  v.lastc = 0;
  v.ctl = nullptr;
  v.out = nullptr;
  v.outcap = 0;
  v.split = nullptr;
  v.splitcap = 0;
  v.split_min = 0;
  const i64 lo = a.lo, hi = a.hi;  // the root range of the DFS launch that takes the records
  u64* ctl = a.ctl;
  if constexpr (L >= 2) {
    const int lane = threadIdx.x & 31;
    const i64 stride = (i64)gridDim.x * blockDim.x;
    // whole warps iterate together (the ballot below needs every lane)
    for (i64 base = lo + (i64)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < hi;
         base += stride) {
      const i64 e = base + lane;
      Ctx c;
      c.kinds = 0;
      c.open = 0;
      c.cnt = 0;
#pragma unroll
      for (int A = 0; A < K; A++) c.fm[A] = -1;
      bool live = false;
      if (e < hi && start_root(c, v, (idx_t)e)) {
        enter<1, true>(c, v);  // a record holds an exact range
        live = c.end[1] > c.pos[1];
      }
      const unsigned mask = __ballot_sync(FULLMASK, live);
      if (!mask) continue;
      u64 first = 0;
      if (lane == 0) first = atomicAdd(ctl + C_NREC, (u64)__popc(mask));
      first = __shfl_sync(FULLMASK, first, 0);
      if (live) {
        const i64 slot = (i64)first + __popc(mask & lanemask_lt());
        write_record(recs + slot * RW, c, 1);
        lens[slot] = c.end[1] - c.pos[1];
      }
    }
  }
}
