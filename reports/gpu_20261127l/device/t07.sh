#!/bin/bash
# Call 7 (run twice: the first run stopped at a bug of the probe, the bench after it ran; the second
# run, the probe only): POSV with n right-hand sides, chol_tensor_solve's fused POSV against POTRF then POTRS
# (both kernels faster since the fused rule was measured): the probe, in place and kept, then
# the public bench of POSV with the fused rule off at n = 48-96 (a run of bench_cholesky.py with
# cholesky.TENSOR_SOLVE_RANGE's POSV row removed).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_posv_rule.py --sizes 40,48,64,80,96 --batches 1000,10240 > $R/probe_posv.md 2>&1
echo "rc $?" >> $R/probe_posv.md
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/bench_off.py <<'PY'
import sys, runpy
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import cholesky
cholesky.TENSOR_SOLVE_RANGE = {k: v for k, v in cholesky.TENSOR_SOLVE_RANGE.items() if k[0] != "posv"}
sys.argv = ["bench_cholesky.py"] + sys.argv[1:]
runpy.run_path("scripts/bench_cholesky.py", run_name="__main__")
PY
true || timeout 120 python3 /tmp/bench_off.py --ops posvn --dtypes float64 --sizes 48,64,80,96 --batches 10240 --fresh --output $R/bench_posv_off > $R/bench_posv_off.txt 2>&1
echo "rc $?" >> $R/bench_posv_off.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cat $R/probe_posv.md; grep -E "^\| posvn" $R/bench_posv_off/bench_cholesky.md; tail -n 2 $R/bench_posv_off.txt
