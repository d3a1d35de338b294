#!/bin/bash
# Call 4 (H100): tri_cols's timing grids and the small-batch table with the rules off and on,
# to check the H200-measured COLS_BELOW bounds on the H100.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 200 python3 scripts/probe_tri_cols.py time --dtype float64 --sizes 64,128,192,256,384,512 --output $R/time_f64.md > $R/time_f64.log 2>&1
timeout 80 python3 scripts/probe_tri_cols.py time --dtype float32 --sizes 64,128,256,512 --batches 1,4,16,64 --output $R/time_f32.md > $R/time_f32.log 2>&1
python3 scripts/probe_tri_cols.py bounds $R/time_f64.md > $R/bounds.txt; python3 scripts/probe_tri_cols.py bounds $R/time_f32.md >> $R/bounds.txt
OFF="import runpy, sys; import linalg._cuda.triangular as t; t.cols_below = lambda op, dtype, n: 0; sys.argv = ['bench_small_batch.py'] + sys.argv[1:]; runpy.run_path('scripts/bench_small_batch.py', run_name='__main__')"
ARGS="--ops trsm,trtri,potrsn,potri,poti --sizes 64,128,256,512 --batches 1,8,100"
timeout 90 python3 -c "$OFF" $ARGS --output $R/off > $R/off.log 2>&1
timeout 90 python3 scripts/bench_small_batch.py $ARGS --output $R/on > $R/on.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/bounds.txt; grep -c "vendor faster" $R/off/small_batch.md $R/on/small_batch.md
