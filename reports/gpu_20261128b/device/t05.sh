#!/bin/bash
# Call 5 (POTRS with n vectors on chol_tensor_solve up to n = 160 committed): the POTRS / POSV
# GPU tests whose recursions take a 129-block (n = 255-257) and the public-call (keep) tests;
# TRSM on chol_tensor_trsm at NT = 5 between batch 100 and 1000; public POTRS / POSV n = 136 /
# 160.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_keep.py -k "((potrs or posv) and (255 or 256 or 257)) or (test_gpu_keep and (potrs or posv))" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/probe_triangle_192.py --sizes 136,160 --batches 200,400,700 --ops trsm > $R/probe_trsm.md 2>&1
echo "rc $?" >> $R/probe_trsm.md
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_cholesky.py --ops potrsn,posvn --dtypes float64 --sizes 136,160 --batches 10240 --fresh --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; cat $R/probe_trsm.md; grep -E "^\| (potrsn|posvn)" $R/bench/bench_cholesky.md; tail -2 $R/bench.txt
