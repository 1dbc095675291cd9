#!/usr/bin/env bash
# One device call: G2Miner's motif apps (k = 3, 4; the peer kit carried as .peers), ORCA (orbit
# counts k = 4 and 5 on the host's CPU, one thread each, in the background: .peers/orca/orca.cpp,
# thocevar/orca) and our subgraph census and per-node orbits on the same graphs, side by side.
# usage (repo root, GPU machine): bash benchmarks/device_graphlets_peers.sh
# Knobs: GRAPHS ("facebook pl1m pl10m"), KS ("3 4"; empty: no G2Miner), RUN_TIMEOUT (60 s per
# G2Miner run), ORCA_CPUS / BENCH_CPUS (cores to pin ORCA's runs and our benchmark to),
# ORCA_RUNS ("facebook:4 pl1m:4 pl10m:4 facebook:5"), ORCA_TIMEOUT (400 s per ORCA run),
# ESCAPE_RUNS / ESCAPE_CPUS / ESCAPE_TIMEOUT (likewise for ESCAPE, when .escape is carried;
# ESCAPE_RUNS: lanes side by side, each a comma-separated list of runs one after another),
# BENCH_ARGS (extra bench_graphlets.py arguments), PRE_BENCH (a command run, on BENCH_CPUS,
# after the peers start and before bench_graphlets.py, e.g. benchmarks/probe_census_walk.py). Writes $OUT/g2miner_motif.tsv, $OUT/orca.tsv,
# $OUT/orca/*.out (ORCA's rows), $OUT/graphlets_peers.{json,md}, $OUT/g2miner_motif_logs.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
KIT=$PWD/.peers/g2miner
W=/tmp/g2motif; rm -rf "$W"; mkdir -p "$W/graphs" "$W/runs"
cp -a "$KIT/src" "$W/build"; mkdir -p "$W/build/bin"
# the kit's flags (run_g2miner.sh): sm_90, and no -lcuda (this toolkit has no stub to link)
if [ -n "${KS-3 4}" ]; then
  (cd "$W/build/src/motif" && make -j16 motif_gpu_base motif_gpu_formula CUDA_HOME=/usr/local/cuda \
     "CUDA_ARCH=-gencode arch=compute_90,code=sm_90" \
     "NVLDFLAGS=-L/usr/local/cuda/lib64 -lcudart") >"$W/runs/build.log" 2>&1
  echo "build rc $? at $((SECONDS - T0)) s"; ls "$W/build/bin"
fi
for g in ${GRAPHS:-facebook pl1m pl10m}; do
  case $g in
    facebook) txt=$KIT/data/facebook_combined.txt; nv=0 ;;
    pl1m) txt=$W/graphs/pl1m.txt; nv=200000
          python3 "$KIT/powerlaw_graph.py" 200000 1000000 2.3 2000 1 "$txt" ;;
    pl10m) txt=$W/graphs/pl10m.txt; nv=2000000
           python3 "$KIT/powerlaw_graph.py" 2000000 10000000 2.3 3000 1 "$txt" ;;
  esac
  python3 "$KIT/el2g2miner.py" "$txt" "$W/graphs/$g" --n $nv >/dev/null
