#!/usr/bin/env bash
# Device script of the static CUDA engine: install, GPU tests, GPU benchmarks (results in $OUT).
# usage (on the lent GPU machine, from the repo root): bash benchmarks/gpu_run.sh [bench args]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export CUPY_CACHE_DIR=$(mktemp -d)   # cold NVRTC cache: compile times are real
export NUMBA_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv | tee "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
TEST_S=${TEST_S:-110}
BENCH_S=${BENCH_S:-290}
timeout "$TEST_S" python3 -m pytest -m gpu -v --durations=8 --no-header -p no:cacheprovider \
  tests/test_cuda_static.py 2>&1 | tee "$OUT/pytest_cuda_static.txt" | grep -v PASSED | tail -60
CUPY_CACHE_DIR=$(mktemp -d) timeout "$BENCH_S" python3 benchmarks/bench_static_gpu.py "$OUT" "$@" 2>&1 | tee "$OUT/bench.txt" | tail -40
timeout "${SHARED_S:-65}" python3 -m pytest -m gpu -q --no-header -p no:cacheprovider \
  tests/test_static_differential.py tests/test_static_oracles.py 2>&1 \
  | tee "$OUT/pytest_gpu_shared.txt" | tail -15
