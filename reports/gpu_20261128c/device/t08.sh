#!/bin/bash
# Session 2026-11-28c, call 8: the float32 small-batch table on the final tree.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/bench_small_batch.py --dtype float32 --output $R/small32 > $R/small32.log 2>&1
echo "rc $?" >> $R/small32.log
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 1 $R/small32.log; grep -c "vendor faster" $R/small32.log; grep "vendor faster" $R/small32.log
