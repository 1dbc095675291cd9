"""Out-of-core runs on one GPU (issue 12): slowdown under a device memory budget, one big graph.

usage: python3 benchmarks/bench_out_of_core.py [--out DIR] [--deadline S] [--repeat R]
       [--patterns P1,P2,P7] [--motifs M1,M4,M8] [--fractions 1,0.25,0.1]
       [--placements managed,pinned] [--skip-static] [--skip-temporal]
       [--big [--big-edges E] [--big-samples K] [--big-budget BYTES]]

Static: pl10m (``powerlaw_graph.py 2000000 10000000 2.3 3000 1``) with the T-DFS patterns P1
(diamond), P2 (4-clique), P7 (5-clique), counted by the public
``count_subgraphs(..., engine="cuda", max_device_bytes=B)`` with ``B`` = 100%, 25% and 10% of
the engine's own in-memory estimate (``engines.cuda.static.device_need``), for each out-of-core
placement. Temporal: the 10M-edge graph (``gen_temporal.py --seed 1``) with Everest M1, M4, M8 at
delta = 1 day, budgets likewise (``engines.cuda.temporal.device_need``). Each cell: warm-up call,
then ``--repeat`` timed calls (host clock), the count (must equal the in-memory count), the
engine's statistics (chunks / partitions, warps, hot bytes) and the peak of CuPy's pool (device
memory the engine allocated; managed and pinned host memory are outside it) plus the hot
blocks prefetched to the device; slowdown = time / time at 100%.

``--big``: one static graph whose in-memory need exceeds the GPU's memory (default 1.2e9 edges,
built on the GPU in pieces by :func:`big_graph`: power-law endpoints with an expected-degree
cap ``--big-max-degree``, duplicates and self-loops dropped), a triangle count with the default
budget (the device's memory minus the margin: out of core, the CSR page-locked in place), and
``--big-samples`` root ranges counted on the GPU and by the CPU engine. Static counts are distinct
subgraphs (engine-level ``count`` with the symmetry-broken plan, as ``count_subgraphs`` runs
it). Writes ``out_of_core.json`` to ``--out`` (default ``$OUT``, else ``.``), stopping before
``--deadline``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_common import POWERLAW, powerlaw_source, t_dfs_pattern  # noqa: E402
from gen_temporal import generate as gen_temporal  # noqa: E402
from powerlaw_graph import generate as gen_powerlaw  # noqa: E402

import nx_gpumine as ng  # noqa: E402

PL10M = POWERLAW["pl10m"]
DAY = 86400


class PeakPool:
    """Tracks the peak bytes in use of CuPy's default memory pool (an allocator wrapper)."""

    def __init__(self) -> None:
        import cupy as cp

        self.cp = cp
        self.pool = cp.get_default_memory_pool()
        self.peak = 0
        cp.cuda.set_allocator(self.malloc)

    def malloc(self, size: int):
        mp = self.pool.malloc(size)
        self.peak = max(self.peak, self.pool.used_bytes())
        return mp

    def reset(self) -> None:
        self.peak = self.pool.used_bytes()


def free_device(graph, plan=None) -> None:
    """Drop every device copy of ``graph`` (static or temporal) and of ``plan``'s work buffers,
    and return the pool's memory, so that each budget starts from an empty device."""
    import cupy as cp

    from nx_gpumine.engines.cuda import static_device, temporal_data

    if plan is not None:
        static_device.PLAN_DATA.pop(plan, None)  # every device's entry
        temporal_data.PLAN_DATA.pop(plan, None)
    if hasattr(graph, "forget_derived"):
        for prefix in ("cuda_static_graph", "cuda_static_graph_ooc", "cuda_rank_graph"):
            graph.forget_derived(prefix)
    graph.forget_device_data()
    gc.collect()
    cp.get_default_memory_pool().free_all_blocks()


def timed(fn, repeat: int) -> tuple[object, float, list[float]]:
    t = time.perf_counter()
    first = fn()
    first_s = time.perf_counter() - t
    walls = []
    for _ in range(repeat if first_s < 60 else 0):
        t = time.perf_counter()
        r = fn()
        walls.append(time.perf_counter() - t)
        if r != first:
            raise AssertionError(f"inconsistent results {r} != {first}")
    return first, first_s, walls


def stats_of(mod) -> dict:
    return {k: v for k, v in mod.last_run.items() if isinstance(v, int | float | str | bool)}


