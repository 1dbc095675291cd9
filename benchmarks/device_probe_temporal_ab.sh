#!/usr/bin/env bash
# One device call: where the new package is slower than an old one on temporal cells (issue 29's
# A/B): host phases and cProfile of small CollegeMsg calls, old vs new, and one heavy cell's
# kernel alone and under Nsight Compute, old vs new (.ab/old from `ab_peers.sh prepare REV`,
# carry ".ab"; SASS of locally built cubins in .carry/*.cubin, carry ".carry").
# usage (repo root, GPU machine): bash benchmarks/device_probe_temporal_ab.sh
# Knobs: CELLS (host cells), HEAVY (graph:motif:delta, default sk10m:M4:86400).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
T0=$SECONDS
for f in .carry/*.cubin; do
  [ -f "$f" ] && cuobjdump -sass "$f" >"$OUT/sass_$(basename "$f" .cubin).txt" 2>&1
done
CELLS=${CELLS:-collegemsg:M11:3600,collegemsg:M1:3600,collegemsg:M9:3600,collegemsg:M12:3600,collegemsg:M2:86400,collegemsg:M5:86400}
IFS=: read -r hg hm hd <<<"${HEAVY:-sk10m:M4:86400}"
for i in 1 2; do
  for v in old new; do
    pp=.; [ "$v" = old ] && pp=.ab/old
    PYTHONPATH=$pp timeout 120 taskset -c 3 python3 benchmarks/host_time_temporal.py \
      "$OUT/host_time_${v}_$i.json" --repeat 41 --cells "$CELLS" >"$OUT/host_${v}_$i.txt" 2>&1
    PYTHONPATH=$pp timeout 90 python3 benchmarks/probe_temporal_cell.py "$hg" "$hm" "$hd" \
      --repeat 31 >>"$OUT/heavy_$v.jsonl" 2>>"$OUT/heavy_$v.err"
    echo "round $i $v at $((SECONDS - T0)) s"
  done
done
for v in old new; do
  pp=.; [ "$v" = old ] && pp=.ab/old
  PYTHONPATH=$pp timeout 100 taskset -c 3 python3 benchmarks/profile_host_ab.py "$OUT/prof_$v" \
    --repeat 300 --cells collegemsg:M11:3600,collegemsg:M1:3600 >"$OUT/prof_$v.txt" 2>&1
  PYTHONPATH=$pp timeout 150 ncu --kernel-name temporal_dfs --launch-count 6 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis \
    --metrics l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,smsp__inst_executed.sum \
    python3 benchmarks/probe_temporal_cell.py "$hg" "$hm" "$hd" --repeat 1 >"$OUT/ncu_$v.txt" 2>&1
  echo "profiles $v at $((SECONDS - T0)) s"
done
python3 - "$OUT" <<'PY'
import json, sys, glob, statistics as st
out = sys.argv[1]
for v in ("old", "new"):
    rows = [json.loads(l) for l in open(f"{out}/heavy_{v}.jsonl") if l.startswith("{")]
    print(v, "heavy kernel ms", [round(r["kernel_ms"], 4) for r in rows], "count", {r["count"] for r in rows})
PY
grep -h "median\|wall" "$OUT"/host_*_1.txt | head -40
