"""The named tuples the CPU static walk (:mod:`.static_walk`) takes: the graph's and the plan's
arrays, built once per engine call by :mod:`.static` (its facade), and a pausable walk's state.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["StaticGraphArrays", "StaticPlanArrays", "StaticArgs", "WalkState"]


class StaticGraphArrays(NamedTuple):
    """The data graph's arrays a walk reads: the fields of
    :class:`~nx_gpumine.inputs.static_graph.StaticGraph` of the same names, as the kernels'
    dtypes (absent labels: one -1)."""

    #: int64 ``[n + 1]``: row starts of the union CSR.
    indptr: np.ndarray
    #: int32: each row's neighbours, sorted.
    indices: np.ndarray
    #: uint8 per entry: which directions the edge has.
    dircode: np.ndarray
    #: uint8 per node: has a self-loop.
    loop: np.ndarray
    #: int32 node label codes.
    node_label: np.ndarray
    #: int32 label codes of the entry's out-edge.
    out_label: np.ndarray
    #: int32 label codes of the entry's in-edge.
    in_label: np.ndarray
    #: int32 self-loop label codes.
    loop_label: np.ndarray
    #: Largest row length (at least 1): the size of a level's candidate row.
    max_degree: int
    #: int32 first id of each node label on a label-grouped graph
    #: (``inputs/label_groups.label_starts``; one -1: ids not grouped by label).
    label_start: np.ndarray


class StaticPlanArrays(NamedTuple):
    """The plan's arrays a walk reads: the fields of
    :class:`~nx_gpumine.plan.static_plan.StaticPlan` of the same names, and the root mask and
    count tail the facade derives from it."""

    k: int
    #: Pattern node of each level (the column of its image in a row).
    order: np.ndarray
    induced: bool
    edge_checks: bool
    #: uint8 per root entry: every level-0/1 condition holds.
    root_ok: np.ndarray
    # where a level's candidates come from:
    #: its backward neighbours (CSR over levels), whose lists it intersects;
    bn_ptr: np.ndarray
    bn_level: np.ndarray
    #: the earlier level whose candidate set it starts from (-1: none);
    reuse: np.ndarray
    #: that level again where the set is its full one, every check against the levels
    #: before it passed, non-adjacency included (``plan.candidate_sources.reuse_sources``; -1: the
    #: backward-neighbour intersection, or no reuse);
    reuse_below: np.ndarray
    #: the level ``h = i - 1`` whose every image shares level ``i``'s hoisted set: ``i``'s
    #: candidates that pass every test against the levels before ``h``, built once per image
    #: of those levels (``plan.candidate_sources.hoist_levels``; -1: none).
    hoist: np.ndarray
    #: the earlier levels its image must exceed (CSR over levels).
    sym_ptr: np.ndarray
    sym_level: np.ndarray
    # what a level's candidates are tested for:
    #: the checks against earlier levels (CSR over levels): level, code, labels;
    chk_ptr: np.ndarray
    chk_level: np.ndarray
    chk_code: np.ndarray
    chk_out_label: np.ndarray
    chk_in_label: np.ndarray
    #: the node's own tests.
    node_label: np.ndarray
    loop_req: np.ndarray
    loop_label: np.ndarray
    min_degree: np.ndarray
    #: First level the count tail's formula covers (k: none).
    tail_start: int
    #: 1 falling factorial, 2 binomial, 0 none.
    tail_kind: int
    #: The formula needs the tail's candidates pairwise non-adjacent (induced plans).
    tail_indep: bool
    #: int64 per level: later levels that take distinct vertices above its image from its own
    #: candidate range (``plan.static_plan.size_needs``): its range ends that much earlier.
    size_need: np.ndarray
    #: Largest node count for which a run keeps a byte of marks per node (a tuning value).
    mark_limit: int


class StaticArgs(NamedTuple):
    """Everything a static walk reads besides its run, built once per engine call. The kernels
    take its fields as two arguments (``*args``): numba's parallel loops pass tuples of arrays
    one level deep only."""

    graph: StaticGraphArrays
    plan: StaticPlanArrays


class WalkState(NamedTuple):
    """A walk's search state (see :mod:`.static_walk`); kept across calls by a pausable
    enumeration."""

    #: Save the state and return ``PAUSED`` when ``cap`` rows are written.
    pause: bool
    #: int64 ``[1]``: the level a paused walk goes on at (0: start the root entry afresh).
    resume: np.ndarray
    #: int64 ``[k]``: the node mapped at each level.
    f: np.ndarray
    #: int64 ``[k]``: each level's next candidate position ...
    pos: np.ndarray
    #: int64 ``[k]``: ... and the end of its range.
    end: np.ndarray
    #: int64 ``[k]``: size of each level's candidate set.
    cnt: np.ndarray
    #: int32 ``[k, max_degree]``: each level's candidate set.
    cand: np.ndarray
