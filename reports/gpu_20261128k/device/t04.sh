#!/bin/bash
# Call 4: the public call's overhead on the tall hydro GEMM (p_public_overhead.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 120 python3 $D/p_public_overhead.py > $R/public_overhead.txt 2>&1
echo "rc $?" >> $R/public_overhead.txt; cat $R/public_overhead.txt | cut -c1-160
tar czf $OUT/r.tgz -C $OUT r
