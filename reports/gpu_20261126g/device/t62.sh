#!/usr/bin/env bash
# Session 2026-11-26g call 13: the review mend (fallback inside launch_warp): TRSV / POTRS tests.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 220 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trsv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
