#!/usr/bin/env bash
# Device script: install, then one stage; logs and results under $OUT.
# usage (on the lent GPU machine, from the repo root):
#   bash benchmarks/gpu_run.sh tests [pytest args]      every gpu-marked test (or those named)
#   bash benchmarks/gpu_run.sh static [bench args]      benchmarks/bench_static_gpu.py
#   bash benchmarks/gpu_run.sh peers-static [args]      benchmarks/bench_static_peers.py (reads
#                                                       the peer kit's TSVs from $OUT if present)
#   bash benchmarks/gpu_run.sh temporal [bench args]    benchmarks/bench_temporal_gpu.py
#   bash benchmarks/gpu_run.sh multigpu [bench args]    benchmarks/bench_multigpu.py (1..8 GPUs)
# Stage time limits (seconds) come from STAGE_S (default 540).
set -uo pipefail
stage=${1:?usage: gpu_run.sh tests|static|temporal [args]}
shift
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba_cache}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv >"$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | grep -v "root user" | tail -2
STAGE_S=${STAGE_S:-540}
case "$stage" in
  tests)
    timeout "$STAGE_S" python3 -m pytest -m gpu -q -rfE --no-header -p no:cacheprovider \
      --durations=12 --maxfail=25 --junitxml="$OUT/pytest_gpu.xml" "$@" 2>&1 \
      | tee "$OUT/pytest_gpu_$(date +%H%M%S).txt" | tail -60
    ;;
  static)
    # cold NVRTC cache: compile times are real
    CUPY_CACHE_DIR=$(mktemp -d) timeout "$STAGE_S" python3 benchmarks/bench_static_gpu.py "$OUT" \
      "$@" 2>&1 | tee "$OUT/bench_static.txt" | tail -40
    ;;
  peers-static)
    CUPY_CACHE_DIR=$(mktemp -d) timeout "$STAGE_S" python3 benchmarks/bench_static_peers.py \
      "$OUT" "$@" 2>&1 | tee "$OUT/bench_static_peers.txt" | tail -60
    ;;
  temporal)
    CUPY_CACHE_DIR=$(mktemp -d) timeout "$STAGE_S" python3 benchmarks/bench_temporal_gpu.py \
      "$OUT" "$@" 2>&1 | tee "$OUT/bench_temporal.txt" | tail -40
    ;;
  multigpu)
    # several GPUs of one host (issue 11): add --virtual to also split on GPU 0 alone
    timeout "$STAGE_S" python3 benchmarks/bench_multigpu.py --out "$OUT" \
      --deadline $((STAGE_S - 60)) "$@" 2>&1 | tee "$OUT/bench_multigpu.txt" | tail -40
    ;;
  *)
    echo "unknown stage $stage" >&2
    exit 2
    ;;
esac
