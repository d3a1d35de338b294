#!/bin/bash
# Call 6 (final rules: POTRS with n vectors up to n = 160 on chol_tensor_solve, TRSM up to 160
# below 300 matrices on chol_tensor_trsm): public calls at small batches against the vendor,
# and TRSM at the rule's bound.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/bench_small_batch.py --ops trsm,potrsn,posvn --sizes 136,160 --batches 1,8,100,200 --output $R/small > $R/small.txt 2>&1
echo "rc $?" >> $R/small.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 scripts/probe_triangle_192.py --sizes 160 --batches 250,300 --ops trsm > $R/probe_trsm.md 2>&1
echo "rc $?" >> $R/probe_trsm.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 30 $R/small.txt; cat $R/probe_trsm.md
