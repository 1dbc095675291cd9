"""cuDF frame -> first count on the GPU: the device path against the same frame through pandas.

usage (GPU machine, cuDF importable)::

    python3 benchmarks/bench_cudf.py OUT_DIR [--repeat 3] [--graphs pl10m,synth10m]

Inputs: ``pl10m`` = ``powerlaw_graph.generate(2_000_000, 10_000_000, 2.3, 3000, 1)`` (undirected,
triangles counted) and ``synth10m`` = ``gen_temporal.generate(seed=1)`` (the Everest kit's
10M-edge temporal graph; temporal triangles with delta = 1 hour). Both start as cuDF frames on
the device. Per graph and path, wall seconds from the frame to the first answer, split into
*build* (frame -> graph, device caches filled by the engine's upload or by the device build)
and *query* (the count; kernels already compiled by a warm-up on a small graph, so NVRTC time
is left out):

* ``device``: ``from_edgelist(cudf_frame)`` (columns read as CuPy, CSR / time-sorted lists
  built on the GPU, nothing uploaded);
* ``via_pandas``: ``cudf_frame.to_pandas()`` then the host build and the engine's upload, as
  before the device path.

Writes ``OUT_DIR/cudf_device_path.json`` (machine, versions, counts, seconds, saving).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import nx_gpumine as ng  # noqa: E402

DELTA = 3600


def _sync() -> None:
    import cupy as cp

    cp.cuda.Device().synchronize()


def _timed(fn):
    _sync()
    t0 = time.perf_counter()
    out = fn()
    _sync()
    return out, time.perf_counter() - t0


def static_run(gdf, path: str) -> dict:
    from nx_gpumine.engines.cuda import static_device

    def build():
        frame = gdf.to_pandas() if path == "via_pandas" else gdf
        g = ng.from_edgelist(frame, source="src", target="dst")
        static_device.graph_device(g)  # the device copy (upload or the device build's arrays)
        return g

    g, build_s = _timed(build)
    count, query_s = _timed(lambda: ng.count_subgraphs(g, "triangle", engine="cuda"))
    return {"build_s": build_s, "query_s": query_s, "total_s": build_s + query_s, "count": count}


def temporal_run(gdf, path: str) -> dict:
    from nx_gpumine.engines.cuda import temporal as ctemporal

    def build():
        frame = gdf.to_pandas() if path == "via_pandas" else gdf
        T = ng.TemporalGraph.from_edgelist(frame, "src", "dst", "t")
        ctemporal.upload(T)  # device arrays, walk and pair indexes
        return T

    T, build_s = _timed(build)
    count, query_s = _timed(lambda: ng.count_motifs(T, "triangle", delta=DELTA, engine="cuda"))
    return {"build_s": build_s, "query_s": query_s, "total_s": build_s + query_s, "count": count}


def warm_up() -> None:
    """Compile the kernels the runs use (NVRTC), on a small graph, so runs time no compile."""
    import cudf

    rng = np.random.default_rng(0)
    s, d = rng.integers(0, 300, 4000), rng.integers(0, 300, 4000)
    keep = s < d
    e = np.unique(np.stack([s[keep], d[keep]], 1), axis=0)
    g = cudf.DataFrame({"src": e[:, 0], "dst": e[:, 1]})
    static_run(g, "device")
    t = np.sort(rng.integers(0, 100_000, 4000))
    tf = cudf.DataFrame({"src": s, "dst": d, "t": t})
    tf = tf[tf.src != tf.dst]
    temporal_run(tf, "device")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--graphs", default="pl10m,synth10m")
    args = ap.parse_args()
    import cudf
    import cupy as cp
    import gen_temporal
    import powerlaw_graph

    warm_up()
    results: dict = {
        "machine": {
            "gpu": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "versions": {"cudf": cudf.__version__, "cupy": cp.__version__},
        "graphs": {},
    }
    for name in args.graphs.split(","):
        if name == "pl10m":
            a, b = powerlaw_graph.generate(2_000_000, 10_000_000, 2.3, 3000, 1, device=True)
            gdf = cudf.DataFrame({"src": cp.asarray(a), "dst": cp.asarray(b)})
            run = static_run
            query = "triangle (mappings), undirected"
        elif name == "synth10m":
            s, d, t = gen_temporal.generate(seed=1)
            gdf = cudf.DataFrame({"src": cp.asarray(s), "dst": cp.asarray(d), "t": cp.asarray(t)})
            run = temporal_run
            query = f"temporal triangle, delta={DELTA}"
        else:
            raise SystemExit(f"unknown graph {name!r}")
        rows: dict = {"edges": len(gdf), "query": query}
        for path in ("device", "via_pandas"):
            reps = [run(gdf, path) for _ in range(args.repeat)]
            best = min(reps, key=lambda r: r["total_s"])
            rows[path] = {**best, "all_total_s": [r["total_s"] for r in reps]}
            print(f"{name} {path}: {best}", flush=True)
        if rows["device"]["count"] != rows["via_pandas"]["count"]:
            raise SystemExit(f"{name}: counts differ between the paths: {rows}")
        rows["saving_s"] = rows["via_pandas"]["total_s"] - rows["device"]["total_s"]
        rows["build_speedup"] = rows["via_pandas"]["build_s"] / rows["device"]["build_s"]
        results["graphs"][name] = rows
        del gdf
        cp.get_default_memory_pool().free_all_blocks()
    out = Path(args.out_dir) / "cudf_device_path.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
