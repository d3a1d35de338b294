#!/bin/bash
# Call 1: does programmatic dependent launch shorten back-to-back memory-bound kernels?
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
timeout 200 python3 $D/p_pdl.py > $R/pdl.md 2>&1; echo "rc $?" >> $R/pdl.md
cat $R/pdl.md
tar czf $OUT/r.tgz -C $OUT r
