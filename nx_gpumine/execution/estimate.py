"""Estimates before a count: the plan's work bound, a sampled count, its work and run time.

:func:`estimate_plan` splits the root entries of a (distinct) static plan into strata by their
bound (:func:`nx_gpumine.plan.estimate.root_log_weights`), samples each stratum (Neyman's
allocation) and counts the matches rooted at each sampled entry *exactly* with the CPU engine
(``count(graph, plan, e, e + 1)``).

It goes level by level: the prefix plans (:func:`nx_gpumine.plan.estimate.prefix_plan`) give
the partial matches of each sampled root at levels 2, 3, ... (the *work* the count walk
visits), then the plan itself the count. Each level is counted on a subset of the roots of the
level before (all of them while time allows) and its stratum total is the previous level's
total times the ratio of the two levels on that subset: a two-phase ratio estimator per
stratum, so the costly deep levels take few roots without losing the precision of the shallow
ones (:class:`_Chain`). A level stops at its share of :data:`SAMPLE_SECONDS`; where not even
one root per stratum of the next level fits, the deeper levels follow the last measured
branching factor, capped by the plan's bounds (``Estimate.extrapolated``). ``max_work`` stops
as soon as the levels measured pass it (``count_subgraphs(max_work=...)``, :func:`work_check`).

The predicted run time (``Estimate.seconds``) is the CPU engine's: each sampled call of the
whole plan is timed, less a call of the same plan admitting no root made right after it on
the same root (the engine's fixed cost per call); these net times, per node expanded, are
scaled up stratum by stratum like the count and divided by numba's threads (as if the threads
scaled perfectly). Below about 0.1 s the noise of single calls dominates; on a GPU the CUDA
engine usually runs far faster than the figure.

Before a count, ``count_subgraphs`` uses :func:`eta_wanted` (``progress=True``: an estimate is
worth its fraction of a second only above :data:`ETA_MIN_BOUND`), :meth:`Estimate.eta` (the
line it prints) and :meth:`Estimate.time_refusal` (``max_seconds=``, checked by
:func:`as_seconds`).
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..engines import select_engine
from ..errors import QueryError
from ..inputs.static_graph import StaticGraph
from ..plan.estimate import (
    level_bounds,
    prefix_plan,
    root_entries,
    root_log_weights,
    symmetry_factors,
    walk_levels,
    work_bound,
)
from ..plan.static_plan import StaticPlan
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
#: Number of strata (at most) the roots are split into by their per-root bound.
STRATA = 12
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
        Every root was counted: ``count`` is the answer.
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
    """Split the roots by ``logw`` (log2 of their bound) into at most :data:`STRATA` strata of
    equal width, plus one of the roots whose bound is 0, and sample ``n_h`` roots of each,
    proportional to ``N_h sqrt(mean bound)`` (Neyman's allocation when the spread and the
    cost of a root both grow with its bound), at least 2 each."""
    rng = np.random.default_rng(seed)
    finite = np.isfinite(logw)
    top = float(logw[finite].max()) if finite.any() else 0.0
    lo = float(logw[finite].min()) if finite.any() else 0.0
    nb = max(1, min(STRATA, len(entries)))
    width = (top - lo) / nb or 1.0
    bucket = np.full(len(entries), nb, dtype=np.int64)  # nb: bound 0
    bucket[finite] = np.minimum(((logw[finite] - lo) / width).astype(np.int64), nb - 1)
    sizes = np.bincount(bucket, minlength=nb + 1)
    rel = np.exp2(np.where(finite, logw.astype(np.float64) - top, -np.inf))
    mean_w = np.bincount(bucket, weights=rel, minlength=nb + 1) / np.maximum(sizes, 1)
    share = sizes * np.sqrt(mean_w)
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
    """Per stratum: the sampled roots still counted, their values at the current level, and
    the stratum's estimated total there (a ratio chain: each level's total is the previous
    level's total times the ratio of the two levels on the roots counted at both)."""

    def __init__(self, strata: _Strata) -> None:
        self.sizes = strata.sizes.astype(np.float64)
        self.picks = list(strata.picks)
        self.first = np.array([len(p) for p in self.picks], dtype=np.float64)
        self.x = [np.ones(len(p)) for p in self.picks]
        self.totals = self.sizes.copy()  # level 1: every root entry is one partial match
        self.resid = np.zeros(len(self.picks))  # variance added by the subsampling
        self.serial = np.zeros(len(self.picks))  # estimated engine seconds of the last level
        self.found = 0  # matches (or partial matches) the last level found on its roots

    def cost(self, frac: float, rate: float, per_call: float) -> float:
        """Seconds to count the next level on ``frac`` of the roots (``rate`` seconds per node
        expanded, ``per_call`` per root)."""
        return sum(
            rate * float(x[:n].sum()) + per_call * n
            for x in self.x
            for n in [_keep(frac, len(x)) if len(x) else 0]
        )

    def roots(self, frac: float = 1.0) -> int:
        """Roots the next level counts at ``frac``."""
        return sum(_keep(frac, len(x)) for x in self.x if len(x))

    def fraction(self, rate: float, per_call: float, left: float) -> float | None:
        """Largest fraction of the roots whose next level fits ``left`` seconds, or None."""
        if self.cost(1.0, rate, per_call) <= left:
            return 1.0
        lo, hi = 0.0, 1.0
        for _ in range(20):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.cost(mid, rate, per_call) <= left else (lo, mid)
        return lo if self.cost(lo, rate, per_call) <= left else None

    def schedule(self, frac: float) -> list[tuple[int, int]]:
        """``(stratum, index)`` of the roots to count next, interleaved so that wherever the
        walk stops every stratum has had about the same share (the first of each comes first)."""
        keys = [
            (i / n, h, i)
            for h, x in enumerate(self.x)
            for n in [_keep(frac, len(x)) if len(x) else 0]
            for i in range(n)
        ]
        return [(h, i) for _, h, i in sorted(keys)]

    def step(self, values: list[np.ndarray], net: list[np.ndarray]) -> None:
        """Values of the next level on the first ``len(values[h])`` roots of each stratum; a
        stratum with none takes the ratio of all the others."""
        ys = sum(float(y.sum()) for y in values)
        xs = sum(float(x[: len(y)].sum()) for x, y in zip(self.x, values, strict=True))
        pooled = ys / xs if xs > 0 else 0.0
        for h, (y, t) in enumerate(zip(values, net, strict=True)):
            n1, n2 = len(self.x[h]), len(y)
            x = self.x[h][:n2]
            sx = float(x.sum())
            r = (float(y.sum()) / sx if sx > 0 else 0.0) if n2 else pooled
            if n2 < n1:
                if n2 > 1:
                    s2 = float(np.var(y - r * x, ddof=1))
                else:  # no spread to measure: as if the level were unrelated to the last
                    s2 = max(r, pooled) ** 2 * float(np.var(self.x[h], ddof=1))
                self.resid[h] = (
                    r * r * self.resid[h] + self.sizes[h] ** 2 * (1 / max(n2, 1) - 1 / n1) * s2
                )
            else:
                self.resid[h] *= r * r
            rate = max(float(t.sum()), 0.0) / sx if sx > 0 else 0.0
            self.serial[h] = rate * self.totals[h]  # expanded nodes x seconds per node
            self.totals[h] *= r
            self.x[h] = y
            self.picks[h] = self.picks[h][:n2]

    def total(self) -> float:
        """Estimated total of the current level."""
        return float(self.totals.sum())

    def variance(self) -> float:
        """Variance of :meth:`total` (stratified two-phase ratio estimator, approximate)."""
        var = float(self.resid.sum())
        for h, y in enumerate(self.x):
            big, n0 = self.sizes[h], self.first[h]
            if len(y) > 1 and n0 < big:
                var += big * big * (1 / n0 - 1 / big) * float(np.var(y, ddof=1))
        return var

    def exact(self) -> bool:
        """Every root of every stratum was counted at every level."""
        return all(len(y) == n for y, n in zip(self.x, self.sizes.tolist(), strict=True))


