#!/usr/bin/env bash
# Old vs new, our side of the static and temporal peer benchmarks, in one device call: each
# revision runs with its own package and its own benchmark scripts, rounds alternating
# old/new so that drift of the machine falls on both alike.
# usage:
#   here:       bash benchmarks/ab_peers.sh prepare OLD_REV     # OLD_REV's package + benchmarks
#                                                               # into .ab/old (carry ".ab")
#   here, opt.:  bash benchmarks/ab_peers.sh prepare-new [REV]     # REV (default HEAD) into .ab/new:
#                                                               # the new side, whatever the
#                                                               # working tree holds meanwhile
#   on the GPU: bash benchmarks/ab_peers.sh run static|temporal [ROUNDS] [bench args]
#               writes $OUT/ab_KIND/compare.{json,md} (benchmarks/ab_compare.py) and
#               $OUT/ab_KIND/runs.tgz (each run's {static,temporal}_peers.json and log).
# Defaults: 2 rounds; static: facebook, pl1m, pl10m x triangle, 4-cycle, P1-P7 (repeat 5);
# temporal: CollegeMsg, synth10m, sk10m x M1-M13 x delta 1 h, 1 day (repeat 7).
set -uo pipefail
case "${1:?prepare OLD_REV | run static|temporal [ROUNDS] [bench args]}" in
  prepare)
    rev=${2:?old revision}
    rm -rf .ab/old && mkdir -p .ab/old
    git archive "$rev" nx_gpumine benchmarks | tar -x -C .ab/old
    grep -qx '/.ab/' .git/info/exclude 2>/dev/null || echo '/.ab/' >> .git/info/exclude
    echo "$rev" > .ab/old/REVISION
    echo "old package and benchmarks of $rev in .ab/old (carry \".ab\")"
    ;;
  prepare-new)
    rev=${2:-HEAD}
    rm -rf .ab/new && mkdir -p .ab/new
    git archive "$rev" nx_gpumine benchmarks | tar -x -C .ab/new
    git rev-parse --short "$rev" > .ab/new/REVISION
    echo "new package and benchmarks of $rev in .ab/new (carry \".ab\")"
    ;;
  run)
    kind=${2:?static or temporal}
    rounds=${3:-2}
    shift 3 2>/dev/null || shift $#
    OUT=${OUT:-/tmp/out}
    export PYTHONUNBUFFERED=1
    python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
    args=("$@")
    if [ ${#args[@]} -eq 0 ]; then
      if [ "$kind" = static ]; then args=(--deadline 240); else args=(--repeat 7 --deadline 240); fi
    fi
    pin=()
    if [ -n "${PIN_CPU:-}" ] && command -v taskset >/dev/null; then pin=(taskset -c "$PIN_CPU"); fi
    for r in $(seq 1 "$rounds"); do
      for v in old new; do
        root=.; [ -d .ab/new ] && root=.ab/new; [ "$v" = old ] && root=.ab/old
        dir="$OUT/ab_$kind/${v}_$r"; mkdir -p "$dir"
        t0=$SECONDS
        # BENCH_ROOT: one side's benchmark scripts for both packages (default: each its own);
        # PIN_CPU: run both on these host cores (taskset -c): a sub-ms call's host time moves
        # by 20-50 us from one process to the next otherwise (benchmarks/results/
        # architecture_2026-11-26/host_phases/), which buries a few-us difference
        PYTHONPATH=$root CUPY_CACHE_DIR=$(mktemp -d) timeout 290 "${pin[@]}" python3 \
          "${BENCH_ROOT:-$root}/benchmarks/bench_${kind}_peers.py" "$dir" "${args[@]}" >"$dir/log.txt" 2>&1
        echo "== $kind $v round $r: rc $? in $((SECONDS - t0)) s"
      done
    done
    python3 benchmarks/ab_compare.py "$OUT/ab_$kind"
    # the run folders as one archive: the device returns a limited number of files
    (cd "$OUT/ab_$kind" && tar czf runs.tgz old_* new_* && rm -rf old_* new_*)
    ;;
  *) echo "unknown step $1" >&2; exit 2 ;;
esac
