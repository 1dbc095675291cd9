// T-DFS static subgraph matching: a warp per task with its own paged stack, straggler tasks
// split into dumped work records that the host relaunches (count mode), a count tail finishing
// the last pattern levels combinatorially, and (count/exists/enumerate) result handling.
// Also the cuTS trie kernels (BFS levels of the BFS-DFS hybrid); the DFS kernel can take the
// trie's leaves as its tasks.
//
// Compile-time parameters beyond static_common.cuh's:
//   TAILT     first level of the count tail (plan.tail_start; K - 1 when only the last level is
//             counted; ignored outside count mode)
//   TAILKIND  1 falling factorial ff(n, K - TAILT), 2 binomial C(n, K - TAILT),
//             3 pair |A| |B| - |A & B| (levels TAILT and TAILT + 1)
#include "static_common.cuh"

#ifndef TAILT
#define TAILT (K - 1)
#endif
#ifndef TAILKIND
#define TAILKIND 1
#endif
#define TAIL_FALLING 1
#define TAIL_CHOOSE 2
#define TAIL_PAIR 3
#define TAILN (K - TAILT)
// levels the DFS maps one by one; a task's search ends at level LEAF (counted or emitted there)
#if MODE == 0
#define LEAF TAILT
#else
#define LEAF (K - 1)
#endif

#define ROOT_CHUNK 32
// Count launches over the heavy-first root list: its first HEAVY_SINGLE * (warps of the grid)
// tasks go one per claim, so the heaviest roots spread over the warps instead of one warp
// running a chunk of them in turn (engines/cuda/static_build.py StaticTuning.heavy_single).
#ifndef HEAVY_SINGLE
#define HEAVY_SINGLE 64
#endif
#define LEAF_CHUNK 32
#define REC_CHUNK 8
#define RECW (K + 1)  // dump record: depth d, then path[0..d-1]

// source of a launch's tasks
#define SRC_ROOTS 0    // root entries: explicit list tl_entry, then the range [lo, hi)
#define SRC_TRIE 1     // trie leaves
#define SRC_RECORDS 2  // dumped records of an earlier launch

struct Ctx {
  Graph g;
  const int* sp;
  int lane;
  // the warp's paged stack: slot 2 * j holds level j's filtered candidates (what the DFS walks),
  // slot 2 * j + 1 its raw set (stored only when a later level reuses it: P_STORERAW).
  // ptw[slot * maxpg + q] = the pool page holding positions [q * PAGE, (q + 1) * PAGE) of that
  // slot, -1 until first needed (the host resets the tables per launch); a page stays with the
  // warp for the rest of the launch, so later tasks reuse it.
  int* ptw;
  int* pool;
  int maxpg;
  i64 npages;
  u64* ctl;
  // per-lane identical copies of the warp's DFS state: path[j] = f(level j); it[j] / sz[j] =
  // iterator and size of level j's stored (filtered) candidates; rsz[j] = size of its raw set
  int path[K];
  int it[K];
  int sz[K];
  int rsz[K];
  u64 acc;  // lane 0: matches counted by this warp (moved into ctl's count before it wraps)
  // enumerate
  int* out;
  i64 outcap;
  i64 seen;  // matches of the current task found so far (DFS order)
  i64 skip;  // matches of the current task already emitted by earlier launches
  // straggler splitting (count mode): a task running longer than tau dumps its unexplored work
  int* dump;
  i64 dumpcap;
  i64 tau;
  u64 t0;
};

// ------------------------------------------------------------------ exact counting helpers
__device__ __forceinline__ void acc_add(Ctx& x, u64 v) {
  if (x.lane == 0) add_checked(x.acc, v, x.ctl);
}

// ff(n, t) or C(n, t) by TAILKIND, with overflow detection (device_common.cuh).
__device__ __forceinline__ u64 tail_value(u64 n, int t, bool* ovf) {
  return TAILKIND == TAIL_FALLING ? falling_checked(n, t, ovf) : binom_checked(n, t, ovf);
}

