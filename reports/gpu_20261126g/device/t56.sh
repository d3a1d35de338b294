#!/usr/bin/env bash
# Session 2026-11-26g call 7: tt_whole (LAUUM's PATCH instantiations' predicates reordered) against
# the commit before: tile / LAUUM / POTRI GPU tests, A/B of LAUUM and POTRI twice.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_triangular.py -k "tile or lauum or potri" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
for i in 1 2; do
OUT=$R/ab$i timeout 100 bash scripts/ab_kernels.sh run --ops lauum,potri --sizes 96,128,256 --batches 10240 > /dev/null 2>&1
grep -v "^$" $R/ab$i/ab_kernels.md | head -20
done
tar czf $OUT/t56.tgz -C $OUT r
