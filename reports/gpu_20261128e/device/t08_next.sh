#!/bin/bash
# Prepared for the next session (not run): tri_block staging 48 k rows for float64 n <= 48
# (four blocks an SM instead of three). Before the call, from the repository root:
#   git apply reports/gpu_20261128e/tri_block_rows48.patch
#   python3 -m pytest -q tests/linalg/test_tri_block_host.py      (host tests, nvcc)
# The A/B toggles BLOCK_SMALL_UPTO inside one process (64 rows = the kernel as before), so no
# old sources are needed. memcheck / racecheck on small_tri.py (TRMM and LAUUM at n = 40 take the
# 48 rows), the A/B (with LAUUM also on chol_tensor_lauum at n = 33-55), the GPU tests of
# tri_block's users. About 7 minutes.
source scripts/device_preamble.sh
D=reports/gpu_20261128e/device
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 100 $S --tool $tool --error-exitcode 9 --kernel-name kns=tri_ python3 reports/gpu_20261128d/device/small_tri.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_block_rows.py > $R/rows.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 250 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trmm or lauum or block or potri" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck.txt $R/racecheck.txt; cut -c1-170 $R/rows.md
