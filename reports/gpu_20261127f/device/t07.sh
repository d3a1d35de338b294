#!/bin/bash
# Call 7 (H100): gebrd_cols trip-loop variants against the kernel of call 4 (probe_gebrd.py
# unroll): the row pass unrolled by four, 64-byte trips in the column / row / both passes, up to
# 168 registers a thread for groups wider than a warp, and both.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 400 python3 scripts/probe_gebrd.py unroll > $R/unroll.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cut -c1-700 $R/unroll.txt
