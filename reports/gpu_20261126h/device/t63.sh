#!/usr/bin/env bash
# Session 2026-11-26h call 1: trsv_staged vs trsv_warp with vectors at n <= 32; trsv_warp at small batches.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
(which nsys ncu compute-sanitizer; nvidia-smi --query-gpu=name,clocks.max.sm --format=csv) > $R/env.txt 2>&1
timeout 280 python3 scripts/probe_trsv_vec.py --small-grid --sizes 16,24,28,32 --output $R > $R/small_grid.log 2>&1; echo "small rc=$?" >> $R/small_grid.log
timeout 250 python3 scripts/probe_trsv_vec.py --latency-grid --sizes 64,128,256,512 --output $R > $R/latency_grid.log 2>&1; echo "latency rc=$?" >> $R/latency_grid.log
tail -3 $R/small_grid.log $R/latency_grid.log
cd $OUT && tar czf r.tgz r && rm -rf r
