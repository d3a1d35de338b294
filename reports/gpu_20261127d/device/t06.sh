#!/bin/bash
# Call 6 (H100): float32 TRSM's recursion at n = 512 batch 100 took 2.33 ms against float64's 1.33
# in call 5's table; the recursion with and without tri_pair on its 64-row blocks, the lean
# cuBLAS call and torch, both dtypes, mid batches (scripts/probe_trsm_recursion.py).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/probe_trsm_recursion.py > $R/trsm_recursion.md 2>&1; echo "rc $?" >> $R/trsm_recursion.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/trsm_recursion.md
