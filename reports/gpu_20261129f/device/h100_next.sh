#!/bin/bash
# Prepared, not run: on an H100, gemm_stream_mma's parameters for the wide hydro product
# (192x216 (27x216)^T, both dtypes: p_mma.py, and float32's 64-row items: p_mma32.py) against
# the H100 table's 192-row rule (cuBLAS batched), then the float32 POTRS rule's sweep (t01.sh's
# case). Where gemm_stream_mma gains, write its entry into linalg/tuning/
# nvidia_h100_80gb_hbm3.json for class bigx32x256 as the H200's (docs/design.md "Kernel or
# vendor"). Run after reports/gpu_20261129e/device/next_f32_solve.sh's TRMM half.
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 200 python3 $D/p_mma.py > $R/mma.md 2>&1; cat $R/mma.md
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_mma32.py > $R/mma32.md 2>&1; cat $R/mma32.md
tar czf $OUT/r.tgz -C $OUT r
