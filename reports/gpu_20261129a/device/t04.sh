#!/bin/bash
# Call 4: gemm_stream reading a thread's 9 columns of B^T by 16-byte loads with the rows'
# padding (WIDE) -- the GEMM GPU tests, memcheck, and the kernels before (gemm_wide.patch
# reversed) against these on the 32x36 (9x36) products.
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && patch -s -R -d /tmp/oldk -p2 < $D/gemm_wide.patch
grep -c WIDE /tmp/oldk/gemm.cu kernels/gemm.cu
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "gemm or bulk_copy or stream or hydro" > $R/tests_gemm.txt 2>&1
echo "rc $?" >> $R/tests_gemm.txt; tail -2 $R/tests_gemm.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 reports/gpu_20261128k/device/p_stream_small.py > $R/memcheck_gemm.txt 2>&1
echo "rc $?" >> $R/memcheck_gemm.txt; grep -v " ok$" $R/memcheck_gemm.txt | tail -3
tar czf $OUT/r.tgz -C $OUT r
LINALG_KERNEL_DIR=/tmp/oldk timeout 120 python3 $D/p_stream_wide.py > $R/wide_old.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_stream_wide.py > $R/wide_new.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
paste -d'|' <(grep -E "^##|^- " $R/wide_old.md) <(grep -E "^##|^- " $R/wide_new.md)
