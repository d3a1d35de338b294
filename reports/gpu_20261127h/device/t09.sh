#!/bin/bash
# Call 9 (H100): ct_factor's diagonal blocks by ct_potrf_paired (two pivots a warp step, one
# barrier and shared-memory round trip for both) instead of chol_potrf_phase: the shared-memory
# kernels' tests (both dtypes), then A/B against the committed sources (out/device/kernels_now)
# in one run: chol_tensor (POTRF), POSV by chol_tensor_solve, POTI by chol_tensor_inverse.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py \
  -k "tensor" > $R/tests_tensor.txt 2>&1
echo "rc $?" >> $R/tests_tensor.txt
for src in kernels_now paired; do
  if [ $src = paired ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
  echo "## $src" | tee -a $R/time_ab.md $R/solve_ab.md $R/inverse_ab.md > /dev/null
  timeout 60 python3 scripts/probe_chol_tensor.py time --sizes 64,96,128 --batches 10240 >> $R/time_ab.md 2>&1
  timeout 60 python3 scripts/probe_chol_tensor.py solve --sizes 64,96 --batches 10240 >> $R/solve_ab.md 2>&1
  timeout 60 python3 scripts/probe_chol_tensor.py inverse --sizes 64,128 --batches 10240 >> $R/inverse_ab.md 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_tensor.txt
grep -hE "^FAILED|Error" $R/tests_tensor.txt | head -10
grep -hE "^## |^\| [0-9]|^\| pos|^\| poti|differs" $R/time_ab.md $R/solve_ab.md $R/inverse_ab.md
