"""Estimates before a count: the plan's work bound, a sampled count, its work and run time.

:func:`estimate_plan` splits the root entries of a (distinct) static plan into strata by their
bound (:func:`nx_gpumine.plan.estimate.bounds_and_weights`; strata of equal shares of the
bounds' square roots, so that the few heavy roots of a graph with hubs get strata of their own),
samples each stratum and counts the matches rooted at each sampled entry *exactly* with the CPU
engine (``count(graph, plan, e, e + 1)``).

It goes level by level: the prefix plans (:func:`nx_gpumine.plan.estimate.prefix_plan`) give
the partial matches of each sampled root at levels 2, 3, ... (the *work* the count walk
visits), then the plan itself the count (:class:`_Chain`). Each level counts every root of the
level before while time allows; else, per stratum, it draws roots of the level before with
replacement, with probabilities proportional to their share of the stratum's estimated total
(Hansen-Hurwitz), and the stratum's total becomes that of the level before times the mean
growth ``y / x`` of the roots drawn: unbiased given the level before, whatever the spread
(a heavy root is drawn often and counted once; a root without partial matches has none
below it and is never drawn). The draws are split between strata by Neyman's allocation with
costs, on what the level before measured, and topped up while the level's time is not spent
(:meth:`_Level.fill`). A level stops at its share of :data:`SAMPLE_SECONDS`; the count's level
may take :data:`EXTRA_SECONDS` more while its relative standard error is above
:data:`TARGET_RSE`. Where not even one root per stratum of the next level fits, the deeper
levels follow the last measured branching factor, capped by the plan's bounds
(``Estimate.extrapolated``). ``max_work`` stops as soon as the levels measured pass it
(``count_subgraphs(max_work=...)``, :func:`work_check`).

The predicted run time (``Estimate.seconds``) is the CPU engine's: each sampled call of the
whole plan is timed, less the engine's fixed cost per call (the mean time of calls of the plan
admitting no root, one after every eighth call: :attr:`_Level.fixed_mean`); these net times are
scaled up stratum by stratum like the count (at least :data:`MIN_RATE` per partial match of the
level before) and divided by numba's threads (as if the threads scaled perfectly). Below about
0.1 s the noise of single calls dominates; on a GPU the CUDA engine usually runs far faster
than the figure.

Before a count, ``count_subgraphs`` uses :func:`eta_wanted` (``progress=True``: an estimate is
worth its fraction of a second only above :data:`ETA_MIN_BOUND`), :meth:`Estimate.eta` (the
line it prints) and :meth:`Estimate.time_refusal` (``max_seconds=``, checked by
:func:`as_seconds`).
"""

from __future__ import annotations

import copy
import math
import numbers
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..engines import select_engine
from ..errors import QueryError
from ..inputs.static_graph import StaticGraph
from ..plan.estimate import (
    bounds_and_weights,
    level_bounds,
    prefix_plan,
    root_entries,
    symmetry_factors,
    walk_levels,
    work_bound,
)
from ..plan.static_plan import StaticPlan
from .jobs.static import closed_form_count
from .static import run_static

__all__ = [
    "Estimate",
    "estimate_plan",
    "work_check",
    "eta_wanted",
    "as_seconds",
    "format_count",
    "format_seconds",
    "DEFAULT_SAMPLES",
    "SAMPLE_SECONDS",
    "ETA_MIN_BOUND",
]

#: Root entries sampled by default (at the shallowest level; deeper levels may use fewer).
DEFAULT_SAMPLES = 400
#: Engine time the sampling may take (seconds, all levels together) before it extrapolates.
SAMPLE_SECONDS = 0.3
#: More engine time the count's level may take (:func:`_extend`) when its relative standard
#: error is above :data:`TARGET_RSE` (seconds, beyond :data:`SAMPLE_SECONDS`).
EXTRA_SECONDS = 0.3
#: Relative standard error of the count above which the sample takes more time.
TARGET_RSE = 0.1
#: Number of strata (at most) the roots are split into by their per-root bound.
STRATA = 24
#: The strata hold equal shares of the sum of ``bound ** MASS_POWER`` (:func:`_strata`).
MASS_POWER = 0.5
#: The first-phase sample of a stratum is proportional to ``N_h mean(bound) ** ALLOC_POWER``.
ALLOC_POWER = 0.75
#: A level whose first root per stratum is predicted to take this many times its share of
#: the time is not counted: the levels from there are extrapolated.
HOPELESS = 10.0
#: Least engine time per node expanded that the predicted run time assumes (seconds).
MIN_RATE = 5e-9
#: Least relative spread assumed of a stratum's growth from one level to the next, when it
#: allocates the roots of the next level (:meth:`_Chain.allocate`).
SPREAD_FLOOR = 0.25
#: Fewest roots a level may be counted on (else the levels from there are extrapolated).
MIN_ROOTS = 8
#: Standard errors on each side of the estimate in ``count_low`` / ``count_high``.
Z = 3.0
#: Work bound (partial matches, :func:`nx_gpumine.plan.estimate.work_bound`) above which a
#: count with ``progress=True`` first estimates its run time: under it the count itself
#: usually takes about a second or less, not worth an estimate of up to :data:`SAMPLE_SECONDS`.
ETA_MIN_BOUND = 10**7


