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
