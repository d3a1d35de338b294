#!/bin/bash
# Call 1: float32 POTRS with n vectors on chol_tensor_solve (its passes staged by cp.async)
# against the float32 rules, public in place, batches 100-30 000, n = 33-160
# (reports/gpu_20261129e/device/p_f32_tensor.py's case, POTRS rows only).
source scripts/device_preamble.sh
D=reports/gpu_20261129e/device
timeout 280 python3 - > $R/f32_potrs.md 2>&1 <<'PY'
import sys
sys.path.insert(0, "reports/gpu_20261129e/device")
import p_f32_tensor as p
print("| op | n | batch | before ms | tensor ms | before/tensor | diff |")
print("|---|---|---|---|---|---|---|")
for n in (33, 40, 48, 64, 80, 96, 112, 128, 144, 160):
    for batch in (100, 300, 1000, 3000, 10240, 30000):
        p.case("potrs_n", n, batch)
PY
cat $R/f32_potrs.md
tar czf $OUT/r.tgz -C $OUT r
