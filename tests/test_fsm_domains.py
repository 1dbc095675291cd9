"""Orbit images by existence checks (frequent subgraph mining's MNI support) against an oracle.

The oracle lists every embedding of the pattern (NetworkX's
``GraphMatcher.subgraph_monomorphisms_iter``, categorical node and edge labels, the data
graph's self-loops dropped) and takes each pattern node's image set. Checked on small random
labelled graphs (with self-loops) and connected patterns of 2 to 5 edges:

- the plan (:func:`~nx_gpumine.plan.fsm.existence_plan`): a valid matching order;
- the CPU engine (:mod:`nx_gpumine.engines.cpu.fsm_domains`): every orbit's images and the
  MNI support equal the oracle's, and the early exits keep their promises (an infrequent
  pattern returns less than ``min_support``, ``exact=False`` at least ``min_support`` for a
  frequent one);
- the CUDA kernel's logic without a GPU: ``kernels/fsm_domains.cu`` compiled as host C++ (one
  std::thread per lane, the warp intrinsics emulated), driven by the CUDA host's rounds
  (:func:`~nx_gpumine.engines.cuda.fsm_domains.drive_rounds`), equals the CPU engine;
- on a GPU (marker ``gpu``): the CUDA engine equals the CPU engine.
"""

from __future__ import annotations

import random
import shutil
import subprocess

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

from nx_gpumine.engines.cpu.fsm_domains import orbit_images
from nx_gpumine.engines.cuda._runtime import KERNEL_DIR, preprocess_source
from nx_gpumine.engines.cuda.fsm_domains import ARGS, drive_rounds, kernel_defines
from nx_gpumine.engines.cuda.kernel_args import expected_layout, layout_probe_source
from nx_gpumine.inputs.static_graph import from_networkx
from nx_gpumine.plan.fsm import (
    EXIST_MAX_NODES,
    IMAGE,
    LabelledPattern,
    MiningArrays,
    canonical,
    existence_plan,
    labelled_orbits,
    orbit_search,
)

NL, EL = "c", "w"  # node and edge label attributes of the test graphs
NODE_VALUES, EDGE_VALUES = ("a", "b", "c"), (0, 1)


# ---------------------------------------------------------------- graphs and patterns
def random_graph(seed: int, n: int = 18, m: int = 40, loops: int = 3, skew: bool = True):
    """A labelled random graph (node labels skewed towards "a", two edge labels, a few
    self-loops) and its StaticGraph."""
    rng = random.Random(seed)
    G = nx.gnm_random_graph(n, m, seed=seed)
    weights = (4, 2, 1) if skew else (1, 1, 1)
    for v in G:
        G.nodes[v][NL] = rng.choices(NODE_VALUES, weights)[0]
    for u, v in G.edges():
        G.edges[u, v][EL] = rng.choice(EDGE_VALUES)
    for v in rng.sample(range(n), loops):
        G.add_edge(v, v, **{EL: rng.choice(EDGE_VALUES)})
    return G, from_networkx(G, node_label=NL, edge_label=EL, cache=False)


def arrays(g) -> MiningArrays:
    """The mining arrays of a StaticGraph with both labels (every entry usable)."""
    usable = np.ones(len(g.indices), dtype=bool)
    label, elabel = g.node_label.astype(np.int64), g.out_label.astype(np.int64)
    return MiningArrays(g.indptr, g.indices, label, elabel, usable)


def label_masks(g, p: LabelledPattern) -> list[np.ndarray]:
    """The weakest eligible masks: each node's label."""
    return [g.node_label == lab for lab in p.labels]


def pattern_of(g, labels, edges) -> LabelledPattern:
    """The canonical pattern of label values and ``(a, b, edge value)`` edges in g's codes."""
    nv, ev = g.node_vocab, g.edge_vocab
    return canonical([nv[x] for x in labels], [(a, b, ev[w]) for a, b, w in edges])


