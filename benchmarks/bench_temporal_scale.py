"""Temporal motifs on graphs of 10^8-10^9 edges (issue 32): the kit's synthetic graph built from
a pyarrow table (or a cuDF frame), the M1-M13 table at several windows and each cell's single
call, with build times and peak host and device memory.

usage: python3 benchmarks/bench_temporal_scale.py OUT [--edges 100000000] [--nodes N]
       [--seed 1] [--deltas 3600,86400] [--motifs M1,...,M13] [--engine cuda]
       [--frame arrow|cudf|cupy] [--name synth100m] [--no-singles] [--write-everest PATH]
       [--deadline SECONDS] [--calls 1|2] [--warm-edges N] [--no-window-walks]
       [--more-tables 'M1,M2:86400;M8:86400']
       python3 benchmarks/bench_temporal_scale.py OUT --report   (after Everest ran)

The graph is ``gen_temporal.generate(edges, nodes, seed=seed)`` (the Everest kit's
``gen_temporal.py`` with the same arguments writes the same edges; on a GPU machine the searches
and the sort run with CuPy, the same operations), ``nodes`` one per ten edges by default.
Phases, each timed with the host's peak resident memory after it (``ru_maxrss``) and the peak
of CuPy's pool (device memory the engine allocated): ``generate``, ``frame`` (a pyarrow table
over the arrays, no copy; or a cuDF frame or a mapping of CuPy arrays on the device, from
which the graph is built on the device without a host copy of the columns), ``build``
(``TemporalGraph.from_edgelist``), ``table`` (``motif_counts`` of every motif at every window:
a first call, with compiles and uploads, then one timed call), ``singles`` (each cell's
``count_motifs``: a first call, then a timed one with the engine's kernel time; with ``--calls 1``
the first call alone, timed: at 10^9 edges a second pass does not fit a device call, so
``--warm-edges`` compiles the kernels on a small graph first and the timed call includes the
uploads and per-plan preparation a user's first call pays). Every table cell
must equal its single call. ``--write-everest PATH`` writes the edges as Everest's text input
(``src dst t`` lines, pyarrow's CSV writer) before the graph is built. The tie policy is
Everest's (``input_order``). Writes OUT/temporal_scale_NAME.json after every phase (a cut run
keeps what it did); ``--report`` adds Everest's rows from OUT/everest.tsv (the kit's format,
graph name NAME) and writes OUT/temporal_scale_NAME.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_temporal_peers import MOTIFS, read_everest  # noqa: E402
from gen_temporal import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402


class DevicePeak:
    """The peak bytes in use of CuPy's default memory pool since the last :meth:`take`
    (``bench_out_of_core.PeakPool``), or None without a GPU."""

    def __init__(self) -> None:
        try:
            import cupy as cp

            cp.cuda.runtime.getDeviceCount()
        except Exception:
            self.pool = None
            return
        from bench_out_of_core import PeakPool

        self.pool = PeakPool()

    def take(self) -> int | None:
        if self.pool is None:
            return None
        peak = self.pool.peak
        self.pool.reset()
        return int(peak)


def host_peak_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def write_everest_text(src: np.ndarray, dst: np.ndarray, t: np.ndarray, path: str) -> None:
    """Everest's input: ``src dst t`` per line, time order (pyarrow's multithreaded writer)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    src, dst, t = (a.get() if hasattr(a, "get") else a for a in (src, dst, t))  # CuPy columns
    if int(t.max()) >= 2**31:
        raise SystemExit("Everest stores times as int32")
    table = pa.table({"s": src, "d": dst, "t": t})
    opts = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(table, path, opts)


def build_frame(kind: str, src: np.ndarray, dst: np.ndarray, t: np.ndarray):
    if kind == "cupy":  # device columns (CuPy arrays): the graph is built on the device
        return {"source": src, "target": dst, "time": t}
    if kind == "cudf":
        import cudf  # optional: only where cuDF is installed

        return cudf.DataFrame({"source": src, "target": dst, "time": t})
    import pyarrow as pa

    return pa.table({"source": src, "target": dst, "time": t})  # no copy of int64 arrays


def warm_edges(asked: int, edges: int, engine: str) -> int:
    """Edges of the warm-up graph: ``asked``, raised past the CUDA tuning's ``lazy_end_edges``
    when the measured graph is past it. The DFS modules are compiled with ``LAZY_END`` set by
    the graph's size, so a smaller warm-up graph compiles other modules than the timed calls
    take, and they compile inside them."""
    if not asked or engine != "cuda":
        return asked
    from nx_gpumine.engines.cuda.temporal_tuning import current_tuning

    lazy = current_tuning().lazy_end_edges
    return max(asked, lazy + 1) if edges > lazy else asked


_compiled = [0]


