// Counting without enumerating, for whole-pattern shapes the plan recognises (plan.shape):
// k-cliques, books (an edge plus t nodes joined to both ends; the diamond is the book of 2) and
// the 4-cycle. All run on the *rank graph*: vertices renumbered by (degree, id) ascending, each
// neighbour list sorted by rank, and split[r] = first position of r's list holding a neighbour of
// higher rank, so N+(r) = radj[split[r], ptr[r+1]) (the degree-ordered DAG, G2Miner / Chiba-
// Nishizeki) and N-(r) = radj[ptr[r], split[r]).
//
// Compile-time parameters (validated integers from engines/cuda/shapes.py):
//   KC      clique size (3..10)                                  [clique_count]
//   W       32-bit words per bitmap row: rows hold up to 32*W bits [clique_count]
//   CWPB    warps per block of clique_count (its shared memory grows with W)
//   TBOOK   twins of the book                                       [book_sum]
//   PACK16  1: 4-cycle counters packed two per 32-bit word (max degree < 65535) [c4_heavy]
//   TRB     rows of S per triangle task, 1..32 (fewer: shorter tasks on small graphs) [KC 3]
//   TPAIR   nodes joined to both poles of a pair-edge shape (>= 3)  [pair_edge]
#include "static_common.cuh"

#ifndef KC
#define KC 3
#endif
#ifndef W
#define W 4
#endif
#ifndef CWPB
#define CWPB 8
#endif
#ifndef TBOOK
#define TBOOK 2
#endif
#ifndef PACK16
#define PACK16 1
#endif
#ifndef TPAIR
#define TPAIR 3
#endif
#ifndef TRB
#define TRB 32  // rows per triangle task (KC == 3): 1..32
#endif

#define ROWS (32 * W)
#define TBITS 4096  // triangle membership bitmap: S's rank range up to this many ids
#define C4WPB 4  // warps per block of c4_light (8 KB of hash table each)

// ------------------------------------------------------------------ shared helpers
// (warp_sum_checked, add_count, warp_atomic_add, binom_checked, falling_checked:
// device_common.cuh; lower_bound_g: static_common.cuh)

// Position of x in the sorted shared array s[0, n), or -1.
__device__ __forceinline__ int find_shared(const int* s, int n, int x) {
  const int p = partition_point(0, n, [s, x](int m) { return s[m] < x; });
  return (p < n && s[p] == x) ? p : -1;
}

// Lane `t`'s row in a batch of up to 32 rows whose exclusive prefix sums of item counts sit in
// the lanes' `excl`: the largest r < nrows with excl[r] <= t (every lane must call it).
__device__ __forceinline__ int row_of_item(int excl, int nrows, int t) {
  int r = 0;
#pragma unroll
  for (int step = 16; step >= 1; step >>= 1) {
    int cand = r + step;
    int v = __shfl_sync(FULLMASK, excl, cand & 31);
    if (cand < nrows && v <= t) r = cand;
  }
  return r;
}

// Warp-wide exclusive prefix sum of x (returns it; total in *tot on every lane).
__device__ __forceinline__ int warp_excl_scan(int x, int lane, int* tot) {
  int s = x;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int y = __shfl_up_sync(FULLMASK, s, off);
    if (lane >= off) s += y;
  }
  *tot = __shfl_sync(FULLMASK, s, 31);
  return s - x;
}

// The items of a batch of up to 32 rows (a lane each; `nrows` of them), one per lane and 32 at
// a time: the lane's row holds `len` items at positions first, first + 1, ... (lanes past the
// batch: len 0). item(p) runs on the lane that takes position p; every lane must call this
// (lanes past the last item look up the last one: the shuffles need every lane).
template <typename F>
__device__ __forceinline__ void for_row_items(int len, i64 first, int nrows, int lane, F item) {
  int tot;
  const int excl = warp_excl_scan(len, lane, &tot);
  for (int t0 = 0; t0 < tot; t0 += 32) {
    const int t = t0 + lane;
    const int rr = row_of_item(excl, nrows, t < tot ? t : tot - 1);
    const int e_r = __shfl_sync(FULLMASK, excl, rr);
    const i64 f = __shfl_sync(FULLMASK, first, rr);
    if (t < tot) item(f + (t - e_r));
  }
}

