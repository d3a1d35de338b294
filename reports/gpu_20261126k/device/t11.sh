#!/bin/bash
# Call 11 (H100, final tree): the float32 grid (default column with tri_cols off) for the
# float32 COLS_BELOW rows, which came from a coarser H200 grid.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 200 python3 scripts/probe_tri_cols.py time --dtype float32 --sizes 64,96,128,192,256,384,512 --batches 1,2,4,8,16,32 --output $R/time_f32.md > $R/time_f32.log 2>&1
grep "^|" $R/time_f32.log > $R/time_f32_rows.md
python3 scripts/probe_tri_cols.py bounds $R/time_f32_rows.md > $R/bounds.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/bounds.txt
