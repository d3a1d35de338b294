#!/bin/bash
# Call 4: three more draws of the sweep (LINALG_SWEEP_SEED 1-3, 40 cases an operation: 560 each).
source scripts/device_preamble.sh
for s in 1 2 3; do
  LINALG_SWEEP_SEED=$s LINALG_SWEEP_PER_OP=40 timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 -rf -p no:benchmark tests/linalg/test_sweep.py > $R/sweep$s.txt 2>&1
  echo "rc $?" >> $R/sweep$s.txt
  tar czf $OUT/r.tgz -C $OUT r
done
cat $R/gpu.txt; for s in 1 2 3; do grep -v "^\.*s*\.* *\[" $R/sweep$s.txt | grep -v Warning | cut -c1-300 | tail -25; done
