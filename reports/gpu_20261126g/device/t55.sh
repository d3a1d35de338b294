#!/usr/bin/env bash
# Session 2026-11-26g call 6: the full GPU suite and the sanitizer on the final kernels; the
# GEMV / TRSV benchmark and the one-vector POTRS (README table).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
python3 -c "import cupy, torch; print('cupy', cupy.__version__, 'cuda runtime', cupy.cuda.runtime.runtimeGetVersion(), 'torch', torch.__version__)" >> $R/gpu.txt 2>&1
( timeout 330 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 330 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
wait $SAN; tail -2 $R/sanitizer.txt
timeout 120 python3 scripts/bench_blas.py --ops gemv,trsv --output $R/bench > $R/bench_blas.txt 2>&1; echo "rc=$?" >> $R/bench_blas.txt
tail -1 $R/bench_blas.txt
timeout 90 python3 scripts/bench_cholesky.py --fresh --ops potrs1 --sizes 2,4,8,16,32,64,128,256 --output $R/bench > $R/bench_chol.txt 2>&1; echo "rc=$?" >> $R/bench_chol.txt
tail -1 $R/bench_chol.txt
tar czf $OUT/t55.tgz -C $OUT r
