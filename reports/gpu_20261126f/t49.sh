#!/usr/bin/env bash
# Session 2026-11-26f call 8: the patch in its own instantiations (tri_tile<..., PATCH>: LAUUM),
# TRMM and SYRK without it; against 7784f2c. Triangular GPU tests + sanitizer.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
( timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_keep.py -k "tile or lauum or syrk or trmm or potri" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
wait $SAN
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head; tail -2 $R/sanitizer.txt
OUT=$R/ab1 timeout 100 bash scripts/ab_kernels.sh run --ops trmm,lauum,syrk --sizes 96,128,256 --batches 10240 > /dev/null
cat $R/ab1/ab_kernels.md | head -40
tar czf $OUT/t49.tgz -C $OUT r
