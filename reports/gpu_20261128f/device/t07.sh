#!/bin/bash
# Call 7: TILE_ONE_TILE with fewer vectors than n (the rule was measured with n x n B) and
# against tri_block in place (the public default): float64 n = 48 / 56 / 64 with 1-32 vectors,
# n = 64 at 1000 / 2000 matrices, float32 n = 64 with 8-32 vectors.
source scripts/device_preamble.sh
D=reports/gpu_20261128f/device
timeout 100 python3 $D/p_one_tile.py --sizes 48,56,64 --batches 10240 --vectors 1,4,8,16,32,n --inplace > $R/vec64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 40 python3 $D/p_one_tile.py --sizes 48,64 --batches 1000,2000,3000 --inplace > $R/small64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 40 python3 $D/p_one_tile.py --dtype float32 --sizes 64 --batches 3000,10240 --vectors 8,16,32,n --inplace > $R/vec32.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; for f in vec64 small64 vec32; do cut -d'|' -f2-8 $R/$f.md | sed 's/cupy.matmul/mm/'; done
