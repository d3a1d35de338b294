#!/bin/bash
# Call 10: after the review mend (the ring's barrier setup and slot wait as common.cuh helpers,
# one register-per-warp computation in the launcher) -- the stream kernels' GPU tests, memcheck.
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 90 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "bulk_copy or stream or public_one_b or hydro or gemv_forced" > $R/tests_stream.txt 2>&1
echo "rc $?" >> $R/tests_stream.txt; tail -2 $R/tests_stream.txt
tar czf $OUT/r.tgz -C $OUT r
for p in p_stream_small p_gemv_stream_small; do
  timeout 50 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
    python3 $D/$p.py > $R/memcheck_$p.txt 2>&1; echo "rc $?" >> $R/memcheck_$p.txt
  grep -v " ok$" $R/memcheck_$p.txt | tail -3
done
tar czf $OUT/r.tgz -C $OUT r
