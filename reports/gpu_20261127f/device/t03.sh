#!/bin/bash
# Call 3 (H100): gebrd_cols's row pass unrolled by two, the matrix staged by cp.async, both, and
# 16 loads in flight (probe_gebrd.py unroll).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 300 python3 scripts/probe_gebrd.py unroll > $R/unroll.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cut -c1-600 $R/unroll.txt
