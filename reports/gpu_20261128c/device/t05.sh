#!/bin/bash
# Session 2026-11-28c, call 5: the GPU tests of the tri_cols bounds (commit "tri_cols bounds
# between the measured sizes") and SYRK; the public cells they move; SYRK with op(A) = A^T at
# n = 33-47 (float64) by each path.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu -n 8 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k "cols or trtri or (trsm and float32)" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 reports/gpu_20261128c/device/p_trmm_syrk.py --trmm "" --syrk 33,36,40,44,47 --trans T > $R/syrk_t.md 2>&1
echo "rc $?" >> $R/syrk_t.md
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 scripts/bench_small_batch.py --ops trsm --dtype float32 --sizes 80,100,150,180 --batches 32,64,100 --output $R/small_trsm32 > /dev/null 2>&1
timeout 60 python3 scripts/bench_small_batch.py --ops trtri --dtype float64 --sizes 200,240 --batches 50,64,100 --output $R/small_trtri64 > /dev/null 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; cat $R/syrk_t.md $R/small_trsm32/small_batch.md $R/small_trtri64/small_batch.md
