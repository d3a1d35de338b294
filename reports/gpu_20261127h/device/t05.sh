#!/bin/bash
# Call 5 (H100): float input of chol_tensor / chol_tensor_solve / chol_tensor_inverse by cp.async
# into staging slots in the block rows, widened in shared memory (ct_load; float64 PTX
# unchanged): the shared-memory kernels' GPU tests (every "tensor" path and their own tests, both
# dtypes) with racecheck on the float ones beside them, then float32 timed against the paths
# before each kernel, and chol_tensor_solve (float64) at batch 10 / 30.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
cat > /tmp/san.py <<'PY'
import sys
import pytest
import linalg._cuda._compile as compile_
compile_.COMPILE_OPTIONS = compile_.COMPILE_OPTIONS + ("-lineinfo",)
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-m", "gpu", "tests/linalg/test_gpu_cholesky.py",
                      "-k", "float32 and ((test_tensor_inverse and threads_needed and (-40- or -97-)) or "
                            "(test_tensor_solve and operators and (33-2 or 96-100)) or "
                            "(test_potrf_not_spd_mid_batch and tensor-100))"]))
PY
( timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 python3 /tmp/san.py > $R/sanitize_racecheck.txt 2>&1
  echo "rc $?" >> $R/sanitize_racecheck.txt ) &
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_cholesky.py \
  -k "tensor" > $R/tests_tensor.txt 2>&1
echo "rc $?" >> $R/tests_tensor.txt
wait
timeout 100 python3 scripts/probe_chol_tensor.py time --dtype float32 --sizes 48,64,96,128 --batches 1000,10240 \
  --output $R/time_float32.md > $R/probe_log.txt 2>&1
timeout 100 python3 scripts/probe_chol_tensor.py inverse --dtype float32 --sizes 33,64,96,128 \
  --batches 1000,10240 --output $R/inverse_float32.md >> $R/probe_log.txt 2>&1
timeout 100 python3 scripts/probe_chol_tensor.py solve --dtype float32 --sizes 40,64,96,128 --batches 10240 \
  --output $R/solve_float32.md >> $R/probe_log.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py solve --sizes 40,64,96 --batches 10,30 \
  --output $R/solve_small.md >> $R/probe_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_tensor.txt $R/sanitize_racecheck.txt
grep -hE "^FAILED|Error" $R/tests_tensor.txt | head -10
grep -A3 "Race reported" $R/sanitize_racecheck.txt | grep -o "cu:[0-9]*\|Race reported [a-zA-Z ]*" | sort | uniq -c | head
grep "^| \|differs" $R/probe_log.txt | grep -v "^| op\|^| n \|^|---"
