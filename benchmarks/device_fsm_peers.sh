#!/usr/bin/env bash
# One device call (issue 30): G2Miner's FSM apps (fsm_gpu_base, fsm_omp_base; the peer kit carried
# as .peers, patched by benchmarks/peers/g2miner_fsm/patches) beside nx_gpumine.frequent_subgraphs
# (engine="cuda" and "cpu") on labelled facebook, pl1m, pl10m, max_edges 2 and 3, two supports each.
# usage (repo root, GPU machine): bash benchmarks/device_fsm_peers.sh
# Knobs: DEADLINE_S (560: everything, build included, ends by then), RUN_TIMEOUT (40 s per run),
#   GRAPHS (facebook,pl1m,pl10m), TINY_GRAPHS (6: random tiny graphs for the semantic check),
#   BENCH_ARGS (extra bench_fsm_peers.py arguments).
# Writes $OUT/fsm_peers.{json,md}, $OUT/tiny_check.txt, $OUT/device_fsm_peers.log,
#   $OUT/fsm_peers_logs.tgz (build logs, every G2Miner run's output).
set -uo pipefail
export PYTHONUNBUFFERED=1
T0=$SECONDS
DEADLINE_S=${DEADLINE_S:-560}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
exec > >(tee -a "$OUT/device_fsm_peers.log") 2>&1
left() { echo $((DEADLINE_S - (SECONDS - T0))); }
date; nvidia-smi -L || true; nproc; nvcc --version | tail -1; g++ --version | head -1
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
# numba's and CuPy's compile caches, shared by the tiny check, the warm-up and restarted workers
export NUMBA_CACHE_DIR=/tmp/fsm_peers_numba CUPY_CACHE_DIR=/tmp/fsm_peers_cupy
HERE=$PWD/benchmarks/peers/g2miner_fsm
W=/tmp/g2miner_fsm; rm -rf "$W"; mkdir -p "$W/logs"
cp -a .peers/g2miner/src "$W/build"; chmod -R u+w "$W/build"; mkdir -p "$W/build/bin"
for p in "$HERE"/patches/*.patch; do
  patch -p1 -d "$W/build" <"$p" || { echo "patch $p failed"; exit 1; }
done
# the kit's flags (run_g2miner.sh): sm_90; no -lcuda when this toolkit has no stub to link
# (no driver-API symbol is used)
MAKEVARS=("CUDA_HOME=/usr/local/cuda" "CUDA_ARCH=-gencode arch=compute_90,code=sm_90")
if ! echo 'int main(){return 0;}' | g++ -x c++ - -o "$W/lcuda_probe" -L/usr/local/cuda/lib64 \
     -L/usr/local/cuda/lib64/stubs -L/usr/local/cuda/targets/x86_64-linux/lib/stubs -lcuda; then
  MAKEVARS+=("NVLDFLAGS=-L/usr/local/cuda/lib64 -lcudart"); echo "NOTE: building without -lcuda"
fi
(cd "$W/build/src/fsm" && timeout 180 make -j16 fsm_omp_base fsm_gpu_base "${MAKEVARS[@]}") \
  >"$W/logs/build_fsm.log" 2>&1
echo "build rc $? at $((SECONDS - T0)) s"; ls -la "$W/build/bin"
grep -E "error|Error" "$W/logs/build_fsm.log" | head -20
# semantic check on tiny random graphs: G2Miner (both apps) vs ours (CPU engine), also compiles
# our CPU kernels into NUMBA_CACHE_DIR for the bench
timeout 75 python3 "$HERE/tiny_check.py" "$W/build/bin" --apps gpu,omp --graphs "${TINY_GRAPHS:-6}" \
  --deadline 50 >"$OUT/tiny_check.txt" 2>&1
echo "tiny check rc $? at $((SECONDS - T0)) s"; tail -5 "$OUT/tiny_check.txt"
L=$(left)
timeout $((L - 5)) python3 benchmarks/bench_fsm_peers.py "$OUT" --bin "$W/build/bin" \
  --graphs "${GRAPHS:-facebook,pl1m,pl10m}" --run-timeout "${RUN_TIMEOUT:-40}" \
  --deadline $((L - 20)) --work "$W/work" ${BENCH_ARGS:-} >"$OUT/bench_fsm_peers.txt" 2>&1
echo "bench rc $? at $((SECONDS - T0)) s"
grep -v '^|' "$OUT/bench_fsm_peers.txt" | tail -40
mv "$OUT/fsm_peers_runs.log" "$OUT/bench_fsm_peers.txt" "$W/logs/" 2>/dev/null
tar czf "$OUT/fsm_peers_logs.tgz" -C "$W" logs 2>/dev/null
cat "$OUT/fsm_peers.md" 2>/dev/null
echo "done at $((SECONDS - T0)) s"
sleep 1  # let tee flush
