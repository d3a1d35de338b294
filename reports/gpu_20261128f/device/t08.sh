#!/bin/bash
# Call 8: where TILE_ONE_TILE should start against tri_block in place (call 7: n = 48 lost at
# 3000 matrices in place, 0.90-1.00x; n = 56 won 1.04-1.19x but with one vector): float64
# n = 50 / 52 / 54 / 58 with 1, 8 and n vectors at 3000 and 10240 matrices.
source scripts/device_preamble.sh
D=reports/gpu_20261128f/device
timeout 120 python3 $D/p_one_tile.py --sizes 50,52,54,58 --batches 3000,10240 --vectors 1,8,n --inplace > $R/start.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cut -d'|' -f2-8 $R/start.md | awk -F'|' '{print $1,$3,$4,$5,$7}'
