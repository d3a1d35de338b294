#!/bin/bash
# Call 5: the public TRMM at the sizes TILE_RULES' new fills moved (n = 72-160, both dtypes,
# 10240 matrices) and float32 on tri_tile's persistent grid at n <= 64 (TILE_ONE_TILE has
# float64 only).
source scripts/device_preamble.sh
D=reports/gpu_20261128f/device
timeout 90 python3 scripts/bench_cholesky.py --dtypes float64,float32 --ops trmm --sizes 72,80,96,112,160 --batches 10240 --output $R/pubrules > $R/pubrules.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_one_tile.py --dtype float32 --sizes 48,56,62,64 --batches 10240,100000 --trmm LNl,UTr > $R/one32.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cut -c1-150 $R/pubrules/bench_cholesky.md; cut -c1-170 $R/one32.md
