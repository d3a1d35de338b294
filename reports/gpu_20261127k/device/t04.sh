#!/bin/bash
# Call 4, the tree of call 3: chol_left against chol_tensor at n = 100-128 from batch 1 to 10240
# (call 3: chol_left 1.14-1.20x at n = 112 / 128, batch 10240 / 40960; 0.90-1.02x at 64 / 96);
# the public POTRF at n = 96 / 128 with chol_left from n = 97 (TENSOR_RANGE and LEFT_RANGE
# patched for the run).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 120 python3 scripts/probe_chol_tensor.py time --kernel left --sizes 97,104,112,120,128 --batches 1,10,100,1000,10240 --output $R/time_left_97_128.md > $R/time_left_97_128.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/bench_left.py <<'PY'
import sys
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
from linalg._cuda import cholesky
cholesky.TENSOR_RANGE = {"float64": (33, 96)}
cholesky.LEFT_RANGE = {"float64": (97, 256)}
import bench_cholesky
sys.exit(bench_cholesky.main(sys.argv[1:]))
PY
timeout 60 python3 /tmp/bench_left.py --ops potrf --dtypes float64 --sizes 96,128 --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; grep -E "^\| [0-9]" $R/time_left_97_128.md; tail -3 $R/time_left_97_128.log; cat $R/bench/*.csv
