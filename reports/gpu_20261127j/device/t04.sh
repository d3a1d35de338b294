#!/bin/bash
# Call 4 (H100), the tree of call 3: the rest of the GPU suite (everything but
# test_gpu_cholesky.py, whose whole file ran in call 3 but for its last 15 tests, cut by the
# step's timeout: they run here, -k "potrs_vector or complex"); racecheck on chol_left's small
# check with a longer limit (beside the tests); chol_tensor at batch 1-100, n = 33-47, again.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
cat > /tmp/run_lineinfo.py <<'PY'
import sys, runpy
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
sys.argv = ["probe_chol_tensor.py", "small", "--kernel", "left"]
runpy.run_path("scripts/probe_chol_tensor.py", run_name="__main__")
PY
( timeout 400 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 --kernel-name kns=chol_left python3 /tmp/run_lineinfo.py > $R/sanitizer_racecheck.txt 2>&1
  echo "rc $?" >> $R/sanitizer_racecheck.txt ) &
timeout 330 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 13 tests --ignore=tests/linalg/test_gpu_cholesky.py > $R/tests_rest.txt 2>&1
echo "rc $?" >> $R/tests_rest.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 8 tests/linalg/test_gpu_cholesky.py -k "potrs_vector or complex" > $R/tests_cholesky_tail.txt 2>&1
echo "rc $?" >> $R/tests_cholesky_tail.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 40 python3 scripts/probe_chol_tensor.py time --sizes 33,36,40,44,47 --batches 1,10,100 --output $R/time_tensor_small_batch.md > $R/time_tensor_small_batch.log 2>&1
wait
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests_rest.txt $R/tests_cholesky_tail.txt $R/sanitizer_racecheck.txt; grep "^| [0-9]" $R/time_tensor_small_batch.md
