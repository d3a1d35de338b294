#!/bin/bash
# Call 5 (H100): where chol_tensor's factor phase stalls. Nsight Compute on one launch of
# chol_tensor<double, 2, true> (n = 64, batch 10240, the committed steps: CT_DIAG = 0,
# CT_ROT = 0): warp-state and scheduler sections, and the SASS with stall samples per
# instruction; the kernel's SASS by cuobjdump where the image has it.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
(which ncu nv-nsight-cu-cli cuobjdump nvdisasm; ls /usr/local/cuda*/bin 2>/dev/null | head -80) > $R/tools.txt 2>&1
cat > /tmp/one.py <<'PY'
import sys, numpy, cupy
sys.path.insert(0, "scripts")
import linalg._cuda._compile as compile_
compile_.COMPILE_OPTIONS = compile_.COMPILE_OPTIONS + ("-lineinfo", "-DCT_DIAG=0", "-DCT_ROT=0")
from probe_chol_tensor import spd
from linalg._cuda import cholesky
n, batch = int(sys.argv[1]), 10240
a = cupy.asarray(numpy.resize(spd(numpy.random.default_rng(5), 64, n), (batch, n, n)))
out = cupy.empty_like(a)
for _ in range(3):
    cholesky.potrf_tensor(out, True, src=a)
cupy.cuda.runtime.deviceSynchronize()
PY
NCU=$(which ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
  timeout 240 $NCU --launch-skip 2 --launch-count 1 -k regex:chol_tensor --set full --import-source yes \
    -o /tmp/prof python3 /tmp/one.py 64 > $R/ncu_log.txt 2>&1
  timeout 60 $NCU -i /tmp/prof.ncu-rep --page details > $R/ncu_details.txt 2>&1
  timeout 60 $NCU -i /tmp/prof.ncu-rep --page source --print-source sass --csv > $R/ncu_source.csv 2>&1
  gzip -f $R/ncu_source.csv
fi
CUOBJ=$(which cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
if [ -n "$CUOBJ" ]; then
  for f in $(ls -t ~/.cupy/kernel_cache/* 2>/dev/null | head -3); do $CUOBJ -sass $f >> $R/sass.txt 2>&1; done
  gzip -f $R/sass.txt
fi
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt $R/tools.txt | head -20; tail -5 $R/ncu_log.txt
grep -E "Warp Cycles Per Issued|Issued Warp Per Scheduler|No Eligible|Achieved Occupancy|Stall|stall" $R/ncu_details.txt | head -40