def compile_seconds() -> float:
    """NVRTC seconds spent since the last call (``compile_log``, summed over the threads that
    compile side by side; 0 without CuPy): every phase reports the compiles it paid, so that a
    timed call that compiled shows it."""
    try:
        from nx_gpumine.engines.cuda._runtime import compile_log
    except ImportError:
        return 0.0
    log = compile_log()
    new, _compiled[0] = log[_compiled[0] :], len(log)
    return sum(e["seconds"] for e in new)


def stream_stats(engine: str) -> dict:
    """A streamed table's partitions, copies and kernel time (the CUDA engine's last run)."""
    if engine != "cuda":
        return {}
    from nx_gpumine.engines.cuda import temporal as gpu

    keep = ("out_of_core", "plans", "partitions", "partition_edges", "copy_ms", "kernel_ms",
            "stream_ms", "stage_wait_ms")  # fmt: skip
    return {k: gpu.last_run[k] for k in keep if k in gpu.last_run}


def cell_call(T, motif: str, delta: int, engine: str, calls: int = 2) -> dict:
    """One cell's ``count_motifs``: a first call, then a timed one with its kernel time
    (``calls=1``: the first call alone, timed; its kernels compiled by a warm-up beforehand)."""
    kw = dict(delta=delta, tie="input_order", engine=engine)
    t = time.perf_counter()
    first = ng.count_motifs(T, motif, **kw)
    first_s = time.perf_counter() - t
    again, call_ms = first, 1e3 * first_s
    if calls > 1:
        t = time.perf_counter()
        again = ng.count_motifs(T, motif, **kw)
        call_ms = 1e3 * (time.perf_counter() - t)
    if again != first:
        raise RuntimeError(f"{motif} delta={delta}: {first} then {again}")
    row = {"motif": motif, "delta": delta, "count": first, "first_s": first_s, "call_ms": call_ms}
    if engine == "cuda":
        from nx_gpumine.engines.cuda import temporal as gpu

        stats = gpu.last_run
        row["kernel_ms"] = float(stats.get("kernel_ms", 0.0))
        row["out_of_core"] = bool(stats.get("out_of_core", False))
    return row


