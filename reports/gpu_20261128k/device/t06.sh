#!/bin/bash
# Call 6: the H200's gemv_stream entries -- GEMM/GEMV GPU tests and the compile check, the
# hydro GPU tests, memcheck (forced and public gemv_stream calls), the public A/B against the
# GEMV tables before (call2/old_h200.json) at 40 960 and 262 144 matrices.
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 170 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  tests/linalg/test_cuda_dispatch.py tests/linalg/test_kernels_compile.py > $R/tests_blas.txt 2>&1
echo "rc $?" >> $R/tests_blas.txt; tail -3 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 $D/p_gemv_stream_small.py > $R/memcheck_gemv.txt 2>&1; echo "rc $?" >> $R/memcheck_gemv.txt
grep -v " ok$" $R/memcheck_gemv.txt | tail -5
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/hydro > $R/tests_hydro.txt 2>&1
echo "rc $?" >> $R/tests_hydro.txt; tail -2 $R/tests_hydro.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_gemv_table_ab.py reports/gpu_20261128k/call2/old_h200.json \
  > $R/gemv_table_ab.md 2> $R/gemv_table_ab.err; echo "rc $?" >> $R/gemv_table_ab.md
cat $R/gemv_table_ab.md; tail -3 $R/gemv_table_ab.err
tar czf $OUT/r.tgz -C $OUT r
