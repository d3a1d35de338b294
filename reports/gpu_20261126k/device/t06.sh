#!/bin/bash
# Call 6 (H100): tri_cols with 16 vectors a block (two chains a warp): check, then the float64
# grid with widths 1-16 (default column: the old paths).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 220 python3 scripts/probe_tri_cols.py check > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
tail -2 $R/check.txt
timeout 250 python3 scripts/probe_tri_cols.py time --dtype float64 --sizes 128,256,384,512 --batches 1,4,8,16,32,64 --output $R/time_f64.md > $R/time.log 2>&1
grep "^|" $R/time.log > $R/time_rows.md
python3 scripts/probe_tri_cols.py bounds $R/time_rows.md > $R/bounds.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/bounds.txt
