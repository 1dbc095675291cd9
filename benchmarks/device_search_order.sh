#!/usr/bin/env bash
# One device call (issue 33): the degree-ordered search copy (execution/static.py SEARCH_ORDER)
# measured two ways on the same machine:
#   1. STMatch's query groups in PLAN (default: the induced and non-induced kit queries on pl1m
#      and facebook) beside STMatch, ours in degree order (benchmarks/device_stmatch_peers.sh);
#   2. the static peer benchmark (T-DFS's P1-P7, triangle, 4-cycle on facebook, pl1m, pl10m),
#      ours only, in id order and in degree order (BENCH_SEARCH_ORDER), one after the other.
# usage (repo root, GPU machine, carry .peers): bash benchmarks/device_search_order.sh
# Knobs: PLAN, STM_DEADLINE_S (360), CELL_TIMEOUT (20), PEERS (stmatch), STATIC_S (150 per order).
# Writes $OUT/stmatch/ (device_stmatch_peers.sh's files) and $OUT/static_ab/ (old_1 = id order,
# new_1 = degree order, compared by benchmarks/ab_compare.py: compare.{json,md}).
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
OUT="$OUT/stmatch" SKIP_PIP=1 PEERS=${PEERS:-stmatch} DEADLINE_S=${STM_DEADLINE_S:-360} \
  CELL_TIMEOUT=${CELL_TIMEOUT:-20} PLAN=${PLAN:-pl1m/uv/kit,pl1m/ue/kit,facebook/uv/kit,facebook/ue/kit} \
  bash benchmarks/device_stmatch_peers.sh | tail -n 40
echo "stmatch group done at $((SECONDS - T0)) s"
for side in old new; do
  order=id; [ "$side" = new ] && order=degree
  dir="$OUT/static_ab/${side}_1"; mkdir -p "$dir"
  BENCH_SEARCH_ORDER=$order CUPY_CACHE_DIR=$(mktemp -d) timeout "${STATIC_S:-150}" \
    python3 benchmarks/bench_static_peers.py "$dir" --deadline $((${STATIC_S:-150} - 20)) \
    >"$dir/log.txt" 2>&1
  echo "static $order order: rc $? at $((SECONDS - T0)) s"
done
python3 benchmarks/ab_compare.py "$OUT/static_ab" | tail -n 32