SHAPES = {
    "edge": [(0, 1)],
    "path2": [(0, 1), (1, 2)],
    "triangle": [(0, 1), (1, 2), (0, 2)],
    "path3": [(0, 1), (1, 2), (2, 3)],
    "star3": [(0, 1), (0, 2), (0, 3)],
    "cycle4": [(0, 1), (1, 2), (2, 3), (0, 3)],
    "paw": [(0, 1), (1, 2), (0, 2), (2, 3)],
    "path4": [(0, 1), (1, 2), (2, 3), (3, 4)],
    "diamond": [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)],
    "tailed_triangle2": [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4)],
    "tailed_c4": [(0, 1), (1, 2), (2, 3), (0, 3), (3, 4)],
    "path5": [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
}


def shape_pattern(g, shape: str, rng: random.Random, same_label: bool = False):
    """``shape`` with random labels among those g has ("a" or "b" for nodes)."""
    edges = SHAPES[shape]
    k = 1 + max(max(e) for e in edges)
    nodes = [x for x in NODE_VALUES[:2] if x in g.node_vocab] or sorted(g.node_vocab)
    labels = [nodes[0]] * k if same_label else [rng.choice(nodes) for _ in range(k)]
    values = sorted(g.edge_vocab)
    return pattern_of(g, labels, [(a, b, rng.choice(values)) for a, b in edges])


def sampled_pattern(G: nx.Graph, g, rng: random.Random, edges: int) -> LabelledPattern | None:
    """A connected pattern of ``edges`` edges copied from G (so it occurs), or None."""
    pool = [(u, v) for u, v in G.edges() if u != v]
    chosen = [rng.choice(pool)]
    nodes = set(chosen[0])
    while len(chosen) < edges:
        grow = [(u, v) for u, v in pool if (u in nodes or v in nodes) and (u, v) not in chosen]
        if not grow:
            return None
        e = rng.choice(grow)
        chosen.append(e)
        nodes |= set(e)
    ids = {v: i for i, v in enumerate(sorted(nodes))}
    labels = [G.nodes[v][NL] for v in sorted(nodes)]
    return pattern_of(g, labels, [(ids[u], ids[v], G.edges[u, v][EL]) for u, v in chosen])


# ---------------------------------------------------------------- the oracle
def oracle_images(G: nx.Graph, g, p: LabelledPattern) -> list[set]:
    """Each pattern node's image set, from every embedding NetworkX lists."""
    node_values = {c: v for v, c in g.node_vocab.items()}
    edge_values = {c: v for v, c in g.edge_vocab.items()}
    P = nx.Graph()
    for v, lab in enumerate(p.labels):
        P.add_node(v, **{NL: node_values[lab]})
    for a, b, el in p.edges:
        P.add_edge(a, b, **{EL: edge_values[el]})
    H = G.copy()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    nm = iso.categorical_node_match(NL, None)
    em = iso.categorical_edge_match(EL, None)
    out: list[set] = [set() for _ in range(p.k)]
    for mapping in iso.GraphMatcher(
        H, P, node_match=nm, edge_match=em
    ).subgraph_monomorphisms_iter():
        for data_node, pattern_node in mapping.items():
            out[pattern_node].add(data_node)
    return out


def check_against_oracle(G, g, p, eligible=None) -> int:
    """The CPU engine's exact result equals the oracle's; returns the MNI support."""
    want = oracle_images(G, g, p)
    groups = labelled_orbits(p)
    eligible = label_masks(g, p) if eligible is None else eligible
    got = orbit_images(arrays(g), p, eligible, groups, min_support=0)
    mni = min(len(s) for s in want)
    assert got.support == mni, p
    for gi, group in enumerate(groups):
        for v in group:
            assert want[v] == want[group[0]], (p, group)  # an orbit's nodes share their images
        assert set(np.flatnonzero(got.images[gi]).tolist()) == want[group[0]], (p, group)
        assert got.counts[gi] == len(want[group[0]])
    return mni


