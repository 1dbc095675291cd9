"""The CPU routes' figures quoted in the docstrings, each an on/off comparison in one process.

usage: python3 benchmarks/bench_cpu_routes.py [--parts build,formula,census]
    [--edges 60000000] [--owners 6000000] [--build-edges 20000000] [--nodes 40000]
    [--census-nodes 20000] [--attach 5] [--p 0.3] [--seed 1] [--repeat 3] [--walk-repeat 1]
    [--paper-sizes] [--out F.json] [--md F.md]

(the package importable: installed with ``pip install -e .``, or ``PYTHONPATH=.`` from the
repository root)

``build`` (issue 32, commit 12a7ac0): ``new`` is the library as it is; ``old`` is the path of
before 12a7ac0, which the library still holds below its thresholds and which is switched on
here, in this process: ``csr_order.BUCKET_MIN_OWNERS = 2**62`` (the CSR rows by one
``np.bincount`` and one scatter of every edge, ``_place``, not dealt into owner ranges) and
``temporal_graph._dense_int_ids`` run with ``graph_base.LINEAR_SORT_MIN = 2**62`` for the
length of its call (its numpy table of the span, the whole function before 12a7ac0, not
``csr_order.dense_ranks``' parallel look-ups; the CSR's own counting sort, which reads the
same constant, is left on). Three figures: ``csr_order`` of ``--edges`` owner ids over
``--owners`` owners (drawn by the inverse of ``gen_temporal``'s power-law weights,
``(i + 10) ** (-1 / 1.3)``, ids permuted; the generator's own searches take minutes at 60M);
``_dense_ids`` of the endpoint keys of ``gen_temporal.generate(--build-edges, one node per
ten edges, seed 1)``; and ``TemporalGraph.from_edgelist`` of those edges as a pyarrow table
(as ``bench_graph_build.py --kind temporal``). Quoted (2 cores): CSR 60M edges / 6M owners
3.3-4.1 s -> 2.1 s; the 40M-edge build 10.2 s -> 7.3 s (``--paper-sizes``; the default build
is 20M edges, 2M nodes: generating 40M edges alone takes 105-115 s on 2 cores).

``formula`` (commit 1b9773b): the non-induced bowtie (two triangles sharing a node) on
``nx.powerlaw_cluster_graph(--nodes, --attach, --p, seed=--seed)``, one plan
(``build_static_plan(..., induced=False, distinct=True)``): ``on`` is
``engines.cpu.static.count`` (the census block formula), each repeat on a fresh graph object
(``from_networkx(G, cache=False)``: since b471781 the blocks are kept with the graph), and
``kept`` the second call on that graph; ``off`` is the same engine's walk over every root,
``static._reduce(S, plan, 0, None, COUNT)`` (as ``tests/test_cpu_block_formulas.py``'s
``_walk_count``). Quoted: 0.84 s -> 0.033 s.

``census`` (commit 338b9dd): ``ng.count_subgraphs(S, P, induced=True, engine="cpu")`` of the
induced 5-cycle, house and bowtie on ``nx.powerlaw_cluster_graph(--census-nodes, ...)`` (the
formula's graph where the sizes are equal). ``on``: the default route, the graph's induced
5-node census (``execution.subgraph_census.census_count``), each repeat on a fresh graph in
that order: the 5-cycle's call computes the census, the house and the bowtie read it kept.
``off``: ``subgraph_census.CENSUS_ROUTE_MIN_EDGES = 2**62`` (census_count's own gate for small
graphs, read per call), so every count walks, each call on a fresh graph. (Passing
``max_work`` also keeps the walk, but first runs the walk's sampled estimate.) Quoted (40,000
nodes, 200,000 edges): the 5-cycle 45.5 s by the walk, 3.7 s with the census; the house 2.0 s
and the bowtie 1.7 s by the walk, 0.01 s each after the census. The quoted graph's generator
was not recorded; ``powerlaw_cluster_graph(40000, 5, 0.3, seed=1)`` gave induced walks of
41-50, 2.1-2.2 and 1.7-2.1 s here (2 cores), its non-induced bowtie walk 1.9-2.2 s (``--p
0.1``: 0.74 s, nearer the quoted 0.84 s; ``p`` sets both graphs).

``--paper-sizes``: CSR 60M edges / 6M owners, the build 40M edges, both graphs 40,000 nodes
(about 4.7 min on 2 cores, peak RSS 5.8 GB); the defaults differ in the build (20M edges) and
the census graph (20,000 nodes, 100k edges): about 2.2 min, 3.1 GB.

Every figure is one whole call (graphs and plans built outside the timer), ``repeat`` times
(``--walk-repeat`` for the census route's walks), old/new interleaved; the table gives the
median of the wall times, the JSON every run with its process CPU time (all threads). numba's
compile or cache load is paid first, on small inputs of every path, and reported separately
(``warmup_seconds``). Counts and arrays of the two paths are checked equal. Writes JSON
(default ``benchmarks/results/cpu_routes_<date>.json``) and prints a markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import numba
import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import cpu_machine  # noqa: E402
from gen_temporal import generate  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.engines.cpu import static as cpu  # noqa: E402
from nx_gpumine.execution import subgraph_census  # noqa: E402
from nx_gpumine.inputs import csr_order as co  # noqa: E402
from nx_gpumine.inputs import graph_base  # noqa: E402
from nx_gpumine.inputs import temporal_graph as tg  # noqa: E402
from nx_gpumine.inputs.patterns import Pattern  # noqa: E402
from nx_gpumine.plan.static_plan import build_static_plan  # noqa: E402

HERE = Path(__file__).resolve().parent
OFF = 1 << 62  # a threshold no input reaches
BOWTIE = nx.Graph([(0, 1), (0, 2), (1, 2), (2, 3), (2, 4), (3, 4)])
CENSUS_PATTERNS = {"5-cycle": nx.cycle_graph(5), "house": nx.house_graph(), "bowtie": BOWTIE}
CENSUS_KEY = ("induced_census", 5)
PAPER = {
    "edges": 60_000_000,
    "owners": 6_000_000,
    "build_edges": 40_000_000,
    "nodes": 40_000,
    "census_nodes": 40_000,
}
QUOTED = {
    "csr": "3.3-4.1 -> 2.1",
    "build": "10.2 -> 7.3",
    "formula": "0.84 -> 0.033",
    "census 5-cycle": "45.5 -> 3.7",
    "census house": "2.0 -> 0.01",
    "census bowtie": "1.7 -> 0.01",
}
_DENSE_INT_IDS = tg._dense_int_ids


# ------------------------------------------------------------------------------------ helpers
def timed(fn: Callable[..., Any], *args: Any, **kw: Any) -> tuple[Any, float, float]:
    """``(result, wall seconds, process CPU seconds)`` of one call ``fn(*args, **kw)``."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t0, time.process_time() - c0


