#!/usr/bin/env bash
# Session 2026-11-26g call 8: the full GPU suite alone (no sanitizer beside it) on the final code.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 520 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -3 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
tar czf $OUT/t57.tgz -C $OUT r
