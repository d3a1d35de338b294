#!/bin/bash
# Call 4: the public calls with the final rules (GLOBAL_BATCHES: chol_cluster at batches 1-64)
# against the vendors, scripts/bench_small_batch.py.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
python3 -c "import cupy, torch; print(cupy.__version__, torch.__version__, cupy.cuda.runtime.runtimeGetVersion())" >> $R/gpu.txt
timeout 130 python3 scripts/bench_small_batch.py --ops potrf --sizes 160,256,384,512 --batches 1,2,8,12,16,24,32,64,100 --dtype float64 --output $R/potrf_float64 > $R/log_potrf_f64.txt 2>&1; echo "rc $?" >> $R/log_potrf_f64.txt
pack; grep "^| potrf" $R/potrf_float64/*.md
timeout 100 python3 scripts/bench_small_batch.py --ops potrf,posvn,poti --sizes 160,256,384,512 --batches 1,8,32,100 --dtype float32 --output $R/all_float32 > $R/log_all_f32.txt 2>&1; echo "rc $?" >> $R/log_all_f32.txt
pack; grep "^| p" $R/all_float32/*.md
timeout 80 python3 scripts/bench_small_batch.py --ops posvn,poti --sizes 160,256,384,512 --batches 1,8,100 --dtype float64 --output $R/solve_float64 > $R/log_solve_f64.txt 2>&1; echo "rc $?" >> $R/log_solve_f64.txt
pack; grep "^| p" $R/solve_float64/*.md; tail -n 1 $R/log_*.txt
