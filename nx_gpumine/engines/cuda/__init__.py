"""CUDA engines (CUDA C++ kernels compiled by NVRTC through CuPy)."""
