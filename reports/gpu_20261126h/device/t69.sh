#!/usr/bin/env bash
# Session 2026-11-26h call 7: the whole GPU suite on a92ea08+.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
git log --oneline -1 > $R/commit.txt 2>&1
timeout 540 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/gpu_tests.txt 2>&1; echo "rc=$?" >> $R/gpu_tests.txt
tail -3 $R/gpu_tests.txt; grep -E "^FAILED" $R/gpu_tests.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r
