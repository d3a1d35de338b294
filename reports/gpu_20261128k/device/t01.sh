#!/bin/bash
# Call 1: gemm_stream (bulk copy engine) -- its GPU tests, memcheck on small calls, then the
# sweep against the table's choice on the hydro shapes (p_stream.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "bulk_copy or shared_b or tall or hydro" > $R/tests_stream.txt 2>&1
echo "rc $?" >> $R/tests_stream.txt; tail -15 $R/tests_stream.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 $D/p_stream_small.py > $R/memcheck_stream.txt 2>&1; echo "rc $?" >> $R/memcheck_stream.txt
grep -v " ok$" $R/memcheck_stream.txt | tail -8
tar czf $OUT/r.tgz -C $OUT r
timeout 300 python3 $D/p_stream.py > $R/stream.md 2> $R/stream.err; echo "rc $?" >> $R/stream.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/stream.md; tail -3 $R/stream.err
