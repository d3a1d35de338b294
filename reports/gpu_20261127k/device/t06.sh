#!/bin/bash
# Call 6, the final tree (the GPU tests' fixture forcing LEFT_RULES rows): the `left` path of
# test_gpu_cholesky.py (every POTRF / POSV / POTI of 33-512 through chol_left, both dtypes).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 170 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 15 tests/linalg/test_gpu_cholesky.py -k "left" > $R/tests_left.txt 2>&1
echo "rc $?" >> $R/tests_left.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests_left.txt
