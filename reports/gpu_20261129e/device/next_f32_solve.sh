#!/bin/bash
# Prepared for the next session (not run): the batch counts and sizes for a float32 POTRS rule
# on chol_tensor_solve (call 9 measured 1.08-1.21x at 10 240 matrices only), and the TRMM rules
# on an H100 (TENSOR_TRMM_RULES were measured on an H200). Run from the repository root with
# carry=[".whl"]; p_f32_tensor.py's POTRS rows are the ones that decide.
source scripts/device_preamble.sh
D=reports/gpu_20261129e/device
timeout 200 python3 $D/p_f32_tensor.py 40,48,64,80,96,112,128,160 100,300,1000,3000,30000 \
  > $R/f32_tensor.md 2>&1; grep -E "potrs|op " $R/f32_tensor.md
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 $D/p_trmm.py float64 56,64,65,72,80,96,112,128,160 100,1000,10240 LN,RN \
  > $R/trmm_f64.md 2>&1; cat $R/trmm_f64.md
tar czf $OUT/r.tgz -C $OUT r
