#!/bin/bash
# Prepared for the next session (not run): what call 5 left unfinished on the final tri_tile
# (TT_RUNS) -- memcheck of the small runs with time to finish, the GPU tests of the tiles' users
# in full. About 7 minutes; device/t07_next.sh holds the measurements.
source scripts/device_preamble.sh
D=reports/gpu_20261128e/device
S=/usr/local/cuda/bin/compute-sanitizer
timeout 150 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_ python3 reports/gpu_20261128d/device/small_tri.py > $R/memcheck_tri.txt 2>&1; echo "rc $?" >> $R/memcheck_tri.txt
timeout 60 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 $D/small_tile.py > $R/memcheck_tile.txt 2>&1; echo "rc $?" >> $R/memcheck_tile.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 300 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck_*.txt
