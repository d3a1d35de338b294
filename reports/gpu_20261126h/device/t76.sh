#!/usr/bin/env bash
# Session 2026-11-26h call 14: the second review mend (potrs_vector): TRSV / POTRS tests, and the block-grid probe once (its POTRS column uses potrs_warp_launch).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trsv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
timeout 60 python3 scripts/probe_trsv_vec.py --block-grid --sizes 64 --dtypes float32 --batches 2 --output $R/probe > $R/probe.log 2>&1; echo "rc=$?" >> $R/probe.log; tail -n 2 $R/probe.log
cd $OUT && tar czf r.tgz r && rm -rf r
