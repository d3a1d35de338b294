#!/usr/bin/env bash
# Session 2026-11-26g call 2: the tuned rows (TRSV / GEMV-N / POTRS vec) in the benchmarks;
# GPU tests of TRSV, GEMV, POTRS; host/GPU split of small TRSV calls.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 210 python3 scripts/bench_blas.py --ops gemv,trsv --output $R/bench > $R/bench_blas.txt 2>&1; echo "rc=$?" >> $R/bench_blas.txt
tail -3 $R/bench_blas.txt
timeout 100 python3 scripts/bench_cholesky.py --fresh --ops potrs1 --sizes 2,4,8,16,32,64,128,256 --output $R/bench > $R/bench_chol.txt 2>&1; echo "rc=$?" >> $R/bench_chol.txt
tail -3 $R/bench_chol.txt
timeout 60 python3 out/device/p_trsv_split.py > $R/split.txt 2>&1; cat $R/split.txt
timeout 180 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_blas.py tests/linalg/test_gpu_cholesky.py -k "trsv or gemv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
timeout 100 python3 scripts/tune_blas.py --stages gemv_square --dtypes float32,float64 --squares 32 --budget-s 80 --output $R/tune32 > $R/tune32.txt 2>&1
tail -4 $R/tune32.txt
tar czf $OUT/t51.tgz -C $OUT r
