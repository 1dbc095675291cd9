"""CPU static engine vs NetworkX's GraphMatcher, in the same run on the same machine.

usage: python benchmarks/bench_static_cpu.py [--nx-cap 120] [--small-n 500] [--out DIR]
       pytest benchmarks/bench_static_cpu.py --benchmark-enable      (pytest-benchmark view)
       (add --benchmark-json=FILE to keep the figures: each test's ``extra_info`` holds the
       fields main() writes for its graph and pattern, ratios included where NetworkX ran)

Counts *mappings* (non-induced, NetworkX's ``subgraph_monomorphisms_iter`` number) of 4-cycle,
diamond and 4-clique on ``nx.barabasi_albert_graph(20000, 8, seed=1)``.

NetworkX is first run on that graph with a wall-clock cap (``--nx-cap``, default 120 s). Where it
does not finish, the ratio is NOT extrapolated: both NetworkX and the CPU engine are timed to
completion on a smaller graph ``nx.barabasi_albert_graph(SMALL_N, 8, seed=1)`` and the ratio is
taken there; the CPU engine's time on the 20000-node graph is reported beside it.

CPU engine times: median of 3 runs after a warm-up call (the numba JIT compile/load time of the
warm-up is reported separately). Two CPU numbers per pattern: the public
``count_subgraphs(..., count="mappings")`` (symmetry-broken search x |Aut(P)|) and the engine
walking every mapping one by one (plan without symmetry restrictions). Results are written to
``DIR/static_cpu_<date>.json`` (default ``benchmarks/results``).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import networkx as nx
import numba
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import cpu_machine  # noqa: E402

import nx_gpumine as ng  # noqa: E402
from nx_gpumine.execution.static import run_static
from nx_gpumine.inputs.patterns import CATALOGUE, Pattern
from nx_gpumine.plan.static_plan import build_static_plan

PATTERNS = ["4-cycle", "diamond", "4-clique"]
BIG = (20000, 8, 1)
SMALL_N = 500


def ba(n: int, m: int = 8, seed: int = 1) -> nx.Graph:
    return nx.barabasi_albert_graph(n, m, seed=seed)


def nx_count(G: nx.Graph, pname: str, cap: float | None) -> tuple[int, float, bool]:
    """Count NetworkX monomorphisms; stop (unfinished) once ``cap`` seconds have passed."""
    P = CATALOGUE[pname]()
    gm = nx.algorithms.isomorphism.GraphMatcher(G, P)
    t0 = time.perf_counter()
    n = 0
    for _ in gm.subgraph_monomorphisms_iter():
        n += 1
        if cap is not None and (n & 1023) == 0 and time.perf_counter() - t0 > cap:
            return n, time.perf_counter() - t0, False
    return n, time.perf_counter() - t0, True


def cpu_api(g: ng.StaticGraph, pname: str) -> int:
    return ng.count_subgraphs(g, pname, count="mappings", engine="cpu")


def cpu_exhaustive(g: ng.StaticGraph, pname: str) -> int:
    plan = build_static_plan(Pattern.named(pname), g, induced=False, distinct=False)
    return int(run_static(g, plan, "count", engine="cpu"))


def timed(fn, *args, repeat: int = 3) -> tuple[int, float, list[float]]:
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(*args)
        times.append(time.perf_counter() - t0)
    return out, statistics.median(times), times


def versions() -> dict:
    return {
        "nx_gpumine": ng.__version__,
        "networkx": nx.__version__,
        "numpy": np.__version__,
        "numba": numba.__version__,
    }


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nx-cap", type=float, default=120.0, help="NetworkX cap on the big graph")
    ap.add_argument("--small-n", type=int, default=SMALL_N, help="nodes of the fallback graph")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    cpu_api(ng.from_networkx(nx.karate_club_graph()), "triangle")
    cpu_exhaustive(ng.from_networkx(nx.karate_club_graph()), "triangle")
    warmup = time.perf_counter() - t0

    n, m, seed = BIG
    G = ba(n, m, seed)
    g = ng.from_networkx(G)
    Gs = ba(args.small_n, m, seed)
    gs = ng.from_networkx(Gs)
    res: dict = {
        "benchmark": "static CPU engine vs NetworkX GraphMatcher (mappings, non-induced)",
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "machine": cpu_machine(),
        "versions": versions(),
        "inputs": {
            "big": f"nx.barabasi_albert_graph({n}, {m}, seed={seed})",
            "big_nodes": G.number_of_nodes(),
            "big_edges": G.number_of_edges(),
            "small": f"nx.barabasi_albert_graph({args.small_n}, {m}, seed={seed})",
            "small_nodes": Gs.number_of_nodes(),
            "small_edges": Gs.number_of_edges(),
            "nx_cap_seconds_on_big": args.nx_cap,
        },
        "jit_warmup_seconds": round(warmup, 3),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "method": __doc__.strip().split("\n\n", 1)[1],
        "patterns": {},
    }
    for pname in PATTERNS:
        row: dict = {}
        c_api, t_api, all_api = timed(cpu_api, g, pname)
        c_ex, t_ex, _ = timed(cpu_exhaustive, g, pname, repeat=1)
        assert c_api == c_ex, (pname, c_api, c_ex)
        row["big"] = {
            "count": c_api,
            "cpu_api_seconds": round(t_api, 4),
            "cpu_api_runs": [round(x, 4) for x in all_api],
            "cpu_exhaustive_seconds": round(t_ex, 4),
        }
        nxc, nxt, done = nx_count(G, pname, args.nx_cap)
        row["big"]["networkx_finished"] = done
        row["big"]["networkx_seconds"] = round(nxt, 2)
        if done:
            assert nxc == c_api, (pname, nxc, c_api)
            row["ratio_basis"] = "big graph"
            row["ratio_api"] = round(nxt / t_api, 1)
            row["ratio_exhaustive"] = round(nxt / t_ex, 1)
        else:
            row["big"]["networkx_mappings_found_before_cap"] = nxc
            # NetworkX took longer than this: a lower bound of the ratio, not an estimate
            row["big"]["ratio_api_at_least"] = round(nxt / t_api, 1)
            s_api, ts_api, _ = timed(cpu_api, gs, pname)
            s_ex, ts_ex, _ = timed(cpu_exhaustive, gs, pname)
            nxc_s, nxt_s, done_s = nx_count(Gs, pname, None)
            assert done_s and nxc_s == s_api == s_ex, (pname, nxc_s, s_api, s_ex)
            row["small"] = {
                "count": s_api,
                "cpu_api_seconds": round(ts_api, 5),
                "cpu_exhaustive_seconds": round(ts_ex, 5),
                "networkx_seconds": round(nxt_s, 2),
            }
            row["ratio_basis"] = "small graph (NetworkX did not finish the big one within the cap)"
            row["ratio_api"] = round(nxt_s / ts_api, 1)
            row["ratio_exhaustive"] = round(nxt_s / ts_ex, 1)
        res["patterns"][pname] = row
        print(pname, json.dumps(row), flush=True)
    res["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"static_cpu_{_dt.date.today().isoformat()}.json"
    path.write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {path}")
    print(table(res))
    return res


def table(res: dict) -> str:
    """Markdown table of a results dict."""
    lines = [
        "| pattern | mappings (BA 20000) | CPU API s | CPU exhaustive s | NetworkX on BA 20000 "
        "| ratio basis | NetworkX s | CPU API s | ratio API | ratio exhaustive |",
        "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for p, r in res["patterns"].items():
        big = r["big"]
        nxbig = (
            f"{big['networkx_seconds']} s"
            if big["networkx_finished"]
            else (
                f"not finished in {big['networkx_seconds']} s "
                f"(ratio > {big['ratio_api_at_least']}x)"
            )
        )
        basis = r.get("small", big)
        lines.append(
            f"| {p} | {big['count']:,} | {big['cpu_api_seconds']} | "
            f"{big['cpu_exhaustive_seconds']} | {nxbig} | "
            f"{'BA 20000' if 'small' not in r else 'BA ' + str(res['inputs']['small_nodes'])} | "
            f"{basis['networkx_seconds']} | {basis['cpu_api_seconds']} | {r['ratio_api']}x | "
            f"{r['ratio_exhaustive']}x |"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------- pytest-benchmark view
# Each test records in ``benchmark.extra_info`` the fields main() writes for its graph
# ("big" or "small") and pattern: count, CPU API seconds (median of 3, and the runs), CPU
# exhaustive seconds, and where NetworkX was timed in the same run its seconds, whether it
# finished, and the ratios (``ratio_api`` / ``ratio_exhaustive`` with ``ratio_basis``, or
# ``ratio_api_at_least`` when NetworkX hit the cap). Times measured by one test are shared with
# the later tests of the same run through SAME_RUN, so the NetworkX tests (after the CPU ones in
# file order) report the ratio against the CPU times of this run.

#: NetworkX's wall-clock cap on the big graph (main()'s ``--nx-cap`` default).
NX_CAP = 120.0
#: (graph, pattern) -> raw (unrounded) fields measured in this pytest run.
SAME_RUN: dict[tuple[str, str], dict] = {}
_GRAPHS: dict[str, tuple[nx.Graph, ng.StaticGraph]] = {}


def _graph(which: str) -> tuple[nx.Graph, ng.StaticGraph]:
    """The NetworkX graph and its StaticGraph for ``"big"`` or ``"small"`` (built once)."""
    if which not in _GRAPHS:
        n, m, seed = BIG if which == "big" else (SMALL_N, BIG[1], BIG[2])
        G = ba(n, m, seed)
        _GRAPHS[which] = (G, ng.from_networkx(G))
    return _GRAPHS[which]


def _inputs(which: str) -> dict:
    G, _ = _graph(which)
    n, m, seed = BIG if which == "big" else (SMALL_N, BIG[1], BIG[2])
    return {
        "graph": which,
        "input": f"nx.barabasi_albert_graph({n}, {m}, seed={seed})",
        "nodes": G.number_of_nodes(),
        "edges": G.number_of_edges(),
    }


def _ratios(which: str, row: dict) -> dict:
    """main()'s ratio fields from the times of this run (empty until both sides were timed)."""
    if "networkx_seconds" not in row or "cpu_api_seconds" not in row:
        return {}
    nxt = row["networkx_seconds"]
    if not row["networkx_finished"]:
        # NetworkX took longer than this: a lower bound of the ratio, not an estimate
        return {"ratio_api_at_least": round(nxt / row["cpu_api_seconds"], 1)}
    return {
        "ratio_basis": f"{which} graph",
        "ratio_api": round(nxt / row["cpu_api_seconds"], 1),
        "ratio_exhaustive": round(nxt / row["cpu_exhaustive_seconds"], 1),
    }


