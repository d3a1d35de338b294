#!/bin/bash
# Call 4 (H100): how much of chol_tensor's diagonal chain is the trailing-row updates' issue (a
# timing probe, wrong results): chol_potrf_phase's update of each row cut to the W columns after
# the pivot (-DCT_ISSUE_PROBE=W, W = 7 as an 8-wide panel would leave, W = 1) against the
# kernel as it is, phases by -DCT_PROFILE.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for d in "" CT_ISSUE_PROBE=7 CT_ISSUE_PROBE=1 "" CT_ISSUE_PROBE=7 CT_ISSUE_PROBE=1; do
  timeout 60 python3 scripts/probe_chol_tensor.py profile --sizes 64,96,128 --batches 10240 \
    --defines "$d" >> $R/issue_profile.md 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
grep "^| float" $R/issue_profile.md
