"""Where a streamed motif table's time goes (issue 32), against the same motifs' single calls.

usage: python3 benchmarks/probe_streamed_table.py OUT_DIR [--edges 100000000] [--budget 8e9]
       [--motifs M1,...,M13] [--deltas 3600,86400] [--singles M4] [--warm-edges 1000000]
       (--budget 0: no budget; --warm-edges 0: no warm-up, the table's compiles timed inside it,
       with CUPY_CACHE_DIR pointing at an empty folder for a cold cache)

On session 24's H200 (``results/session24_2026-11-28``, call 4), M1-M13 at 1 h and 1 day on
the kit's 10^8-edge graph under an 8 GB budget took 31.3 s as one streamed table. The 26
single calls, each streamed, took 18.0 s, and the kernels took about 3 s either way. This probe
finds the other 28 s.

It generates the kit's synthetic temporal graph on the device (``gen_temporal.generate``,
seed 1, one node per ten edges) and builds it from the CuPy columns. It warms up on a small
graph. Then it runs ``motif_counts`` under the budget, and each ``--singles`` motif's single
calls, with the engine's stages wrapped in host timers.

Each wrapper synchronizes the device before and after, so each stage's time is its own. This
removes the overlap of copies and compute, so the totals exceed an unwrapped run. Times are
inclusive: ``launch_range`` contains ``decide_launches``.

Writes OUT_DIR/streamed_table_probe.json and prints a table per run.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_scale import compile_seconds, warm_edges  # noqa: E402
from gen_temporal import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.device_limits import device_budget  # noqa: E402
from nx_gpumine.engines.cuda import temporal as gpu  # noqa: E402
from nx_gpumine.engines.cuda import temporal_launch, temporal_stream  # noqa: E402

#: (module or class, attribute) of each stage timed
STAGES = (
    (temporal_stream.Streamer, "stage"),
    (temporal_stream.Streamer, "send"),
    (temporal_stream.Streamer, "attach"),
    (temporal_stream, "release"),
    (temporal_stream, "count_range_all_windows"),
    (temporal_stream, "count_range"),
    (temporal_launch, "prepare"),
    (temporal_launch, "plan_view"),
    (temporal_launch, "decide_launches"),
    (temporal_launch, "level1_gaps_device"),
    (temporal_launch, "split_gate"),
    (temporal_launch, "launch_range"),
    (temporal_launch.RangeWalk, "__init__"),
    (temporal_launch.RangeWalk, "advance"),
)

TIMES: dict = collections.defaultdict(float)
CALLS: dict = collections.defaultdict(int)


def _wrap(owner, name, sync) -> None:
    fn = getattr(owner, name)
    label = f"{getattr(owner, '__name__', owner)}.{name}"

    @functools.wraps(fn)
    def timed(*args, **kw):
        sync()
        t = time.perf_counter()
        try:
            return fn(*args, **kw)
        finally:
            sync()
            TIMES[label] += 1e3 * (time.perf_counter() - t)
            CALLS[label] += 1

    setattr(owner, name, timed)


def _frame(n_edges: int, seed: int) -> dict:
    src, dst, t = generate(n_edges, max(1, n_edges // 10), seed=seed, device=True, to_host=False)
    return {"source": src, "target": dst, "time": t}


def _run(label: str, fn) -> dict:
    TIMES.clear()
    CALLS.clear()
    t = time.perf_counter()
    result = fn()
    wall = 1e3 * (time.perf_counter() - t)
    compile_s = compile_seconds()
    stats = {k: v for k, v in gpu.last_run.items() if isinstance(v, (int, float, bool, str))}
    row = {"run": label, "wall_ms": wall, "compile_s": compile_s, "last_run": stats,
           "stages": {k: {"ms": TIMES[k], "calls": CALLS[k]} for k in sorted(TIMES)}}  # fmt: skip
    print(f"\n{label}: {wall:.0f} ms (NVRTC {compile_s:.1f} s inside)")
    for k in sorted(TIMES, key=TIMES.get, reverse=True):
        print(f"  {k:45s} {TIMES[k]:10.1f} ms  {CALLS[k]:6d} calls")
    return row | {"result": result}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--edges", type=int, default=100_000_000)
    ap.add_argument("--budget", type=float, default=8e9)
    ap.add_argument("--motifs", default=",".join(f"M{i}" for i in range(1, 14)))
    ap.add_argument("--deltas", default="3600,86400")
    ap.add_argument("--singles", default="M4", help="motifs whose single calls are probed too")
    ap.add_argument("--warm-edges", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    import cupy as cp

    motifs = args.motifs.split(",")
    deltas = [int(d) for d in args.deltas.split(",")]
    kw = dict(source="source", target="target", time="time")
    if args.warm_edges:  # the modules the runs take (past the LAZY_END size when they are)
        small = ng.TemporalGraph.from_edgelist(
            _frame(warm_edges(args.warm_edges, args.edges, "cuda"), args.seed), **kw
        )
        ng.motif_counts(small, motifs, deltas, tie="input_order", engine="cuda")
        for m in filter(None, args.singles.split(",")):
            ng.count_motifs(small, m, delta=deltas[-1], tie="input_order", engine="cuda")
        del small
    compile_seconds()
    graph = ng.TemporalGraph.from_edgelist(_frame(args.edges, args.seed), **kw)
    sync = cp.cuda.Device().synchronize
    for owner, name in STAGES:
        _wrap(owner, name, sync)
    runs = []
    with device_budget(int(args.budget) or None):  # 0: none (in memory where it fits)
        table = lambda: ng.motif_counts(graph, motifs, deltas, tie="input_order", engine="cuda")  # noqa: E731
        runs.append(_run("table", lambda: table().to_numpy().tolist()))
        for m in filter(None, args.singles.split(",")):
            for d in deltas:
                runs.append(_run(f"single {m} delta={d}", lambda m=m, d=d: ng.count_motifs(
                    graph, m, delta=d, tie="input_order", engine="cuda")))  # fmt: skip
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rep = {"edges": args.edges, "budget": args.budget, "seed": args.seed, "motifs": motifs,
           "deltas": deltas, "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
           "runs": runs}  # fmt: skip
    (out / "streamed_table_probe.json").write_text(json.dumps(rep, indent=1, default=str))


if __name__ == "__main__":
    main()
