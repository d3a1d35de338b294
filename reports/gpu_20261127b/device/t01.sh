#!/bin/bash
# Call 1: chol_tensor with the look-ahead and the overlapped loads and stores: checked against
# LAPACK, its forced-path GPU tests, the phase profile, and timed against the panels (in place
# and kept) and cuSOLVER, float64.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 120 python3 scripts/probe_chol_tensor.py check > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
timeout 60 python3 scripts/probe_chol_tensor.py profile --sizes 64,96,128 --batches 10240 > $R/profile.md 2>&1
timeout 200 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 48,64,96,128 --batches 500,2000,10240,100000 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_cholesky.py -k tensor > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
tail -2 $R/check.txt; grep -c FAIL $R/check.txt; cat $R/profile.md; cat $R/time_f64.md; tail -3 $R/time_err.txt; tail -3 $R/tests.txt