// ------------------------------------------------------------------ k-cliques
// For vertex u (a warp): S = N+(u) (|S| = d <= ROWS) in shared memory, and the DAG adjacency
// among S as bitmap rows: bit j of row i iff S[j] in N+(S[i]) (so j > i: S is sorted by rank).
// Cliques whose lowest-rank vertex is u are chains i1 < i2 < ... with each S[i_{l+1}] in every
// earlier row: count_chains<KC-2> over every row, the last level by popcount.
// c: the elements of S that may extend the chain (set in the row of every chain vertex so far);
// D chain vertices are still to place, the last one counted by popcount.
template <int D>
__device__ __forceinline__ u64 count_chains(const unsigned* rows, const unsigned (&c)[W]) {
  if constexpr (D == 1) {
    int s = 0;
#pragma unroll
    for (int w = 0; w < W; ++w) s += __popc(c[w]);
    return (u64)s;
  } else {
    u64 s = 0;
#pragma unroll
    for (int w = 0; w < W; ++w) {
      unsigned m = c[w];
      while (m) {
        int j = w * 32 + __ffs(m) - 1;
        m &= m - 1;
        unsigned c2[W];
        unsigned any = 0;
#pragma unroll
        for (int v = 0; v < W; ++v) {
          c2[v] = c[v] & rows[j * W + v];
          any |= c2[v];
        }
        if (any) s += count_chains<D - 1>(rows, c2);
      }
    }
    return s;
  }
}

