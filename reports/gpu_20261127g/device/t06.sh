#!/bin/bash
# Call 6 (H100): review refactor of chol_tensor_solve (the strip update and the update loops as
# cts_strip_update / cts_update_below / cts_update_above; the same floating-point and memory
# instructions in PTX, index arithmetic reordered): the tensor_solve GPU tests and the probe at
# n = 64 / 96 against call 3's numbers.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py \
  -k "tensor_solve" > $R/tests_solve.txt 2>&1; echo "rc $?" >> $R/tests_solve.txt
timeout 60 python3 scripts/probe_chol_tensor.py solve --sizes 64,96 --batches 10240 \
  --output $R/solve.md > $R/solve_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_solve.txt; grep -E "^FAILED|rror" $R/tests_solve.txt | head
grep "^| p\|differs" $R/solve_log.txt
