#!/usr/bin/env bash
# Session 2026-11-26i call 10: the one-vector POTRS on 3-D arrays (no views): POTRS / TRSV / keep tests.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trsv or potrs or posv" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt; tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r