// ------------------------------------------------------------------ matches at the last level
// Returns false to abort the task (exists: found; enumerate: buffer full or stop).
__device__ __forceinline__ bool emit(Ctx& x, unsigned mo, int c) {
  int n = __popc(mo);
  if (n == 0) return true;
#if MODE == 0
  acc_add(x, (u64)n);
  return true;
#elif MODE == 1
  if (x.lane == 0) set_flag(x.ctl, F_FOUND);
  return false;
#else
  // A task resumed by a later launch finds its matches again in the same DFS order; the first
  // `skip` of them are already written, so this batch's first (skip - seen) are passed over.
  // The rest get rows from the shared cursor; when fewer fit, the rows that fit are written,
  // skip becomes the number now written and the task aborts (the kernel records where).
  i64 first = x.skip - x.seen;
  if (first < 0) first = 0;
  if (first >= n) {
    x.seen += n;
    return true;
  }
  i64 need = n - first;
  i64 base = 0;
  if (x.lane == 0) {
    if (read_flags(x.ctl) & STOP_BITS)
      base = x.outcap;  // another warp filled the buffer: write nothing, stop
    else
      base = (i64)atomicAdd(x.ctl + C_OUTCUR, (u64)need);
  }
  base = __shfl_sync(FULLMASK, base, 0);
  i64 avail = x.outcap - base;
  i64 wr = avail < 0 ? 0 : (avail < need ? avail : need);
  if ((mo >> x.lane) & 1u) {
    i64 r = __popc(mo & lanemask_lt());
    if (r >= first && r - first < wr) {
      int* row = x.out + (base + r - first) * K;
      for (int j = 0; j < K - 1; ++j) row[j] = x.path[j];
      row[K - 1] = c;
    }
  }
  if (wr < need) {
    if (x.lane == 0) set_flag(x.ctl, F_OUTFULL);
    i64 ns = x.seen + first + wr;
    x.skip = ns > x.skip ? ns : x.skip;
    return false;
  }
  x.seen += n;
  return true;
#endif
}

// ------------------------------------------------------------------ candidate sources
// Where the candidates of level lev come from, with `nmapped` levels mapped (lev itself is
// not): its hoisted set (built by level h = P_HOIST[lev] for the current images of the
// levels before h: every check against them holds; none when h had too few candidates), a
// raw set stored by an earlier level r (intersection reuse), or the shortest list of a
// backward neighbour. When the level must exceed f(j) for some earlier j (symmetry
// restrictions) and no raw set is stored from this pass, the sorted lists are cut below the
// largest such f(j) first (binary search); on a label-grouped graph (g.lstart) they are also
// cut to the level's label range; the shortest cut list is chosen.
struct Source {
  int srcslot;  // >= 0: raw set of that slot
  int basej;    // >= 0: list of f(basej)
  i64 off;      // first position (list mode)
  i64 len;      // number of candidates
  unsigned skip;
};

__device__ __forceinline__ Source pick_source(const Ctx& x, int lev, int nmapped, bool need_raw) {
  const int* sp = x.sp;
  const Graph& g = x.g;
  Source s;
  s.srcslot = -1;
  s.basej = -1;
  s.off = 0;
  s.len = 0;
  s.skip = 0;
#if HOIST
  // level h's sets are in their slots only when level h was extended under the current
  // prefix: h < nmapped (as for r below)
  const int h = sp[P_HOIST + lev];
  if (h >= 0 && h < nmapped && x.rsz[lev] >= 0) {
    s.srcslot = 2 * lev + 1;
    s.len = x.rsz[lev];
    s.skip = (1u << h) - 1u;
    return s;
  }
#endif
  const int r = sp[P_REUSE + lev];
  // r's raw set is in its slot only when level r was extended under the current prefix:
  // r < nmapped (count_level passes nmapped = TAILT; tail levels store nothing)
  if (r >= 2 && r < nmapped) {
    s.srcslot = 2 * r + 1;
    s.len = x.rsz[r];
    s.skip = (unsigned)sp[P_SKIP + lev];
    return s;
  }
  unsigned bn = (unsigned)sp[P_BN + lev];
  if (!bn) {
    s.len = g.n;
    return s;
  }
  int lb = -1;
  if (!need_raw) {
    unsigned sym = (unsigned)sp[P_SYM + lev] & ((nmapped >= 32) ? FULLMASK : ((1u << nmapped) - 1u));
    while (sym) {
      int j = __ffs(sym) - 1;
      sym &= sym - 1;
      lb = max(lb, x.path[j]);
    }
  }
  // ids [lo_id, hi_id) can be candidates: above the symmetry bound and, on a label-grouped
  // graph, in the level's label range (neither cut for a raw set a later level reuses)
  int lo_id = lb + 1, hi_id = g.n;
#if NLAB
  const int lab = sp[P_LAB + lev];
  if (!need_raw && lab >= 0 && g.lstart) {
    lo_id = max(lo_id, __ldg(g.lstart + lab));
    hi_id = __ldg(g.lstart + lab + 1);
  }
#endif
  i64 best = 0x7fffffffffffffffll;
  while (bn) {
    int j = __ffs(bn) - 1;
    bn &= bn - 1;
    const int v = x.path[j];
    i64 a = __ldg(g.indptr + v);
    i64 b = __ldg(g.indptr + v + 1);
    if (b - a >= best) continue;  // a cut list is never longer than the whole list
    if (hi_id < g.n) b = lower_bound_g(g.indices, a, b, hi_id);
    if (lo_id > 0) a = lower_bound_g(g.indices, a, b, lo_id);
    if (b - a < best) {
      best = b - a;
      s.basej = j;
      s.off = a;
    }
  }
  s.len = best;
  return s;
}