def budget_row(call, repeat: int, head: dict, budget: int, need: dict, peak, mod, base) -> dict:
    """Time the budgeted count ``call`` into a results row starting with ``head``.

    ``count_equal`` and ``slowdown`` compare with ``base`` (the first row of the query; this
    row when None). A CapacityError of ``call`` passes through.
    """
    c, first_s, walls = timed(call, repeat)
    wall = float(np.median(walls)) if walls else first_s
    row = {
        **head,
        "budget_bytes": budget,
        "need_bytes": need,
        "count": int(c),
        "first_s": first_s,
        "wall_s": wall,
        "walls_s": walls,
        "peak_pool_bytes": peak.peak,
        "stats": stats_of(mod),
    }
    base = row if base is None else base
    row["count_equal"] = int(c) == base["count"]
    row["slowdown"] = wall / base["wall_s"] if base["wall_s"] else None
    return row


def bench_static(args, peak: PeakPool, t0: float, out: dict) -> None:
    from nx_gpumine.engines.cuda import static as gs
    from nx_gpumine.inputs.static_graph import from_arrays
    from nx_gpumine.plan.static_plan import static_plan

    t = time.perf_counter()
    a, b = gen_powerlaw(*PL10M, device=True)
    g = from_arrays(a, b, num_nodes=PL10M[0])
    out["static_graph"] = {
        "name": "pl10m",
        "source": powerlaw_source(PL10M),
        "n": g.n,
        "entries": len(g.indices),
        "build_s": time.perf_counter() - t,
    }
    rows = out.setdefault("static", [])
    for pname in args.patterns:
        pat = t_dfs_pattern(pname)  # distinct count
        plan = static_plan(pat, g, induced=False, distinct=True)
        need = gs.device_need(g, plan)
        base = None
        for frac in args.fractions:
            for placement in args.placements if frac < 1 else ["-"]:
                if time.perf_counter() - t0 > args.deadline:
                    rows.append({"pattern": pname, "fraction": frac, "skipped": "deadline"})
                    continue
                budget = int(frac * need["total"])
                free_device(g, plan)
                peak.reset()

                def call(budget=budget, placement=placement, plan=plan):
                    kw = {} if placement == "-" else {"placement": placement}
                    return gs.count(g, plan, max_device_bytes=budget, **kw)

                head = {"pattern": pname, "fraction": frac, "placement": placement}
                try:
                    row = budget_row(call, args.repeat, head, budget, need, peak, gs, base)
                except ng.CapacityError as exc:
                    rows.append({**head, "capacity_error": str(exc)})
                    continue
                base = row if base is None else base
                rows.append(row)
                print(json.dumps({k: row[k] for k in ("pattern", "fraction", "placement",
                      "count", "wall_s", "slowdown", "peak_pool_bytes")}), flush=True)  # fmt: skip
    free_device(g)


def bench_temporal(args, peak: PeakPool, t0: float, out: dict) -> None:
    from nx_gpumine.engines.cuda import temporal as gt
    from nx_gpumine.inputs.motifs import named_motif
    from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
    from nx_gpumine.plan.temporal_plan import build_temporal_plan

    t = time.perf_counter()
    src, dst, tt = gen_temporal(seed=1)
    g = temporal_from_arrays(src, dst, tt)
    out["temporal_graph"] = {"source": "gen_temporal.py --seed 1", "n": g.n, "m": g.m,
                             "build_s": time.perf_counter() - t}  # fmt: skip
    rows = out.setdefault("temporal", [])
    for mname in args.motifs:
        plan = build_temporal_plan(named_motif(mname, DAY), g)
        need = gt.device_need(g, plan)
        base = None
        for frac in args.fractions:
            if time.perf_counter() - t0 > args.deadline:
                rows.append({"motif": mname, "fraction": frac, "skipped": "deadline"})
                continue
            budget = int(frac * need["total"])
            free_device(g, plan)
            peak.reset()
            head = {"motif": mname, "delta_s": DAY, "fraction": frac}
            try:
                row = budget_row(
                    lambda b=budget, p=plan: gt.count(g, p, max_device_bytes=b),
                    args.repeat,
                    head,
                    budget,
                    need,
                    peak,
                    gt,
                    base,
                )
            except ng.CapacityError as exc:
                rows.append({"motif": mname, "fraction": frac, "capacity_error": str(exc)})
                continue
            base = row if base is None else base
            rows.append(row)
            print(json.dumps({k: row[k] for k in ("motif", "fraction", "count", "wall_s",
                  "slowdown", "peak_pool_bytes")}), flush=True)  # fmt: skip
    free_device(g)


