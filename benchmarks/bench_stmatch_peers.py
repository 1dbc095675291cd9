"""Static matching side by side with STMatch and cuTS on their own query sets (issue 33).

usage: python3 benchmarks/bench_stmatch_peers.py OUT_DIR --kit .peers/stmatch --work WORK
       [--graphs facebook,pl1m] [--sets ue,l8,l32,uv] [--groups kit,sampled] [--plan G/S/Q,...]
       [--engine cuda|cpu] [--deadline S] [--cell-timeout S] [--peers stmatch,cuts]

The peers are built by ``benchmarks/peers/stmatch/build_peers.sh KIT WORK`` (run beside this
script by ``benchmarks/device_stmatch_peers.sh``; this script waits for its flags). For each
graph it converts the arrays it loads (facebook: the bundled SNAP file; pl1m / pl10m:
``powerlaw_graph.py`` as in bench_common.POWERLAW) into STMatch's binary CSR and cuTS's text
graph (``benchmarks/peers/stmatch/peer_io.py``), with vertex labels drawn with a fixed seed
(``default_rng([33, L]).integers(0, L, n)``, L = 8 and 32).

Cells are (graph, set, query). Sets (what is counted, and which peer binary counts the same):

* ``ue``  unlabelled, non-induced, mappings  — STMatch ``table_edge_ulb`` (test_table3a.sh),
  cuTS (its only mode);
* ``uv``  unlabelled, induced, mappings      — STMatch ``table_vertex_ulb`` (test_table3b.sh);
* ``l8`` / ``l32``  vertex-labelled (8 / 32 labels), non-induced, mappings — STMatch
  ``table_edge_lb`` (test_table4.sh; only for queries whose labels are all distinct: STMatch's
  labelled mode removes no matched vertex from a candidate set, so only distinct labels keep
  its matches injective).

Queries: ``kit`` = Q1..Q24 (STMatch ``data/pattern/i.g`` = cuTS ``pattern/i.g``, isomorphic
pairs; labelled sets use STMatch's vertex labels, vertex i has label i); ``sampled`` = S8d,
S8s, S10d, S10s, S12d, S12s per graph: random walks with a fixed seed, dense = the walk's nodes'
induced subgraph, sparse = the walk's own edges; labels (l8/l32) are the data labels of the
walk's nodes. Sampled queries are also counted on a small induced subgraph around the walk
(shrunk until the CPU engine finishes in ``--cpu-max-work``) by the CPU engine and by
``--engine``: the equality check the issue asks for.

Ours: ``nx_gpumine.count_subgraphs(graph, pattern, count="mappings", ...)`` on a prepared
StaticGraph, timed as bench_static_peers.py does (one warm-up call with NVRTC compile, then
repeats: median kernel time from CUDA events over the call's launches, and whole-call host
time), in a worker process the driver kills after ``--cell-timeout`` (plus compile allowance)
so that one slow cell cannot take the call down; ``max_work=--max-work`` refuses hopeless
counts before any search. Peers: one process per cell (as their scripts run), killed after
``--cell-timeout`` plus the process overhead measured by a triangle smoke run on that graph;
their own printed kernel time (CUDA events) is reported. After a system runs past the cell
timeout on a cell of a (graph, set) group, its later cells in the group that are at least as
heavy are skipped and listed with the reason: heavy = our estimated search work for ours and
STMatch (both search one match per subgraph), our mappings count for cuTS (it enumerates and
stores every mapping). cuTS is also skipped where our count exceeds its result table.

Writes OUT_DIR/stmatch_peers.json, OUT_DIR/stmatch_peers.md (rewritten after every cell) and
OUT_DIR/peer_runs.log (every peer command with its output).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers" / "stmatch"))
sys.path.append(str(HERE.parent))  # the repository, when nx_gpumine is not installed

import peer_io as pio  # noqa: E402
from bench_common import (  # noqa: E402
    FACEBOOK_SOURCE,
    POWERLAW,
    facebook_edges,
    powerlaw_source,
    search_order_from_env,
    static_tuning_from_env,
)

SEED = 33  # labels and sampled queries (the issue number)
LABELS = {"ue": None, "uv": None, "l8": 8, "l32": 32}
INDUCED = {"ue": False, "uv": True, "l8": False, "l32": False}
SAMPLED = [(8, True), (8, False), (10, True), (10, False), (12, True), (12, False)]
TINY = (400, 2400, 2.3, 40, 1)  # powerlaw_graph.generate arguments of the local test graph
STMATCH_DEGREE = 4096  # STMatch's GRAPH_DEGREE (src/config.h): candidate sets per slot
CUTS_MAX_K = 12  # cuTS's QUERY_NODES (inc/common.h)
#: cuTS's CPU_FINAL_TABLE_SIZE (words of managed memory holding every match) per build
CUTS_TABLE_WORDS = {"cuts": 30_000_000_000, "cuts_small": 12_000_000_000}
STMATCH_K = 7  # STMatch's PAT_SIZE as published
PEER_TARGETS = {  # (set, big) -> build target; cuTS is "cuts"
    ("ue", False): "table_edge_ulb",
    ("uv", False): "table_vertex_ulb",
    ("l8", False): "table_edge_lb",
    ("l32", False): "table_edge_lb",
    ("ue", True): "big_edge_ulb",
    ("l8", True): "big_edge_lb",
    ("l32", True): "big_edge_lb",
}

T_START = time.perf_counter()


def elapsed() -> float:
    return time.perf_counter() - T_START


def log(msg: str) -> None:
    print(f"[{elapsed():7.1f}s] {msg}", flush=True)


# =============================================================================== graphs
def graph_arrays(name: str) -> tuple[np.ndarray, np.ndarray, int, str]:
    """Edge arrays ``(a, b, n, source)`` of a named graph (the arrays ours are built from)."""
    if name == "facebook":
        a, b, n = facebook_edges()
        return a, b, n, FACEBOOK_SOURCE
    if name.startswith("fb") and name[2:].isdigit():  # facebook induced on nodes 0..N-1
        a, b, _ = facebook_edges()
        n = int(name[2:])
        keep = (a < n) & (b < n)
        return a[keep], b[keep], n, f"{FACEBOOK_SOURCE}, induced on nodes 0..{n - 1}"
    from powerlaw_graph import generate

    if name == "tiny":
        a, b = generate(*TINY)
        return a, b, TINY[0], powerlaw_source(TINY)
    spec = POWERLAW[name]
    a, b = generate(*spec, device=spec[1] >= 50_000_000)
    return np.asarray(a), np.asarray(b), spec[0], powerlaw_source(spec)


def labels_for(n: int, L: int) -> np.ndarray:
    return np.random.default_rng([SEED, L]).integers(0, L, n).astype(np.int32)


class Data:
    """One graph: arrays, CSR, labels, and the peers' input files under WORK/inputs/NAME."""

    def __init__(self, name: str, work: Path, write_cuts: bool):
        t = time.perf_counter()
        self.name = name
        a, b, n, self.source = graph_arrays(name)
        self.n = n
        self.gen_s = time.perf_counter() - t
        t = time.perf_counter()
        self.indptr, self.indices = pio.csr(a, b, n)
        self.labels = {L: labels_for(n, L) for L in (8, 32)}
        self.maxdeg = int(np.diff(self.indptr).max())
        self.m = int(self.indptr[-1]) // 2
        d = work / "inputs" / name
        d.mkdir(parents=True, exist_ok=True)
        # the worker rebuilds ours from exactly these arrays
        np.savez(d / "arrays.npz", a=a, b=b, n=n, l8=self.labels[8], l32=self.labels[32])
        self.stm = {
            None: pio.write_stmatch_graph(d / "stm_u", self.indptr, self.indices, None),
            8: pio.write_stmatch_graph(d / "stm_l8", self.indptr, self.indices, self.labels[8]),
            32: pio.write_stmatch_graph(d / "stm_l32", self.indptr, self.indices, self.labels[32]),
        }
        self.cuts = d / f"{name}.g"
        if write_cuts:
            pio.write_cuts_graph(self.cuts, self.indptr, self.indices)
        self.convert_s = time.perf_counter() - t
        self.arrays = d / "arrays.npz"

    def info(self) -> dict:
        return {
            "source": self.source,
            "n": self.n,
            "m": self.m,
            "max_degree": self.maxdeg,
            "generate_s": round(self.gen_s, 3),
            "convert_s": round(self.convert_s, 3),
            "label_seed": f"default_rng([{SEED}, L]).integers(0, L, n)",
            "label_counts": {
                L: np.bincount(v, minlength=L).tolist() for L, v in self.labels.items()
            },
        }


