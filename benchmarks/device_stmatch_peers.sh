#!/usr/bin/env bash
# One device call (issue 33): build STMatch and cuTS from the peer kit (carried as .peers) for
# sm_90, convert facebook / pl1m (pl10m when asked) into their formats, and run their query
# sets and ours on the same inputs, side by side. Time-boxed: everything ends within
# DEADLINE_S (default 560 s) of the start, whatever the peers do.
#
# usage (repo root, GPU machine): bash benchmarks/device_stmatch_peers.sh
# Knobs (env): OUT (/tmp/out), KIT (.peers/stmatch), STM_WORK (/tmp/stm_work), DEADLINE_S (560),
#   GRAPHS (facebook,pl1m; add pl10m), SETS (ue,l8,l32,uv), QGROUPS (kit,sampled),
#   PLAN (explicit GRAPH/SET/GROUP order), CELL_TIMEOUT (20), PEERS (stmatch,cuts),
#   BENCH_ARGS (more bench_stmatch_peers.py options), GRID / CUTS_BLOCKS / TARGETS (build).
# Writes $OUT/stmatch_peers.json, $OUT/stmatch_peers.md, $OUT/peer_runs.log,
#   $OUT/bench_stmatch_peers.txt, $OUT/build_peers.log, $OUT/machine.txt,
#   $OUT/stmatch_logs.tgz (per-target build logs, build.tsv, the query files used).
set -uo pipefail
export PYTHONUNBUFFERED=1
T0=$SECONDS
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
KIT=${KIT:-.peers/stmatch}
WORK=${STM_WORK:-/tmp/stm_work}
DEADLINE=${DEADLINE_S:-560}
export PATH="$PATH:/usr/local/cuda/bin"

if [ ! -f "$KIT/cu_test.cu" ] || [ ! -d "$KIT/ComparedSystems/CuTS" ]; then
  echo "no STMatch kit at $KIT (copy ../shared/peers to .peers and carry it)" | tee "$OUT/ERROR.txt"
  exit 2
fi
rm -rf "$WORK"
mkdir -p "$WORK"

{
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_mode,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  g++ --version | head -n 1
  nproc
  free -g
} >"$OUT/machine.txt" 2>&1

# peers build in the background (about 30 s on 16 cores) while the inputs are written
# (its own process group: setsid, so that it can be stopped as a whole by its id)
if command -v setsid >/dev/null; then
  setsid bash benchmarks/peers/stmatch/build_peers.sh "$KIT" "$WORK" >"$OUT/build_peers.log" 2>&1 &
else
  bash benchmarks/peers/stmatch/build_peers.sh "$KIT" "$WORK" >"$OUT/build_peers.log" 2>&1 &
fi
BUILD=$!

if [ -z "${SKIP_PIP:-}" ]; then
  python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
fi

left=$((DEADLINE - (SECONDS - T0) - 15)) # 15 s kept for the logs below
plan_args=()
if [ -n "${PLAN:-}" ]; then plan_args=(--plan "$PLAN"); fi
# shellcheck disable=SC2086  # BENCH_ARGS is a list of options
CUPY_CACHE_DIR=$(mktemp -d) timeout -k 10 "$left" python3 benchmarks/bench_stmatch_peers.py "$OUT" \
  --kit "$KIT" --work "$WORK" --graphs "${GRAPHS:-facebook,pl1m}" --sets "${SETS:-ue,l8,l32,uv}" \
  --groups "${QGROUPS:-kit,sampled}" --peers "${PEERS:-stmatch,cuts}" \
  --cell-timeout "${CELL_TIMEOUT:-20}" --deadline $((left - 15)) ${plan_args[@]+"${plan_args[@]}"} \
  ${BENCH_ARGS:-} >"$OUT/bench_stmatch_peers.txt" 2>&1
rc=$?
echo "bench_stmatch_peers.py rc=$rc at $((SECONDS - T0)) s" | tee -a "$OUT/bench_stmatch_peers.txt"

if kill -0 "$BUILD" 2>/dev/null; then # never expected: the build takes well under a minute
  echo "build still running at $((SECONDS - T0)) s: stopped" | tee -a "$OUT/build_peers.log"
  kill -- -"$BUILD" 2>/dev/null || kill "$BUILD" 2>/dev/null
fi
wait "$BUILD" 2>/dev/null
tar czf "$OUT/stmatch_logs.tgz" -C "$WORK" logs build.tsv queries 2>/dev/null
echo "=== build.tsv"
cat "$WORK/build.tsv" 2>/dev/null
echo "=== last lines of bench_stmatch_peers.txt"
tail -n 70 "$OUT/bench_stmatch_peers.txt"
echo "done in $((SECONDS - T0)) s"
