#!/bin/bash
# Prepared for the next session (not run): what filled the H200 in call 6. Six pytest workers of
# the sweep peaked at 125-142 GB for 2-4 s at the end of each draw (where the GEBRD cases run,
# the last operation of the list), 4-14 GB the rest of the time; no kernel has a stack frame
# above 272 bytes (ptxas -v on every COMPILE_CHECK instantiation), so it is not local memory.
# The probe runs draw 5's cases in one process, GEBRD, SYRK, GEMM, GEMV first, with the device's
# memory sampled beside it; then the sweep of call 5 again (draw 5, 6 workers). First the new
# tests/linalg/test_gpu_large.py (every operation on float32 batches past element 2^31, n = 64
# and 512; not run yet). About 7 minutes.
source scripts/device_preamble.sh
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -rf --durations=3 tests/linalg/test_gpu_large.py > $R/large.txt 2>&1
echo "rc $?" >> $R/large.txt
tar czf $OUT/r.tgz -C $OUT r
( while :; do echo "T $(date +%s.%N) $(nvidia-smi --query-gpu=memory.used --format=csv,noheader)"; sleep 0.25; done ) > $R/mem.txt &
MON=$!
timeout 240 python3 reports/gpu_20261128h/device/p_sweep_memory.py --seeds 5 --ops gebrd,syrk,gemm,gemv,trsv,lauum,trmm,trtri --report 4 > $R/memory.md 2>&1
echo "rc $?" >> $R/memory.md
tar czf $OUT/r.tgz -C $OUT r
LINALG_SWEEP_SEED=5 LINALG_SWEEP_PER_OP=100 timeout 100 python3 -m pytest -q -p no:cacheprovider -m gpu -n 6 -rf -p no:benchmark tests/linalg/test_sweep.py > $R/sweep5.txt 2>&1
echo "rc $?" >> $R/sweep5.txt
kill $MON
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -12 $R/large.txt; cut -c1-250 $R/memory.md | tail -40; tail -5 $R/sweep5.txt; sort -k3 -n $R/mem.txt | tail -3
