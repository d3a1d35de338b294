#!/usr/bin/env bash
# Session 2026-11-26f call 5: tri_tile TT_PATCH (tiles the triangle's edge crosses copied whole,
# 16 bytes a copy, then the outside places patched in shared memory) against 7784f2c.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
( timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
wait $SAN
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head; tail -2 $R/sanitizer.txt
timeout 60 python3 scripts/probe_trmm_tile.py check > $R/check.txt 2>&1; tail -3 $R/check.txt
OUT=$R/ab1 timeout 200 bash scripts/ab_kernels.sh run --ops trmm,lauum,potri --sizes 65,96,128,192,256 --batches 10240 > /dev/null
cat $R/ab1/ab_kernels.md | head -40
timeout 120 python3 scripts/probe_trmm_tile.py rules 72,80,96,112,160 float64,float32 > $R/rules.txt 2>&1; tail -40 $R/rules.txt
tar czf $OUT/t46.tgz -C $OUT r
