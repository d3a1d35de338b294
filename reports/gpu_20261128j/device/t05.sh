#!/bin/bash
# Call 5: the H200's own GEMV entries -- GPU tests (test_gpu_blas.py), the public A/B
# (p_gemv_ab.py), then the rows rules' A/B again on the final tables (float64 32x9 by 32 rows).
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
timeout 120 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  > $R/tests_blas.txt 2>&1; echo "rc $?" >> $R/tests_blas.txt; tail -3 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 $D/p_gemv_ab.py > $R/gemv_ab.md 2> $R/gemv_ab.err; echo "rc $?" >> $R/gemv_ab.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gemv_ab.md; tail -3 $R/gemv_ab.err
timeout 90 python3 $D/p_rows_ab.py --zones 40960,40961 --dtypes float64 > $R/rows_ab.md 2> $R/rows_ab.err
echo "rc $?" >> $R/rows_ab.md; tar czf $OUT/r.tgz -C $OUT r
grep -E "32x36|rc" $R/rows_ab.md; tail -3 $R/rows_ab.err
