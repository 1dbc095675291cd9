// The subgraph census's building blocks (engines/cuda/census.py) on the rank graph of
// static_count.cu: grid-stride sums in 64 bits, each thread's adds checked (add_noting), the
// warp's sum checked (warp_sum_checked) and added to ctl[C_COUNT] (add_count); a wrap raises
// F_OVERFLOW and the host sums exactly instead. rptr: the rank graph's list offsets (n + 1);
// owner / radj: each position's vertex and neighbour; sup: each position's triangles (set at an
// edge's position in its lower-rank end's list, zero elsewhere).
#define F_OVERFLOW 2u
#include "device_common.cuh"

// a * b, noting a product past 64 bits in *ovf
__device__ __forceinline__ u64 mul_noting(u64 a, u64 b, bool* ovf) {
  *ovf |= __umul64hi(a, b) != 0;
  return a * b;
}

__device__ __forceinline__ void finish(u64 acc, bool ovf, u64* ctl) {
  acc = warp_sum_checked(acc, &ovf);
  if (ovf) set_flag(ctl, F_OVERFLOW);
  if ((threadIdx.x & 31) == 0) add_count(ctl, acc);
}

__device__ __forceinline__ u64 degree(const i64* __restrict__ rptr, i64 v) {
  return (u64)(__ldg(rptr + v + 1) - __ldg(rptr + v));
}

#define GRID_STRIDE(i, n) \
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)gridDim.x * blockDim.x)

// sum over vertices of C(d, s)
extern "C" __global__ void __launch_bounds__(256)
    census_stars(const i64* __restrict__ rptr, i64 n, int s, u64* ctl) {
  u64 acc = 0;
  bool ovf = false;
  GRID_STRIDE(v, n) { add_noting(acc, binom_checked(degree(rptr, v), s, &ovf), &ovf); }
  finish(acc, ovf, ctl);
}

// sum over positions (each edge twice) of (d_u - 1)(d_v - 1) (every listed vertex has d >= 1)
extern "C" __global__ void __launch_bounds__(256)
    census_paths(const i64* __restrict__ rptr, const int* __restrict__ owner,
                 const int* __restrict__ radj, i64 nnz, u64* ctl) {
  u64 acc = 0;
  bool ovf = false;
  GRID_STRIDE(p, nnz) {
    const u64 a = degree(rptr, __ldg(owner + p)) - 1, b = degree(rptr, __ldg(radj + p)) - 1;
    add_noting(acc, mul_noting(a, b, &ovf), &ovf);
  }
  finish(acc, ovf, ctl);
}

// sum over positions of C(sup, 2); with tv2, also 2 t_v: each support added to both its ends
extern "C" __global__ void __launch_bounds__(256)
    census_support(const int* __restrict__ sup, const int* __restrict__ owner,
                   const int* __restrict__ radj, i64 nnz, u64* tv2, u64* ctl) {
  u64 acc = 0;
  bool ovf = false;
  GRID_STRIDE(p, nnz) {
    const u64 t = (u64)__ldg(sup + p);
    if (t > 0) {
      add_noting(acc, t * (t - 1) / 2, &ovf);  // t < 2**31
      if (tv2) {
        atomicAdd(tv2 + __ldg(owner + p), t);
        atomicAdd(tv2 + __ldg(radj + p), t);
      }
    }
  }
  finish(acc, ovf, ctl);
}

// sum over vertices of t_v (d_v - 2), t_v = tv2 / 2 (a vertex with a triangle has d_v >= 2)
extern "C" __global__ void __launch_bounds__(256)
    census_tailed(const u64* __restrict__ tv2, const i64* __restrict__ rptr, i64 n, u64* ctl) {
  u64 acc = 0;
  bool ovf = false;
  GRID_STRIDE(v, n) {
    const u64 t = __ldg(tv2 + v) / 2;
    if (t > 0) add_noting(acc, mul_noting(t, degree(rptr, v) - 2, &ovf), &ovf);
  }
  finish(acc, ovf, ctl);
}

