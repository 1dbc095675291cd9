"""``nx-gpumine warmup`` (compile the engines once after installing) and ``nx-gpumine info``
(versions, engines, GPU)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from .common import resolve_engine, timed
from .output import Report

__all__ = [
    "cmd_info",
    "cmd_warmup",
    "tiny_static_graph",
    "warm_estimates",
    "warm_isomorphism",
    "warm_up",
    "WARM_KINDS",
]


def tiny_static_graph(directed: bool, labels: bool, big: bool = False) -> Any:
    """A small warm-up graph; ``big``: enough root entries (12,000) that engines take their
    parallel path, as they do on real graphs (tiny inputs may run a serial one)."""
    import networkx as nx

    if big:
        G = nx.gnm_random_graph(1500, 6000, seed=1, directed=directed)
    else:
        G = nx.complete_graph(6, create_using=nx.DiGraph if directed else nx.Graph)
    if labels:
        nx.set_node_attributes(G, {v: v % 2 for v in G}, "label")
        nx.set_edge_attributes(G, 0, "label")
    return G


def warm_static(engine: str) -> None:
    """Run tiny static queries through the public API (triggers each engine compile)."""
    import networkx as nx

    from ..functions import count_subgraphs, find_subgraphs, has_subgraph

    for directed, big in ((False, False), (True, False), (False, True), (True, True)):
        G = tiny_static_graph(directed, labels=False, big=big)
        P = nx.DiGraph([(0, 1), (1, 2), (0, 2)]) if directed else "triangle"
        for kind in ("mappings", "subgraphs"):
            for induced in (False, True):
                count_subgraphs(G, P, count=kind, induced=induced, engine=engine)
        find_subgraphs(G, P, engine=engine, limit=5)
        find_subgraphs(G, P, engine=engine)
        has_subgraph(G, P, engine=engine)
    count_subgraphs(tiny_static_graph(False, False), "4-cycle", count="subgraphs", engine=engine)
    GL = tiny_static_graph(False, labels=True)
    PL = nx.complete_graph(3)
    nx.set_node_attributes(PL, 0, "label")
    nx.set_edge_attributes(PL, 0, "label")
    count_subgraphs(GL, PL, node_label="label", edge_label="label", engine=engine)
    warm_isomorphism(engine)


def warm_estimates() -> None:
    """Compile the search-work estimate (``estimate``, and every count given ``max_work``),
    which samples with the CPU engine whatever engine counts: cold, numba took 33-69 s for
    it, which a first ``count_subgraphs(..., engine="cuda", max_work=...)`` paid (STMatch's Q9
    on facebook: a 2.7 s kernel, an 82 s first call on an H200's host, 69 s of it numba;
    ``benchmarks/probe_first_call.py``)."""
    import networkx as nx

    from ..functions import estimate

    G = tiny_static_graph(False, labels=False, big=True)
    for induced in (False, True):
        estimate(G, nx.cycle_graph(4), induced=induced)


def warm_isomorphism(engine: str) -> None:
    """Run tiny isomorphism calls: the backend's ``is_isomorphic`` and ``could_be_isomorphic``
    (colour refinement, triangle and maximal-clique counts) and the drop-in matchers'
    iteration (the pausable subgraph walk), undirected and directed, which compile numba code
    the subgraph queries above never reach."""
    import networkx as nx

    from ...isomorphism import DiGraphMatcher, GraphMatcher

    for directed in (False, True):
        G1 = tiny_static_graph(directed, labels=False)
        G2 = nx.relabel_nodes(G1, {v: (v + 1) % len(G1) for v in G1})
        nx.is_isomorphic(G1, G2, backend="gpumine", engine=engine)
        if not directed:  # could_be_isomorphic is defined for undirected graphs only
            # copies: NetworkX would warn that the converted graphs it cached are reused
            nx.could_be_isomorphic(G1.copy(), G2.copy(), backend="gpumine", engine=engine)
        P = nx.DiGraph([(0, 1), (1, 2), (0, 2)]) if directed else nx.complete_graph(3)
        # the matchers pick their engine as NetworkX users leave it: "auto"
        matcher = (DiGraphMatcher if directed else GraphMatcher)(G1, P)
        for _ in matcher.subgraph_isomorphisms_iter():
            pass


def warm_temporal(engine: str) -> None:
    """Run tiny temporal queries (int and float times, census) through the public API."""
    import numpy as np

    from ...inputs.temporal_graph import temporal_from_arrays
    from ..temporal_functions import count_motifs, find_motifs, has_motif, motif_census

    src = np.array([0, 1, 2, 0, 1, 2])
    dst = np.array([1, 2, 0, 2, 0, 1])
    for t in (np.arange(6, dtype=np.int64), np.arange(6, dtype=np.float64)):
        g = temporal_from_arrays(src, dst, t)
        for tie in ("strict", "input_order"):
            count_motifs(g, "triangle", delta=t[3], tie=tie, engine=engine)
            motif_census(g, t[3], tie=tie, engine=engine)
        count_motifs(g, "M4-A", delta=t[5], engine=engine)
        find_motifs(g, "triangle", delta=t[3], engine=engine, output="edge_ids")
        has_motif(g, "triangle", delta=t[3], engine=engine)


#: The families ``warm_up`` warms: the static and temporal engines, and the search-work
#: estimate (``estimate``, ``max_work=``), which runs on the CPU engine whatever engine counts.
WARM_KINDS = ("static", "temporal", "estimate")


def warm_up(engine: str, kinds: Sequence[str] = WARM_KINDS) -> dict[str, float]:
    """Compile (or load from numba's cache) the engines; seconds per engine family
    (:data:`WARM_KINDS`).

    Uses ``nx_gpumine.engines.warmup`` when the engines provide one, else tiny queries through
    the public API, which compiles whatever those calls need however the engines compile.
    """
    from ... import engines

    hook = getattr(engines, "warmup", None)
    resolved = {k: "cpu" if k == "estimate" else resolve_engine(engine, k) for k in kinds}
    times: dict[str, float] = {}
    if hook is not None:  # the engines' own warm-up
        names = tuple(dict.fromkeys(resolved.values()))
        _, secs = timed(lambda: hook(engines=names))
        times[f"engines ({', '.join(names)})"] = secs
        return times
    if len(resolved) > 1 and set(resolved.values()) == {"cpu"} and (os.cpu_count() or 1) > 1:
        # numba compiles under a process-wide lock: the families compile side by side in
        # one process each (their kernels live in different modules, so their cache files
        # differ); the on-disk cache they fill serves every later process
        import concurrent.futures
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(len(resolved), mp_context=ctx) as pool:
            futs = {k: pool.submit(_warm_kind, k, e) for k, e in resolved.items()}
            for kind, fut in futs.items():
                times[f"{kind} ({resolved[kind]})"] = fut.result()
        return times
    for kind, eng in resolved.items():
        times[f"{kind} ({eng})"] = _warm_kind(kind, eng)
    return times


def _warm_kind(kind: str, engine: str) -> float:
    """Seconds to warm one family of :data:`WARM_KINDS` in this process."""
    if kind == "estimate":
        return timed(warm_estimates)[1]
    fn = warm_static if kind == "static" else warm_temporal
    return timed(lambda: fn(engine))[1]


def cmd_warmup(args: argparse.Namespace) -> Report:
    """``warmup``: compile the engines once (numba writes its cache), report the seconds."""
    times = warm_up(args.engine)
    rows = [[k, v] for k, v in times.items()]
    data = {"command": "warmup", "seconds": times}
    notes = ["engine warm-up (first time after installing: numba compiles; later: cache load)"]
    return Report(["engine", "time_s"], rows, data, notes=notes)


def _version(mod: str) -> str:
    try:
        from importlib.metadata import version

        return version(mod)
    except Exception:
        return "not installed"


def cmd_info(args: argparse.Namespace) -> Report:
    """``info``: versions, engines, GPU, NetworkX backend registration."""
    import platform

    import networkx as nx
    import numpy as np

    from ... import __version__
    from ...engines import cuda_available

    gpu = "none found"
    if cuda_available():
        try:
            import cupy

            props = cupy.cuda.runtime.getDeviceProperties(0)
            name = props["name"]
            name = name.decode() if isinstance(name, bytes) else name
            count = cupy.cuda.runtime.getDeviceCount()
            gpu = f"{count} x {name}"
        except Exception as exc:  # pragma: no cover - depends on the driver
            gpu = f"found, but its properties could not be read ({exc})"
    registered = "gpumine" in nx.utils.backends.backends
    cupy_v = _version("cupy-cuda13x")
    rows = [
        ["nx-gpumine", __version__],
        ["python", platform.python_version()],
        ["networkx", nx.__version__],
        ["numpy", np.__version__],
        ["numba", _version("numba")],
        ["pyarrow", _version("pyarrow")],
        ["cupy", cupy_v if cupy_v != "not installed" else _version("cupy")],
        ["tqdm", _version("tqdm")],
        ["engines", "cpu, cuda" if cuda_available() else "cpu (cuda: no GPU/CuPy)"],
        ["gpu", gpu],
        ["networkx backend", "gpumine registered" if registered else "not registered"],
        ["NX_GPUMINE_ENGINE", os.environ.get("NX_GPUMINE_ENGINE", "(unset: auto)")],
    ]
    return Report(["item", "value"], rows, {"command": "info", **dict(rows)})
