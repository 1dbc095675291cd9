"""The CUDA temporal engine's tuning: one frozen settings object instead of module switches.

:class:`TemporalTuning` holds every setting the engine decides its launches from (how many roots
get their level 1 expanded, when heavy roots are split off, the root filter, the work chunks,
the CUDA-graph replay) and the ones compiled into the DFS kernel (``pair_min``, ``min_blocks``,
``early_walk``, ``lazy_end_edges``). :data:`DEFAULT_TUNING` is the measured choice; the engine
reads the current object (:func:`current_tuning`) once per call, and that object is part of the
key under which a call shape's launches are kept with the plan (``temporal_launch.LaunchShape``),
so a changed setting never replays launches decided under another. Probes, tests and benchmarks
swap the whole object (:func:`tuned`, :func:`set_tuning`) instead of patching module globals.

The compiled-in settings are read when a plan is first run on a device (its module is built
then and kept with the plan): a plan run before a change keeps its module.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import memory
from .tuning import TuningSlot

__all__ = ["TemporalTuning", "DEFAULT_TUNING", "SLOT", "current_tuning", "set_tuning", "tuned"]


@dataclass(frozen=True)
class TemporalTuning:
    """Settings of the CUDA temporal engine (frozen: a value, hashable, a cache key).

    Attributes
    ----------
    expand_roots : int
        At most this many roots: expand level 1 before the DFS (one work item per level-1
        candidate). More roots: one root per work item, and roots with a long level-1 range
        split off as records (at most this many; see ``split_min``).
    split_min : int
        A root whose level-1 range holds at least this many candidates is split off (0: never);
        motifs of four edges or more (with three, a level-1 candidate leads to one counted
        level: too little work to move).
    split_gate_roots : int
        Splitting runs only where at least this many roots have ``split_min`` or more edges of
        level 1's list within level 1's limit (found once per graph from the gap between each
        edge and the ``split_min``-th next edge of that list; 0: always): for a few dozen roots
        the second launch and its read-back cost more than walking them in place.
    pair_min : int
        A both-mapped level walks the pair index's group f(src) -> f(dst) (every entry a match)
        instead of the shorter adjacency list when that list's window holds more than this many
        candidates (compiled in; negative: always, without the list's window).
    min_blocks : int
        Resident blocks per SM the DFS kernel is compiled for (``__launch_bounds__``): above 1
        it caps the kernel's registers at 65536 / (256 * min_blocks) (compiled in).
    spill_max : int
        Where the DFS kernel compiled for ``min_blocks`` keeps more than this many bytes of
        local memory per thread (spilled values), it is compiled for one block per SM fewer:
        measured on the H200 (kernel ms, sk10m and synth10m; benchmarks/results/
        temporal_probe_2026-11-26_seventh/lazy_end_steal_close.json), 40 registers with 16-32
        bytes spilled beat 48 with none (M3, M7, M8, M13: 3-7% faster), and 48 beat 40 with 40
        bytes spilled (M11: 5-7%; M12: 1%).
    early_walk : bool
        Enter a level whose list's vertex is an endpoint of an earlier (not the previous) motif
        edge by galloping from that edge's walk-index position instead of a binary search of
        the whole list (compiled in; a probe setting).
    lazy_end_edges : int
        On graphs of more edges than this, a level's window end is left open until a candidate
        falls outside it instead of being searched for on entry (compiled in: kernels/
        temporal_dfs.cu LAZY_END). Smaller graphs, whose level 1 is expanded and whose last
        milliseconds are worked by stealing (which needs exact ranges: every steal round closes
        them), search on entry. H200, kernel ms (temporal_probe_2026-11-26_seventh/
        lazy_both_and_last.json): the 10M-edge graphs 1-25% faster open (sk10m M11 at 1 day
        4.39 against 5.47), CollegeMsg at 1 day M12 and M13 18-30% slower.
    root_filter : bool
        Count and exists on more than ``expand_roots`` roots: a first kernel keeps only the roots
        whose level-1 window holds the first edge after them in level 1's list
        (``temporal_roots``), and the DFS launch takes those alone.
    root_filter_max_kept : float
        The root filter runs only where it is expected to keep at most this share of the roots
        (from the quantiles of the gap between each edge and the next edge of level 1's list):
        where most roots pass, its pass costs more than it saves (H100, kernel time: sk10m at
        55-59% kept 0-3% slower; synth10m at 1 h, 5% kept, 2.6x faster; at 1 day, 23% kept,
        2-11% faster).
    graphs : bool
        A call shape run a second time replays its opening launches (control block reset, root
        filter, level-1 expansion, split and record launches, prefix sums) as one CUDA graph,
        captured then and kept with the plan: one launch for the host to enqueue instead of up
        to seven.
    root_chunk, record_chunk : int
        Root edges (record items) a warp takes at a time from the launch's cursor.
    census_chunk : int
        Root edges per census launch (the census kernel does not poll flags: a Ctrl-C lands
        within one chunk's run time).
    """

    expand_roots: int = memory.TEMPORAL_EXPAND_ROOTS
    split_min: int = 8
    split_gate_roots: int = 1024
    pair_min: int = 32
    min_blocks: int = 6
    spill_max: int = 32
    early_walk: bool = True
    lazy_end_edges: int = 1 << 21
    root_filter: bool = True
    root_filter_max_kept: float = 0.5
    graphs: bool = True
    root_chunk: int = 32
    record_chunk: int = 32
    census_chunk: int = 1 << 18


#: The measured settings: what the engine runs with unless a caller swaps them.
DEFAULT_TUNING = TemporalTuning()

#: The settings in force (:class:`~.tuning.TuningSlot`).
SLOT = TuningSlot(DEFAULT_TUNING)
#: The settings the engine's calls read now (:data:`DEFAULT_TUNING` unless swapped).
current_tuning = SLOT.current
#: Make a :class:`TemporalTuning` the current settings (None: the default); returns the one before.
set_tuning = SLOT.set
#: ``with tuned(expand_roots=0): ...``: a block with some settings changed.
tuned = SLOT.tuned
