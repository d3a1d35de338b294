#!/bin/bash
# Call 3: the statement of gebrd_unpack's accumulation after which CuPy's pool grows.
source scripts/device_preamble.sh
timeout 200 python3 reports/gpu_20261128i/device/p_unpack_steps.py > $R/steps.txt 2>&1
echo "rc $?" >> $R/steps.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/steps.txt
