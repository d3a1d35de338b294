#!/bin/bash
# Call 6, the final tree: the GEMM / GEMV GPU tests, the GPU sweep of gemm / gemv, the hydro GPU
# tests, memcheck on "wide" gemm_stream, and the public A/B of the float32 9-column entry
# (the GEMM tables before this session: old_h200.json).
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  > $R/tests_blas.txt 2>&1; echo "rc $?" >> $R/tests_blas.txt; tail -n 2 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 $D/p_wide_small.py > $R/memcheck_wide.txt 2>&1
echo "rc $?" >> $R/memcheck_wide.txt; grep -v " ok$" $R/memcheck_wide.txt | tail -n 3
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 $D/p_table_ab_9.py reports/gpu_20261129a/old_h200.json \
  --dtypes float32 > $R/table_ab_f32.md 2> $R/table_ab_f32.err
tar czf $OUT/r.tgz -C $OUT r
cat $R/table_ab_f32.md
timeout 100 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_sweep.py \
  -k "gemm or gemv" > $R/sweep.txt 2>&1; echo "rc $?" >> $R/sweep.txt; tail -n 2 $R/sweep.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/hydro > $R/tests_hydro.txt 2>&1
echo "rc $?" >> $R/tests_hydro.txt; tail -n 2 $R/tests_hydro.txt
tar czf $OUT/r.tgz -C $OUT r
