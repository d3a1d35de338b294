#!/bin/bash
# Call 10: the rule's own kernel parameters ("rows_params", float32 32x36 (9x36)^T) -- GPU tests
# of GEMM / GEMV, then the public A/B of the final rows rules in float32 (p_rows_ab.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
timeout 100 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  > $R/tests_blas.txt 2>&1; echo "rc $?" >> $R/tests_blas.txt; tail -2 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 $D/p_rows_ab.py --dtypes float32 --zones 40960 > $R/rows_ab.md 2> $R/rows_ab.err
echo "rc $?" >> $R/rows_ab.md; tar czf $OUT/r.tgz -C $OUT r
cat $R/rows_ab.md; tail -3 $R/rows_ab.err
