// T-DFS static subgraph matching: a warp per task with its own paged stack, timeout splitting
// into a lock-free circular task queue, and (count/exists/enumerate) result handling.
// Also the cuTS trie kernels (BFS levels of the BFS-DFS hybrid); the DFS kernel can take the
// trie's leaves as its tasks.
#include "static_common.cuh"

#define ROOT_CHUNK 32
#define LEAF_CHUNK 32

struct Ctx {
  Graph g;
  const int* sp;
  int lane;
  int* ptw;
  int* pool;
  int maxpg;
  i64 npages;
  u64* ctl;
  // per-lane identical copies of the warp's DFS state
  int path[K];
  int it[K];
  int sz[K];
  int rsz[K];
  u64 acc;  // lane 0: matches counted by this warp
  // enumerate
  int* out;
  i64 outcap;
  i64 seen;  // matches of the current task found so far (DFS order)
  i64 skip;  // matches of the current task already emitted by earlier launches
  // timeout splitting
  bool use_q;
  int* queue;
  u64* qseq;
  i64 qcap;
  i64 tau;
  u64 t0;
};

// ------------------------------------------------------------------ lock-free circular queue
// A bounded ring of qcap slots; slot data = 3 ints (u, v, w), w = -2 for a root-edge task.
// Occupancy ctl[C_QSIZE] is reserved exactly with CAS loops (never over- or under-shot, so a
// dequeuer only reserves when a task has been reserved by an enqueuer, and an enqueuer never
// exceeds the capacity); positions come from the C_QBACK / C_QFRONT tickets. Each slot carries
// a sequence number (Vyukov's bounded MPMC scheme): position P may be written when seq == P and
// read when seq == P + 1; the reader then sets seq = P + qcap for the next lap. A slot thus
// belongs to exactly one enqueuer and one dequeuer at a time and fields of different laps can
// never mix. Pushes reserve all n slots or none (queue full: the warp keeps the work).
__device__ bool q_reserve(Ctx& x, i64 n, i64& pos) {
  int ok = 0;
  i64 p = 0;
  if (x.lane == 0) {
    u64* sz = x.ctl + C_QSIZE;
    i64 old = (i64)(*((volatile u64*)sz));
    while (old + n <= x.qcap) {
      u64 prev = atomicCAS(sz, (u64)old, (u64)(old + n));
      if ((i64)prev == old) {
        ok = 1;
        break;
      }
      old = (i64)prev;
    }
    if (ok) {
      p = (i64)atomicAdd(x.ctl + C_QBACK, (u64)n);
      atomicAdd(x.ctl + C_NSPLIT, (u64)n);
    }
  }
  ok = __shfl_sync(FULLMASK, ok, 0);
  pos = __shfl_sync(FULLMASK, p, 0);
  return ok != 0;
}

__device__ __forceinline__ void q_put(Ctx& x, i64 pos, int u, int v, int w) {
  i64 slot = pos % x.qcap;
  volatile u64* sq = (volatile u64*)(x.qseq + slot);
  while (*sq != (u64)pos) __nanosleep(32);
  volatile int* d = (volatile int*)(x.queue + 3 * slot);
  d[0] = u;
  d[1] = v;
  d[2] = w;
  __threadfence();
  *sq = (u64)(pos + 1);
}

__device__ bool q_get(Ctx& x, int& u, int& v, int& w) {
  int ok = 0, a = 0, b = 0, c = 0;
  if (x.lane == 0) {
    u64* sz = x.ctl + C_QSIZE;
    i64 old = (i64)(*((volatile u64*)sz));
    while (old > 0) {
      u64 prev = atomicCAS(sz, (u64)old, (u64)(old - 1));
      if ((i64)prev == old) {
        ok = 1;
        break;
      }
      old = (i64)prev;
    }
    if (ok) {
      i64 pos = (i64)atomicAdd(x.ctl + C_QFRONT, 1ull);
      i64 slot = pos % x.qcap;
      volatile u64* sq = (volatile u64*)(x.qseq + slot);
      while (*sq != (u64)(pos + 1)) __nanosleep(32);
      __threadfence();
      volatile int* d = (volatile int*)(x.queue + 3 * slot);
      a = d[0];
      b = d[1];
      c = d[2];
      __threadfence();
      *sq = (u64)(pos + x.qcap);
      atomicAdd(x.ctl + C_NDEQ, 1ull);
    }
  }
  ok = __shfl_sync(FULLMASK, ok, 0);
  u = __shfl_sync(FULLMASK, a, 0);
  v = __shfl_sync(FULLMASK, b, 0);
  w = __shfl_sync(FULLMASK, c, 0);
  return ok != 0;
}