def _keep(frac: float, n: int) -> int:
    return max(1, math.ceil(frac * n))


def _run_step(
    eng, graph: StaticGraph, plan: StaticPlan, chain: _Chain, frac: float, stop: float
) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """Count ``plan`` on the roots of :meth:`_Chain.schedule` until ``stop``
    (``time.perf_counter()``): the counts and the net time of each call per stratum (less
    the time of a call of the same plan admitting no root, made right after it on the same
    root), or None if nothing was counted in time. Sets ``chain.found`` to the exact sum."""
    none = _no_roots(plan)
    got: list[list[int]] = [[] for _ in chain.x]
    took: list[list[float]] = [[] for _ in chain.x]
    for h, i in chain.schedule(frac):
        if time.perf_counter() > stop:
            break
        e = int(chain.picks[h][i])
        t0 = time.perf_counter()
        got[h].append(eng.count(graph, plan, e, e + 1))
        t1 = time.perf_counter()
        eng.count(graph, none, e, e + 1)
        took[h].append(2 * t1 - t0 - time.perf_counter())
    if not any(got):
        return None
    chain.found = sum(sum(v) for v in got)  # exact Python ints: the answer if every root ran
    return [np.asarray(v, dtype=np.float64) for v in got], [np.asarray(v) for v in took]


