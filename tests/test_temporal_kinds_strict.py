"""Every temporal constraint kind alone, and all of them together, under the strict tie policy,
against the brute force (explicitly parametrized, so each combination is exercised on every run,
not only when drawn at random; the other policy is in ``test_temporal_kinds_input_order.py``)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from temporal_cases import KINDS, check_all_modes, kind_cases

KIND_SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TIE = "strict"
KIND_PARAMS = [
    *[pytest.param(frozenset({kind}), id=kind) for kind in KINDS],
    pytest.param(frozenset(KINDS) - {"order"}, id="combined"),
]


@pytest.mark.parametrize("kinds", KIND_PARAMS)
@KIND_SETTINGS
@given(data=st.data())
def test_each_constraint_kind(engine, kinds, data):
    """Each kind alone (order only, window, gaps, anti-edges, node labels, edge labels, numeric
    node conditions) and all together, against the brute force."""
    case = data.draw(kind_cases(kinds, TIE))
    motif = case[4]
    assert motif.tie == TIE
    assert ("delta" in kinds) == (motif.delta is not None)
    assert ("gaps" in kinds) == (motif.gaps is not None)
    assert ("anti" in kinds) == bool(motif.anti_edges)
    assert ("nlab" in kinds) == bool(motif.node_labels)
    assert ("elab" in kinds) == bool(motif.edge_labels)
    assert ("where" in kinds) == bool(motif.node_where)
    check_all_modes(engine, case)
