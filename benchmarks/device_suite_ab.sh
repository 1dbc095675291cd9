#!/usr/bin/env bash
# One device call: the whole GPU suite, then old-vs-new peer benchmarks (benchmarks/ab_peers.sh;
# prepare .ab/old first and carry ".ab").
# usage (repo root, GPU machine): bash benchmarks/device_suite_ab.sh "static temporal"
# Knobs: SUITE=0 skips the suite, SUITE_ARGS (extra pytest args), SUITE_S (its time limit),
# ROUNDS (ab rounds, default 1), AB_ARGS (benchmark args). Writes $OUT/gpu.txt, $OUT/gpu_suite.txt, $OUT/ab_KIND/.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export OUT
export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba_cache}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
T0=$SECONDS
if [ "${SUITE:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  # -v: each finished test is named, so a cut run shows what was still running (SIGINT first:
  # pytest then prints its summary and durations)
  timeout -s INT -k 20 "${SUITE_S:-420}" python3 -m pytest -m gpu -n 8 --dist loadfile -v -rfE \
    --durations=25 -p no:cacheprovider ${SUITE_ARGS:-} >"$OUT/gpu_suite.txt" 2>&1
  echo "suite rc $? in $((SECONDS - T0)) s"
  grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/gpu_suite.txt" | tail -n 30
fi
for kind in ${1:-}; do
  # shellcheck disable=SC2086
  bash benchmarks/ab_peers.sh run "$kind" "${ROUNDS:-1}" ${AB_ARGS:-} | tail -n 8
done