# =============================================================================== queries
class Query:
    def __init__(self, name: str, k: int, edges, labels: dict, stm: dict, cuts: Path | None):
        self.name, self.k, self.edges = name, k, edges
        self.labels = labels  # set-name/None -> list of labels (None: unlabelled)
        self.stm = stm  # None|8|32 -> STMatch pattern file (labels as in self.labels)
        self.cuts = cuts
        self.small: dict = {}  # sampled: L -> small-graph check inputs and CPU count
        self.nodes: list[int] | None = None
        self.aut = {L: pio.automorphisms(k, edges, lab) for L, lab in labels.items()}

    def desc(self) -> dict:
        return {"k": self.k, "edges": len(self.edges), "edge_list": self.edges}


def kit_queries(kit: Path, qdir: Path) -> list[Query]:
    import networkx as nx

    out = []
    for i in range(1, 25):
        stm_file = kit / "data" / "pattern" / f"{i}.g"
        cuts_file = kit / "ComparedSystems" / "CuTS" / "pattern" / f"{i}.g"
        k, edges, lab = pio.read_stmatch_pattern(stm_file)
        kc, ec = pio.read_cuts_pattern(cuts_file)
        same = kc == k and nx.is_isomorphic(nx.Graph(edges), nx.Graph(ec))
        if not same:  # never seen: the kit's two copies are isomorphic pairs
            log(f"WARNING: Q{i}: STMatch and cuTS pattern files differ; cuTS not run on it")
        out.append(
            Query(
                f"Q{i}",
                k,
                edges,
                {None: None, 8: lab, 32: lab},
                {None: stm_file, 8: stm_file, 32: stm_file},
                cuts_file if same else None,
            )
        )
    return out


def sampled_queries(data: Data, qdir: Path) -> list[Query]:
    out = []
    for k, dense in SAMPLED:
        rng = np.random.default_rng([SEED, k, int(dense)])
        nodes, edges = pio.sample_query(data.indptr, data.indices, k, rng, dense=dense)
        name = f"S{k}{'d' if dense else 's'}"
        labels = {None: None}
        for L in (8, 32):
            labels[L] = [int(data.labels[L][v]) for v in nodes]
        order = pio.stmatch_order(k, edges)
        stm = {}
        for L, lab in labels.items():
            kk, e2, l2 = pio.relabel(k, edges, lab, order)
            tag = "u" if L is None else f"l{L}"
            stm[L] = pio.write_stmatch_pattern(qdir / data.name / f"{name}_{tag}.stm.g", kk, e2, l2)
        cuts = pio.write_cuts_pattern(qdir / data.name / f"{name}.cuts.g", k, edges)
        q = Query(name, k, edges, labels, stm, cuts)
        q.nodes = nodes
        out.append(q)
    return out


def nx_pattern(q: Query, L):
    import networkx as nx

    P = nx.Graph()
    P.add_nodes_from(range(q.k))
    P.add_edges_from(q.edges)
    if L is not None:
        for v in range(q.k):
            P.nodes[v]["label"] = int(q.labels[L][v])
    return P


