#!/usr/bin/env bash
# Session 2026-11-26f call 3: TRTRI one launch from n = 40 (both dtypes), chol_small<T, 64> leaves
# in the TRTRI recursion, caps 168 for the float64 64-chains: tests, sanitizer, probes, bench.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
( timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_triangular.py > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
wait $SAN
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head; tail -2 $R/sanitizer.txt
P="timeout 100 python3 scripts/probe_trtri_one_launch.py"
$P $R/ol0 0 --ops trtri,potri,poti --sizes 33,36,96,128,192,256 --batches 10240 > $R/ol0.log 2>&1
$P $R/ol1 1 --ops trtri --sizes 33,36 --batches 10240 > $R/ol1.log 2>&1
$P $R/ol3 3 --ops trtri,potri,poti --sizes 96,128,192,256 --batches 10240 > $R/ol3.log 2>&1
echo "== trtri one launch at 33/36 (after) vs recursion (before)"; python3 scripts/ab_table.py $R/ol0/bench_cholesky.csv $R/ol1/bench_cholesky.csv 2>&1 | grep -v "^only"
echo "== 64-leaves off (after) vs on (before)"; python3 scripts/ab_table.py $R/ol0/bench_cholesky.csv $R/ol3/bench_cholesky.csv 2>&1 | grep -v "^only"
timeout 150 python3 scripts/bench_cholesky.py --fresh --sizes 2,4,8,16,32,64,128,256 --ops trtri,potri,poti --output $R/bench > $R/bench_log.txt 2>&1; echo "bench rc=$?"
timeout 60 python3 scripts/bench_small_batch.py --ops trtri,potri,poti --output $R/small > $R/small_log.txt 2>&1; echo "small rc=$?"
grep "vendor faster" $R/small/small_batch.md
tar czf $OUT/t44.tgz -C $OUT r
