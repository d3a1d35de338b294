#!/bin/bash
# Call 2: where chol_tensor's time goes (cycles a phase, -DCT_PROFILE), and the float64 timings
# that ran out of memory in call 1 (the probe now frees its pool between cases).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 60 python3 scripts/probe_chol_tensor.py profile --dtype float64 --sizes 64,128 --batches 10240 > $R/profile.md 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py profile --dtype float32 --sizes 128 --batches 10240 >> $R/profile.md 2>&1
timeout 150 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 40,64,96,128 --batches 10240 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/profile.md $R/time_f64.md; tail -5 $R/time_err.txt
