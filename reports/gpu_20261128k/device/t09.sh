#!/bin/bash
# Call 9: gemm_stream with two rows a thread (rm) -- its GPU tests, memcheck, the sweep
# against the table (p_stream_rm.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 80 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "bulk_copy or public_one_b or tall" > $R/tests_stream.txt 2>&1
echo "rc $?" >> $R/tests_stream.txt; tail -3 $R/tests_stream.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 $D/p_stream_small.py > $R/memcheck_stream.txt 2>&1; echo "rc $?" >> $R/memcheck_stream.txt
grep -v " ok$" $R/memcheck_stream.txt | tail -4
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 $D/p_stream_rm.py > $R/stream_rm.md 2> $R/stream_rm.err
echo "rc $?" >> $R/stream_rm.md; cat $R/stream_rm.md; tail -3 $R/stream_rm.err
tar czf $OUT/r.tgz -C $OUT r
