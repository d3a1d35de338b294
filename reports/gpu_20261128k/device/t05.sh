#!/bin/bash
# Call 5: gemv_stream -- its GPU tests, memcheck on small calls, the sweep against the table's
# choice on the hydro GEMV shapes at 40 960 matrices (p_gemv_stream.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "gemv" > $R/tests_gemv.txt 2>&1
echo "rc $?" >> $R/tests_gemv.txt; tail -6 $R/tests_gemv.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 $D/p_gemv_stream_small.py > $R/memcheck_gemv.txt 2>&1; echo "rc $?" >> $R/memcheck_gemv.txt
grep -v " ok$" $R/memcheck_gemv.txt | tail -5
tar czf $OUT/r.tgz -C $OUT r
timeout 280 python3 $D/p_gemv_stream.py > $R/gemv_stream.md 2> $R/gemv_stream.err
echo "rc $?" >> $R/gemv_stream.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gemv_stream.md | cut -c1-150; tail -3 $R/gemv_stream.err
