#!/bin/bash
# Call 4, the final tree (512 threads at NT = 4 for chol_tensor_solve / chol_tensor_trsm, the
# POTI rule, chol_tensor_trtri for float64 and float32): the GPU tests of the triangular
# family, the kept inputs and the Cholesky family's inverses and solves; the public bench of
# the cells the session moved; the POTI rule at n = 72.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/bench_cholesky.py --ops trsm,potrsn,posvn,potri,poti --dtypes float64 --sizes 64,96,128,192,256 --batches 10240 --fresh --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 40 python3 scripts/probe_posv_rule.py --op poti --sizes 72 --batches 1000,10240 > $R/poti_rule.md 2>&1
echo "rc $?" >> $R/poti_rule.md
tar czf $OUT/r.tgz -C $OUT r
timeout 330 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_cholesky.py -k "not test_gpu_cholesky or potri or poti or potrs or posv" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; cat $R/poti_rule.md; grep -E "^\| (trsm|potrsn|posvn|potri|poti) " $R/bench/bench_cholesky.md
