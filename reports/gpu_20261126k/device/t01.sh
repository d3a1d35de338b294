#!/bin/bash
# Call 1: tri_cols correctness (every variant), memcheck + racecheck of a small run, timing grids.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
python3 -c "import cupy, torch; print('cupy', cupy.__version__, 'cuda', cupy.cuda.runtime.runtimeGetVersion(), 'torch', torch.__version__)" >> $R/gpu.txt
date -u >> $R/gpu.txt
timeout 150 python3 scripts/probe_tri_cols.py check > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
tail -3 $R/check.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_tri_cols.py small > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
tail -3 $R/memcheck.txt
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 python3 scripts/probe_tri_cols.py small > $R/racecheck.txt 2>&1; echo "rc $?" >> $R/racecheck.txt
tail -3 $R/racecheck.txt
timeout 120 python3 scripts/probe_tri_cols.py time --dtype float64 --output $R/time_f64.md > $R/time_f64.log 2>&1
timeout 60 python3 scripts/probe_tri_cols.py time --dtype float32 --sizes 64,128,256,512 --batches 1,4,16,64 --output $R/time_f32.md > $R/time_f32.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/time_f64.log | head -80
