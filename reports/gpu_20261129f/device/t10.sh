#!/bin/bash
# Call 10: cupy.matmul against our cuBLAS GEMV call and direct gemmStridedBatchedEx /
# typed-routine calls with CuPy's arguments (p_gemv_ex.py).
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 90 python3 $D/p_gemv_ex.py > $R/gemv_ex.md 2>&1; cat $R/gemv_ex.md
tar czf $OUT/r.tgz -C $OUT r