// Tasks (heaviest first; ctl[C_TRIECUR] is the cursor): for KC > 3 a vertex (rank) u with
// KC-1 <= |N+(u)| <= ROWS (verts[i]); for KC == 3 a vertex and a batch of TRB of its rows
// (verts[2i], verts[2i+1] = first row), so one heavy vertex is spread over several warps.
// sup != nullptr (KC == 3 only): also add, for every triangle, 1 to the support of its three
// edges (indexed by the edge's position in radj from its lower-rank end), for book counting.
// tptr != nullptr as well (apex lists): sup is a fill cursor per edge and each triangle writes
// its third vertex into the list of each of its edges, tl[tptr[p] ...] (pair_edge's input).
// KC == 3 without sup: membership in S is a bit test when S's rank range spans <= TBITS ids.
extern "C" __global__ void __launch_bounds__(CWPB * 32)
    clique_count(const i64* __restrict__ rptr, const i64* __restrict__ rsplit,
                 const int* __restrict__ radj, const int* __restrict__ verts, i64 nverts,
                 u64* ctl, int* sup, const i64* __restrict__ tptr, int* tl) {
  __shared__ int sS[CWPB][ROWS];
#if KC > 3
  __shared__ unsigned sRows[CWPB][ROWS * W];
#else
  __shared__ unsigned sBits[CWPB][TBITS / 32];
#endif
  const int lane = threadIdx.x & 31;
  const int wib = threadIdx.x >> 5;
  int* S = sS[wib];
  u64 cnt = 0, cnt_hi = 0;  // 128 bits: the wraps of cnt carry into cnt_hi
  while (true) {
    const i64 vi = (i64)warp_atomic_add(ctl + C_TRIECUR, 1ull);
    if (vi >= nverts) break;
#if KC == 3
    const int u = __ldg(verts + 2 * vi);
    const int row0 = __ldg(verts + 2 * vi + 1);
#else
    const int u = __ldg(verts + vi);
    const int row0 = 0;
#endif
    const i64 s0 = __ldg(rsplit + u);
    const int d = (int)(__ldg(rptr + u + 1) - s0);
    for (int i = lane; i < d; i += 32) S[i] = __ldg(radj + s0 + i);
#if KC > 3
    unsigned* rows = sRows[wib];
    for (int i = lane; i < d * W; i += 32) rows[i] = 0u;
#endif
    __syncwarp();
    const int smax = S[d - 1];
#if KC == 3
    // a bitmap of S over [S[0], smax] when it is narrow enough (counting only: books need j)
    const int sbase = S[0];
    const bool bits = (sup == nullptr) && (smax - sbase < TBITS);
    unsigned* B = sBits[wib];
    if (bits) {
      const int nw = ((smax - sbase) >> 5) + 1;
      for (int i = lane; i < nw; i += 32) B[i] = 0u;
      __syncwarp();
      for (int i = lane; i < d; i += 32) {
        const int o = S[i] - sbase;
        atomicOr(B + (o >> 5), 1u << (o & 31));
      }
      __syncwarp();
    }
#endif
    // rows in batches of 32: row r's items are either the elements of N+(S[r]) (searched in S,
    // shared) or the elements S[r+1..d) (searched in N+(S[r]), global), whichever is shorter
#if KC == 3
    const int row1 = min(d, row0 + TRB);
#else
    const int row1 = d;
#endif
    for (int base = row0; base < row1; base += 32) {
      const int r = base + lane;
      int len = 0, wv = 0, side = 0;
      i64 a0 = 0, a1 = 0;
      if (r < row1) {
        wv = S[r];
        a0 = __ldg(rsplit + wv);
        a1 = __ldg(rptr + wv + 1);
#if KC == 3
        // with the bitmap, walk all of N+(S[r]) (<= ROWS entries: W covers the DAG's largest
        // out-degree) and reject what lies beyond max(S) by the bit test's range check
        const bool nocut = bits;
#else
        const bool nocut = false;
#endif
        // N+(S[r]) beyond max(S) cannot meet S: cut it there (one search per row)
        const i64 cut = (!nocut && a1 > a0 && __ldg(radj + a1 - 1) > smax)
                            ? lower_bound_g(radj, a0, a1, smax + 1)
                            : a1;
        const int lenN = (int)(cut - a0);
        const int lenS = d - r - 1;
        // walking N+(S[r]) costs a coalesced read and a shared-memory search per element;
        // walking S costs a chain of global loads per element: prefer the former
        if (nocut || lenN <= 8 * lenS + 32) {
          len = lenN;
        } else {
          len = lenS;
          side = 1;
        }
      }
      // the batch's items, 32 at a time, one per lane: lane t's row rr is found from the
      // exclusive prefix sums of the rows' item counts (lanes past tot look up the last item:
      // every lane must take part in the shuffles)
      int tot;
      const int excl = warp_excl_scan(len, lane, &tot);
      const int nrows = min(32, row1 - base);
      for (int t0 = 0; t0 < tot; t0 += 32) {
        const int t = t0 + lane;
        const int rr = row_of_item(excl, nrows, t < tot ? t : tot - 1);
        const int e_r = __shfl_sync(FULLMASK, excl, rr);
        const int sd = __shfl_sync(FULLMASK, side, rr);
        const i64 b0 = __shfl_sync(FULLMASK, a0, rr);
        const i64 b1 = __shfl_sync(FULLMASK, a1, rr);
        if (t < tot) {
          const int pos = t - e_r;
          const int row = base + rr;
          int j = -1;
          i64 p = b0 + pos;  // position in radj of the edge S[row] -> S[j] (book support)
          if (sd == 0) {
#if KC == 3
            if (bits) {
              // j = 0 marks "in S" only: bits are used without sup, where j is not read
              const int o = __ldg(radj + p) - sbase;  // > S[row] - sbase >= 0
              j = (o <= smax - sbase && ((B[o >> 5] >> (o & 31)) & 1u)) ? 0 : -1;
            } else {
              j = find_shared(S, d, __ldg(radj + p));
            }
#else
            j = find_shared(S, d, __ldg(radj + p));
#endif
          } else {
            // walking S: item pos is S[row + 1 + pos] (S is rank-sorted, so above S[row]),
            // searched in the whole N+(S[row]); p is its position there
            j = row + 1 + pos;
            p = lower_bound_g(radj, b0, b1, S[j]);
            if (!(p < b1 && __ldg(radj + p) == S[j])) j = -1;
          }
          if (j >= 0) {
#if KC == 3
            cnt++;
            if (tptr) {  // apex lists: each edge of the triangle gets its third vertex
              tl[__ldg(tptr + s0 + row) + atomicAdd(sup + s0 + row, 1)] = S[j];
              tl[__ldg(tptr + s0 + j) + atomicAdd(sup + s0 + j, 1)] = S[row];
              tl[__ldg(tptr + p) + atomicAdd(sup + p, 1)] = u;
            } else if (sup) {  // book support: the triangle's three edges
              atomicAdd(sup + s0 + row, 1);
              atomicAdd(sup + s0 + j, 1);
              atomicAdd(sup + p, 1);
            }
#else
            atomicOr(rows + row * W + (j >> 5), 1u << (j & 31));
#endif
          }
        }
      }
    }
#if KC > 3
    __syncwarp();
    // cliques u, S[i], ...: chains starting from row i, one row per lane
    for (int i = lane; i < d; i += 32) {
      unsigned c[W];
#pragma unroll
      for (int w = 0; w < W; ++w) c[w] = rows[i * W + w];
      // one row's chains number at most C(ROWS - 1, KC - 2) < 2**57 (ROWS <= 512, shapes.py's
      // MAX_ROWS; KC <= 10): count_chains cannot wrap, the lane's running total can
      add_carrying(cnt, cnt_hi, count_chains<KC - 2>(rows, c));
    }
#endif
    __syncwarp();
  }
  warp_add_count(ctl, cnt, cnt_hi);
}