done
echo "graphs at $((SECONDS - T0)) s"
# ORCA in the background (CPU, one thread per run) while the GPU work goes on; with
# ORCA_CPUS="0 1 2" run i is pinned to the i-th of those cores (give BENCH_CPUS the others)
mkdir -p "$OUT/orca"
printf 'graph\tk\tseconds\tstatus\n' >"$OUT/orca.tsv"
: >"$OUT/peer_runs.tsv"  # every peer run started (bench_graphlets.py waits for their rows)
read -r -a orca_cpus <<<"${ORCA_CPUS:-}"
if [ -f .peers/orca/orca.cpp ] && g++ -O2 -std=c++11 -o "$W/orca" .peers/orca/orca.cpp; then
  i=0
  for run in ${ORCA_RUNS:-facebook:4 pl1m:4 pl10m:4 facebook:5}; do
    g=${run%%:*}; k=${run##*:}
    case $g in facebook) txt=$KIT/data/facebook_combined.txt; nv=0 ;;
               pl1m) txt=$W/graphs/pl1m.txt; nv=200000 ;; pl10m) txt=$W/graphs/pl10m.txt; nv=2000000 ;; esac
    # each input written once, before any run starts (two runs of a graph must not race on it)
    [ -f "$W/graphs/$g.orca.in" ] || python3 benchmarks/peers/to_orca.py "$txt" "$W/graphs/$g.orca.in" --n $nv
    pin=(); [ ${#orca_cpus[@]} -gt 0 ] && pin=(taskset -c "${orca_cpus[$((i % ${#orca_cpus[@]}))]}")
    i=$((i + 1))
    printf 'orca %s %s\n' "$g" "$k" >>"$OUT/peer_runs.tsv"
    (
      t0=$(date +%s.%N)
      timeout "${ORCA_TIMEOUT:-400}" "${pin[@]}" "$W/orca" node "$k" "$W/graphs/$g.orca.in" "$OUT/orca/$g.$k.out" \
        >"$W/runs/orca_${g}_$k.log" 2>&1
      rc=$?; t1=$(date +%s.%N)
      st=ok; [ $rc -eq 124 ] && st=timeout; [ $rc -ne 0 ] && [ $rc -ne 124 ] && st=rc$rc
      secs=$(grep -E '^total: ' "$W/runs/orca_${g}_$k.log" | awk '{print $2}')
      [ "$st" = ok ] || { secs=NA; rm -f "$OUT/orca/$g.$k.out"; }
      [ "$k" = 5 ] && gzip -f "$OUT/orca/$g.$k.out" 2>/dev/null
      printf '%s\t%s\t%s\t%s\n' "$g" "$k" "${secs:-NA}" "$st" >>"$OUT/orca.tsv"
      echo "orca $g k=$k: $st ${secs:-NA} s (wall $(python3 -c "print(round($t1 - $t0, 1))") s)"
    ) &
  done
else
  echo "ORCA not built (.peers/orca/orca.cpp missing or g++ failed)"
fi
# ESCAPE (Pinar, Seshadhri, Vishal) likewise, in the background, one thread per run, if its
# sources were prepared into .escape (benchmarks/peers/escape/escape_counts.py prepare SRC
# .escape, carried): escape.tsv, its non-induced counts by our graphlet names
read -r -a escape_cpus <<<"${ESCAPE_CPUS:-}"
if [ -d .escape/Escape ] && cp -r .escape "$W/escape" && rm -f "$W"/escape/*.o "$W"/escape/*.a \
     "$W"/escape/exe/*.o && make -C "$W/escape" libescape.a \
     >"$W/runs/escape_build.log" 2>&1 && make -C "$W/escape/exe" count_three count_four \
     count_five >>"$W/runs/escape_build.log" 2>&1; then
  # a lane is a comma-separated list of runs, one after another; the lanes run side by side
  # (lane i pinned to the i-th of ESCAPE_CPUS), each row appended to escape.tsv as it ends
  i=0
  for lane in ${ESCAPE_RUNS:-facebook:3,facebook:4,pl1m:3,pl1m:4,pl10m:3,pl10m:4,facebook:5}; do
    pin=(); [ ${#escape_cpus[@]} -gt 0 ] && pin=(taskset -c "${escape_cpus[$((i % ${#escape_cpus[@]}))]}")
    i=$((i + 1))
    for run in ${lane//,/ }; do printf 'escape %s %s\n' "${run%%:*}" "${run##*:}" >>"$OUT/peer_runs.tsv"; done
    (
      for run in ${lane//,/ }; do
        g=${run%%:*}; k=${run##*:}
        case $g in facebook) txt=$KIT/data/facebook_combined.txt ;; *) txt=$W/graphs/$g.txt ;; esac
        "${pin[@]}" python3 benchmarks/peers/escape/escape_counts.py run "$W/escape" "$txt" "$k" \
          "$W/escape.tsv" --timeout "${ESCAPE_TIMEOUT:-400}" --name "$g" \
          >>"$W/runs/escape_runs.log" 2>&1
        cp "$W/escape.tsv" "$OUT/escape.tsv"
      done
    ) &
  done
else
  echo "ESCAPE not built (.escape missing or make failed)"
fi
printf 'graph\tapp\tk\tcounts\tms\tstatus\n' >"$OUT/g2miner_motif.tsv"
for g in ${GRAPHS:-facebook pl1m pl10m}; do
  for k in ${KS-3 4}; do
    for app in motif_gpu_base motif_gpu_formula; do
      log=$W/runs/${g}_${app}_$k.log
      timeout "${RUN_TIMEOUT:-60}" "$W/build/bin/$app" "$W/graphs/$g/graph" "$k" >"$log" 2>&1
      rc=$?
      counts=$(grep -E '^pattern [0-9]+: ' "$log" | awk '{print $3}' | paste -sd, -)
      s=$(grep -E '^runtime \[[^]]*\] = ' "$log" | tail -1 | awk '{print $(NF-1)}')
      ms=NA; [ -n "$s" ] && ms=$(python3 -c "print(f'{float(\"$s\") * 1000:.3f}')")
      st=ok; [ $rc -eq 124 ] && st=timeout; [ $rc -ne 0 ] && [ $rc -ne 124 ] && st=rc$rc
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$g" "$app" "$k" "${counts:-NA}" "$ms" "$st" \
        >>"$OUT/g2miner_motif.tsv"
    done
  done
done
cat "$OUT/g2miner_motif.tsv"
tar czf "$OUT/g2miner_motif_logs.tgz" -C "$W" runs 2>/dev/null
left=$((${DEADLINE_S:-585} - (SECONDS - T0)))
# shellcheck disable=SC2086
bpin=(); [ -n "${BENCH_CPUS:-}" ] && bpin=(taskset -c "$BENCH_CPUS")
if [ -n "${PRE_BENCH:-}" ]; then
  # shellcheck disable=SC2086
  "${bpin[@]}" ${PRE_BENCH} 2>&1 | tail -n 20
  left=$((${DEADLINE_S:-585} - (SECONDS - T0)))
fi
CUPY_CACHE_DIR=$(mktemp -d) timeout "$left" "${bpin[@]}" python3 benchmarks/bench_graphlets.py "$OUT" \
  --graphs "$(echo ${GRAPHS:-facebook pl1m pl10m} | tr ' ' ,)" --deadline $((left - 15)) \
  ${BENCH_ARGS:-} >"$OUT/bench_graphlets.txt" 2>&1
tail -n 40 "$OUT/bench_graphlets.txt"
cat "$OUT/orca.tsv"
cat "$OUT/escape.tsv" 2>/dev/null
jobs -p | xargs -r kill 2>/dev/null  # ORCA runs still going at the deadline: cut
