set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
for v in old new old2 new2; do
  pp=.; case $v in old*) pp=.ab/old;; esac
  mkdir -p $OUT/t_$v
  PYTHONPATH=$pp CUPY_CACHE_DIR=$(mktemp -d) timeout 100 python3 benchmarks/bench_temporal_peers.py $OUT/t_$v --graphs synth10m,sk10m --deltas 86400 --deadline 85 > $OUT/t_$v/log.txt 2>&1
  echo "== temporal $v"; tail -4 $OUT/t_$v/log.txt
done
for v in old new; do
  pp=.; [ $v = old ] && pp=.ab/old
  mkdir -p $OUT/s_$v
  PYTHONPATH=$pp CUPY_CACHE_DIR=$(mktemp -d) timeout 75 python3 benchmarks/bench_static_peers.py $OUT/s_$v --graphs pl10m --patterns triangle,4-cycle,P1,P2,P3,P4,P5,P6,P7 --deadline 65 > $OUT/s_$v/log.txt 2>&1
  echo "== static $v"; tail -14 $OUT/s_$v/log.txt
done
