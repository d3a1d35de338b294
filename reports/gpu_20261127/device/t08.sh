#!/bin/bash
# Call 8: chol_tensor against the small-batch POTRF paths (chol_small<64> below 512 matrices,
# chol_block below 282, cuSOLVER), and the README table's float64 POTRF / POSV / POTI rows.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 48,64,96,128 --batches 1,8,64,256,500 --output $R/time_small_f64.md > /dev/null 2> $R/time_err.txt
cat $R/time_small_f64.md
timeout 200 python3 scripts/bench_cholesky.py --fresh --ops potrf,posvn,poti --sizes 64,128 --dtypes float64 --output $R/bench > $R/bench_log.txt 2>&1; echo "rc $?" >> $R/bench_log.txt
tar czf $OUT/r.tgz -C $OUT r
tail -2 $R/bench_log.txt; cat $R/bench/bench_cholesky.md | head -30; tail -3 $R/time_err.txt
