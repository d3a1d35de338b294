#!/usr/bin/env bash
# Session 2026-11-26j call 3: trsv_staged compile variants (cp.async copy, load batches 16 / 32) and Nsight Compute of the default and the cp.async copy.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
timeout 240 python3 out/device/p_staged.py > $R/staged.txt 2>&1; echo "rc=$?" >> $R/staged.txt
for v in default async; do
  timeout 90 ncu --kernel-name regex:trsv_staged --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats python3 out/device/p_staged_one.py $v > $R/ncu_$v.txt 2>&1; echo "rc=$?" >> $R/ncu_$v.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
