#!/bin/bash
# Call 2: chol_left with the next panel's entries of A loaded while this one is stored (the
# tree: "new") against call 1's kernel (out/device/kernels_prev) and a variant loading them
# while the rows solve (out/device/kernels_solvepf; 124 B spilled), alternated; the tree's
# chol_left at n = 168-240 against the panels; the public POTRF with chol_left in place over
# 129-256 (the rule patched for the run); memcheck on chol_left and chol_global alone; the
# left / global / cluster GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for src in kernels_prev kernels_solvepf new; do
    if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" >> $R/time_left_ab.md
    timeout 60 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 160,192,256 --batches 10240 >> $R/time_left_ab.md 2>&1
    tar czf $OUT/r.tgz -C $OUT r
  done
done
unset LINALG_KERNEL_DIR
timeout 80 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 168,200,224,240 --batches 2000,10240 --output $R/time_left_between.md > $R/time_left_between.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/bench_left.py <<'PY'
import sys
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import cholesky
cholesky.LEFT_IN_PLACE = ((129, 256),)
import bench_cholesky
sys.exit(bench_cholesky.main(sys.argv[1:]))
PY
timeout 60 python3 /tmp/bench_left.py --ops potrf --dtypes float64 --sizes 160,192,256 --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/run_lineinfo.py <<'PY'
import sys, runpy
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
sys.argv = ["probe_chol_tensor.py", "small", "--kernel", sys.argv[1]]
runpy.run_path("scripts/probe_chol_tensor.py", run_name="__main__")
PY
for k in left global; do
  ( timeout 170 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_$k python3 /tmp/run_lineinfo.py $k > $R/sanitizer_memcheck_$k.txt 2>&1
    echo "rc $?" >> $R/sanitizer_memcheck_$k.txt ) &
done
wait
tar czf $OUT/r.tgz -C $OUT r
timeout 190 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 15 tests/linalg/test_gpu_cholesky.py -k "left or global or cluster" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/sanitizer_memcheck_*.txt; grep -c "^ok" $R/sanitizer_memcheck_*.txt
grep -E "^## |^\| [0-9]" $R/time_left_ab.md $R/time_left_between.md | cut -c1-200
cat $R/bench/*.csv
