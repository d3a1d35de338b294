#!/bin/bash
# Call 9 (H100), the final tree (kernels of calls 6-7; cts_store_rhs as committed, its
# two-segment form of call 8 measured neutral and not kept; POTRF in place on chol_tensor from
# n = 49): the whole Cholesky GPU test file.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 560 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 15 tests/linalg/test_gpu_cholesky.py > $R/tests_cholesky.txt 2>&1
echo "rc $?" >> $R/tests_cholesky.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests_cholesky.txt