def estimate_plan(
    graph: StaticGraph,
    plan: StaticPlan,
    *,
    kind: str = "mappings",
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    max_seconds: float = SAMPLE_SECONDS,
    max_work: int | None = None,
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
        levels are extrapolated.
    max_work : int, optional
        Stop as soon as the estimated work of the levels measured exceeds it (the deeper
        levels and the count are then extrapolated).

    Returns
    -------
    Estimate
    """
    mult = int(plan.num_automorphisms) if kind == "mappings" and plan.distinct else 1
    bounds = level_bounds(graph, plan)
    t_levels = walk_levels(plan)
    entries = root_entries(graph, plan)
    if plan.k <= 2 or plan.impossible or len(entries) == 0:
        bound = sum(bounds[:t_levels])
        t0 = time.perf_counter()
        exact = 0 if plan.impossible else int(run_static(graph, plan, "count", engine="cpu"))
        c = exact * mult
        seconds = time.perf_counter() - t0
        return Estimate(c, c, c, bound, bound, seconds, len(entries), len(entries), kind, True)
    weights = root_log_weights(graph, plan, entries)
    strata = _strata(entries, weights, max(1, int(samples)), seed)
    eng = select_engine("cpu", "static")
    # steps: the prefix plans giving the partial matches at levels 2 .. t-1, then the plan
    steps = [prefix_plan(plan, m) for m in range(3, t_levels + 1)] + [plan]
    first = int(strata.picks[0][0])
    for warm in (steps[0], _no_roots(plan)):  # numba loads its kernels: not timed
        eng.count(graph, warm, first, first + 1)
    start = time.perf_counter()
    chain = _Chain(strata)
    levels = [float(bounds[0]), chain.total()]  # estimated partial matches per level
    rate = 5e-9  # engine seconds per expanded node, from the last step
    per_call = 0.0  # seconds per sampled root besides that (the engine's fixed costs)
    counted = False
    for i, step in enumerate(steps):
        if max_work is not None and sum(levels[:t_levels]) > max_work:
            break
        left = max_seconds - (time.perf_counter() - start)
        # a level before the last may take half the time left; the last all of it, and at
        # least a third of the budget (a slow host still counts a few roots of the plan)
        left = max(left, max_seconds / 3) if step is plan else left / 2
        frac = chain.fraction(rate, per_call, left) if i else 1.0
        want = min(MIN_ROOTS, chain.roots())  # fewer say too little: extrapolate instead
        if frac is None or chain.roots(frac) < want:
            break
        stop = time.perf_counter() + left
        t0 = time.perf_counter()
        ran = _run_step(eng, graph, step, chain, frac, stop)
        if ran is None or sum(len(v) for v in ran[0]) < want:
            break
        values, net = ran
        nodes = sum(float(x[: len(v)].sum()) for x, v in zip(chain.x, values, strict=True))
        busy = sum(float(t.sum()) for t in net)
        rate = max(busy / max(nodes, 1.0), 5e-9)
        calls = sum(len(v) for v in values)
        per_call = max(time.perf_counter() - t0 - busy, 0.0) / calls
        chain.step(values, net)
        counted = step is plan
        if not counted:
            levels.append(chain.total())
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
        samples=sum(len(y) for y in chain.x),
        roots=len(entries),
        kind=kind,
        exact=exact,
        extrapolated=not counted,
        level_work=tuple(map(_capped, levels[:t_levels], bounds[:t_levels])),
    )


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
        max_work=max_work,
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
