#!/bin/bash
# Prepared for the next session (not run): the measurements the edge-tile runs (TT_RUNS) may have
# moved -- TILE_RULES' fills (tri_tile against the dense path at the n the fills keep off the
# tiles: float64 72-96 and 160, float32 72-112 and 160; probe_trmm_tile.py rules) and tri_tile
# against tri_block for float64 TRMM at n = 60-63 (where TILE_FULL_FROM could reach below 64);
# tri_block's shared buffers for float64 TRMM on the H200 (p_block_buffers.py); tri_tile with a
# persistent grid at n <= 64 (p_tile_persist.py). About 7 minutes.
source scripts/device_preamble.sh
D=reports/gpu_20261128e/device
timeout 200 python3 scripts/probe_trmm_tile.py rules 72,80,96,112,160 float64,float32 > $R/rules.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_block_tile.py --sizes 60,61,62,63 --batches 3000,10240 --lauum "" > $R/bt60.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_block_buffers.py > $R/buffers.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_tile_persist.py > $R/persist.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cat $R/buffers.md $R/persist.md; grep RULES $R/rules.txt | cut -c1-300; cut -c1-160 $R/bt60.md
