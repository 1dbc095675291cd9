#!/usr/bin/env bash
# One device call: G2Miner and T-DFS (peer kit, carried as .peers) and our static benchmark on
# the same inputs, side by side. usage (repo root, GPU machine): bash benchmarks/device_static_peers.sh
# Knobs: PEERS ("g2miner tdfs"), GRAPHS, PATTERNS. Writes $OUT/{g2miner,tdfs}.tsv,
# $OUT/static_peers.{json,md}, $OUT/peer_logs.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
for p in ${PEERS:-g2miner tdfs}; do
  case $p in
    g2miner) OUT=/tmp/g2 TOTAL_BUDGET=100 RUN_TIMEOUT=30 bash .peers/g2miner/run_g2miner.sh \
               >/tmp/g2_stdout.txt 2>&1; cp /tmp/g2/g2miner.tsv /tmp/g2/g2miner_check.tsv "$OUT/" ;;
    tdfs) OUT=/tmp/td TDFS_BUDGET_S=170 TDFS_RUN_TIMEOUT=30 bash .peers/run_tdfs.sh \
            >/tmp/td_stdout.txt 2>&1; cp /tmp/td/tdfs.tsv "$OUT/" ;;
  esac
  echo "$p done at $((SECONDS - T0)) s"
done
tar czf "$OUT/peer_logs.tgz" /tmp/g2_stdout.txt /tmp/td_stdout.txt /tmp/g2/*.log /tmp/td/*.log \
  2>/dev/null
left=$((${DEADLINE_S:-585} - (SECONDS - T0)))
CUPY_CACHE_DIR=$(mktemp -d) timeout "$left" python3 benchmarks/bench_static_peers.py "$OUT" \
  --graphs "${GRAPHS:-facebook,pl1m,pl10m}" --patterns "${PATTERNS:-triangle,4-cycle,P1,P2,P3,P4,P5,P6,P7}" \
  --deadline $((left - 15)) >"$OUT/bench_static_peers.txt" 2>&1
tail -n 40 "$OUT/bench_static_peers.txt"
