#!/usr/bin/env bash
# Session 2026-11-26j call 11: TRMM small-batch tile rule on an H100: public calls before / after (p_trmm_small.py) and the backend comparison by batch (p_tile_batch.py).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv > $R/gpu.txt 2>&1
timeout 200 python3 out/device/p_trmm_small.py > $R/trmm_small.txt 2>&1; echo "rc=$?" >> $R/trmm_small.txt
timeout 200 python3 out/device/p_tile_batch.py > $R/tile_batch.txt 2>&1; echo "rc=$?" >> $R/tile_batch.txt
cd $OUT && tar czf r.tgz r && rm -rf r