def big_graph(m: int, n: int, max_degree: int, seed: int = 5, chunk: int = 200_000_000):
    """A simple undirected power-law graph of about ``m`` edges, built on the GPU in pieces.

    Endpoints are drawn with weights ``(i + 10) ** (-1 / 1.3)`` capped so that no vertex
    expects more than ``max_degree`` neighbours; self-loops and duplicates are dropped. Both
    directions of each edge go to host buckets by owner range (chunks of draws sorted on the
    GPU), then each range is deduplicated on the GPU and written into the CSR: host memory
    holds the buckets (8 bytes per entry) and the CSR (5 bytes per entry), never a copy of
    both plus sort scratch, so billions of edges fit the device machine's host memory.
    """
    import cupy as cp

    from nx_gpumine.inputs.static_graph import StaticGraph

    w = (cp.arange(n, dtype=cp.float64) + 10.0) ** (-1.0 / 1.3)
    for _ in range(3):  # cap the expected degree 2 m w / sum(w)
        w = cp.minimum(w, max_degree * w.sum() / (2.0 * m))
    c = cp.cumsum(w)
    c /= c[-1]
    nranges = 32
    bounds = cp.searchsorted(c, cp.linspace(0.0, 1.0, nranges + 1)[1:-1]).get()
    bounds = np.unique(np.concatenate([[0], bounds, [n]])).astype(np.int64)
    buckets: list[list[np.ndarray]] = [[] for _ in range(len(bounds) - 1)]
    rng = cp.random.default_rng(seed)
    draws = int(m * 1.03) + 1000  # duplicates and loops dropped below
    for lo in range(0, draws, chunk):
        k = min(chunk, draws - lo)
        s = cp.searchsorted(c, rng.random(k))
        d = cp.searchsorted(c, rng.random(k))
        keep = s != d
        s, d = s[keep], d[keep]
        keys = cp.unique(cp.concatenate([s * n + d, d * n + s]))
        del s, d, keep
        cut = cp.searchsorted(keys, cp.asarray(bounds * n)).get()
        for r in range(len(buckets)):
            if cut[r + 1] > cut[r]:
                buckets[r].append(keys[int(cut[r]) : int(cut[r + 1])].get())
        del keys
    counts = np.zeros(n, dtype=np.int64)
    parts = []
    for r in range(len(buckets)):
        keys = cp.unique(cp.asarray(np.concatenate(buckets[r]))) if buckets[r] else None
        buckets[r] = []
        if keys is None:
            continue
        owner = keys // n
        counts[bounds[r] : bounds[r + 1]] = cp.bincount(
            owner - int(bounds[r]), minlength=int(bounds[r + 1] - bounds[r])
        ).get()
        parts.append((keys % n).astype(cp.int32).get())
        del keys, owner
    indices = np.empty(int(counts.sum()), dtype=np.int32)
    pos = 0
    for p in parts:
        indices[pos : pos + len(p)] = p
        pos += len(p)
    del parts
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    cp.get_default_memory_pool().free_all_blocks()
    return StaticGraph(
        directed=False,
        indptr=indptr,
        indices=indices,
        dircode=np.full(len(indices), 3, dtype=np.uint8),
        loop=np.zeros(n, dtype=np.uint8),
        keys=range(n),
    )


