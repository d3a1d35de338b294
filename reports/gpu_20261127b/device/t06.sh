#!/bin/bash
# Call 6: call 5's GPU suite and memcheck again with room to finish (call 5 ran both beside each
# other on an H200 and hit its timeouts at 98 % of the suite and in the sanitizer's teardown).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
(timeout 570 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt) &
timeout 570 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait
tar czf $OUT/r.tgz -C $OUT r
tail -3 $R/tests.txt; grep -i "failed\|error" $R/tests.txt | head -5; tail -3 $R/memcheck.txt
