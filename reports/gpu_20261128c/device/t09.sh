#!/bin/bash
# Session 2026-11-28c, call 9 (review mend): rows_take serves LEFT_RULES, TENSOR_TRSM_RULES and
# TENSOR_LAUUM_RULES; the float64 GPU tests whose fixtures set those tables.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 120 python3 -m pytest -q -p no:cacheprovider -m gpu -n 12 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k "(tensor_tri or tensor_trsm) and float64" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head
