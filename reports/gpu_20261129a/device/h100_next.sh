#!/bin/bash
# Prepared for the next session (not run): on an H100, if one is lent. This session's GEMV
# entries (gemv_stream on rows of 16-byte pieces) were measured on the H200 only; the H100's
# table still holds its team / flat / staged entries there. First
# reports/gpu_20261128k/device/h100_next.sh (gemm_stream and the GEMV ring on the hydro
# shapes); then this: the table's call against gemv_stream / gemv_staged on the hydro and
# square classes, N and T, GPU time (about 3 minutes). Then write entries where gemv_stream
# gains >= 10 % at 40 960 and 262 144 matrices, and A/B them in public
# (device/p_gemv_ab_squares2.py with the H100's table before as OLD_JSON, batches
# 10240,40960,262144), as calls 7-10 did on the H200.
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
cp linalg/tuning/nvidia_h100_80gb_hbm3.json $R/old_h100.json
OPS=N,T BATCHES=40960,262144 timeout 150 python3 $D/p_gemv_pieces.py > $R/pieces.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/sq.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261129a/device"))
import p_gemv_pieces as base
base.SHAPES = ((4, 4), (7, 7), (8, 8), (27, 27), (32, 32))
base.OPS = ("N", "T")
base.main()
PY
BATCHES=40960,262144 timeout 150 python3 /tmp/sq.py > $R/pieces_squares.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
grep -A2 "^##" $R/pieces.md $R/pieces_squares.md | grep -v staged
