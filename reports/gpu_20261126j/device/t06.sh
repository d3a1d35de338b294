#!/usr/bin/env bash
# Session 2026-11-26i call 6: trsv_split with 64-row blocks (S = 2) beside 32 (S = 1): TRSV / POTRS GPU tests, memcheck + racecheck of its launches, the split grid probe.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py -x > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -3 $R/tests.txt; grep -E "^FAILED|Error" $R/tests.txt | head
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 out/device/p_sanitize_split.py > $R/memcheck.txt 2>&1; echo "rc=$?" >> $R/memcheck.txt; tail -3 $R/memcheck.txt
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 python3 out/device/p_sanitize_split.py > $R/racecheck.txt 2>&1; echo "rc=$?" >> $R/racecheck.txt; tail -3 $R/racecheck.txt
timeout 200 python3 scripts/probe_trsv_vec.py --split-grid --batches 1,2,8,32,64,128 --output $R/probe > $R/probe.log 2>&1; echo "rc=$?" >> $R/probe.log; tail -n 3 $R/probe.log
cd $OUT && tar czf r.tgz r && rm -rf r
