#!/usr/bin/env bash
# Old vs new CUDA temporal engine in one device call (the A/B of docs/cuda_temporal.md).
# usage:
#   here:       bash benchmarks/ab_temporal.sh prepare OLD_REV   # the old package into .ab/old
#   on the GPU: bash benchmarks/ab_temporal.sh run [bench args]  # carry ".ab"; writes $OUT/{old,new}
# `run` times bench_temporal_peers.py with the old package first on PYTHONPATH, then with the
# working tree, on the same machine; default cells: synth10m, sk10m, CollegeMsg at delta = 1 day.
# AB_BENCH=static times bench_static_peers.py instead (default cells: facebook and pl1m, the
# patterns triangle, 4-cycle, P1, P2, P4, P6, P7), our engine only: old vs new host and kernel.
# AB_BENCH=host runs host_time_temporal.py (a repeated call's host phases), old and new
# alternated twice (writes $OUT/host_time_{old,new}_{1,2}.json: the eighth session's A/Bs).
set -uo pipefail
case "${1:?prepare OLD_REV | run [bench args]}" in
  prepare)
    rev=${2:?old revision}
    rm -rf .ab/old && mkdir -p .ab/old
    git archive "$rev" nx_gpumine | tar -x -C .ab/old
    grep -qx '/.ab/' .git/info/exclude 2>/dev/null || echo '/.ab/' >> .git/info/exclude
    echo "old package of $rev in .ab/old (carry \".ab\")"
    ;;
  run)
    shift
    OUT=${OUT:-/tmp/out}
    export PYTHONUNBUFFERED=1
    python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
    args=("$@")
    bench=benchmarks/bench_temporal_peers.py
    if [ "${AB_BENCH:-temporal}" = static ]; then
      bench=benchmarks/bench_static_peers.py
      [ ${#args[@]} -eq 0 ] && args=(--graphs facebook,pl1m
        --patterns triangle,4-cycle,P1,P2,P4,P6,P7 --deadline 130)
    fi
    if [ "${AB_BENCH:-temporal}" = host ]; then
      for i in 1 2; do for v in old new; do
        pp=.; [ "$v" = old ] && pp=.ab/old
        PYTHONPATH=$pp timeout 150 python3 benchmarks/host_time_temporal.py \
          "$OUT/host_time_${v}_$i.json" "${args[@]}" 2>&1 | tail -13 | sed "s/^/$v$i /"
      done; done
      exit 0
    fi
    [ ${#args[@]} -eq 0 ] && args=(--graphs synth10m,sk10m,collegemsg --deltas 86400 --deadline 130)
    for v in old new; do
      pp=.; [ "$v" = old ] && pp=.ab/old
      mkdir -p "$OUT/$v"
      PYTHONPATH=$pp CUPY_CACHE_DIR=$(mktemp -d) timeout 150 python3 \
        "$bench" "$OUT/$v" "${args[@]}" >"$OUT/$v/log.txt" 2>&1
      echo "== $v"; tail -3 "$OUT/$v/log.txt"
    done
    ;;
  *) echo "unknown step $1" >&2; exit 2 ;;
esac
