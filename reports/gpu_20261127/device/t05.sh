#!/bin/bash
# Call 5: NT = 3's slowness against the block's thread count (128 / 192 / 256), and the float64
# timing grid over n and batch that the dispatch rule is read from.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
P="python3 scripts/probe_chol_tensor.py profile --dtype float64 --batches 10240"
{ timeout 60 $P --sizes 96,128
  timeout 60 $P --sizes 96 --threads 128 | tail -1
  timeout 60 $P --sizes 96 --threads 256 | tail -1
  timeout 60 $P --sizes 64 --threads 256 | tail -1; } > $R/profile.md 2>&1
timeout 240 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 33,48,56,64 --batches 1000,3000,10240,100000 --output $R/time_f64_small.md > /dev/null 2> $R/time_err.txt
timeout 200 python3 scripts/probe_chol_tensor.py time --dtype float64 --sizes 72,96,104,112,120,128 --batches 1000,3000,10240,30000 --output $R/time_f64_large.md > /dev/null 2>> $R/time_err.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/profile.md $R/time_f64_small.md $R/time_f64_large.md; tail -5 $R/time_err.txt
