// Host-only check of STMatch's own readers on our converted inputs (no GPU needed).
// Build (from a copy of the kit's stmatch/ with src/config.h set to a variant):
//   nvcc -std=c++17 -I<stmatch copy> stmatch_inspect.cu -o stmatch_inspect
// usage: stmatch_inspect <graph prefix .../snap.txt> <pattern.g> [<pattern.g> ...]
// Prints the graph as STMatch's GraphPreprocessor read it (n, m, label histogram, a checksum
// of row offsets and column ids) and, per pattern, what PatternPreprocessor made of it:
// size, PatternMultiplicity (its automorphism count), number of slots (must be <=
// MAX_SLOT_NUM), the first-level partial order, and the job queue length (root edges kept).
#include <cstdio>
#include <cstring>
#include "src/gpu_match.cuh"

using namespace STMatch;

int main(int argc, char* argv[]) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <graph prefix> <pattern.g>...\n", argv[0]);
    return 2;
  }
  GraphPreprocessor g(argv[1]);
  unsigned long long h = 1469598103934665603ULL;
  for (long i = 0; i <= g.g.nnodes; i++) h = (h ^ (unsigned long long)g.g.rowptr[i]) * 1099511628211ULL;
  for (long i = 0; i < g.g.nedges; i++) h = (h ^ (unsigned long long)g.g.colidx[i]) * 1099511628211ULL;
  long hist[33] = {0};
  for (long i = 0; i < g.g.nnodes; i++) {
    int b = __builtin_ctz(g.g.vertex_label[i]);
    hist[b < 32 ? b : 32]++;
  }
  std::printf("graph n=%d m=%ld labeled=%d edge_induced=%d fnv=%llu labels:", g.g.nnodes,
              (long)g.g.nedges, (int)LABELED, (int)EDGE_INDUCED, h);
  for (int b = 0; b < 33; b++)
    if (hist[b]) std::printf(" %d:%ld", b, hist[b]);
  std::printf("\n");
  for (int a = 2; a < argc; a++) {
    PatternPreprocessor p(argv[a]);
    JobQueuePreprocessor q(g.g, p);
    std::printf("pattern %s k=%d multiplicity=%d slots=%d partial0=%u jobs=%d labels:", argv[a],
                (int)p.pat.nnodes, p.PatternMultiplicity, p.pat.rowptr[p.pat.nnodes - 1],
                (unsigned)p.pat.partial[0], (int)q.q.length);
    for (int i = 0; i < p.pat.nnodes; i++) std::printf(" %d", p.vertex_labels[i]);
    std::printf("\n");
  }
  return 0;
}
