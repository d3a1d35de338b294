#!/bin/bash
# Call 4: the committed TENSOR_TRMM_RULES: the triangular GPU tests (every path), the GPU sweep's
# TRMM draws (sizes and batches around the new rules' bounds), memcheck on the sanitizer smoke
# run, and the official bench rows (bench_cholesky.py) of TRMM, float64, at the table's sizes and
# between them.
source scripts/device_preamble.sh
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_triangular.py > $R/tests_triangular.txt 2>&1
tail -n 3 $R/tests_triangular.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_sweep.py -k trmm > $R/tests_sweep_trmm.txt 2>&1
tail -n 3 $R/tests_sweep_trmm.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 scripts/bench_cholesky.py --ops trmm --dtypes float64 \
  --sizes 64,65,72,80,96,100,112,128 --batches 1000,10240 --output $R/bench \
  > $R/bench_log.txt 2>&1; tail -n 25 $R/bench_log.txt
tar czf $OUT/r.tgz -C $OUT r