@dataclass(frozen=True)
class Estimate:
    """What a count will find and cost, from the plan and a sample of its roots.

    Attributes
    ----------
    count : int
        Estimated count (``kind``: mappings or distinct subgraphs); exact when ``exact``.
    count_low, count_high : int
        A rough interval: the estimate minus / plus three standard errors of the stratified
        sample, clipped to the matches the sample found (they exist) and to the plan's bound.
    work : int
        Estimated partial matches the count walk visits (levels before its counted tail).
    work_bound : int
        Upper bound of that work from the plan and the degrees alone (no sampling).
    seconds : float
        Predicted run time of the count on the CPU engine (all its threads).
    samples : int
        Root entries whose matches were counted exactly (at the deepest level sampled).
    roots : int
        Root entries in all.
    kind : str
        ``"mappings"`` or ``"subgraphs"``.
    exact : bool
        Every root was counted, or the count has a closed form (stars, cliques in complete
        components: then ``work`` and ``work_bound`` are 0, nothing is walked): ``count`` is
        the answer.
    extrapolated : bool
        The deepest levels were too slow to sample in the time allowed: ``count`` and ``work``
        extend the last measured branching factor (an order of magnitude, no more).
    level_work : tuple of int
        Estimated partial matches at each level the count walk visits (levels 0 and 1: the
        root vertices and root edges, exact).
    """

    count: int
    count_low: int
    count_high: int
    work: int
    work_bound: int
    seconds: float
    samples: int
    roots: int
    kind: str = "mappings"
    exact: bool = False
    extrapolated: bool = False
    level_work: tuple[int, ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        how = "exact" if self.exact else f"{self.samples:,} of {self.roots:,} roots sampled"
        if self.extrapolated:
            how += ", deeper levels extrapolated"
        return (
            f"~{_sci(self.count)} {self.kind} (range {_sci(self.count_low)} .. "
            f"{_sci(self.count_high)}; {how}); work ~{_sci(self.work)} partial matches "
            f"(bound {_sci(self.work_bound)}); ~{_duration(self.seconds)} on the CPU engine"
        )

    def refusal(self, max_work: int) -> str:
        """The message of a count refused by ``max_work`` on this estimate."""
        return (
            f"estimated {_sci(self.work)} partial matches (bound {_sci(self.work_bound)}) > "
            f"max_work={max_work:,}; nx_gpumine.estimate(G, P) tells more ({self})"
        )

    def eta(self) -> str:
        """The predicted run time as one line: ``estimated ~3.4 s on the CPU engine (3.4e+07
        partial matches)``."""
        return (
            f"estimated ~{_duration(self.seconds)} on the CPU engine "
            f"({_sci(self.work)} partial matches)"
        )

    def time_refusal(self, max_seconds: float) -> str:
        """The message of a count refused by ``max_seconds`` on this estimate."""
        return (
            f"{self.eta()} > max_seconds={max_seconds:g} (the CPU engine's predicted time, "
            f"whatever the engine); nx_gpumine.estimate(G, P) tells more ({self})"
        )


def format_count(x: int) -> str:
    """``x`` with thousands separators below 10^7, else in three significant digits."""
    return _sci(x)


def format_seconds(s: float) -> str:
    """A duration for people: ``293 ms``, ``3.4 s``, ``12 min``, ``2.5 h``, ``46.1 days``."""
    return _duration(s)


def _sci(x: int) -> str:
    return f"{x:,}" if x < 10**7 else f"{float(x):.3g}"


def _duration(s: float) -> str:
    if not math.isfinite(s):
        return "forever"
    if s < 1:
        return f"{s * 1000:.3g} ms"
    if s < 120:
        return f"{s:.3g} s"
    if s < 7200:
        return f"{s / 60:.3g} min"
    if s < 2 * 86400:
        return f"{s / 3600:.3g} h"
    return f"{s / 86400:.3g} days"


@dataclass
class _Strata:
    """The roots split into strata, and a random order of the sampled roots of each."""

    sizes: np.ndarray  # N_h
    picks: list[np.ndarray]  # root entries sampled in stratum h, in random order


def _strata(entries: np.ndarray, logw: np.ndarray, samples: int, seed: int) -> _Strata:
    """Split the roots by ``logw`` (log2 of their bound ``b``) into at most :data:`STRATA`
    strata, plus one of the roots whose bound is 0, and sample ``n_h`` roots of each, at
    least 2.

    The strata hold equal shares of ``sum sqrt(b)`` (roots in order of their bound, cut on a
    fine histogram of ``logw``): on a graph with hubs, where a few thousand roots bound
    nearly all the matches, the heaviest roots get strata of their own, tens of roots each,
    instead of sharing one with thousands of lighter ones. ``n_h`` is proportional to
    ``N_h mean(b)^0.75`` (between Neyman's allocation when spread and cost both grow with
    the bound, ``N_h sqrt(mean b)``, and one proportional to the bound, which the heavy
    strata's spread calls for)."""
    rng = np.random.default_rng(seed)
    finite = np.isfinite(logw)
    top = float(logw[finite].max()) if finite.any() else 0.0
    lo = float(logw[finite].min()) if finite.any() else 0.0
    nb = max(1, min(STRATA, len(entries)))
    bucket = np.full(len(entries), nb, dtype=np.int64)  # nb: bound 0
    rel = np.exp2(np.where(finite, logw.astype(np.float64) - top, -np.inf))
    if finite.any():
        bins = 4096  # equal shares of sum(b^MASS_POWER), cut between bins of log2(b)
        fine = np.minimum(((logw[finite] - lo) / ((top - lo) / bins or 1.0)), bins - 1)
        fine = fine.astype(np.int64)
        mass = np.bincount(fine, weights=rel[finite] ** MASS_POWER, minlength=bins)
        before = (np.cumsum(mass) - mass) / mass.sum()
        bucket[finite] = np.minimum((before * nb).astype(np.int64), nb - 1)[fine]
    sizes = np.bincount(bucket, minlength=nb + 1)
    mean_w = np.bincount(bucket, weights=rel, minlength=nb + 1) / np.maximum(sizes, 1)
    share = sizes * mean_w**ALLOC_POWER
    want = samples * share / share.sum() if share.sum() > 0 else np.ones(nb + 1)
    picks = []
    kept = []
    for b in range(nb + 1):
        if sizes[b] == 0:
            continue
        members = entries[bucket == b]
        n_h = int(min(sizes[b], max(2, round(float(want[b])))))
        picks.append(members[rng.choice(len(members), size=n_h, replace=False)])
        kept.append(sizes[b])
    return _Strata(np.asarray(kept, dtype=np.int64), picks)


def _threads() -> int:
    import numba

    return max(1, int(numba.get_num_threads()))


def _no_roots(plan: StaticPlan) -> StaticPlan:
    """``plan`` admitting no root: a call of it costs what one of ``plan`` costs before it
    walks anything (the engine's fixed cost per call)."""
    return replace(plan, root_ok=np.zeros(len(plan.root_ok), dtype=np.uint8))


class _Chain:
    """Per stratum, a weighted sample of roots at the current level: their entries
    (``picks``, repeated where a root was drawn more than once), their partial matches there
    (``x``) and their weights (``w``: the stratum's estimated total is ``sum(w x)``).

    Level 1 holds the first-phase sample, each root weighing ``N_h / n_h``. The next level
    counts every root when the time allows (the weights stay), else draws roots with
    replacement with probabilities proportional to their share ``w x`` of the total
    (Hansen-Hurwitz): the stratum's total becomes ``T / m * sum(y / x)`` over the ``m``
    draws, unbiased given the level before, whatever the spread — a heavy root is drawn
    often and counted once, a root without partial matches is never drawn."""

    def __init__(self, strata: _Strata, seed: int) -> None:
        self.rng = np.random.default_rng([seed, 1])
        self.sizes = strata.sizes.astype(np.float64)
        self.first = np.array([len(p) for p in strata.picks], dtype=np.float64)
        self.picks = list(strata.picks)
        self.x = [np.ones(len(p)) for p in self.picks]
        self.w = [
            np.full(len(p), n / max(len(p), 1)) for p, n in zip(self.picks, self.sizes, strict=True)
        ]
        self.totals = self.sizes.copy()  # level 1: every root entry is one partial match
        self.resid = np.zeros(len(self.picks))  # variance added by the draws
        self.serial = np.zeros(len(self.picks))  # estimated engine seconds of the last level
        self.growth = np.ones(len(self.picks))  # the last ratio of two levels, per stratum
        self.spread = np.ones(len(self.picks))  # relative spread of that ratio over roots
        self.complete = bool(np.all(self.first == self.sizes))  # no root left out so far
        self.found = 0  # matches (or partial matches) the last level found on its roots
        self.orders: list[np.ndarray] = []

    def draw(self) -> None:
        """Random draws for the next level: per stratum, up to ``4 n + 16`` roots of the
        current sample, with probabilities proportional to ``w x``."""
        self.orders = []
        for w, x in zip(self.w, self.x, strict=True):
            share = w * x
            total = float(share.sum())
            if total <= 0:
                self.orders.append(np.empty(0, dtype=np.int64))
            else:
                n = 4 * len(x) + 16
                self.orders.append(self.rng.choice(len(x), size=n, p=share / total))

    def order(self, h: int, every: bool) -> np.ndarray:
        """The roots of stratum ``h`` to count, in order: all of them, or the draws."""
        return np.arange(len(self.x[h])) if every else self.orders[h]

    def _cum_cost(self, h: int, every: bool, rate: float, per_call: float) -> np.ndarray:
        """Seconds to count the next level on the first 1, 2, ... roots of :meth:`order`
        (``rate`` seconds per node expanded, ``per_call`` per root; a root already counted,
        or without partial matches at this level, costs nothing)."""
        idx = self.order(h, every)
        e = self.picks[h][idx]
        new = np.zeros(len(idx), dtype=bool)
        new[np.unique(e, return_index=True)[1]] = True
        x = self.x[h][idx]
        return np.cumsum((rate * x + per_call * (x > 0)) * new)

    def allocate(self, rate: float, per_call: float, left: float) -> tuple[bool, list[int]] | None:
        """What to count at the next level in ``left`` seconds: ``(True, all)`` where every
        root fits, else ``(False, draws per stratum)`` by Neyman's allocation with costs
        (``m_h`` ~ ``T_h g_h s_h / sqrt(c_h)``: the stratum's total, its last growth factor
        and that factor's relative spread over roots, the mean cost of a draw), at least one
        draw per stratum with matches (even past ``left``: the costs are those of the level
        before, often far off); None when that takes :data:`HOPELESS` times ``left``."""
        strata = range(len(self.x))
        every = [len(x) for x in self.x]
        if (
            sum(float(self._cum_cost(h, True, rate, per_call)[-1]) for h in strata if every[h])
            <= left
        ):
            return True, every
        cum = [self._cum_cost(h, False, rate, per_call) for h in strata]

        def cost(ns: list[int]) -> float:
            return sum(float(c[n - 1]) for c, n in zip(cum, ns, strict=True) if n)

        low = [min(1, len(c)) for c in cum]
        if cost(low) > HOPELESS * left:
            return None
        weight = []
        for h in strata:
            share = self.w[h] * self.x[h]
            total = float(share.sum())
            if total <= 0:
                weight.append(0.0)
                continue
            unit = rate * self.x[h] + per_call
            mean_cost = max(float((share * unit).sum()) / total, 1e-12)
            weight.append(float(total * self.growth[h] * self.spread[h] / math.sqrt(mean_cost)))

        def alloc(lam: float) -> list[int]:
            return [
                max(m, math.ceil(min(lam * w, len(c)))) if w > 0 else m
                for c, m, w in zip(cum, low, weight, strict=True)
            ]

        lo, hi = 0.0, 1.0
        while cost(alloc(hi)) <= left:
            if hi > 1e300:
                return False, alloc(hi)
            lo, hi = hi, hi * 4
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if cost(alloc(mid)) <= left else (lo, mid)
        return False, alloc(lo)

    @staticmethod
    def schedule(ns: list[int]) -> list[tuple[int, int]]:
        """``(stratum, position)`` of the roots to count next (the first ``ns[h]`` of
        stratum ``h``), interleaved so that wherever the walk stops every stratum has had
        about the same share of its roots (the first of each comes first)."""
        keys = [(i / n, h, i) for h, n in enumerate(ns) for i in range(n)]
        return [(h, i) for _, h, i in sorted(keys)]

    def step(self, level: _Level) -> None:
        """Move to the next level, from what ``level`` counted: the roots' new values and
        weights, each stratum's total, the variance the draws add, the engine time. A
        stratum with nothing counted (out of time) follows its last growth factor, with a
        standard error as large as its total."""
        for h in range(len(self.x)):
            if level.pos[h]:
                self._next(h, level)
                continue
            r = self.growth[h] if self.totals[h] > 0 else 0.0
            self.serial[h] = 0.0
            self.totals[h] *= r
            self.resid[h] = r * r * self.resid[h] + self.totals[h] ** 2
            self.picks[h] = self.picks[h][:0]
            self.x[h], self.w[h] = self.x[h][:0], self.w[h][:0]
            self.complete = False
        self.found = level.found

    def _next(self, h: int, level: _Level) -> None:
        """Stratum ``h`` at the next level."""
        every = level.every
        idx = self.order(h, every)[: len(level.pos[h])]
        y = np.array([level.counts[int(e)] for e in self.picks[h][idx]], dtype=np.float64)
        t = np.array([level.net(int(e)) for e in self.picks[h][idx]], dtype=np.float64)
        m, big, t0 = len(idx), len(self.x[h]), float(self.totals[h])
        x = self.x[h][idx]
        if every:  # the first m of the roots in their (random) order, each as they weigh
            w = self.w[h][idx] * (big / m)
            t1 = float((w * y).sum())
            add = 0.0
            if m < big:
                self.complete = False
                c = self.w[h][idx] * y
                add = big * big * (1 / m - 1 / big) * float(np.var(c, ddof=1)) if m > 1 else t1**2
            self.serial[h] = max(float((w * t).sum()), MIN_RATE * t0)
            ok = x > 0
            z = y[ok] / x[ok]
            share = (self.w[h][idx] * x)[ok]
            mean = float((share * z).sum() / share.sum()) if ok.any() else 0.0
            sd = (
                math.sqrt(float((share * (z - mean) ** 2).sum() / share.sum())) if ok.any() else 0.0
            )
        else:  # draws with probability w x / T: each weighs T / (m x)
            z = y / x
            t1 = t0 * float(z.mean())
            self.complete = False
            w = t0 / (m * x)
            add = t0 * t0 * float(np.var(z, ddof=1)) / m if m > 1 else t1**2
            self.serial[h] = max(t0 * float((t / x).mean()), MIN_RATE * t0)
            mean, sd = float(z.mean()), float(np.std(z))
        r = t1 / t0 if t0 > 0 else 0.0
        self.resid[h] = r * r * self.resid[h] + add
        self.totals[h] = t1
        self.growth[h] = r
        self.spread[h] = max(sd / mean if mean > 0 else 0.0, SPREAD_FLOOR)
        self.picks[h], self.x[h], self.w[h] = self.picks[h][idx], y, w

    def total(self) -> float:
        """Estimated total of the current level."""
        return float(self.totals.sum())

    def variance(self) -> float:
        """Variance of :meth:`total`: the draws' (``resid``) and the first phase's, whose
        spread within each stratum is estimated from the weighted sample (approximate)."""
        var = float(self.resid.sum())
        for h, y in enumerate(self.x):
            big, n0 = self.sizes[h], self.first[h]
            if len(y) and 1 < n0 < big:
                mean = self.totals[h] / big
                s2 = max(float((self.w[h] * y * y).sum()) / big - mean * mean, 0.0)
                var += big * big * (1 / n0 - 1 / big) * s2 * n0 / (n0 - 1)
        return var

    def exact(self) -> bool:
        """Every root of every stratum was counted at every level."""
        return self.complete


class _Level:
    """What one level counted so far: per root entry its count and the time of its call
    (:meth:`net`: less the engine's fixed cost per call), per stratum the positions of
    :meth:`_Chain.order` counted, the engine calls and the exact sum of the counts of the
    distinct roots; :meth:`run` counts more."""

    def __init__(self, eng, graph: StaticGraph, plan: StaticPlan, chain: _Chain, every: bool):
        self.eng, self.graph, self.plan, self.chain, self.every = eng, graph, plan, chain, every
        self.counts: dict[int, int] = {}
        self.times: dict[int, float] = {}
        self.x_of: dict[int, float] = {}  # partial matches at the chain's level, per root
        self.pos: list[list[int]] = [[] for _ in chain.x]
        self.calls = 0
        self.found = 0  # exact Python ints: the answer if every root ran
        self.seconds = 0.0  # wall time of the calls
        first = next(int(p[0]) for p in chain.picks if len(p))
        self.none = _no_roots(plan)
        eng.count(graph, self.none, first, first + 1)  # a first call may cost more: not timed
        self.idle: list[float] = []  # times of calls of ``none``
        for _ in range(3):
            self._idle(first)

    def _idle(self, e: int) -> None:
        """Time a call of the plan admitting no root, on root entry ``e``."""
        t0 = time.perf_counter()
        self.eng.count(self.graph, self.none, e, e + 1)
        self.idle.append(time.perf_counter() - t0)

    @property
    def fixed(self) -> float:
        """The engine's fixed cost per call: the median time of the calls admitting no root
        (three first, then one after every eighth call of the level; a median, as a call
        now and then takes milliseconds more)."""
        return float(np.median(self.idle))

    @property
    def fixed_mean(self) -> float:
        """The mean of the same times: what a call costs besides its work on average, delays
        included (:meth:`net`, for the predicted run time)."""
        return sum(self.idle) / len(self.idle)

    def done(self) -> list[int]:
        """Positions counted per stratum."""
        return [len(v) for v in self.pos]

    def run(self, ns: list[int], stop: float) -> None:
        """Count the first ``ns[h]`` roots of each stratum's order not counted yet, until
        ``stop`` (``time.perf_counter()``; the first root of each stratum until twice the
        time to ``stop``, so that a slow level still measures every stratum). A root without
        partial matches at the chain's level has no matches below it: 0, without a call; a
        root counted before is not counted again."""
        done = self.done()
        t_begin = time.perf_counter()
        late = stop + max(stop - t_begin, 0.0)
        eng, graph, plan, chain = self.eng, self.graph, self.plan, self.chain
        orders = [chain.order(h, self.every) for h in range(len(ns))]
        for h, i in chain.schedule(ns):
            if i < done[h]:
                continue
            now = time.perf_counter()
            if now > late or (now > stop and i > 0):
                break
            j = int(orders[h][i])
            e = int(chain.picks[h][j])
            if e not in self.counts:
                x = float(chain.x[h][j])
                if x == 0:
                    self.counts[e] = 0
                else:
                    t0 = time.perf_counter()
                    c = eng.count(graph, plan, e, e + 1)
                    self.times[e] = time.perf_counter() - t0
                    self.x_of[e] = x
                    if self.calls % 8 == 0:
                        self._idle(e)
                    self.counts[e] = c
                    self.found += c
                    self.calls += 1
            self.pos[h].append(i)
        self.seconds += time.perf_counter() - t_begin

    def net(self, e: int) -> float:
        """Seconds the call on root entry ``e`` took past the engine's mean cost per call
        (0 for a root not counted: no partial matches above it; may be below 0 for a light
        root, whose sums are clipped)."""
        return self.times[e] - self.fixed_mean if e in self.times else 0.0

    def costs(self) -> tuple[float, float]:
        """Seconds per node expanded and per call besides that, as measured so far: the
        median of the calls' net time per node of the chain's level below their root,
        weighted by those nodes (a call that lost the CPU for a while does not count), and
        the rest of the calls' time."""
        if not self.times:
            return MIN_RATE, 0.0
        net = np.array(list(self.times.values())) - self.fixed
        nodes = np.array([self.x_of[e] for e in self.times])
        order = np.argsort(net / nodes)
        half = np.searchsorted(np.cumsum(nodes[order]), nodes.sum() / 2)
        rate = max(float(net[order[half]] / nodes[order[half]]), MIN_RATE)
        busy = max(float(net.sum()), 0.0)
        return rate, max(self.seconds - busy, 0.0) / max(self.calls, 1)

    def fill(self, stop: float, rounds: int = 3) -> None:
        """While time is left before ``stop`` (a tenth of the level's time or more): a level
        counting every root counts on, one drawing its roots allocates the draws anew
        (:meth:`_Chain.allocate`) on the costs measured so far, for the time spent and left
        together, and counts the ones added."""
        if self.every:
            full = [len(x) for x in self.chain.x]
            if self.done() != full and time.perf_counter() < stop:
                self.run(full, stop)
            return
        for _ in range(rounds):
            left = stop - time.perf_counter()
            if left < 0.1 * (self.seconds + left):
                return
            got = self.chain.allocate(*self.costs(), self.seconds + left)
            if got is None:
                return
            done = self.done()
            ns = [max(a, b) for a, b in zip(got[1], done, strict=True)]
            if got[0]:  # every root fits now: as many draws as there are
                ns = [len(o) for o in self.chain.orders]
            if ns == done:
                return
            self.run(ns, stop)


def estimate_plan(
    graph: StaticGraph,
    plan: StaticPlan,
    *,
    kind: str = "mappings",
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_seconds: float = SAMPLE_SECONDS,
    max_work: int | None = None,
    extra_seconds: float = EXTRA_SECONDS,
) -> Estimate:
    """Estimate the count of ``plan`` on ``graph``, its work and its CPU run time.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    plan : StaticPlan
        A plan built for it; a ``distinct`` plan (as ``count_subgraphs`` runs) is counted
        times ``|Aut(P)|`` for ``kind="mappings"``.
    kind : {"mappings", "subgraphs"}
        What ``count`` counts.
    samples : int
        Root entries to sample (every root when there are no more).
    seed : int
        Seed of the sample.
    max_seconds : float
        Engine time the sampling may take; past it fewer roots are counted, then the deeper
        levels are extrapolated (the first root of each stratum may take up to twice a
        level's share).
    max_work : int, optional
        Stop as soon as the estimated work of the levels measured exceeds it (the deeper
        levels and the count are then extrapolated).
    extra_seconds : float
        More engine time the count's level may take when its relative standard error is
        above :data:`TARGET_RSE` (:func:`_extend`).

    Returns
    -------
    Estimate
    """
    mult = int(plan.num_automorphisms) if kind == "mappings" and plan.distinct else 1
    t0 = time.perf_counter()
    known = closed_form_count(graph, plan)  # stars, cliques in complete components
    if known is not None:  # the answer itself, with no walk: nothing to sample
        c = known * mult
        roots = len(root_entries(graph, plan))
        seconds = time.perf_counter() - t0
        return Estimate(c, c, c, 0, 0, seconds, roots, roots, kind, True, level_work=(0, 0))
    entries = root_entries(graph, plan)
    bounds, weights = bounds_and_weights(graph, plan, entries)
    t_levels = walk_levels(plan)
    if plan.k <= 2 or plan.impossible or len(entries) == 0:
        bound = sum(bounds[:t_levels])
        t0 = time.perf_counter()
        exact = 0 if plan.impossible else int(run_static(graph, plan, "count", engine="cpu"))
        c = exact * mult
        seconds = time.perf_counter() - t0
        return Estimate(c, c, c, bound, bound, seconds, len(entries), len(entries), kind, True)
    strata = _strata(entries, weights, max(1, int(samples)), seed)
    eng = select_engine("cpu", "static")
    # steps: the prefix plans giving the partial matches at levels 2 .. t-1, then the plan
    steps = [prefix_plan(plan, m) for m in range(3, t_levels + 1)] + [plan]
    first = int(strata.picks[0][0])
    for warm in (steps[0], _no_roots(plan)):  # numba loads its kernels: not timed
        eng.count(graph, warm, first, first + 1)
    start = time.perf_counter()
    chain = _Chain(strata, seed)
    levels = [float(bounds[0]), chain.total()]  # estimated partial matches per level
    rate = MIN_RATE  # engine seconds per expanded node, from the last step
    per_call = 0.0  # seconds per sampled root besides that (the engine's fixed costs)
    counted = False
    for i, step in enumerate(steps):
        if max_work is not None and sum(levels[:t_levels]) > max_work:
            break
        left = max_seconds - (time.perf_counter() - start)
        # a level before the last may take half the time left; the last all of it, and at
        # least a third of the budget (a slow host still counts a few roots of the plan)
        left = max(left, max_seconds / 3) if step is plan else left / 2
        chain.draw()
        got = chain.allocate(rate, per_call, left) if i else (True, [len(x) for x in chain.x])
        want = min(MIN_ROOTS, sum(len(x) for x in chain.x))  # fewer: extrapolate instead
        if got is None or sum(got[1]) < want:
            break
        stop = time.perf_counter() + left
        level = _Level(eng, graph, step, chain, got[0])
        level.run(got[1], stop)
        level.fill(stop)
        if sum(level.done()) < want:
            break
        rate, per_call = level.costs()
        prev = copy.deepcopy(chain) if step is plan and extra_seconds > 0 else None
        chain.step(level)
        counted = step is plan
        if not counted:
            levels.append(chain.total())
        elif prev is not None:
            chain = _extend(level, prev, chain, start + max_seconds + extra_seconds)
    _extrapolate(levels, bounds, symmetry_factors(plan))
    exact = counted and chain.exact()
    if exact:
        count = low = high = chain.found
    elif counted:
        mean, se = chain.total(), math.sqrt(chain.variance())
        count = _capped(mean, bounds[-1])
        low = max(chain.found, _capped(mean - Z * se, bounds[-1]))
        high = _capped(mean + Z * se, bounds[-1])
    else:
        count, low, high = _capped(levels[-1], bounds[-1]), 0, bounds[-1]
    c, lo, hi = count * mult, low * mult, high * mult
    serial = float(chain.serial.sum()) if counted else rate * levels[t_levels - 1]
    return Estimate(
        count=c,
        count_low=min(lo, c),
        count_high=max(hi, c),
        work=_capped(sum(levels[:t_levels]), sum(bounds[:t_levels])),
        work_bound=sum(bounds[:t_levels]),
        seconds=serial / _threads(),
        samples=sum(len(np.unique(p)) for p in chain.picks),
        roots=len(entries),
        kind=kind,
        exact=exact,
        extrapolated=not counted,
        level_work=tuple(map(_capped, levels[:t_levels], bounds[:t_levels])),
    )


def _extend(level: _Level, prev: _Chain, chain: _Chain, stop: float) -> _Chain:
    """``chain`` after the count's level, on more draws of the roots of the level before
    (``prev``: the chain before that level, ``level``: what was counted there) when its
    relative standard error is above :data:`TARGET_RSE` and time is left before ``stop``
    (:meth:`_Level.fill`, with the growth factors the count's level measured)."""
    mean = chain.total()
    if chain.exact() or mean <= 0 or time.perf_counter() >= stop:
        return chain
    if math.sqrt(chain.variance()) <= TARGET_RSE * mean:
        return chain
    done = level.done()
    prev.growth, prev.spread = chain.growth.copy(), chain.spread.copy()
    level.chain = prev
    level.fill(stop)
    if level.done() == done:
        return chain
    prev.step(level)
    return prev


def _extrapolate(levels: list[float], bounds: tuple[int, ...], keep: tuple[float, ...]) -> None:
    """Extend ``levels`` to every level of the plan: the last measured branching factor
    without the symmetry conditions' share (``keep``), capped by the bounds' factor (which
    ignores symmetry too), times the share of each new level."""
    while len(levels) < len(bounds):
        j = len(levels)
        last = levels[-1] / levels[-2] / keep[j - 1] if levels[-2] > 0 else 0.0
        cap = bounds[j] / bounds[j - 1] if bounds[j - 1] > 0 else 0.0
        levels.append(levels[-1] * min(last, cap) * keep[j])


def _capped(x: float, cap: int) -> int:
    """``x`` rounded into ``[0, cap]`` (``cap``, a bound, where ``x`` is not finite)."""
    if not math.isfinite(x) or x >= cap:
        return cap
    return max(int(round(x)), 0)


#: Roots and engine seconds the ``max_work`` check samples (less than an estimate: it only
#: needs to know on which side of the limit the work lies).
CHECK_SAMPLES = 200
CHECK_SECONDS = 0.15


def work_check(
    graph: StaticGraph, plan: StaticPlan, max_work: int, *, kind: str = "mappings"
) -> Estimate | None:
    """None when a count of ``plan`` may run under ``max_work``; else the estimate refusing it.

    The plan's work bound (:func:`nx_gpumine.plan.estimate.work_bound`, degrees only) admits
    the count at once when it is within the limit, and the first two levels (the root
    vertices and edges, counted exactly) refuse it at once when they alone pass it. Between
    the two, :func:`estimate_plan` samples the levels (:data:`CHECK_SAMPLES` roots, at most
    :data:`CHECK_SECONDS` of engine time) and stops at the first level whose estimated work
    passes the limit; the count is refused when the estimated work exceeds ``max_work``.

    Parameters
    ----------
    graph : StaticGraph
        The data graph.
    plan : StaticPlan
        The plan the count would walk.
    max_work : int
        Partial matches allowed.
    kind : {"mappings", "subgraphs"}
        What the count counts (for the estimate's count).

    Returns
    -------
    Estimate or None
    """
    bounds = level_bounds(graph, plan)
    t_levels = walk_levels(plan)
    bound = sum(bounds[:t_levels])
    if bound <= max_work:
        return None
    if sum(bounds[:2]) > max_work:
        mult = int(plan.num_automorphisms) if kind == "mappings" and plan.distinct else 1
        top = bounds[-1] * mult
        work = sum(bounds[:2])
        return Estimate(0, 0, top, work, bound, math.inf, 0, bounds[1], kind, False, True)
    est = estimate_plan(
        graph, plan, kind=kind, samples=CHECK_SAMPLES, max_seconds=CHECK_SECONDS,
        max_work=max_work, extra_seconds=0.0,
    )  # fmt: skip
    return est if est.work > max_work else None


def eta_wanted(graph: StaticGraph, plan: StaticPlan) -> bool:
    """Whether a count of ``plan`` is worth an estimate of its run time first: its work bound
    (degrees only, no search) exceeds :data:`ETA_MIN_BOUND` (never for plans of 1 or 2
    levels: their counts are a mask of the root edges, at once).

    Parameters
    ----------
    graph, plan
        As in :func:`work_check`.

    Returns
    -------
    bool
    """
    if plan.k <= 2 or plan.impossible:
        return False
    return work_bound(graph, plan) > ETA_MIN_BOUND


def as_seconds(value: object, name: str = "max_seconds") -> float | None:
    """``value`` as a number of seconds >= 0 (``float``), or None.

    Parameters
    ----------
    value : int, float or None
        A time limit; ``math.inf`` is no limit, as None is.
    name : str
        Parameter name used in the error message.

    Returns
    -------
    float or None

    Raises
    ------
    QueryError
        For a boolean, a non-number, NaN or a negative number.
    """
    if value is None:
        return None
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise QueryError(f"{name} must be a number of seconds >= 0 or None, got {value!r}")
    seconds = float(value)
    if math.isnan(seconds) or seconds < 0:
        raise QueryError(f"{name} must be a number of seconds >= 0, got {value!r}")
    return seconds
