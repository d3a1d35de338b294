#!/bin/bash
# Call 4 (H100): the lead warp rotated (CT_ROT: 0 warp 0 in every block, 1 blockIdx.x % warps,
# 2 by the block's %warpid slot, so that co-resident blocks factor on different SM
# sub-partitions), with the shared-memory steps (CT_DIAG = 0) and chol_factor_ahead (1).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for v in CT_DIAG=0,CT_ROT=0 CT_DIAG=0,CT_ROT=1 CT_DIAG=0,CT_ROT=2 CT_DIAG=1,CT_ROT=2 CT_DIAG=1,CT_ROT=0; do
    timeout 100 python3 scripts/probe_chol_tensor.py profile --sizes 64,96,128 --batches 10240 \
      --defines $v >> $R/profile.md 2>&1
  done
  tar czf $OUT/r.tgz -C $OUT r
done
for v in CT_DIAG=0,CT_ROT=0 CT_DIAG=0,CT_ROT=2 CT_DIAG=1,CT_ROT=2; do
  timeout 60 python3 scripts/probe_chol_tensor.py profile --sizes 40,64 --batches 10240 --threads 64 \
    --defines $v >> $R/profile.md 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; grep -E "^\| float" $R/profile.md | cut -c1-200
