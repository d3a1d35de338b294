#!/usr/bin/env bash
# Session 2026-11-26h call 13: Nsight Compute of trsv_block at batch 1 (where a one-matrix call's time goes).
set -u
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
timeout 400 ncu --target-processes all -k regex:trsv_block --launch-skip 2 --launch-count 1 --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats python3 out/device/p_ncu_block.py > $R/ncu_f64_LN.txt 2>&1; echo "rc=$?" >> $R/ncu_f64_LN.txt
timeout 400 ncu --target-processes all -k regex:trsv_block --launch-skip 5 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats python3 out/device/p_ncu_block.py > $R/ncu_f64_UT.txt 2>&1; echo "rc=$?" >> $R/ncu_f64_UT.txt
tail -n 40 $R/ncu_f64_LN.txt | head -60
cd $OUT && tar czf r.tgz r && rm -rf r
