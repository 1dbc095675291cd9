#!/usr/bin/env bash
# One device call: issue 32's scale run (benchmarks/bench_temporal_scale.py: the kit's synthetic
# temporal graph of EDGES edges built from a pyarrow table, the M1-M13 table at 1 h and 1 day and
# each cell's single call, build times, peak host and device memory), then Everest on the same
# edges (the peer kit, carried as .peers: its build, then benchmarks/everest_extra_graph.sh on the
# text our run wrote), then the side-by-side report.
# usage (repo root, GPU machine): EDGES=100000000 bash benchmarks/device_temporal_scale.sh
# Knobs: EDGES (100000000), NODES (EDGES / 10), NAME (synth<EDGES/1e6>m), EVEREST (1; 0: ours
# only), EVEREST_KIT_S (the kit's own budget: its build and a few CollegeMsg queries, 100 s),
# EVEREST_QUERY_TIMEOUT (60 s per query), BENCH_DEADLINE (300 s: our single calls stop there),
# BENCH_ARGS (more bench_temporal_scale.py arguments), DEADLINE_S (585).
# Writes $OUT/temporal_scale_NAME.{json,md}, $OUT/everest.tsv, $OUT/everest_logs.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export OUT
T0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
EDGES=${EDGES:-100000000}
NAME=${NAME:-synth$((EDGES / 1000000))m}
TXT=/dev/shm/$NAME.txt
ev=(); [ "${EVEREST:-1}" = 1 ] && ev=(--write-everest "$TXT")
nodes=(); [ -n "${NODES:-}" ] && nodes=(--nodes "$NODES")
# shellcheck disable=SC2086
timeout $((${DEADLINE_S:-585} - 60)) python3 benchmarks/bench_temporal_scale.py "$OUT" \
  --edges "$EDGES" "${nodes[@]}" --name "$NAME" "${ev[@]}" --deadline "${BENCH_DEADLINE:-300}" \
  ${BENCH_ARGS:-} >"$OUT/bench_temporal_scale.txt" 2>&1
echo "ours: rc $? at $((SECONDS - T0)) s"; tail -n 20 "$OUT/bench_temporal_scale.txt"
if [ "${EVEREST:-1}" = 1 ] && [ -s "$TXT" ]; then
  left=$((${DEADLINE_S:-585} - (SECONDS - T0) - 20))
  OUT=/tmp/ev EVEREST_KEEP_DATA=1 EVEREST_BUDGET_S=${EVEREST_KIT_S:-100} EVEREST_QUERY_TIMEOUT=20 \
    timeout "$left" bash .peers/run_everest.sh >/tmp/ev_stdout.txt 2>&1
  echo "everest kit: rc $? at $((SECONDS - T0)) s"
  left=$((${DEADLINE_S:-585} - (SECONDS - T0) - 15))
  MOVE_GRAPH=1 EVEREST_QUERY_TIMEOUT=${EVEREST_QUERY_TIMEOUT:-60} timeout "$left" \
    bash benchmarks/everest_extra_graph.sh .peers "$TXT" "$NAME" >/tmp/ev_extra.txt 2>&1
  echo "everest $NAME: rc $? at $((SECONDS - T0)) s"
  tar czf "$OUT/everest_logs.tgz" /tmp/ev_stdout.txt /tmp/ev_extra.txt /tmp/ev/*.log \
    /tmp/ev/*.tsv 2>/dev/null
fi
rm -f "$TXT"
python3 benchmarks/bench_temporal_scale.py "$OUT" --name "$NAME" --report
