#!/usr/bin/env bash
# One device call: why STMatch is ahead on induced facebook cells (issue 33): each cell alone
# (count, kernel and whole-call ms, the plan the engine walks, its launch statistics), then
# Nsight Compute on the first cells' static kernels.
# usage (repo root, GPU machine; STMatch's kit in .peers/stmatch, carry ".peers"):
#   bash benchmarks/device_probe_static_ncu.sh
# Knobs: CELLS (graph:query:set, set uv or ue; default the five furthest behind),
# NCU_CELLS (the cells profiled, default Q1 and Q11), NCU_LAUNCHES (default 4),
# BENCH_STATIC_TUNING (as bench_stmatch_peers.py reads it).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
T0=$SECONDS
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv >"$OUT/machine.txt" 2>&1
CELLS=${CELLS:-facebook:Q1:uv,facebook:Q11:uv,facebook:Q9:uv,facebook:Q4:uv,facebook:Q6:uv}
NCU_CELLS=${NCU_CELLS:-facebook:Q1:uv,facebook:Q11:uv}
cell_args() {  # graph:query:set -> the probe's arguments
  IFS=: read -r g q s <<<"$1"
  echo "$g $q $([ "$s" = uv ] && echo --induced)"
}
for c in ${CELLS//,/ }; do
  # shellcheck disable=SC2046
  timeout 120 python3 benchmarks/probe_static_cell.py $(cell_args "$c") --repeat 5 \
    >>"$OUT/cells.jsonl" 2>>"$OUT/cells.err"
  echo "cell $c at $((SECONDS - T0)) s"
done
# the same cells in STMatch's matching order (the query file's: 0..k-1), to tell the order
# from the kernel
for c in ${CELLS//,/ }; do
  IFS=: read -r g q s <<<"$c"
  k=$(grep -c '^v ' ".peers/stmatch/data/pattern/${q#Q}.g")
  # shellcheck disable=SC2046
  timeout 120 python3 benchmarks/probe_static_cell.py $(cell_args "$c") --repeat 5 \
    --order "$(seq -s, 0 $((k - 1)))" >>"$OUT/cells_file_order.jsonl" 2>>"$OUT/cells.err"
  echo "cell $c in the file's order at $((SECONDS - T0)) s"
done
for c in ${NCU_CELLS//,/ }; do
  # shellcheck disable=SC2046
  timeout 200 ncu --kernel-name regex:static --launch-count "${NCU_LAUNCHES:-4}" \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats \
    python3 benchmarks/probe_static_cell.py $(cell_args "$c") --repeat 1 \
    >"$OUT/ncu_${c//:/_}.txt" 2>&1
  echo "ncu $c at $((SECONDS - T0)) s"
done
python3 - "$OUT" <<'PY'
import json, sys
for name in ("cells.jsonl", "cells_file_order.jsonl"):
  for line in open(f"{sys.argv[1]}/{name}"):
    if line.startswith("{"):
        r = json.loads(line)
        print(name, r["cell"], r["count"], "kernel %.3f ms" % r["kernel_ms"], "call %.3f ms" % r["wall_ms"],
              "plan", r["plan"], "strategy", r["stats"].get("strategy"))
PY
