#!/bin/bash
# Call 4: chol_global with its block-column loads AHEAD deep: checked, its phases profiled
# (batch 1 and 100), timed against the default path and cuSOLVER (float64 and float32) for the
# rule, and its forced-path GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_chol_tensor.py check --kernel global > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
for b in 1 100; do timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel global --sizes 160,256,384,512 --batches $b >> $R/profile.md 2>&1; done
timeout 200 python3 scripts/probe_chol_tensor.py time --kernel global --dtype float64 --sizes 160,256,384,512 --batches 1,2,4,8,32,100,264,500,1000 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt
timeout 120 python3 scripts/probe_chol_tensor.py time --kernel global --dtype float32 --sizes 160,256,384,512 --batches 1,8,100,264,500 --output $R/time_f32.md > /dev/null 2>> $R/time_err.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_cholesky.py -k "global" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
tail -2 $R/check.txt; grep FAIL $R/check.txt | head -3; cat $R/profile.md | grep float; cut -d'|' -f2-10 $R/time_f64.md | grep "^ [0-9]"; cut -d'|' -f2-10 $R/time_f32.md | grep "^ [0-9]"; tail -3 $R/time_err.txt; tail -2 $R/tests.txt
