#!/usr/bin/env bash
# Session 2026-11-26h call 6: host profile of the block path; small-batch tables (trsv, potrs1); bench trsv / potrs1.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 100 python3 out/device/p_host_block.py > $R/host_block.txt 2>&1; echo "rc=$?" >> $R/host_block.txt
head -9 $R/host_block.txt
for dt in float64 float32; do
  timeout 150 python3 scripts/bench_small_batch.py --ops trsv,potrs1 --sizes 8,32,64,128,256,512 --batches 1,2,8,100,1000 --dtype $dt --output $R/small_$dt > $R/small_$dt.log 2>&1; echo "rc=$?" >> $R/small_$dt.log
done
timeout 100 python3 scripts/bench_blas.py --ops trsv --output $R/bench_blas > $R/bench_blas.log 2>&1; echo "rc=$?" >> $R/bench_blas.log
timeout 150 python3 scripts/bench_cholesky.py --fresh --ops potrs1 --sizes 16,24,32,64 --output $R/bench_chol > $R/bench_chol.log 2>&1; echo "rc=$?" >> $R/bench_chol.log
tail -n 1 $R/*.log
cd $OUT && tar czf r.tgz r && rm -rf r
