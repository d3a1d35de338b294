#!/bin/bash
# Call 3 (H100): the GPU suite on the tree with chol_tensor_inverse taking POTRI / POTI (the
# public calls, hydro's energy-mass inverses, test_gpu_keep) but test_gpu_cholesky.py, of which
# the chol_tensor_inverse path's tests (the other paths' POTRI / POTI tests run with its rule
# off, their code unchanged); then the experiment: chol_tensor with the diagonal chain's pivot
# by a shuffle (-DCT_PIVOT_SHUFFLE=1) against the kernel as it is, phases by -DCT_PROFILE.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 280 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests \
  --ignore=tests/linalg/test_gpu_cholesky.py > $R/tests_suite.txt 2>&1
echo "rc $?" >> $R/tests_suite.txt
timeout 170 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py \
  -k "tensor_inverse" > $R/tests_inverse.txt 2>&1
echo "rc $?" >> $R/tests_inverse.txt
for d in "" CT_PIVOT_SHUFFLE=1 "" CT_PIVOT_SHUFFLE=1; do
  timeout 60 python3 scripts/probe_chol_tensor.py profile --sizes 64,96,128 --batches 10240 \
    --defines "$d" >> $R/pivot_profile.md 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_suite.txt $R/tests_inverse.txt
grep -hE "^FAILED|Error" $R/tests_suite.txt $R/tests_inverse.txt | head -10
grep "^| float" $R/pivot_profile.md
