#!/bin/bash
# Call 1: chol_left taking column k - 1 from the panel before (still in shared memory) instead
# of loading it back from A, against the committed kernels (out/device/kernels_head),
# alternated; the probe's checks of chol_left; memcheck on chol_left's small check (with CgWalk,
# unverified by a sanitizer since call 7 was cut); the left / global / cluster GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for src in kernels_head new; do
    if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" >> $R/time_left_prev.md
    timeout 80 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 160,192,256 --batches 2000,10240 >> $R/time_left_prev.md 2>&1
    tar czf $OUT/r.tgz -C $OUT r
  done
done
unset LINALG_KERNEL_DIR
timeout 90 python3 scripts/probe_chol_tensor.py check --kernel left > $R/check_left.txt 2>&1; echo "rc $?" >> $R/check_left.txt
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/run_lineinfo.py <<'PY'
import sys, runpy
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
sys.argv = ["probe_chol_tensor.py", "small", "--kernel", sys.argv[1]]
runpy.run_path("scripts/probe_chol_tensor.py", run_name="__main__")
PY
( timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_left python3 /tmp/run_lineinfo.py left > $R/sanitizer_memcheck_left.txt 2>&1
  echo "rc $?" >> $R/sanitizer_memcheck_left.txt ) &
( timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_global python3 /tmp/run_lineinfo.py global > $R/sanitizer_memcheck_global.txt 2>&1
  echo "rc $?" >> $R/sanitizer_memcheck_global.txt ) &
timeout 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 12 tests/linalg/test_gpu_cholesky.py -k "left or global or cluster" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
wait
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_left.txt $R/tests.txt $R/sanitizer_memcheck_*.txt
grep -E "^## |^\| [0-9]" $R/time_left_prev.md | cut -c1-200
