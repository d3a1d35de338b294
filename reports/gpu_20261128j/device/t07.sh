#!/bin/bash
# Call 7: the H200 table with the square GEMV-N entries of call 6 -- GPU tests of GEMM / GEMV
# (production dispatch and forced kernels), then the public A/B of the square entries.
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
timeout 120 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  > $R/tests_blas.txt 2>&1; echo "rc $?" >> $R/tests_blas.txt; tail -3 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_gemv_ab.py --shapes 4x4,8x8,16x16,512x512 --batches 10240,100000 \
  --ops N > $R/gemv_square_ab.md 2> $R/gemv_square_ab.err; echo "rc $?" >> $R/gemv_square_ab.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gemv_square_ab.md; tail -3 $R/gemv_square_ab.err
