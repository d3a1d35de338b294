#!/bin/bash
# Call 10 (H100): the GEBRD GPU tests after the plan helper refactor, with the default path on
# 1100 x 45 / 45 x 1100 (panels, then gebrd_team for the last columns).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests/linalg/test_gpu_bidiag.py > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
tar czf $OUT/r.tgz -C $OUT r
tail -n 3 $R/tests_bidiag.txt; grep -E "^FAILED" $R/tests_bidiag.txt | head
