#!/bin/bash
# Call 3 (H100): the rules of calls 1-2 in place (chol_left for float64 n = 129..256 kept, in
# place to 160 or below 4096 matrices; chol_tensor at NT = 2 with 64 threads, float64 n = 33..128,
# in place from 36): the whole test_gpu_cholesky.py; the benchmark's POTRF / POSV / POTI rows
# (public calls, in place and the default call); chol_tensor at batch 1-100, n = 33-47.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 430 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 15 tests/linalg/test_gpu_cholesky.py > $R/tests_cholesky.txt 2>&1
echo "rc $?" >> $R/tests_cholesky.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/bench_cholesky.py --ops potrf --dtypes float64 --sizes 32,40,48,64,128,160,192,256 --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 40 python3 scripts/probe_chol_tensor.py time --sizes 33,40,47 --batches 1,10,100 --output $R/time_tensor_small_batch.md > $R/time_tensor_small_batch.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests_cholesky.txt; cat $R/bench/bench_cholesky.csv; grep "^| [0-9]" $R/time_tensor_small_batch.md
