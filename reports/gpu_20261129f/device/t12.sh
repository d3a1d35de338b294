#!/bin/bash
# Call 12: the vendor GEMV tests merged into one (test_vendor_gemv_writes_y_in_place).
source scripts/device_preamble.sh
timeout 60 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 -m gpu \
  tests/linalg/test_gpu_blas.py -k "vendor_gemv or gemv_both_paths" > $R/pytest.txt 2>&1
tail -n 4 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
