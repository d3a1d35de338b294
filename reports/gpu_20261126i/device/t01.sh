#!/usr/bin/env bash
# Session 2026-11-26i call 1: host cost of the public TRSV call's pieces (batch 1); gebrd_cols 64x64 settings sweep and a check of group 128.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
timeout 150 python3 out/device/p_host_parts.py > $R/host_parts.txt 2>&1; echo "rc=$?" >> $R/host_parts.txt
timeout 240 python3 out/device/p_gebrd64.py > $R/gebrd64.txt 2>&1; echo "rc=$?" >> $R/gebrd64.txt
timeout 120 python3 scripts/probe_gebrd_reg.py check '{"kernel": "cols", "group": 128, "per_block": 2, "regs": 128, "peel": true}' > $R/gebrd_check128.txt 2>&1; echo "rc=$?" >> $R/gebrd_check128.txt
cd $OUT && tar czf r.tgz r && rm -rf r
