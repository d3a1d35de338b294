#!/bin/bash
# Call 9: the GEMV vendor path's new form for a contiguous y (y^T = x^T op(A)^T: one column for
# cuBLAS) and the H200's "flat_rows" (cuBLAS from 8192 rows to the flat bound): the GEMV GPU
# tests, then the public call with the rule against the flat kernel to 65 536 rows and
# cupy.matmul (p_gemv_flat.py --rule).
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 -m gpu \
  tests/linalg/test_gpu_blas.py -k "gemv" > $R/pytest.txt 2>&1
tail -n 4 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 $D/p_gemv_flat.py --rule > $R/gemv_rule.md 2>&1; cat $R/gemv_rule.md
tar czf $OUT/r.tgz -C $OUT r