// The 2-path walk of the 5-node census (engines/cpu/census_walks.py's _cycle_rows, on the GPU):
// one block per node v (grid-stride), each block with its own n-word scratch rows cnt / touched
// (zero on entry, left zero). cnt[x] counts the 2-paths v - a - x (low 30 bits) and carries
// WALK_NBR for v's neighbours. Per node, into out[k * n + v]: c4_v, k23_v, house_v, tdeg_v
// (with edge_terms) and (A^5)_vv (with trace5), int64 (the host bounds them first).
#define WALK_NBR (1 << 30)
#define WALK_MASK (WALK_NBR - 1)

__device__ __forceinline__ i64 block_sum_i64(i64 v, i64* red) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULLMASK, v, off);
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
  __syncthreads();
  i64 s = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w) s += red[w];
  __syncthreads();
  return s;  // thread 0's is the block's sum
}

extern "C" __global__ void __launch_bounds__(256)
    census_walk2(const i64* __restrict__ indptr, const int* __restrict__ indices,
                 const i64* __restrict__ t, i64 n, int edge_terms, int trace5, int* scratch,
                 int* touched_rows, i64* out) {
  __shared__ int nt;
  __shared__ i64 red[8];
  int* cnt = scratch + (i64)blockIdx.x * n;
  int* touched = touched_rows + (i64)blockIdx.x * n;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  for (i64 v = blockIdx.x; v < n; v += gridDim.x) {
    const i64 v0 = indptr[v], v1 = indptr[v + 1], dv = v1 - v0;
    if (threadIdx.x == 0) nt = 0;
    for (i64 e = v0 + threadIdx.x; e < v1; e += blockDim.x) atomicOr(cnt + indices[e], WALK_NBR);
    __syncthreads();
    for (i64 e = v0 + warp; e < v1; e += warps) {  // a warp per neighbour a, its lanes over N(a)
      const int a = indices[e];
      for (i64 f = indptr[a] + lane; f < indptr[a + 1]; f += 32) {
        const int x = indices[f];
        if (x == v) continue;
        const int old = atomicAdd(cnt + x, 1);
        if ((old & WALK_MASK) == 0) touched[atomicAdd(&nt, 1)] = x;
      }
    }
    __syncthreads();
    i64 sq = 0, cube = 0, tr = 0, hs = 0, td = 0, diag3 = 0;
    for (int j = threadIdx.x; j < nt; j += blockDim.x) {
      const int x = touched[j];
      const i64 w = cnt[x] & WALK_MASK;
      sq += w * (w - 1) / 2;
      if (x > v) cube += w * (w - 1) * (w - 2) / 6;
      if (trace5) {
        const i64 dx = indptr[x + 1] - indptr[x];
        if (dx < dv || (dx == dv && x < v)) {  // else x's, over v's shorter row
          i64 a3 = (cnt[x] & WALK_NBR) ? dv : 0;
          for (i64 f = indptr[x]; f < indptr[x + 1]; ++f) a3 += cnt[indices[f]] & WALK_MASK;
          tr += 2 * w * a3;
        }
      }
    }
    for (i64 e = v0 + warp; e < v1; e += warps) {  // a warp per edge v - b on a triangle
      const i64 te = t[e];
      if (lane == 0) diag3 += te;
      if (te == 0 || !edge_terms) continue;
      const int b = indices[e];
      i64 s = 0, g = 0;
      for (i64 f = indptr[b] + lane; f < indptr[b + 1]; f += 32) {
        const int c = indices[f];
        if (c == v) continue;
        const int word = cnt[c];
        s += (word & WALK_MASK) - 1;  // b is one of v's and c's common neighbours
        if (word & WALK_NBR) g += indptr[c + 1] - indptr[c] - 2;
      }
      hs += te * s;
      td += te * g;
    }
    sq = block_sum_i64(sq, red);
    cube = block_sum_i64(cube, red);
    hs = block_sum_i64(hs, red);
    td = block_sum_i64(td, red);
    tr = block_sum_i64(tr, red);
    diag3 = block_sum_i64(diag3, red);
    if (threadIdx.x == 0) {
      out[v] = sq;
      out[n + v] = cube;
      out[2 * n + v] = hs;
      out[3 * n + v] = td;
      out[4 * n + v] = tr + dv * diag3;
    }
    for (int j = threadIdx.x; j < nt; j += blockDim.x) cnt[touched[j]] = 0;
    for (i64 e = v0 + threadIdx.x; e < v1; e += blockDim.x) cnt[indices[e]] = 0;
    __syncthreads();
  }
}
