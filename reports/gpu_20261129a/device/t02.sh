#!/bin/bash
# Call 2: GEMV-N on rows of 16-byte pieces (tile_gemv) -- the GEMV GPU tests, memcheck, and
# the kernels before (gemv_pieces.patch reversed, LINALG_KERNEL_DIR) against these.
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && patch -s -R -d /tmp/oldk -p2 < $D/gemv_pieces.patch
grep -c tile_gemv /tmp/oldk/gemv.cu kernels/gemv.cu
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "gemv" > $R/tests_gemv.txt 2>&1
echo "rc $?" >> $R/tests_gemv.txt; tail -2 $R/tests_gemv.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 reports/gpu_20261128k/device/p_gemv_stream_small.py > $R/memcheck_gemv.txt 2>&1
echo "rc $?" >> $R/memcheck_gemv.txt; grep -v " ok$" $R/memcheck_gemv.txt | tail -3
tar czf $OUT/r.tgz -C $OUT r
LINALG_KERNEL_DIR=/tmp/oldk timeout 150 python3 $D/p_gemv_pieces.py > $R/pieces_old.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_gemv_pieces.py > $R/pieces_new.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
paste -d'|' <(grep -E "^##|^- " $R/pieces_old.md) <(grep -E "^##|^- " $R/pieces_new.md) | head -150
