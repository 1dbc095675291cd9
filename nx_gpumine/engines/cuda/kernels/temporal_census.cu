// Census of the 36 three-edge temporal motifs on two or three nodes, on the GPU.
//
// The same walk as the CPU engine's census (engines/cpu/temporal.py: _census_range): from every
// root edge (u, v), every later edge e1 within the window touching {u, v} (each once, from the
// out- or in-list of the endpoint of lowest index), then every later e2 within the window whose
// both endpoints lie in the node set so far (at most three nodes); the pair of endpoint indices
// of e1 and e2 selects the motif. A warp takes one root at a time: its lanes share the level-1
// candidates of the four lists and each walks its candidates' level-2 lists. Counts are kept
// per thread (u64, 36 buckets) and summed through shared memory into the global
// counts array.
// Compile-time parameters: TFLOAT, IDX64, TIE, DELTA_ON (temporal_common.cuh).
#include "temporal_common.cuh"

#define NB 36

// Candidates of the out- (in=false) or in-list of x: ids >= lo_id with time - t0 <= delta.
__device__ __forceinline__ void level_range(const TGraph& g, int x, bool in, idx_t lo_id,
                                            tm_t t0, tm_t delta, const idx_t*& arr, idx_t& a,
                                            idx_t& b) {
  const idx_t* ptr = in ? g.in_ptr : g.out_ptr;
  arr = in ? g.in_edges : g.out_edges;
  const idx_t stop = ptr[x + 1];
  a = lower_id(arr, ptr[x], stop, lo_id);
  b = window_end(arr, a, stop, g.time, t0, t0, delta, false, delta);
}

// view: the graph without the walk index and the lists (temporal_data.py: graph_view).
extern "C" __global__ void __launch_bounds__(WPB * 32)
    temporal_census(const TGraph view, tm_t delta, i64 lo, i64 hi, const int* table, u64* ctl,
                    u64* counts) {
  // the arrays the walk reads, and g for level_range, as local copies, as the positional
  // parameters were (reads of the by-value view inside the loops compile to other code)
  const int* src = view.src;
  const int* dst = view.dst;
  const tm_t* time = view.time;
  const idx_t* next_id = view.next_id;
  const idx_t* out_edges = view.out_edges;
  const idx_t* in_edges = view.in_edges;
  TGraph g;
  g.src = src;
  g.dst = dst;
  g.time = time;
  g.next_id = next_id;
  g.out_ptr = view.out_ptr;
  g.out_edges = out_edges;
  g.in_ptr = view.in_ptr;
  g.in_edges = in_edges;
  g.n = view.n;
  g.m = view.m;
  __shared__ u64 block_counts[NB];
  __shared__ int tab[81];
  for (int i = threadIdx.x; i < NB; i += blockDim.x) block_counts[i] = 0;
  for (int i = threadIdx.x; i < 81; i += blockDim.x) tab[i] = table[i];
  __syncthreads();
  const int lane = threadIdx.x & 31;
  u64 mine[NB];  // per-thread buckets (local memory, L1-cached)
  for (int i = 0; i < NB; i++) mine[i] = 0;

  while (true) {
    const i64 e0 = lo + (i64)warp_atomic_add(ctl + C_CURSOR, 1ULL);
    if (e0 >= hi) break;
    const int u = src[e0], v = dst[e0];
    if (u == v) continue;  // warp-uniform: the whole warp holds this root
    const tm_t t0 = time[e0];
#if TIE == 0
    const idx_t lo1 = next_id[e0];
#else
    const idx_t lo1 = (idx_t)e0 + 1;
#endif
    // lanes 0..3 find the four level-1 ranges; everyone learns them by shuffles
    const idx_t* arr = nullptr;
    idx_t a = 0, b = 0;
    if (lane < 4) level_range(g, lane < 2 ? u : v, lane & 1, lo1, t0, delta, arr, a, b);
    idx_t len = b - a;
    idx_t start[4], count[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      start[j] = __shfl_sync(FULLMASK, a, j);
      count[j] = __shfl_sync(FULLMASK, len, j);
    }
    const idx_t total = count[0] + count[1] + count[2] + count[3];
    // the four ranges, concatenated, dealt to the lanes: item t is entry `off` of list j1 =
    // 2 * (node index in S) + (0 out, 1 in); lists out(u), in(u), out(v), in(v)
    for (idx_t t = lane; t < total; t += 32) {
      int j1 = 0;
      idx_t off = t;
      while (off >= count[j1]) {
        off -= count[j1];
        j1++;
      }
      const idx_t e1 = ((j1 & 1) ? in_edges : out_edges)[start[j1] + off];
      const int s1 = src[e1], d1 = dst[e1];
      if (s1 == d1) continue;
      int S[3] = {u, v, -1};  // the nodes by first appearance; e1 may bring the third
      int i_s = s1 == u ? 0 : s1 == v ? 1 : -1;
      int i_d = d1 == u ? 0 : d1 == v ? 1 : -1;
      const int jn = j1 >> 1;
      if ((j1 & 1) == 0) {  // out-list of S[jn]: counted there only if dst is not earlier
        if (i_d != -1 && i_d < jn) continue;
      } else {  // in-list of S[jn]: counted there only if src is later
        if (i_s != -1 && i_s <= jn) continue;
      }
      int ns = 2;
      if (i_s == -1) {
        S[2] = s1;
        i_s = 2;
        ns = 3;
      } else if (i_d == -1) {
        S[2] = d1;
        i_d = 2;
        ns = 3;
      }
      const int c2 = i_s * 3 + i_d;  // e1's code (CENSUS_TABLE)
#if TIE == 0
      const idx_t lo2 = next_id[e1];
#else
      const idx_t lo2 = e1 + 1;
#endif
      // level 2 (this lane alone): every later e2 in the window, from the lists of S's nodes
      // with the same first-list rule
      for (int j2 = 0; j2 < 2 * ns; j2++) {
        const idx_t* arr2;
        idx_t p2, q2;
        level_range(g, S[j2 >> 1], j2 & 1, lo2, t0, delta, arr2, p2, q2);
        const int jm = j2 >> 1;
        for (idx_t pp = p2; pp < q2; pp++) {
          const idx_t e2 = arr2[pp];
          const int s2 = src[e2], d2 = dst[e2];
          if (s2 == d2) continue;
          int k_s = -1, k_d = -1;
          for (int q = 0; q < ns; q++) {
            if (S[q] == s2) k_s = q;
            if (S[q] == d2) k_d = q;
          }
          if ((j2 & 1) == 0) {
            if (k_d != -1 && k_d < jm) continue;
          } else {
            if (k_s != -1 && k_s <= jm) continue;
          }
          if (k_s == -1 || k_d == -1) {
            if (ns == 3) continue;  // a fourth node: no census motif
            if (k_s == -1)
              k_s = 2;
            else
              k_d = 2;
          }
          const int idx = tab[c2 * 9 + k_s * 3 + k_d];
          if (idx >= 0) mine[idx]++;
        }
      }
    }
  }
  // per-thread buckets -> the block's (shared) -> the global counts: few global atomics
  for (int i = 0; i < NB; i++)
    if (mine[i]) atomicAdd(&block_counts[i], mine[i]);
  __syncthreads();
  for (int i = threadIdx.x; i < NB; i += blockDim.x)
    if (block_counts[i]) atomicAdd(counts + i, block_counts[i]);
}
