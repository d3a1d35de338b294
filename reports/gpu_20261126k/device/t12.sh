#!/bin/bash
# Call 12 (the review mend 5c2be9d): tri_cols's small check under memcheck and the forced-path
# GPU tests of the triangular file (the launcher's shared-memory size now a function).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_tri_cols.py small > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k "cols or trtri or potri" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
tail -3 $R/memcheck.txt; tail -2 $R/tests.txt
