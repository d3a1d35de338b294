#!/bin/bash
# Call 11: the final tree's GEMV GPU tests (the vendor path back to its one-row form after call 9,
# with call 9's new tests: padded rows into a contiguous y, shapes of one row or column).
source scripts/device_preamble.sh
timeout 100 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 -m gpu \
  tests/linalg/test_gpu_blas.py -k "gemv" > $R/pytest.txt 2>&1
tail -n 4 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
