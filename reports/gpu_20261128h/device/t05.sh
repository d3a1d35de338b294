#!/bin/bash
# Call 5: five more draws (LINALG_SWEEP_SEED 4-8, 100 cases an operation: 1400 each).
source scripts/device_preamble.sh
for s in 4 5 6 7 8; do
  LINALG_SWEEP_SEED=$s LINALG_SWEEP_PER_OP=100 timeout 110 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 -rf -p no:benchmark tests/linalg/test_sweep.py > $R/sweep$s.txt 2>&1
  echo "rc $?" >> $R/sweep$s.txt
  tar czf $OUT/r.tgz -C $OUT r
done
cat $R/gpu.txt; for s in 4 5 6 7 8; do grep -v "^\.*s*\.* *\[" $R/sweep$s.txt | grep -v Warning | cut -c1-300 | tail -8; done
