#!/usr/bin/env bash
# Session 2026-11-26f call 6: TT_PATCH_EDGES for LAUUM only (TRMM back to masked staging), LAUUM
# float32 fill 0.6; against 7784f2c. Full GPU suite + sanitizer on the final tree; bench rows.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
( timeout 330 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 330 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
wait $SAN
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head; tail -2 $R/sanitizer.txt
OUT=$R/ab1 timeout 150 bash scripts/ab_kernels.sh run --ops trmm,lauum,potri,poti --sizes 65,80,128,256 --batches 10240 > /dev/null
cat $R/ab1/ab_kernels.md | head -40
timeout 120 python3 scripts/bench_cholesky.py --fresh --sizes 2,4,8,16,32,64,128,256 --ops lauum,potri,poti --output $R/bench > $R/bench_log.txt 2>&1; echo "bench rc=$?"
timeout 60 python3 scripts/bench_small_batch.py --ops trmm,lauum,potri,poti --output $R/small > $R/small_log.txt 2>&1; echo "small rc=$?"
grep "vendor faster" $R/small/small_batch.md
tar czf $OUT/t47.tgz -C $OUT r
