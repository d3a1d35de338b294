#!/bin/bash
# Call 7 (H100): cg_store_column (chol_left, chol_global, chol_cluster) walking its entries
# without a runtime division an entry (CgWalk) against the committed kernels
# (out/device/kernels_head), alternated; the probe's checks of chol_left, chol_global and
# chol_cluster (4 blocks); the public POTRF with chol_left in place up to n = 256 (the rule
# patched for the run); memcheck on chol_left's small check; the left / global / cluster tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for src in kernels_head new; do
    if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" | tee -a $R/time_left_store.md >> $R/time_global_store.md
    timeout 80 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 160,192,256 --batches 2000,10240 >> $R/time_left_store.md 2>&1
    timeout 40 python3 scripts/probe_chol_tensor.py time --kernel global --sizes 256,512 --batches 8,64 >> $R/time_global_store.md 2>&1
    tar czf $OUT/r.tgz -C $OUT r
  done
done
unset LINALG_KERNEL_DIR
for k in left global cluster4; do
  timeout 90 python3 scripts/probe_chol_tensor.py check --kernel $k > $R/check_$k.txt 2>&1; echo "rc $?" >> $R/check_$k.txt
done
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/bench_left.py <<'PY'
import sys
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import cholesky
cholesky.LEFT_IN_PLACE_LAST = 256
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
sys.argv = ["probe_chol_tensor.py", "small", "--kernel", "left"]
runpy.run_path("scripts/probe_chol_tensor.py", run_name="__main__")
PY
( timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_left python3 /tmp/run_lineinfo.py > $R/sanitizer_memcheck.txt 2>&1
  echo "rc $?" >> $R/sanitizer_memcheck.txt ) &
timeout 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m gpu -n 12 tests/linalg/test_gpu_cholesky.py -k "left or global or cluster" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
wait
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_*.txt $R/tests.txt $R/sanitizer_memcheck.txt
grep -E "^## |^\| [0-9]" $R/time_left_store.md $R/time_global_store.md | cut -c1-200
cat $R/bench/bench_cholesky.csv
