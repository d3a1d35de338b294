#!/bin/bash
# Call 10: the H200 table with its small-batch bounds (below_batch / below on five GEMV
# classes, from call 9): GEMV GPU tests, and the public A/B against the session start of
# 2026-11-29 01:17 at 2560 / 10240 / 20480 matrices on those classes' shapes.
source scripts/device_preamble.sh
D=reports/gpu_20261129b/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_blas.py -k gemv > $R/gemv_gpu_tests.txt 2>&1; tail -n 3 $R/gemv_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/ab_bounds.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_gemv_table_ab as base
base.HYDRO = ((3, 3, 0), (4, 4, 0), (6, 6, 0), (20, 20, 0), (32, 32, 0))
base.main()
PY
timeout 150 python3 /tmp/ab_bounds.py reports/gpu_20261129a/old_h200.json \
  --batches 2560,10240,20480 > $R/gemv_bounds_ab.md 2> $R/gemv_bounds_ab.err
tail -n 3 $R/gemv_bounds_ab.err; grep -c "^| float" $R/gemv_bounds_ab.md
tar czf $OUT/r.tgz -C $OUT r
