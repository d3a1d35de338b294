#!/bin/bash
# Call 2 (H100): `peel` on / off at every gebrd_cols size (and gebrd_blocked's rest), the trip
# loops unrolled by two, float64 n = 64 matrices per block.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 240 python3 scripts/probe_gebrd_reg.py peel > $R/peel.txt 2>&1
timeout 150 python3 scripts/probe_gebrd.py unroll > $R/unroll.txt 2>&1
OUT=$R timeout 60 python3 scripts/probe_gebrd_reg.py pick float64:64:pb > $R/pick.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/peel.txt $R/unroll.txt | cut -c1-400; cut -c1-600 $R/pick.txt
