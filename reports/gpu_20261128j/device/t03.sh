#!/bin/bash
# Call 3: gemm_small's parameters on the row blocks of 32x36 (9x36)^T (p_small_sweep.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
timeout 400 python3 $D/p_small_sweep.py > $R/small_sweep.md 2> $R/small_sweep.err
echo "rc $?" >> $R/small_sweep.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/small_sweep.md; tail -3 $R/small_sweep.err
