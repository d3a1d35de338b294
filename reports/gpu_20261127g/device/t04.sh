#!/bin/bash
# Call 4 (H100): final chol_tensor_solve settings (POTRS by operators n = 33..128, POSV by
# substitution 33..96, from 2 matrices; ct_factor's failure flag by atomicCAS): the "tensor"
# GPU tests (chol_tensor and chol_tensor_solve paths), racecheck with line numbers, the probe at
# few right-hand sides (nrhs 2 / 8 / 32) and at batch 2 / 10, and the benchmark's POTRS / POSV
# rows with n right-hand sides (public calls against torch, float64) for the README table.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_cholesky.py \
  -k "tensor" > $R/tests_tensor.txt 2>&1; echo "rc $?" >> $R/tests_tensor.txt
cat > /tmp/rc.py <<'PY'
import sys
import pytest
import linalg._cuda._compile as compile_
compile_.COMPILE_OPTIONS = compile_.COMPILE_OPTIONS + ("-lineinfo",)
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-m", "gpu", "tests/linalg/test_gpu_cholesky.py",
                      "-k", "(test_tensor_solve and (33-2 or 96-100) and float64) or "
                            "(test_potrf_not_spd_mid_batch and tensor and 100-)"]))
PY
( timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 python3 /tmp/rc.py > $R/sanitize_racecheck.txt 2>&1
  echo "rc $?" >> $R/sanitize_racecheck.txt ) &
timeout 150 python3 scripts/probe_chol_tensor.py solve --sizes 40,64,96,128 --nrhs 2,8,32 --batches 10240 \
  --output $R/solve_nrhs.md > $R/solve_log.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py solve --sizes 40,96 --batches 2,10 \
  --output $R/solve_small.md >> $R/solve_log.txt 2>&1
wait
timeout 200 python3 scripts/bench_cholesky.py --ops potrsn,posvn --dtypes float64 --sizes 32,64,128,256 \
  --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_tensor.txt $R/sanitize_racecheck.txt
grep -E "^FAILED|rror" $R/tests_tensor.txt | head -10
grep -A3 "Race reported" $R/sanitize_racecheck.txt | grep -o "cu:[0-9]*\|Race reported [a-zA-Z ]*" | sort | uniq -c | head
grep "^| p\|differs" $R/solve_log.txt
grep -E "potrsn|posvn" $R/bench/bench_cholesky.csv