// ------------------------------------------------------------------ books from edge support
// Sum over edges of C(support, TBOOK) (support indexed by radj position; zero elsewhere).
extern "C" __global__ void __launch_bounds__(256)
    book_sum(const int* __restrict__ sup, i64 nnz, u64* ctl) {
  u64 s = 0, s_hi = 0;
  for (i64 p = (i64)blockIdx.x * blockDim.x + threadIdx.x; p < nnz;
       p += (i64)gridDim.x * blockDim.x) {
    const int c = __ldg(sup + p);
    if (c >= TBOOK) {
      bool big = false;
      const u64 b = binom_checked((u64)c, TBOOK, &big);
      if (big)  // past 64 bits: exactly, into the 128-bit count
        add_count_formula(ctl, (u64)c, TBOOK, true);
      else
        add_carrying(s, s_hi, b);
    }
  }
  warp_add_count(ctl, s, s_hi);
}

// ------------------------------------------------------------------ 4-cycles (ranked wedges)
// Every 4-cycle a-b-c-d is counted once at its highest-rank vertex a, with c the opposite
// vertex: for b in N-(a) and c in N(b) with c < a, cnt_a[c] += 1; then the cycles at a are
// sum over c of C(cnt_a[c], 2) (pairs {b, d} sharing c). Work: the ranked wedges, O(m * alpha).

