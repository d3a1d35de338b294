#!/bin/bash
# Call 8: the float32 32x16x64 gemm candidate entry -- public A/B on every hydro 32x9 form, GPU
# tests of GEMM / GEMV with it, then the sweep's GEMM / GEMV cases on the final tables.
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
timeout 100 python3 $D/p_gemm_entry_ab.py > $R/gemm_entry_ab.md 2> $R/gemm_entry_ab.err
echo "rc $?" >> $R/gemm_entry_ab.md; tar czf $OUT/r.tgz -C $OUT r
cat $R/gemm_entry_ab.md; tail -3 $R/gemm_entry_ab.err
timeout 100 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  > $R/tests_blas.txt 2>&1; echo "rc $?" >> $R/tests_blas.txt; tail -2 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_sweep.py \
  -k "gemm or gemv" > $R/sweep.txt 2>&1; echo "rc $?" >> $R/sweep.txt; tail -2 $R/sweep.txt
tar czf $OUT/r.tgz -C $OUT r
