#!/usr/bin/env bash
# Session 2026-11-26h call 10: bench_blas --ops trsv twice more (call 8's float32 n = 8 / 32 public rows were far above their kernels), potrs1 once more.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
for i in 1 2; do
timeout 60 python3 scripts/bench_blas.py --ops trsv --output $R/bench_blas_$i > $R/bench_blas_$i.log 2>&1; echo "rc=$?" >> $R/bench_blas_$i.log
done
timeout 100 python3 scripts/bench_cholesky.py --fresh --ops potrs1 --sizes 16,24,32,64,128 --output $R/bench_chol > $R/bench_chol.log 2>&1; echo "rc=$?" >> $R/bench_chol.log
grep -h "^trsv_LN,float32,\(8\|32\)," $R/bench_blas_*/bench_blas.csv
cd $OUT && tar czf r.tgz r && rm -rf r
