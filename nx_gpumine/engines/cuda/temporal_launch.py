"""Kernel launches of the CUDA temporal engine, over one root range on the current device.

A call's opening launches (control block reset, root filter, level-1 expansion, the DFS, split
records, prefix sums) are decided and packed once per plan and call shape (:class:`Launches`,
kept with the plan under their :class:`LaunchShape`), and from the shape's second call
replayed as one CUDA graph (the tuning's ``graphs``); :func:`launch_range` enqueues them and
relaunches over tail records until no warp dumps work. :func:`count_range`,
:func:`exists_range` and :func:`enumerate_range` are the engine's answers for a range held in
device memory (the facade, ``temporal.py``, checks the arguments and chooses between them and
the out-of-core streamer, ``temporal_stream.py``, which calls them per partition);
:func:`census_range` runs the census kernel.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ...errors import CapacityError
from ...inputs.temporal_graph import TemporalGraph
from ...limits import check_host_room, check_result_rows
from ...plan.temporal_plan import CENSUS_TABLE, TemporalPlan, split_root_edges
from ..checks import INT64_MAX, checked_total, overflow_error
from ._runtime import (
    C_COUNT_HI,
    control_count,
    import_cupy,
    load_module,
    persistent_blocks,
    request_stop,
    wait_event,
)
from .temporal_build import (
    C_CURSOR,
    C_FLAGS,
    C_NDUMP,
    C_NREC,
    C_NROOT,
    C_NSTEAL,
    C_NTAIL,
    C_OUTCUR,
    C_WIN,
    CTL_WORDS,
    F_DUMPFULL,
    F_FOUND,
    F_OUTFULL,
    F_OVERFLOW,
    GAP_NONE,
    GRAPH_VIEW,
    MAX_WINDOWS,
    MODES,
    SCAN_TILE,
    WPB,
    kept_share,
    level1_limit,
    level1_list,
    record_words,
    type_defines,
    wide_ids,
)
from .temporal_data import (
    Prep,
    buffer,
    compile_ahead,
    ctl_host,
    events,
    graph_view,
    kernel,
    level1_gaps_device,
    prefix_buffer,
    prepare,
    split_gate,
    zero,
)
from .temporal_tuning import TemporalTuning, current_tuning

__all__ = [
    "last_run",
    "Launches",
    "LaunchShape",
    "plan_view",
    "decide_launches",
    "scan_args",
    "scan",
    "launch_range",
    "RangeWalk",
    "finish",
    "count_range",
    "count_range_windows",
    "count_range_all_windows",
    "window_chunks",
    "count_ranges_windows",
    "window_counts",
    "exists_range",
    "enumerate_range",
    "census_range",
]

_D2H = 2  # cudaMemcpyDeviceToHost (the control block's copy after the launches)
_THREADS = (WPB * 32,)

#: Statistics of the last call in this process: kernel time (CUDA events), launches, steals...
last_run: dict[str, Any] = {}


# ====================================================================== the opening launches
@dataclass
class Launches:
    """The launches that open a call of :func:`launch_range`: what runs, on which buffers, with
    which arguments, decided once per plan and call shape (``key``) and kept with the plan, so
    that a repeated call only zeroes the control block and enqueues them (issue 9: no per-call
    host work beyond that). The DFS launches' ``TLaunch`` values are packed here: their
    pointers are bare addresses, so every device array they address is held in ``keep``."""

    key: LaunchShape  # what they were decided for
    blocks: int  # DFS grid (persistent blocks)
    rw: int  # words per record
    tail_ns: int  # the first DFS launch's tail time (0: no tail dump)
    dumps: list  # tail record buffers: a launch writes dumps[round % 2]
    ctl: Any  # the control block (16 device words)
    view: np.ndarray  # the packed graph view with the plan's allow (plan_view)
    pack: Any  # TLaunch's packer under the plan's macros (kernel_args.StructPacker)
    first: tuple = ()  # arguments of the first DFS launch: (view, TLaunch)
    #: (grid, list kind, arguments after the gaps) of the root filter (temporal_roots); the gap
    #: array is looked up per call (the TemporalGraph keeps one, of the last list kind asked)
    roots: tuple | None = None
    level1: tuple | None = None  # (grid, arguments, lengths, prefix sums) of temporal_level1
    split: tuple | None = None  # (grid, arguments, lengths, prefix sums) of the split records
    second: tuple | None = None  # arguments of the record launch after a split root launch
    splitcap: int = 0
    #: the TLaunch fields of a tail-record launch but its records, prefix sums, their count,
    #: dump buffer and tail time (tail_launch)
    tail: dict = field(default_factory=dict)
    keep: list = field(default_factory=list)  # device arrays the packed launches address
    uses: int = 0  # calls that ran these launches
    graph: Any = None  # the launches captured as a CUDA graph (tuning.graphs), from the 2nd use
    graph_gaps: Any = None  # the root filter's gap array the graph reads (kept alive with it)

    def tail_launch(self, rnd: int, rec: Any, pref: Any, nrec: int, tail_ns: int) -> tuple:
        """Arguments of tail round ``rnd``'s launch over ``nrec`` records ``rec`` (``pref``:
        their prefix sums), dumping its own tail after ``tail_ns``."""
        values = {**self.tail, "rec": rec, "rec_pref": pref, "nrec": nrec, "tail_ns": tail_ns}
        values["dump"] = self.dumps[rnd % 2] if tail_ns else None
        return (self.view, self.pack(values))


class LaunchShape(NamedTuple):
    """What :class:`Launches` are decided from besides the plan, and the key they are kept
    under: the call's arguments and the tuning (a swapped tuning decides them again)."""

    mode: int
    lo: int
    hi: int
    steal: bool
    tail_ms: float
    expand: bool
    count_last: bool
    tuning: TemporalTuning