__device__ __forceinline__ int source_cand(const Ctx& x, const Source& s, i64 t) {
  if (s.srcslot >= 0) return pget(x.ptw, x.pool, x.maxpg, s.srcslot, t);
  if (s.basej >= 0) return __ldg(x.g.indices + s.off + t);
  return (int)t;
}

// ------------------------------------------------------------------ hoisted sets
#if HOIST
// Level i's hoisted set, built when level h = P_HOIST[i] is extended (levels < h mapped): the
// candidates passing every check of i against the levels before h, in source order (sorted),
// into i's raw slot (i stores no raw set of its own: the packing's rule); size in rsz[i].
// Source: the raw set of i's reused level when h has it, else the shortest list of i's
// backward neighbours before h (uncut: the set serves every image of h).
__device__ bool build_hoist(Ctx& x, int i, int h) {
  const int* sp = x.sp;
  const Graph& g = x.g;
  const unsigned before = (1u << h) - 1u;
  int srcslot = -1, basej = -1;
  i64 off = 0, len = 0x7fffffffffffffffll;
  unsigned skip = ~before;  // checks against h and later levels: left to level i
  const int r = sp[P_REUSE + i];
  if (r >= 2 && r <= h) {
    srcslot = 2 * r + 1;
    len = x.rsz[r];
    skip |= (unsigned)sp[P_SKIP + i];
  } else {
    unsigned bn = (unsigned)sp[P_BN + i] & before;
    while (bn) {
      const int j = __ffs(bn) - 1;
      bn &= bn - 1;
      const int v = x.path[j];
      const i64 a = __ldg(g.indptr + v), b = __ldg(g.indptr + v + 1);
      if (b - a < len) {
        len = b - a;
        basej = j;
        off = a;
      }
    }
  }
  int n = 0;
  for (i64 b = 0; b < len; b += 32) {
    const i64 t = b + x.lane;
    int ok = 0, c = -1;
    if (t < len) {
      c = srcslot >= 0 ? pget(x.ptw, x.pool, x.maxpg, srcslot, t) : __ldg(g.indices + off + t);
      ok = eval_cand(g, sp, x.path, i, c, basej, off + t, skip, RAW_ALL, h) & 1;
    }
    const unsigned m = __ballot_sync(FULLMASK, ok);
    if (!push_batch(x.ptw, x.pool, x.maxpg, x.npages, x.ctl, 2 * i + 1, n, m, c, x.lane))
      return false;
    n += __popc(m);
  }
  x.rsz[i] = n;
  return true;
}

#endif

// The hoisted sets level h builds (none in a module compiled without HOIST: the plan has none).
// `few`: level h has fewer than two candidates, so a set would serve at most one image of h;
// none is built and rsz[i] = -1 sends level i to its own source (pick_source).
__device__ __forceinline__ bool build_hoists(Ctx& x, int h, bool few) {
#if HOIST
  unsigned m = (unsigned)x.sp[P_HOISTS + h];
  while (m) {
    const int i = __ffs(m) - 1;
    m &= m - 1;
    if (few)
      x.rsz[i] = -1;
    else if (!build_hoist(x, i, h))
      return false;
  }
#endif
  return true;
}

