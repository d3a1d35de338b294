#!/bin/bash
# Call 3 (H100): chol_factor_ahead (CT_DIAG = 1: every lane forms the next pivot and issues its
# reciprocal square root at once) against the shared-memory steps (CT_DIAG = 0). Checks of the
# new default (chol_tensor, chol_global), then the phase profiles of both, chol_tensor at NT = 2
# with 64 threads, chol_global / chol_cluster at batch 1.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for v in 0 1; do
    timeout 100 python3 scripts/probe_chol_tensor.py profile --sizes 64,96,128 --batches 10240 \
      --defines CT_DIAG=$v >> $R/profile.md 2>&1
  done
done
for v in 0 1; do
  timeout 60 python3 scripts/probe_chol_tensor.py profile --sizes 40,64 --batches 10240 --threads 64 \
    --defines CT_DIAG=$v >> $R/profile.md 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
date > $R/stamps.txt
timeout 150 python3 scripts/probe_chol_tensor.py check > $R/check_tensor.txt 2>&1; echo "rc $?" >> $R/check_tensor.txt
date >> $R/stamps.txt
tar czf $OUT/r.tgz -C $OUT r
for v in 0 1; do
  timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel global --sizes 256,512 --batches 1 \
    --defines CT_DIAG=$v >> $R/profile.md 2>&1
  timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel cluster8 --sizes 256,512 --batches 1 \
    --defines CT_DIAG=$v >> $R/profile.md 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
date >> $R/stamps.txt
timeout 150 python3 scripts/probe_chol_tensor.py check --kernel global > $R/check_global.txt 2>&1; echo "rc $?" >> $R/check_global.txt
date >> $R/stamps.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt $R/stamps.txt; tail -n 2 $R/check_*.txt; grep -c "^FAIL\|fail " $R/check_*.txt
grep -E "^\| float" $R/profile.md | cut -c1-200
