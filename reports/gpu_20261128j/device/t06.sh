#!/bin/bash
# Call 6: the square GEMV-N classes tuned on the H200 (tune_blas.py gemv_square, both dtypes),
# written to $R/tune (not installed: the classes that beat the H100's entry are picked after).
source scripts/device_preamble.sh
timeout 400 python3 scripts/tune_blas.py --stages gemv_square --budget-s 360 --output $R/tune \
  > $R/tune.txt 2>&1; echo "rc $?" >> $R/tune.txt
tar czf $OUT/r.tgz -C $OUT r
tail -20 $R/tune.txt
