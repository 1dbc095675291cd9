"""Checks shared by every engine and the execution layer: the one 64-bit overflow rule.

Counts are exact Python ints summed from 64-bit partial counts. Every engine and every merge
(tasks, partitions, devices, Dask workers) applies the same rule: a total above
:data:`INT64_MAX` (2**63 - 1, the largest count NumPy, pandas and the C API can hold) raises
:class:`~nx_gpumine.errors.CapacityError`, on every engine alike.
"""

from __future__ import annotations

__all__ = ["INT64_MAX"]

#: Largest count any engine returns; one more raises CapacityError.
INT64_MAX = 2**63 - 1
