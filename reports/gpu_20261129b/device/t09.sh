#!/bin/bash
# Call 9: GEMV entries' small-batch parameters ("below_batch" / "below"): the GEMV GPU tests
# (with the forced below-entry test), then the public A/B of the H200 GEMV tables against the
# session start of 2026-11-29 01:17 at 2560, 10240 and 20480 matrices (the bounds).
source scripts/device_preamble.sh
D=reports/gpu_20261129b/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_blas.py -k gemv > $R/gemv_gpu_tests.txt 2>&1; tail -n 3 $R/gemv_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 $D/p_gemv_small_ab.py reports/gpu_20261129a/old_h200.json \
  --batches 2560,10240,20480 > $R/gemv_small_ab.md 2> $R/gemv_small_ab.err
tail -n 3 $R/gemv_small_ab.err; grep -c "^| float" $R/gemv_small_ab.md
tar czf $OUT/r.tgz -C $OUT r