class Runs:
    """The wall and CPU seconds of one route's calls."""

    def __init__(self, route: str) -> None:
        self.route, self.wall, self.cpu = route, [], []

    def add(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        out, wall, cpu_s = timed(fn, *args, **kw)
        self.wall.append(wall)
        self.cpu.append(cpu_s)
        return out

    def median(self) -> float:
        return statistics.median(self.wall)

    def as_dict(self) -> dict:
        return {
            "route": self.route,
            "median_seconds": round(self.median(), 6),
            "seconds": [round(x, 6) for x in self.wall],
            "cpu_seconds": [round(x, 6) for x in self.cpu],
        }


def figure(name: str, size: str, off: Runs, on: Runs, quoted: str | None, **extra: Any) -> dict:
    return {
        "figure": name,
        "size": size,
        "off": off.as_dict(),
        "on": on.as_dict(),
        "speedup": round(off.median() / on.median(), 2) if on.median() > 0 else None,
        "quoted_seconds_off_to_on": quoted,
        **extra,
    }


def versions() -> dict:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {
        "commit": commit,
        "nx_gpumine": ng.__version__,
        "networkx": nx.__version__,
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pyarrow": pa.__version__,
    }


# -------------------------------------------------------------------------------- build (32)
def _numpy_dense_int_ids(src_keys: np.ndarray, dst_keys: np.ndarray) -> tuple | None:
    """``temporal_graph._dense_int_ids`` by its numpy table (the branch below
    ``LINEAR_SORT_MIN``, the whole function before 12a7ac0)."""
    _numpy_dense_int_ids.calls += 1
    saved = graph_base.LINEAR_SORT_MIN
    graph_base.LINEAR_SORT_MIN = OFF
    try:
        return _DENSE_INT_IDS(src_keys, dst_keys)
    finally:
        graph_base.LINEAR_SORT_MIN = saved


_numpy_dense_int_ids.calls = 0


@contextlib.contextmanager
def build_path(mode: str, bucket_min: int | None = None) -> Iterator[None]:
    """The build's ``new`` (as the library is) or ``old`` (before 12a7ac0) path, set in this
    process for the block; ``bucket_min`` sets the new path's owner threshold (warm-up)."""
    saved = co.BUCKET_MIN_OWNERS, tg._dense_int_ids
    if mode == "old":
        co.BUCKET_MIN_OWNERS = OFF
        tg._dense_int_ids = _numpy_dense_int_ids
    elif bucket_min is not None:
        co.BUCKET_MIN_OWNERS = bucket_min
    try:
        yield
    finally:
        co.BUCKET_MIN_OWNERS, tg._dense_int_ids = saved


def powerlaw_owners(m: int, n: int, seed: int, gamma: float = 2.3) -> np.ndarray:
    """``m`` int64 owner ids in ``0..n-1`` drawn from ``gen_temporal``'s weights
    ``(i + 10) ** (-1 / (gamma - 1))`` by their continuous inverse CDF (no searches), the ids
    permuted: its source column's distribution, in random order, in seconds."""
    rng = np.random.default_rng(seed)
    e = 1.0 - 1.0 / (gamma - 1.0)  # the weights' integral is (x + 10) ** e / e; e < 0
    a, b = 10.0**e, (n + 10.0) ** e
    x = rng.random(m)
    x *= b - a
    x += a
    np.power(x, 1.0 / e, out=x)
    x -= 10.0
    rank = np.minimum(x.astype(np.int64), n - 1)
    del x
    return rng.permutation(n)[rank]


def warm_build() -> float:
    t0 = time.perf_counter()
    for dt in (np.int32, np.int64):
        owner = (np.arange(20_000) * 7919 % 1000).astype(dt)
        for mode, bucket_min in (("new", 0), ("old", None)):
            with build_path(mode, bucket_min):
                co.csr_order(owner, 1000)
    co.dense_ranks(np.array([7, 3]), np.array([3, 9]), 3, 7)
    k = graph_base.LINEAR_SORT_MIN + 5
    small = pa.table(
        {"source": np.arange(k) % 7 + 3, "target": (np.arange(k) + 1) % 7 + 3, "time": np.arange(k)}
    )
    for mode in ("new", "old"):
        with build_path(mode):
            ng.TemporalGraph.from_edgelist(small)
    return time.perf_counter() - t0


GRAPH_ARRAYS = ng.TemporalGraph.ARRAYS


def part_build(args: argparse.Namespace, out: dict) -> list[dict]:
    out["warmup_seconds"] = round(warm_build(), 3)
    figures = []
    m, n = args.edges, args.owners
    t0 = time.perf_counter()
    owner = powerlaw_owners(m, n, args.seed)
    out["csr_input"] = {
        "source": f"powerlaw_owners({m}, {n}, seed={args.seed}) (gen_temporal's weights)",
        "dtype": str(owner.dtype),
        "owners_present": int(np.count_nonzero(np.bincount(owner, minlength=n))),
        "seconds_to_draw": round(time.perf_counter() - t0, 2),
        "bucketed": n >= co.BUCKET_MIN_OWNERS,
    }
    runs = {
        "old": Runs("old: bincount + one scatter"),
        "new": Runs("new: owner ranges, in parallel"),
    }
    last: dict = {}
    for _ in range(args.repeat):
        for mode in ("old", "new"):
            last[mode] = None
            with build_path(mode):
                last[mode] = runs[mode].add(co.csr_order, owner, n)
    assert all(np.array_equal(a, b) for a, b in zip(last["old"], last["new"], strict=True))
    del owner, last
    figures.append(
        figure(
            "CSR rows: csr_order",
            f"{m:,} edges / {n:,} owners",
            runs["old"],
            runs["new"],
            QUOTED["csr"],
        )
    )
    print(row_line(figures[-1]), flush=True)

    m = args.build_edges
    nodes = max(m // 10, 10)
    t0 = time.perf_counter()
    s, d, t = generate(edges=m, nodes=nodes, seed=args.seed)
    gen_s = time.perf_counter() - t0
    table = pa.table({"source": s, "target": d, "time": t})
    del t
    out["build_input"] = {
        "source": f"gen_temporal.generate(edges={m}, nodes={nodes}, seed={args.seed})",
        "seconds_to_generate": round(gen_s, 2),
        "bucketed": nodes >= co.BUCKET_MIN_OWNERS,
        "linear_sort": m >= graph_base.LINEAR_SORT_MIN,
    }
    size = f"{m:,} edges / {nodes:,} nodes"
    runs = {
        "old": Runs("old: numpy table"),
        "new": Runs("new: dense_ranks, parallel"),
    }
    got: dict = {}
    for _ in range(args.repeat):
        for mode in ("old", "new"):
            got[mode] = None
            with build_path(mode):
                got[mode] = runs[mode].add(tg._dense_ids, s, d, None)
    assert all(np.array_equal(a, b) for a, b in zip(got["old"][:2], got["new"][:2], strict=True))
    assert got["old"][2] == got["new"][2]
    out["build_input"]["nodes_present"] = len(got["new"][2])
    del got, s, d
    figures.append(figure("dense ids: _dense_ids", size, runs["old"], runs["new"], None))
    print(row_line(figures[-1]), flush=True)

    runs = {"old": Runs("old: both, as before 12a7ac0"), "new": Runs("new: both, as is")}
    calls_before = _numpy_dense_int_ids.calls
    graphs: dict = {}
    for _ in range(args.repeat):
        for mode in ("old", "new"):
            graphs[mode] = None
            with build_path(mode):
                graphs[mode] = runs[mode].add(ng.TemporalGraph.from_edgelist, table)
    assert _numpy_dense_int_ids.calls - calls_before == args.repeat  # the old path ran
    a, b = graphs["old"], graphs["new"]
    assert a.keys == b.keys
    for name in GRAPH_ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    graph = str(b)
    del graphs, a, b, table
    figures.append(
        figure(
            "whole build: TemporalGraph.from_edgelist (pyarrow)",
            size,
            runs["old"],
            runs["new"],
            QUOTED["build"],
            graph=graph,
        )
    )
    print(row_line(figures[-1]), flush=True)
    return figures


# ------------------------------------------------------------------------- formula (1b9773b)
def plc_source(n: int, args: argparse.Namespace) -> str:
    return f"nx.powerlaw_cluster_graph({n}, {args.attach}, {args.p}, seed={args.seed})"


def warm_static() -> float:
    t0 = time.perf_counter()
    small = nx.powerlaw_cluster_graph(300, 4, 0.5, seed=1)
    S = ng.from_networkx(small, cache=False)
    plan = build_static_plan(Pattern.from_networkx(BOWTIE), S, induced=False, distinct=True)
    cpu.count(S, plan)
    cpu._reduce(S, plan, 0, None, cpu.COUNT)
    saved = subgraph_census.CENSUS_ROUTE_MIN_EDGES
    try:
        for gate in (0, OFF):
            subgraph_census.CENSUS_ROUTE_MIN_EDGES = gate
            S = ng.from_networkx(small, cache=False)
            for P in CENSUS_PATTERNS.values():
                ng.count_subgraphs(S, P, induced=True, engine="cpu")
    finally:
        subgraph_census.CENSUS_ROUTE_MIN_EDGES = saved
    return time.perf_counter() - t0


def part_formula(G: nx.Graph, args: argparse.Namespace, out: dict) -> list[dict]:
    pattern = Pattern.from_networkx(BOWTIE)

    def fresh() -> tuple:
        S = ng.from_networkx(G, cache=False)
        return S, build_static_plan(pattern, S, induced=False, distinct=True)

    assert cpu.whole_range_count(*fresh())  # the formula's route is on for this plan
    off, on, kept = (
        Runs("walk: static._reduce"),
        Runs("formula, fresh graph"),
        (Runs("formula, blocks kept (2nd call)")),
    )
    counts = set()
    for _ in range(args.repeat):
        S, plan = fresh()
        counts.add(off.add(cpu._reduce, S, plan, 0, None, cpu.COUNT))
        S, plan = fresh()
        counts.add(on.add(cpu.count, S, plan))
        counts.add(kept.add(cpu.count, S, plan))
    assert len(counts) == 1, counts
    size = f"{G.number_of_nodes():,} nodes / {G.number_of_edges():,} edges"
    n_edges = G.number_of_edges()
    extra = {
        "count_distinct": counts.pop(),
        "graph": plc_source(G.number_of_nodes(), args),
        "graph_edges": n_edges,
    }
    figures = [
        figure(
            "non-induced bowtie: static.count",
            size,
            off,
            on,
            QUOTED["formula"],
            **extra,
        ),
        figure("non-induced bowtie: static.count, 2nd call", size, off, kept, None, **extra),
    ]
    for f in figures:
        print(row_line(f), flush=True)
    return figures


# -------------------------------------------------------------------------- census (338b9dd)
def part_census(G: nx.Graph, args: argparse.Namespace, out: dict) -> list[dict]:
    on = {k: Runs("census") for k in CENSUS_PATTERNS}
    on["5-cycle"].route = "census computed (fresh graph)"
    on["house"].route = on["bowtie"].route = "census kept"
    off = {k: Runs("walk (census gate off)") for k in CENSUS_PATTERNS}
    counts: dict = {k: set() for k in CENSUS_PATTERNS}
    for _ in range(args.repeat):
        S = ng.from_networkx(G, cache=False)
        for name, P in CENSUS_PATTERNS.items():
            counts[name].add(on[name].add(ng.count_subgraphs, S, P, induced=True, engine="cpu"))
        assert S.has_derived(CENSUS_KEY)  # the census route was taken
    saved = subgraph_census.CENSUS_ROUTE_MIN_EDGES
    subgraph_census.CENSUS_ROUTE_MIN_EDGES = OFF
    try:
        for _ in range(args.walk_repeat):
            for name, P in CENSUS_PATTERNS.items():
                S = ng.from_networkx(G, cache=False)
                counts[name].add(
                    off[name].add(ng.count_subgraphs, S, P, induced=True, engine="cpu")
                )
                assert not S.has_derived(CENSUS_KEY)  # walked
                print(f"  walk {name}: {off[name].wall[-1]:.2f} s", flush=True)
    finally:
        subgraph_census.CENSUS_ROUTE_MIN_EDGES = saved
    size = f"{G.number_of_nodes():,} nodes / {G.number_of_edges():,} edges"
    figures = []
    for name in CENSUS_PATTERNS:
        assert len(counts[name]) == 1, (name, counts[name])
        figures.append(
            figure(
                f"induced {name}: count_subgraphs",
                size,
                off[name],
                on[name],
                QUOTED[f"census {name}"],
                count_mappings=counts[name].pop(),
                graph=plc_source(G.number_of_nodes(), args),
            )
        )
        print(row_line(figures[-1]), flush=True)
    return figures


# ---------------------------------------------------------------------------------- output
def secs(x: float) -> str:
    """Seconds to three significant digits (no exponent)."""
    return f"{x:.1f}" if x >= 100 else f"{x:.3g}" if x >= 1e-4 else f"{x:.6f}"


def row_line(f: dict) -> str:
    return (
        f"| {f['figure']} | {f['size']} | {f['off']['route']} | {f['on']['route']} | "
        f"{secs(f['off']['median_seconds'])} | {secs(f['on']['median_seconds'])} | "
        f"{f['speedup']}x | {f['quoted_seconds_off_to_on'] or ''} |"
    )


def table(res: dict) -> str:
    """Markdown table of a results dict."""
    m = res["machine"]
    lines = [
        f"CPU routes, {res['date']}, commit {str(res['versions']['commit'])[:7]}: "
        f"{m.get('cpu_model', m['processor'])}, nproc {m['nproc']}, numba threads "
        f"{m['numba_threads']}; median of {res['args']['repeat']} calls "
        f"({res['args']['walk_repeat']} for the census route's walks); warm-up excluded: "
        + ", ".join(
            f"{'build' if k == 'build' else 'formula/census'} {v['warmup_seconds']} s"
            for k, v in res["parts"].items()
            if "warmup_seconds" in v
        )
        + ". off: the old path or the walk; on: the new path, the formula or the census.",
        "",
        "| figure | size | off | on | off s | on s | speed-up | quoted s (off -> on) |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | --- |",
    ]
    lines += [row_line(f) for f in res["figures"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parts", default="build,formula,census")
    ap.add_argument("--edges", type=int, default=60_000_000, help="CSR entries")
    ap.add_argument("--owners", type=int, default=6_000_000, help="CSR rows")
    ap.add_argument("--build-edges", type=int, default=20_000_000, help="whole temporal build")
    ap.add_argument("--nodes", type=int, default=40_000, help="the formula's graph")
    ap.add_argument("--census-nodes", type=int, default=20_000, help="the census route's graph")
    ap.add_argument("--attach", type=int, default=5, help="powerlaw_cluster_graph's m")
    ap.add_argument("--p", type=float, default=0.3, help="powerlaw_cluster_graph's p")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--walk-repeat", type=int, default=1, help="the census route's walks")
    ap.add_argument("--paper-sizes", action="store_true", help="the quoted figures' sizes")
    ap.add_argument("--out", default=None, help="JSON (default results/cpu_routes_<date>.json)")
    ap.add_argument("--md", default=None, help="also write the table here")
    args = ap.parse_args(argv)
    if args.paper_sizes:
        vars(args).update(PAPER)
    parts = [p for p in args.parts.split(",") if p]
    assert set(parts) <= {"build", "formula", "census"}, parts

    res: dict = {
        "benchmark": "CPU routes on/off: graph build (12a7ac0), block formula (1b9773b), "
        "census route (338b9dd)",
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "machine": cpu_machine(),
        "versions": versions(),
        "args": vars(args),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "method": __doc__.strip().split("\n\n", 2)[2],
        "parts": {},
        "figures": [],
    }
    t_all = time.perf_counter()
    if "build" in parts:
        info = res["parts"]["build"] = {}
        res["figures"] += part_build(args, info)
    graphs: dict = {}

    def graph(n: int) -> nx.Graph:
        if n not in graphs:
            graphs[n] = nx.powerlaw_cluster_graph(n, args.attach, args.p, seed=args.seed)
        return graphs[n]

    if "formula" in parts or "census" in parts:
        warm = round(warm_static(), 3)
        for part, n, run in (
            ("formula", args.nodes, part_formula),
            ("census", args.census_nodes, part_census),
        ):
            if part in parts:
                info = res["parts"][part] = {"graph": plc_source(n, args)}
                if warm is not None:
                    info["warmup_seconds"] = warm  # formula and census: paid once
                res["figures"] += run(graph(n), args, info)
                warm = None
    res["total_seconds"] = round(time.perf_counter() - t_all, 1)
    res["peak_rss_gb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)
    res["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    path = Path(args.out or HERE / "results" / f"cpu_routes_{_dt.date.today().isoformat()}.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(res, indent=1) + "\n")
    md = table(res)
    if args.md:
        Path(args.md).write_text(md + "\n")
    print(f"wrote {path}\n")
    print(md)
    return res


if __name__ == "__main__":
    main()
