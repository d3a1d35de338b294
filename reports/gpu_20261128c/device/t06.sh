#!/bin/bash
# Session 2026-11-28c, call 6: the SYRK GPU tests on the final rules (gemm_small for float64
# op(A) = A to n = 47, A^T to 44) and the tri_cols bound tests once more on the final table.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 8 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_blas.py -k "syrk or (cols and trtri)" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head