def _record(benchmark: Any, which: str, pname: str, **fields: Any) -> dict:
    """Merge ``fields`` into SAME_RUN and write everything known into ``extra_info``."""
    row = SAME_RUN.setdefault((which, pname), {})
    row.update(fields)
    digits = 4 if which == "big" else 5
    info: dict = {"pattern": pname, **_inputs(which)}
    for key, value in row.items():
        if key == "cpu_api_runs":
            value = [round(x, digits) for x in value]
        elif key == "networkx_seconds":
            value = round(value, 2)
        elif key.endswith("_seconds"):
            value = round(value, digits)
        info[key] = value
    info.update(_ratios(which, row))
    info["versions"] = versions()
    info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    benchmark.extra_info.update(info)
    return info


def _cpu_times(which: str, pname: str) -> dict:
    """CPU fields of this run for ``(which, pname)``, measured as main() does if still missing."""
    row = SAME_RUN.get((which, pname), {})
    if "cpu_api_seconds" in row:
        return {}
    _, g = _graph(which)
    cpu_api(g, pname)  # warm-up
    c_api, t_api, runs = timed(cpu_api, g, pname)
    c_ex, t_ex, _ = timed(cpu_exhaustive, g, pname, repeat=1)
    assert c_api == c_ex, (pname, c_api, c_ex)
    return {
        "count": c_api,
        "cpu_api_seconds": t_api,
        "cpu_api_runs": runs,
        "cpu_exhaustive_seconds": t_ex,
    }


