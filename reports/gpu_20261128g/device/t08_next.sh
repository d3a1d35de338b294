#!/bin/bash
# Prepared for the next session (not run): tri_tile's idle warps (tile_idle_warps.patch: a warp
# whose 32 x 32 part lies wholly past n or nvec multiplies nothing -- its k range emptied once an
# item, no guard in the product loop, unlike the per-fragment skips that lost on 2026-11-26 and
# 2026-11-28d). Before the call, from the repository root:
#   D=reports/gpu_20261128g/device; mkdir -p $D/old
#   git show HEAD:kernels/trmm.cu > $D/old/trmm.cu
#   git apply reports/gpu_20261128g/tile_idle_warps.patch
# and carry [".whl", "reports/gpu_20261128g/device/old"] (do not commit device/old/). memcheck and
# racecheck on the forced / chunked tile tests at n = 65, the GPU tests of the tiles' users, the
# in-process A/B (p_kernel_ab.py, both dtypes, n = 72-256); TILE_CHUNKED with 1-32 vectors and
# SYRK's k != n (p_chunked_shapes.py: the rule was measured with n vectors, k = n, only; narrow
# it by the vector count or k where it loses). About 9 minutes. Keep the patch only
# if the padded sizes gain and the full ones (128, 256) stay within 1 %; else revert it.
source scripts/device_preamble.sh
D=reports/gpu_20261128g/device
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 100 $S --tool $tool --error-exitcode 9 --kernel-name kns=tri_tile python3 -m pytest -q -p no:cacheprovider -m gpu tests/linalg/test_gpu_triangular.py -k "(forced or chunked) and 65" > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/old/trmm.cu /tmp/oldk/
timeout 200 python3 $D/p_kernel_ab.py --old /tmp/oldk > $R/ab.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 $D/p_chunked_shapes.py > $R/shapes.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 250 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk or chunked" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck.txt $R/racecheck.txt; cut -c1-150 $R/ab.md $R/shapes.md
