#!/bin/bash
# Call 7 (H100): the whole test_gpu_cholesky.py on the final tree, with compute-sanitizer
# memcheck and synccheck on the staged float loads (the shared-memory kernels' float32 tests at
# n = 40 / 97) beside it.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
K="float32 and ((test_tensor_inverse and threads_needed and (-40- or -97-)) or (test_tensor_solve and operators and (33-2 or 96-100)) or (test_potrf_not_spd_mid_batch and tensor-100))"
for tool in memcheck synccheck; do
  ( timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
      -m gpu tests/linalg/test_gpu_cholesky.py -k "$K" > $R/sanitize_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitize_$tool.txt ) &
done
timeout 520 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py \
  > $R/tests_cholesky.txt 2>&1
echo "rc $?" >> $R/tests_cholesky.txt
wait
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_cholesky.txt
grep -hE "^FAILED|Error" $R/tests_cholesky.txt | head -10
for tool in memcheck synccheck; do echo "== $tool"; tail -n 3 $R/sanitize_$tool.txt; done