// ------------------------------------------------------------------ one level's candidates
// Fill level lev: filtered set (iterated by the DFS) and, if a later level reuses it, the raw
// set; then the hoisted sets of later levels built at lev. At the last level the matches are
// counted / emitted instead of stored.
__device__ bool extend(Ctx& x, int lev, bool want_filtered) {
  const int* sp = x.sp;
  const bool last = (lev == K - 1);
  const int raw_kind = sp[P_STORERAW + lev];
  const bool need_raw = raw_kind != 0;
  const Source s = pick_source(x, lev, lev, need_raw);
  // size pruning (P_NEED): the source's last `need` positions are walked for the raw set only
  const i64 keep = s.len - (lev < TAILT ? sp[P_NEED + lev] : 0);
  const i64 len = need_raw ? s.len : keep;
  int fsz = 0, rsz = 0;
  // one candidate per lane, 32 at a time; the ballots of eval_cand's bits (bit 0 raw, bit 1
  // passes every test of the level) append the batch to the slots in source order
  for (i64 b = 0; b < len; b += 32) {
    i64 t = b + x.lane;
    int res = 0, c = -1;
    if (t < len) {
      c = source_cand(x, s, t);
      res = eval_cand(x.g, sp, x.path, lev, c, s.basej, s.off + t, s.skip, raw_kind, lev);
      if (t >= keep) res &= 1;
    }
    unsigned mr = __ballot_sync(FULLMASK, res & 1);
    unsigned mo = __ballot_sync(FULLMASK, res & 2);
    if (need_raw) {
      if (!push_batch(x.ptw, x.pool, x.maxpg, x.npages, x.ctl, 2 * lev + 1, rsz, mr, c, x.lane))
        return false;
      rsz += __popc(mr);
    }
    if (last) {
      if (!emit(x, mo, c)) return false;
    } else if (want_filtered) {
      if (!push_batch(x.ptw, x.pool, x.maxpg, x.npages, x.ctl, 2 * lev, fsz, mo, c, x.lane))
        return false;
      fsz += __popc(mo);
    }
  }
  x.sz[lev] = fsz;
  if (need_raw) x.rsz[lev] = rsz;  // (a hoisted level's rsz is its hoisted set's size)
  return last || build_hoists(x, lev, want_filtered && fsz < 2);
}

// What later levels read from level r, built with levels < r mapped and r's own candidates
// not stored (a task starting below r): its raw set and the hoisted sets built at r.
__device__ __forceinline__ bool prepare_level(Ctx& x, int r) {
  if (x.sp[P_STORERAW + r]) return extend(x, r, false);
  return build_hoists(x, r, false);
}

// ------------------------------------------------------------------ the count tail
// Levels TAILT.. with levels < TAILT mapped: count the candidates of level TAILT (and, for a
// pair, of TAILT + 1 and of both) without storing anything, and add the tail's formula.
__device__ __forceinline__ u64 count_level(const Ctx& x, int lev, int pairlev, u64* both) {
  const Source s = pick_source(x, lev, TAILT, false);
  u64 n = 0, nb = 0;
  for (i64 b = 0; b < s.len; b += 32) {
    i64 t = b + x.lane;
    bool hit = false, hit2 = false;
    if (t < s.len) {
      const int c = source_cand(x, s, t);
      hit = (eval_cand(x.g, x.sp, x.path, lev, c, s.basej, s.off + t, s.skip, 0, TAILT) & 2) != 0;
      if (hit && pairlev >= 0)
        hit2 = (eval_cand(x.g, x.sp, x.path, pairlev, c, -1, 0, 0u, 0, TAILT) & 2) != 0;
    }
    n += __popc(__ballot_sync(FULLMASK, hit));
    if (pairlev >= 0) nb += __popc(__ballot_sync(FULLMASK, hit2));
  }
  if (both) *both = nb;
  return n;
}

__device__ void count_tail(Ctx& x) {
  u64 v;
#if TAILKIND == TAIL_PAIR
  u64 nab = 0;
  const u64 na = count_level(x, TAILT, TAILT + 1, &nab);
  const u64 nb = na ? count_level(x, TAILT + 1, -1, nullptr) : 0;
  v = na * nb - nab;  // both < 2^31: no overflow
#else
  const u64 n = count_level(x, TAILT, -1, nullptr);
  bool ovf = false;
  v = tail_value(n, TAILN, &ovf);
  if (ovf) {  // past 64 bits: exactly, into the 128-bit count (F_OVERFLOW past 128)
    if (x.lane == 0) add_count_formula(x.ctl, n, TAILN, TAILKIND == TAIL_CHOOSE);
    return;
  }
#endif
  acc_add(x, v);
}

