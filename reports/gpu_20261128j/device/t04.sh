#!/bin/bash
# Call 4: the GEMV hydro shapes tuned on the H200 (the H200 runs the H100's table): the tuner's
# gemv_hydro stage, both dtypes, written to $R/tune (not installed: call 5 compares).
source scripts/device_preamble.sh
timeout 470 python3 scripts/tune_blas.py --stages gemv_hydro --budget-s 430 --output $R/tune \
  > $R/tune.txt 2>&1; echo "rc $?" >> $R/tune.txt
tar czf $OUT/r.tgz -C $OUT r
tail -25 $R/tune.txt
