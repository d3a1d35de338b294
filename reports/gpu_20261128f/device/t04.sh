#!/bin/bash
# Call 4: TILE_ONE_TILE (float64 TRMM n = 48..64 from 3000 matrices on tri_tile's persistent
# grid, rows 16-byte aligned) and TILE_RULES' lower fills: memcheck / racecheck on the persistent
# grid, the probe over n = 40-64 and batch counts, the public bench at n = 48-64, the GPU tests
# of the tiles' users.
source scripts/device_preamble.sh
D=reports/gpu_20261128f/device
S=/usr/local/cuda/bin/compute-sanitizer
timeout 60 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 $D/small_persist.py 48,61,64 > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
timeout 40 $S --tool racecheck --error-exitcode 9 --kernel-name kns=tri_tile python3 $D/small_persist.py 62 float64 > $R/racecheck.txt 2>&1; echo "rc $?" >> $R/racecheck.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_one_tile.py > $R/one64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 50 python3 scripts/bench_cholesky.py --dtypes float64 --ops trmm --sizes 48,56,62,64 --batches 10240,100000 --output $R/pub > $R/pub.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 240 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck.txt $R/racecheck.txt; grep -c "|" $R/one64.md; ls $R/pub
