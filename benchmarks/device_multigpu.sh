#!/usr/bin/env bash
# One device call on a host of two or more GPUs (issue 34): the multi-GPU tests, then
# bench_multigpu.py on 1 and 2 devices. usage (repo root, GPU machine):
#   bash benchmarks/device_multigpu.sh
# Knobs: TESTS=0 skips the tests, TEST_ARGS (pytest selection, default the two test files),
# TESTS_S / BENCH_S (time limits), DEADLINE (the benchmark's), BENCH_ARGS (more benchmark
# arguments, e.g. --graphs pl10m,synth10m).
# Writes $OUT/gpu.txt, topo.txt, gpu_tests.txt, bench.txt and multigpu.json.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OUT PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba_cache}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$OUT/gpu.txt"
nvidia-smi topo -m >"$OUT/topo.txt" 2>&1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
if [ "${TESTS:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  timeout -s INT -k 20 "${TESTS_S:-150}" python3 -m pytest -m gpu -n 4 --dist loadfile -q -rfE \
    -p no:cacheprovider ${TEST_ARGS:-tests/test_multigpu.py tests/test_placement.py} \
    >"$OUT/gpu_tests.txt" 2>&1
  echo "tests rc $?"
  tail -n 15 "$OUT/gpu_tests.txt"
fi
# shellcheck disable=SC2086
timeout -s INT -k 20 "${BENCH_S:-420}" python3 benchmarks/bench_multigpu.py --out "$OUT" \
  --devices 1,2 --deadline "${DEADLINE:-380}" ${BENCH_ARGS:-} 2>&1 | tee "$OUT/bench.txt" | tail -n 45