# =============================================================================== ours (worker)
def _worker(conn, engine: str) -> None:
    """Runs our cells in its own process (the driver kills it when a cell runs too long)."""
    import nx_gpumine as ng
    from nx_gpumine.errors import WorkLimitError
    from nx_gpumine.inputs.patterns import Pattern
    from nx_gpumine.inputs.static_graph import from_arrays
    from nx_gpumine.interfaces.cli.warmup import warm_estimates

    search_order_from_env()  # BENCH_SEARCH_ORDER: the A/B of issue 33's search order
    static_tuning_from_env()  # BENCH_STATIC_TUNING: e.g. full_raw_reuse=1
    # the work check (max_work) samples with the CPU engine: its numba compile (30-70 s
    # cold) is done here, before the first cell, not inside the first estimated cell's call
    warm_estimates()
    gpu = None
    if engine == "cuda":
        from nx_gpumine.engines.cuda import _runtime
        from nx_gpumine.engines.cuda import static as gpu

        conn.send(("ready", {"device": _runtime.device_info()}))
    else:
        conn.send(("ready", {"device": "cpu"}))
    cache: dict = {}

    def graph(path: str, L):
        key = (path, L)
        if key not in cache:
            if not any(k[0] == path for k in cache):
                cache.clear()  # one data graph at a time
                if gpu is not None:
                    import cupy

                    cupy.get_default_memory_pool().free_all_blocks()
            z = np.load(path)
            lab = None if L is None else z[f"l{L}"]
            cache[key] = from_arrays(z["a"], z["b"], num_nodes=int(z["n"]), node_labels=lab)
        return cache[key]

    def call(g, pat, spec, **extra):
        kw = {"node_label": "label"} if spec["L"] is not None else {}
        return ng.count_subgraphs(
            g, pat, induced=spec["induced"], count="mappings", engine=engine, **kw, **extra
        )

    while True:
        try:
            spec = conn.recv()
        except EOFError:
            return
        if spec is None:
            return
        try:
            P = spec["pattern"]
            pat = Pattern.from_networkx(P, node_label="label" if spec["L"] is not None else None)
            if "small" in spec:  # the equality check on a small graph
                s = spec["small"]
                g = from_arrays(s["a"], s["b"], num_nodes=s["n"], node_labels=s["labels"])
                conn.send(("final", {"count": int(call(g, pat, spec))}))
                continue
            g = graph(spec["arrays"], spec["L"])
            t = time.perf_counter()
            try:
                c0 = call(g, pat, spec, max_work=spec["max_work"])
            except WorkLimitError as exc:
                e = exc.estimate
                conn.send(
                    (
                        "refused",
                        {
                            "reason": str(exc)[:300],
                            "est_count": int(getattr(e, "count", -1)),
                            "est_work": int(getattr(e, "work", -1)),
                        },
                    )
                )
                continue
            first = time.perf_counter() - t
            st = dict(gpu.last_run) if gpu is not None else {}
            base = {
                "count": int(c0),
                "first_call_s": first,
                "compile_s": float(st.get("compile_seconds", 0.0)),
                "preprocess_s": float(st.get("preprocess_seconds", 0.0)),
                "strategy": st.get("strategy"),
                "first_kernel_ms": st.get("kernel_ms"),
            }
            conn.send(("first", base))
            if first > spec["single_above_s"]:
                base.update(
                    kernel_ms=st.get("kernel_ms"),
                    wall_ms=None,
                    note=f"single call (first call {first:.1f} s): kernel time from it, "
                    "no separate whole-call time",
                )
                conn.send(("final", base))
                continue
            if first <= 1.0:  # an untimed warm call, as bench_static_peers makes
                call(g, pat, spec)
            walls, kms, counts = [], [], []
            n_rep = spec["repeat"]
            while len(walls) < n_rep:
                t = time.perf_counter()
                c = call(g, pat, spec)
                walls.append(1e3 * (time.perf_counter() - t))
                kms.append(float(gpu.last_run.get("kernel_ms", 0.0)) if gpu else None)
                counts.append(int(c))
                if len(walls) == 1:  # a few seconds of timed calls at most
                    w = walls[0] / 1e3
                    n_rep = 1 if w > 1.0 else (3 if w > 0.2 else spec["repeat"])
            base.update(
                consistent=all(c == c0 for c in counts),
                kernel_ms=float(np.median(kms)) if gpu else None,
                kernel_ms_all=kms if gpu else None,
                wall_ms=float(np.median(walls)),
                wall_ms_all=walls,
                stats={
                    k: v
                    for k, v in (gpu.last_run.items() if gpu else ())
                    if isinstance(v, int | float | str)
                },
            )
            conn.send(("final", base))
        except Exception as exc:  # recorded; the worker lives on
            conn.send(("error", {"error": repr(exc)[:500]}))
        if gpu is not None:  # leave the device memory to the peers' processes
            import cupy

            cupy.get_default_memory_pool().free_all_blocks()


