#!/bin/bash
# Prepared for the next session (not run): tri_tile's chunked persistent grid above one tile a
# matrix. Before the call, from the repository root:
#   D=reports/gpu_20261128f/device; mkdir -p $D/old
#   git show HEAD:kernels/trmm.cu > $D/old/trmm.cu
#   git apply reports/gpu_20261128f/tile_chunked.patch
#   python3 -m pytest -q tests/linalg/test_cuda_dispatch.py -k "chunked or persistent"
# (device/old/ is not committed.) memcheck / racecheck on small chunked runs, the A/B of the
# chunked grid against a block an item (p_tile_chunked.py, both dtypes), the committed launch
# with the patched kernel against the old kernel (the flag's extra registers: 154-158 -> 158-164
# by ptxas, no spills), the GPU tests of the tiles' users. About 8 minutes. Keep TILE_CHUNKED
# (as a rule by n, op and dtype) only where it wins every variant; else revert the patch.
source scripts/device_preamble.sh
D=reports/gpu_20261128f/device
S=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 90 $S --tool $tool --error-exitcode 9 --kernel-name kns=tri_tile python3 -m pytest -q -p no:cacheprovider -m gpu tests/linalg/test_gpu_triangular.py -k "chunked and 130" > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_tile_chunked.py > $R/chunked64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_tile_chunked.py --dtype float32 --sizes 100,128,256 > $R/chunked32.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/old/trmm.cu /tmp/oldk/
for turn in 1 2; do
  for tree in old new; do
    if [ $tree = old ]; then export LINALG_KERNEL_DIR=/tmp/oldk; else unset LINALG_KERNEL_DIR; fi
    timeout 30 python3 reports/gpu_20261128d/device/p_ragged.py --sizes 100,200 --batches 10240 --trmm LNl,UNr --lauum L --syrk > $R/item_${tree}$turn.md 2>&1
  done
done
unset LINALG_KERNEL_DIR
tar czf $OUT/r.tgz -C $OUT r
timeout 240 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck.txt $R/racecheck.txt; cut -c1-150 $R/chunked64.md $R/chunked32.md
