#!/bin/bash
# Call 5, the tree of commit 284742f (the committed rules: chol_left at 97-128 from 1000
# matrices and 129-256 at every batch, in place too): the public calls that factor on the way,
# POTRF n = 112 / 128 / 160 / 192 / 256, POSV (n vectors) n = 128 / 256 and POTI n = 256, at
# batch 10240.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 100 python3 scripts/bench_cholesky.py --ops potrf --dtypes float64 --sizes 112,128,160,192,256 --batches 10240 --fresh --output $R/bench_potrf > $R/bench_potrf_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_cholesky.py --ops posvn,poti --dtypes float64 --sizes 128,256 --batches 10240 --fresh --output $R/bench_posv_poti > $R/bench_posv_poti_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cat $R/bench_potrf/*.csv $R/bench_posv_poti/*.csv; tail -2 $R/*log.txt