// Finish the search at level LEAF (levels < LEAF mapped). False aborts the task.
__device__ __forceinline__ bool leaf(Ctx& x) {
#if MODE == 0 && TAILT < K - 1
  count_tail(x);
  return true;
#else
  return extend(x, K - 1, false);
#endif
}

// ------------------------------------------------------------------ straggler splitting
// A task started at level L that runs longer than tau gives away the candidates of level L it
// has not started (T-DFS splits the same way): records (depth L + 1, path prefix) for the host
// to relaunch, and level L is cut there; the warp finishes the branch it is in. Only level L
// is split, so each record carries a whole subtree (deeper records would each recompute the
// reused raw sets of their prefix for little work). All records or none (buffer full: the
// warp keeps the work). Returns true if it split.
__device__ bool split_task(Ctx& x, int L, int lev) {
  // at lev == L the candidate it[L] is not started yet (run_dfs polls before taking it);
  // deeper, its branch is under way and is kept
  const i64 p0 = (lev == L) ? x.it[L] : x.it[L] + 1;
  const i64 n = x.sz[L] - p0;
  if (n <= 0) return false;
  int ok = 0;
  i64 base = 0;
  if (x.lane == 0) {
    // reserve all n records or none: the cursor never passes dumpcap (an atomicAdd could
    // overshoot it and leave a partial split)
    u64* cur = x.ctl + C_NDUMP;
    u64 old = *((volatile u64*)cur);
    while ((i64)old + n <= x.dumpcap) {
      const u64 prev = atomicCAS(cur, old, old + (u64)n);
      if (prev == old) {
        ok = 1;
        break;
      }
      old = prev;
    }
    base = (i64)old;
  }
  ok = __shfl_sync(FULLMASK, ok, 0);
  base = __shfl_sync(FULLMASK, base, 0);
  if (!ok) return false;
  for (i64 q = x.lane; q < n; q += 32) {
    int* r = x.dump + (base + q) * RECW;
    r[0] = L + 1;
    for (int a = 0; a < L; ++a) r[1 + a] = x.path[a];
    r[1 + L] = pget(x.ptw, x.pool, x.maxpg, 2 * L, p0 + q);
  }
  __syncwarp();
  x.sz[L] = (int)p0;  // level L now ends where the records begin
  return true;
}

// Depth-first search from level L (levels < L already in path). 0 done, -1 abort.
// At the top of the loop: levels L..lev have their filtered sets in slots 2 * j (sizes sz[j]);
// for L <= j < lev, path[j] is level j's candidate at it[j] (the branch being explored), and
// it[lev] is the next candidate of level lev to take. Level LEAF is never stored: leaf() counts
// or emits it (or the count tail) from path[0..LEAF-1]. A raw set (slot 2 * j + 1) depends only
// on levels < j, so it stays valid while level j walks its candidates.
__device__ int run_dfs(Ctx& x, int L) {
  if (L >= LEAF) return leaf(x) ? 0 : -1;
  if (!extend(x, L, true)) return -1;
  x.it[L] = 0;
  int lev = L;
  unsigned tick = 0;
  bool may_split = x.tau > 0;
  while (true) {
    if (x.it[lev] >= x.sz[lev]) {  // exhausted: on to the previous level's next candidate
      if (lev == L) return 0;
      --lev;
      x.it[lev]++;
      continue;
    }
    // every 16 steps, on warp-uniform values (lane 0 reads, all lanes follow: collectives come
    // next): a stop bit ends the task (pool exhausted, overflow, found or host stop, buffer
    // full); a task past tau (count mode with a dump buffer) splits once. Polled before it[lev]
    // is taken: split_task relies on it.
    if ((++tick & 15u) == 0) {
      if (warp_flags(x.ctl) & STOP_BITS) return -1;
      if (may_split && (i64)(warp_now() - x.t0) > x.tau) {
        may_split = false;  // once per task: what is left of it is one branch
        if (split_task(x, L, lev) && lev == L) return 0;
      }
    }
    x.path[lev] = pget(x.ptw, x.pool, x.maxpg, 2 * lev, x.it[lev]);
    if (lev + 1 == LEAF) {  // the next level is the leaf: finished here, nothing stored
      if (!leaf(x)) return -1;
      x.it[lev]++;
      continue;
    }
    ++lev;
    if (!extend(x, lev, true)) return -1;
    x.it[lev] = 0;
  }
}