// ------------------------------------------------------------------ matches at the last level
// Returns false to abort the task (exists: found; enumerate: buffer full or stop).
__device__ __forceinline__ bool emit(Ctx& x, unsigned mo, int c) {
  int n = __popc(mo);
  if (n == 0) return true;
#if MODE == 0
  if (x.lane == 0) {
    u64 a = x.acc + (u64)n;
    if (a < x.acc) set_flag(x.ctl, F_OVERFLOW);
    x.acc = a;
  }
  return true;
#elif MODE == 1
  if (x.lane == 0) set_flag(x.ctl, F_FOUND);
  return false;
#else
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

// ------------------------------------------------------------------ one level's candidates
// Fill level lev: filtered set (iterated by the DFS) and, if a later level reuses it, the raw
// set. At the last level the matches are counted / emitted instead of stored.
__device__ bool extend(Ctx& x, int lev, bool want_filtered) {
  const int* sp = x.sp;
  const Graph& g = x.g;
  const bool last = (lev == K - 1);
  const bool need_raw = sp[P_STORERAW + lev] != 0;
  int r = sp[P_REUSE + lev];
  int basej = -1, srcslot = -1;
  i64 off = 0, len = 0;
  unsigned skip = 0;
  if (r >= 2 && r < lev) {
    srcslot = 2 * r + 1;
    len = x.rsz[r];
    skip = (unsigned)sp[P_SKIP + lev];
  } else {
    unsigned bn = (unsigned)sp[P_BN + lev];
    if (bn) {
      int best = 0x7fffffff;
      while (bn) {
        int j = __ffs(bn) - 1;
        bn &= bn - 1;
        int d = __ldg(g.deg + x.path[j]);
        if (d < best) {
          best = d;
          basej = j;
        }
      }
      off = __ldg(g.indptr + x.path[basej]);
      len = best;
    } else {
      len = g.n;
    }
  }
  int fsz = 0, rsz = 0;
  for (i64 s = 0; s < len; s += 32) {
    i64 t = s + x.lane;
    int res = 0, c = -1;
    if (t < len) {
      if (srcslot >= 0)
        c = pget(x.ptw, x.pool, x.maxpg, srcslot, t);
      else if (basej >= 0)
        c = __ldg(g.indices + off + t);
      else
        c = (int)t;
      res = eval_cand(g, sp, x.path, lev, c, basej, off + t, skip, need_raw);
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
  x.rsz[lev] = rsz;
  return true;
}

// Push the not yet started candidates [it[2], sz[2]) of level 2 as (u, v, w) tasks.
__device__ bool split_level2(Ctx& x) {
  i64 n = x.sz[2] - x.it[2];
  if (n <= 0) return true;
  i64 pos;
  if (!q_reserve(x, n, pos)) return false;
  for (i64 s = 0; s < n; s += 32) {
    i64 t = s + x.lane;
    if (t < n) {
      int w = pget(x.ptw, x.pool, x.maxpg, 4, x.it[2] + t);
      q_put(x, pos + t, x.path[0], x.path[1], w);
    }
  }
  __syncwarp();
  return true;
}

// Depth-first search from level L (levels < L already in path). 0 done, 1 split, -1 abort.
__device__ int run_dfs(Ctx& x, int L) {
  int lev = L;
  if (!extend(x, lev, true)) return -1;
  if (lev == K - 1) return 0;
  x.it[lev] = 0;
  unsigned tick = 0;
  while (true) {
    if (x.it[lev] >= x.sz[lev]) {
      if (lev == L) return 0;
      --lev;
      x.it[lev]++;
      continue;
    }
    if ((++tick & 15u) == 0 && (warp_flags(x.ctl) & STOP_BITS)) return -1;
    if (x.use_q && lev == 2 && L == 2 && (i64)(warp_now() - x.t0) > x.tau) {
      if (split_level2(x)) return 1;
      x.t0 = warp_now();  // queue full: keep working locally
    }
    x.path[lev] = pget(x.ptw, x.pool, x.maxpg, 2 * lev, x.it[lev]);
    if (lev + 1 == K - 1) {
      if (!extend(x, lev + 1, true)) return -1;
      x.it[lev]++;
      continue;
    }
    ++lev;
    if (!extend(x, lev, true)) return -1;
    x.it[lev] = 0;
  }
}

// Recompute the raw sets of levels 2..D-1 that later levels reuse (prefix tasks).
__device__ bool seed_prefix(Ctx& x, int D) {
  for (int r = 2; r < D; ++r)
    if (x.sp[P_STORERAW + r])
      if (!extend(x, r, false)) return false;
  return true;
}

__device__ __forceinline__ void flush_count(Ctx& x) {
#if MODE == 0
  if (x.lane == 0 && x.acc) {
    u64 old = atomicAdd(x.ctl + C_COUNT, x.acc);
    if (old + x.acc < old) set_flag(x.ctl, F_OVERFLOW);
    x.acc = 0;
  }
#endif
}

extern "C" __global__ void __launch_bounds__(WPB * 32)
    static_dfs(const i64* indptr, const int* indices, const unsigned char* dircode,
               const int* owner, const int* deg, const unsigned char* loop, const int* nlab,
               const int* outl, const int* inl, const int* looplab, const unsigned char* root_ok,
               int n, const int* plan, int src_mode, i64 lo, i64 hi, const i64* tl_entry,
               const i64* tl_skip, i64 ntl, const i64* trie1, const int* t2par,
               const int* t2cand, const int* t3par, const int* t3cand, i64 nleaves, int tdepth,
               u64* ctl, int* queue, u64* qseq, i64 qcap, i64 timeout_ns, int* pt, int* pool, int maxpg,
               i64 npages, int* out, i64 outcap, i64* resume) {
  __shared__ int sp[P_SIZE];
  load_plan(sp, plan);
  Ctx x;
  x.g.indptr = indptr;
  x.g.indices = indices;
  x.g.dircode = dircode;
  x.g.owner = owner;
  x.g.deg = deg;
  x.g.loop = loop;
  x.g.nlab = nlab;
  x.g.outl = outl;
  x.g.inl = inl;
  x.g.looplab = looplab;
  x.g.root_ok = root_ok;
  x.g.n = n;
  x.sp = sp;
  x.lane = threadIdx.x & 31;
  const i64 gw = (i64)blockIdx.x * WPB + (threadIdx.x >> 5);
  x.ptw = pt + gw * NSLOT * (i64)maxpg;
  x.pool = pool;
  x.maxpg = maxpg;
  x.npages = npages;
  x.ctl = ctl;
  x.acc = 0;
  x.out = out;
  x.outcap = outcap;
  x.seen = 0;
  x.skip = 0;
  x.use_q = (MODE != 2) && timeout_ns > 0 && src_mode == 0;
  x.queue = queue;
  x.qseq = qseq;
  x.qcap = qcap;
  x.tau = timeout_ns;
  x.t0 = 0;
  const i64 ntask = src_mode == 0 ? ntl + (hi - lo) : nleaves;
  const int lane = x.lane;

  // Termination with the queue: C_ACTIVE counts warps that hold a task *or are trying to take
  // one* (counted before the attempt, uncounted on failure); a warp leaves only when it sees
  // C_ACTIVE == 0 and an empty queue after the roots ran out, i.e. when nobody can push again.
  // Idle warps attempt (and count themselves) only when the queue or the root cursor shows
  // work, so an idle grid cannot keep C_ACTIVE above 0.
  while (true) {
    if (warp_flags(ctl) & STOP_BITS) break;
    // 1) tasks split off by timed-out warps come first
    if (x.use_q) {
      int u, v, w;
      i64 qs = 0;
      if (lane == 0) {
        qs = (i64)(*((volatile u64*)(ctl + C_QSIZE)));
        if (qs > 0) atomicAdd(ctl + C_ACTIVE, 1ull);
      }
      qs = __shfl_sync(FULLMASK, qs, 0);
      if (qs > 0) {
        if (q_get(x, u, v, w)) {
          x.path[0] = u;
          x.path[1] = v;
          x.t0 = warp_now();
          int rc;
          if (w == -2) {
            rc = run_dfs(x, 2);
          } else {
            x.path[2] = w;
            rc = seed_prefix(x, 3) ? run_dfs(x, 3) : -1;
          }
          if (lane == 0) atomicAdd(ctl + C_ACTIVE, (u64)(-1ll));
          if (rc < 0) break;
          continue;
        }
        if (lane == 0) atomicAdd(ctl + C_ACTIVE, (u64)(-1ll));
      }
    }
    // 2) the next chunk of root tasks / trie leaves
    i64 c0 = 0;
    if (lane == 0) {
      c0 = (i64)(*((volatile u64*)(ctl + C_ROOTCUR)));
      if (c0 < ntask) {
        if (x.use_q) atomicAdd(ctl + C_ACTIVE, 1ull);
        c0 = (i64)atomicAdd(ctl + C_ROOTCUR, (u64)(src_mode == 0 ? ROOT_CHUNK : LEAF_CHUNK));
        if (c0 >= ntask && x.use_q) atomicAdd(ctl + C_ACTIVE, (u64)(-1ll));
      }
    }
    c0 = __shfl_sync(FULLMASK, c0, 0);
    if (c0 < ntask) {
      bool abort = false;
      if (src_mode == 0) {
        i64 c1 = c0 + ROOT_CHUNK < ntask ? c0 + ROOT_CHUNK : ntask;
        i64 t = c0 + lane;
        i64 e = 0, sk = 0;
        bool ok = false;
        if (t < c1) {
          if (t < ntl) {
            e = tl_entry[t];
            sk = tl_skip[t];
          } else {
            e = lo + (t - ntl);
          }
          ok = root_entry_ok(x.g, sp, e);
        }
        int u = ok ? __ldg(owner + e) : 0, v = ok ? __ldg(indices + e) : 0;
        unsigned rem = __ballot_sync(FULLMASK, ok);
        x.t0 = warp_now();
        while (rem) {
          int b = __ffs(rem) - 1;
          i64 skb = __shfl_sync(FULLMASK, sk, b);
          if (MODE == 2 && (warp_flags(ctl) & STOP_BITS)) {
            if (lane == 0) {
              resume[3 * gw] = c0 + b;
              resume[3 * gw + 1] = skb;
              resume[3 * gw + 2] = c1;
            }
            abort = true;
            break;
          }
          if (x.use_q && (i64)(warp_now() - x.t0) > x.tau) {
            i64 nrem = __popc(rem), pos;
            if (q_reserve(x, nrem, pos)) {
              if ((rem >> lane) & 1u) q_put(x, pos + __popc(rem & lanemask_lt()), u, v, -2);
              __syncwarp();
              rem = 0;
              break;
            }
            x.t0 = warp_now();
          }
          rem &= rem - 1;
          x.path[0] = __shfl_sync(FULLMASK, u, b);
          x.path[1] = __shfl_sync(FULLMASK, v, b);
          x.skip = skb;
          x.seen = 0;
          int rc = run_dfs(x, 2);
          if (rc < 0) {
#if MODE == 2
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
      } else {
        i64 c1 = c0 + LEAF_CHUNK < ntask ? c0 + LEAF_CHUNK : ntask;
        // raw sets of levels 2 (and 3) depend only on the leaf's trie ancestors: leaves of one
        // parent are mostly adjacent, so they are recomputed only when the ancestor changes
        i64 prev1 = -1, prev2 = -1;
        for (i64 t = c0; t < c1 && !abort; ++t) {
          i64 p1, p2 = -1;
          if (tdepth == 3) {
            x.path[3] = t3cand[t];
            p2 = t3par[t];
            x.path[2] = t2cand[p2];
            p1 = t2par[p2];
          } else {
            x.path[2] = t2cand[t];
            p1 = t2par[t];
          }
          i64 e = trie1[p1];
          x.path[0] = __ldg(owner + e);
          x.path[1] = __ldg(indices + e);
          if (p1 != prev1 && sp[P_STORERAW + 2] && !extend(x, 2, false)) abort = true;
          if (!abort && tdepth == 3 && p2 != prev2 && sp[P_STORERAW + 3] && !extend(x, 3, false))
            abort = true;
          prev1 = p1;
          prev2 = p2;
          if (!abort && run_dfs(x, tdepth + 1) < 0) abort = true;
        }
      }
      if (x.use_q && lane == 0) atomicAdd(ctl + C_ACTIVE, (u64)(-1ll));
      if (abort) break;
      continue;
    }
    if (!x.use_q) break;
    // 3) nothing to take: finished once no warp holds a task and the queue is empty
    int done = 0;
    if (lane == 0) {
      i64 act = (i64)(*((volatile u64*)(ctl + C_ACTIVE)));
      i64 qs = (i64)(*((volatile u64*)(ctl + C_QSIZE)));
      done = (act <= 0 && qs <= 0);
    }
    if (__shfl_sync(FULLMASK, done, 0)) break;
    __nanosleep(1000);
  }
  flush_count(x);
}

// ------------------------------------------------------------------ cuTS trie (BFS levels)
// Level 1: the root entries of [lo, hi) that pass the root conditions, one atomic per batch.
extern "C" __global__ void __launch_bounds__(WPB * 32)
    static_trie_roots(const i64* indptr, const int* indices, const unsigned char* dircode,
                      const int* owner, const int* deg, const unsigned char* loop,
                      const int* nlab, const int* outl, const int* inl, const int* looplab,
                      const unsigned char* root_ok, int n, const int* plan, i64 lo, i64 hi,
                      u64* cnt, i64* trie1, i64 cap, u64* ctl) {
  __shared__ int sp[P_SIZE];
  load_plan(sp, plan);
  Graph g;
  g.indptr = indptr;
  g.indices = indices;
  g.dircode = dircode;
  g.owner = owner;
  g.deg = deg;
  g.loop = loop;
  g.nlab = nlab;
  g.outl = outl;
  g.inl = inl;
  g.looplab = looplab;
  g.root_ok = root_ok;
  g.n = n;
  const int lane = threadIdx.x & 31;
  const i64 nw = (i64)gridDim.x * WPB;
  for (i64 s = lo + ((i64)blockIdx.x * WPB + (threadIdx.x >> 5)) * 32; s < hi; s += nw * 32) {
    i64 e = s + lane;
    bool ok = e < hi && root_entry_ok(g, sp, e);
    unsigned m = __ballot_sync(FULLMASK, ok);
    if (!m) continue;
    i64 base = 0;
    if (lane == 0) base = (i64)atomicAdd(cnt, (u64)__popc(m));
    base = __shfl_sync(FULLMASK, base, 0);
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
    static_trie_expand(const i64* indptr, const int* indices, const unsigned char* dircode,
                       const int* owner, const int* deg, const unsigned char* loop,
                       const int* nlab, const int* outl, const int* inl, const int* looplab,
                       int n, const int* plan, int d, const i64* trie1, const int* t2par,
                       const int* t2cand, i64 nparent, u64* cnt, int* opar, int* ocand,
                       i64 cap, u64* ctl) {
  __shared__ int sp[P_SIZE];
  load_plan(sp, plan);
  Graph g;
  g.indptr = indptr;
  g.indices = indices;
  g.dircode = dircode;
  g.owner = owner;
  g.deg = deg;
  g.loop = loop;
  g.nlab = nlab;
  g.outl = outl;
  g.inl = inl;
  g.looplab = looplab;
  g.root_ok = 0;
  g.n = n;
  const int lane = threadIdx.x & 31;
  int path[K];
  while (true) {
    i64 p = 0;
    if (lane == 0) p = (i64)atomicAdd(ctl + C_TRIECUR, 1ull);
    p = __shfl_sync(FULLMASK, p, 0);
    if (p >= nparent) break;
    i64 q = p;
    if (d == 3) {
      path[2] = t2cand[q];
      q = t2par[q];
    }
    i64 e = trie1[q];
    path[0] = __ldg(owner + e);
    path[1] = __ldg(indices + e);
    unsigned bn = (unsigned)sp[P_BN + d];
    int basej = -1, best = 0x7fffffff;
    while (bn) {
      int j = __ffs(bn) - 1;
      bn &= bn - 1;
      int dg = __ldg(deg + path[j]);
      if (dg < best) {
        best = dg;
        basej = j;
      }
    }
    i64 off = __ldg(indptr + path[basej]);
    for (i64 s = 0; s < best; s += 32) {
      i64 t = s + lane;
      int c = -1, res = 0;
      if (t < best) {
        c = __ldg(indices + off + t);
        res = eval_cand(g, sp, path, d, c, basej, off + t, 0u, false);
      }
      unsigned mo = __ballot_sync(FULLMASK, res & 2);
      if (!mo) continue;
      i64 base = 0;
      if (lane == 0) base = (i64)atomicAdd(cnt, (u64)__popc(mo));
      base = __shfl_sync(FULLMASK, base, 0);
      if (res & 2) {
        i64 w = base + __popc(mo & lanemask_lt());
        if (w < cap) {
          opar[w] = (int)p;
          ocand[w] = c;
        } else {
          set_flag(ctl, F_TRIEFULL);
        }
      }
    }
  }
}
