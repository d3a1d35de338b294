#!/usr/bin/env bash
# Session 2026-11-26i call 9: the review mend's probe (public_calls shared by --block-grid and --split-grid) runs; TRSV tests once more on the final tree.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 60 python3 scripts/probe_trsv_vec.py --split-grid --sizes 64,512 --dtypes float64 --batches 1 --output $R/probe > $R/split.log 2>&1; echo "rc=$?" >> $R/split.log; tail -4 $R/split.log
timeout 60 python3 scripts/probe_trsv_vec.py --block-grid --sizes 64 --dtypes float64 --batches 2 --output $R/probe > $R/block.log 2>&1; echo "rc=$?" >> $R/block.log; tail -4 $R/block.log
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py -k "trsv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt; tail -2 $R/tests.txt
cd $OUT && tar czf r.tgz r && rm -rf r