# ---------------------------------------------------------------- the plan
def test_existence_plan_is_a_matching_order():
    rng = random.Random(5)
    for shape, edges in SHAPES.items():
        k = 1 + max(max(e) for e in edges)
        p = canonical(
            [rng.randrange(2) for _ in range(k)], [(a, b, rng.randrange(2)) for a, b in edges]
        )
        adj = {(a, b): el for a, b, el in p.edges} | {(b, a): el for a, b, el in p.edges}
        for root in range(p.k):
            plan = existence_plan(p, root, sizes=[rng.randrange(10) for _ in range(p.k)])
            assert plan.root == root and plan.k == p.k and plan.nodes[0] == root, shape
            assert sorted(plan.nodes.tolist()) == list(range(p.k))
            assert plan.parents[0] == -1 and plan.adjacent(0) == []
            assert plan.labels.tolist() == [p.labels[v] for v in plan.nodes]
            for i in range(1, p.k):
                v = int(plan.nodes[i])
                want = sorted(
                    (j, adj[v, int(plan.nodes[j])])
                    for j in range(i)
                    if (v, int(plan.nodes[j])) in adj
                )
                assert plan.adjacent(i) == want and want, (shape, root, i)  # connected order
                assert plan.parents[i] == want[0][0]
            assert not plan.table.flags.writeable


def test_existence_plan_refuses_what_it_cannot_take():
    big = canonical([0] * (EXIST_MAX_NODES + 1), [(i, i + 1, 0) for i in range(EXIST_MAX_NODES)])
    with pytest.raises(ValueError, match="2 to 8 nodes"):
        existence_plan(big, 0)
    ok = canonical([0] * EXIST_MAX_NODES, [(i, i + 1, 0) for i in range(EXIST_MAX_NODES - 1)])
    assert existence_plan(ok, 0).k == EXIST_MAX_NODES
    with pytest.raises(ValueError, match="connected"):
        existence_plan(LabelledPattern((0, 0, 0, 0), ((0, 1, 0), (2, 3, 0))), 0)
    with pytest.raises(ValueError, match="root"):
        existence_plan(LabelledPattern((0, 0), ((0, 1, 0),)), 2)


def test_labelled_orbits_respect_labels():
    path = canonical([0, 0, 0], [(0, 1, 0), (1, 2, 0)])
    assert sorted(map(len, labelled_orbits(path))) == [1, 2]
    # the ends differ by edge label: three orbits
    assert len(labelled_orbits(canonical([0, 0, 0], [(0, 1, 0), (1, 2, 1)]))) == 3
    # or by node label
    assert len(labelled_orbits(canonical([0, 0, 1], [(0, 1, 0), (1, 2, 0)]))) == 3
    assert len(labelled_orbits(canonical([1, 1, 1], [(0, 1, 2), (1, 2, 2), (0, 2, 2)]))) == 1


def test_orbit_search_checks_its_inputs():
    p = canonical([0, 0, 0], [(0, 1, 0), (1, 2, 0)])
    masks = [np.ones(5, bool)] * 3
    with pytest.raises(ValueError, match="masks"):
        orbit_search(p, masks[:2])
    with pytest.raises(ValueError, match="partition"):
        orbit_search(p, masks, [[0, 1]])
    with pytest.raises(ValueError, match="shape"):
        orbit_search(p, [np.ones(5, bool), np.ones(5, bool), np.ones(4, bool)])


# ---------------------------------------------------------------- CPU engine vs the oracle
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_shapes_equal_the_oracle(shape):
    G, g = random_graph(11, n=20, m=48)
    rng = random.Random(shape)
    for same in (False, True):  # mixed labels, then one label everywhere (more symmetry)
        check_against_oracle(G, g, shape_pattern(g, shape, rng, same_label=same))


def test_sampled_patterns_equal_the_oracle():
    """Patterns copied from the graph (they occur), 2 to 5 edges, with the miner's masks."""
    from nx_gpumine.execution.fsm import GraphCodes

    G, g = random_graph(3, n=22, m=50)
    codes = GraphCodes.of(g)
    rng = random.Random(3)
    supports = []
    for edges in (2, 3, 4, 5):
        for _ in range(4):
            p = sampled_pattern(G, g, rng, edges)
            if p is not None:
                supports.append(check_against_oracle(G, g, p, codes.eligible(p)))
    assert len(supports) >= 12 and min(supports) >= 1


