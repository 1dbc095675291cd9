"""Where the time of a heavy T-DFS count goes, whole and in parts (issue 34's pl10m P5).

usage (GPU machine, repo root): ``python3 benchmarks/probe_dfs_rounds.py OUT_DIR
[--patterns P3,P5,P6] [--timeouts 5,1] [--parts 1,2,4] [--heavy-single 0,1,4]``

On pl10m (``powerlaw_graph.generate(2_000_000, 10_000_000, 2.3, 3000, 1)``, drawn on the GPU)
each pattern's mapping count runs on device 0 by the CUDA engine's DFS: whole, and every part
``(i, n)`` of ``count_part`` in turn, for each straggler ``timeout_ms``. Per run: whole-call
seconds (after one warm-up), kernel ms, launches, straggler rounds and records, and each
launch's kernel ms (the first launch runs the root tasks, the later ones the dumped records).
If the parts' kernel ms add up to about the whole's but the largest part is far above
``whole / n``, the split is unbalanced; if every part takes nearly the whole's time, the count
is bound by its straggler rounds (a chain of launches), not by its work. ``--heavy-single``:
the runs for each value of ``StaticTuning.heavy_single`` (the heavy-first list's head taken one
task per warp claim instead of chunks of 32). Writes OUT_DIR/probe_dfs_rounds.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_common import t_dfs_pattern  # noqa: E402
from powerlaw_graph import generate  # noqa: E402

from nx_gpumine.engines.cuda import static as gs  # noqa: E402
from nx_gpumine.engines.cuda import static_build, static_launch  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402
from nx_gpumine.plan.static_plan import static_plan  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--patterns", default="P3,P5,P6")
    ap.add_argument("--timeouts", default="5,1")
    ap.add_argument("--parts", default="1,2,4")
    ap.add_argument("--heavy-single", default="0")
    args = ap.parse_args()
    spec = (2_000_000, 10_000_000, 2.3, 3000, 1)
    a, b = generate(*spec, device=True)
    g = from_arrays(a, b, num_nodes=spec[0])
    rows = []
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for hs in (int(x) for x in args.heavy_single.split(",")):
        with static_build.tuned(heavy_single=hs):
            for name in args.patterns.split(","):
                plan = static_plan(t_dfs_pattern(name), g, induced=False, distinct=True)
                for tmo in (float(x) for x in args.timeouts.split(",")):
                    for n in (int(x) for x in args.parts.split(",")):
                        for i in range(n):
                            rows.append(run(g, plan, name, tmo, (i, n), hs))
                            (out / "probe_dfs_rounds.json").write_text(json.dumps(rows, indent=1))


def run(g, plan, name: str, tmo: float, part: tuple, hs: int) -> dict:
    """One warm-up and one timed DFS count of ``part``, with its launches' statistics."""
    kw = dict(strategy="dfs", timeout_ms=tmo, part=part)
    gs.count(g, plan, **kw)  # warm-up (compile, task lists)
    t = time.perf_counter()
    c = gs.count(g, plan, **kw)
    wall = time.perf_counter() - t
    st = dict(static_launch.last_run)
    row = dict(
        pattern=name, heavy_single=hs, timeout_ms=tmo, part=list(part), count=int(c),
        wall_s=wall, kernel_ms=st.get("kernel_ms"), launches=st.get("launches"),
        rounds=st.get("rounds"), records=st.get("records"),
        launch_ms=[round(x, 3) for x in st.get("launch_ms", [])],
    )  # fmt: skip
    print(
        f"{name} heavy_single={hs} tau={tmo}ms part {part[0]}/{part[1]}: wall"
        f" {wall * 1e3:8.1f} ms kernel {row['kernel_ms']:8.1f} ms rounds {row['rounds']}"
        f" records {row['records']} launches(ms) {row['launch_ms'][:12]}",
        flush=True,
    )
    return row


if __name__ == "__main__":
    main()
