#!/bin/bash
# gebrd2 (gebrd_reg SHRINK) and gebrd64 (gebrd_cols SHARED_S, PEEL) device run, one call:
# timings first, alone on the GPU (pick: the tuning rows, written into the H100 table here and to
# $OUT/gebrd_pick.json, n = 48 timed only; then the official bench_blas numbers with them), then
# the correctness runs side by side (every matrix of 10240 for each new option, racecheck and
# memcheck on each, the GPU tests). Everything lands in $OUT/gebrd2_log.txt (+ bench files).
set -u
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/.."
log=$OUT/gebrd2_log.txt
probe=scripts/probe_gebrd_reg.py
echo "=== $(date -u +%T) $(nvidia-smi --query-gpu=name --format=csv,noheader)" >> $log
timeout 240 python3 $probe pick >> $log 2>&1; echo "pick rc=$?" >> $log
echo "=== $(date -u +%T) bench" >> $log
timeout 60 python3 scripts/bench_blas.py --ops gebrd --dtypes float64,float32 --output $OUT/bench \
  >> $log 2>&1; echo "bench rc=$?" >> $log
echo "=== $(date -u +%T) correctness (parallel)" >> $log
xd=""; python3 -c "import xdist" 2>/dev/null && xd="-n 6"
timeout 200 python3 -m pytest -m gpu -q -x -p no:cacheprovider $xd tests/linalg/test_gpu_bidiag.py \
  > $OUT/pytest.txt 2>&1 & pids="$!"
checks="shrink:{\"shrink\":true} shared_s:{\"kernel\":\"cols\",\"shared_s\":true}
  peel:{\"kernel\":\"cols\",\"peel\":true} both:{\"kernel\":\"cols\",\"shared_s\":true,\"peel\":true}"
for c in $checks; do
  timeout 150 python3 $probe check "${c#*:}" > $OUT/check_${c%%:*}.txt 2>&1 & pids="$pids $!"
done
for mode in shrink cols_options; do
  for tool in racecheck memcheck; do
    timeout 200 compute-sanitizer --tool $tool --print-limit 20 python3 $probe sanitize_$mode \
      > $OUT/${tool}_$mode.txt 2>&1 & pids="$pids $!"
  done
done
for p in $pids; do wait $p; echo "pid $p rc=$?" >> $log; done
for f in check_shrink check_shared_s check_peel check_both racecheck_shrink memcheck_shrink \
    racecheck_cols_options memcheck_cols_options pytest; do
  echo "=== $f" >> $log; tail -c 6000 $OUT/$f.txt >> $log; rm -f $OUT/$f.txt
done
echo "=== $(date -u +%T) done" >> $log