// Recompute the raw and hoisted sets of levels 2..D-1 that later levels read (prefix tasks).
__device__ bool seed_prefix(Ctx& x, int D) {
  for (int r = 2; r < D; ++r)
    if (!prepare_level(x, r)) return false;
  return true;
}

__device__ __forceinline__ void flush_count(Ctx& x) {
#if MODE == 0
  if (x.lane == 0) {
    add_count(x.ctl, x.acc);
    x.acc = 0;
  }
#endif
}

extern "C" __global__ void __launch_bounds__(WPB * 32)
    static_dfs(const __grid_constant__ Graph g, const __grid_constant__ DfsLaunch a) {
  __shared__ int sp[P_SIZE];
  load_plan(sp, a.plan);
  Ctx x;
  x.g = g;
  x.sp = sp;
  x.lane = threadIdx.x & 31;
  const i64 gw = (i64)blockIdx.x * WPB + (threadIdx.x >> 5);
  x.ptw = a.pt + gw * NSLOT * (i64)a.maxpg;
  x.pool = a.pool;
  x.maxpg = a.maxpg;
  x.npages = a.npages;
  x.ctl = a.ctl;
  x.acc = 0;
  x.out = a.out;
  x.outcap = a.outcap;
  x.seen = 0;
  x.skip = 0;
  x.dump = a.dump;
  x.dumpcap = a.dumpcap;
  x.tau = (MODE == 0 && a.dump != nullptr) ? a.timeout_ns : 0;
  x.t0 = 0;
  // the launch's fields the task loop reads, under their short names
  const int src_mode = a.src_mode;
  const i64 lo = a.lo, hi = a.hi, ntl = a.ntl, nleaves = a.nleaves, nrec = a.nrec;
  const int tdepth = a.tdepth;
  u64* const ctl = a.ctl;
  i64* const resume = a.resume;
  const i64 ntask =
      src_mode == SRC_ROOTS ? ntl + (hi - lo) : (src_mode == SRC_TRIE ? nleaves : nrec);
  const i64 chunk =
      src_mode == SRC_ROOTS ? ROOT_CHUNK : (src_mode == SRC_TRIE ? LEAF_CHUNK : REC_CHUNK);
  const int lane = x.lane;

  // Persistent warps: each takes chunks of tasks [c0, c1) from the shared cursor until none
  // are left, a stop bit is set, or one of its tasks aborts.
#if HEAVY_SINGLE && MODE == 0
  // claims: the first `single` are one task each (the list's head), then chunks of `chunk`
  const i64 nw_all = (i64)gridDim.x * WPB;
  const i64 single = src_mode == SRC_ROOTS ? min((i64)HEAVY_SINGLE * nw_all, ntl) : 0;
#endif
  while (true) {
    if (warp_flags(ctl) & STOP_BITS) break;
#if HEAVY_SINGLE && MODE == 0
    const i64 claim = (i64)warp_atomic_add(ctl + C_ROOTCUR, 1ull);
    const i64 c0 = claim < single ? claim : single + (claim - single) * chunk;
    if (c0 >= ntask) break;
    const i64 c1 = claim < single ? c0 + 1 : (c0 + chunk < ntask ? c0 + chunk : ntask);
#else
    const i64 c0 = (i64)warp_atomic_add(ctl + C_ROOTCUR, (u64)chunk);
    if (c0 >= ntask) break;
    const i64 c1 = c0 + chunk < ntask ? c0 + chunk : ntask;
#endif
    bool abort = false;
    if (src_mode == SRC_ROOTS) {
      // task t: the explicit list first (count: the roots heaviest first; enumerate: tasks a
      // stopped launch left, with tl_skip their rows already written), then [lo, hi). Each
      // lane tests one task of the chunk (ROOT_CHUNK = 32); the warp then runs the passing
      // ones one by one, their root edge broadcast from the lane that tested it.
      i64 t = c0 + lane;
      i64 e = 0, sk = 0;
      bool ok = false;
      if (t < c1) {
        if (t < ntl) {
          e = a.tl_entry[t];
          sk = a.tl_skip ? a.tl_skip[t] : 0;
        } else {
          e = lo + (t - ntl);
        }
        ok = root_entry_ok(x.g, sp, e);
      }
      int u = ok ? __ldg(g.owner + e) : 0, v = ok ? __ldg(g.indices + e) : 0;
      unsigned rem = __ballot_sync(FULLMASK, ok);
      while (rem) {
        int b = __ffs(rem) - 1;
        i64 skb = __shfl_sync(FULLMASK, sk, b);
        if (MODE == 2 && (warp_flags(ctl) & STOP_BITS)) {
          // enumerate, a stop bit is set (a full buffer; a pool retry drops these records):
          // this task (not started: its old skip) and the rest of the chunk go to the next
          // launch (host: _resume_tasks)
          if (lane == 0) {
            resume[3 * gw] = c0 + b;
            resume[3 * gw + 1] = skb;
            resume[3 * gw + 2] = c1;
          }
          abort = true;
          break;
        }
        rem &= rem - 1;
        x.path[0] = __shfl_sync(FULLMASK, u, b);
        x.path[1] = __shfl_sync(FULLMASK, v, b);
        x.skip = skb;
        x.seen = 0;
        x.t0 = warp_now();
        int rc = run_dfs(x, 2);
        if (rc < 0) {
#if MODE == 2
          // the task stopped: max(seen, skip) of its matches are written (skip: set by emit
          // on a full buffer; seen: when a stop bit ended it; a resumed task may stop before
          // reaching its old skip)
          if (lane == 0) {
            resume[3 * gw] = c0 + b;
            resume[3 * gw + 1] = x.seen > x.skip ? x.seen : x.skip;
            resume[3 * gw + 2] = c1;
          }
#endif
          abort = true;
          break;
        }
      }
    } else if (src_mode == SRC_RECORDS) {
      // a straggler's record: path[0..d-1] fixed; the raw sets of levels < d that later
      // levels reuse are rebuilt, then the search goes on from level d
      for (i64 t = c0; t < c1 && !abort; ++t) {
        const int* r = a.recs + t * RECW;
        const int d = r[0];
        for (int j = 0; j < d; ++j) x.path[j] = r[1 + j];
        x.t0 = warp_now();
        if (!seed_prefix(x, d) || run_dfs(x, d) < 0) abort = true;
      }
    } else {
      // raw sets of levels 2 (and 3) depend only on the leaf's trie ancestors: leaves of one
      // parent are mostly adjacent, so they are recomputed only when the ancestor changes
      i64 prev1 = -1, prev2 = -1;
      for (i64 t = c0; t < c1 && !abort; ++t) {
        i64 p1, p2 = -1;
        if (tdepth == 3) {
          x.path[3] = a.t3cand[t];
          p2 = a.t3par[t];
          x.path[2] = a.t2cand[p2];
          p1 = a.t2par[p2];
        } else {
          x.path[2] = a.t2cand[t];
          p1 = a.t2par[t];
        }
        i64 e = a.trie1[p1];
        x.path[0] = __ldg(g.owner + e);
        x.path[1] = __ldg(g.indices + e);
        if (p1 != prev1 && !prepare_level(x, 2)) abort = true;
        if (!abort && tdepth == 3 && p2 != prev2 && !prepare_level(x, 3)) abort = true;
        prev1 = p1;
        prev2 = p2;
        if (!abort && run_dfs(x, tdepth + 1) < 0) abort = true;
      }
    }
    if (abort) break;
  }
  flush_count(x);
}

