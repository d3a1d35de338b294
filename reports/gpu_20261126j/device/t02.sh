#!/usr/bin/env bash
# Session 2026-11-26j call 2: fused POTRF panels, second form (no extra tile, cp.async slices, pair broadcasts; the first panel unfused), register caps.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
timeout 300 python3 scripts/probe_potrf_panels.py --fused --sizes 48,64,96,128,192,256,512 --options ";--maxrregcount=200;--maxrregcount=168" --output $R > $R/fused.txt 2>&1; echo "rc=$?" >> $R/fused.txt
cd $OUT && tar czf r.tgz r && rm -rf r
