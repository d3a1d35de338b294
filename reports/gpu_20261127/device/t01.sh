#!/bin/bash
# Call 1: kernels/potrf.cu chol_tensor, first run: the LAPACK check (both dtypes, n = 33..128,
# every form), memcheck on its small run, and the float64 timing grid against the default path.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
python3 -c "import cupy, torch; print('cupy', cupy.__version__, 'cuda', cupy.cuda.runtime.runtimeGetVersion(), 'torch', torch.__version__)" >> $R/gpu.txt
timeout 150 python3 scripts/probe_chol_tensor.py check > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
tail -1 $R/check.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_chol_tensor.py small > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
timeout 200 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 40,64,96,128 --batches 1000,10240,100000 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt
timeout 100 python3 scripts/probe_chol_tensor.py time --dtype float32 --sizes 64,128 --batches 10240 --output $R/time_f32.md > /dev/null 2>> $R/time_err.txt
tar czf $OUT/r.tgz -C $OUT r
grep -c FAIL $R/check.txt; tail -2 $R/memcheck.txt; cat $R/time_f64.md $R/time_f32.md; tail -5 $R/time_err.txt
