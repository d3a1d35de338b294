#!/usr/bin/env bash
# Session 2026-11-26i call 11: the second review mend's probe (forced_paths) runs in both modes.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 60 python3 scripts/probe_trsv_vec.py --split-grid --sizes 64 --dtypes float64 --batches 1 --output $R/probe > $R/split.log 2>&1; echo "rc=$?" >> $R/split.log; tail -4 $R/split.log
timeout 60 python3 scripts/probe_trsv_vec.py --block-grid --sizes 64 --dtypes float64 --batches 2 --output $R/probe > $R/block.log 2>&1; echo "rc=$?" >> $R/block.log; tail -4 $R/block.log
cd $OUT && tar czf r.tgz r && rm -rf r
