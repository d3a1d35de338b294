#!/bin/bash
# Call 6: the whole GPU suite on the final kernels and rules, beside compute-sanitizer memcheck
# of scripts/sanitizer_smoke.py (chol_global and chol_cluster sections included).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
(timeout 560 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt) &
timeout 565 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait
tar czf $OUT/r.tgz -C $OUT r
tail -n 3 $R/tests.txt; grep -i "failed\|error" $R/tests.txt | head -5; tail -n 3 $R/memcheck.txt
