#!/bin/bash
# Prepared for the next session (not run): on an H100, if one is lent (every number of the
# sessions 2026-11-28f and g came from the H200; the README's table is the H100's). TILE_CHUNKED
# against a block an item at n = 66-128 in both dtypes, the tile fills at 72-120 on the committed
# grid, and the public TRMM / SYRK / LAUUM at 72-128. About 5 minutes. Narrow or widen
# TILE_CHUNKED and the fills where the H100 disagrees (by GPU family if the two GPUs disagree).
source scripts/device_preamble.sh
P=reports/gpu_20261128f/device/p_tile_chunked.py
timeout 100 python3 $P --sizes 66,72,80,96,112,128 > $R/c64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 80 python3 $P --dtype float32 --sizes 72,80,96,112,128 > $R/c32.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/probe_trmm_tile.py rules 72,80,88,96,104,112,120 float64,float32 > $R/rules.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/bench_cholesky.py --dtypes float64,float32 --ops trmm,syrk,lauum --sizes 72,80,88,96,112,128 --batches 10240 --output $R/pub > $R/pub.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cut -d'|' -f2-7 $R/c64.md $R/c32.md; grep RULES $R/rules.txt | cut -c1-250; cut -c1-150 $R/pub/bench_cholesky.md
