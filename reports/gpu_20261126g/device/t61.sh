#!/usr/bin/env bash
# Session 2026-11-26g call 12: the scalar rows (operands without the vector) -- tests and timing.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py -k "trsv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
timeout 150 python3 out/device/p_scalar_rows.py > $R/scalar_rows.txt 2>&1; echo "rc=$?" >> $R/scalar_rows.txt
cat $R/scalar_rows.txt
