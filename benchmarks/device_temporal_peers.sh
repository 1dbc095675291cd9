#!/usr/bin/env bash
# One device call: Everest (peer kit, carried as .peers) and our temporal benchmark on the same
# inputs, side by side. usage (repo root, on the GPU machine): bash benchmarks/device_temporal_peers.sh
# Knobs: EXTRA="sk10m dense10m" (graphs beyond the kit's, written for Everest here; default
# sk10m), GRAPHS (our benchmark's --graphs, default collegemsg,synth10m,sk10m), TABLE_S and
# TABLE_GRAPHS (the motif tables at the end, see below).
# Writes $OUT/everest.tsv, $OUT/temporal_peers.{json,md}, $OUT/everest_logs.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
EXTRA=${EXTRA:-sk10m}
# the graphs beyond the kit's as Everest's text input, written while the kit builds (CPU only)
(for g in $EXTRA; do
  python3 benchmarks/bench_temporal_peers.py "$OUT" --write-everest-graph "$g:/tmp/$g.txt"
done) >/tmp/write_extra.txt 2>&1 &
WPID=$!
OUT=/tmp/ev EVEREST_KEEP_DATA=1 EVEREST_BUDGET_S=${EVEREST_BUDGET_S:-250} \
  EVEREST_QUERY_TIMEOUT=40 bash .peers/run_everest.sh >/tmp/ev_stdout.txt 2>&1
cp /tmp/ev/everest.tsv /tmp/ev/everest_compile.tsv "$OUT/"
echo "everest kit done at $((SECONDS - T0)) s"
wait $WPID
for g in $EXTRA; do
  EVEREST_QUERY_TIMEOUT=25 bash benchmarks/everest_extra_graph.sh .peers "/tmp/$g.txt" "$g" \
    >>/tmp/ev_extra.txt 2>&1
  echo "everest $g done at $((SECONDS - T0)) s"
done
tar czf "$OUT/everest_logs.tgz" /tmp/ev_stdout.txt /tmp/ev_extra.txt /tmp/write_extra.txt \
  /tmp/ev/*.log 2>/dev/null
left=$((585 - (SECONDS - T0) - ${TABLE_S:-0}))
CUPY_CACHE_DIR=$(mktemp -d) timeout "$left" python3 benchmarks/bench_temporal_peers.py "$OUT" \
  --graphs "${GRAPHS:-collegemsg,synth10m,sk10m}" --deadline $((left - 25)) --repeat 7 \
  >"$OUT/bench_temporal_peers.txt" 2>&1
tail -n 95 "$OUT/bench_temporal_peers.txt"
# TABLE_S=N: the last N seconds run the motif tables (M1..M13 x 1 h, 1 day) against the same
# call's Everest times, with the CUDA engine's one-walk-per-motif windows (bench_motif_table.py)
if [ "${TABLE_S:-0}" -gt 0 ]; then
  timeout "$TABLE_S" python3 benchmarks/bench_motif_table.py "$OUT" --engine cuda --cuda-windows \
    --graphs "${TABLE_GRAPHS:-collegemsg,synth10m,sk10m}" >"$OUT/bench_motif_table.txt" 2>&1
  tail -n 12 "$OUT/bench_motif_table.txt"
fi
