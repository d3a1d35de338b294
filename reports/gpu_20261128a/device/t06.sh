#!/bin/bash
# Call 6 (the budget's last minutes): chol_tensor_trtri's float32 range at batch 1000 and 100,
# and the POTI rule's first n (65).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
timeout 60 python3 scripts/probe_tensor_trtri.py --sizes 80,128 --batches 100,1000 --ops trtri,trtri_kept --dtypes float32 > $R/probe_float32.md 2>&1
echo "rc $?" >> $R/probe_float32.md
timeout 40 python3 scripts/probe_posv_rule.py --op poti --sizes 65 --batches 1000,10240 > $R/poti_rule.md 2>&1
echo "rc $?" >> $R/poti_rule.md
cat $R/probe_float32.md $R/poti_rule.md
