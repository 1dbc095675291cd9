// Orbit images of a labelled pattern by existence checks (frequent subgraph mining's MNI
// support, engines/cuda/fsm_domains.py; the CPU twin is engines/cpu/fsm_domains.py).
//
// A launch takes the candidates cands[lo, hi) of one orbit g (vertices the orbit's
// representative may map to) and, for each candidate v not yet known (state byte of (g, v)
// UNKNOWN), searches for ONE embedding mapping the plan's step 0 to v. Found: the image of
// each step is marked IMAGE in its orbit's row of state (later candidates, of this launch and
// of later ones, that are marked need no search). None: (g, v) is marked NOT_IMAGE, and later
// searches never map a node of orbit g to v.
//
// One warp per candidate, taken from a launch-wide cursor (searches differ widely in length).
// The warp walks the plan depth first, cooperatively: at each step it scans the shortest
// neighbour list among the images of the earlier steps the step is joined to, 32 entries at a
// time, every lane testing one entry (edge usable and of the right label, neighbour's label,
// not NOT_IMAGE for the step's orbit, not an earlier image, joined with the right labels to
// the step's other earlier neighbours: binary searches in their sorted lists), and descends
// into the first entry that passes (a ballot's lowest bit), the rest of the batch kept for
// backtracking. A hub's list is thus scanned 32 entries per step, at every depth. The warp's
// state (images, list positions, batch masks) is identical in every lane; every branch on it
// is warp-uniform.
//
// Races are benign: a byte of state only ever changes from UNKNOWN to the one value that is
// true for it (IMAGE or NOT_IMAGE), and a search that misses another warp's mark only
// searches more. The host asks a launch to stop with F_STOP in ctl[C_FLAGS] (polled every
// POLL_MASK + 1 warp steps and before each candidate).
//
// The plan's table (plan/fsm.py: ExistencePlan.table) is a row of T_WIDTH ints per step; the
// host passes its column offsets (the plan's EXIST_* constants) as macros.
#define F_STOP 1u      // the host asks the launch to stop
#define F_OVERFLOW 2u  // (device_common.cuh's counting helpers; nothing is counted here)
#include "device_common.cuh"

#ifndef T_NODE
#define T_NODE 0
#endif
#ifndef T_LABEL
#define T_LABEL 1
#endif
#ifndef T_NADJ
#define T_NADJ 2
#endif
#ifndef T_ADJ
#define T_ADJ 3
#endif
#ifndef T_ELAB
#define T_ELAB 10
#endif
#ifndef T_WIDTH
#define T_WIDTH 17
#endif
#ifndef MAXK
#define MAXK 8  // plan/fsm.py: EXIST_MAX_NODES
#endif

// state bytes (engines/cpu/fsm_domains.py: UNKNOWN, IMAGE, NOT_IMAGE)
#define S_UNKNOWN 0
#define S_IMAGE 1
#define S_NOT_IMAGE 2

#define C_CURSOR 2  // next candidate of the launch (relative to lo)
#define FSM_THREADS 256
#define POLL_MASK 255u

// The kernel's argument, passed by value (engines/cuda/fsm_domains.py: ARGS packs it by field
// name; kernel_args.py reads the fields from here, one per line).
struct FsmArgs {
  const i64* indptr;
  const int* indices;
  const int* label;
  const int* elabel;
  const unsigned char* usable;
  const int* table;
  const int* orbit;
  unsigned char* state;
  const int* cands;
  i64 lo;
  i64 hi;
  i64 n;
  int k;
  int g;
  u64* ctl;
};

// Position of w in u's sorted list, or -1.
__device__ __forceinline__ i64 find_entry(const FsmArgs& a, int u, int w) {
  const i64 lo = __ldg(a.indptr + u), hi = __ldg(a.indptr + u + 1);
  const int* __restrict__ idx = a.indices;
  const i64 p = partition_point(lo, hi, [idx, w](i64 m) { return __ldg(idx + m) < w; });
  return (p < hi && __ldg(idx + p) == w) ? p : -1;
}

__device__ __forceinline__ i64 degree(const FsmArgs& a, int u) {
  return __ldg(a.indptr + u + 1) - __ldg(a.indptr + u);
}

