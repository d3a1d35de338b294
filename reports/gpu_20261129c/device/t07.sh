#!/bin/bash
# Call 7: the blocking of the partial-assembly kernels (zones a block, components a pass) at
# 32^3, each variant checked against the reference (p_blocking.py).
source scripts/device_preamble.sh
D=reports/gpu_20261129c/device
timeout 100 python3 $D/p_blocking.py 32 > $R/blocking.md 2> $R/blocking.err; cat $R/blocking.md
tail -n 5 $R/blocking.err
tar czf $OUT/r.tgz -C $OUT r
