// Device code of the static CUDA engine's family (T-DFS warp stacks + cuTS trie): its
// compile-time parameters, the packed plan layout, its control-block words and flag bits, the
// Graph view and the candidate checks / paged stacks built on it. Included by static_dfs.cu and
// static_count.cu; it includes device_common.cuh (the helpers not specific to one family).
//
// Compile-time parameters (set by the host as -D options, part of the module cache key):
//   K      pattern size (2..32)
//   MODE   0 count, 1 exists, 2 enumerate
//   NLAB   1 if the graph has node labels
//   ELAB   1 if the graph has edge labels
//   ECHK   1 if backward-neighbour checks must test direction codes / labels (plan.edge_checks)
//   LOGP   log2 of the stack page size in ints
//   HOIST  1 if the packed plan has hoisted sets (P_HOIST; plans without them compile none of
//          that code: a smaller kernel, compiled faster)
// (NLAB and ELAB default to 0 in device_common.cuh, the other defaults are below.)
//
// The plan is packed by the host (engines/cuda/static_build.py: pack_plan) into one int array,
// indexed by level, with the offsets below; per-level sets of earlier levels are bit masks.
#pragma once

#ifndef K
#define K 4
#endif
#ifndef MODE
#define MODE 0
#endif
#ifndef ECHK
#define ECHK 1
#endif
#ifndef LOGP
#define LOGP 10
#endif
#ifndef HOIST
#define HOIST 0
#endif

#define PAGE (1 << LOGP)
#define WPB 8  // warps per block (engines/cuda/static_build.py: WPB)
#define NSLOT (2 * K)

// ---- packed plan layout (ints)
#define P_LAB 0
#define P_LOOPREQ (K)
#define P_LOOPLAB (2 * K)
#define P_MINDEG (3 * K)
#define P_REUSE (4 * K)
#define P_STORERAW (5 * K)  // per level: 0, RAW_ADJ or RAW_ALL (eval_cand)
#define RAW_ADJ 1
#define RAW_ALL 2
#define P_SYM (6 * K)
#define P_BN (7 * K)
#define P_CHK (8 * K)
#define P_SKIP (9 * K)
#define P_CODE (10 * K)
#define P_OUTL (10 * K + K * K)
#define P_INL (10 * K + 2 * K * K)
#define P_INDUCED (10 * K + 3 * K * K)
// P_NEED: per level, how many later levels must take distinct candidates above its image from
// its own (sorted) candidate source (plan.static_plan.size_needs): the last that many positions
// of the source can never be completed, so they are not walked (not at the count tail's levels,
// whose formula counts every candidate)
#define P_NEED (10 * K + 3 * K * K + 1)
// P_HOIST: per level i, the level h (= i - 1) whose extension builds i's candidates passing
// every check against the levels before h into i's raw slot, or -1 (plan.candidate_sources
// hoist_levels); P_HOISTS: per level h, the mask of the levels it builds such sets for
#define P_HOIST (11 * K + 3 * K * K + 1)
#define P_HOISTS (12 * K + 3 * K * K + 1)
#define P_SIZE (13 * K + 3 * K * K + 1)

// ---- control block (u64 words) beyond device_common.cuh's C_COUNT, C_FLAGS
#define C_ROOTCUR 2
#define C_PAGECUR 7
#define C_OUTCUR 8
#define C_NDUMP 9  // records written by straggler splitting in this launch
#define C_TRIECUR 11

// ---- flag bits in ctl[C_FLAGS]
#define F_POOL 1u       // page pool exhausted: results of this launch are invalid, retry bigger
#define F_OVERFLOW 2u   // 64-bit count overflow
#define F_FOUND 4u      // exists mode: a match was found
#define F_OUTFULL 8u    // enumerate: output buffer full, resume records written
#define F_TRIEFULL 16u  // trie level over capacity (host bound violated: bug guard)
#define STOP_BITS (F_POOL | F_OVERFLOW | F_FOUND | F_OUTFULL | F_TRIEFULL)

// after the flag bits: device_common.cuh's add_count raises this family's F_OVERFLOW
#include "device_common.cuh"

struct Graph {
  const i64* __restrict__ indptr;
  const int* __restrict__ indices;
  const unsigned char* __restrict__ dircode;
  const int* __restrict__ owner;
  const int* __restrict__ deg;
  const unsigned char* __restrict__ loop;
  const int* __restrict__ nlab;
  const int* __restrict__ outl;
  const int* __restrict__ inl;
  const int* __restrict__ looplab;
  const unsigned char* __restrict__ root_ok;
  // label-grouped graphs (inputs/label_groups.py): label l's vertices are ids
  // [lstart[l], lstart[l + 1]); nullptr when the ids are not grouped by label
  const int* __restrict__ lstart;
  int n;
};

