#!/bin/bash
# Call 5 (final rule: chol_global below GLOBAL_BATCHES' bounds): the whole GPU suite beside
# compute-sanitizer memcheck of scripts/sanitizer_smoke.py, then the small-batch table's POTRF /
# POSV (n vectors) / POTI rows at n = 160-512, float64 and float32.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
(timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt) &
timeout 420 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait
for dt in float64 float32; do
timeout 60 python3 scripts/bench_small_batch.py --ops potrf,posvn,poti --sizes 160,256,384,512 --batches 1,8,100 --dtype $dt --output $R/small_$dt > $R/small_log_$dt.txt 2>&1; echo "rc $?" >> $R/small_log_$dt.txt
done
tar czf $OUT/r.tgz -C $OUT r
tail -3 $R/tests.txt; grep -i "failed\|error" $R/tests.txt | head -5; tail -3 $R/memcheck.txt; cat $R/small_*/*.md | grep "^| p"; tail -1 $R/small_log_*.txt
