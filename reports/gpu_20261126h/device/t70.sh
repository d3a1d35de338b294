#!/usr/bin/env bash
# Session 2026-11-26h call 8: sanitizer smoke (memcheck, with trsv_block), benchmarks of TRSV / POTRS1, small-batch tables.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
( timeout 330 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
python3 - > $R/environment.txt 2>&1 <<'PY'
import cupy, torch, datetime
p = cupy.cuda.runtime.getDeviceProperties(0)
print(datetime.date.today(), p["name"].decode(), "CUDA runtime", cupy.cuda.runtime.runtimeGetVersion(), "CuPy", cupy.__version__, "torch", torch.__version__)
PY
wait $SAN; tail -2 $R/sanitizer.txt
timeout 60 python3 scripts/bench_blas.py --ops trsv --output $R/bench_blas > $R/bench_blas.log 2>&1; echo "rc=$?" >> $R/bench_blas.log
timeout 100 python3 scripts/bench_cholesky.py --fresh --ops potrs1 --sizes 16,24,32,64,128 --output $R/bench_chol > $R/bench_chol.log 2>&1; echo "rc=$?" >> $R/bench_chol.log
tail -n 1 $R/*.log
cd $OUT && tar czf r.tgz r && rm -rf r
