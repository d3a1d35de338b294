#!/bin/bash
# Call 9: chol_tensor in place against the in-place panels (the bench's ours_ms), kept inputs
# beside, float64, at the batches of the small-batch rules and at 10240.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 48,64,96,112,128 --batches 64,500,2000,10240 --output $R/time_inplace_f64.md > /dev/null 2> $R/time_err.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/time_inplace_f64.md; tail -3 $R/time_err.txt
