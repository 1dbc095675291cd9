// CPU model of the CUDA static engine's task-queue and termination protocol
// (engines/cuda/kernels/static_dfs.cu: q_reserve / q_put / q_get and the main loop), one thread
// per warp (lane-0 logic). Tasks are checksummed: every task must run exactly once and every
// thread must terminate. Built and run by tests/test_cuda_compile.py.
// usage: queue_model QCAP THREADS   (exit code 0 = exact)
// CPU model of the kernel's queue + termination protocol (lane-0 logic per "warp" thread;
// pushes of n items done by the pushing thread itself, like lanes of a warp).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#include <random>
typedef long long i64; typedef unsigned long long u64;
std::atomic<u64> qsize{0}, qfront{0}, qback{0}, active{0}, rootcur{0};
std::atomic<u64>* qseq; std::atomic<int>* qdata; i64 qcap;
std::atomic<long long> processed{0}, produced{0};
const i64 NROOT = 20000;
bool q_reserve(i64 n, i64& pos) {
  i64 old = (i64)qsize.load();
  while (old + n <= qcap) {
    u64 exp = (u64)old;
    if (qsize.compare_exchange_strong(exp, (u64)(old + n))) { pos = (i64)qback.fetch_add(n); return true; }
    old = (i64)exp;
  }
  return false;
}
void q_put(i64 pos, int u, int v, int w) {
  i64 slot = pos % qcap;
  while (qseq[slot].load(std::memory_order_acquire) != (u64)pos) std::this_thread::yield();
  qdata[3*slot].store(u, std::memory_order_relaxed); qdata[3*slot+1].store(v, std::memory_order_relaxed); qdata[3*slot+2].store(w, std::memory_order_relaxed);
  qseq[slot].store(pos + 1, std::memory_order_release);
}
bool q_get(int& u, int& v, int& w) {
  i64 old = (i64)qsize.load();
  bool ok = false;
  while (old > 0) { u64 exp = (u64)old; if (qsize.compare_exchange_strong(exp, (u64)(old - 1))) { ok = true; break; } old = (i64)exp; }
  if (!ok) return false;
  i64 pos = (i64)qfront.fetch_add(1); i64 slot = pos % qcap;
  while (qseq[slot].load(std::memory_order_acquire) != (u64)(pos + 1)) std::this_thread::yield();
  u = qdata[3*slot].load(std::memory_order_relaxed); v = qdata[3*slot+1].load(std::memory_order_relaxed); w = qdata[3*slot+2].load(std::memory_order_relaxed);
  qseq[slot].store(pos + qcap, std::memory_order_release);
  return true;
}
// a task (u, v, w): "work" = u*7+v*3+w checksum; tasks with w==-2 (root-level) may split into
// children (u, v, j) j=0..k-1; leaf tasks just count.
std::atomic<long long> checksum{0}, expect{0};
void process(int u, int v, int w, std::mt19937& rng) {
  if (w == -2) {
    int k = (u * 31 + v) % 50;  // children
    // decide to split (timeout) with prob 1/2: push all children at once, else do locally
    if (k > 0 && (rng() & 1)) {
      i64 pos;
      if (q_reserve(k, pos)) { for (int j = 0; j < k; ++j) q_put(pos + j, u, v, j); produced += k; return; }
    }
    for (int j = 0; j < k; ++j) { checksum += (long long)u * 7 + v * 3 + j; processed++; }
  } else { checksum += (long long)u * 7 + v * 3 + w; processed++; }
}
void warp(int id) {
  std::mt19937 rng(id);
  while (true) {
    i64 qs = (i64)qsize.load();
    if (qs > 0) {
      active.fetch_add(1);
      int u, v, w;
      if (q_get(u, v, w)) { process(u, v, w, rng); active.fetch_sub(1); continue; }
      active.fetch_sub(1);
    }
    i64 c0 = (i64)rootcur.load();
    if (c0 < NROOT) {
      active.fetch_add(1);
      c0 = (i64)rootcur.fetch_add(32);
      if (c0 >= NROOT) active.fetch_sub(1);
    }
    if (c0 < NROOT) {
      i64 c1 = std::min(c0 + 32, NROOT);
      for (i64 t = c0; t < c1; ++t) {
        // root split of the rest of the chunk (prob 1/8)
        if ((rng() & 7) == 0 && t + 1 < c1) {
          i64 pos; i64 n = c1 - t;
          if (q_reserve(n, pos)) { for (i64 j = 0; j < n; ++j) q_put(pos + j, (int)(t + j), (int)((t + j) % 97), -2); break; }
        }
        process((int)t, (int)(t % 97), -2, rng);
      }
      active.fetch_sub(1);
      continue;
    }
    i64 act = (i64)active.load(); i64 q = (i64)qsize.load();
    if (act <= 0 && q <= 0) break;
    std::this_thread::yield();
  }
}
int main(int argc, char** argv) {
  qcap = atoi(argv[1]); int nthreads = atoi(argv[2]);
  qseq = new std::atomic<u64>[qcap]; qdata = new std::atomic<int>[3 * qcap];
  for (i64 i = 0; i < qcap; ++i) qseq[i] = i;
  std::vector<std::thread> th; for (int i = 0; i < nthreads; ++i) th.emplace_back(warp, i);
  for (auto& t : th) t.join();
  long long exp = 0, cnt = 0;
  for (i64 t = 0; t < NROOT; ++t) { int u = t, v = t % 97, k = (u * 31 + v) % 50; for (int j = 0; j < k; ++j) { exp += (long long)u * 7 + v * 3 + j; cnt++; } }
  printf("qcap=%lld threads=%d processed=%lld expected=%lld checksum_ok=%d qsize=%llu active=%llu\n", qcap, nthreads, (long long)processed, cnt, (int)(checksum == exp), (u64)qsize, (u64)active);
  return !(checksum == exp && processed == cnt);
}
