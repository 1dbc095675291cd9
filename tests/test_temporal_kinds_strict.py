"""Every temporal constraint kind alone, and all of them together, under the strict tie policy,
against the brute force (:func:`temporal_cases.constraint_kind_test`; the other policy is in
``test_temporal_kinds_input_order.py``)."""

from temporal_cases import constraint_kind_test

test_each_constraint_kind = constraint_kind_test("strict")