// Entry e of the list of x (the image of step t's adjacency sa) as step t's image, with
// `lev` steps mapped (t is the step's row of the table, og its orbit).
__device__ __forceinline__ bool entry_ok(const FsmArgs& a, const int* t, int lev, int sa, int x,
                                         const int* path, i64 e, int og) {
  if (!__ldg(a.usable + e) || __ldg(a.elabel + e) != t[T_ELAB + sa]) return false;
  const int c = __ldg(a.indices + e);
  if (c == x || __ldg(a.label + c) != t[T_LABEL]) return false;
  if (a.state[(i64)og * a.n + c] == S_NOT_IMAGE) return false;
  for (int j = 0; j < lev; ++j)
    if (path[j] == c) return false;
  const int nadj = t[T_NADJ];
  for (int b = 0; b < nadj; ++b) {
    if (b == sa) continue;
    const i64 f = find_entry(a, path[t[T_ADJ + b]], c);
    if (f < 0 || !__ldg(a.usable + f) || __ldg(a.elabel + f) != t[T_ELAB + b]) return false;
  }
  return true;
}

// The warp's search: 1 when an embedding maps step 0 to v (its images left in path), 0 when
// none does, -1 when the host asked to stop. st / so: the plan's table and the orbit of each
// step (shared memory). Every lane of the warp must call it.
__device__ int search(const FsmArgs& a, const int* st, const int* so, int v, int lane,
                      int* path) {
  i64 cur[MAXK], end[MAXK], base[MAXK];
  unsigned mask[MAXK];
  int scan[MAXK];
  path[0] = v;
  int lev = 1;
  unsigned it = 0;
  bool open = true;
  while (true) {
    if (open) {  // start step lev: scan the shortest list among its earlier neighbours'
      const int* t = st + lev * T_WIDTH;
      int best = 0;
      i64 dbest = degree(a, path[t[T_ADJ]]);
      for (int b = 1; b < t[T_NADJ]; ++b) {
        const i64 d = degree(a, path[t[T_ADJ + b]]);
        if (d < dbest) {
          best = b;
          dbest = d;
        }
      }
      const int x = path[t[T_ADJ + best]];
      scan[lev] = best;
      cur[lev] = __ldg(a.indptr + x);
      end[lev] = __ldg(a.indptr + x + 1);
      mask[lev] = 0;
      open = false;
    }
    if ((++it & POLL_MASK) == 0 && (warp_flags(a.ctl) & F_STOP)) return -1;
    if (mask[lev] == 0) {
      if (cur[lev] >= end[lev]) {  // step exhausted: back to the previous one
        if (--lev == 0) return 0;
        continue;
      }
      const int* t = st + lev * T_WIDTH;
      const int sa = scan[lev];
      const int x = path[t[T_ADJ + sa]];
      const i64 e = cur[lev] + lane;
      const bool ok = e < end[lev] && entry_ok(a, t, lev, sa, x, path, e, so[lev]);
      mask[lev] = __ballot_sync(FULLMASK, ok);
      base[lev] = cur[lev];
      cur[lev] += 32;
      continue;
    }
    const int bit = __ffs(mask[lev]) - 1;
    mask[lev] &= mask[lev] - 1;
    path[lev] = __ldg(a.indices + base[lev] + bit);
    if (lev == a.k - 1) return 1;
    ++lev;
    open = true;
  }
}

extern "C" __global__ void __launch_bounds__(FSM_THREADS) fsm_domains(const FsmArgs a) {
  __shared__ int st[MAXK * T_WIDTH];
  __shared__ int so[MAXK];
  for (int i = threadIdx.x; i < a.k * T_WIDTH; i += blockDim.x) st[i] = __ldg(a.table + i);
  for (int i = threadIdx.x; i < a.k; i += blockDim.x) so[i] = __ldg(a.orbit + i);
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned char* own = a.state + (i64)a.g * a.n;
  int path[MAXK];
  while (true) {
    u64 t = 0;
    int s = S_UNKNOWN;
    if (lane == 0) {
      t = atomicAdd(a.ctl + C_CURSOR, 1ull);
      if (a.lo + (i64)t < a.hi) s = ((volatile const unsigned char*)own)[__ldg(a.cands + a.lo + t)];
    }
    t = __shfl_sync(FULLMASK, t, 0);
    s = __shfl_sync(FULLMASK, s, 0);
    const i64 pos = a.lo + (i64)t;
    if (pos >= a.hi || (warp_flags(a.ctl) & F_STOP)) break;
    if (s != S_UNKNOWN) continue;  // already known (marked by another search)
    const int v = __ldg(a.cands + pos);
    const int r = search(a, st, so, v, lane, path);
    if (r < 0) break;
    if (r > 0) {
      if (lane < a.k) a.state[(i64)so[lane] * a.n + path[lane]] = S_IMAGE;
    } else if (lane == 0) {
      own[v] = S_NOT_IMAGE;
    }
    __syncwarp();
  }
}
