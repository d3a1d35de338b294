#!/bin/bash
# Call 5 (H100): POSV by operators with cts_operators out of line (cts_operators_call; inlined
# after ct_factor it spilled at NT = 2) against substitution (the probe's variants, n = 33..96,
# n right-hand sides), then the whole test_gpu_cholesky.py on the final kernels.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 120 python3 scripts/probe_chol_tensor.py solve --sizes 33,48,64,96 --batches 1000,10240 \
  --output $R/solve.md > $R/solve_log.txt 2>&1
timeout 420 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py \
  > $R/tests_cholesky.txt 2>&1; echo "rc $?" >> $R/tests_cholesky.txt
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_cholesky.txt
grep -E "^FAILED|rror" $R/tests_cholesky.txt | head -10
grep "^| posv\|differs" $R/solve_log.txt
