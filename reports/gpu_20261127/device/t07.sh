#!/bin/bash
# Call 7: the final chol_tensor configuration (128 threads at NT = 2 / 3, 256 at NT = 4, launch
# bound 256, 2): the float64 grid the rule is read from, then the whole GPU suite beside
# compute-sanitizer memcheck of scripts/sanitizer_smoke.py.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 33,40,48,64,72,80,96,112,128 --batches 1000,10240,30000 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt
cat $R/time_f64.md
compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/memcheck.txt 2>&1 &
timeout 380 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait; echo "rc $?" >> $R/memcheck.txt
tar czf $OUT/r.tgz -C $OUT r
tail -2 $R/memcheck.txt; tail -3 $R/tests.txt; tail -3 $R/time_err.txt