def bench_big(args, t0: float, out: dict) -> None:
    import cupy as cp

    from nx_gpumine.engines.cpu import static as cs
    from nx_gpumine.engines.cuda import static as gs
    from nx_gpumine.inputs.patterns import as_pattern
    from nx_gpumine.plan.static_plan import static_plan

    free, total = cp.cuda.runtime.memGetInfo()
    m = int(args.big_edges)
    n = max(m // 25, 1000)
    t = time.perf_counter()
    g = big_graph(m, n, int(args.big_max_degree))
    gen_s = time.perf_counter() - t
    plan = static_plan(as_pattern("triangle"), g, induced=False, distinct=True)
    need = gs.device_need(g, plan)
    row = {
        "edges": int(len(g.indices) // 2),
        "n": g.n,
        "entries": len(g.indices),
        "max_degree": int(np.diff(g.indptr).max()),
        "host_csr_bytes": int(g.indptr.nbytes + g.indices.nbytes + g.dircode.nbytes),
        "device_free_bytes": int(free),
        "device_total_bytes": int(total),
        "need_bytes": need,
        "generate_s": gen_s,
        "max_degree_cap": int(args.big_max_degree),
        "pattern": "triangle (distinct)",
    }
    out["big"] = row
    print(json.dumps({k: v for k, v in row.items() if k != "need_bytes"}), flush=True)
    # default budget: the device's memory minus the margin (or --big-budget); the count runs
    # as consecutive root-entry ranges (their counts add up) so that progress shows and a
    # deadline leaves a partial, labelled result rather than nothing
    budget = int(args.big_budget) if args.big_budget else None
    row["budget_bytes"] = budget
    nnz = len(g.indices)
    cuts = np.linspace(0, nnz, 9).astype(np.int64)
    total_count, ranges = 0, []
    t = time.perf_counter()
    for lo, hi in zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True):
        if time.perf_counter() - t0 > args.deadline - 60:
            break
        t1 = time.perf_counter()
        c = int(gs.count(g, plan, lo, hi, max_device_bytes=budget))
        total_count += c
        ranges.append({"lo": lo, "hi": hi, "count": c, "s": time.perf_counter() - t1,
                       "stats": stats_of(gs)})  # fmt: skip
        print(json.dumps(ranges[-1], default=str), flush=True)
    row["ranges"] = ranges
    row["complete"] = len(ranges) == len(cuts) - 1
    row["count"] = total_count
    row["count_s"] = time.perf_counter() - t
    print(json.dumps({"count": row["count"], "count_s": row["count_s"],
                      "complete": row["complete"]}), flush=True)  # fmt: skip
    rng = np.random.default_rng(0)
    samples = []
    size = int(args.big_sample_entries)
    # the first sample starts at entry 0 (the hubs' lists: most triangles), the others at random
    starts = [0] + np.sort(rng.integers(0, nnz - size, max(args.big_samples - 1, 0))).tolist()
    for lo in starts:
        if time.perf_counter() - t0 > args.deadline:
            break
        hi = lo + size
        gpu_c = int(gs.count(g, plan, lo, hi, max_device_bytes=budget))
        t = time.perf_counter()
        cpu_c = int(cs.count(g, plan, lo, hi))
        samples.append({"lo": lo, "hi": hi, "gpu": gpu_c, "cpu": cpu_c,
                        "cpu_s": time.perf_counter() - t, "equal": gpu_c == cpu_c})  # fmt: skip
    row["samples"] = samples
    row["host_peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    row["samples_equal"] = all(s["equal"] for s in samples) and bool(samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--deadline", type=float, default=540.0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--patterns", default="P1,P2,P7")
    ap.add_argument("--motifs", default="M1,M4,M8")
    ap.add_argument("--fractions", default="1,0.25,0.1")
    ap.add_argument("--placements", default="managed,pinned")
    ap.add_argument("--skip-static", action="store_true")
    ap.add_argument("--skip-temporal", action="store_true")
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--big-edges", type=float, default=1.2e9)
    ap.add_argument("--big-samples", type=int, default=4)
    ap.add_argument("--big-sample-entries", type=float, default=20_000)
    ap.add_argument("--big-budget", type=float, default=0.0, help="bytes (0: the default)")
    ap.add_argument("--big-max-degree", type=float, default=20000)
    args = ap.parse_args()
    args.patterns = [p for p in args.patterns.split(",") if p]
    args.motifs = [p for p in args.motifs.split(",") if p]
    args.fractions = sorted({float(f) for f in args.fractions.split(",")}, reverse=True)
    args.placements = [p for p in args.placements.split(",") if p]
    if args.fractions[0] != 1.0:
        args.fractions.insert(0, 1.0)  # the baseline
    t0 = time.perf_counter()
    from nx_gpumine.engines.cuda import _runtime

    out: dict = {"device": _runtime.device_info(), "host": platform.node(), "args": vars(args)}
    peak = PeakPool()
    path = Path(args.out) / "out_of_core.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if not args.skip_static:
            bench_static(args, peak, t0, out)
        if not args.skip_temporal and time.perf_counter() - t0 < args.deadline:
            bench_temporal(args, peak, t0, out)
        if args.big and time.perf_counter() - t0 < args.deadline:
            bench_big(args, t0, out)
    finally:
        out["elapsed_s"] = time.perf_counter() - t0
        path.write_text(json.dumps(out, indent=1, default=str))
        print(f"wrote {path}", flush=True)


if __name__ == "__main__":
    main()