// Light vertices (an upper bound of their wedges fits the table at load <= 1/2): a warp each,
// counters in a shared open-addressing table.
#define HT 1024
extern "C" __global__ void __launch_bounds__(C4WPB * 32)
    c4_light(const i64* __restrict__ rptr, const i64* __restrict__ rsplit,
             const int* __restrict__ radj, const int* __restrict__ verts, i64 nverts,
             u64* ctl) {
  __shared__ int hkey[C4WPB][HT];
  __shared__ int hcnt[C4WPB][HT];
  const int lane = threadIdx.x & 31;
  const int wib = threadIdx.x >> 5;
  int* K_ = hkey[wib];
  int* C_ = hcnt[wib];
  for (int i = lane; i < HT; i += 32) {
    K_[i] = -1;
    C_[i] = 0;
  }
  __syncwarp();
  u64 cnt = 0, cnt_hi = 0;  // 128 bits: the wraps of cnt carry into cnt_hi
  while (true) {
    const i64 vi = (i64)warp_atomic_add(ctl + C_TRIECUR, 1ull);
    if (vi >= nverts) break;
    const int a = __ldg(verts + vi);
    const i64 p0 = __ldg(rptr + a), p1 = __ldg(rsplit + a);
    for (i64 base = p0; base < p1; base += 32) {
      const i64 bi = base + lane;
      int len = 0;
      i64 q0 = 0;
      if (bi < p1) {
        const int b = __ldg(radj + bi);
        q0 = __ldg(rptr + b);
        len = (int)(lower_bound_g(radj, q0, __ldg(rptr + b + 1), a) - q0);  // c < a
      }
      const int nrows = (int)min((i64)32, p1 - base);
      // written out rather than through for_row_items: the lambda form changed the compiled
      // code, and this kernel ran 8% slower in the side-by-side run of the architecture work
      int tot;
      const int excl = warp_excl_scan(len, lane, &tot);
      for (int t0 = 0; t0 < tot; t0 += 32) {
        const int t = t0 + lane;
        const int rr = row_of_item(excl, nrows, t < tot ? t : tot - 1);
        const int e_r = __shfl_sync(FULLMASK, excl, rr);
        const i64 qq = __shfl_sync(FULLMASK, q0, rr);
        if (t < tot) {
          const int c = __ldg(radj + qq + (t - e_r));
          // open addressing, linear probing: the host sends only vertices whose wedge bound
          // keeps the table at most half full, so a free slot or c's own is always found
          unsigned h = ((unsigned)c * 2654435761u) >> 22;  // 10 bits
          while (true) {
            const int old = atomicCAS(K_ + h, -1, c);
            if (old == -1 || old == c) {
              atomicAdd(C_ + h, 1);
              break;
            }
            h = (h + 1) & (HT - 1);
          }
        }
      }
    }
    __syncwarp();
    // the cycles at a, and the table emptied for the next vertex. One vertex's sum cannot wrap
    // (its counters add up to the wedges a-b-c, at most 2m <= 2**32, and the sum of C(x, 2)
    // over them is at most C(2**32, 2) < 2**63); the lane's total over its vertices can
    u64 at_a = 0;
    for (int i = lane; i < HT; i += 32) {
      if (K_[i] != -1) {
        const u64 x = (u64)C_[i];
        at_a += x * (x - 1) / 2;
        K_[i] = -1;
        C_[i] = 0;
      }
    }
    add_carrying(cnt, cnt_hi, at_a);
    __syncwarp();
  }
  warp_add_count(ctl, cnt, cnt_hi);
}

// The block's next task from the shared cursor ctl[C_TRIECUR], for every thread of the block
// (s_vi: the block's shared slot; the first barrier keeps it until every thread has read it).
__device__ __forceinline__ i64 block_next_task(int& s_vi, u64* ctl) {
  __syncthreads();
  if (threadIdx.x == 0) s_vi = (int)atomicAdd(ctl + C_TRIECUR, 1ull);
  __syncthreads();
  return s_vi;
}

