#!/bin/bash
# Call 9 (H100): tri_cols's TRMM mode: check (every variant and mode), memcheck of the small run,
# the float64 / float32 timing grids (TRMM both sides against the default path, tri_cols off).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 150 python3 scripts/probe_tri_cols.py check > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
tail -2 $R/check.txt; grep FAIL $R/check.txt | head -5
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_tri_cols.py small > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
tail -2 $R/memcheck.txt
timeout 100 python3 scripts/probe_tri_cols.py time --ops trmm --dtype float64 --sizes 96,128,192,256,384,512 --batches 1,2,4,8,16,32 --output $R/time_f64.md > $R/time_f64.log 2>&1
timeout 40 python3 scripts/probe_tri_cols.py time --ops trmm --dtype float32 --sizes 128,256,512 --batches 1,4,16 --output $R/time_f32.md > $R/time_f32.log 2>&1
grep "^| trmm" $R/time_f64.log > $R/trmm_f64.md; grep "^| trmm" $R/time_f32.log > $R/trmm_f32.md
python3 scripts/probe_tri_cols.py bounds $R/trmm_f64.md > $R/bounds.txt 2>&1; python3 scripts/probe_tri_cols.py bounds $R/trmm_f32.md >> $R/bounds.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/bounds.txt
