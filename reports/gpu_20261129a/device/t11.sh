#!/bin/bash
# Call 11: the new GEMV entries between the measured sizes (3, 6, 20, 24, 30; classes 4, 8, 32):
# public A/B against the session start's table, N and T.
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
cat > /tmp/ab_between.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_gemv_table_ab as base
base.HYDRO = ((3, 3, 0), (6, 6, 0), (20, 20, 0), (24, 24, 0), (30, 30, 0))
base.main()
PY
timeout 120 python3 /tmp/ab_between.py reports/gpu_20261129a/old_h200.json \
  --batches 10240,262144 > $R/gemv_between_ab.md 2> $R/gemv_between_ab.err
tar czf $OUT/r.tgz -C $OUT r
cat $R/gemv_between_ab.md; tail -n 3 $R/gemv_between_ab.err
