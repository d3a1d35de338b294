#!/usr/bin/env bash
# Session 2026-11-26g call 1: trsv_warp / gemv_n_warp row vectors (VEC). GPU tests of TRSV,
# GEMV, POTRS; sanitizer (smoke incl. every VEC instantiation); probe_trsv_vec; tuner for
# float32 square GEMV-N and TRSV (64..512, not installed here: the json comes back).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $R/gpu.txt
( timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 180 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_blas.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
wait $SAN
tail -2 $R/sanitizer.txt
timeout 120 python3 scripts/probe_trsv_vec.py --sizes 64,128,256,512 --output $R > $R/probe.txt 2>&1
cat $R/probe_trsv_vec.md
timeout 270 python3 scripts/tune_blas.py --stages trsv,gemv_square --dtypes float32,float64 --squares 64,128,256 --budget-s 235 --output $R/tune > $R/tune.txt 2>&1
tail -12 $R/tune.txt
tar czf $OUT/t50.tgz -C $OUT r
