#!/bin/bash
# Call 3: chol_tensor with cp.async loads (float64), stores AHEAD entries at a time and the
# diagonal factor in registers by shuffles: check, memcheck, phase cycles, timings.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_chol_tensor.py check > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_chol_tensor.py small > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
timeout 60 python3 scripts/probe_chol_tensor.py profile --dtype float64 --sizes 64,96,128 --batches 10240 > $R/profile.md 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py profile --dtype float32 --sizes 64,128 --batches 10240 >> $R/profile.md 2>&1
timeout 150 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 40,64,80,96,112,128 --batches 10240 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt
timeout 100 python3 scripts/probe_chol_tensor.py time --dtype float32 --sizes 64,128 --batches 10240 --output $R/time_f32.md > /dev/null 2>> $R/time_err.txt
tar czf $OUT/r.tgz -C $OUT r
grep -c FAIL $R/check.txt; tail -1 $R/check.txt; tail -2 $R/memcheck.txt; cat $R/profile.md $R/time_f64.md $R/time_f32.md; tail -5 $R/time_err.txt
