#!/usr/bin/env bash
# One device call: Everest (peer kit, carried as .peers) and our temporal benchmark on the same
# inputs, side by side. usage (repo root, on the GPU machine): bash benchmarks/device_temporal_peers.sh
# Writes $OUT/everest.tsv, $OUT/temporal_peers.{json,md}, $OUT/everest_logs.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
# the third graph as Everest's text input, written while the kit builds (CPU only)
python3 benchmarks/bench_temporal_peers.py "$OUT" --write-everest-graph sk10m:/tmp/sk10m.txt \
  >/tmp/write_sk10m.txt 2>&1 &
WPID=$!
OUT=/tmp/ev EVEREST_KEEP_DATA=1 EVEREST_BUDGET_S=${EVEREST_BUDGET_S:-250} \
  EVEREST_QUERY_TIMEOUT=40 bash .peers/run_everest.sh >/tmp/ev_stdout.txt 2>&1
cp /tmp/ev/everest.tsv /tmp/ev/everest_compile.tsv "$OUT/"
echo "everest kit done at $((SECONDS - T0)) s"
wait $WPID
EVEREST_QUERY_TIMEOUT=25 bash benchmarks/everest_extra_graph.sh .peers /tmp/sk10m.txt sk10m \
  >/tmp/ev_extra.txt 2>&1
echo "everest sk10m done at $((SECONDS - T0)) s"
tar czf "$OUT/everest_logs.tgz" /tmp/ev_stdout.txt /tmp/ev_extra.txt /tmp/write_sk10m.txt \
  /tmp/ev/*.log 2>/dev/null
left=$((585 - (SECONDS - T0)))
CUPY_CACHE_DIR=$(mktemp -d) timeout "$left" python3 benchmarks/bench_temporal_peers.py "$OUT" \
  --deadline $((left - 25)) --repeat 7 >"$OUT/bench_temporal_peers.txt" 2>&1
tail -n 95 "$OUT/bench_temporal_peers.txt"
