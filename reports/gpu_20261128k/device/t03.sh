#!/bin/bash
# Call 3: the final tables -- GEMM/GEMV GPU tests, the compile check, the hydro GPU tests,
# memcheck (forced and public gemm_stream calls), the public A/B against the tables before this
# session (call2/old_h200.json) at 40 960 and 262 144 zones, bench_blas's hydro section.
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 170 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  tests/linalg/test_cuda_dispatch.py tests/linalg/test_kernels_compile.py > $R/tests_blas.txt 2>&1
echo "rc $?" >> $R/tests_blas.txt; tail -3 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 $D/p_stream_small.py > $R/memcheck_stream.txt 2>&1; echo "rc $?" >> $R/memcheck_stream.txt
grep -v " ok$" $R/memcheck_stream.txt | tail -5
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/hydro > $R/tests_hydro.txt 2>&1
echo "rc $?" >> $R/tests_hydro.txt; tail -2 $R/tests_hydro.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_table_ab.py reports/gpu_20261128k/call2/old_h200.json \
  > $R/table_ab.md 2> $R/table_ab.err; echo "rc $?" >> $R/table_ab.md; cat $R/table_ab.md
tail -3 $R/table_ab.err
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/bench_blas.py --ops hydro --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt; tail -40 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
