"""The colour hash of the refinement engines, declared once for both.

:mod:`nx_gpumine.engines.cpu.refine` (numba) and :mod:`nx_gpumine.engines.cuda.refine` (CuPy)
hash colours with the same splitmix64 finaliser and the same mixing of neighbour colours and
edge labels; these are its constants. Plain NumPy scalars (no numba: the CUDA engines import
none). numba freezes the values into the CPU module's cached kernels: after changing one, touch
``engines/cpu/refine.py`` (or clear its numba cache).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MIX_M1", "MIX_M2", "GOLDEN"]

#: splitmix64's finaliser multipliers (also the two weights of a neighbour's colour and edge
#: label, swapped for in-edges).
MIX_M1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_M2 = np.uint64(0x94D049BB133111EB)
#: ``2**64 / phi`` (odd): mixed into a colour before it is hashed.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
