#!/bin/bash
# Call 3, the tree of commit e1a1ae2 (chol_left: the column before from shared memory, the next
# panel's loads under the store): chol_left at n = 64-128 against chol_tensor (the default
# there); racecheck and synccheck on chol_left's small check (its barriers moved); the probe's
# checks of chol_left (n = 33-512, a failing and a NaN matrix in each batch).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 70 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 64,96,112,128 --batches 10240,40960 --output $R/time_left_small_n.md > $R/time_left_small_n.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/run_lineinfo.py <<'PY'
import sys, runpy
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
sys.argv = ["probe_chol_tensor.py", "small", "--kernel", "left"]
runpy.run_path("scripts/probe_chol_tensor.py", run_name="__main__")
PY
for tool in racecheck synccheck; do
  ( timeout 430 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_left python3 /tmp/run_lineinfo.py > $R/sanitizer_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitizer_$tool.txt ) &
done
timeout 120 python3 scripts/probe_chol_tensor.py check --kernel left > $R/check_left.txt 2>&1; echo "rc $?" >> $R/check_left.txt
tar czf $OUT/r.tgz -C $OUT r
wait
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_left.txt; tail -n 3 $R/sanitizer_*.txt; grep -c "^ok" $R/sanitizer_*.txt
grep -E "^\| [0-9]" $R/time_left_small_n.md; tail -3 $R/time_left_small_n.log
