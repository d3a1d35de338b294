#!/bin/bash
# Call 8: the final tree (float32 rule, the tests' fixes): the triangular GPU tests and the GPU
# sweep's TRMM draws.
source scripts/device_preamble.sh
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_triangular.py > $R/tests_triangular.txt 2>&1
tail -n 2 $R/tests_triangular.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_sweep.py -k trmm > $R/tests_sweep_trmm.txt 2>&1
tail -n 2 $R/tests_sweep_trmm.txt
tar czf $OUT/r.tgz -C $OUT r
