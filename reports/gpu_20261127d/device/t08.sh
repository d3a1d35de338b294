#!/bin/bash
# Call 8 (H100): float32 TRSM's recursion with tri_pair on its blocks (RECURSION_PAIR_BLOCKS):
# the TRSM GPU tests (every variant, dtype and path; our recursion forced at small batches).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 140 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests/linalg/test_gpu_triangular.py -k trsm > $R/tests_trsm.txt 2>&1; echo "rc $?" >> $R/tests_trsm.txt
tar czf $OUT/r.tgz -C $OUT r
tail -n 3 $R/tests_trsm.txt; grep "^FAILED" $R/tests_trsm.txt | head
