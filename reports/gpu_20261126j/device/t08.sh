#!/usr/bin/env bash
# Session 2026-11-26j call 8: the pieces of a one-matrix TRMM (p_trmm_parts.py).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv > $R/gpu.txt 2>&1
timeout 200 python3 out/device/p_trmm_parts.py > $R/trmm_parts.txt 2>&1; echo "rc=$?" >> $R/trmm_parts.txt
cd $OUT && tar czf r.tgz r && rm -rf r
