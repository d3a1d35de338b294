#!/bin/bash
# Call 7: the public gemm with one B for a batch of A -- GEMM GPU tests and dispatch, the fold
# A/B (p_fold_ab.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  tests/linalg/test_cuda_dispatch.py -k "gemm" > $R/tests_gemm.txt 2>&1
echo "rc $?" >> $R/tests_gemm.txt; tail -3 $R/tests_gemm.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 $D/p_fold_ab.py > $R/fold_ab.md 2> $R/fold_ab.err; echo "rc $?" >> $R/fold_ab.md
cat $R/fold_ab.md; tail -3 $R/fold_ab.err
tar czf $OUT/r.tgz -C $OUT r