def plan_view(prep: Prep) -> tuple[int, np.ndarray]:
    """``(grid, view)``: the DFS grid (persistent blocks) and the graph view with the plan's
    node conditions (``allow``), the same for every call on this graph and plan (kept in
    ``prep.launch`` with the graph's view, which holds the arrays it addresses)."""
    if prep.launch is None:
        base = graph_view(prep.graph, indexes=True)
        view = base.value.copy()
        view["allow"] = prep.allow.data.ptr
        prep.launch = (persistent_blocks(kernel(prep), WPB * 32), view, base)
    return prep.launch[0], prep.launch[1]


def decide_launches(prep: Prep, shape: LaunchShape, out: Any, outcap: int) -> Launches:
    """Decide and size the opening launches of :func:`launch_range` (see there) for a call of
    ``shape`` (with ``out``: an enumeration's output buffer of ``outcap`` rows) and pack their
    arguments."""
    cp = import_cupy()
    mode, lo, hi, steal, tail_ms, expand, count_last, tuning = shape
    graph, plan = prep.graph, prep.plan
    blocks, view = plan_view(prep)
    lanes = blocks * WPB * 32
    rw = record_words(plan)
    tail_ns = int(tail_ms * 1e6) if tail_ms and tail_ms > 0 and plan.l >= 2 else 0
    dumpcap = lanes * max(plan.l - 1, 1) if tail_ns else 0
    expanding = expand and plan.l >= 3 and 0 < hi - lo <= tuning.expand_roots
    kind = level1_list(prep.defines)
    lim1 = level1_limit(plan)
    filtering = (
        tuning.root_filter
        and mode != MODES["enumerate"]
        and plan.l >= 2
        and hi - lo > tuning.expand_roots
        and kind is not None
        and lim1 is not None
    )
    if filtering and (graph.integer_times and lim1 >= GAP_NONE):
        filtering = False  # beyond the 32-bit gaps
    if filtering:  # built once per graph and list kind
        quantiles = level1_gaps_device(graph, kind)[1]
        filtering = kept_share(quantiles, lim1) <= tuning.root_filter_max_kept
    splitting = expand and plan.l >= 4 and hi - lo > tuning.expand_roots and tuning.split_min > 0
    if splitting and tuning.split_gate_roots > 0 and kind is not None and lim1 is not None:
        splitting = lim1 >= split_gate(graph, kind, tuning.split_min, tuning.split_gate_roots)
    splitcap = min(hi - lo, tuning.expand_roots) if splitting else 0
    # record buffers: a launch writes its tail records into dumps[round % 2] while reading the
    # other; the root launch (round 1) also writes its split roots into dumps[1], after room
    # for dumpcap tail records
    dumps = [
        buffer(prep, "dump0", dumpcap * rw, cp.int64),
        buffer(prep, "dump1", (dumpcap + splitcap) * rw, cp.int64),
    ]
    ctl = buffer(prep, "ctl", CTL_WORDS, cp.uint64)[:CTL_WORDS]
    seq = Launches(shape, blocks, rw, tail_ns, dumps, ctl, view, prep.launch_pack)
    seq.keep += [*dumps, ctl, out, prep.plab, prep.tlim]
    # the TLaunch fields of the call's tail-record launches but their records, prefix sums,
    # record count, dump buffer, tail time (tail_launch) and work items (set below); the root
    # and split record launches start from them too
    seq.tail = {
        "plab": prep.plab,
        "tlim": prep.tlim,
        "roots": None,
        "ctl": ctl,
        "out": out,
        "outcap": outcap,
        "dumpcap": dumpcap,
        "mode": mode,
        "steal": int(steal),
        "lastc": int(count_last),
        "split": None,
        "splitcap": 0,
        "split_min": 0,
        "chunk": tuning.record_chunk,
    }

    def dfs_launch(item: tuple, roots: Any, rec: Any, pref: Any, nrec: int, rnd: int,
                   tail: int, split_on: bool) -> tuple:  # fmt: skip
        values = {**seq.tail, "lo": item[0], "hi": item[1], "rec": rec, "rec_pref": pref}
        values.update(nrec=nrec, dump=dumps[rnd % 2] if tail else None, tail_ns=tail)
        if rec is None:
            values.update(roots=roots, chunk=tuning.root_chunk)
        if split_on:
            split = dumps[1][dumpcap * rw :]
            values.update(split=split, splitcap=splitcap, split_min=tuning.split_min)
        return (view, seq.pack(values))

    item = (lo, hi)  # the root launch's work items: roots lo..hi-1
    roots = rec = pref = None
    nrec = 0
    if filtering:
        # the roots whose level-1 window is not empty, compacted; the root launch takes
        # roots[0 .. kept), reading the count itself (item_hi < 0): no host round trip
        roots = buffer(prep, "roots", hi - lo, cp.int64 if wide_ids(graph) else cp.int32)
        lim = np.float64(lim1) if not graph.integer_times else np.int64(lim1)
        grid = (min(blocks * 4, -(-(hi - lo) // _THREADS[0])),)
        seq.roots = (grid, kind, (lim, np.int64(lo), np.int64(hi), roots, ctl))
        item = (0, -1)
    if expanding:
        # root r's live level-1 range becomes a record (compacted); the count stays on the
        # device (the DFS launch reads ctl[C_NREC]) and the prefix sums run over the whole
        # buffer, whose unused lengths are zero
        cap = hi - lo
        rec = buffer(prep, "level1", cap * rw, cp.int64)
        lens = buffer(prep, "level1_len", cap, cp.int64)[:cap]
        pref = prefix_buffer(prep, "level1_pref", cap)
        nrec = -(cap + 1)
        grid = (min(blocks * 4, -(-cap // _THREADS[0])),)
        seq.first = dfs_launch(item, roots, rec, pref, nrec, 1, tail_ns, False)
        # temporal_level1 reads the root range, plab, tlim and ctl of the launch it opens
        k1_args = (*seq.first, rec, lens)
        seq.level1 = (grid, k1_args, lens, scan_args(prep, lens, pref[1:]))
        seq.keep += [rec, pref]
    if splitting:
        # the root launch splits roots off (without a tail dump of its own) and the record
        # launch that takes them follows on the device: their lengths and prefix sums, then
        # the launch, which reads their count (nrec < 0), and dumps its tail
        seq.first = dfs_launch(item, roots, rec, pref, nrec, 1, 0, True)
        rec = dumps[1][dumpcap * rw : (dumpcap + splitcap) * rw]
        lens = buffer(prep, "split_len", splitcap, cp.int64)[:splitcap]
        pref = prefix_buffer(prep, "split_pref", splitcap)
        grid = (min(blocks * 4, -(-splitcap // _THREADS[0])),)
        rl_args = (rec, np.int64(splitcap), ctl, lens)
        seq.split = (grid, rl_args, lens, scan_args(prep, lens, pref[1:]))
        seq.second = dfs_launch(item, roots, rec, pref, -(splitcap + 1), 2, tail_ns, False)
        seq.splitcap = splitcap
        seq.keep += [roots, pref]
    elif not expanding:
        seq.first = dfs_launch(item, roots, rec, pref, nrec, 1, tail_ns, False)
        seq.keep.append(roots)
    seq.tail.update(lo=item[0], hi=item[1])
    return seq


def scan_args(prep: Prep, values: Any, out: Any) -> tuple:
    """``(grid, tile arguments, add arguments)``: the prefix-sum kernels writing the inclusive
    sums of ``values`` to ``out`` (``temporal_scan_tiles`` / ``temporal_scan_add``, no
    temporary allocation: capturable)."""
    cp = import_cupy()
    n = len(values)
    tiles = max(-(-n // SCAN_TILE), 1)
    sums = buffer(prep, "scan_sums", tiles, cp.int64)
    return (tiles,), (values, np.int64(n), out, sums), (out, np.int64(n), sums)


def scan(prep: Prep, scan: tuple) -> None:
    """Enqueue the prefix sums of :func:`scan_args`."""
    grid, tile_args, add_args = scan
    kernel(prep, "temporal_scan_tiles")(grid, _THREADS, tile_args)
    kernel(prep, "temporal_scan_add")(grid, _THREADS, add_args)


def _open(prep: Prep, seq: Launches, gaps: Any, filtered: Any = None) -> None:
    """Enqueue the opening launches ``seq`` on the current stream (``gaps``: the root filter's
    gap array; ``filtered``: an event recorded after the root filter, if any)."""
    zero(seq.ctl)
    if seq.roots is not None:
        grid, _, args = seq.roots
        kernel(prep, "temporal_roots")(grid, _THREADS, (gaps, *args))
        if filtered is not None:
            filtered.record()
    if seq.level1 is not None:
        grid, args, lens, sums = seq.level1
        zero(lens)
        kernel(prep, "temporal_level1")(grid, _THREADS, args)
        scan(prep, sums)
    kern = kernel(prep)
    kern((seq.blocks,), _THREADS, seq.first)
    if seq.split is not None:
        grid, args, lens, sums = seq.split
        kernel(prep, "temporal_record_lengths")(grid, _THREADS, args)
        scan(prep, sums)
        kern((seq.blocks,), _THREADS, seq.second)


def _capture(prep: Prep, seq: Launches, gaps: Any) -> Any:
    """``seq``'s opening launches captured as a CUDA graph (on a stream kept with the plan:
    capture cannot use the legacy default stream); the graph is launched on any stream."""
    cp = import_cupy()
    stream = prep.buffers.get("capture")
    if stream is None:
        stream = prep.buffers["capture"] = cp.cuda.Stream(non_blocking=True)
    with stream:
        stream.begin_capture()
        try:
            _open(prep, seq, gaps)
        finally:
            graph = stream.end_capture()
    return graph


# ====================================================================== the launch loop
def launch_range(prep: Prep, mode: int, lo: int, hi: int, **switches: Any) -> np.ndarray:
    """Run the DFS kernel over roots ``[lo, hi)`` and every record launch after it, on the
    current stream; return the control words: a :class:`RangeWalk` (``switches``: its keyword
    arguments) run to its end."""
    walk = RangeWalk(prep, mode, lo, hi, **switches)
    while not walk.advance():
        pass
    return walk.ctl


class RangeWalk:
    """The DFS kernel's walk over roots ``[lo, hi)``, enqueued when made and advanced one
    launch round at a time by :meth:`advance` (each round's tail records are the next round's
    work); each round's control words come back in a copy enqueued after its launches, so
    walks of several plans on streams of their own (``stream``: after what the current stream
    holds; default the current stream) run on the device together while the host waits for
    one of them.

    With ``expand`` (motifs of three edges or more): at most ``expand_roots`` roots (the
    tuning's), a first kernel lists the level-1 candidate range of every root that has one, and
    the DFS launch takes one (root, level-1 candidate) pair per work item; more roots, one root
    per work item, and (motifs of four edges or more) the roots whose level-1 range holds
    ``split_min`` candidates or more are split off as records for the next launch. Each
    launch's tail redistribution (``tail_ms``) adds records.

    The opening launches (:class:`Launches`) are built once per plan and call shape, and from
    the shape's second call on replayed as one CUDA graph (the tuning's ``graphs``); a call
    with an output buffer (``out``, enumeration) builds its own and launches them one by one.

    Attributes
    ----------
    ctl : numpy.ndarray
        The control words of the last round (once :meth:`advance` returned True).
    """

    def __init__(
        self,
        prep: Prep,
        mode: int,
        lo: int,
        hi: int,
        *,
        steal: bool,
        tail_ms: float,
        out: Any = None,
        outcap: int = 0,
        expand: bool = True,
        count_last: bool = True,
        stream: Any = None,
    ) -> None:
        cp = import_cupy()
        kern = kernel(prep)  # compiled on the plan's first call; its build's statistics
        tuning = current_tuning()
        shape = LaunchShape(mode, lo, hi, steal, tail_ms, expand, count_last, tuning)
        seq = prep.buffers.get("launches") if out is None else None
        if seq is None or seq.key != shape:
            seq = decide_launches(prep, shape, out, outcap)
            if out is None:  # only the last shape is kept: its buffers are views of the plan's
                prep.buffers["launches"] = seq
        start, _, filtered, _ = events(prep)
        current = cp.cuda.get_current_stream()
        gaps = level1_gaps_device(prep.graph, seq.roots[1])[0] if seq.roots is not None else None
        graphs = tuning.graphs and out is None
        if graphs:
            seq.uses += 1
            if seq.graph is not None and seq.graph_gaps is not gaps:
                seq.graph = None  # the graph's gap array was replaced (another list kind asked)
            if seq.graph is None and seq.uses >= 2:
                seq.graph, seq.graph_gaps = _capture(prep, seq, gaps), gaps
        self.replay = graphs and seq.graph is not None
        self.stream = current if stream is None else stream
        if self.stream is not current:
            # what was made above on the current stream (buffers, the graph's lists kept
            # for every plan) is there before the walk's own stream reads it
            self.stream.wait_event(current.record())
        with self.stream:
            start.record(self.stream)
            if self.replay:
                seq.graph.launch(stream=self.stream)
            else:
                _open(prep, seq, gaps, filtered)
        self.prep, self.seq, self.kern = prep, seq, kern
        # the graph keeps one level-1 gap array (the last list kind asked): a walk of another
        # kind made while this one runs replaces it, so the walk holds its own until it ends
        self.gaps = gaps
        self.rounds = 2 if seq.split is not None else 1
        self.tail_ns = seq.tail_ns
        self.first = True
        self.ctl = ctl_host(prep)
        self._copy_back()

    def _copy_back(self) -> None:
        """Enqueue the round's end event and the copy of its control words to pinned memory."""
        cp = import_cupy()
        _, end, _, copied = events(self.prep)
        end.record(self.stream)
        # the control words come back in a copy into pinned memory enqueued after the launches
        # (no synchronous copy of its own)
        host, ctl = ctl_host(self.prep), self.seq.ctl
        cp.cuda.runtime.memcpyAsync(
            host.ctypes.data, ctl.data.ptr, host.nbytes, _D2H, self.stream.ptr
        )
        copied.record(self.stream)

    def advance(self) -> bool:
        """Wait for the walk's last round; True when the walk is over (its words in
        :attr:`ctl`), else the next round (over the round's tail records) is enqueued.

        Ctrl-C: warps poll their flags (``F_FOUND`` stops them); the launch's results are
        dropped."""
        cp = import_cupy()
        prep, seq = self.prep, self.seq
        start, end, filtered, copied = events(prep)
        wait_event(copied, stop=lambda: request_stop(seq.ctl, C_FLAGS, F_FOUND))
        stats = prep.stats
        stats["kernel_ms"] = stats.get("kernel_ms", 0.0) + cp.cuda.get_elapsed_time(start, end)
        h = ctl_host(prep).copy()
        if self.first:  # counts of the first launches (the words are reset below)
            self.first = False
            _opening_stats(stats, seq, h, self.replay, start, filtered)
        flags = int(h[C_FLAGS])
        if flags & F_DUMPFULL:  # pragma: no cover - capacity is the proven maximum
            raise RuntimeError("internal error: tail dump buffer overflowed")
        if flags & F_OVERFLOW:
            raise overflow_error()
        ndump = int(h[C_NDUMP])
        stats["steals"] = stats.get("steals", 0) + int(h[C_NSTEAL])
        stats["tail_warps"] = stats.get("tail_warps", 0) + int(h[C_NTAIL])
        stats["tail_records"] = stats.get("tail_records", 0) + ndump
        if ndump == 0 or flags & (F_FOUND | F_OUTFULL):
            stats["launches"] = stats.get("launches", 0) + self.rounds
            stats["blocks"] = seq.blocks
            stats["graph"] = int(self.replay)
            self.ctl = h
            return True
        # the next launch takes every candidate of this launch's tail records as a work item
        with self.stream:
            rec = seq.dumps[self.rounds % 2][: ndump * seq.rw]
            recs = rec.reshape(ndump, seq.rw)
            pref = cp.zeros(ndump + 1, dtype=cp.int64)
            cp.cumsum(recs[:, 3] - recs[:, 2], out=pref[1:])
            ctl = seq.ctl
            ctl[C_CURSOR] = 0
            ctl[C_NDUMP:C_COUNT_HI] = 0  # the count (C_COUNT, C_COUNT_HI) runs on
            self.tail_ns *= 2
            self.rounds += 1
            start.record(self.stream)
            args = seq.tail_launch(self.rounds, rec, pref, ndump, self.tail_ns)
            self.kern((seq.blocks,), _THREADS, args)
        self.pref = pref  # alive while the launch reads it
        self._copy_back()
        return False


def _opening_stats(
    stats: dict, seq: Launches, h: np.ndarray, replay: bool, start: Any, filtered: Any
) -> None:
    """Statistics of a call's opening launches from their control words ``h``."""
    cp = import_cupy()
    if seq.roots is not None:
        stats["roots_kept"] = stats.get("roots_kept", 0) + int(h[C_NROOT])
        if not replay:  # a graph has no event between its launches
            ms = cp.cuda.get_elapsed_time(start, filtered)
            stats["filter_ms"] = stats.get("filter_ms", 0.0) + ms
    nsplit = min(int(h[C_NREC]), seq.splitcap) if seq.split else int(h[C_NREC])
    stats["level1_records"] = stats.get("level1_records", 0) + nsplit


def finish(prep: Prep | None, **kw: Any) -> None:
    """Publish a call's statistics in :data:`last_run` (``prep``'s, then ``kw``)."""
    last_run.clear()
    if prep is not None:
        last_run.update(prep.stats)
    last_run.update(kw)


# ====================================================================== answers of one range
def count_range(graph: TemporalGraph, plan: TemporalPlan, lo: int, hi: int, **switches: Any) -> int:
    """Matches rooted in ``[lo, hi)``: a valid, non-empty range of a graph held on the device
    (``switches``: :func:`launch_range`'s ``steal``, ``tail_ms``, ``expand``, ``count_last``)."""
    prep = prepare(graph, plan)
    total = checked_total(control_count(launch_range(prep, MODES["count"], lo, hi, **switches)))
    finish(prep, mode="count")
    return total


def window_counts(ctl: np.ndarray, n: int) -> list[int]:
    """The ``n`` narrower windows' 128-bit counts in the control words ``ctl`` (``C_WIN`` on)."""
    return [(int(ctl[C_WIN + 2 * j + 1]) << 64) | int(ctl[C_WIN + 2 * j]) for j in range(n)]


def count_range_windows(
    graph: TemporalGraph, plan: TemporalPlan, windows: tuple, lo: int, hi: int, **switches: Any
) -> list[int]:
    """:func:`count_range` and, in the same walk, the matches within each of the narrower
    ``windows`` (ascending, in the graph's time type; at most ``MAX_WINDOWS - 1``): their
    counts, then the plan's own."""
    prep = prepare(graph, plan, windows)
    h = launch_range(prep, MODES["count"], lo, hi, **switches)
    counts = [*window_counts(h, len(windows)), control_count(h)]
    for c in counts:
        checked_total(c)
    finish(prep, mode="count", windows=len(windows))
    return counts


def count_range_all_windows(
    graph: TemporalGraph, plan: TemporalPlan, windows: tuple, lo: int, hi: int, **switches: Any
) -> list[int]:
    """:func:`count_range_windows` for any number of narrower ``windows``: a walk per
    ``MAX_WINDOWS - 1`` of them (one walk of :func:`count_range` without any); their counts,
    then the plan's own."""
    if not windows:
        return [count_range(graph, plan, lo, hi, **switches)]
    out: list[int] = []
    for chunk in window_chunks(windows):
        got = count_range_windows(graph, plan, chunk, lo, hi, **switches)
        out += got[:-1]
    return [*out, got[-1]]


def window_chunks(windows: tuple) -> list[tuple]:
    """The narrower ``windows`` as :func:`count_range_all_windows` walks them: at most
    ``MAX_WINDOWS - 1`` a walk (each group a module of its own, ``NWIN``)."""
    step = MAX_WINDOWS - 1
    return [tuple(windows[i : i + step]) for i in range(0, len(windows), step)]


def count_ranges_windows(
    graph: TemporalGraph, plans: list[TemporalPlan], windows: tuple, **switches: Any
) -> list[list[int]]:
    """:func:`count_range_windows` of several distinct plans over every root, their walks on
    a stream each (kept with the plan) so that they run on the device together: one plan's
    walk fills the SMs another's tail leaves idle. A list of counts per plan (the narrower
    ``windows``' counts, then the plan's own).

    The walks start grouped by their level-1 list kind: the root filter's gap array is kept
    for one kind per graph (:func:`~.temporal_data.level1_gaps_device`), so the motifs in
    their own order rebuilt it (a sort over every edge, on the host's critical path while the
    walks already started hold the device) up to once per motif; grouped, at most once per
    kind. Counts come back in ``plans``' order.

    Ctrl-C (or an error) while waiting asks every walk to stop."""
    cp = import_cupy()
    walks = []
    preps = [prepare(graph, plan, windows) for plan in plans]
    compile_ahead(preps)
    order = sorted(range(len(plans)), key=lambda i: str(level1_list(preps[i].defines)))
    try:
        for prep in (preps[i] for i in order):
            stream = prep.buffers.get("walk_stream")
            if stream is None:
                stream = prep.buffers["walk_stream"] = cp.cuda.Stream(non_blocking=True)
            walks.append(RangeWalk(prep, MODES["count"], 0, graph.m, stream=stream, **switches))
        pending = list(walks)
        while pending:
            pending = [w for w in pending if not w.advance()]
    except BaseException:
        for w in walks:
            with contextlib.suppress(Exception):
                request_stop(w.seq.ctl, C_FLAGS, F_FOUND)
        for w in walks:
            with contextlib.suppress(Exception):
                w.stream.synchronize()
        raise
    out: list[list[int]] = [[] for _ in plans]
    for i, w in zip(order, walks, strict=True):
        counts = [*window_counts(w.ctl, len(windows)), control_count(w.ctl)]
        for c in counts:
            checked_total(c)
        out[i] = counts
    finish(walks[-1].prep if walks else None, mode="count", windows=len(windows),
           plans=len(walks))  # fmt: skip
    return out


def exists_range(
    graph: TemporalGraph, plan: TemporalPlan, lo: int, hi: int, **switches: Any
) -> bool:
    """Whether a match is rooted in ``[lo, hi)`` (as :func:`count_range`; every warp stops at
    the first)."""
    prep = prepare(graph, plan)
    h = launch_range(prep, MODES["exists"], lo, hi, **switches)
    finish(prep, mode="exists")
    return bool(int(h[C_FLAGS]) & F_FOUND)


def _sorted_rows(cp: Any, rows: Any) -> Any:
    """Rows in lexicographic order of (e_1, ..., e_l): the CPU engine's root-then-DFS order."""
    if len(rows) < 2:
        return rows
    order = cp.lexsort(cp.ascontiguousarray(rows.T[::-1]))
    return rows[order]


def _fill(prep: Prep, lo: int, hi: int, cap: int, steal: bool, tail_ms: float) -> np.ndarray:
    """Enumerate roots ``[lo, hi)`` into a ``cap``-row device buffer (stops when it is full)."""
    cp = import_cupy()
    ncol = int(prep.plan.l)
    try:
        out = cp.empty(max(cap, 1) * ncol, dtype=cp.int64)
    except cp.cuda.memory.OutOfMemoryError as exc:
        raise CapacityError(
            f"an output block of {cap} matches ({8 * cap * ncol} bytes) does not fit on the GPU;"
            " pass a smaller max_buffer_rows or use a limit"
        ) from exc
    kw = dict(steal=steal, tail_ms=tail_ms, out=out, outcap=cap)
    h = launch_range(prep, MODES["enumerate"], lo, hi, **kw)
    rows = min(int(h[C_OUTCUR]), cap)
    block = _sorted_rows(cp, out[: rows * ncol].reshape(rows, ncol))
    return cp.asnumpy(block)


def enumerate_range(
    graph: TemporalGraph,
    plan: TemporalPlan,
    lo: int,
    hi: int,
    limit: int | None,
    *,
    steal: bool,
    tail_ms: float,
    max_buffer_rows: int,
) -> np.ndarray:
    """The matches rooted in ``[lo, hi)`` (at most ``limit`` > 0; as :func:`count_range`),
    rows in lexicographic order: counted first, then filled into exact device blocks of at most
    ``max_buffer_rows`` rows (a range with more is split; a single root grows the block), or,
    with a ``limit`` that fits one block, filled until the buffer is full."""
    prep = prepare(graph, plan)
    ncol = int(plan.l)
    if limit is not None and limit <= max_buffer_rows:
        rows = _fill(prep, lo, hi, limit, steal, tail_ms)
        finish(prep, mode="enumerate", blocks=1)
        return rows
    pieces: list[np.ndarray] = []
    got = 0
    todo = [(lo, hi)]
    while todo and (limit is None or got < limit):
        a, b = todo.pop()
        c = control_count(launch_range(prep, MODES["count"], a, b, steal=steal, tail_ms=tail_ms))
        if (a, b) == (lo, hi):  # the whole range: its count is the result size
            check_result_rows(c if limit is None else min(c, limit), ncol)
        if c == 0:
            continue
        if c > max_buffer_rows and b - a > 1:
            cut = split_root_edges(graph, 2, plan.delta_on, plan.delta, a, b)
            if len(cut) == 3:  # split in two, walk the lower half first
                todo += [(int(cut[1]), b), (a, int(cut[1]))]
                continue
            mid = (a + b) // 2
            todo += [(mid, b), (a, mid)]
            continue
        want = c if limit is None else min(c, limit - got)
        check_host_room(8 * ncol * (got + want) * 2, got + want)
        block = _fill(prep, a, b, want, steal, tail_ms)
        if limit is None and len(block) != c:  # pragma: no cover - engine invariant
            raise RuntimeError("internal error: enumeration pass disagrees with the count pass")
        pieces.append(block)
        got += len(block)
    finish(prep, mode="enumerate", blocks=len(pieces))
    if not pieces:
        return np.empty((0, ncol), dtype=np.int64)
    rows = np.concatenate(pieces)
    return rows if limit is None else rows[:limit]


# ====================================================================== census
def census_range(
    graph: TemporalGraph, lo: int, hi: int, *, tie: int, window_on: bool, delta: float | int
) -> np.ndarray:
    """The census kernel's counts over roots ``[lo, hi)`` (non-empty), ``(36,)`` int64.

    ``tie``: the TIE code; ``window_on``, ``delta``: the window as
    :func:`~nx_gpumine.plan.temporal_plan.encode_limit` gives it. The kernel does not poll
    flags: bounded launches of the tuning's ``census_chunk`` roots each, with an interruptible
    wait after each (Ctrl-C lands within one chunk's run time).
    """
    cp = import_cupy()
    defines = type_defines(graph, tie, window_on)
    cm = load_module("temporal_census.cu", defines, structs=(GRAPH_VIEW,))
    kern = cm.kernel("temporal_census")
    blocks = persistent_blocks(kern, WPB * 32)
    view = graph_view(graph, indexes=False)
    ctl = cp.zeros(16, dtype=cp.uint64)
    counts = cp.zeros(36, dtype=cp.uint64)
    table = cp.asarray(CENSUS_TABLE.astype(np.int32))
    delta = graph.time.dtype.type(delta)
    chunk = current_tuning().census_chunk
    kernel_ms = 0.0
    for a in range(lo, hi, chunk):
        b = min(hi, a + chunk)
        ctl.fill(0)
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        args = (view.value, delta, np.int64(a), np.int64(b), table, ctl, counts)
        kern((blocks,), _THREADS, args)
        end.record()
        wait_event(end)
        kernel_ms += float(cp.cuda.get_elapsed_time(start, end))
    res = counts.get()
    checked_total(int(res.max()), "census count", INT64_MAX)
    finish(None, kernel_ms=kernel_ms, compile_seconds=cm.compile_seconds, mode="census",
           blocks=blocks)  # fmt: skip
    return res.astype(np.int64)
