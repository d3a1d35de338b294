#!/bin/bash
# Call 6 (H100): where chol_left's time goes, for the next session. Nsight Compute on one
# launch of chol_left<double, false> (n = 256, batch 4096, in place): the full set (warp states,
# memory, occupancy) and the SASS with stall samples per instruction (line info on).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
cat > /tmp/one.py <<'PY'
import sys, numpy, cupy
sys.path.insert(0, "scripts")
import linalg._cuda._compile as compile_
compile_.COMPILE_OPTIONS = compile_.COMPILE_OPTIONS + ("-lineinfo",)
from probe_chol_tensor import spd
from linalg._cuda import cholesky
n, batch = int(sys.argv[1]), 4096
a = cupy.asarray(numpy.resize(spd(numpy.random.default_rng(5), 64, n), (batch, n, n)))
w = cupy.empty_like(a)
for _ in range(3):
    cupy.copyto(w, a)
    cholesky.potrf_left(w, True)
cupy.cuda.runtime.deviceSynchronize()
PY
NCU=$(which ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
timeout 300 $NCU --launch-skip 2 --launch-count 1 -k regex:chol_left --set full --import-source yes \
  -o /tmp/prof python3 /tmp/one.py 256 > $R/ncu_log.txt 2>&1
timeout 60 $NCU -i /tmp/prof.ncu-rep --page details > $R/ncu_details.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 60 $NCU -i /tmp/prof.ncu-rep --page source --print-source sass --csv > $R/ncu_source.csv 2>&1
gzip -f $R/ncu_source.csv
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -3 $R/ncu_log.txt
grep -E "Duration|DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Warp Cycles Per Issued|Issued Warp Per Scheduler|No Eligible|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit" $R/ncu_details.txt | head -40
