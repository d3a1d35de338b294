#!/bin/bash
# Call 1 (H100): chol_tensor_inverse (POTRI, POTI in one launch) -- its GPU tests, then timed
# against the paths before it (threads variants, n = 33..128, batch 100 / 1000 / 10240).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py \
  -k "tensor_inverse and (potri or not_spd or test_tensor_inverse)" > $R/tests_inverse.txt 2>&1
echo "rc $?" >> $R/tests_inverse.txt
timeout 260 python3 scripts/probe_chol_tensor.py inverse --sizes 33,64,96,128 --batches 100,1000,10240 \
  --output $R/inverse.md > $R/inverse_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_inverse.txt
grep -E "^FAILED|Error" $R/tests_inverse.txt | head -10
cat $R/inverse_log.txt | tail -30
