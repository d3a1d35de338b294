#!/bin/bash
# Call 7 (H100): the same probe at large batches, float32 (batch 10240 is the headline table's).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 100 python3 scripts/probe_trsm_recursion.py --dtypes float32 --sizes 128,256 --batches 3000,10240 > $R/trsm_recursion_large.md 2>&1
timeout 60 python3 scripts/probe_trsm_recursion.py --dtypes float32 --sizes 512 --batches 2048 | tail -n 1 >> $R/trsm_recursion_large.md 2>&1; echo "rc $?" >> $R/trsm_recursion_large.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/trsm_recursion_large.md