class Ours:
    """The worker process, restarted after a kill."""

    def __init__(self, engine: str):
        self.engine = engine
        self.ctx = mp.get_context("spawn")
        self.proc = None
        self.conn = None
        self.device = None
        self.ready = False
        self.restarts = 0

    def start(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            return
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(child, self.engine), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.ready = False  # its "ready" message is read before the first cell
        self.restarts += 1

    def _wait_ready(self) -> None:
        if self.ready:
            return
        try:
            if self.conn.poll(180):
                _, info = self.conn.recv()
                self.device = info.get("device")
        except (EOFError, OSError):
            log(f"ours: the worker died at start (exit code {self.proc.exitcode})")
        self.ready = True

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.join(10)
        self.proc = None

    def _recv(self, timeout: float):
        if not self.conn.poll(max(timeout, 0.01)):
            return None
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            return ("crash", {"error": f"worker died (exit code {self.proc.exitcode})"})

    def run(self, spec: dict, t_first: float, t_total: float) -> dict:
        self.start()
        self._wait_ready()
        t0 = time.perf_counter()
        self.conn.send(spec)
        msg = self._recv(t_first)
        if msg is None:
            self.kill()
            return {
                "status": "TIMEOUT",
                "timeout_s": round(t_first, 1),
                "reason": f"first call killed after {t_first:.0f} s",
            }
        if msg[0] == "crash":
            self.kill()
            return {"status": "CRASH", **msg[1]}
        if msg[0] == "first":
            first = msg[1]
            left = t_total - (time.perf_counter() - t0)
            msg = self._recv(left)
            if msg is None or msg[0] == "crash":
                self.kill()
                first.update(
                    kernel_ms=first.get("first_kernel_ms"),
                    wall_ms=None,
                    note=f"repeats cut after {t_total:.0f} s: kernel time of the first call",
                )
                return {"status": "OK", **first}
        kind, info = msg
        status = {"final": "OK", "refused": "REFUSED", "error": "ERROR"}.get(kind, kind.upper())
        return {"status": status, **info}


# =============================================================================== peers
class Peers:
    def __init__(self, work: Path, out: Path, args):
        self.work = work
        self.args = args
        self.logf = open(out / "peer_runs.log", "a")  # noqa: SIM115
        self.env = dict(os.environ)
        if args.peer_module_loading:
            self.env["CUDA_MODULE_LOADING"] = args.peer_module_loading
        self.overhead: dict = {}  # (target, graph) -> seconds of a triangle run beyond its kernel
        self.cuts_target: str | None = None
        self.broken: dict = {}  # (family, graph) -> reason
        self.exclusive = False
        self.free_gpu = None  # set by main: stops our worker
        self.smoke: dict = {}

    def binary(self, target: str) -> tuple[Path | None, str]:
        """Path of a built target, waiting for the build flags; (None, reason) if none."""
        flags = self.work / "flags"
        deadline = time.perf_counter() + self.args.build_wait
        while time.perf_counter() < deadline:
            if (flags / f"{target}.ok").exists() or (flags / f"{target}.fail").exists():
                break
            if (flags / "all.done").exists():
                break
            time.sleep(0.5)
        tsv = self.work / "build.tsv"
        if tsv.exists():
            for ln in tsv.read_text().splitlines():
                p = ln.split("\t")
                if p[0] == target and p[1] == "ok" and Path(p[3]).exists():
                    return Path(p[3]), ""
                if p[0] == target:
                    return None, f"build failed (see logs/build_{target}.log)"
        return None, "not built (not in build.tsv when the build wait ended)"

    def run(self, target: str, argv: list[str], timeout: float, tag: str) -> dict:
        """Run a peer; where the GPU refuses a second process (compute mode EXCLUSIVE_PROCESS:
        "busy or unavailable" while our worker holds a context), stop our worker first, from
        then on before every peer run."""
        if self.exclusive and self.free_gpu is not None:
            self.free_gpu()
        r = self._run(target, argv, timeout, tag)
        if not self.exclusive and "busy or unavailable" in r.get("reason", ""):
            self.exclusive = True
            log("the GPU takes one process at a time: our worker stops before each peer run")
            if self.free_gpu is not None:
                self.free_gpu()
            r = self._run(target, argv, timeout, tag + " (again, our worker stopped)")
        return r

    def _run(self, target: str, argv: list[str], timeout: float, tag: str) -> dict:
        exe, why = self.binary(target)
        if exe is None:
            return {"status": "NOBINARY", "reason": why}
        cmd = [str(exe), *argv]
        t = time.perf_counter()
        try:
            p = subprocess.run(
                cmd,
                cwd=exe.parent.parent if target.startswith(("table", "big")) else exe.parent,
                capture_output=True,
                text=True,
                timeout=timeout,
                env=self.env,
                errors="replace",
            )
            rc, so, se = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as exc:
            rc = None
            so, se = (
                x if isinstance(x, str) else (x or b"").decode(errors="replace")
                for x in (exc.stdout, exc.stderr)
            )
        wall = time.perf_counter() - t
        self.logf.write(
            f"=== [{elapsed():.1f}s] {tag} rc={rc} wall={wall:.2f}s timeout={timeout:.0f}s\n"
            f"$ {' '.join(cmd)}\n{so[-3000:]}\n--- stderr\n{se[-3000:]}\n"
        )
        self.logf.flush()
        res: dict = {"wall_s": round(wall, 3), "rc": rc, "binary": target}
        parsed = (pio.parse_cuts if target.startswith("cuts") else pio.parse_stmatch)(so)
        if rc is None:
            res.update(status="TIMEOUT", reason=f"killed after {timeout:.0f} s")
        elif rc != 0:
            tail = (se.strip().splitlines() or so.strip().splitlines() or [""])[-1][:200]
            res.update(status=f"ERR{rc}", reason=tail)
        elif parsed is None:
            res.update(status="NOPARSE", reason=(so.strip().splitlines() or [""])[-1][:200])
        elif parsed["ms"] == 0.0:
            res.update(status="CUDAFAIL", reason="0.000000 ms printed: the kernel never ran")
        else:
            res.update(status="OK", **parsed)
        return res


# =============================================================================== driver
def peer_plan(q: Query, sname: str, data: Data, args) -> list[tuple[str, str, list[str]]]:
    """``(peer, target, argv)`` for the peers counting what cell (q, sname) counts, or
    ``(peer, "", reason)`` where a peer cannot take it."""
    out: list = []
    L = LABELS[sname]
    if "stmatch" in args.peers:
        lab = q.labels[L]
        big = q.k > STMATCH_K
        if data.maxdeg > STMATCH_DEGREE:
            out.append(("stmatch", "", f"max degree {data.maxdeg} > GRAPH_DEGREE {STMATCH_DEGREE}"))
        elif big and (sname == "uv" or q.k > args.stmatch_big_max_k):
            why = (
                f"{q.k} nodes: the pattern preprocessing enumerates all {q.k}! vertex "
                f"permutations (10!: 20-30 s of host time; limit --stmatch-big-max-k "
                f"{args.stmatch_big_max_k})"
                if sname != "uv"
                else f"{q.k} nodes > PAT_SIZE {STMATCH_K} (no induced big build)"
            )
            out.append(("stmatch", "", why))
        elif lab is not None and len(set(lab)) < len(lab):
            out.append(
                (
                    "stmatch",
                    "",
                    "repeated query labels: STMatch's labelled mode does not keep matches "
                    "injective (counts differ by design)",
                )
            )
        else:
            tgt = PEER_TARGETS[(sname, big)]
            out.append(("stmatch", tgt, [f"{data.stm[L]}", str(q.stm[L])]))
    if "cuts" in args.peers and sname == "ue":
        if q.cuts is None:
            out.append(("cuts", "", "no cuTS pattern file"))
        elif q.k > CUTS_MAX_K:
            out.append(("cuts", "", f"{q.k} nodes > QUERY_NODES {CUTS_MAX_K}"))
        else:
            out.append(("cuts", "cuts", [str(data.cuts), str(q.cuts)]))
    return out


def write_outputs(out: Path, meta: dict, rows: list, checks: list) -> None:
    (out / "stmatch_peers.json").write_text(
        json.dumps({**meta, "rows": rows, "small_graph_checks": checks}, indent=1, default=str)
    )
    (out / "stmatch_peers.md").write_text(markdown(meta, rows, checks))


def _ms(v) -> str:
    return "" if v is None else f"{v:.3f}"


def _peer_cell(r: dict, peer: str) -> tuple[str, str]:
    p = r.get(peer)
    if not p:
        return "", ""
    if p.get("status") == "OK":
        ratio = p.get("ratio")
        return f"{p['ms']:.3f}", "" if ratio is None else f"{ratio:.2f}"
    return p.get("status", ""), ""


def markdown(meta: dict, rows: list, checks: list) -> str:
    dev = meta.get("device")
    dev_name = dev.get("name") if isinstance(dev, dict) else dev
    lines = [
        "# Ours vs STMatch and cuTS on their query sets (issue 33)",
        "",
        f"Device: {dev_name}; engine {meta.get('engine')}; STMatch/cuTS builds: "
        f"{meta.get('builds', {})}; elapsed {meta.get('elapsed_s', 0):.0f} s.",
        "Counts are mappings (injective maps; distinct subgraphs x |Aut|). ue = unlabelled "
        "non-induced (STMatch table3a, cuTS), uv = unlabelled induced (STMatch table3b), "
        "l8/l32 = vertex-labelled non-induced (STMatch table4). ratio = peer ms / our kernel ms "
        "(> 1: ours faster). Peer ms = the peer's own CUDA-event kernel time.",
        "",
        "| graph | set | query | k/edges | mappings (ours) | our kernel ms | our call ms | "
        "call <= kernel+5%+1ms | STMatch ms | ratio | cuTS ms | ratio | counts equal | notes |",
        "|---|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        if "not_run" in r:
            lines.append(
                f"| {r['graph']} | {r['set']} | {r['group']} queries | | NOT RUN: {r['not_run']} "
                "| | | | | | | | | |"
            )
            continue
        o = r.get("ours", {})
        notes = []
        if o.get("status") != "OK":
            notes.append(f"ours {o.get('status')}: {o.get('reason') or o.get('error') or ''}")
        elif o.get("note"):
            notes.append(o["note"])
        for peer in ("stmatch", "cuts"):
            p = r.get(peer)
            if p and p.get("status") != "OK":
                notes.append(f"{peer}: {p.get('status')} {p.get('reason', '')}".strip())
        eq = [
            r[peer]["counts_equal"]
            for peer in ("stmatch", "cuts")
            if "counts_equal" in r.get(peer, {})
        ]
        s_ms, s_ratio = _peer_cell(r, "stmatch")
        c_ms, c_ratio = _peer_cell(r, "cuts")
        within = r.get("call_within")
        count = f"{o['count']:,}" if o.get("status") == "OK" else o.get("status", "")
        lines.append(
            f"| {r['graph']} | {r['set']} | {r['query']} | {r['k']}/{r['edges']} | {count} | "
            f"{_ms(o.get('kernel_ms'))} | {_ms(o.get('wall_ms'))} | "
            f"{'' if within is None else within} | {s_ms} | {s_ratio} | {c_ms} | {c_ratio} | "
            f"{all(eq) if eq else ''} | {'; '.join(notes)[:300]} |"
        )
    if checks:
        lines += [
            "",
            "## Sampled queries: ours vs the CPU engine on a small induced subgraph",
            "",
            "| graph | set | query | small graph n/m | CPU count | engine count | equal |",
            "|---|---|---|---|---:|---:|---|",
        ]
        for c in checks:
            lines.append(
                f"| {c['graph']} | {c.get('set')} | {c['query']} | {c.get('n')}/{c.get('m')} | "
                f"{c.get('cpu_count', c.get('cpu_error', ''))} | "
                f"{c.get('engine_count', c.get('engine_status', ''))} | {c.get('equal', '')} |"
            )
    return "\n".join(lines) + "\n"


def small_check(data: Data, q: Query, L, induced: bool, cpu_max_work: int) -> dict:
    """CPU count of ``q`` on the smallest-needed induced subgraph around its walk."""
    import nx_gpumine as ng
    from nx_gpumine.errors import WorkLimitError
    from nx_gpumine.inputs.static_graph import from_arrays

    P = nx_pattern(q, L)
    kw = {"node_label": "label"} if L is not None else {}
    res: dict = {"graph": data.name, "query": q.name, "labels": L}
    for size in (400, 200, 100, 60, 40, 25, 16, q.k):
        sub = pio.ball(data.indptr, data.indices, q.nodes, size)
        a, b = pio.induced_edges(data.indptr, data.indices, sub)
        lab = None if L is None else data.labels[L][sub]
        g = from_arrays(a, b, num_nodes=len(sub), node_labels=lab)
        t = time.perf_counter()
        try:
            c = ng.count_subgraphs(
                g, P, induced=induced, count="mappings", engine="cpu", max_work=cpu_max_work, **kw
            )
        except WorkLimitError:
            continue
        res.update(
            n=len(sub),
            m=len(a),
            cpu_count=int(c),
            cpu_s=round(time.perf_counter() - t, 3),
            small={"a": a, "b": b, "n": len(sub), "labels": lab},
        )
        return res
    res["cpu_error"] = "refused at every size"
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--kit", default=".peers/stmatch", help="the kit's stmatch/ folder")
    ap.add_argument("--work", default="/tmp/stm_work", help="build_peers.sh's WORK folder")
    ap.add_argument(
        "--graphs",
        default="facebook,pl1m",
        help="also: pl10m, tiny, fbN (facebook induced on nodes 0..N-1)",
    )
    ap.add_argument("--sets", default="ue,l8,l32,uv")
    ap.add_argument("--groups", default="kit,sampled")
    ap.add_argument(
        "--plan",
        default="",
        help="explicit cell-group order, comma list of GRAPH/SET/GROUP (default: ue/kit, "
        "l8/kit, l32/kit, l32/sampled, l8/sampled, uv/kit, ue/sampled, each on every graph but "
        "pl10m in --graphs order; then pl10m's kit queries)",
    )
    ap.add_argument("--queries", default="", help="only these query names (e.g. Q1,Q7,S8d)")
    ap.add_argument("--peers", default="stmatch,cuts", help="'none' for ours only")
    ap.add_argument("--engine", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--deadline", type=float, default=520.0, help="seconds from start")
    ap.add_argument("--cell-timeout", type=float, default=20.0)
    ap.add_argument("--compile-allowance", type=float, default=10.0)
    ap.add_argument("--max-work", type=float, default=2e10, help="ours: refuse above (est.)")
    ap.add_argument("--cpu-max-work", type=float, default=2e7, help="small-graph CPU checks")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--single-above", type=float, default=6.0, help="s: no repeats above")
    ap.add_argument("--stmatch-big-max-k", type=int, default=8)
    ap.add_argument("--build-wait", type=float, default=240.0)
    ap.add_argument("--smoke-timeout", type=float, default=60.0, help="triangle smoke runs")
    ap.add_argument("--peer-module-loading", default="EAGER", help="CUDA_MODULE_LOADING for peers")
    ap.add_argument("--cuts-trunks-retry", type=int, default=4, help="0: no retry")
    args = ap.parse_args()
    args.peers = [] if args.peers == "none" else args.peers.split(",")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    kit = Path(args.kit).resolve()  # peers run in their build folders: absolute query paths
    qdir = work / "queries"
    graphs = args.graphs.split(",")
    sets = args.sets.split(",")
    groups = args.groups.split(",")
    if args.plan:
        plan = [tuple(p.split("/")) for p in args.plan.split(",")]
    else:
        small = [g for g in graphs if g != "pl10m"]
        # the peers' own query sets unlabelled first (table3a, cuTS), then the labelled cells
        # (cheap), the sampled labelled queries, the induced set (table3b: slow on facebook),
        # and the sampled unlabelled queries last (mostly beyond reach on the full graphs); no
        # induced set for sampled queries (STMatch has no induced build above 7 nodes)
        order = [
            ("ue", "kit"),
            ("l8", "kit"),
            ("l32", "kit"),
            ("l32", "sampled"),
            ("l8", "sampled"),
            ("uv", "kit"),
            ("ue", "sampled"),
        ]
        plan = [(g, s, q) for s, q in order if s in sets and q in groups for g in small]
        if "pl10m" in graphs:
            plan += [("pl10m", s, "kit") for s in sets if s != "uv"]
    only = set(args.queries.split(",")) if args.queries else None
    for _g, sname, grp in plan:
        if sname not in LABELS or grp not in ("kit", "sampled"):
            ap.error(f"unknown set {sname!r} or query group {grp!r} in the plan")

    ours = Ours(args.engine)

    def on_term(signum, frame):  # `timeout` in the device script: end the worker, keep results
        ours.kill()
        raise SystemExit(f"signal {signum}")

    signal.signal(signal.SIGTERM, on_term)
    ours.start()  # its imports and CUDA context come up while the inputs are written
    meta = {
        "issue": 33,
        "engine": args.engine,
        "search_order": search_order_from_env(),
        "static_tuning": static_tuning_from_env(),
        "device": ours.device,
        "args": vars(args),
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "graphs": {},
        "builds": {},
        "smoke": {},
    }
    rows: list = []
    checks: list = []
    datas: dict[str, Data] = {}
    kitq = kit_queries(kit, qdir)
    sampled: dict[str, list[Query]] = {}

    def get_data(g: str) -> Data:
        if g not in datas:
            datas[g] = Data(g, work, write_cuts="cuts" in args.peers)
            meta["graphs"][g] = datas[g].info()
            log(f"graph {g}: {meta['graphs'][g]}")
        return datas[g]

    # inputs of the small graphs first, sampled queries and their CPU checks (while peers build)
    for g in dict.fromkeys(p[0] for p in plan if p[0] != "pl10m"):
        get_data(g)
    for g, _s, grp in plan:
        if grp != "sampled" or g in sampled:
            continue
        sampled[g] = sampled_queries(get_data(g), qdir)
    for g, s, grp in plan:
        if grp != "sampled" or g == "pl10m":
            continue
        for q in sampled[g]:
            L = LABELS[s]
            if (L, INDUCED[s]) in q.small or (only and q.name not in only):
                continue
            c = small_check(datas[g], q, L, INDUCED[s], int(args.cpu_max_work))
            c["set"] = s
            q.small[(L, INDUCED[s])] = c
            checks.append(c)
            log(f"small check {g} {q.name} L={L}: n={c.get('n')} cpu={c.get('cpu_count')}")
    write_outputs(out, meta, rows, [{k: v for k, v in c.items() if k != "small"} for c in checks])

    peers = Peers(work, out, args)
    peers.free_gpu = ours.kill
    # smoke: a triangle on each graph per peer binary family (overhead, the cuTS table size)
    tri = work / "queries" / "triangle"
    tri_stm = pio.write_stmatch_pattern(tri / "tri.stm.g", 3, [(0, 1), (0, 2), (1, 2)], [0, 1, 2])
    tri_cuts = pio.write_cuts_pattern(tri / "tri.cuts.g", 3, [(0, 1), (0, 2), (1, 2)])

    def smoke(target: str, data: Data) -> None:
        key = (target, data.name)
        if key in peers.overhead or target == "":
            return
        tgt = target
        if target == "cuts":
            tgt = peers.cuts_target or "cuts"
        argv = (
            [str(data.cuts), str(tri_cuts)]
            if tgt.startswith("cuts")
            else [str(data.stm[8 if target.endswith("_lb") else None]), str(tri_stm)]
        )
        r = peers.run(tgt, argv, args.smoke_timeout, f"smoke {tgt} {data.name}")
        if tgt == "cuts" and r["status"] not in ("OK", "NOBINARY", "TIMEOUT"):
            r2 = peers.run("cuts_small", argv, args.smoke_timeout, f"smoke cuts_small {data.name}")
            r["fallback_cuts_small"] = r2
            if r2["status"] == "OK":
                peers.cuts_target, r = "cuts_small", r2
        if target == "cuts" and peers.cuts_target is None and r["status"] == "OK":
            peers.cuts_target = "cuts"
        ovh = r["wall_s"] - r.get("ms", 0.0) / 1e3 if r["status"] == "OK" else None
        peers.overhead[key] = ovh
        if r["status"] == "TIMEOUT":  # a hang on a triangle: every cell would hang the same way
            peers.broken[key] = f"the triangle smoke run timed out ({args.smoke_timeout:.0f} s)"
        meta["smoke"][f"{target}/{data.name}"] = r
        log(f"smoke {target} {data.name}: {r.get('status')} overhead={ovh} count={r.get('count')}")

    floors: dict = {}  # (system, graph, set) -> smallest est. work of a timed-out cell
    est_cache: dict = {}
    est_graphs: dict = {}

    def estimate(data: Data, q: Query, sname: str) -> tuple[int | None, int | None]:
        """Our estimate ``(work, mappings)`` of a cell (CPU sampling, a fraction of a second)."""
        key = (data.name, q.name, sname)
        if key not in est_cache:
            import nx_gpumine as ng
            from nx_gpumine.inputs.static_graph import from_arrays

            L = LABELS[sname]
            gk = (data.name, L)
            if gk not in est_graphs:
                if len(est_graphs) > 3:
                    est_graphs.clear()
                z = np.load(data.arrays)
                est_graphs[gk] = from_arrays(
                    z["a"],
                    z["b"],
                    num_nodes=data.n,
                    node_labels=None if L is None else data.labels[L],
                )
            g = est_graphs[gk]
            kw = {"node_label": "label"} if L is not None else {}
            try:
                e = ng.estimate(g, nx_pattern(q, L), induced=INDUCED[sname], **kw)
                est_cache[key] = (int(e.work), int(e.count))
            except Exception:
                est_cache[key] = (None, None)
        return est_cache[key]

    def cost(system: str, data: Data, q: Query, sname: str, count: int | None):
        """How heavy a cell is for ``system``: ``(value, what)``. cuTS enumerates and stores
        every mapping (no symmetry breaking): the mappings count (ours, else our estimate);
        STMatch and ours search one match per subgraph: our estimated search work."""
        if system == "cuts":
            if count is None:
                count = estimate(data, q, sname)[1]
            return count, "mappings"
        return estimate(data, q, sname)[0], "estimated work"

    def skip_reason(system: str, data: Data, q: Query, sname: str, count=None) -> str | None:
        fl = floors.get((system, data.name, sname))
        if fl is None:
            return None
        v, what = cost(system, data, q, sname, count)
        if v is not None and v >= fl[0]:
            return (
                f"skipped: {what} {v:.3g} >= {fl[0]:.3g} of {fl[1]}, which ran past the cell "
                f"timeout ({fl[2]:.0f} s)"
            )
        return None

    def timed_out(system: str, data: Data, q: Query, sname: str, t: float, count=None) -> None:
        v, _ = cost(system, data, q, sname, count)
        key = (system, data.name, sname)
        if v is not None and (key not in floors or v < floors[key][0]):
            floors[key] = (v, q.name, t)

    stop = False
    for g, sname, grp in plan:
        if stop:
            rows.append({"graph": g, "set": sname, "group": grp, "not_run": "deadline"})
            continue
        if g not in datas and args.deadline - elapsed() < 120:  # pl10m: ~1 min to make
            rows.append({"graph": g, "set": sname, "group": grp, "not_run": "deadline"})
            stop = True
            continue
        data = get_data(g)
        queries = kitq if grp == "kit" else sampled.get(g) or sampled_queries(data, qdir)
        L = LABELS[sname]
        for q in queries:
            if only and q.name not in only:
                continue
            left = args.deadline - elapsed()
            if left < 15:
                log(f"deadline: stopping before {g}/{sname}/{q.name}")
                rows.append(
                    {"graph": g, "set": sname, "group": grp, "not_run": f"deadline ({q.name} on)"}
                )
                stop = True
                break
            row: dict = {
                "graph": g,
                "set": sname,
                "query": q.name,
                "group": grp,
                "labels": L,
                "induced": INDUCED[sname],
                "count_kind": "mappings",
                "automorphisms": q.aut[L],
                **q.desc(),
            }
            if q.nodes is not None:
                row["query_labels"] = q.labels[L]
            # ---- ours
            why = skip_reason("ours", data, q, sname)
            if why:
                row["ours"] = {"status": "SKIPPED", "reason": why}
            else:
                spec = {
                    "arrays": str(data.arrays),
                    "L": L,
                    "induced": INDUCED[sname],
                    "pattern": nx_pattern(q, L),
                    "max_work": int(args.max_work),
                    "repeat": args.repeat,
                    "single_above_s": args.single_above,
                }
                t1 = min(args.cell_timeout + args.compile_allowance, left - 10)
                row["ours"] = ours.run(spec, t1, min(3 * args.cell_timeout, left - 10))
                if row["ours"]["status"] == "TIMEOUT":
                    timed_out("ours", data, q, sname, t1)
                elif row["ours"].get("first_call_s", 0.0) > args.cell_timeout:
                    # finished, but slower than a peer may run: later heavier cells are skipped
                    timed_out("ours", data, q, sname, row["ours"]["first_call_s"])
            o = row["ours"]
            if o.get("status") == "REFUSED" and o.get("est_work", -1) >= 0:
                est_cache[(g, q.name, sname)] = (o["est_work"], o["est_count"])
            if o.get("status") == "OK" and o.get("kernel_ms") is not None and o.get("wall_ms"):
                row["call_within"] = o["wall_ms"] <= o["kernel_ms"] * 1.05 + 1.0
            # ---- small-graph check (sampled)
            c = q.small.get((L, INDUCED[sname]))
            if c is not None and "small" in c and elapsed() < args.deadline - 15:
                r = ours.run(
                    {
                        "small": c["small"],
                        "L": L,
                        "induced": INDUCED[sname],
                        "pattern": nx_pattern(q, L),
                    },
                    args.cell_timeout + args.compile_allowance,
                    args.cell_timeout,
                )
                if r["status"] == "OK":
                    c["engine_count"] = r["count"]
                    c["equal"] = r["count"] == c["cpu_count"]
                else:
                    c["engine_status"] = f"{r['status']} {r.get('error', '')}"
                row["small_check"] = {k: v for k, v in c.items() if k != "small"}
            # ---- peers
            our_count = o.get("count") if o.get("status") == "OK" else None
            peer_ms = []
            for peer, target, argv in peer_plan(q, sname, data, args):
                if not target:
                    row[peer] = {"status": "UNSUPPORTED", "reason": argv}
                    continue
                why = skip_reason(peer, data, q, sname, our_count)
                if peer == "cuts" and our_count is not None and not why:
                    words = CUTS_TABLE_WORDS[peers.cuts_target or "cuts"]
                    if our_count > words:
                        why = (
                            f"{our_count:.3g} mappings > the {words:.3g}-word result table of "
                            f"{peers.cuts_target or 'cuts'} (cuTS stores every match: it would "
                            "write past the table)"
                        )
                if why:
                    row[peer] = {"status": "SKIPPED", "reason": why}
                    continue
                fam = "cuts" if peer == "cuts" else target
                smoke(fam, data)
                if (fam, g) in peers.broken:
                    row[peer] = {"status": "SKIPPED", "reason": peers.broken[(fam, g)]}
                    continue
                run_target = (peers.cuts_target or "cuts") if peer == "cuts" else target
                ovh = peers.overhead.get((fam, g)) or 0.0
                left = args.deadline - elapsed()
                if left < 15:
                    row[peer] = {"status": "SKIPPED", "reason": "deadline"}
                    continue
                tmo = min(args.cell_timeout + ovh, left - 10)
                r = peers.run(run_target, argv, tmo, f"{g} {sname} {q.name} {peer}")
                if (
                    peer == "cuts"
                    and r["status"].startswith("ERR")
                    and args.cuts_trunks_retry
                    and args.deadline - elapsed() > tmo + 15
                ):
                    r2 = peers.run(
                        run_target,
                        [*argv, str(args.cuts_trunks_retry)],
                        tmo,
                        f"{g} {sname} {q.name} cuts trunks={args.cuts_trunks_retry}",
                    )
                    r2["first_try"] = {k: r[k] for k in ("status", "reason", "wall_s")}
                    r2["trunks"] = args.cuts_trunks_retry
                    r = r2
                if r["status"] == "TIMEOUT":
                    timed_out(peer, data, q, sname, tmo, our_count)
                if r["status"] == "OK":
                    if our_count is not None:
                        r["counts_equal"] = r["count"] == our_count
                    if o.get("kernel_ms"):  # none (0 / None): no kernel ran, no ratio
                        r["ratio"] = r["ms"] / o["kernel_ms"]
                    peer_ms.append(r["ms"])
                row[peer] = r
            if peer_ms and o.get("kernel_ms"):
                row["fastest_peer_ms"] = min(peer_ms)
                row["ours_ahead"] = o["kernel_ms"] < min(peer_ms)
            rows.append(row)
            meta["elapsed_s"] = elapsed()
            meta["builds"] = {
                ln.split("\t")[0]: ln.split("\t")[1]
                for ln in (
                    (work / "build.tsv").read_text().splitlines()
                    if (work / "build.tsv").exists()
                    else []
                )
            }
            meta["cuts_binary"] = peers.cuts_target
            meta["gpu_exclusive"] = peers.exclusive
            meta["device"] = ours.device
            meta["ours_worker_starts"] = ours.restarts
            write_outputs(
                out, meta, rows, [{k: v for k, v in c.items() if k != "small"} for c in checks]
            )
            st = {p: row.get(p, {}).get("status") for p in ("stmatch", "cuts") if p in row}
            log(
                f"{g:8s} {sname:3s} {q.name:4s} ours={o.get('status')} count={o.get('count')} "
                f"kernel={o.get('kernel_ms')} call={o.get('wall_ms')} peers={st} "
                + " ".join(
                    f"{p}={row[p].get('ms')}ms eq={row[p].get('counts_equal')}"
                    for p in ("stmatch", "cuts")
                    if row.get(p, {}).get("status") == "OK"
                )
            )
    ours.kill()
    meta["elapsed_s"] = elapsed()
    write_outputs(out, meta, rows, [{k: v for k, v in c.items() if k != "small"} for c in checks])
    print((out / "stmatch_peers.md").read_text())
    shutil.copy(out / "stmatch_peers.md", out / "stmatch_peers_final.md")


if __name__ == "__main__":
    main()
