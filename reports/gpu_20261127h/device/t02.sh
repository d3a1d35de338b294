#!/bin/bash
# Call 2 (H100): chol_tensor_inverse under compute-sanitizer (memcheck, racecheck with line
# numbers, synccheck; its own tests at n = 40 / 97, both dtypes and forms), then timed: float32
# against the paths before it, float64 at batch 1 / 10 / 30, and the benchmark's POTRI / POTI
# rows (public calls against torch, float64) for the README table.
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
                      "-k", "test_tensor_inverse and threads_needed and (-40- or -97-)"]))
PY
for tool in memcheck racecheck synccheck; do
  ( timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 python3 /tmp/san.py > $R/sanitize_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitize_$tool.txt ) &
done
wait
timeout 120 python3 scripts/probe_chol_tensor.py inverse --dtype float32 --sizes 33,64,96,128 \
  --batches 1000,10240 --output $R/inverse_float32.md > $R/inverse_log.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py inverse --sizes 40,64,128 --batches 1,10,30 \
  --output $R/inverse_small.md >> $R/inverse_log.txt 2>&1
timeout 200 python3 scripts/bench_cholesky.py --ops potri,poti --dtypes float64 --sizes 32,64,128,256 \
  --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck synccheck; do echo "== $tool"; tail -n 3 $R/sanitize_$tool.txt; done
grep -A3 "Race reported" $R/sanitize_racecheck.txt | grep -o "cu:[0-9]*\|Race reported [a-zA-Z ]*" | sort | uniq -c | head
grep "^| p\|differs" $R/inverse_log.txt
grep -E "potri|poti" $R/bench/bench_cholesky.csv
