#!/bin/bash
# Call 5: p_public_ab.py (TILE_CHUNKED on / off in one process: the public TRMM as the benchmark
# times it, tile_trmm on the factor and on a full A). About 2 minutes.
source scripts/device_preamble.sh
timeout 200 python3 reports/gpu_20261128g/device/p_public_ab.py > $R/public_ab.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt $R/public_ab.md