// Kernel arguments beyond the graph view, passed by value with it (`static_dfs(const Graph g,
// const DfsLaunch a)`). These declarations are the only ones: the host packs the same layout
// by field name (engines/cuda/static_launch.py: DFS_LAUNCH, TRIE_LAUNCH; kernel_args.py reads
// the fields from here, one per line), and a probe compiled with the module checks it.
//
// static_dfs: the plan, the launch's task source (SRC_* in static_dfs.cu: root entries, trie
// leaves or dumped records), the control block, straggler records, the paged stacks and the
// enumeration output.
struct DfsLaunch {
  const int* plan;
  int src_mode;
  i64 lo;
  i64 hi;
  const i64* tl_entry;
  const i64* tl_skip;
  i64 ntl;
  const i64* trie1;
  const int* t2par;
  const int* t2cand;
  const int* t3par;
  const int* t3cand;
  i64 nleaves;
  int tdepth;
  const int* recs;
  i64 nrec;
  u64* ctl;
  int* dump;
  i64 dumpcap;
  i64 timeout_ns;
  int* pt;
  int* pool;
  int maxpg;
  i64 npages;
  int* out;
  i64 outcap;
  i64* resume;
};

// static_trie_roots (level 1: root entries lo, lo + step, ... below hi into trie1; step > 1
// for one part of a count split across devices) and static_trie_expand (level d = 2 or 3: the
// children of nparent parents, read from trie1 / t2par / t2cand, into opar / ocand); cnt counts
// the nodes written, cap bounds them.
struct TrieLaunch {
  const int* plan;
  int d;
  i64 lo;
  i64 hi;
  i64 step;
  i64* trie1;
  const int* t2par;
  const int* t2cand;
  i64 nparent;
  u64* cnt;
  int* opar;
  int* ocand;
  i64 cap;
  u64* ctl;
};

// First position p in the sorted list a[lo, hi) with a[p] >= x.
__device__ __forceinline__ i64 lower_bound_g(const int* __restrict__ a, i64 lo, i64 hi, int x) {
  return partition_point(lo, hi, [a, x](i64 m) { return __ldg(a + m) < x; });
}

// Position of x in the sorted list a[lo, hi), or -1.
__device__ __forceinline__ i64 find_pos(const int* __restrict__ a, i64 lo, i64 hi, int x) {
  const i64 p = lower_bound_g(a, lo, hi, x);
  return (p < hi && __ldg(a + p) == x) ? p : -1;
}

// Entry `pos` (in f(j)'s list) satisfies check (j, lev): direction code and edge labels.
__device__ __forceinline__ bool entry_ok(const Graph& g, const int* sp, int lev, int j, i64 pos) {
#if ECHK
  int req = sp[P_CODE + lev * K + j];
  int have = (int)__ldg(g.dircode + pos);
  if (sp[P_INDUCED]) {
    if (have != req) return false;
  } else {
    if ((have & req) != req) return false;
  }
#if ELAB
  int ro = sp[P_OUTL + lev * K + j];
  if (ro != -1 && __ldg(g.outl + pos) != ro) return false;
  int ri = sp[P_INL + lev * K + j];
  if (ri != -1 && __ldg(g.inl + pos) != ri) return false;
#endif
#endif
  return true;
}

// Per-vertex filters of a level: degree, node label, self-loop requirement and label.
__device__ __forceinline__ bool node_ok(const Graph& g, const int* sp, int lev, int c) {
  if (__ldg(g.deg + c) < sp[P_MINDEG + lev]) return false;
#if NLAB
  int l = sp[P_LAB + lev];
  if (l != -1 && __ldg(g.nlab + c) != l) return false;
#endif
  int lr = sp[P_LOOPREQ + lev];
  if (lr != -1 && (int)__ldg(g.loop + c) != lr) return false;
#if ELAB
  int ll = sp[P_LOOPLAB + lev];
  if (ll != -1 && __ldg(g.looplab + c) != ll) return false;
#endif
  return true;
}

// Injectivity and symmetry restrictions of candidate c at level lev, against the `nmapped`
// levels mapped so far (lev itself when walking level by level; the count tail's first level
// when a tail level is evaluated).
__device__ __forceinline__ bool inj_sym_ok(const int* sp, const int* path, int lev, int c,
                                           int nmapped) {
  unsigned sym = (unsigned)sp[P_SYM + lev];
  for (int j = 0; j < nmapped; ++j) {
    int p = path[j];
    if (p == c) return false;
    if (((sym >> j) & 1u) && c <= p) return false;
  }
  return true;
}

