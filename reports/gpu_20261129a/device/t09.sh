#!/bin/bash
# Call 9: the square GEMV-T classes: the table's call against gemv_stream / gemv_staged (rows
# by pieces), GPU time, sizes 4, 5, 7, 8, 27, 32.
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
cat > /tmp/sq_t.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261129a/device"))
import p_gemv_pieces as base
base.SHAPES = ((4, 4), (5, 5), (8, 8), (7, 7), (32, 32), (27, 27))
base.OPS = ("T",)
base.main()
PY
BATCHES=40960,262144 timeout 150 python3 /tmp/sq_t.py > $R/pieces_squares_t.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
grep -A2 "^##" $R/pieces_squares_t.md | grep -v "^--"
