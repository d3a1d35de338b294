#!/usr/bin/env bash
# Session 2026-11-26g call 9: small and medium batches of the re-tuned TRSV, GEMV-N and
# one-vector POTRS against the vendor, both dtypes.
set -u
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
for dt in float64 float32; do
timeout 200 python3 scripts/bench_small_batch.py --ops trsv,gemv_n,potrs1 --sizes 8,32,64,128,256,512 --batches 1,8,100,1000 --dtype $dt --output $R/$dt > /dev/null 2>&1
grep "vendor faster\|failed" $R/$dt/small_batch.md
done
tar czf $OUT/t58.tgz -C $OUT r
