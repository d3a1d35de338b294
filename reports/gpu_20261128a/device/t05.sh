#!/bin/bash
# Call 5: the Cholesky family's inverse and solve tests on the final tree (call 4's run of the
# three GPU test files stopped at its 330 s bound with 2795 passed, none failed).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 420 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_cholesky.py -k "potri or poti or potrs or posv" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head
