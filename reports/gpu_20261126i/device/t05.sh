#!/usr/bin/env bash
# Session 2026-11-26i call 5: small-batch tables of TRSV and the one-vector POTRS on the split dispatch (both dtypes).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
for dt in float64 float32; do
  timeout 250 python3 scripts/bench_small_batch.py --ops trsv,potrs1 --sizes 32,64,128,256,512 --batches 1,2,8,100,1000 --dtype $dt --output $R/small_$dt > $R/small_$dt.log 2>&1; echo "rc=$?" >> $R/small_$dt.log
  tail -1 $R/small_$dt.log; grep "vendor faster" $R/small_$dt/small_batch.md
done
cd $OUT && tar czf r.tgz r && rm -rf r
