#!/bin/bash
# Call 2 (H100): chol_left's tiles by cp.async copies (double; all of a tile in flight) against
# the plain loads of call 1 (out/device/kernels_plain), alternated; n = 320-512; the probe's
# checks and sanitizers on chol_left; chol_tensor in place at n = 33-48 with 64 threads
# (TENSOR_THREADS[2] = 64) against the panels; the tensor and left GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 120 python3 scripts/probe_chol_tensor.py check --kernel left > $R/check_left.txt 2>&1; echo "rc $?" >> $R/check_left.txt
tar czf $OUT/r.tgz -C $OUT r
for round in 1 2; do
  for src in kernels_plain new; do
    if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" >> $R/time_left_ab.md
    timeout 100 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 136,192,256 --batches 2000,10240 >> $R/time_left_ab.md 2>&1
    tar czf $OUT/r.tgz -C $OUT r
  done
done
unset LINALG_KERNEL_DIR
timeout 90 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 320,384,512 --batches 500,2000 --output $R/time_left_big.md > $R/time_left_big.log 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py time --sizes 33,36,40,44,48 --batches 1000,10240,100000 --output $R/time_tensor_small.md > $R/time_tensor_small.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/run_lineinfo.py <<'PY'
import sys, runpy
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
sys.argv = ["probe_chol_tensor.py", "small", "--kernel", "left"]
runpy.run_path("scripts/probe_chol_tensor.py", run_name="__main__")
PY
for tool in memcheck racecheck synccheck; do
  ( timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_left python3 /tmp/run_lineinfo.py > $R/sanitizer_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitizer_$tool.txt ) &
done
wait
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 15 tests/linalg/test_gpu_cholesky.py -k "left or tensor" > $R/tests.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_left.txt; tail -n 2 $R/tests.txt
for tool in memcheck racecheck synccheck; do tail -n 3 $R/sanitizer_$tool.txt; done
grep -E "^## |^\| [0-9]" $R/time_left_ab.md $R/time_left_big.md $R/time_tensor_small.md | cut -c1-220