// Evaluate candidate c of level lev. basej >= 0: c was read at entry basepos of f(basej)'s list,
// whose check is tested on that entry. skip: levels whose checks are already implied (reuse).
// raw_kind (P_STORERAW of the level; 0 when no raw set is stored): RAW_ADJ, the raw set is
// the candidates passing the backward-neighbour checks; RAW_ALL, every check against an
// earlier level (the non-adjacency checks of an induced plan too), so that a later level
// agreeing with this one on every earlier level reads a set with none of them left to test.
// Returns bit0 = raw, bit1 = full match of the level.
__device__ __forceinline__ int eval_cand(const Graph& g, const int* sp, const int* path, int lev,
                                         int c, int basej, i64 basepos, unsigned skip,
                                         int raw_kind, int nmapped) {
  const bool need_raw = raw_kind != 0;
  unsigned chk = (unsigned)sp[P_CHK + lev] & ~skip;
  unsigned bn = (unsigned)sp[P_BN + lev];
  bool cheap_ok = true;
  if (!need_raw) {
    // cheap filters first when the raw set is not stored
    if (!inj_sym_ok(sp, path, lev, c, nmapped) || !node_ok(g, sp, lev, c)) return 0;
  }
  if (basej >= 0) {
    chk &= ~(1u << basej);
    if (!entry_ok(g, sp, lev, basej, basepos)) return 0;
  }
  unsigned b = chk & bn;
  while (b) {
    int j = __ffs(b) - 1;
    b &= b - 1;
    int v = path[j];
    i64 pos = find_pos(g.indices, __ldg(g.indptr + v), __ldg(g.indptr + v + 1), c);
    if (pos < 0 || !entry_ok(g, sp, lev, j, pos)) return 0;
  }
  unsigned ne = chk & ~bn;  // code-0 checks: must be non-adjacent (induced plans)
  if (raw_kind == RAW_ALL) {  // part of the raw set's test
    while (ne) {
      int j = __ffs(ne) - 1;
      ne &= ne - 1;
      int v = path[j];
      if (find_pos(g.indices, __ldg(g.indptr + v), __ldg(g.indptr + v + 1), c) >= 0) return 0;
    }
  }
  if (need_raw) cheap_ok = inj_sym_ok(sp, path, lev, c, nmapped) && node_ok(g, sp, lev, c);
  if (!cheap_ok) return 1;
  while (ne) {
    int j = __ffs(ne) - 1;
    ne &= ne - 1;
    int v = path[j];
    if (find_pos(g.indices, __ldg(g.indptr + v), __ldg(g.indptr + v + 1), c) >= 0) return 1;
  }
  return 3;
}

// Root entry e as levels 0 and 1. The plan's root_ok mask (when given) already holds every
// level-0/1 condition; without it they are tested here.
__device__ __forceinline__ bool root_entry_ok(const Graph& g, const int* sp, i64 e) {
  if (g.root_ok) return __ldg(g.root_ok + e) != 0;
  int u = __ldg(g.owner + e), v = __ldg(g.indices + e);
  if (!node_ok(g, sp, 0, u) || !node_ok(g, sp, 1, v)) return false;
  if (!entry_ok(g, sp, 1, 0, e)) return false;
  if ((sp[P_SYM + 1] & 1) && v <= u) return false;
  return true;
}

// ---- paged stack levels (T-DFS): each warp owns a page table per slot; pages come from a pool
// by one atomic each and stay with the warp for the rest of the launch.
__device__ __forceinline__ int pget(const int* ptw, const int* pool, int maxpg, int slot,
                                    i64 pos) {
  int pg = ptw[slot * maxpg + (int)(pos >> LOGP)];
  return pool[(i64)pg * PAGE + (pos & (PAGE - 1))];
}

// Append the lanes of `mask` (value c each) to slot at position size; returns false if the pool
// is exhausted (flag set). Every lane of the warp must call it.
__device__ __forceinline__ bool push_batch(int* ptw, int* pool, int maxpg, i64 npages, u64* ctl,
                                           int slot, int size, unsigned mask, int c, int lane) {
  int n = __popc(mask);
  if (n == 0) return true;
  int ok = 1;
  if (lane == 0) {
    int p0 = size >> LOGP, p1 = (size + n - 1) >> LOGP;
    for (int p = p0; p <= p1; ++p) {
      int* ent = ptw + slot * maxpg + p;
      if (*ent < 0) {
        u64 np = atomicAdd(ctl + C_PAGECUR, 1ull);
        if ((i64)np >= npages) {
          set_flag(ctl, F_POOL);
          ok = 0;
          break;
        }
        *ent = (int)np;
      }
    }
  }
  ok = __shfl_sync(FULLMASK, ok, 0);
  __syncwarp();
  if (!ok) return false;
  if ((mask >> lane) & 1u) {
    i64 pos = size + __popc(mask & lanemask_lt());
    int pg = ptw[slot * maxpg + (int)(pos >> LOGP)];
    pool[(i64)pg * PAGE + (pos & (PAGE - 1))] = c;
  }
  __syncwarp();
  return true;
}

// Load the packed plan into shared memory (read-only for the launch: through the read-only
// cache, as when the plan was a kernel parameter of its own).
__device__ __forceinline__ void load_plan(int* sp, const int* __restrict__ plan) {
  for (int i = threadIdx.x; i < P_SIZE; i += blockDim.x) sp[i] = __ldg(plan + i);
  __syncthreads();
}
