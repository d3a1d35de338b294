#!/bin/bash
# Call 5 (H100): gebrd_cols (peel, row pass unrolled, cp.async staging) against gebrd_reg at
# n = 32 (probe_gebrd_reg.py pick float64:32:cols float32:32:cols).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
OUT=$R timeout 200 python3 scripts/probe_gebrd_reg.py pick float64:32:cols float32:32:cols > $R/pick.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cut -c1-900 $R/pick.txt
