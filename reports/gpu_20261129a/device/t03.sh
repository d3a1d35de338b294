#!/bin/bash
# Call 3: GEMV-T on rows of 16-byte pieces (tile_gemv_t_pieces) -- the GEMV GPU tests,
# memcheck, the kernels before it (gemv_t_pieces.patch reversed) against these on T, and the
# public A/B of call 2's table entries (old_h200.json = the table before them).
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && patch -s -R -d /tmp/oldk -p2 < $D/gemv_t_pieces.patch
grep -c tile_gemv_t_pieces /tmp/oldk/gemv.cu kernels/gemv.cu
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "gemv" > $R/tests_gemv.txt 2>&1
echo "rc $?" >> $R/tests_gemv.txt; tail -2 $R/tests_gemv.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 reports/gpu_20261128k/device/p_gemv_stream_small.py > $R/memcheck_gemv.txt 2>&1
echo "rc $?" >> $R/memcheck_gemv.txt; grep -v " ok$" $R/memcheck_gemv.txt | tail -3
tar czf $OUT/r.tgz -C $OUT r
export OPS=T BATCHES=40960,262144
LINALG_KERNEL_DIR=/tmp/oldk timeout 120 python3 $D/p_gemv_pieces.py > $R/tpieces_old.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_gemv_pieces.py > $R/tpieces_new.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
paste -d'|' <(grep -E "^##|^- " $R/tpieces_old.md) <(grep -E "^##|^- " $R/tpieces_new.md) | grep -A1 "^##"
timeout 150 python3 $D/p_gemv_ab_squares.py reports/gpu_20261129a/old_h200.json > $R/gemv_table_ab.md 2> $R/gemv_table_ab.err
tar czf $OUT/r.tgz -C $OUT r
cat $R/gemv_table_ab.md
