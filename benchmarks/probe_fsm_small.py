"""Where a small GPU frequent-subgraph call spends its time (issue 30: the facebook 2-edge cells,
where our whole call is 11-30 ms beside fsm_gpu_base's own timer).

usage (repo root, GPU machine): python3 benchmarks/probe_fsm_small.py OUT [--rounds 5]

Per cell: the whole call's best time with the memory pool kept and with it emptied before the
call (what bench_fsm_peers.py did), the CPU engine's, and one cProfile of a warm GPU call
(top 40 by cumulative time) written to OUT/probe_fsm_small.txt; times to OUT/probe_fsm_small.json.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "peers" / "g2miner_fsm")]

from bench_common import facebook_edges  # noqa: E402
from g2miner_labelled import skewed_labels  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402

CELLS = [(8, 300), (8, 150), (32, 150), (32, 60)]


def best(fn, rounds: int, before=None) -> float:
    times = []
    for _ in range(rounds):
        if before is not None:
            before()
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    import cupy

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    src, dst, n = facebook_edges()
    rows, text = [], io.StringIO()
    for L, s in CELLS:
        g = from_arrays(src, dst, num_nodes=n, node_labels=skewed_labels(n, L))

        def call(engine: str, g=g, s=s):
            r = ng.frequent_subgraphs(g, s, max_edges=2, node_label="label", engine=engine)
            if engine == "cuda":
                cupy.cuda.Device().synchronize()
            return r

        t = time.perf_counter()
        npat = len(call("cuda"))
        first = (time.perf_counter() - t) * 1e3
        call("cpu")
        row = {
            "labels": L, "support": s, "patterns": npat, "first_cuda_ms": first,
            "cuda_ms": best(lambda: call("cuda"), a.rounds),
            "cuda_freed_pool_ms": best(
                lambda: call("cuda"), a.rounds, cupy.get_default_memory_pool().free_all_blocks
            ),
            "cpu_ms": best(lambda: call("cpu"), a.rounds),
        }  # fmt: skip
        rows.append(row)
        print(row, flush=True)
        prof = cProfile.Profile()
        prof.enable()
        call("cuda")
        prof.disable()
        text.write(f"\n===== facebook L{L} support {s}: {row}\n")
        pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(40)
        text.write("\n--- by own time\n")
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(25)
    (out / "probe_fsm_small.json").write_text(json.dumps(rows, indent=1))
    (out / "probe_fsm_small.txt").write_text(text.getvalue())


if __name__ == "__main__":
    main()
