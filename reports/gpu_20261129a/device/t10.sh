#!/bin/bash
# Call 10: call 9's square GEMV-T entries -- the GEMV GPU tests and the public A/B against the
# session start's table (N shows call 8's entries again).
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
timeout 80 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "gemv" > $R/tests_gemv.txt 2>&1; echo "rc $?" >> $R/tests_gemv.txt; tail -n 2 $R/tests_gemv.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_gemv_ab_squares2.py reports/gpu_20261129a/old_h200.json \
  --batches 10240,40960,262144 > $R/gemv_squares_ab.md 2> $R/gemv_squares_ab.err
tar czf $OUT/r.tgz -C $OUT r
grep "| T |" $R/gemv_squares_ab.md; tail -n 3 $R/gemv_squares_ab.err
