#!/usr/bin/env bash
# Session 2026-11-26i call 8: the full small-batch table (every operation, n = 8..512, batch 1 / 8 / 100, float64) on trsv_split and the host-time changes.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 480 python3 scripts/bench_small_batch.py --output $R/small > $R/small.log 2>&1; echo "rc=$?" >> $R/small.log
tail -2 $R/small.log; grep -c "vendor faster" $R/small/small_batch.md; grep -c "^| " $R/small/small_batch.md
cd $OUT && tar czf r.tgz r && rm -rf r
