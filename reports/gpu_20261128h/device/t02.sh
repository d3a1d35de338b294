#!/bin/bash
# Call 2: the idle-warp skip of call 1 (tile_idle_warps.patch) kept on the chunked grid only
# (TT_CHUNKED: n = 65-96), so the other launches compile as before. memcheck / racecheck on the
# forced chunked launches at n = 65; in-process A/B against the start tree's trmm.cu (device/old,
# carried, not committed); the GPU tests of the tiles' users.
source scripts/device_preamble.sh
D=reports/gpu_20261128g/device
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 150 $S --tool $tool --error-exitcode 9 --kernel-name kns=tri_tile python3 -m pytest -q -p no:cacheprovider -m gpu tests/linalg/test_gpu_triangular.py -k "forced and 65 and True" > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/old/trmm.cu /tmp/oldk/
timeout 150 python3 $D/p_kernel_ab.py --old /tmp/oldk --sizes 72,80,88,96,128,256 > $R/ab.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 250 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk or chunked" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck.txt $R/racecheck.txt; cut -c1-150 $R/ab.md
