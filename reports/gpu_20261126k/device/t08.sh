#!/bin/bash
# Call 8 (H100, the final tree): the whole small-batch table (every Cholesky-family /
# triangular op, TRSV, GEMV-N; n = 8-512; batch 1, 8, 100; float64).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 400 python3 scripts/bench_small_batch.py --output $R/small > $R/small.log 2>&1; echo "rc $?" >> $R/small.log
tar czf $OUT/r.tgz -C $OUT r
grep -c "vendor faster" $R/small/small_batch.md; grep -c "^| [a-z]" $R/small/small_batch.md; tail -2 $R/small.log