@given(seed=st.integers(0, 10**6), edges=st.integers(2, 5), skew=st.booleans())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_patterns_equal_the_oracle(seed, edges, skew):
    G, g = random_graph(seed, n=16, m=36, skew=skew)
    rng = random.Random(seed)
    p = sampled_pattern(G, g, rng, edges)
    if p is None:
        p = shape_pattern(g, "path2", rng)
    check_against_oracle(G, g, p)
    shape = rng.choice([s for s, e in SHAPES.items() if len(e) == edges] or ["triangle"])
    check_against_oracle(G, g, shape_pattern(g, shape, rng))  # may not occur at all


def test_self_loops_and_unusable_entries_never_match():
    # a self-loop alone does not make a triangle; a loop-free graph with one triangle does
    G = nx.Graph()
    G.add_nodes_from(range(4), **{NL: "a"})
    G.add_edges_from([(0, 0), (0, 1), (1, 1), (2, 3)], **{EL: 0})
    g = from_networkx(G, node_label=NL, edge_label=EL, cache=False)
    tri = pattern_of(g, "aaa", [(0, 1, 0), (1, 2, 0), (0, 2, 0)])
    assert orbit_images(arrays(g), tri, label_masks(g, tri), None, 0).support == 0
    path = pattern_of(g, "aaa", [(0, 1, 0), (1, 2, 0)])
    assert orbit_images(arrays(g), path, label_masks(g, path), None, 0).support == 0
    edge = pattern_of(g, "aa", [(0, 1, 0)])
    res = orbit_images(arrays(g), edge, label_masks(g, edge), None, 0)
    assert res.support == 4
    graph = arrays(g)
    usable, indptr = graph.usable.copy(), graph.indptr
    usable[indptr[2] : indptr[3]] = False  # vertex 2's entries: 2 -> 3 unusable
    usable[indptr[3] : indptr[4]] = False
    res = orbit_images(graph._replace(usable=usable), edge, label_masks(g, edge))
    assert res.support == 2 and set(np.flatnonzero(res.images[0])) == {0, 1}


