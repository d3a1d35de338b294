#!/bin/bash
# Call 7 (H100), the tree of call 6 with POTRF in place on chol_tensor at every batch
# (TENSOR_IN_PLACE_BELOW = inf): compute-sanitizer memcheck / racecheck / synccheck on the
# tensor kernels' GPU tests at n = 40 / 97 (with line numbers); chol_tensor in place and kept
# against the paths without it (float64, float32); the benchmark's rows of the Cholesky family
# whose kernels changed (float64, batch 10240, public calls against the vendors).
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
                      "-k", "tensor and (-40- or -97- or 40] or 97])"]))
PY
for tool in memcheck racecheck synccheck; do
  ( timeout 280 compute-sanitizer --tool $tool --error-exitcode 9 python3 /tmp/san.py > $R/sanitize_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitize_$tool.txt ) &
done
wait
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/probe_chol_tensor.py time --sizes 48,64,96,112,128 --batches 10240,100000 \
  --output $R/time_f64.md > $R/time_log.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py time --dtype float32 --sizes 48,64,96,128 --batches 10240 \
  --output $R/time_f32.md >> $R/time_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 scripts/bench_cholesky.py --ops potrf,potrsn,posvn,potri,poti --dtypes float64 \
  --sizes 32,64,128,256 --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; for tool in memcheck racecheck synccheck; do echo "== $tool"; tail -n 3 $R/sanitize_$tool.txt; done
grep -E "^\| [0-9]" $R/time_f64.md $R/time_f32.md
cat $R/bench/bench_cholesky.csv
