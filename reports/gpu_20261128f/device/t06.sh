#!/bin/bash
# Call 6: float32 TRMM at n = 64 on tri_tile's persistent grid against tri_block over the batch
# counts, every variant (call 5 had two variants at 10240 / 100000: 1.07-1.16x).
source scripts/device_preamble.sh
D=reports/gpu_20261128f/device
timeout 90 python3 $D/p_one_tile.py --dtype float32 --sizes 64 --batches 1000,3000,10240,30000 --trmm LNl,UNl,LTl,UTl,LNr,UNr,LTr,UTr > $R/one32_64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cut -c1-170 $R/one32_64.md
