#!/bin/bash
# Call 8: square GEMV-N on small batches, the flat rule against the table's path and
# cupy.matmul (p_gemv_flat.py; the small-batch table of reports/gpu_20261128c had n = 128-512
# at 100 matrices 0.89-0.91x cupy.matmul).
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 150 python3 $D/p_gemv_flat.py > $R/gemv_flat.md 2>&1; cat $R/gemv_flat.md
tar czf $OUT/r.tgz -C $OUT r