# ---------------------------------------------------------------- early exits
def test_min_support_early_exits():
    G, g = random_graph(7, n=40, m=110, loops=2)
    rng = random.Random(7)
    seen = 0
    for shape in ("path2", "triangle", "path3", "star3", "cycle4", "paw"):
        for _ in range(3):
            p = shape_pattern(g, shape, rng)
            want = min(len(s) for s in oracle_images(G, g, p))
            if want == 0:
                continue
            seen += 1
            masks = label_masks(g, p)
            for exact in (True, False):
                # infrequent: below min_support, and an upper bound of the MNI
                low = orbit_images(arrays(g), p, masks, None, want + 1, exact)
                assert want <= low.support < want + 1, (p, exact)
                far = orbit_images(arrays(g), p, masks, None, 3 * want + 5, exact)
                assert want <= far.support < 3 * want + 5
                # frequent: exact, or at least min_support
                for ms in (1, want // 2, want):
                    got = orbit_images(arrays(g), p, masks, None, ms, exact)
                    if exact:
                        assert got.support == want, (p, ms)
                    else:
                        assert ms <= got.support <= want, (p, ms)
    assert seen >= 8


def test_orbits_left_unprocessed_are_minus_one():
    G, g = random_graph(2, n=30, m=70)
    p = pattern_of(g, "cc", [(0, 1, 0)])  # the rare label: few candidates
    res = orbit_images(arrays(g), p, label_masks(g, p), None, 10**6)
    assert res.support < 10**6 and (res.counts == -1).all()


def test_a_stopped_kernel_returns_minus_one():
    """The kernel polls its stop flag (Ctrl-C: engines/cpu/calls.py sets it): set before the
    call, no candidate is searched and the call reports -1."""
    from nx_gpumine.engines.cpu import fsm_domains as cpu

    _, g = random_graph(4, n=30, m=80)
    p = pattern_of(g, "aab", [(0, 1, 0), (1, 2, 1), (0, 2, 0)])
    search = orbit_search(p, label_masks(g, p))
    state = search.initial_state(g.n)
    before = state.copy()
    args = (tuple(arrays(g)), search.tables, search.step_orbits, state, search.cands, search.cptr)
    support, _ = cpu._orbit_rounds(*args, search.order, 0, True, np.ones(1, dtype=np.int64))
    assert support == -1 and np.array_equal(state, before)


# ---------------------------------------------------------------- the CUDA kernel on the CPU
CXX = shutil.which("g++") or shutil.which("c++")

HARNESS = r"""
#include <barrier>
#include <cstdio>
#include <thread>
#include <vector>

#define __device__
#define __global__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(x)
#define __shared__ static
struct Dim3 { unsigned x; };
static thread_local Dim3 threadIdx;
static Dim3 blockDim;
static std::barrier<>* block_meet;
static std::vector<std::barrier<>*> warp_meet;
static unsigned long long slot[64][32];

// a warp exchange: every lane posts v, then reads what f makes of the warp's 32 values
template <class T, class F>
static T exchange(T v, F f) {
  const unsigned w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  slot[w][lane] = (unsigned long long)v;
  warp_meet[w]->arrive_and_wait();
  const T r = f(slot[w], lane);
  warp_meet[w]->arrive_and_wait();
  return r;
}
template <class T> T __shfl_sync(unsigned, T v, int s) {
  return exchange(v, [s](const unsigned long long* x, unsigned) { return (T)x[s]; });
}
template <class T> T __shfl_xor_sync(unsigned, T v, int m) {
  return exchange(v, [m](const unsigned long long* x, unsigned l) { return (T)x[l ^ m]; });
}
static unsigned __ballot_sync(unsigned, int pred) {
  return exchange((unsigned)(pred != 0), [](const unsigned long long* x, unsigned) {
    unsigned m = 0;
    for (int l = 0; l < 32; ++l) m |= (unsigned)x[l] << l;
    return m;
  });
}
static void __syncwarp() { warp_meet[threadIdx.x >> 5]->arrive_and_wait(); }
static void __syncthreads() { block_meet->arrive_and_wait(); }
template <class T> T __ldg(const T* p) { return *p; }
static unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static int __popc(unsigned x) { return __builtin_popcount(x); }
template <class T> T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }

#include "fsm_domains.cu"

template <class T> static std::vector<T> read(long long len) {
  std::vector<T> v(len > 0 ? len : 1);
  for (long long i = 0; i < len; ++i) {
    long long x;
    std::scanf("%lld", &x);
    v[i] = (T)x;
  }
  return v;
}

// stdin: n nnz, indptr, indices, label, elabel, usable, k, table, orbit, ng, state, ncand,
// cands, lo hi g warps; stdout: state after the launch
int main() {
  long long n, nnz, k, ng, ncand, lo, hi, g, warps;
  std::scanf("%lld %lld", &n, &nnz);
  auto indptr = read<i64>(n + 1);
  auto indices = read<int>(nnz);
  auto label = read<int>(n);
  auto elabel = read<int>(nnz);
  auto usable = read<unsigned char>(nnz);
  std::scanf("%lld", &k);
  auto table = read<int>(k * T_WIDTH);
  auto orbit = read<int>(k);
  std::scanf("%lld", &ng);
  auto state = read<unsigned char>(ng * n);
  std::scanf("%lld", &ncand);
  auto cands = read<int>(ncand);
  std::scanf("%lld %lld %lld %lld", &lo, &hi, &g, &warps);
  std::vector<u64> ctl(C_WORDS, 0);
  FsmArgs a{indptr.data(), indices.data(), label.data(), elabel.data(), usable.data(),
            table.data(),  orbit.data(),   state.data(), cands.data(),  lo, hi, n, (int)k,
            (int)g,        ctl.data()};
  blockDim.x = 32 * warps;
  std::barrier<> block((int)(32 * warps));
  block_meet = &block;
  for (int w = 0; w < warps; ++w) warp_meet.push_back(new std::barrier<>(32));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 32 * warps; ++t)
    threads.emplace_back([&, t] {
      threadIdx.x = t;
      fsm_domains(a);
    });
  for (auto& t : threads) t.join();
  for (long long i = 0; i < ng * n; ++i) std::printf("%d ", (int)state[i]);
  std::printf("\n");
  return 0;
}
"""


@pytest.fixture(scope="module")
def kernel_on_cpu(tmp_path_factory):
    """``run(graph, search, state, g, lo, hi, warps)``: one launch of the CUDA kernel
    (host-compiled) on the MiningArrays ``graph`` over the candidates ``[lo, hi)`` of orbit
    ``g``, ``state`` updated."""
    if CXX is None:
        pytest.skip("no host C++ compiler")
    d = tmp_path_factory.mktemp("fsm_domains")
    (d / "harness.cpp").write_text(HARNESS)
    exe = d / "harness"
    macros = [f"-D{k}={v}" for k, v in kernel_defines().items()]
    cmd = [CXX, "-std=c++20", "-O1", "-pthread", "-I", str(KERNEL_DIR), *macros]
    proc = subprocess.run(
        [*cmd, "-o", str(exe), str(d / "harness.cpp")], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr

    def run(graph, search, state, g, lo, hi, warps):
        indptr, indices, label, elabel, usable = graph
        n = len(indptr) - 1

        def line(a) -> str:
            return " ".join(str(int(x)) for x in np.asarray(a).ravel())

        parts = [f"{n} {len(indices)}", line(indptr), line(indices), line(label), line(elabel)]
        parts += [line(usable.astype(np.uint8)), str(search.tables.shape[1])]
        parts += [line(search.tables[g]), line(search.step_orbits[g]), str(state.shape[0])]
        parts += [line(state), str(len(search.cands)), line(search.cands)]
        parts.append(f"{lo} {hi} {g} {warps}")
        out = subprocess.run(
            [str(exe)], input="\n".join(parts) + "\n", capture_output=True, text=True, check=True
        )
        state[...] = np.array(out.stdout.split(), dtype=np.uint8).reshape(state.shape)

    return run


def kernel_orbit_images(run, graph, p, eligible, min_support, exact, least, warps):
    """The CUDA engine's rounds over the host-compiled kernel."""
    n = len(graph.indptr) - 1
    search = orbit_search(p, eligible)
    state = search.initial_state(n)
    launches = []

    def launch(g, lo, hi):
        launches.append((g, lo, hi))
        run(graph, search, state, g, lo, hi, warps)

    def count(g, lo, hi):
        return int(np.count_nonzero(state[g][search.cands[lo:hi]] == IMAGE))

    support, counts = drive_rounds(search, min_support, exact, launch, count, least)
    return support, counts, [state[g] == IMAGE for g in range(len(search.groups))], launches


def test_cuda_kernel_on_the_cpu_equals_the_cpu_engine(kernel_on_cpu):
    G, g = random_graph(21, n=24, m=70, loops=2)
    graph = arrays(g)
    rng = random.Random(21)
    patterns = [shape_pattern(g, s, rng) for s in ("path2", "triangle", "cycle4", "paw", "path4")]
    patterns += [shape_pattern(g, s, rng, same_label=True) for s in ("star3", "diamond", "path3")]
    patterns += [p for p in (sampled_pattern(G, g, rng, e) for e in (3, 4, 5)) if p is not None]
    for i, p in enumerate(patterns):
        masks = label_masks(g, p)
        want = orbit_images(graph, p, masks, None, 0)
        assert want.support == min(len(s) for s in oracle_images(G, g, p))
        warps = 1 + i % 2  # two warps take candidates from one cursor too
        support, counts, images, launches = kernel_orbit_images(
            kernel_on_cpu, graph, p, masks, 0, True, least=5, warps=warps
        )
        assert support == want.support and counts.tolist() == want.counts.tolist(), p
        for a, b in zip(images, want.images, strict=True):
            assert np.array_equal(a, b), p
        assert len(launches) >= 1
    # the early exits of the rounds: infrequent below min_support, not exact at least it
    p = next(q for q in patterns if orbit_images(graph, q, label_masks(g, q), None, 0)[0] >= 3)
    want = orbit_images(graph, p, label_masks(g, p), None, 0).support
    low = kernel_orbit_images(kernel_on_cpu, graph, p, label_masks(g, p), want + 1, True, 2, 1)
    assert low[0] == want  # below want + 1, an upper bound of the MNI
    some = kernel_orbit_images(kernel_on_cpu, graph, p, label_masks(g, p), 2, False, 1, 1)
    assert 2 <= some[0] <= want


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
def test_kernel_struct_layout_equals_the_packing(tmp_path):
    """nvcc's host compiler lays FsmArgs out as the host packs it (as tests/test_kernel_args.py
    checks the other families' structs), and the source compiles with the layout probe."""
    src = "#include <cstddef>\n#include <cstdio>\n" + preprocess_source("fsm_domains.cu")
    src += layout_probe_source((ARGS,))
    src += "int main() {\n" + f'  std::printf("%zu\\n", sizeof({ARGS.name}));\n'
    for name in ARGS.names:
        src += f'  std::printf("%zu\\n", offsetof({ARGS.name}, {name}));\n'
    src += "  return 0;\n}\n"
    (tmp_path / "layout.cu").write_text(src)
    exe = tmp_path / "layout"
    flags = [f"-D{k}={v}" for k, v in kernel_defines().items()]
    cmd = ["nvcc", "-std=c++17", "-arch=sm_90", *flags, "-o", str(exe), str(tmp_path / "layout.cu")]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    assert [int(x) for x in out.split()] == expected_layout((ARGS,), {})
    assert ARGS.names[:5] == ("indptr", "indices", "label", "elabel", "usable")


# ---------------------------------------------------------------- the CUDA engine (GPU)
@pytest.mark.gpu
@pytest.mark.parametrize("exact", [True, False])
def test_cuda_equals_cpu(exact):
    from nx_gpumine.engines.cuda import fsm_domains as gpu
    from nx_gpumine.execution.fsm import GraphCodes

    for seed in range(4):
        G, g = random_graph(seed, n=200, m=900, loops=5)
        codes = GraphCodes.of(g)
        host = MiningArrays(g.indptr, g.indices, codes.label, codes.elabel, codes.usable)
        rng = random.Random(seed)
        for shape in ("path2", "triangle", "path3", "cycle4", "paw", "diamond", "path5"):
            p = shape_pattern(g, shape, rng)
            eligible = codes.eligible(p)
            want = orbit_images(host, p, eligible, None, 0)
            got = gpu.orbit_images(host, p, eligible, None, 0)
            assert got.support == want.support and got.counts.tolist() == want.counts.tolist()
            for a, b in zip(got.images, want.images, strict=True):
                assert np.array_equal(a, b), p
            if want.support == 0:
                continue
            ms = want.support
            assert gpu.orbit_images(host, p, eligible, None, ms + 1, exact).support < ms + 1
            lower = gpu.orbit_images(host, p, eligible, None, ms // 2 + 1, exact).support
            assert (lower == ms) if exact else (ms // 2 + 1 <= lower <= ms)


@pytest.mark.gpu
def test_cuda_hubs_equal_cpu():
    """A power-law graph (hubs of high degree: the warps scan their lists 32 at a time)."""
    from nx_gpumine.engines.cuda import fsm_domains as gpu

    G = nx.barabasi_albert_graph(3000, 4, seed=1)
    G.add_edges_from((0, v) for v in range(1, 3000, 2))  # one hub of degree > 1500
    rng = random.Random(1)
    for v in G:
        G.nodes[v][NL] = rng.choice("ab")
    for u, v in G.edges():
        G.edges[u, v][EL] = 0
    g = from_networkx(G, node_label=NL, edge_label=EL, cache=False)
    for shape in ("triangle", "path3", "cycle4", "diamond"):
        p = shape_pattern(g, shape, rng)
        masks = label_masks(g, p)
        want = orbit_images(arrays(g), p, masks, None, 0)
        got = gpu.orbit_images(arrays(g), p, masks, None, 0)
        assert got.support == want.support and got.counts.tolist() == want.counts.tolist()
