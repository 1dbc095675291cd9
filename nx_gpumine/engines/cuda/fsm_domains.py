"""GPU orbit images of a labelled pattern: the MNI support by existence checks
(``kernels/fsm_domains.cu``; the CPU twin, and the method, is
:mod:`nx_gpumine.engines.cpu.fsm_domains`).

Per orbit (fewest candidates first, :class:`~nx_gpumine.plan.fsm.OrbitSearch`) the host
launches the kernel over rounds of the orbit's candidates: a warp per candidate searches for
one embedding mapping the orbit's representative to it, and marks the images of the one it
finds in the orbits' rows of ``state`` (one byte per orbit and vertex, on the device); a
candidate already marked is skipped on the device. Between rounds the host counts the
orbit's images among the candidates done and takes the early exits
(:func:`drive_rounds`, the same rounds as the CPU kernel's).

The graph's arrays go to the device once and stay there while the caller passes the same
host arrays (one graph per device is kept; :func:`forget` drops it). A graph whose mining
data exceed the device budget (:func:`in_memory`) is mined out of core: its per-entry arrays
stay in pinned host memory the kernel reads over the bus (:mod:`.hostmem`), and the level-1
and 2 passes run on the host. CuPy is imported on first use.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...device_limits import resolve_budget
from ...plan.fsm import (
    EXIST_ADJ,
    EXIST_ELAB,
    EXIST_LABEL,
    EXIST_MAX_NODES,
    EXIST_NADJ,
    EXIST_NODE,
    EXIST_WIDTH,
    IMAGE,
    LabelledPattern,
    MiningArrays,
    OrbitImages,
    OrbitSearch,
    orbit_search_or_bound,
)
from . import hostmem, memory
from ._runtime import (
    current_device,
    import_cupy,
    load_module,
    persistent_blocks,
    request_stop,
    wait_event,
)
from .kernel_args import KernelStruct

__all__ = [
    "ARGS",
    "orbit_images",
    "drive_rounds",
    "kernel_defines",
    "forget",
    "in_memory",
    "MIN_ROUND",
]

#: The kernel's argument struct (``kernels/fsm_domains.cu``).
ARGS = KernelStruct("fsm_domains.cu", "FsmArgs")
#: Threads per block (the kernel's ``FSM_THREADS``).
THREADS = 256
#: Control block words and flag (the kernel's ``C_FLAGS``, ``C_CURSOR``, ``F_STOP``).
C_FLAGS, C_CURSOR, C_WORDS = 1, 2, 16
F_STOP = 1
#: Fewest candidates of a round (a launch): about a warp per candidate for a full GPU.
MIN_ROUND = 8192

_LOCK = threading.Lock()
#: Per device id: (weak references to the host arrays, their device copies).
_GRAPHS: dict[int, tuple[tuple, dict, bool]] = {}


def kernel_defines() -> dict[str, int]:
    """The macros of ``fsm_domains.cu``: the plan table's layout
    (:class:`~nx_gpumine.plan.fsm.ExistencePlan`)."""
    return {
        "T_NODE": EXIST_NODE,
        "T_LABEL": EXIST_LABEL,
        "T_NADJ": EXIST_NADJ,
        "T_ADJ": EXIST_ADJ,
        "T_ELAB": EXIST_ELAB,
        "T_WIDTH": EXIST_WIDTH,
        "MAXK": EXIST_MAX_NODES,
    }


def forget() -> None:
    """Drop the device copies of the graph arrays (every device's)."""
    with _LOCK:
        _GRAPHS.clear()


def _weak(a: Any) -> Any:
    try:
        return weakref.ref(a)
    except TypeError:  # not weakly referable (a list): never matches
        return lambda: None


def in_memory(n: int, nnz: int) -> bool:
    """Whether mining a graph of ``n`` vertices and ``nnz`` entries fits the device budget in
    force (:func:`~nx_gpumine.device_limits.resolve_budget`: ``max_device_bytes``, else the
    device's total memory minus the margin; estimate :func:`.memory.fsm_need`). False: out of
    core (the module notes)."""
    cp = import_cupy()
    free, total = cp.cuda.runtime.memGetInfo()
    budget, explicit = resolve_budget(None, free, total)
    need = memory.fsm_need(n, nnz)
    what = f"frequent subgraph mining ({n} vertices, {nnz} entries)"
    return memory.choose(what, need, budget, n * memory.FSM_NODE_BYTES, explicit).mode == (
        "in_memory"
    )


def _device_graph(host: MiningArrays, resident: bool = True) -> dict:
    """The device copies of the graph's mining arrays, uploaded when the device holds other
    arrays (compared by identity with the host arrays last uploaded). ``resident`` False: the
    per-entry arrays (``indices``, ``elabel``, ``usable``) in pinned host memory instead, read
    by the kernel over the bus (out of core)."""
    cp = import_cupy()
    dev = current_device()
    with _LOCK:
        hit = _GRAPHS.get(dev)
        if (
            hit is not None
            and hit[2] == resident
            and all(r() is a for r, a in zip(hit[0], host, strict=True))
        ):
            return hit[1]
        indptr, indices, label, elabel, usable = host

        def per_entry(a: Any, dtype: Any) -> Any:
            a = np.asarray(a, dtype=dtype)
            return cp.asarray(a) if resident else hostmem.host_array(a, "pinned")[0]

        arrays = {
            "indptr": cp.asarray(np.asarray(indptr, dtype=np.int64)),
            "indices": per_entry(indices, np.int32),
            "label": cp.asarray(np.asarray(label, dtype=np.int32)),
            "elabel": per_entry(elabel, np.int32),
            "usable": per_entry(usable, np.uint8),
        }
        _GRAPHS[dev] = (tuple(_weak(a) for a in host), arrays, resident)
        return arrays


def drive_rounds(
    search: OrbitSearch,
    min_support: int,
    exact: bool,
    launch: Callable[[int, int, int], None],
    count: Callable[[int, int, int], int],
    least: int = MIN_ROUND,
) -> tuple[int, np.ndarray]:
    """The rounds of an orbit search: the orbits in order, each in rounds of candidates, with
    the early exits (the CPU kernel's rounds, :mod:`nx_gpumine.engines.cpu.fsm_domains`).

    Parameters
    ----------
    search : OrbitSearch
        The pattern's orbits, candidates and plans.
    min_support : int
        The threshold of the early exits.
    exact : bool
        False: an orbit stops at ``min_support`` images.
    launch : callable
        ``launch(g, lo, hi)`` checks the candidates ``search.cands[lo:hi]`` of orbit ``g``
        (and returns when done).
    count : callable
        ``count(g, lo, hi)``: how many of ``search.cands[lo:hi]`` are images of orbit ``g``.
    least : int
        Fewest candidates of a round.

    Returns
    -------
    tuple
        ``(support, counts)`` as :class:`~nx_gpumine.plan.fsm.OrbitImages` has them.
    """
    counts = np.full(len(search.groups), -1, dtype=np.int64)
    support = None
    for g in (int(x) for x in search.order):
        c0, c1 = int(search.cptr[g]), int(search.cptr[g + 1])
        if not exact:
            pre = count(g, c0, c1)
            if pre >= min_support:
                counts[g] = pre
                support = pre if support is None else min(support, pre)
                continue
        found, hi = 0, c0
        while hi < c1:
            # the fewest candidates after which an exit could come (see the CPU kernel)
            size = (c1 - c0 - min_support + 1) - ((hi - c0) - found)
            if not exact:
                size = min(size, min_support - found)
            lo, hi = hi, hi + min(max(size, least), c1 - hi)
            launch(g, lo, hi)
            found += count(g, lo, hi)
            if found + (c1 - hi) < min_support:
                counts[g] = found
                return found + (c1 - hi), counts
            if not exact and found >= min_support:
                break
        counts[g] = found
        support = found if support is None else min(support, found)
    return (0 if support is None else support), counts


def orbit_images(
    graph: MiningArrays,
    p: LabelledPattern,
    eligible: Sequence[np.ndarray],
    groups: Sequence[Sequence[int]] | None = None,
    min_support: int = 1,
    exact: bool = True,
    *,
    images: bool = True,
    resident: bool = True,
) -> OrbitImages:
    """The images of each automorphism orbit of ``p`` and its MNI support, on the GPU.

    The arguments and the result are those of
    :func:`nx_gpumine.engines.cpu.fsm_domains.orbit_images`; the host arrays are uploaded
    once while the same ones are passed again (compared by identity, array by array).

    Parameters
    ----------
    graph : MiningArrays
        The graph's union CSR (rows sorted) and codes (``GraphCodes.host``), on the host.
    p : LabelledPattern
        A connected pattern of 2 to :data:`~nx_gpumine.plan.fsm.EXIST_MAX_NODES` nodes.
    eligible : sequence of numpy.ndarray
        Per pattern node, a bool mask over the vertices holding its images.
    groups : sequence of sequence of int, optional
        The automorphism orbits of ``p`` (labels respected); computed when not given.
    min_support : int
        The threshold of the early exits.
    exact : bool
        False: every orbit stops at ``min_support`` images.
    images : bool
        Copy the image masks to the host (False: ``images`` is empty).
    resident : bool
        The graph's per-entry arrays on the device (True) or read from pinned host memory
        (False: out of core, :func:`in_memory`).

    Returns
    -------
    OrbitImages

    Raises
    ------
    nx_gpumine.EngineUnavailableError
        CuPy is missing.
    KeyboardInterrupt
        Ctrl-C while a launch ran (the launch is told to stop and waited for).
    """
    n = len(graph.indptr) - 1
    search = orbit_search_or_bound(n, p, eligible, groups, min_support, images)
    if isinstance(search, OrbitImages):
        return search
    cp = import_cupy()
    dev = _device_graph(graph, resident)
    defines = kernel_defines()
    kernel = load_module("fsm_domains.cu", defines, structs=(ARGS,)).kernel("fsm_domains")
    pack = ARGS.packer(defines)
    cands = cp.asarray(search.cands)
    state = search.initial_state(n, cp, cands)
    tables = cp.asarray(search.tables)
    orbits = cp.asarray(search.step_orbits)
    ctl = cp.zeros(C_WORDS, dtype=cp.uint64)
    max_blocks = persistent_blocks(kernel, THREADS)
    common = {name: dev[name] for name in ("indptr", "indices", "label", "elabel", "usable")}
    common.update(state=state, cands=cands, n=n, k=p.k, ctl=ctl)

    def launch(g: int, lo: int, hi: int) -> None:
        ctl[C_CURSOR] = 0
        args = pack(common, table=tables[g], orbit=orbits[g], lo=lo, hi=hi, g=g)
        blocks = max(1, min(max_blocks, -(-(hi - lo) * 32 // THREADS)))
        kernel((blocks,), (THREADS,), (args,))
        done = cp.cuda.Event()
        done.record()
        wait_event(done, stop=lambda: request_stop(ctl, C_FLAGS, F_STOP))

    def count(g: int, lo: int, hi: int) -> int:
        return int(cp.count_nonzero(state[g][cands[lo:hi]] == IMAGE))

    support, counts = drive_rounds(search, int(min_support), bool(exact), launch, count)
    masks = [m == IMAGE for m in cp.asnumpy(state)] if images else []
    return OrbitImages(int(support), counts, masks)
