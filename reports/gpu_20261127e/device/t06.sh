#!/bin/bash
# Call 6: the first half of the GPU suite (tests/linalg/test_gpu_cholesky.py) beside
# compute-sanitizer memcheck of scripts/sanitizer_smoke.py (with its gebrd_blocked section).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
(timeout 540 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt) &
timeout 540 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py > $R/tests_cholesky.txt 2>&1; echo "rc $?" >> $R/tests_cholesky.txt
wait
pack
tail -n 3 $R/tests_cholesky.txt; grep -E "^FAILED" $R/tests_cholesky.txt | head -20; tail -n 3 $R/memcheck.txt
