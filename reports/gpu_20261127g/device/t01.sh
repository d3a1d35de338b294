#!/bin/bash
# Call 1 (H100): the GEBRD GPU tests on the host-code refactor of 64d2f1a (_panels_end); the new
# kernels/potrf.cu chol_tensor_solve (POSV / POTRS with several right-hand sides, 33..128, one
# launch) tested (the "tensor" and "tensor_solve" paths of test_gpu_cholesky.py and
# test_tensor_solve), compute-sanitizer memcheck on a small run of it, and timed against the
# paths before it (scripts/probe_chol_tensor.py solve).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_bidiag.py \
  > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_cholesky.py \
  -k "tensor" > $R/tests_tensor.txt 2>&1; echo "rc $?" >> $R/tests_tensor.txt
( timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
    -m gpu tests/linalg/test_gpu_cholesky.py -k "test_tensor_solve and (33-2 or 40-70 or 96-100)" \
    > $R/sanitize_solve.txt 2>&1; echo "rc $?" >> $R/sanitize_solve.txt ) &
timeout 240 python3 scripts/probe_chol_tensor.py solve --sizes 33,48,64,80,96,128 \
  --batches 1000,10240 --output $R/solve_float64.md > $R/solve_log.txt 2>&1
timeout 100 python3 scripts/probe_chol_tensor.py solve --dtype float32 --sizes 64,128 \
  --batches 10240 --output $R/solve_float32.md >> $R/solve_log.txt 2>&1
wait
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_bidiag.txt $R/tests_tensor.txt $R/sanitize_solve.txt
grep -E "^FAILED|Error" $R/tests_tensor.txt | head -20
cat $R/solve_log.txt | grep -v "^$" | tail -40
