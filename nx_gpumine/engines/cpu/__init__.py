"""CPU engines (numba)."""
