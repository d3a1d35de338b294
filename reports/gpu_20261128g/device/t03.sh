#!/bin/bash
# Call 3: the committed TILE_CHUNKED rule and fills. memcheck of the chunked GPU tests at n = 65
# and of a public run with runs of several items (p_chunked_public.py); the GPU tests of the
# tiles' users; tri_tile against the dense path at 104-120. About 6 minutes.
source scripts/device_preamble.sh
D=reports/gpu_20261128g/device
S=/usr/local/cuda/bin/compute-sanitizer
timeout 100 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 -m pytest -q -p no:cacheprovider -m gpu tests/linalg/test_gpu_triangular.py -k "chunked and 65" > $R/memcheck.txt 2>&1
echo "rc $?" >> $R/memcheck.txt
timeout 100 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 $D/p_chunked_public.py > $R/memcheck_public.txt 2>&1
echo "rc $?" >> $R/memcheck_public.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 250 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk or chunked" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 scripts/probe_trmm_tile.py rules 104,112,120 float64,float32 > $R/rules.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck.txt; tail -n 3 $R/memcheck_public.txt; grep RULES $R/rules.txt | cut -c1-250