def _bench_cpu(benchmark: Any, which: str, pname: str) -> dict:
    _, g = _graph(which)
    t0 = time.perf_counter()
    cpu_api(g, pname)  # warm-up: numba load / JIT compile
    warmup = time.perf_counter() - t0
    runs: list[float] = []

    def run() -> int:
        t = time.perf_counter()
        out = cpu_api(g, pname)
        runs.append(time.perf_counter() - t)
        return out

    # median of 3 as in main(); with --benchmark-disable pytest-benchmark calls run() once
    count = benchmark.pedantic(run, rounds=3, iterations=1)
    c_ex, t_ex, _ = timed(cpu_exhaustive, g, pname, repeat=1)
    assert count == c_ex, (pname, count, c_ex)
    return _record(
        benchmark,
        which,
        pname,
        jit_warmup_seconds=warmup,
        count=count,
        cpu_api_seconds=statistics.median(runs),
        cpu_api_runs=runs,
        cpu_exhaustive_seconds=t_ex,
    )


@pytest.mark.parametrize("pname", PATTERNS)
def test_cpu_engine_big(benchmark, pname):
    info = _bench_cpu(benchmark, "big", pname)
    assert info["count"] > 0 and info["cpu_api_seconds"] > 0


@pytest.mark.parametrize("pname", PATTERNS)
def test_cpu_engine_small(benchmark, pname):
    info = _bench_cpu(benchmark, "small", pname)
    assert info["count"] > 0 and info["cpu_api_seconds"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("pname", PATTERNS)
def test_networkx_small(benchmark, pname):
    G, _ = _graph("small")
    count, seconds, done = benchmark.pedantic(
        nx_count, args=(G, pname, None), rounds=1, iterations=1
    )
    cpu = _cpu_times("small", pname)
    info = _record(
        benchmark, "small", pname, **cpu, networkx_finished=done, networkx_seconds=seconds
    )
    assert done and count == info["count"], (pname, count, info["count"])
    assert info["ratio_api"] > 0 and info["ratio_exhaustive"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("pname", PATTERNS)
def test_networkx_big_capped(benchmark, pname):
    G, _ = _graph("big")
    count, seconds, done = benchmark.pedantic(
        nx_count, args=(G, pname, NX_CAP), rounds=1, iterations=1
    )
    cpu = _cpu_times("big", pname)
    fields: dict = {**cpu, "networkx_finished": done, "networkx_seconds": seconds}
    if not done:
        fields["networkx_mappings_found_before_cap"] = count
    info = _record(benchmark, "big", pname, **fields)
    if done:
        assert count == info["count"], (pname, count, info["count"])
        assert info["ratio_api"] > 0
    else:
        assert count < info["count"] and info["ratio_api_at_least"] > 0


if __name__ == "__main__":
    main()
