#!/bin/bash
# Call 3: chol_global (POTRF in one launch, the matrix in global memory): checked against LAPACK,
# memcheck on a small run, its forced-path GPU tests, and timed against the default path and
# cuSOLVER at small batches, float64.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_chol_tensor.py check --kernel global > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
timeout 200 python3 scripts/probe_chol_tensor.py time --kernel global --dtype float64 --sizes 160,256,384,512 --batches 1,8,32,100,132,264,500,2000 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_cholesky.py -k "global" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_chol_tensor.py small --kernel global > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
tar czf $OUT/r.tgz -C $OUT r
tail -2 $R/check.txt; grep FAIL $R/check.txt | head; cat $R/time_f64.md; tail -3 $R/time_err.txt; tail -3 $R/tests.txt; tail -4 $R/memcheck.txt
