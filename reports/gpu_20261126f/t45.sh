#!/usr/bin/env bash
# Session 2026-11-26f call 4: TT_ZEROED (POTRI's LAUUM stages the tiles the diagonal crosses
# whole) against e351568; full GPU suite + sanitizer on the working tree (ONE_LAUNCH_FROM 33/36).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
( timeout 330 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 330 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
wait $SAN
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head; tail -2 $R/sanitizer.txt
OUT=$R/ab1 timeout 200 bash scripts/ab_kernels.sh run --ops potri,poti,lauum --sizes 65,96,128,192,256 --batches 10240 > /dev/null
cat $R/ab1/ab_kernels.md | head -40
tar czf $OUT/t45.tgz -C $OUT r