// ------------------------------------------------------------------ cuTS trie (BFS levels)
// Level 1: the root entries lo, lo + step, ... below hi that pass the root conditions, one
// atomic per batch.
extern "C" __global__ void __launch_bounds__(WPB * 32)
    static_trie_roots(const __grid_constant__ Graph g, const __grid_constant__ TrieLaunch a) {
  __shared__ int sp[P_SIZE];
  load_plan(sp, a.plan);
  const i64 lo = a.lo, step = a.step, cap = a.cap;
  const i64 nidx = (a.hi - lo + step - 1) / step;  // entries lo + i * step, 0 <= i < nidx
  u64* const cnt = a.cnt;
  u64* const ctl = a.ctl;
  i64* const trie1 = a.trie1;
  const int lane = threadIdx.x & 31;
  const i64 nw = (i64)gridDim.x * WPB;
  for (i64 s = ((i64)blockIdx.x * WPB + (threadIdx.x >> 5)) * 32; s < nidx; s += nw * 32) {
    const i64 e = lo + (s + lane) * step;
    bool ok = s + lane < nidx && root_entry_ok(g, sp, e);
    unsigned m = __ballot_sync(FULLMASK, ok);
    if (!m) continue;
    const i64 base = (i64)warp_atomic_add(cnt, (u64)__popc(m));
    if (ok) {
      i64 p = base + __popc(m & lanemask_lt());
      if (p < cap)
        trie1[p] = e;
      else
        set_flag(ctl, F_TRIEFULL);
    }
  }
}

