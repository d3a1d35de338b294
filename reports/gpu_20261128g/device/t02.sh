#!/bin/bash
# Call 2: TILE_CHUNKED's bounds. The chunked grid against a block an item at the sizes call 1
# left out (float64 66-120, float32 72-120, batch 10240) and on 1000 / 50000 matrices at n = 72 /
# 100; then, with the rule (65..100) in place, every TRMM variant and LAUUM by tri_tile against
# the dense path (TILE_RULES' fills), and the public TRMM / LAUUM at 72-100 against the dense
# product. About 5 minutes.
source scripts/device_preamble.sh
P=reports/gpu_20261128f/device/p_tile_chunked.py
timeout 100 python3 $P --sizes 66,80,88,96,112,120 > $R/c64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 70 python3 $P --dtype float32 --sizes 72,80,96,112,120 > $R/c32.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
for b in 1000 50000; do
  timeout 50 python3 $P --sizes 72,100 --batch $b > $R/cb$b.md 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/probe_trmm_tile.py rules 72,80,88,96 float64,float32 > $R/rules.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 scripts/bench_cholesky.py --dtypes float64,float32 --ops trmm,lauum --sizes 72,80,96,100 --batches 10240 --output $R/pub > $R/pub.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cut -d'|' -f2-7 $R/c64.md $R/c32.md $R/cb*.md; grep -v "^ *$" $R/rules.txt | cut -c1-200 | tail -40; cut -c1-150 $R/pub/bench_cholesky.md
