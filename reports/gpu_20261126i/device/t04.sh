#!/usr/bin/env bash
# Session 2026-11-26i call 4: the full GPU suite on trsv_split's tree.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
git log --oneline | head -1 > $R/commit.txt 2>/dev/null
timeout 560 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/gpu_tests.txt 2>&1; echo "rc=$?" >> $R/gpu_tests.txt
tail -3 $R/gpu_tests.txt; grep -E "^FAILED|^ERROR" $R/gpu_tests.txt | head -20
cd $OUT && tar czf r.tgz r && rm -rf r
