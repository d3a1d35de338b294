#!/bin/bash
# Call 3 (H100): chol_tensor_solve with both solve schemes as a template choice (OPERATORS;
# POSV by substitution, POTRS by operators by default): the tensor_solve GPU tests (both
# schemes in test_tensor_solve), racecheck with line numbers (-lineinfo), memcheck, and the
# probe's variants (passes, threads, scheme) against the paths before, float64.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_cholesky.py \
  -k "tensor_solve" > $R/tests_solve.txt 2>&1; echo "rc $?" >> $R/tests_solve.txt
cat > /tmp/rc.py <<'PY'
import sys
import pytest
import linalg._cuda._compile as compile_
compile_.COMPILE_OPTIONS = compile_.COMPILE_OPTIONS + ("-lineinfo",)
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-m", "gpu", "tests/linalg/test_gpu_cholesky.py",
                      "-k", "test_tensor_solve and (33-2 or 40-70 or 96-100) and float64"]))
PY
( for tool in racecheck memcheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 /tmp/rc.py > $R/sanitize_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitize_$tool.txt
  done ) &
timeout 200 python3 scripts/probe_chol_tensor.py solve --sizes 33,48,64,80,96,128 --batches 1000,10240 \
  --output $R/solve.md > $R/solve_log.txt 2>&1
timeout 100 python3 scripts/probe_chol_tensor.py solve --sizes 40,64,96 --batches 1,100 \
  --output $R/solve_small.md >> $R/solve_log.txt 2>&1
wait
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_solve.txt $R/sanitize_*.txt
grep -E "^FAILED|rror" $R/tests_solve.txt | head -10
grep -A3 "Race reported" $R/sanitize_racecheck.txt | grep -v "^=========     and\|^--" | grep -o "potrf.cu:[0-9]*\|Race reported.*" | sort | uniq -c | head -20
grep "^| p\|differs" $R/solve_log.txt
