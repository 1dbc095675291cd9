"""Where the time of a heavy T-DFS count goes, whole and in parts (issue 34's pl10m P5).

usage (GPU machine, repo root): ``python3 benchmarks/probe_dfs_rounds.py OUT_DIR
[--patterns P3,P5,P6] [--timeouts 5,1] [--parts 1,2,4]``

On pl10m (``powerlaw_graph.generate(2_000_000, 10_000_000, 2.3, 3000, 1)``, drawn on the GPU)
each pattern's mapping count runs on device 0 by the CUDA engine's DFS: whole, and every part
``(i, n)`` of ``count_part`` in turn, for each straggler ``timeout_ms``. Per run: whole-call
seconds (after one warm-up), kernel ms, launches, straggler rounds and records, and each
launch's kernel ms (the first launch runs the root tasks, the later ones the dumped records).
If the parts' kernel ms add up to about the whole's but the largest part is far above
``whole / n``, the split is unbalanced; if every part takes nearly the whole's time, the count
is bound by its straggler rounds (a chain of launches), not by its work. Writes
OUT_DIR/probe_dfs_rounds.json.
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
from nx_gpumine.engines.cuda import static_launch  # noqa: E402
from nx_gpumine.inputs.static_graph import from_arrays  # noqa: E402
from nx_gpumine.plan.static_plan import static_plan  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--patterns", default="P3,P5,P6")
    ap.add_argument("--timeouts", default="5,1")
    ap.add_argument("--parts", default="1,2,4")
    args = ap.parse_args()
    spec = (2_000_000, 10_000_000, 2.3, 3000, 1)
    a, b = generate(*spec, device=True)
    g = from_arrays(a, b, num_nodes=spec[0])
    rows = []
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.patterns.split(","):
        plan = static_plan(t_dfs_pattern(name), g, induced=False, distinct=True)
        for tmo in (float(x) for x in args.timeouts.split(",")):
            for n in (int(x) for x in args.parts.split(",")):
                for i in range(n):
                    kw = dict(strategy="dfs", timeout_ms=tmo, part=(i, n))
                    gs.count(g, plan, **kw)  # warm-up (compile, task lists)
                    t = time.perf_counter()
                    c = gs.count(g, plan, **kw)
                    wall = time.perf_counter() - t
                    st = dict(static_launch.last_run)
                    row = dict(
                        pattern=name, timeout_ms=tmo, part=[i, n], count=int(c), wall_s=wall,
                        kernel_ms=st.get("kernel_ms"), launches=st.get("launches"),
                        rounds=st.get("rounds"), records=st.get("records"),
                        launch_ms=[round(x, 3) for x in st.get("launch_ms", [])],
                    )  # fmt: skip
                    rows.append(row)
                    print(
                        f"{name} tau={tmo}ms part {i}/{n}: wall {wall * 1e3:8.1f} ms kernel"
                        f" {row['kernel_ms']:8.1f} ms rounds {row['rounds']} records"
                        f" {row['records']} launches(ms) {row['launch_ms'][:12]}",
                        flush=True,
                    )
                    (out / "probe_dfs_rounds.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
