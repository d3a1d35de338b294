#!/bin/bash
# Prepared for the next session (not run): this session's TRMM rules were measured on the H200
# only (the only GPU lent). On an H100 (or again on an H200) check them: TILE_RULES' fills at the
# sizes they moved (probe_trmm_tile.py rules), TILE_ONE_TILE against tri_block in place at
# n = 52-64 with 1, 8 and n vectors over the batch counts (p_one_tile.py), and the public TRMM
# at n = 48-64 and at the fills' sizes. About 4 minutes. Lower TILE_ONE_TILE's first n or its
# batch count only where every variant and vector count wins.
source scripts/device_preamble.sh
D=reports/gpu_20261128f/device
timeout 120 python3 scripts/probe_trmm_tile.py rules 72,80,96,112,160 float64,float32 > $R/rules.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_one_tile.py --sizes 52,54,56,58,62,64 --batches 1000,3000,10240 --vectors 1,8,n --inplace > $R/one.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 scripts/bench_cholesky.py --dtypes float64,float32 --ops trmm --sizes 48,56,62,64,72,96,112,160 --batches 10240 --output $R/pub > $R/pub.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; grep RULES $R/rules.txt | cut -c1-300; cut -d'|' -f2-8 $R/one.md; cut -c1-150 $R/pub/bench_cholesky.md
