"""Engines check ``limit`` with ``engines.checks.checked_limit`` (one rule, one message).

The CUDA engines check their arguments before touching CuPy, so this runs without a GPU.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from nx_gpumine.engines import contract
from nx_gpumine.inputs.motifs import TemporalMotif
from nx_gpumine.inputs.patterns import as_pattern
from nx_gpumine.inputs.static_graph import from_networkx
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
from nx_gpumine.plan.static_plan import build_static_plan
from nx_gpumine.plan.temporal_plan import build_temporal_plan


def test_every_engine_checks_limit_with_the_shared_rule():
    g = from_networkx(nx.gnm_random_graph(50, 200, seed=1))
    plan = build_static_plan(as_pattern("triangle"), g, induced=False, distinct=False)
    tg = temporal_from_arrays(np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([1, 2, 3]))
    tplan = build_temporal_plan(TemporalMotif([(0, 1), (1, 2)], delta=10), tg)
    calls = [
        (contract.engine_module("static", name).enumerate_matches, g, plan)
        for name in ("cpu", "cuda")
    ] + [
        (contract.engine_module("temporal", name).enumerate_matches, tg, tplan)
        for name in ("cpu", "cuda")
    ]
    for fn, graph, p in calls:
        with pytest.raises(ValueError, match=r"^limit must be >= 0, got -1$"):
            fn(graph, p, limit=-1)
