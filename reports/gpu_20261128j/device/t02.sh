#!/bin/bash
# Call 2: the rows path -- GPU tests (test_gpu_blas.py, the hydro GPU tests), memcheck on small
# calls, then the public A/B of the tables' rules (p_rows_ab.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  tests/linalg/test_cuda_dispatch.py > $R/tests_blas.txt 2>&1; echo "rc $?" >> $R/tests_blas.txt
tail -3 $R/tests_blas.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 $D/p_rows_small.py > $R/memcheck_rows.txt 2>&1; echo "rc $?" >> $R/memcheck_rows.txt
grep -v " ok$" $R/memcheck_rows.txt | tail -5
tar czf $OUT/r.tgz -C $OUT r
timeout 230 python3 $D/p_rows_ab.py > $R/rows_ab.md 2> $R/rows_ab.err; echo "rc $?" >> $R/rows_ab.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/rows_ab.md; tail -3 $R/rows_ab.err
timeout 90 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/hydro > $R/tests_hydro.txt 2>&1
echo "rc $?" >> $R/tests_hydro.txt; tail -3 $R/tests_hydro.txt
tar czf $OUT/r.tgz -C $OUT r