// Level d (2 or 3): a warp per parent node; children written as (parent index, candidate) with
// one atomic per batch of 32 candidates (cuTS). No intersection reuse here (raw sets are not
// kept in the trie).
extern "C" __global__ void __launch_bounds__(WPB * 32)
    static_trie_expand(const __grid_constant__ Graph gv, const __grid_constant__ TrieLaunch a) {
  __shared__ int sp[P_SIZE];
  load_plan(sp, a.plan);
  Graph g = gv;
  g.root_ok = 0;  // the parents passed the root conditions at level 1
  const int d = a.d;
  const i64 nparent = a.nparent, cap = a.cap;
  const i64* const trie1 = a.trie1;
  const int* const t2par = a.t2par;
  const int* const t2cand = a.t2cand;
  u64* const cnt = a.cnt;
  u64* const ctl = a.ctl;
  int* const opar = a.opar;
  int* const ocand = a.ocand;
  const int lane = threadIdx.x & 31;
  int path[K];
  while (true) {
    const i64 p = (i64)warp_atomic_add(ctl + C_TRIECUR, 1ull);
    if (p >= nparent) break;
    i64 q = p;
    if (d == 3) {
      path[2] = t2cand[q];
      q = t2par[q];
    }
    i64 e = trie1[q];
    path[0] = __ldg(g.owner + e);
    path[1] = __ldg(g.indices + e);
    // candidates from the shortest backward-neighbour list; eval_cand tests the others and
    // every other condition of level d (symmetry per candidate: the list is not cut)
    unsigned bn = (unsigned)sp[P_BN + d];
    int basej = -1, best = 0x7fffffff;
    while (bn) {
      int j = __ffs(bn) - 1;
      bn &= bn - 1;
      int dg = __ldg(g.deg + path[j]);
      if (dg < best) {
        best = dg;
        basej = j;
      }
    }
    i64 off = __ldg(g.indptr + path[basej]);
    i64 end = off + best;
#if NLAB
    // a label-grouped graph: only the level's label range of the list (filtered candidates
    // only are kept here, so nothing else could pass)
    const int lab = sp[P_LAB + d];
    if (lab >= 0 && g.lstart) {
      end = lower_bound_g(g.indices, off, end, __ldg(g.lstart + lab + 1));
      off = lower_bound_g(g.indices, off, end, __ldg(g.lstart + lab));
    }
#endif
    // size pruning (P_NEED): the list's last `need` positions can never be completed
    const i64 len = (end - off) - (d < TAILT ? sp[P_NEED + d] : 0);
    for (i64 s = 0; s < len; s += 32) {
      i64 t = s + lane;
      int c = -1, res = 0;
      if (t < len) {
        c = __ldg(g.indices + off + t);
        res = eval_cand(g, sp, path, d, c, basej, off + t, 0u, 0, d);
      }
      unsigned mo = __ballot_sync(FULLMASK, res & 2);
      if (!mo) continue;
      const i64 base = (i64)warp_atomic_add(cnt, (u64)__popc(mo));
      if (res & 2) {
        i64 w = base + __popc(mo & lanemask_lt());
        if (w < cap) {  // the host sized cap from an upper bound: beyond it is a bug (flagged)
          opar[w] = (int)p;
          ocand[w] = c;
        } else {
          set_flag(ctl, F_TRIEFULL);
        }
      }
    }
  }
}
