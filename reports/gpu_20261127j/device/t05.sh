#!/bin/bash
# Call 5 (H100): chol_left with a launch bound of (256, 3) (80 registers, ~500 B spilled; three
# 256-thread blocks an SM at n = 256 instead of two; out/device/k3) against the committed
# kernel, alternated, n = 160-256 (the bound cannot launch 512 threads: n <= 256 only).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for src in k3 committed; do
    if [ $src = committed ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" >> $R/time_left_bounds.md
    timeout 100 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 160,192,256 --batches 2000,10240 >> $R/time_left_bounds.md 2>&1
    tar czf $OUT/r.tgz -C $OUT r
  done
done
export LINALG_KERNEL_DIR=$PWD/out/device/k3
cat > /tmp/check.py <<'PY'
import sys
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
import numpy, probe_chol_tensor as p
sys.exit(1 if p.run_check((129, 200, 256), (numpy.float64,), "left") else 0)
PY
timeout 100 python3 /tmp/check.py > $R/check_k3.txt 2>&1; echo "rc $?" >> $R/check_k3.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_k3.txt; grep -E "^## |^\| [0-9]" $R/time_left_bounds.md
