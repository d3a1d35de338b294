#!/bin/bash
# Call 4: chol_tensor back on chol_potrf_phase (the shuffle factor of call 3 lost), with the
# cp.async loads; why NT = 2 / 3 are slow: forced NT = 4 and the shared-memory carveout.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
P="python3 scripts/probe_chol_tensor.py profile --dtype float64 --batches 10240"
{ timeout 60 $P --sizes 64,96,128
  timeout 60 $P --sizes 64,96 --nt 4 | tail -2
  timeout 60 $P --sizes 64,96,128 --carveout 100 | tail -3; } > $R/profile.md 2>&1
timeout 100 python3 scripts/probe_chol_tensor.py check > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt
tar czf $OUT/r.tgz -C $OUT r
grep -c FAIL $R/check.txt; tail -1 $R/check.txt; cat $R/profile.md