// Heavy vertices: a block each; the c-space [0, a) is swept in chunks of `chunk` ids whose
// counters live in dynamic shared memory (16-bit, two per word, when PACK16), each thread
// walking the part of its b's lists that falls in the chunk.
extern "C" __global__ void __launch_bounds__(1024)
    c4_heavy(const i64* __restrict__ rptr, const i64* __restrict__ rsplit,
             const int* __restrict__ radj, const int* __restrict__ verts, i64 nverts,
             int chunk, u64* ctl) {
  extern __shared__ unsigned cnt_words[];
  __shared__ int s_vi;
  __shared__ int s_items;
  const int nwords = PACK16 ? chunk / 2 : chunk;
  for (int i = threadIdx.x; i < nwords; i += blockDim.x) cnt_words[i] = 0u;
  u64 acc = 0, acc_hi = 0;  // 128 bits: the wraps of acc carry into acc_hi
  while (true) {
    const i64 vi = block_next_task(s_vi, ctl);
    if (vi >= nverts) break;
    const int a = __ldg(verts + vi);
    const i64 p0 = __ldg(rptr + a), p1 = __ldg(rsplit + a);
    u64 at_a = 0;  // this thread's part of a's sum: cannot wrap (c4_light says why)
    for (int lo = 0; lo < a; lo += chunk) {
      const int hi = min(a, lo + chunk);
      if (threadIdx.x == 0) s_items = 0;
      __syncthreads();
      int mine = 0;
      for (i64 bi = p0 + threadIdx.x; bi < p1; bi += blockDim.x) {
        const int b = __ldg(radj + bi);
        const i64 q1 = __ldg(rptr + b + 1);
        for (i64 q = lower_bound_g(radj, __ldg(rptr + b), q1, lo); q < q1; ++q) {
          const int c = __ldg(radj + q);
          if (c >= hi) break;  // lists are rank-sorted: the rest lies beyond this chunk
          const int o = c - lo;
#if PACK16
          atomicAdd(cnt_words + (o >> 1), 1u << (16 * (o & 1)));
#else
          atomicAdd(cnt_words + o, 1u);
#endif
          ++mine;
        }
      }
      if (mine) atomicAdd(&s_items, mine);
      __syncthreads();
      if (s_items) {  // skipped when no wedge fell in this chunk (every counter is zero)
        for (int i = threadIdx.x; i < nwords; i += blockDim.x) {
          const unsigned wv = cnt_words[i];
          if (wv) {
#if PACK16
            const u64 x0 = wv & 0xffffu, x1 = wv >> 16;  // x (x - 1) / 2 is 0 for x = 0
            at_a += x0 * (x0 - 1) / 2 + x1 * (x1 - 1) / 2;
#else
            const u64 x0 = wv;
            at_a += x0 * (x0 - 1) / 2;
#endif
            cnt_words[i] = 0u;
          }
        }
      }
      __syncthreads();  // counters zeroed and s_items read before the next chunk
    }
    add_carrying(acc, acc_hi, at_a);
  }
  warp_add_count(ctl, acc, acc_hi);
}

// ------------------------------------------------------------------ pair-edge shapes
// Two non-adjacent poles joined to TPAIR >= 3 further nodes, one edge among those (TPAIR = 3:
// T-DFS's P4). With c_ab = |N(a) & N(b)| and e_ab the edges inside N(a) & N(b), the number of
// unordered pole pairs with an edge and TPAIR - 2 further common neighbours, summed, is
//   U = sum over pairs {a, b} of e_ab * (c_ab - 2)_(TPAIR - 2)     (falling factorial)
// and the pattern's mappings are 4 U. At the higher-rank pole a (a block each): cnt[b] = c_ab for
// every b < a by walking the wedges a - m - b; then every triangle (a, x, y), x < y, is an edge of
// N(a) and each apex b < a of the edge (x, y) (its list in the apex lists tl) is a pole pair
// holding it: U += (cnt[b] - 2)_(TPAIR - 2). cnt is the block's own row of n counters in global
// memory, zeroed again by a second wedge walk.
// Position of the edge {x, y} (x < y in rank) in x's N+ list (it exists).
__device__ __forceinline__ i64 fwd_pos(const i64* __restrict__ rptr, const i64* __restrict__ rsplit,
                                       const int* __restrict__ radj, int x, int y) {
  return lower_bound_g(radj, __ldg(rsplit + x), __ldg(rptr + x + 1), y);
}

