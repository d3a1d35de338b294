#!/bin/bash
# gebrd2 (gebrd_reg SHRINK) device run, one call: timings first, alone on the GPU (pick: the
# tuning rows, written into the H100 table here and to $OUT/gebrd_pick.json; then the official
# bench_blas numbers with them), then the correctness runs side by side (every matrix of 10240,
# racecheck, memcheck, the GPU tests). Everything lands in $OUT/gebrd2_log.txt (+ bench files).
set -u
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/.."
log=$OUT/gebrd2_log.txt
echo "=== $(date -u +%T) $(nvidia-smi --query-gpu=name --format=csv,noheader)" >> $log
timeout 75 python3 scripts/probe_gebrd_reg.py pick >> $log 2>&1; echo "pick rc=$?" >> $log
echo "=== $(date -u +%T) bench" >> $log
timeout 60 python3 scripts/bench_blas.py --ops gebrd --dtypes float64,float32 --output $OUT/bench \
  >> $log 2>&1; echo "bench rc=$?" >> $log
echo "=== $(date -u +%T) correctness (parallel)" >> $log
xd=""; python3 -c "import xdist" 2>/dev/null && xd="-n 6"
timeout 150 python3 -m pytest -m gpu -q -x -p no:cacheprovider $xd tests/linalg/test_gpu_bidiag.py \
  > $OUT/pytest.txt 2>&1 & p1=$!
timeout 90 python3 scripts/probe_gebrd_reg.py check '{"shrink": true}' > $OUT/check.txt 2>&1 & p2=$!
timeout 120 compute-sanitizer --tool racecheck --print-limit 20 \
  python3 scripts/probe_gebrd_reg.py sanitize_shrink > $OUT/race.txt 2>&1 & p3=$!
timeout 120 compute-sanitizer --tool memcheck --print-limit 20 \
  python3 scripts/probe_gebrd_reg.py sanitize_shrink > $OUT/mem.txt 2>&1 & p4=$!
for p in $p1 $p2 $p3 $p4; do wait $p; echo "pid $p rc=$?" >> $log; done
for f in check race mem pytest; do
  echo "=== $f" >> $log; tail -c 6000 $OUT/$f.txt >> $log; rm -f $OUT/$f.txt
done
echo "=== $(date -u +%T) done" >> $log
