#!/bin/bash
# Call 6: chol_tensor_trsm before the kept-B tri_pair rule (a default call at n = 56..64 takes
# its out-of-place launch): the TRSM bench again (in place and the default call), the kept-input
# GPU tests, the whole of test_gpu_triangular.py and the POTRS / POSV tests of
# test_gpu_cholesky.py.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 90 python3 scripts/bench_cholesky.py --ops trsm --dtypes float64 --sizes 48,64,96,128,256 --batches 10240 --fresh --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 400 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k "not test_gpu_cholesky or potrs or posv" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep -E "FAILED" $R/tests.txt | head; grep -E "^\| trsm" $R/bench/bench_cholesky.md
