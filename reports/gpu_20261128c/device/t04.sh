#!/bin/bash
# Session 2026-11-28c, call 4: the GPU tests of the SYRK / TRMM rules committed in f8df26a; the
# public cells they move (bench_cholesky: SYRK n = 33-47, TRMM n = 100-257, LAUUM n = 56-64);
# tri_cols against the default paths at the small-batch losses of calls 2-3 (float32 TRSM n =
# 80-180, TRTRI n = 200-240 both dtypes).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 8 tests/linalg/test_gpu_triangular.py -k "syrk or trmm" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
B="timeout 100 python3 scripts/bench_cholesky.py --dtypes float64 --batches 1000,10240"
$B --ops syrk --sizes 33,40,47 --output $R/syrk > $R/bench.log 2>&1
$B --ops trmm --sizes 100,150,200,257 --output $R/trmm >> $R/bench.log 2>&1
$B --ops lauum --sizes 56,60,64 --output $R/lauum >> $R/bench.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/probe_tri_cols.py time --dtype float32 --ops trsm --sizes 80,100,120,150,180 --batches 32,64,100,150,200,300 --output $R/cols_trsm32.md > /dev/null 2>&1
tar czf $OUT/r.tgz -C $OUT r
for dt in float64 float32; do
timeout 60 python3 scripts/probe_tri_cols.py time --dtype $dt --ops trtri --sizes 200,240 --batches 16,32,64,100,150,200 --output $R/cols_trtri_$dt.md > /dev/null 2>&1
done
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head
grep -h "^op=" $R/bench.log | sed 's/ gflops.*pct_bw=/ pct_bw=/'
cat $R/cols_trsm32.md $R/cols_trtri_*.md
