#!/bin/bash
# Call 7: gemv_stream with rows by 16-byte pieces against the H200 table's square classes 4, 8
# and 32 (N), GPU time.
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
BATCHES=40960,262144,1048576 timeout 150 python3 $D/p_gemv_pieces_squares.py > $R/pieces_squares.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
grep -A2 "^##" $R/pieces_squares.md | grep -v staged
