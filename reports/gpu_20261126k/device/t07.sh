#!/bin/bash
# Call 7 (the final tree): GPU tests of the triangular, Cholesky and kept-input files.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 450 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
tail -3 $R/tests.txt; cat $R/gpu.txt
