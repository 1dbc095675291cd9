#!/usr/bin/env bash
# Everest on one more graph, after the peer kit's run_everest.sh ran with EVEREST_KEEP_DATA=1
# (its build, per-motif libraries and data folder are reused).
# usage: bash benchmarks/everest_extra_graph.sh KIT GRAPH_TXT NAME [MOTIFS...]
#   KIT: the copied peer kit (e.g. .peers); GRAPH_TXT: `src dst t` lines in time order.
# Appends `NAME motif delta count us` rows to $OUT/everest.tsv (the kit's format), for
# delta 3600 and 86400; one process per query under `timeout`, as the kit runs them.
# MOVE_GRAPH=1 moves GRAPH_TXT into the kit's data folder instead of copying it (a large graph
# on tmpfs is then not held twice in memory).
set -uo pipefail
KIT=$(cd "$1" && pwd -P); GRAPH=$2; NAME=$3; shift 3
MOTIFS=("$@"); [ ${#MOTIFS[@]} -eq 0 ] && MOTIFS=(M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13)
W=${EVEREST_WORK:-${TMPDIR:-/tmp}/everest_kit_work}
G=""
for d in "${EVEREST_DATA_DIR:-}" /dev/shm "$W/tmpfs"; do
  [ -n "$d" ] && [ -d "$d/everest_kit_data/graphs" ] && { G="$d/everest_kit_data"; break; }
done
[ -n "$G" ] || { echo "no Everest data folder (run run_everest.sh with EVEREST_KEEP_DATA=1)"; exit 1; }
export EVEREST_ROOT="$W/everest" EVEREST_RAND_FILE="$G/rand_0_1B.bin"
export CUDA_MODULE_LOADING=${EVEREST_CUDA_MODULE_LOADING:-EAGER}
if [ "${MOVE_GRAPH:-0}" = 1 ]; then mv "$GRAPH" "$G/graphs/$NAME.txt"; else cp "$GRAPH" "$G/graphs/$NAME.txt"; fi
rm -rf "$G/graphs/$NAME"
python3 "$KIT/everest_bench.py" prep "$G/graphs/$NAME.txt" || exit 1
for d in 3600 86400; do
  for m in "${MOTIFS[@]}"; do
    out=$(timeout -k 5 "${EVEREST_QUERY_TIMEOUT:-60}" python3 "$KIT/everest_bench.py" run \
      "$G/graphs/$NAME.txt" "$EVEREST_ROOT/inputs/motifs/$m.txt" "$W/plugins/lib/lib$m.so" "$d" 2>&1)
    rc=$?
    line=$(printf '%s\n' "$out" | awk '$1=="RESULT"{r=$0} END{print r}')
    if [ -n "$line" ]; then
      printf '%s\n' "$line" | awk -v OFS='\t' '{print $2,$3,$4,$5,$6}' | tee -a "$OUT/everest.tsv"
    else
      printf '%s\t%s\t%s\tERR%s\tNA\n' "$NAME" "$m" "$d" "$rc" | tee -a "$OUT/everest.tsv"
    fi
  done
done
