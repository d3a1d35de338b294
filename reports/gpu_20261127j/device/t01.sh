#!/bin/bash
# Call 1 (H100): kernels/potrf.cu chol_left (left-looking one-launch POTRF, n = 33..512): the
# probe's checks, then timed against the default path (the panels, or chol_global at its small
# batches) and cuSOLVER; chol_tensor at NT = 2 with 64 threads a block against 128; sanitizers
# on a small run of chol_left; the chol_left GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
python3 -c "import cupy, sys; print(sys.version.split()[0], 'cupy', cupy.__version__, 'cuda', cupy.cuda.runtime.runtimeGetVersion())" >> $R/gpu.txt
timeout 150 python3 scripts/probe_chol_tensor.py check --kernel left > $R/check_left.txt 2>&1; echo "rc $?" >> $R/check_left.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 136,160,192,256 --batches 500,2000,10240 --output $R/time_left.md > $R/time_left.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 320,384,512 --batches 500,2000,4096 --output $R/time_left_big.md > $R/time_left_big.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 scripts/probe_chol_tensor.py time --kernel left --dtype float32 --sizes 160,256,512 --batches 2000,10240 --output $R/time_left_f32.md > $R/time_left_f32.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
for t in 64 128 64 128; do
  echo "## threads $t" >> $R/time_nt2.md
  timeout 60 python3 scripts/probe_chol_tensor.py time --sizes 40,48,56,64 --batches 1000,10240,100000 --threads $t >> $R/time_nt2.md 2>&1
done
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
  ( timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name regex:chol_left python3 /tmp/run_lineinfo.py > $R/sanitizer_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitizer_$tool.txt ) &
done
wait
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 15 tests/linalg/test_gpu_cholesky.py -k left > $R/tests_left.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_left.txt; grep -c FAIL $R/check_left.txt; tail -n 2 $R/tests_left.txt
for tool in memcheck racecheck synccheck; do tail -n 2 $R/sanitizer_$tool.txt; done
cat $R/time_left.md $R/time_left_big.md $R/time_left_f32.md | grep "^|" | cut -c1-200
grep -E "^## |^\| [0-9]" $R/time_nt2.md | cut -c1-200
