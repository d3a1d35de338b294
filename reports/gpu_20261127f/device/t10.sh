#!/bin/bash
# Call 10 (H200): gebrd_cols's `peel` default on the other GPU with a tuning table
# (probe_gebrd_reg.py peel at the sizes gebrd_cols serves, and n = 256 through gebrd_blocked's rest).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_gebrd_reg.py peel 48 64 96 128 160 256 > $R/peel.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cut -c1-330 $R/peel.txt
