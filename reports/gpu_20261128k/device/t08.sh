#!/bin/bash
# Call 8: the final tree -- GEMM/GEMV GPU tests, dispatch and compile check, the public API
# sweep on the GPU (every operation: the batch layer changed for gemm's broadcast B), the hydro
# GPU tests, and the fold A/B under FOLD_MIN_BYTES.
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 100 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  tests/linalg/test_cuda_dispatch.py tests/linalg/test_kernels_compile.py > $R/tests_blas.txt 2>&1
echo "rc $?" >> $R/tests_blas.txt; tail -2 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 170 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_sweep.py \
  > $R/sweep.txt 2>&1; echo "rc $?" >> $R/sweep.txt; tail -2 $R/sweep.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 80 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/hydro > $R/tests_hydro.txt 2>&1
echo "rc $?" >> $R/tests_hydro.txt; tail -2 $R/tests_hydro.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_fold_ab.py > $R/fold_ab.md 2> $R/fold_ab.err; echo "rc $?" >> $R/fold_ab.md
cat $R/fold_ab.md; tail -3 $R/fold_ab.err
tar czf $OUT/r.tgz -C $OUT r