def run(args) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"temporal_scale_{args.name}.json"
    nodes = args.nodes or max(1, args.edges // 10)
    motifs = args.motifs.split(",")
    deltas = [int(x) for x in args.deltas.split(",")]
    t_start = time.perf_counter()
    peak = DevicePeak()
    rep: dict = {
        "name": args.name, "engine": args.engine, "frame": args.frame, "tie": "input_order",
        "generator": {"edges": args.edges, "nodes": nodes, "gamma": 2.3, "cap": 0.0,
                      "seed": args.seed, "source": "benchmarks/gen_temporal.py (the kit's "
                      "gen_temporal.py, same draws)"},
        "python": platform.python_version(), "motifs": motifs, "deltas": deltas, "phases": {},
    }  # fmt: skip
    try:
        import cupy as cp

        rep["gpu"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        rep["device_total_bytes"] = int(cp.cuda.runtime.memGetInfo()[1])
    except Exception:
        pass

    def phase(name: str, seconds: float, **extra) -> None:
        extra["compile_s"] = compile_seconds()
        rep["phases"][name] = {"seconds": seconds, "host_peak_bytes": host_peak_bytes(),
                               "device_peak_bytes": peak.take(), **extra}  # fmt: skip
        path.write_text(json.dumps(rep, indent=1))
        print(f"{name}: {seconds:.2f} s {extra if extra else ''}", flush=True)

    t = time.perf_counter()
    warm = warm_edges(args.warm_edges, args.edges, args.engine)
    if warm:  # compile every kernel the calls below take, on a small graph
        t = time.perf_counter()
        ws, wd, wt = generate(warm, max(1, warm // 10), seed=args.seed,
                              device=peak.pool is not None)  # fmt: skip
        W = ng.TemporalGraph.from_edgelist(build_frame("arrow", ws, wd, wt), source="source",
                                           target="target", time="time")  # fmt: skip
        ng.motif_counts(W, motifs, deltas, tie="input_order", engine=args.engine)
        for m in motifs:
            for d in deltas:
                ng.count_motifs(W, m, delta=d, tie="input_order", engine=args.engine)
        for spec in filter(None, args.more_tables.split(";")):
            more_motifs, more_deltas = spec.split(":")
            ds = [int(x) for x in more_deltas.split(",")]
            ng.motif_counts(W, more_motifs.split(","), ds, tie="input_order", engine=args.engine)
        del W, ws, wd, wt
        phase("warm_up", time.perf_counter() - t, edges=warm)
    on_device = peak.pool is not None
    src, dst, tt = generate(args.edges, nodes, seed=args.seed, device=on_device,
                            to_host=args.frame == "arrow")  # fmt: skip
    phase("generate", time.perf_counter() - t, edges=len(src))
    if args.write_everest:
        t = time.perf_counter()
        write_everest_text(src, dst, tt, args.write_everest)
        phase("write_everest", time.perf_counter() - t, path=args.write_everest)
    if args.frame == "arrow":
        import pyarrow  # noqa: F401  (its first import, a second or so, is not the frame's)
    t = time.perf_counter()
    frame = build_frame(args.frame, src, dst, tt)
    phase("frame", time.perf_counter() - t)
    del src, dst, tt
    t = time.perf_counter()
    T = ng.TemporalGraph.from_edgelist(frame, source="source", target="target", time="time")
    phase("build", time.perf_counter() - t, nodes=T.n, edges=T.m)
    del frame
    # the engine announces an out-of-core run (INFO): a run cut by its deadline shows its route
    logging.basicConfig(format="%(asctime)s %(name)s: %(message)s", stream=sys.stdout)
    logging.getLogger("nx_gpumine").setLevel(logging.INFO)
    print(f"table: {len(motifs)} motifs x {len(deltas)} windows ...", flush=True)
    t = time.perf_counter()
    table = ng.motif_counts(T, motifs, deltas, tie="input_order", engine=args.engine)
    first_s = time.perf_counter() - t
    again, table_s = table, first_s  # --calls 1: the first call is the timed one
    if args.calls > 1:
        t = time.perf_counter()
        again = ng.motif_counts(T, motifs, deltas, tie="input_order", engine=args.engine)
        table_s = time.perf_counter() - t
    rows = table.to_numpy().tolist()
    if again.to_numpy().tolist() != rows:
        raise RuntimeError("the table changed between calls")
    stream = stream_stats(args.engine)
    phase("table", table_s, first_s=first_s, rows=rows, calls=args.calls, last_run=stream)
    for i, spec in enumerate(filter(None, args.more_tables.split(";")), start=2):
        more_motifs, more_deltas = spec.split(":")
        ms, ds = more_motifs.split(","), [int(x) for x in more_deltas.split(",")]
        print(f"table_{i}: {ms} x {ds} ...", flush=True)
        t = time.perf_counter()
        more = ng.motif_counts(T, ms, ds, tie="input_order", engine=args.engine)
        phase(f"table_{i}", time.perf_counter() - t, motifs=ms, deltas=ds,
              rows=more.to_numpy().tolist(), last_run=stream_stats(args.engine))  # fmt: skip
    if args.singles:
        cells = []
        for m in motifs:
            for d in deltas:
                if time.perf_counter() - t_start > args.deadline:
                    print(f"{m} delta={d}: skipped (deadline)", flush=True)
                    continue
                cells.append(cell_call(T, m, d, args.engine, args.calls))
                rep["cells"] = cells
                path.write_text(json.dumps(rep, indent=1))
        rep["table_equals_singles"] = all(
            c["count"] == rows[motifs.index(c["motif"])][deltas.index(c["delta"])] for c in cells
        )
        phase("singles", sum(c["call_ms"] for c in cells) / 1e3, cells=len(cells),
              table_equals_singles=rep["table_equals_singles"])  # fmt: skip
    if args.window_walks and args.engine == "cuda" and len(deltas) > 1:
        t = time.perf_counter()
        rep["window_walks"] = walks = window_walks(T, motifs, deltas)
        equal = all(w["counts"] == rows[i] for i, w in enumerate(walks))
        phase("window_walks", sum(w["call_ms"] for w in walks) / 1e3, equal=equal,
              wall_s=time.perf_counter() - t)  # fmt: skip


def window_walks(T, motifs: list[str], deltas: list[int]) -> list[dict]:
    """Each motif's one walk at the widest window binning its matches by span (the CUDA
    table's walk, ``count_windows``), timed alone after a first call: against the singles'
    call times it shows what binning costs per motif, apart from the table's concurrency."""
    from nx_gpumine.engines.cuda import temporal as gpu
    from nx_gpumine.inputs.motifs import named_motif
    from nx_gpumine.plan.temporal_plan import temporal_plan

    rows = []
    for m in motifs:
        plan = temporal_plan(named_motif(m, delta=deltas[-1], tie="input_order"), T)
        first = gpu.count_windows(T, plan, deltas[:-1])
        t = time.perf_counter()
        again = gpu.count_windows(T, plan, deltas[:-1])
        call_ms = 1e3 * (time.perf_counter() - t)
        if again != first:
            raise RuntimeError(f"{m}: windows {first} then {again}")
        stats = gpu.last_run
        rows.append({"motif": m, "counts": first, "call_ms": call_ms,
                     "kernel_ms": float(stats.get("kernel_ms", 0.0)),
                     "registers": stats.get("registers"), "local_bytes": stats.get("local_bytes"),
                     "min_blocks": stats.get("min_blocks")})  # fmt: skip
        print(f"window walk {m}: {call_ms:.1f} ms {first}", flush=True)
    return rows


def report(args) -> str:
    """Add Everest's rows (OUT/everest.tsv) to the JSON and write the markdown table."""
    out = Path(args.out)
    path = out / f"temporal_scale_{args.name}.json"
    rep = json.loads(path.read_text())
    everest = read_everest(out)  # {(graph, motif, delta): (count, ms)}
    status = {}
    tsv = out / "everest.tsv"
    if tsv.exists():
        for line in tsv.read_text().splitlines():
            parts = line.split("\t")
            if len(parts) == 5 and parts[0] == args.name and not parts[3].isdigit():
                status[(parts[1], int(parts[2]))] = parts[3]
    motifs, deltas = rep["motifs"], rep["deltas"]
    rows = rep["phases"].get("table", {}).get("rows")
    lines = [
        f"# {args.name}: M1-M13 tables at {rep['generator']['edges']:,} edges",
        "",
        f"Device: {rep.get('gpu', 'none')}; engine {rep['engine']}; frame {rep['frame']}; "
        f"generator {rep['generator']}.",
        "",
        "| phase | seconds | host peak GiB | device pool peak GiB |",
        "|---|---:|---:|---:|",
    ]
    for name, ph in rep["phases"].items():
        dev = ph.get("device_peak_bytes")
        lines.append(f"| {name} | {ph['seconds']:.2f} | {ph['host_peak_bytes'] / 2**30:.1f} | "
                     f"{'' if dev is None else f'{dev / 2**30:.1f}'} |")  # fmt: skip
    lines += [
        "",
        "| motif | delta | count (table) | single call ms | kernel ms | Everest ms | "
        "Everest / kernel | counts equal |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    ratios = []
    for c in rep.get("cells", []):
        m, d = c["motif"], c["delta"]
        ev = everest.get((args.name, m, d))
        eq = "" if ev is None else str(ev[0] == c["count"])
        ratio = ""
        if ev is not None and c.get("kernel_ms"):
            ratios.append(ev[1] / c["kernel_ms"])
            ratio = f"{ratios[-1]:.2f}"
        cnt = rows[motifs.index(m)][deltas.index(d)] if rows else c["count"]
        ev_txt = f"{ev[1]:.1f}" if ev else status.get((m, d), "not run")
        lines.append(f"| {m} | {d} | {cnt:,} | {c['call_ms']:.1f} | {c.get('kernel_ms', 0):.1f} | "
                     f"{ev_txt} | {ratio} | {eq} |")  # fmt: skip
    if ratios:
        gm = float(np.exp(np.mean(np.log(ratios))))
        lines += ["", f"Everest / our kernel: geomean {gm:.2f}, worst {min(ratios):.2f} "
                  f"({len(ratios)} cells Everest completed)."]  # fmt: skip
    rep["everest"] = {f"{m}:{d}": list(v) for (g, m, d), v in everest.items() if g == args.name}
    rep["everest_status"] = {f"{m}:{d}": s for (m, d), s in status.items()}
    path.write_text(json.dumps(rep, indent=1))
    text = "\n".join(lines) + "\n"
    (out / f"temporal_scale_{args.name}.md").write_text(text)
    return text


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--edges", type=int, default=100_000_000)
    ap.add_argument("--nodes", type=int, default=0, help="default: one per ten edges")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deltas", default="3600,86400")
    ap.add_argument("--motifs", default=",".join(MOTIFS))
    ap.add_argument("--engine", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument(
        "--frame",
        default="arrow",
        choices=("arrow", "cudf", "cupy"),
        help="arrow: a pyarrow table on the host; cudf / cupy: device columns, built there",
    )
    ap.add_argument("--name", default="synth100m")
    ap.add_argument("--singles", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument(
        "--window-walks",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="CUDA: time each motif's binning walk alone (count_windows)",
    )
    ap.add_argument("--write-everest", default="", help="also write Everest's text input here")
    ap.add_argument("--deadline", type=float, default=400.0)
    ap.add_argument(
        "--calls",
        type=int,
        choices=(1, 2),
        default=2,
        help="2: a first call (compiles, uploads), then the timed one; 1: one timed call each",
    )
    ap.add_argument(
        "--warm-edges",
        type=int,
        default=0,
        help="first compile every kernel on a graph of this many edges (for --calls 1)",
    )
    ap.add_argument(
        "--more-tables",
        default="",
        help="further tables after the first, each timed once: 'M1,M2:86400;M8:86400'",
    )
    ap.add_argument("--report", action="store_true")
    args = ap.parse_args()
    if args.report:
        print(report(args))
    else:
        run(args)


if __name__ == "__main__":
    main()