extern "C" __global__ void __launch_bounds__(256)
    pair_edge(const i64* __restrict__ rptr, const i64* __restrict__ rsplit,
              const int* __restrict__ radj, const i64* __restrict__ tptr,
              const int* __restrict__ tl, const int* __restrict__ verts, i64 nverts, i64 n,
              int* cnt_all, u64* ctl) {
  __shared__ int s_vi;
  const int lane = threadIdx.x & 31;
  const int wib = threadIdx.x >> 5;
  const int nw = blockDim.x >> 5;
  int* cnt = cnt_all + (i64)blockIdx.x * n;
  u64 acc = 0, acc_hi = 0;
  while (true) {
    const i64 vi = block_next_task(s_vi, ctl);
    if (vi >= nverts) break;
    const int a = __ldg(verts + vi);
    const i64 p0 = __ldg(rptr + a), p1 = __ldg(rptr + a + 1), ps = __ldg(rsplit + a);
    // wedges a - m - b, b < a: a warp per m, lanes over m's list below a
    for (i64 q = p0 + wib; q < p1; q += nw) {
      const int m = __ldg(radj + q);
      const i64 m0 = __ldg(rptr + m);
      const i64 m1 = lower_bound_g(radj, m0, __ldg(rptr + m + 1), a);
      for (i64 r = m0 + lane; r < m1; r += 32) atomicAdd(cnt + __ldg(radj + r), 1);
    }
    __syncthreads();
    // triangles (a, x, y) with x < y: a warp per x; batches of 32 apexes y of the edge {a, x},
    // whose edges {x, y} have apex lists walked by the whole warp
    for (i64 q = p0 + wib; q < p1; q += nw) {
      const int x = __ldg(radj + q);
      // the edge {a, x} as apex lists index it, from its lower-rank end: q itself when x > a
      const i64 ax = q >= ps ? q : fwd_pos(rptr, rsplit, radj, x, a);
      const i64 t0 = __ldg(tptr + ax), t1 = __ldg(tptr + ax + 1);
      for (i64 base = t0; base < t1; base += 32) {
        const i64 ti = base + lane;
        int len = 0;
        i64 l0 = 0;
        if (ti < t1) {
          const int y = __ldg(tl + ti);
          if (y > x) {  // each triangle (a, x, y) once
            const i64 xy = fwd_pos(rptr, rsplit, radj, x, y);
            l0 = __ldg(tptr + xy);
            len = (int)(__ldg(tptr + xy + 1) - l0);
          }
        }
        const int nrows = (int)min((i64)32, t1 - base);
        for_row_items(len, l0, nrows, lane, [&](i64 pos) {
          const int b = __ldg(tl + pos);
          if (b < a) {  // pole pairs are counted at their higher-rank pole
            const int c = cnt[b];  // >= 2: x and y
            bool big = false;
            const u64 v = falling_checked((u64)(c - 2), TPAIR - 2, &big);
            if (big)  // past 64 bits: exactly, into the 128-bit count
              add_count_formula(ctl, (u64)(c - 2), TPAIR - 2, false);
            else
              add_carrying(acc, acc_hi, v);
          }
        });
      }
    }
    __syncthreads();
    for (i64 q = p0 + wib; q < p1; q += nw) {  // zero the counters this pole touched
      const int m = __ldg(radj + q);
      const i64 m0 = __ldg(rptr + m);
      const i64 m1 = lower_bound_g(radj, m0, __ldg(rptr + m + 1), a);
      for (i64 r = m0 + lane; r < m1; r += 32) cnt[__ldg(radj + r)] = 0;
    }
  }
  warp_add_count(ctl, acc, acc_hi);
}
